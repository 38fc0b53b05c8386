#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The edges of swap under protection: swapoff of the area that holds a
# protected process's pages, swap full, a memory cgroup at its limit.
# Each must end within its time-out, leave the protected process alive
# with its memory as written (scenario alloc --hold checks every page of
# its pattern on SIGTERM: exit 0 when all are right, 99 when one is not),
# and (the runner checks) log nothing in the kernel's console.
. /tests/lib.sh
plan 14

status_kb() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; }
# stop PID: SIGTERM it and give its exit status (its memory check's verdict)
stop() { kill "$1" 2>/dev/null; wait "$1"; }

# 1. swapoff while a protected process has pages in swap and a backup
# at 10 presses.  First push the editor out (all at 0), then protect it.
/tests/scenario alloc 96 --hold > /dev/null & ed=$!
wait_rss $ed $((95 * 1024)) 60 || note "the editor did not reach 95 MB resident in 60 s"
/tests/scenario alloc 220 > /dev/null
before=$(status_kb $ed VmSwap)
check "swapoff: the editor first had its memory pushed to swap ($before kB, expected >= 8192)" \
	[ "${before:-0}" -ge 8192 ]
echo -5 > /proc/$ed/swapnice
swapnice -n 10 /tests/scenario hold 100 2 20 & bk=$!
sleep 1
t0=$(date +%s)
timeout -s KILL 120 swapoff /dev/vda; rc=$?
t=$(($(date +%s) - t0))
after=$(status_kb $ed VmSwap)
note "swapoff with the editor at -5 holding $before kB in swap, a backup at 10 pressing: exit $rc after $t s; editor swap now $after kB"
expect "swapoff of the area holding the protected editor's pages succeeds within 120 s (exit status)" 0 "$rc"
check "the protected editor survives swapoff" alive $ed
stop $ed; erc=$?
stop $bk; brc=$?
ok=0
[ "$rc" = 0 ] && [ "$after" = 0 ] && [ "$erc" = 0 ] && [ "$brc" != 99 ] && ok=1
check "after swapoff the editor's memory came back as written ($before kB had been in swap, $after kB left; its check exited $erc, the backup's $brc; expected 0 kB, 0, not 99)" \
	[ $ok = 1 ]
swapon /dev/vda 2>/dev/null

# 2. Swap full: a 16 MB swap file alone, an editor at -5 holding 64 MB,
# a hog at 10 wanting 400 MB.  The hog meets the OOM killer.
swapoff /dev/vda 2>/dev/null
mount -o remount,rw /data
dd if=/dev/zero of=/data/swapfile bs=1M count=16 2>/dev/null
chmod 600 /data/swapfile
mkswap /data/swapfile > /dev/null && swapon /data/swapfile
/tests/scenario alloc 64 --hold > /dev/null & ed=$!
wait_rss $ed $((63 * 1024)) 60 || note "the editor did not reach 63 MB resident in 60 s"
echo -5 > /proc/$ed/swapnice
t0=$(date +%s)
timeout -s TERM 180 swapnice -n 10 /tests/scenario alloc 400 > /dev/null 2>&1; rc=$?
t=$(($(date +%s) - t0))
used=$(awk '$1 == "/data/swapfile" { print $4 }' /proc/swaps)
esw=$(status_kb $ed VmSwap)
note "swap full: the hog at 10 ended with status $rc after $t s; swap file used $used kB; editor swap $esw kB"
check "swap full: the hog that cannot fit is OOM-killed, not left running (status $rc)" [ $rc -eq 137 ]
check "swap full: the editor at -5 survives" alive $ed
stop $ed; erc=$?
expect "swap full: the editor's memory came back as written ($esw kB had been in swap; its check's exit status)" 0 "$erc"
swapoff /data/swapfile
swapon /dev/vda

# 3. A memory cgroup at its limit: an editor at 0 (16 MB) and a holder
# (80 MB, 2 threads, 5 passes) share memory.max = 48M.  Limit reclaim
# works for the holder.  With the holder at 0 it takes the idle editor's
# memory as well as its own (the scenario presses); with the holder at
# 10 it must take only its own, and still make progress.
cg=/sys/fs/cgroup/edges
mkdir -p $cg
echo 48M > $cg/memory.max
memcg_run() { # $1: the holder's swapnice; sets rc, t, esw, erc
	sh -c "echo \$\$ > $cg/cgroup.procs; exec /tests/scenario alloc 16 --hold" > /dev/null & ed=$!
	wait_rss $ed $((15 * 1024)) 60 || note "the editor did not reach 15 MB resident in 60 s"
	t0=$(date +%s)
	timeout -s KILL 180 sh -c "echo \$\$ > $cg/cgroup.procs; exec swapnice -n $1 /tests/scenario hold 80 2 5"; rc=$?
	t=$(($(date +%s) - t0))
	esw=$(status_kb $ed VmSwap)
	ealive=0
	alive $ed && ealive=1
	stop $ed; erc=$?
	note "memcg at its limit, holder at $1 ($(cat /sys/kernel/mm/lru_gen/enabled 2>/dev/null) lru_gen): holder status $rc after $t s; the editor at 0 lost $esw kB to swap, alive $ealive, its check exited $erc; $(grep -E '^(max|oom_kill) ' $cg/memory.events | tr '\n' ' ')"
}
memcg_run 0
check "memcg at its limit, holder at 0: limit reclaim takes the idle editor's memory too ($esw kB in swap, expected >= 4096)" \
	[ "${esw:-0}" -ge 4096 ]
check "memcg at its limit, holder at 0: the editor survives, its memory as written (alive $ealive, check exit $erc)" \
	[ "$ealive$erc" = 10 ]
memcg_run 10
check "memcg at its limit: the holder at 10 finishes its passes within 180 s (status $rc)" [ $rc -eq 0 ]
check "memcg at its limit, holder at 10: the editor at 0 keeps its memory ($esw kB in swap, expected <= 1024)" \
	[ "${esw:-99999}" -le 1024 ]
check "memcg at its limit, holder at 10: the editor survives, its memory as written (alive $ealive, check exit $erc)" \
	[ "$ealive$erc" = 10 ]
expect "memcg at its limit: no OOM kill in the cgroup" 0 "$(awk '$1 == "oom_kill" { print $2 }' $cg/memory.events)"
rmdir $cg 2>/dev/null
hung=$(dmesg | grep -c 'blocked for more than')
expect "no hung task in the kernel log" 0 "$hung"
done_testing
