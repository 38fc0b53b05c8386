#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The seed patch's concern (slab: use order 0 for vfs caches, 2004): an
# updatedb-like walk allocates inodes and dentries under GFP_NOFS while
# memory is tight; it must not stall on high-order allocations, and the
# slab it fills must be reclaimable afterwards.
#
# The seed forced order 0 for SLAB's reclaimable caches.  The guest runs
# SLUB, which picks a higher order (the "order" file) but tries it
# without reclaim (allocate_slab() drops __GFP_RECLAIM when the order is
# above the cache's minimum) and falls back to the minimum, the order of
# one object: so the seed's property holds when one object fits in a
# page (slab_size <= PAGE_SIZE), and that is what is checked, with the
# walk's allocations counted (SLUB_STATS) to show it did allocate there.
. /tests/lib.sh
plan 7
slabinfo() {
	for c in ext4_inode_cache dentry; do
		d=/sys/kernel/slab/$c
		note "$1: $c order=$(cat $d/order) objs_per_slab=$(cat $d/objs_per_slab)" \
			"order_fallback=$(cut -d' ' -f1 $d/order_fallback 2>/dev/null || echo n/a)"
	done
}
sreclaimable() { awk '/^SReclaimable:/ {print $2}' /proc/meminfo; }
# Objects a cache allocated so far (SLUB_STATS: fast and slow paths).
allocs() {
	echo $(($(cut -d' ' -f1 /sys/kernel/slab/$1/alloc_fastpath) + $(cut -d' ' -f1 /sys/kernel/slab/$1/alloc_slowpath)))
}

echo 1 > /proc/sys/vm/drop_caches
slabinfo "before"
# Keep memory tight: 170 MB resident, idle, during the walk.
/tests/scenario alloc 170 --hold > /tmp/hold.out & hold=$!
while [ ! -s /tmp/hold.out ]; do sleep 1; done
note "resident hog ready after $(cat /tmp/hold.out) ms; MemFree $(awk '/^MemFree:/ {print $2}' /proc/meminfo) kB"

a0_i=$(allocs ext4_inode_cache) a0_d=$(allocs dentry)
t0=$(date +%s)
n=$(find /data -type f -exec stat -c %s {} + | wc -l)
t=$(( $(date +%s) - t0 ))
after_walk=$(sreclaimable)
note "walked $n files in $t s; SReclaimable $after_walk kB"
slabinfo "after the walk"
for c in ext4_inode_cache dentry; do
	d=/sys/kernel/slab/$c
	case $c in ext4_inode_cache) a0=$a0_i ;; *) a0=$a0_d ;; esac
	got=$(( $(allocs $c) - a0 ))
	size=$(cat $d/slab_size)
	ok=0
	[ "$got" -ge 50000 ] && [ "$size" -le 4096 ] && ok=1
	check "$c: the walk allocated $got objects (expected >= 50000) in slabs of order $(cat $d/order) that fall back to order 0 without reclaim (object slab_size $size, expected <= 4096); $(cut -d' ' -f1 $d/order_fallback) fallbacks" \
		[ $ok = 1 ]
done
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
done_testing
