#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The swapnice CLI on the series' kernel (issue 19): its own value through
# prctl and exec, the adjustment clamped before it is added (at 5,
# -n 9223372036854775807 ran the command at -20), -p/-g/-u through
# /proc/PID/swapnice, the kernel's answers to an unprivileged user, write
# errors on standard output, and processes that exit during a -g or -u
# scan.  Runs as root in a fresh boot, where every process is at 0.
. /tests/lib.sh
plan 33

# cli ARGS...: run swapnice; sets $rc, $out and $err
cli() {
	swapnice "$@" > /tmp/cli.out 2> /tmp/cli.err
	rc=$?
	out=$(cat /tmp/cli.out)
	err=$(cat /tmp/cli.err)
}
# as_nobody CMD: run the shell command CMD as uid 65534; sets $rc, $out, $err
as_nobody() {
	su -s /bin/sh nobody -c "$1" > /tmp/cli.out 2> /tmp/cli.err
	rc=$?
	out=$(cat /tmp/cli.out)
	err=$(cat /tmp/cli.err)
}
swapnice_of() { cat "/proc/$1/swapnice" 2> /dev/null; }
status_of() { awk '/^SwapNice:/ { print $2 }' "/proc/$1/status" 2> /dev/null; }
# members PGRP: how many processes are in process group PGRP
members() { cat /proc/[0-9]*/stat 2> /dev/null | awk -v g="$1" '$5 == g' | wc -l; }
# wait_for SECONDS CMD...: until CMD succeeds, at most SECONDS
wait_for() {
	local t=$(($1 * 10))
	shift
	while ! "$@"; do
		t=$((t - 1))
		[ $t -gt 0 ] || return 1
		usleep 100000
	done
}

sn=$(command -v swapnice)
check "the CLI is in PATH ($sn)" [ -x "$sn" ]
note "$(swapnice --version)"

# ---------------------------------------------------------------- own value, exec
cli
expect "no command prints the own value: 0 at boot" "0 0" "$rc $out"
expect "it agrees with /proc/$$/swapnice" "$(swapnice_of $$)" "$out"
cli swapnice
expect "default adjustment: the command runs at 10" "0 10" "$rc $out"
cli -n 5 swapnice
expect "-n 5: the command runs at 5" "0 5" "$rc $out"
cli -n 3 sh -c 'echo "$(cat /proc/$$/swapnice) $(awk "/^SwapNice:/ { print \$2 }" /proc/$$/status)"'
expect "-n 3: /proc/PID/swapnice and SwapNice: of the command say 3" "0 3 3" "$rc $out"
cli -n 15 swapnice -n 10 swapnice
expect "15 + 10 is clamped to 19" "0 19" "$rc $out"
cli -n -15 swapnice -n -10 swapnice
expect "-15 - 10 is clamped to -20" "0 -20" "$rc $out"
cli -n 2 swapnice -n 0 sh -c 'cat /proc/$$/swapnice'
expect "-n 0 keeps the value across exec" "0 2" "$rc $out"

# The overflow of issue 19: current + adjustment was computed before the
# clamp, and ran the command at the opposite end of the range.
cli -n 5 swapnice -n 9223372036854775807 swapnice
expect "at 5, -n 9223372036854775807: the command runs at 19" "0 19|" "$rc $out|$err"
cli -n -5 swapnice -n -9223372036854775808 swapnice
expect "at -5, -n -9223372036854775808: the command runs at -20" "0 -20|" "$rc $out|$err"
cli -n 5 swapnice -n 99999999999999999999 swapnice
expect "at 5, -n beyond a long: clamped, as nice's, the command runs at 19" "0 19|" "$rc $out|$err"
cli -n 19 swapnice -n -39 swapnice
expect "at 19, -n -39: the command runs at -20" "0 -20" "$rc $out"

cli -n 1 /nonexistent/program
expect "a command not found: exit 127" 127 "$rc"

# ---------------------------------------------------------------- -p
sleep 120 &
sp=$!
cli -n 7 -p $sp
expect "-n 7 -p: prints the old and the new value" "0 $sp (process ID) old swapnice 0, new swapnice 7" "$rc $out"
expect "-n 7 -p: the kernel has 7 in /proc/$sp/swapnice" 7 "$(swapnice_of $sp)"
expect "-n 7 -p: and in SwapNice: of /proc/$sp/status" 7 "$(status_of $sp)"
cli -p $sp
expect "-p shows it" "0 $sp (process ID) swapnice 7" "$rc $out"
cli -n 99 -p $sp
expect "-n 99 -p: clamped to 19" "0 $sp (process ID) old swapnice 7, new swapnice 19 19" "$rc $out $(swapnice_of $sp)"
cli -n -3 -p $sp 999999
expect "-n -3 -p with a missing PID: exit 1, the other one set" "1 -3" "$rc $(swapnice_of $sp)"
expect "the missing PID in one line" "swapnice: failed to get swapnice for 999999: No such process" "$err"

# ---------------------------------------------------------------- -g
# The group's leader says its ID (setsid forks first if it must).
rm -f /tmp/gp
setsid sh -c 'echo $$ > /tmp/gp; sleep 120 & exec sleep 120' &
wait_for 10 [ -s /tmp/gp ]
gp=$(cat /tmp/gp)
wait_for 10 [ "$(members $gp)" = 2 ]
cli -n 4 -g $gp
expect "-n 4 -g: both processes of the group set, nothing said" "0 2|" "$rc $(echo "$out" | grep -c 'new swapnice 4$')|$err"
all4=1
for p in $(cat /proc/[0-9]*/stat 2> /dev/null | awk -v g=$gp '$5 == g { print $1 }'); do
	[ "$(swapnice_of $p)" = 4 ] || all4=0
done
check "-n 4 -g: the kernel has 4 for each" [ $all4 = 1 ]

# ---------------------------------------------------------------- -u, and an unprivileged user
su -s /bin/sh nobody -c 'exec sleep 120' &
np=$!
wait_for 10 grep -q '^Uid:[[:space:]]*65534[[:space:]]' /proc/$np/status
cli -u nobody
expect "-u nobody: shows nobody's process" "0 $np (process ID) swapnice 0" "$rc $out"
cli -n 6 -u 65534
expect "-n 6 -u 65534: sets it" "0 6" "$rc $(swapnice_of $np)"

as_nobody 'swapnice -n 5 swapnice -n -2 swapnice'
expect "as nobody: raising to 5 works, lowering to 3 is refused, the command still runs at 5" "0 5" "$rc $out"
expect "as nobody: the refusal, in one line" "swapnice: cannot set swapnice to 3: Permission denied (lowering it needs CAP_SYS_NICE)" "$err"
as_nobody "swapnice -p $sp"
expect "as nobody: root's process can be shown" "0 $sp (process ID) swapnice -3" "$rc $out"
as_nobody "swapnice -n 10 -p $sp"
expect "as nobody: root's process cannot be set" "1 swapnice: failed to set swapnice for $sp: Permission denied -3" "$rc $err $(swapnice_of $sp)"

# ---------------------------------------------------------------- standard output
if [ -w /dev/full ]; then
	swapnice -p $sp > /dev/full 2> /tmp/cli.err
	expect "-p >/dev/full: exit 1, says so" "1 swapnice: write error: No space left on device" "$? $(cat /tmp/cli.err)"
	swapnice --help > /dev/full 2> /dev/null
	expect "--help >/dev/full: exit 125" 125 "$?"
	swapnice > /dev/full 2> /dev/null
	expect "no command >/dev/full: exit 125" 125 "$?"
else
	skip "-p >/dev/full" "no /dev/full"
	skip "--help >/dev/full" "no /dev/full"
	skip "no command >/dev/full" "no /dev/full"
fi

# ---------------------------------------------------------------- processes exiting during a scan
# A group whose members come and go: every scan must skip the ones that
# exit under it, and say nothing.  (Whether a scan meets one is a matter of
# timing; tests/host/cli.sh checks the skip deterministically.)
rm -f /tmp/cp
setsid sh -c 'echo $$ > /tmp/cp; while :; do /bin/true; /bin/true; done' &
wait_for 10 [ -s /tmp/cp ]
cp=$(cat /tmp/cp)
# scan ARGS...: one scan; counts a failure or a word said in $bad
bad=0
scan() {
	local rc
	swapnice "$@" > /dev/null 2> /tmp/cli.err
	rc=$?
	if [ $rc != 0 ] || [ -s /tmp/cli.err ]; then
		bad=$((bad + 1))
		[ $bad -le 5 ] && note "swapnice $*: exit $rc, said: $(cat /tmp/cli.err)"
	fi
}
i=0
while [ $i -lt 60 ]; do
	scan -n $((i % 20)) -g $cp
	scan -u 0
	i=$((i + 1))
done
expect "120 scans of a churning group and of root's processes: no failure, nothing said" 0 "$bad"
kill $cp 2> /dev/null

kill $sp $gp $np 2> /dev/null
wait 2> /dev/null
done_testing
