#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Suites written elsewhere, in the guest: the tree's selftests built by
# tests/peers/build, then stress-ng's vm, swap, fork and mmap stressors
# with mixed swapnice values.  TAP, one line per program: a selftest
# passes with exit 0, is skipped with kselftest's 4 (KSFT_SKIP), fails
# otherwise; one that did not build fails.  Usage (in /extra): sh peers.sh [STRESS_SECONDS]
secs=${1:-20}
cd /extra || exit 1
lru=/sys/kernel/mm/lru_gen/enabled
# One line per program, test_memcontrol's second run (on the classic
# LRU), each that did not build, and stress-ng.
n=$(ls bin | grep -cv '^stress-ng')
[ -f bin/cgroup_test_memcontrol ] && [ -w $lru ] && n=$((n + 1))
notbuilt=$(grep -c . NOT-BUILT)
echo "TAP version 13"
echo "1..$((n + notbuilt + 1))"
i=0
# The tests write files where they run (test_memcontrol 50 MB of page
# cache at a time, stress-ng its swap file): on the data disk, which the
# harness opens as a snapshot, so nothing reaches build/disks.
mount -o remount,rw /data || exit 1
mkdir -p /data/peers
# cgroup's test_memcontrol wants cgroup v2 at a known place.
mount | grep -q ' /sys/fs/cgroup type cgroup2' ||
	mount -t cgroup2 none /sys/fs/cgroup 2>/dev/null
echo "+memory" > /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null
# run_one BIN NAME: one program, its TAP line and its sub-tests' verdicts.
run_one() {
	t=$1 name=$2 limit=120
	i=$((i + 1))
	case $t in cgroup_test_memcontrol) limit=600 ;; esac
	# Each in its own directory: some write files where they run.
	mkdir -p "/data/peers/$t" && cd "/data/peers/$t" || exit 1
	case $t in
	vm_on-fault-limit)
		# As run_vmtests.sh runs it: unprivileged, so that
		# RLIMIT_MEMLOCK binds.
		chmod 777 .
		timeout -s KILL $limit su -s /bin/sh nobody -c "/extra/bin/$t" > "/tmp/peer.$t.log" 2>&1 ;;
	vm_mremap_test)
		# Its 2 GB cases map more than RAM and swap (and touch 4 MB):
		# the heuristic overcommit refuses them.
		oc=$(cat /proc/sys/vm/overcommit_memory)
		echo 1 > /proc/sys/vm/overcommit_memory
		timeout -s KILL $limit "/extra/bin/$t" > "/tmp/peer.$t.log" 2>&1
		rc=$?
		echo "$oc" > /proc/sys/vm/overcommit_memory
		(exit $rc) ;;
	*)
		timeout -s KILL $limit "/extra/bin/$t" > "/tmp/peer.$t.log" 2>&1 ;;
	esac
	rc=$?
	cd /extra
	case $rc in
	0) echo "ok $i $name" ;;
	4) why=$(grep -im1 'skip' "/tmp/peer.$t.log"); [ -n "$why" ] || why=$(tail -1 "/tmp/peer.$t.log")
	   echo "ok $i $name # SKIP $(echo "$why" | cut -c1-100)" ;;
	137) echo "not ok $i $name (killed at its $limit s time-out)" ;;
	*) echo "not ok $i $name (exit $rc)"; grep -v '^ok\|^not ok' "/tmp/peer.$t.log" | tail -3 | sed 's/^/# /' ;;
	esac
	# Its own sub-tests, for tests/peers/run to compare one by one (a
	# kselftest "ok N # SKIP name" is name's skip, "ok N # XFAIL name" the
	# expected failure, a pass), and how many it planned and reported.
	grep -E '^(not )?ok [0-9]+ ' "/tmp/peer.$t.log" | sort -u |
		sed -E 's/^ok [0-9]+ # *SKIP *(.*)/\1 skip/; t e; s/^ok [0-9]+ # *XFAIL *(.*)/\1 ok/; t e
			s/^ok [0-9]+ (.*)# *SKIP.*/\1 skip/; t e; s/^ok [0-9]+ (.*)/\1 ok/; t e; s/^not ok [0-9]+ (.*)/\1 FAIL/; :e' |
		sed -E 's/ +(ok|skip|FAIL)$/\t\1/; s/ /_/g' |
		while IFS='	' read -r sub v; do echo "# sub $name:$sub $v"; done
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "/tmp/peer.$t.log" | head -1)
	got=$(grep -cE '^(not )?ok [0-9]+ ' "/tmp/peer.$t.log")
	[ -n "$plan" ] && echo "# subplan $name $plan $got"
	# Sub-test counts, where the program prints kselftest's totals.
	tot=$(grep -m1 '^# Totals:' "/tmp/peer.$t.log")
	[ -n "$tot" ] && echo "# $name: ${tot#\# }"
}
for t in $(ls bin | grep -v '^stress-ng'); do
	name=$(echo "$t" | sed 's/_/\//')
	case $t in
	cgroup_test_memcontrol)
		[ -w $lru ] || { run_one "$t" "$name"; continue; }
		# On both LRUs: MGLRU (the guest's default), then the classic
		# one, whose sub-tests are named cgroup/test_memcontrol@classic.
		echo y > $lru
		run_one "$t" "$name"
		echo 0 > $lru
		run_one "$t" "$name@classic"
		echo y > $lru ;;
	*) run_one "$t" "$name" ;;
	esac
done
while IFS='	' read -r name why; do
	[ -n "$name" ] || continue
	i=$((i + 1))
	echo "not ok $i $name (not built: $why)"
done < NOT-BUILT

# stress-ng: vm and mmap at 10 (the backup's place), fork at -5, swap at
# 0, all at once, for a bounded time, under memory pressure, checking the
# memory they read back (--verify).
stress() {
	# $1 swapnice, $2... stress-ng arguments
	v=$1; shift
	swapnice -n "$v" bin/stress-ng --timeout "${secs}s" --temp-path /data/peers \
		--verify --metrics-brief "$@" > "/tmp/stress.$1.log" 2>&1
	echo $? > "/tmp/stress.$1.rc"
}
# Sizes as 160 + 48 MB are of 256 MB, scaled to the guest's memory.
mem=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
out0=$(awk '/^pswpout / { print $2 }' /proc/vmstat)
stress 10 --vm 2 --vm-bytes $((mem * 80 / 256))M &
stress 10 --mmap 1 --mmap-bytes $((mem * 48 / 256))M &
stress -5 --fork 2 &
stress 0 --swap 1 &
wait
echo "# stress-ng: $(( $(awk '/^pswpout / { print $2 }' /proc/vmstat) - out0 )) pages swapped out, in ${mem} MB"
bad=""
for s in --vm --mmap --fork --swap; do
	rc=$(cat "/tmp/stress.$s.rc")
	[ "$rc" = 0 ] || bad="$bad ${s#--}:$rc"
	grep -E 'stress-ng: (info|fail|error).*(successful|passed|failed|skipped)' "/tmp/stress.$s.log" |
		sed 's/^/# /' | head -3
done
i=$((i + 1))
if [ -z "$bad" ]; then
	echo "ok $i stress-ng vm, mmap (at 10), fork (at -5), swap (at 0) for ${secs} s: all exited 0"
else
	echo "not ok $i stress-ng for ${secs} s: stressors that did not exit 0:$bad"
	for s in --vm --mmap --fork --swap; do tail -3 "/tmp/stress.$s.log" | sed 's/^/# /'; done
fi
