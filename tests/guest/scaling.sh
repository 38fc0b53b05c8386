#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The benchmark's scaling section (tests/bench/run boots it in a 256 MB
# and in a 1 GB guest): how reclaim's work grows with the memory
# protected and with the processes that map it, under swapnice and under
# memory.low, on both LRUs.
# Usage: scaling.sh REPEATS FACTOR [MAPPERS...]
#   FACTOR   the morning with the editor (96 MB) and the backup's working
#            set (2 x 100 MB) scaled by FACTOR
#   MAPPERS  then, for each N, an editor of 8 MB whose 48 MB file N
#            processes map (the editor and N - 1 children, all at 0)
# Each REPEATS times.  Prints the scenario's "# result" lines, and
# "# bench-progress" as it goes.
reps=${1:?usage: scaling.sh REPEATS FACTOR [MAPPERS...]}
factor=${2:?usage: scaling.sh REPEATS FACTOR [MAPPERS...]}
shift 2
total=$(( (1 + $#) * 4 * reps ))
n=0
progress() { n=$((n + 1)); echo "# bench-progress $n/$total $*"; }
for r in $(seq "$reps"); do
	for lru in classic mglru; do
		for setup in swapnice memory.low; do
			progress "scaling x$factor $setup $lru (repeat $r)"
			HOLD_MB=$((100 * factor)) /tests/scenario run -l $lru -s $setup -w hold -e $((96 * factor))
		done
	done
	for mappers in "$@"; do
		for lru in classic mglru; do
			for setup in swapnice memory.low; do
				progress "$mappers mappers $setup $lru (repeat $r)"
				/tests/scenario run -l $lru -s $setup -w hold -e 8 -f 48 -m "$mappers"
			done
		done
	done
done
