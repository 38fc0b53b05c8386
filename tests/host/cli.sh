#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of tools/swapnice, in TAP, ending with "# host: N passed, N
# failed" (tests/check counts the ok and not ok lines and wants that line).
#
# The host kernel has no swapnice, so its prctl answers EINVAL: the
# no-support paths are the real ones here.  Two stand-ins cover the rest:
#   - prctl-shim.so, preloaded, answers PR_GET/PR_SET_SWAPNICE as the
#     series does, for the path that adjusts the CLI's own value and
#     exec's the command; the value survives exec in SWAPNICE_SHIM_VALUE,
#     so the command (the CLI again, with no arguments) prints it;
#   - a fake /proc (SWAPNICE_PROCFS) stands in for -p, -g and -u.
# The CLI is built with ASan, which wants its runtime first among the
# loaded libraries; the shim goes first instead, with
# verify_asan_link_order=0: it defines prctl() only, which ASan need not
# see first (its prctl interceptor only annotates PR_SET_NAME and the
# like), and the commands the CLI runs get the shim without the ASan
# runtime, which a preloaded libasan would force on them.
#
# Usage: tests/host/cli.sh SWAPNICE PRCTL-SHIM
set -u
sn=$(realpath "$1")
shim=$(realpath "$2")
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0

ok() { n=$((n + 1)); echo "ok $n $1"; }
notok() {
	n=$((n + 1)) fail=$((fail + 1))
	echo "not ok $n $1"
	shift
	printf '%s\n' "$@" | sed 's/^/#   /'
}
# is WHAT EXPECTED ACTUAL [CONTEXT...]
is() {
	local what=$1 want=$2 got=$3
	shift 3
	if [ "$want" = "$got" ]; then ok "$what"; else notok "$what" "expected: '$want'" "got:      '$got'" "$@"; fi
}
# like WHAT REGEX ACTUAL [CONTEXT...]: ACTUAL matches REGEX (grep -E)
like() {
	local what=$1 re=$2 got=$3
	shift 3
	if grep -qE -- "$re" <<<"$got"; then ok "$what"; else notok "$what" "expected to match: /$re/" "got: '$got'" "$@"; fi
}
lines() { if [ -z "$1" ]; then echo 0; else wc -l <<<"$1"; fi; }
ctx() { echo "exit $rc; stdout: '$out'; stderr: '$err'"; }

# run ARGS...: the CLI as a user runs it (argv[0] "swapnice", as getopt's
# messages name it), with the NAME=VALUE pairs in run_env, stdout to
# $run_stdout if set; sets $rc, $out and $err.
run_env=() run_stdout=
run() {
	: > "$tmp/out"
	timeout -s KILL 30 env "${run_env[@]}" bash -c 'exec -a swapnice "$0" "$@"' "$sn" "$@" \
		> "${run_stdout:-$tmp/out}" 2> "$tmp/err"
	rc=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
}
# srun VALUE ARGS...: run under the prctl shim, the CLI's own swapnice at
# VALUE, with the NAME=VALUE pairs in shim_env; $log: the requests it saw.
shim_env=()
srun() {
	local v=$1
	shift
	: > "$tmp/shimlog"
	run_env=("LD_PRELOAD=$shim" "ASAN_OPTIONS=${ASAN_OPTIONS:-}:verify_asan_link_order=0"
		"SWAPNICE_SHIM_VALUE=$v" "SWAPNICE_SHIM_LOG=$tmp/shimlog" "${shim_env[@]}")
	run "$@"
	run_env=()
	log=$(cat "$tmp/shimlog")
}

echo "TAP version 13"

# ---------------------------------------------------------------- --help, --version
run --help
is "--help: exit 0" 0 "$rc" "$(ctx)"
for o in '-n, --adjustment <num>' '-p, --pid  ' '-g, --pgrp  ' '-u, --user  '; do
	like "--help lists '$o'" "^ ${o}" "$out"
done
like "--help: -p, -g and -u are modes for the IDs that follow" '^ -p, --pid +interpret the IDs that follow' "$out"
like "--help: -n comes before the IDs" '-n must come before' "$out"
run -h
is "-h: exit 0" 0 "$rc" "$(ctx)"
version=$(make -s --no-print-directory -C "$top/tools/swapnice" version)
run --version
is "--version prints the Makefile's version" "swapnice $version" "$out" "$(ctx)"
like "the man page carries the same version" "^\.TH SWAPNICE 1 .* \"swapnice $version\"" "$(grep '^\.TH' "$top/tools/swapnice/swapnice.1")"

# Standard output that cannot be written is a failure, as util-linux's
# close_stdout() has it.
if [ -w /dev/full ]; then
	run_stdout=/dev/full
	run --help
	is "--help >/dev/full: exit 125" 125 "$rc" "$(ctx)"
	is "--help >/dev/full says so" "swapnice: write error: No space left on device" "$err"
	run --version
	is "--version >/dev/full: exit 125" 125 "$rc" "$(ctx)"
	run_stdout=
else
	for _ in 1 2 3; do n=$((n + 1)); echo "ok $n stdout to /dev/full # SKIP no /dev/full"; done
fi

# ---------------------------------------------------------------- bad usage
# ARGS|EXPECTED STDERR (regex): exit 125, getopt's or our message, the
# program's name first
while IFS='|' read -r args re; do
	eval "set -- $args"
	run "$@"
	is "bad usage '$args': exit 125" 125 "$rc" "$(ctx)"
	like "bad usage '$args': says '$re'" "^swapnice: $re" "$err"
done <<'EOF'
-n|option requires an argument -- 'n'
-n abc true|invalid adjustment 'abc'$
-n 5junk true|invalid adjustment '5junk'$
-n '' true|invalid adjustment ''$
-n ' 5' true|invalid adjustment ' 5'$
--bogus|unrecognized option '--bogus'$
-x|invalid option -- 'x'$
--pid=1|option '--pid' doesn't allow an argument$
-p|no process given with -p, -g or -u$
-n 5|a command is required with -n$
-p 100 -n 5|-n must come before the IDs$
-p 100 --adjustment=5|-n must come before the IDs$
EOF
run --bogus
like "an unknown option points to --help" "^Try 'swapnice --help' for more information\.$" "$err"
run -n 5junk echo ran
is "-n 5junk does not run the command" "" "$out" "$(ctx)"

# ---------------------------------------------------------------- without the series
run
is "no command, a kernel without swapnice: exit 125" 125 "$rc" "$(ctx)"
is "no command: says the kernel has no swapnice" "swapnice: this kernel has no per-process swap priority" "$err"

# The command still runs, with one line of warning, and its status passes through
run -n 10 sh -c 'exit 7'
is "the command's status passes through (7)" 7 "$rc" "$(ctx)"
is "one warning: the kernel has no swapnice" "swapnice: cannot set swapnice: this kernel has no per-process swap priority" "$err"
run -n 10 echo hello
is "the command runs and prints" hello "$out" "$(ctx)"
run echo default
is "default adjustment: the command runs" "0 default" "$rc $out" "$(ctx)"
run -- echo dashdash
is "-- ends the options" dashdash "$out" "$(ctx)"
run echo -n x
is "options after the command are the command's" x "$out" "$(ctx)"
run -n 99999999999999999999 echo big
is "-n beyond a long is clamped, as nice's: the command runs" "0 big" "$rc $out" "$(ctx)"

# 126 and 127
run -n 1 /nonexistent/program
is "command not found: exit 127" 127 "$rc" "$(ctx)"
like "not found is explained" "^swapnice: failed to execute /nonexistent/program: No such file or directory$" "$err"
printf 'not a program\n' > "$tmp/noexec"
chmod 644 "$tmp/noexec"
run "$tmp/noexec"
is "command found but not executable: exit 126" 126 "$rc" "$(ctx)"
mkdir "$tmp/dir"
run "$tmp/dir"
is "command is a directory: exit 126" 126 "$rc" "$(ctx)"

# -p, -g, -u: say once that the kernel cannot, not once per process
if [ -e /proc/self/swapnice ]; then
	for _ in 1 2 3 4 5 6; do n=$((n + 1)); echo "ok $n no-support check # SKIP this host kernel has swapnice"; done
else
	run -u root
	is "-u root without swapnice: exit 1" 1 "$rc" "$(ctx)"
	is "-u root without swapnice: one line, not one per process" "swapnice: this kernel has no per-process swap priority" "$err"
	run -p $$ 1 $$
	is "-p with three PIDs without swapnice: exit 1" 1 "$rc" "$(ctx)"
	is "-p with three PIDs without swapnice: one line" 1 "$(lines "$err")" "$(ctx)"
	run -n 5 -g $$ -u 0
	is "-n 5 -g -u without swapnice: exit 1" 1 "$rc" "$(ctx)"
	is "-n 5 -g -u without swapnice: one line" 1 "$(lines "$err")" "$(ctx)"
fi

# ---------------------------------------------------------------- own value, exec (prctl shim)
srun 7
is "no command prints the own value" "0 7" "$rc $out" "$(ctx)"
if [ -w /dev/full ]; then
	run_stdout=/dev/full
	srun 7
	run_stdout=
	is "no command >/dev/full: exit 125" 125 "$rc" "$(ctx)"
	like "no command >/dev/full: write error" "^swapnice: write error: No space left on device$" "$err"
fi
srun 0 "$sn"
is "default adjustment: 0 + 10, the command runs at 10" "0 10" "$rc $out" "$(ctx)"
is "default adjustment: one get, one set of 10, then the command's get of 10" $'get -> 20\nset 10 -> 0\nget -> 30' "$log"
srun 5 -n -3 "$sn"
is "-n -3 at 5: the command runs at 2" 2 "$out" "$(ctx)"
srun 5 -n 3 "$sn"
is "-n 3 at 5: the command runs at 8" 8 "$out" "$(ctx)"
srun 15 "$sn"
is "default at 15: clamped to 19" 19 "$out" "$(ctx)"
srun -18 -n -5 "$sn"
is "-n -5 at -18: clamped to -20" -20 "$out" "$(ctx)"
srun 0 -n 2 "$sn" -n 3 "$sn"
is "the value survives exec: 0 + 2 + 3" 5 "$out" "$(ctx)"

# The overflow of issue 19: current + adjustment computed before the
# clamp ran the command at the opposite end of the range.
while read -r cur adj want; do
	srun "$cur" -n "$adj" "$sn"
	is "-n $adj at $cur: the command runs at $want" "0 $want" "$rc $out" "$(ctx)"
	is "-n $adj at $cur: the kernel is asked for $want" "set $want -> 0" "$(grep '^set' <<<"$log")" "shim log: $log"
done <<'EOF'
5 9223372036854775807 19
-5 -9223372036854775808 -20
5 99999999999999999999 19
5 -99999999999999999999 -20
-20 39 19
19 -39 -20
-20 2147483647 19
19 -2147483649 -20
EOF
srun 4 -n 0 "$sn"
is "-n 0: the command runs at the same value" 4 "$out" "$(ctx)"
is "-n 0: no PR_SET_SWAPNICE" "" "$(grep '^set' <<<"$log")" "shim log: $log"
srun 19 "$sn"
is "already at 19: no PR_SET_SWAPNICE" "0 19 " "$rc $out $(grep '^set' <<<"$log")" "shim log: $log"

srun 3 sh -c 'exit 7'
is "under the shim, the command's status passes through (7)" "7 " "$rc $err" "$(ctx)"
srun 3 /nonexistent/program
is "under the shim, command not found: exit 127" 127 "$rc" "$(ctx)"

# Lowering without CAP_SYS_NICE: the kernel's EACCES; warn, run anyway
shim_env=(SWAPNICE_SHIM_UNPRIVILEGED=1)
srun 5 -n -2 "$sn"
is "unprivileged -n -2 at 5: the command still runs, at 5" "0 5" "$rc $out" "$(ctx)"
is "unprivileged -n -2 at 5: one line, why" "swapnice: cannot set swapnice to 3: Permission denied (lowering it needs CAP_SYS_NICE)" "$err"
srun 5 -n 2 "$sn"
is "unprivileged -n 2 at 5: raising is allowed, the command runs at 7" "0 7 " "$rc $out $err" "$(ctx)"
# Any other failure to set: 125, the command does not run
shim_env=(SWAPNICE_SHIM_ERRNO=5)
srun 5 echo ran
is "set failing with EIO: exit 125, the command does not run" "125 " "$rc $out" "$(ctx)"
is "set failing with EIO: says so" "swapnice: cannot set swapnice to 15: Input/output error" "$err"
shim_env=()

# ---------------------------------------------------------------- -p, -g, -u on a fake /proc
fake=$tmp/proc
mkdir -p "$fake/self" "$fake/100" "$fake/200" "$fake/300"
echo 0 > "$fake/self/swapnice"
echo 3 > "$fake/100/swapnice"
echo -5 > "$fake/200/swapnice"
echo 7 > "$fake/300/swapnice"
# proc_entry PID PGRP UID
proc_entry() {
	mkdir -p "$fake/$1"
	echo "$1 (cmd) S 1 $2 $2 0" > "$fake/$1/stat"
	printf 'Name:\tcmd\nUid:\t%s\t%s\t%s\t%s\n' "$3" 0 0 0 > "$fake/$1/status"
}
proc_entry 100 41 1000
proc_entry 200 41 0
proc_entry 300 42 0
run_env=("SWAPNICE_PROCFS=$fake")
run -p 100 200
is "-p shows two processes: exit 0" 0 "$rc" "$(ctx)"
is "-p prints each value" $'100 (process ID) swapnice 3\n200 (process ID) swapnice -5' "$out"
run -n 12 -p 100
is "-n 12 -p sets it absolutely" 12 "$(cat "$fake/100/swapnice")" "$(ctx)"
is "-n -p prints old and new" "100 (process ID) old swapnice 3, new swapnice 12" "$out"
run -n 99 -p 100
is "-n 99 -p clamps to 19" 19 "$(cat "$fake/100/swapnice")" "$(ctx)"
run -n -99 -p 100
is "-n -99 -p clamps to -20" -20 "$(cat "$fake/100/swapnice")" "$(ctx)"
run -n 99999999999999999999 -p 100
is "-n beyond a long -p clamps to 19" "0 19" "$rc $(cat "$fake/100/swapnice")" "$(ctx)"
run -p 100 999 200
is "-p with a missing PID: exit 1" 1 "$rc" "$(ctx)"
is "one line for the missing PID" "swapnice: failed to get swapnice for 999: No such process" "$err"
is "the other PIDs are still handled" 2 "$(lines "$out")" "$(ctx)"
run -p 0
is "-p 0 is not a PID: exit 1" 1 "$rc" "$(ctx)"
run -p -- -5
is "-p -5 is not a PID: exit 1" 1 "$rc" "$(ctx)"
run -p abc
is "-p abc: exit 1, says why" "1 swapnice: invalid PID 'abc'" "$rc $err" "$(ctx)"
run -g 41
is "-g 41 finds the two processes of group 41" "0 2" "$rc $(lines "$out")" "$(ctx)"
run -u root
is "-u root finds root's processes only" $'200\n300' "$(cut -d' ' -f1 <<<"$out" | sort)" "$(ctx)"
run -u 1000
like "-u takes a numeric uid" '^100 ' "$out" "$(ctx)"
run -u no-such-user-here
is "-u with an unknown user: exit 1" 1 "$rc" "$(ctx)"
is "names the unknown user" "swapnice: unknown user 'no-such-user-here'" "$err"
run -n 5 -p 300 -g 41
is "-p and -g mix in one call, as renice's" "0 3" "$rc $(lines "$out")" "$(ctx)"
if [ -w /dev/full ]; then
	run_stdout=/dev/full
	run -p 100
	run_stdout=
	is "-p >/dev/full: exit 1" 1 "$rc" "$(ctx)"
	is "-p >/dev/full: write error" "swapnice: write error: No space left on device" "$err"
fi
if [ "$(id -u)" != 0 ]; then
	chmod 444 "$fake/300/swapnice"
	run -n 1 -p 300
	is "a write refused: exit 1" 1 "$rc" "$(ctx)"
	chmod 644 "$fake/300/swapnice"
fi
mkdir -p "$fake/400"
run -p 400
is "a process without the file: no swapnice in this kernel" "swapnice: failed to get swapnice for 400: this kernel has no per-process swap priority" "$err"
echo junk > "$fake/100/swapnice"
run -p 100
is "a malformed value from /proc is an error, not a number" 1 "$rc" "$(ctx)"
echo 3 > "$fake/100/swapnice"

# After setting, the value the kernel reports, as renice prints it: a FIFO
# serves the old value 3, takes the write, then answers 8.
proc_entry 600 43 0
mkfifo "$fake/600/swapnice"
timeout 10 bash -c 'echo 3 > "$1"; cat "$1" > "$2"; echo 8 > "$1"' _ "$fake/600/swapnice" "$tmp/written" &
helper=$!
run -n 12 -p 600
wait $helper
is "-n 12 -p: wrote 12" 12 "$(cat "$tmp/written")" "$(ctx)"
is "-n 12 -p: prints the value read back" "600 (process ID) old swapnice 3, new swapnice 8" "$out" "$(ctx)"
rm -rf "$fake/600"

# A process that exits during -g's scan is skipped: the FIFO is opened,
# then the process's directory goes and the read finds nothing.
proc_entry 700 44 0
proc_entry 701 44 0
echo 2 > "$fake/701/swapnice"
mkfifo "$fake/700/swapnice"
timeout 10 bash -c 'exec 3> "$1"; rm -rf "$2"; exec 3>&-' _ "$fake/700/swapnice" "$fake/700" &
helper=$!
run -g 44
wait $helper
is "-g with a process exiting during the scan: exit 0, nothing said" "0 " "$rc $err" "$(ctx)"
is "-g with a process exiting during the scan: the other is shown" "701 (process ID) swapnice 2" "$out"
run_env=()

# ---------------------------------------------------------------- bash completion
comp=$top/tools/swapnice/swapnice.bash-completion
# complete WORDS...: what bash offers for the last word, one a line
complete_words() {
	bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _swapnice; printf "%s\n" "${COMPREPLY[@]}" | sort' \
		_ "$comp" "$@" 2>&1
}
is "completion is registered" "complete -F _swapnice swapnice" "$(bash -c 'source "$1"; complete -p swapnice' _ "$comp" 2>&1)"
is "completes --p" $'--pgrp\n--pid' "$(complete_words swapnice --p)"
is "completes -n's values, -20 to 19" "40 -20 19" "$(complete_words swapnice -n '' | sort -n | awk '{ a[NR] = $0 } END { print NR, a[1], a[NR] }')"
like "completes PIDs after -p" "^$$\$" "$(complete_words swapnice -n 5 -p '')"
like "completes users after -u" '^root$' "$(complete_words swapnice -u ro)"
like "completes the command" '^echo$' "$(complete_words swapnice ech)"
is "completes the command's arguments" "$tmp/noexec" "$(complete_words swapnice -n 5 cat "$tmp/noe")"

# ---------------------------------------------------------------- make install, uninstall
inst=$tmp/inst
if make -s --no-print-directory -C "$top" install DESTDIR="$inst" PREFIX=/usr > "$tmp/make.log" 2>&1; then
	got=$(cd "$inst" && find . -type f | sort)
	is "make install: the CLI, its man page and its bash completion" \
		$'./usr/bin/swapnice\n./usr/share/bash-completion/completions/swapnice\n./usr/share/man/man1/swapnice.1' "$got"
	make -s --no-print-directory -C "$top" uninstall DESTDIR="$inst" PREFIX=/usr > "$tmp/make.log" 2>&1
	is "make uninstall removes them" "" "$(cd "$inst" && find . -type f)" "$(cat "$tmp/make.log")"
else
	notok "make install" "$(cat "$tmp/make.log")"
	notok "make uninstall" "not run"
fi

# ---------------------------------------------------------------- uapi
# uapi/ matches the series' include/uapi/linux/prctl.h
prctl_h=$top/build/linux/include/uapi/linux/prctl.h
if [ -f "$prctl_h" ] && grep -q PR_SET_SWAPNICE "$prctl_h"; then
	defs() { grep -hoE '#\s*define\s+PR_(SET|GET)?_?SWAPNICE\w*\s+\S+' "$1" | awk '{print $2, $3}' | sort; }
	if [ -n "$(defs "$prctl_h")" ] && [ "$(defs "$prctl_h")" = "$(defs "$top/uapi/linux/swapnice.h")" ]; then
		ok "uapi/linux/swapnice.h agrees with the series' prctl.h ($(defs "$prctl_h" | wc -l) definitions)"
	else
		notok "uapi/linux/swapnice.h agrees with the series' prctl.h" "series: $(defs "$prctl_h" | tr '\n' ' ')" "uapi/: $(defs "$top/uapi/linux/swapnice.h" | tr '\n' ' ')"
	fi
else
	n=$((n + 1)); echo "ok $n uapi agreement # SKIP the series is not applied in build/linux"
fi

# ---------------------------------------------------------------- man page
if command -v man > /dev/null; then
	w=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$top/tools/swapnice/swapnice.1" 2>&1 > /dev/null)
	is "swapnice.1 renders without warnings" "" "$w"
	page=$(LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$top/tools/swapnice/swapnice.1" 2> /dev/null)
	for word in swapnice_weight swapnice_from_nice /proc/sys/vm /proc/PID/swapnice CAP_SYS_NICE SWAPNICE_PROCFS \
		'-n must come before the IDs' 'all its threads share it' 'Documentation/admin-guide/mm/swapnice.rst'; do
		like "the man page says '$word'" "$word" "$(tr -s ' \n' '  ' <<<"$page")"
	done
	is "the man page's sections, in man-pages(7)'s order" \
		"NAME SYNOPSIS DESCRIPTION OPTIONS EXIT STATUS ENVIRONMENT FILES NOTES EXAMPLES SEE ALSO" \
		"$(grep -E '^[A-Z][A-Z ]+$' <<<"$page" | tr '\n' ' ' | sed 's/ $//')"
else
	n=$((n + 1)); echo "ok $n man page # SKIP no man (apt-get install man-db)"
fi

echo "1..$n"
echo "# host: $((n - fail)) passed, $fail failed"
[ $fail = 0 ]
