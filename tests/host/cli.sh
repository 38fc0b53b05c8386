#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host tests of tools/swapnice, in TAP.  The host kernel has no swapnice,
# so prctl answers EINVAL: the no-support path is the real one here, and
# a fake /proc (SWAPNICE_PROCFS) stands in for -p.
# Usage: tests/host/cli.sh PATH-TO-SWAPNICE
set -u
sn=$1
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fail=0

ok() { n=$((n + 1)); echo "ok $n $1"; }
notok() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n $1"; shift; for l in "$@"; do echo "#   $l"; done; }

# run ARGS...: sets $out, $err, $rc
run() { "$sn" "$@" > "$tmp/out" 2> "$tmp/err"; rc=$?; out=$(cat "$tmp/out"); err=$(cat "$tmp/err"); }

# expect_rc WHAT RC ARGS...
expect_rc() {
	local what=$1 want=$2
	shift 2
	run "$@"
	if [ "$rc" = "$want" ]; then ok "$what: exit $want"; else notok "$what: exit $want" "got $rc" "stderr: $err"; fi
}
# expect_err WHAT PATTERN: stderr of the last run matches PATTERN (grep -E)
expect_err() {
	if grep -qE -- "$2" <<<"$err"; then ok "$1"; else notok "$1" "stderr: '$err'" "wanted: /$2/"; fi
}
expect_out() {
	if grep -qE -- "$2" <<<"$out"; then ok "$1"; else notok "$1" "stdout: '$out'" "wanted: /$2/"; fi
}

echo "TAP version 13"

# --help, --version
expect_rc "--help" 0 --help
expect_out "--help lists -n, -p, -g, -u" '-n, --adjustment.*' 
grep -qE -- '-p, --pid' <<<"$out" && grep -qE -- '-g, --pgrp' <<<"$out" && grep -qE -- '-u, --user' <<<"$out" &&
	ok "--help lists -p, -g and -u" || notok "--help lists -p, -g and -u" "$out"
expect_rc "-h" 0 -h
expect_rc "--version" 0 --version
expect_out "--version names the program" '^swapnice [0-9]'

# Bad usage: 125 and a message prefixed with the program's name
for args in "-n" "-n abc" "-n 5junk" "-n ''" "-n 99999999999999999999" "-n -99999999999999999999" \
	"--bogus" "-x" "-p" "-n 5" "-p abc" ; do
	eval "set -- $args"
	run "$@"
	case $args in
	"-p abc") want=1 ;;
	*) want=125 ;;
	esac
	if [ "$rc" = "$want" ] && [[ $err == swapnice:* ]]; then
		ok "bad usage '$args': exit $want, 'swapnice:' message"
	else
		notok "bad usage '$args': exit $want, 'swapnice:' message" "got $rc" "stderr: $err"
	fi
done
run -n abc true
expect_err "-n abc names the bad number" "invalid adjustment 'abc'"
run -n 5junk true
[ "$rc" = 125 ] && ok "-n 5junk does not run the command" || notok "-n 5junk does not run the command" "rc $rc"
run --bogus
expect_err "unknown option points to --help" "Try 'swapnice --help'"

# Without the series: print nothing made up
run
[ "$rc" = 125 ] && ok "no command on a kernel without swapnice: exit 125" || notok "no command on a kernel without swapnice: exit 125" "rc $rc out '$out'"
expect_err "says this kernel has no per-process swap priority" "this kernel has no per-process swap priority"

# The command still runs, and its status passes through
run -n 10 sh -c 'exit 7'
[ "$rc" = 7 ] && ok "COMMAND's status passes through (7)" || notok "COMMAND's status passes through (7)" "rc $rc"
expect_err "warns that the kernel has no swapnice, once" "^swapnice: cannot set swapnice: this kernel has no per-process swap priority$"
run -n 10 echo hello
[ "$out" = hello ] && ok "COMMAND runs and prints" || notok "COMMAND runs and prints" "out '$out'"
run echo default
[ "$out" = default ] && [ "$rc" = 0 ] && ok "default adjustment: the command runs" || notok "default adjustment: the command runs" "rc $rc"
run -- echo dashdash
[ "$out" = dashdash ] && ok "-- ends the options" || notok "-- ends the options" "out '$out'"
run echo -n x
[ "$out" = x ] && ok "options after COMMAND are COMMAND's" || notok "options after COMMAND are COMMAND's" "out '$out'"

# 126 and 127
expect_rc "COMMAND not found" 127 -n 1 /nonexistent/program
expect_err "not found is explained" "failed to execute /nonexistent/program: No such file or directory"
printf 'not a program\n' > "$tmp/noexec"
chmod 644 "$tmp/noexec"
expect_rc "COMMAND found but not executable" 126 "$tmp/noexec"
mkdir "$tmp/dir"
expect_rc "COMMAND is a directory" 126 "$tmp/dir"

# -p, -g, -u against a fake /proc
fake=$tmp/proc
mkdir -p "$fake/self" "$fake/100" "$fake/200" "$fake/300"
echo 0 > "$fake/self/swapnice"
echo 3 > "$fake/100/swapnice"
echo -5 > "$fake/200/swapnice"
echo 7 > "$fake/300/swapnice"
for p in 100 200 300; do
	echo "$p (cmd) S 1 $((p == 300 ? 42 : 41)) 41 0" > "$fake/$p/stat"
	printf 'Name:\tcmd\nUid:\t%s\t%s\t%s\t%s\n' $((p == 100 ? 1000 : 0)) 0 0 0 > "$fake/$p/status"
done
export SWAPNICE_PROCFS=$fake
run -p 100 200
[ "$rc" = 0 ] && ok "-p shows two processes: exit 0" || notok "-p shows two processes: exit 0" "rc $rc" "$err"
[ "$out" = $'100 (process ID) swapnice 3\n200 (process ID) swapnice -5' ] && ok "-p prints each value" || notok "-p prints each value" "$out"
run -n 12 -p 100
[ "$(cat "$fake/100/swapnice")" = 12 ] && ok "-n 12 -p sets it absolutely" || notok "-n 12 -p sets it absolutely" "file $(cat "$fake/100/swapnice")"
[ "$out" = "100 (process ID) old swapnice 3, new swapnice 12" ] && ok "-n -p prints old and new" || notok "-n -p prints old and new" "$out"
run -n 99 -p 100
[ "$(cat "$fake/100/swapnice")" = 19 ] && ok "-n 99 -p clamps to 19" || notok "-n 99 -p clamps to 19" "$(cat "$fake/100/swapnice")"
run -n -99 -p 100
[ "$(cat "$fake/100/swapnice")" = -20 ] && ok "-n -99 -p clamps to -20" || notok "-n -99 -p clamps to -20" "$(cat "$fake/100/swapnice")"
run -p 100 999 200
[ "$rc" = 1 ] && ok "-p with a missing PID: exit 1" || notok "-p with a missing PID: exit 1" "rc $rc"
expect_err "one line for the missing PID" "^swapnice: failed to get swapnice for 999: No such process$"
[ "$(wc -l <<<"$out")" = 2 ] && ok "the other PIDs are still handled" || notok "the other PIDs are still handled" "$out"
run -p 0
[ "$rc" = 1 ] && ok "-p 0 is not a PID: exit 1" || notok "-p 0 is not a PID: exit 1" "rc $rc"
run -p -- -5
[ "$rc" = 1 ] && ok "-p -5 is not a PID: exit 1" || notok "-p -5 is not a PID: exit 1" "rc $rc"
run -g 41
[ "$rc" = 0 ] && [ "$(wc -l <<<"$out")" = 2 ] && ok "-g 41 finds the two processes of group 41" || notok "-g 41 finds the two processes of group 41" "rc $rc" "$out"
run -u root
[ "$rc" = 0 ] && grep -q '^200 ' <<<"$out" && grep -q '^300 ' <<<"$out" && ! grep -q '^100 ' <<<"$out" &&
	ok "-u root finds root's processes only" || notok "-u root finds root's processes only" "$out"
run -u 1000
grep -q '^100 ' <<<"$out" && ok "-u takes a numeric uid" || notok "-u takes a numeric uid" "$out"
run -u no-such-user-here
[ "$rc" = 1 ] && ok "-u with an unknown user: exit 1" || notok "-u with an unknown user: exit 1" "rc $rc"
expect_err "names the unknown user" "unknown user 'no-such-user-here'"
run -n 5 -p 300 -g 41
[ "$rc" = 0 ] && [ "$(wc -l <<<"$out")" = 3 ] && ok "-p and -g mix in one call, as renice's" || notok "-p and -g mix in one call, as renice's" "$out"
chmod 444 "$fake/300/swapnice"
if [ "$(id -u)" != 0 ]; then
	run -n 1 -p 300
	[ "$rc" = 1 ] && ok "a write refused: exit 1" || notok "a write refused: exit 1" "rc $rc"
fi
mkdir -p "$fake/400"
run -p 400
expect_err "a process without the file: no swapnice in this kernel" "failed to get swapnice for 400: this kernel has no per-process swap priority"
echo junk > "$fake/100/swapnice"
run -p 100
[ "$rc" = 1 ] && ok "a malformed value from /proc is an error, not a number" || notok "a malformed value from /proc is an error" "rc $rc $out"
unset SWAPNICE_PROCFS

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

# The man page renders without warnings
if command -v man >/dev/null; then
	w=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$top/tools/swapnice/swapnice.1" 2>&1 >/dev/null)
	[ -z "$w" ] && ok "swapnice.1 renders without warnings" || notok "swapnice.1 renders without warnings" "$w"
	page=$(MANWIDTH=80 man -l "$top/tools/swapnice/swapnice.1" 2>/dev/null)
	for word in swapnice_weight swapnice_from_nice /proc/sys/vm /proc/PID/swapnice CAP_SYS_NICE; do
		grep -qF "$word" <<<"$page" && ok "the man page documents $word" || notok "the man page documents $word"
	done
fi

echo "1..$n"
echo "# host: $((n - fail)) passed, $fail failed"
[ $fail = 0 ]
