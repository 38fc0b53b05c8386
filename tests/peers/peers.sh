#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Suites written elsewhere, in the guest: the tree's selftests built by
# tests/peers/build, then stress-ng's vm, swap, fork and mmap stressors
# with mixed swapnice values.  TAP, one line per program: a selftest
# passes with exit 0, is skipped with kselftest's 4 (KSFT_SKIP), fails
# otherwise.  Usage (in /extra): sh peers.sh [STRESS_SECONDS]
secs=${1:-20}
cd /extra || exit 1
n=$(ls bin | grep -cv '^stress-ng')
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
for t in $(ls bin | grep -v '^stress-ng'); do
	i=$((i + 1))
	name=$(echo "$t" | sed 's/_/\//')
	# Each in its own directory: some write files where they run.
	mkdir -p "/data/peers/$t" && cd "/data/peers/$t" || exit 1
	case $t in
	vm_on-fault-limit)
		# As run_vmtests.sh runs it: unprivileged, so that
		# RLIMIT_MEMLOCK binds.
		chmod 777 .
		timeout -s KILL 120 su -s /bin/sh nobody -c "/extra/bin/$t" > "/tmp/peer.$t.log" 2>&1 ;;
	*)
		timeout -s KILL 120 "/extra/bin/$t" > "/tmp/peer.$t.log" 2>&1 ;;
	esac
	rc=$?
	cd /extra
	case $rc in
	0) echo "ok $i $name" ;;
	4) echo "ok $i $name # SKIP $(grep -im1 'skip' "/tmp/peer.$t.log" | cut -c1-100)" ;;
	137) echo "not ok $i $name (killed at its 120 s time-out)" ;;
	*) echo "not ok $i $name (exit $rc)"; grep -v '^ok\|^not ok' "/tmp/peer.$t.log" | tail -3 | sed 's/^/# /' ;;
	esac
	# Its own sub-tests, for tests/peers/run to compare one by one.
	grep -E '^(not )?ok [0-9]+ ' "/tmp/peer.$t.log" | sort -u |
		sed -E 's/^ok [0-9]+ (.*)# *SKIP.*/\1 skip/; t e; s/^ok [0-9]+ (.*)/\1 ok/; t e; s/^not ok [0-9]+ (.*)/\1 FAIL/; :e' |
		sed -E 's/ +(ok|skip|FAIL)$/\t\1/; s/ /_/g' |
		while IFS='	' read -r sub v; do echo "# sub $name:$sub $v"; done
	# Sub-test counts, where the program prints kselftest's totals.
	tot=$(grep -m1 '^# Totals:' "/tmp/peer.$t.log")
	[ -n "$tot" ] && echo "# $name: ${tot#\# }"
done
while IFS='	' read -r name why; do
	[ -n "$name" ] || continue
	i=$((i + 1))
	echo "ok $i $name # SKIP not built here: $why"
done < NOT-BUILT

# stress-ng: vm and mmap at 10 (the backup's place), fork at -5, swap at
# 0, all at once, for a bounded time, under memory pressure.
stress() {
	# $1 swapnice, $2... stress-ng arguments
	v=$1; shift
	swapnice -n "$v" bin/stress-ng --timeout "${secs}s" --temp-path /data/peers \
		--metrics-brief "$@" > "/tmp/stress.$1.log" 2>&1
	echo $? > "/tmp/stress.$1.rc"
}
stress 10 --vm 2 --vm-bytes 80M &
stress 10 --mmap 1 --mmap-bytes 48M &
stress -5 --fork 2 &
stress 0 --swap 1 &
wait
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
