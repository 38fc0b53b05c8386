#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The edges of swap under protection: swapoff of the area that holds a
# protected process's pages, swap full, a memory cgroup at its limit.
# Each must end within its time-out, leave the protected process alive,
# and (the runner checks) log nothing in the kernel's console.
. /tests/lib.sh
plan 9

status_kb() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; }
alive() { kill -0 "$1" 2>/dev/null; }

# 1. swapoff while a protected process has pages in swap and a backup
# at 10 presses.  First push the editor out (all at 0), then protect it.
/tests/scenario alloc 96 --hold > /dev/null & ed=$!
sleep 2
/tests/scenario alloc 220 > /dev/null
before=$(status_kb $ed VmSwap)
echo -5 > /proc/$ed/swapnice
swapnice -n 10 /tests/scenario hold 100 2 20 & bk=$!
sleep 1
timeout -s KILL 120 swapoff /dev/vda; rc=$?
note "swapoff with the editor at -5 holding $before kB in swap, a backup at 10 pressing: exit $rc"
check "swapoff ends within 120 s, done or refused for lack of memory (exit $rc)" [ $rc -ne 137 ]
check "the protected editor survives swapoff" alive $ed
if [ $rc = 0 ]; then
	expect "after swapoff the editor has nothing in swap" 0 "$(status_kb $ed VmSwap)"
else
	skip "after swapoff the editor has nothing in swap" "swapoff did not complete"
fi
kill $bk 2>/dev/null; wait $bk
swapon /dev/vda 2>/dev/null

# 2. Swap full: a 16 MB swap file alone, an editor at -5 holding 64 MB,
# a hog at 10 wanting 400 MB.  The hog meets the OOM killer.
swapoff /dev/vda
mount -o remount,rw /data
dd if=/dev/zero of=/data/swapfile bs=1M count=16 2>/dev/null
chmod 600 /data/swapfile
mkswap /data/swapfile > /dev/null && swapon /data/swapfile
kill $ed; wait $ed 2>/dev/null
/tests/scenario alloc 64 --hold > /dev/null & ed=$!
sleep 1
echo -5 > /proc/$ed/swapnice
t0=$(date +%s)
timeout -s TERM 180 swapnice -n 10 /tests/scenario alloc 400 > /dev/null 2>&1; rc=$?
t=$(($(date +%s) - t0))
used=$(awk '$1 == "/data/swapfile" { print $4 }' /proc/swaps)
note "swap full: the hog at 10 ended with status $rc after $t s; swap file used $used kB; editor swap $(status_kb $ed VmSwap) kB"
check "swap full: the hog that cannot fit is OOM-killed, not left running (status $rc)" [ $rc -eq 137 ]
check "swap full: the editor at -5 survives" alive $ed
kill $ed; wait $ed 2>/dev/null
swapoff /data/swapfile
swapon /dev/vda

# 3. A memory cgroup at its limit: an editor at 0 (16 MB) and a holder at
# 10 (80 MB, 2 threads, 10 passes) share memory.max = 48M.  Limit
# reclaim works for the holder; it must make progress on its own pages.
cg=/sys/fs/cgroup/edges
mkdir -p $cg
echo 48M > $cg/memory.max
sh -c "echo \$\$ > $cg/cgroup.procs; exec /tests/scenario alloc 16 --hold" > /dev/null & ed=$!
sleep 1
t0=$(date +%s)
timeout -s KILL 180 sh -c "echo \$\$ > $cg/cgroup.procs; exec swapnice -n 10 /tests/scenario hold 80 2 10"; rc=$?
t=$(($(date +%s) - t0))
note "memcg at its limit: the holder at 10 ended with status $rc after $t s; $(grep -E '^(max|oom_kill) ' $cg/memory.events | tr '\n' ' ')"
check "memcg at its limit: the holder at 10 finishes its passes within 180 s (status $rc)" [ $rc -eq 0 ]
check "memcg at its limit: the editor at 0 survives" alive $ed
expect "memcg at its limit: no OOM kill in the cgroup" 0 "$(awk '$1 == "oom_kill" { print $2 }' $cg/memory.events)"
kill $ed; wait $ed 2>/dev/null
rmdir $cg 2>/dev/null
hung=$(dmesg | grep -c 'blocked for more than')
expect "no hung task in the kernel log" 0 "$hung"
done_testing
