#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The nightly backup of the morning problem.  Exits 0 only when all of it
# completed (a part killed by the OOM killer fails it).
#   hold     a 200 MB working set, two processes of two threads writing
#            100 MB each four times over, while tar reads 3,000 small
#            files and a 128 MB image from /data
#   stream   only stream the 512 MB of large files through the page cache
#   trickle  allocate 180 MB slowly (two processes, 1 MB every 200 ms),
#            so that kswapd alone keeps up
work=${1:-hold}
case $work in
hold)
	/tests/scenario hold ${HOLD_MB:-100} 2 4 & a=$!
	/tests/scenario hold ${HOLD_MB:-100} 2 4 & b=$!
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
	kill -TERM $a $b 2>/dev/null
	rc=0
	;;
*)
	echo "backup.sh: unknown work '$work'" >&2
	exit 2
	;;
esac
wait $a || rc=1
wait $b || rc=1
exit $rc
