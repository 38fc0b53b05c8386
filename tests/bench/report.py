#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the bench logs in build/bench into results.json, results.md and
editor-swap.png (gnuplot).  Usage: report.py DIR"""
import glob
import json
import os
import statistics
import subprocess
import sys

out = sys.argv[1]
KERNEL = {"plain": "unpatched", "unused": "patched", "swapnice": "patched"}
LRUS = ("classic", "mglru")
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
logs = [os.path.join(out, l + ".log") for l in ("plain", "unused", "swapnice")]
logs += sorted(glob.glob(os.path.join(out, "cost-*.log")))
logs += sorted(glob.glob(os.path.join(out, "opposite-*.log")))
for path in logs:
    if not os.path.exists(path):  # tests/bench/run scaling alone
        continue
    # plain.log, cost-plain-1.log, opposite-swapnice-2.log, ...: the
    # boot's label names the kernel
    name = os.path.basename(path)[:-4]
    label = name.split("-")[1] if "-" in name else name
    with open(path, errors="replace") as f:
        for line in f:
            line = line.strip()
            if line.startswith("# result "):
                kv = parse(line)
                key = (KERNEL[label], kv["lru"], kv["setup"], kv["work"])
                runs.setdefault(key, []).append(kv)
            elif line.startswith("# sample "):
                kv = parse(line)
                if int(kv["swap_kb"]) < 0:  # the editor is gone
                    continue
                samples.setdefault((kv["setup"], kv["lru"]), []).append(
                    (int(kv["t_ms"]) / 1000.0, int(kv["swap_kb"]) / 1024.0))
            elif line.startswith("# overhead "):
                kv = parse(line)
                overhead.setdefault((KERNEL[label], kv["lru"]), []).append(kv)
            elif line.startswith("# opposite "):
                kv = parse(line)
                opposite.setdefault((KERNEL[label], kv["lru"]), []).append(
                    int(kv["main_alloc_ms"]))


def med(xs):
    return statistics.median(xs) if xs else None


rows = []
for (kernel, lru, setup, work), rs in sorted(runs.items()):
    row = {"kernel": kernel, "lru": lru, "setup": setup, "work": work, "runs": len(rs),
           "backup_completed": all(r["backup_completed"] == "1" for r in rs),
           "editor_killed": sum(r.get("editor_killed") == "1" for r in rs),
           "spread": {}}
    for f in FIELDS:
        xs = [float(r[f]) for r in rs]
        row[f] = med(xs)
        row["spread"][f] = [min(xs), max(xs)]
    rows.append(row)


def ratio(a, b):
    return round(a / b, 3) if a is not None and b else None


def figures(kernel, lru):
    oh = overhead.get((kernel, lru), [])
    ms = [float(o["ms"]) for o in oh]
    scan = [float(o["pgscan"]) for o in oh]
    alloc = [float(x) for x in opposite.get((kernel, lru), [])]
    return {"overhead_ms": med(ms), "overhead_pgscan": med(scan), "main_alloc_ms": med(alloc),
            "runs": len(ms), "opposite_runs": len(alloc), "spread": {"overhead_ms": [min(ms), max(ms)] if ms else None,
                                        "overhead_pgscan": [min(scan), max(scan)] if scan else None,
                                        "main_alloc_ms": [min(alloc), max(alloc)] if alloc else None}}


by_lru = {}
for lru in LRUS:
    p, u = figures("patched", lru), figures("unpatched", lru)
    by_lru[lru] = {"patched": p, "unpatched": u,
                   "time_ratio": ratio(p["overhead_ms"], u["overhead_ms"]),
                   "pgscan_ratio": ratio(p["overhead_pgscan"], u["overhead_pgscan"]),
                   "main_allocator_ratio": ratio(p["main_alloc_ms"], u["main_alloc_ms"])}


def worst(key):
    # The headline figure is the LRU the series costs most on.
    xs = [by_lru[l][key] for l in LRUS if by_lru[l][key] is not None]
    return max(xs) if xs else None


# Scaling: scaling-1x.log (256 MB guest), scaling-4x.log (1 GB), ...;
# a row per setup, LRU, size and mappers, medians of its repeats.
SCALING = ["pgscan", "pgsteal", "sys_s", "kswapd_s", "editor_peak_swap_pct",
           "file_resident_pm", "backup_s", "swapnice_protected"]
sruns = {}
for path in sorted(glob.glob(os.path.join(out, "scaling-*.log"))):
    factor = int(os.path.basename(path)[len("scaling-"):-len("x.log")])
    with open(path, errors="replace") as f:
        for line in f:
            if not line.startswith("# result "):
                continue
            kv = parse(line.strip())
            # The protected memory and how many processes map it (the
            # editor alone: 1).
            key = (256 * factor, int(kv["editor_mb"]) + int(kv.get("file_mb", 0)),
                   max(1, int(kv.get("mappers", 1))), kv["lru"], kv["setup"])
            sruns.setdefault(key, []).append(kv)
scaling = []
for (guest_mb, protected_mb, mappers, lru, setup), rs in sorted(sruns.items()):
    m = {f: med([float(r[f]) for r in rs]) for f in SCALING}
    scaling.append({
        "setup": setup, "lru": lru, "guest_mb": guest_mb, "protected_mb": protected_mb,
        "mappers": mappers, "runs": len(rs),
        "pgscan": m["pgscan"], "pgsteal": m["pgsteal"],
        "reclaim_cpu_s": {"system": m["sys_s"], "kswapd": m["kswapd_s"]},
        "editor_peak_swap_pct": m["editor_peak_swap_pct"],
        "file_resident_pm": m["file_resident_pm"] if protected_mb > int(rs[0]["editor_mb"]) else None,
        "backup_s": m["backup_s"],
        "backup_completed": all(r["backup_completed"] == "1" for r in rs),
        "swapnice_protected": m["swapnice_protected"],
        "spread": {f: [min(float(r[f]) for r in rs), max(float(r[f]) for r in rs)]
                   for f in ("pgscan", "sys_s", "backup_s")},
    })

result = {
    "rows": rows,
    "scaling": scaling,
    "overhead": {
        "time_ratio": worst("time_ratio"),
        "pgscan_ratio": worst("pgscan_ratio"),
        "main_allocator_ratio": worst("main_allocator_ratio"),
        "by_lru": by_lru,
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
    lines.append("| %s | %s | %s | %s | %.1f%%%s | %d ms (%d) | %.1f s | %s | %s | %d | %d |" % (
        r["work"], r["lru"], r["setup"], r["kernel"], r["editor_peak_swap_pct"],
        (", editor killed in %d of %d" % (r["editor_killed"], r["runs"])) if r["editor_killed"] else "",
        r["editor_retouch_ms"], r["editor_base_ms"], r["backup_s"],
        ("%.2fx" % (r["backup_s"] / ml)) if ml else "-",
        "yes" if r["backup_completed"] else "NO", r["pgscan"], r["pswpout"]))
lines += ["", "Medians of %s runs each (spread in results.json); re-touch of an editor "
          "that was killed counts as -1." % (max(r["runs"] for r in rows) if rows else 0), "",
          "| cost, patched / unpatched | LRU | reclaim-heavy job, time | its pgscan "
          "| main allocator at 0 beside a swapnice-10 one, time | runs (job / allocator) |",
          "| --- | --- | ---: | ---: | ---: | ---: |"]
for lru in LRUS:
    b = by_lru[lru]
    lines.append("| | %s | %s (%s / %s ms) | %s | %s (%s / %s ms) | %d / %d |" % (
        lru, b["time_ratio"], b["patched"]["overhead_ms"], b["unpatched"]["overhead_ms"],
        b["pgscan_ratio"], b["main_allocator_ratio"], b["patched"]["main_alloc_ms"],
        b["unpatched"]["main_alloc_ms"], b["unpatched"]["runs"], b["unpatched"]["opposite_runs"]))
if not rows:  # tests/bench/run scaling alone
    lines = []
if scaling:
    lines += ["", "Scaling: swapnice beside memory.low as the protected memory and its "
              "mappers grow (medians of %d run(s) each; CPU seconds: all system time, kswapd's)."
              % max(r["runs"] for r in scaling), "",
              "| guest | protected | mappers | LRU | setup | editor peak swap | file resident | pgscan | vs memory.low | pgsteal | CPU s (system / kswapd) | backup |",
              "| ---: | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    low = {(r["guest_mb"], r["protected_mb"], r["mappers"], r["lru"]): r["pgscan"]
           for r in scaling if r["setup"] == "memory.low"}
    for r in sorted(scaling, key=lambda r: (r["guest_mb"], -r["protected_mb"], r["mappers"], r["lru"], r["setup"] != "swapnice")):
        ml = low.get((r["guest_mb"], r["protected_mb"], r["mappers"], r["lru"]))
        lines.append("| %d MB | %d MB | %d | %s | %s | %.1f%% | %s | %d | %s | %d | %.1f / %.1f | %.1f s%s |" % (
            r["guest_mb"], r["protected_mb"], r["mappers"], r["lru"], r["setup"],
            r["editor_peak_swap_pct"], ("%d per mille" % r["file_resident_pm"]) if r["file_resident_pm"] is not None else "-",
            r["pgscan"], ("%.2fx" % (r["pgscan"] / ml)) if ml else "-", r["pgsteal"],
            r["reclaim_cpu_s"]["system"], r["reclaim_cpu_s"]["kswapd"], r["backup_s"],
            "" if r["backup_completed"] else ", NOT completed"))
with open(os.path.join(out, "results.md"), "w") as f:
    f.write("\n".join(lines) + "\n")

SETUP_COLOURS = {"plain": "#d62728", "swappiness0": "#ff7f0e", "memory.low": "#2ca02c",
                 "mlock": "#1f77b4", "swapnice": "#000000", "unused": "#9467bd"}

# editor-swap.png: the editor's swapped memory during the backup (first repeat).
dat = os.path.join(out, "editor-swap.dat")
plots = []
with open(dat, "w") as f:
    for i, ((setup, lru), pts) in enumerate(sorted(samples.items())):
        f.write("# %s (%s)\n" % (setup, lru))
        for t, mb in pts:
            f.write("%.2f %.2f\n" % (t, mb))
        f.write("\n\n")
        # One colour a setup, one dash pattern an LRU: twelve lines would
        # otherwise run through gnuplot's eight colours and share them.
        plots.append("'%s' index %d with lines lw 2 lc rgb '%s' dt %d title '%s (%s)'" % (
            dat, i, SETUP_COLOURS.get(setup, "#000000"), 1 if lru == "classic" else 2, setup, lru))
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
