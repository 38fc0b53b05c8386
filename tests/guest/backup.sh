#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The nightly backup of the morning problem.  Exits 0 only when all of it
# completed (a part killed by the OOM killer fails it), 99 when a part
# found a page of its memory come back wrong (scenario.h's pattern).
#   hold     a 200 MB working set, two processes of two threads writing
#            100 MB each four times over (HOLD_PASSES), while tar reads
#            3,000 small files and a 128 MB image from /data
#   stream   only stream the 512 MB of large files through the page cache
#   trickle  allocate 180 MB slowly (two processes, 1 MB every 200 ms),
#            so that kswapd alone keeps up; then each checks its memory
#            (/tmp/backup-worked marks the end of the work before that)
work=${1:-hold}
rc=0
case $work in
hold)
	/tests/scenario hold ${HOLD_MB:-100} 2 ${HOLD_PASSES:-4} & a=$!
	/tests/scenario hold ${HOLD_MB:-100} 2 ${HOLD_PASSES:-4} & b=$!
	tar -cf - -C /data small/d00 small/d01 small/d02 large/image1.bin | cat > /dev/null
	rc=$?
	;;
stream)
	cat /data/large/* > /dev/null
	exit $?
	;;
trickle)
	/tests/scenario trickle 90 1 200 & a=$!
	/tests/scenario trickle 90 1 200 & b=$!
	sleep 20
	: > /tmp/backup-worked
	sleep 1
	kill -TERM $a $b 2>/dev/null
	;;
*)
	echo "backup.sh: unknown work '$work'" >&2
	exit 2
	;;
esac
wait $a; ra=$?
wait $b; rb=$?
for r in $ra $rb; do
	[ $r = 99 ] && exit 99
	[ $r = 0 ] || rc=1
done
exit $rc
