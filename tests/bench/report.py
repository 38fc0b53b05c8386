#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the bench logs in build/bench into results.json, results.md and
editor-swap.png (gnuplot).  Usage: report.py DIR"""
import json
import os
import statistics
import subprocess
import sys

out = sys.argv[1]
KERNEL = {"plain": "unpatched", "unused": "patched", "swapnice": "patched"}
FIELDS = ["editor_peak_swap_pct", "editor_retouch_ms", "editor_base_ms", "backup_s",
          "pgscan", "pgsteal", "pswpin", "pswpout"]


def parse(line):
    kv = {}
    for tok in line.split()[2:]:
        if "=" in tok:
            k, v = tok.split("=", 1)
            kv[k] = v
    return kv


runs, samples, overhead, opposite = {}, {}, {}, {}
for label in ("plain", "unused", "swapnice"):
    path = os.path.join(out, label + ".log")
    with open(path, errors="replace") as f:
        for line in f:
            line = line.strip()
            if line.startswith("# result "):
                kv = parse(line)
                key = (KERNEL[label], kv["lru"], kv["setup"], kv["work"])
                runs.setdefault(key, []).append(kv)
            elif line.startswith("# sample "):
                kv = parse(line)
                samples.setdefault((kv["setup"], kv["lru"]), []).append(
                    (int(kv["t_ms"]) / 1000.0, int(kv["swap_kb"]) / 1024.0))
            elif line.startswith("# overhead "):
                kv = parse(line)
                overhead.setdefault(KERNEL[label], []).append(kv)
            elif line.startswith("# opposite "):
                kv = parse(line)
                opposite.setdefault(KERNEL[label], []).append(int(kv["main_alloc_ms"]))


def med(xs):
    return statistics.median(xs) if xs else None


rows = []
for (kernel, lru, setup, work), rs in sorted(runs.items()):
    row = {"kernel": kernel, "lru": lru, "setup": setup, "work": work, "runs": len(rs),
           "backup_completed": all(r["backup_completed"] == "1" for r in rs),
           "spread": {}}
    for f in FIELDS:
        xs = [float(r[f]) for r in rs]
        row[f] = med(xs)
        row["spread"][f] = [min(xs), max(xs)]
    rows.append(row)


def ratio(a, b):
    return round(a / b, 3) if a is not None and b else None


oh_p = med([float(o["ms"]) for o in overhead.get("patched", [])])
oh_u = med([float(o["ms"]) for o in overhead.get("unpatched", [])])
sc_p = med([float(o["pgscan"]) for o in overhead.get("patched", [])])
sc_u = med([float(o["pgscan"]) for o in overhead.get("unpatched", [])])
result = {
    "rows": rows,
    "overhead": {
        "time_ratio": ratio(oh_p, oh_u),
        "pgscan_ratio": ratio(sc_p, sc_u),
        "main_allocator_ratio": ratio(med(opposite.get("patched", [])),
                                      med(opposite.get("unpatched", []))),
        "overhead_ms": {"patched": oh_p, "unpatched": oh_u},
        "main_allocator_ms": {"patched": med(opposite.get("patched", [])),
                              "unpatched": med(opposite.get("unpatched", []))},
    },
}
with open(os.path.join(out, "results.json"), "w") as f:
    json.dump(result, f, indent=1)

memlow = {(r["lru"], r["work"]): r["backup_s"] for r in rows if r["setup"] == "memory.low"}
plain = {(r["lru"], r["work"]): r for r in rows if r["setup"] == "plain"}
lines = ["| work | LRU | setup | kernel | editor peak swap | re-touch (unpressured) | backup | vs memory.low | completed | pgscan | pswpout |",
         "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |"]
order = ["plain", "swappiness0", "memory.low", "mlock", "swapnice", "unused"]
for r in sorted(rows, key=lambda r: (r["work"], r["lru"], order.index(r["setup"]))):
    ml = memlow.get((r["lru"], r["work"]))
    lines.append("| %s | %s | %s | %s | %.1f%% | %d ms (%d) | %.1f s | %s | %s | %d | %d |" % (
        r["work"], r["lru"], r["setup"], r["kernel"], r["editor_peak_swap_pct"],
        r["editor_retouch_ms"], r["editor_base_ms"], r["backup_s"],
        ("%.2fx" % (r["backup_s"] / ml)) if ml else "-",
        "yes" if r["backup_completed"] else "NO", r["pgscan"], r["pswpout"]))
o = result["overhead"]
lines += ["", "Medians of %s runs each (spread in results.json)." % (max(r["runs"] for r in rows) if rows else 0),
          "Cost with nobody's swapnice set (patched/unpatched): time %s, pgscan %s; "
          "main allocator at 0 beside a small swapnice-10 allocator: %s." % (
              o["time_ratio"], o["pgscan_ratio"], o["main_allocator_ratio"])]
with open(os.path.join(out, "results.md"), "w") as f:
    f.write("\n".join(lines) + "\n")

# editor-swap.png: the editor's swapped memory during the backup (first repeat).
dat = os.path.join(out, "editor-swap.dat")
plots = []
with open(dat, "w") as f:
    for i, ((setup, lru), pts) in enumerate(sorted(samples.items())):
        f.write("# %s (%s)\n" % (setup, lru))
        for t, mb in pts:
            f.write("%.2f %.2f\n" % (t, mb))
        f.write("\n\n")
        plots.append("'%s' index %d with lines lw 2 title '%s (%s)'" % (dat, i, setup, lru))
if plots:
    script = """set terminal pngcairo size 1000,600 noenhanced
set output '%s'
set title "The editor's memory in swap during the backup (96 MB editor, 256 MB guest)"
set xlabel 'seconds since the backup started'
set ylabel 'editor VmSwap (MB)'
set key outside right
set grid
plot %s
""" % (os.path.join(out, "editor-swap.png"), ", ".join(plots))
    subprocess.run(["gnuplot"], input=script.encode(), check=False)
