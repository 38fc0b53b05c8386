#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The seed patch's concern (slab: use order 0 for vfs caches, 2004): an
# updatedb-like walk allocates inodes and dentries under GFP_NOFS while
# memory is tight; it must not stall on high-order allocations, and the
# slab it fills must be reclaimable afterwards.
. /tests/lib.sh
plan 6
slabinfo() {
	for c in ext4_inode_cache dentry; do
		d=/sys/kernel/slab/$c
		note "$1: $c order=$(cat $d/order) objs_per_slab=$(cat $d/objs_per_slab)" \
			"order_fallback=$(cut -d' ' -f1 $d/order_fallback 2>/dev/null || echo n/a)"
	done
}
sreclaimable() { awk '/^SReclaimable:/ {print $2}' /proc/meminfo; }

echo 1 > /proc/sys/vm/drop_caches
slabinfo "before"
# Keep memory tight: 170 MB resident, idle, during the walk.
/tests/scenario alloc 170 --hold > /tmp/hold.out & hold=$!
while [ ! -s /tmp/hold.out ]; do sleep 1; done
note "resident hog ready after $(cat /tmp/hold.out) ms; MemFree $(awk '/^MemFree:/ {print $2}' /proc/meminfo) kB"

t0=$(date +%s)
n=$(find /data -type f -exec stat -c %s {} + | wc -l)
t=$(( $(date +%s) - t0 ))
after_walk=$(sreclaimable)
note "walked $n files in $t s; SReclaimable $after_walk kB"
slabinfo "after the walk"
check "the walk stats at least 50,000 files (got $n)" [ "$n" -ge 50000 ]
check "the walk completes within 240 s (took $t s)" [ "$t" -le 240 ]
fails=$(dmesg | grep -c 'page allocation failure')
expect "no page allocation failure in the kernel log" 0 "$fails"
hung=$(dmesg | grep -c 'blocked for more than')
expect "no hung task in the kernel log" 0 "$hung"
kill $hold; wait $hold

# Later pressure: 400 MB of anonymous memory (more than RAM) must take
# the slab back.
/tests/scenario alloc 400 > /tmp/press.out
after_press=$(sreclaimable)
note "after 400 MB of pressure ($(cat /tmp/press.out) ms): SReclaimable $after_press kB"
slabinfo "after pressure"
check "SReclaimable shrinks under later pressure ($after_walk -> $after_press kB, expected <= half)" \
	[ $((after_press * 2)) -le "$after_walk" ]
check "the slab caches report their order (SLUB, /sys/kernel/slab)" [ -r /sys/kernel/slab/dentry/order ]
done_testing
