#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The benchmark's guest side (tests/bench/run boots it once per kernel).
# Usage: bench.sh REPEATS EXTRAS SETUP...
#   EXTRAS: "overhead", "opposite", both joined by a comma, or "none"
# Prints "# result", "# sample", "# overhead" and "# opposite" lines, and
# "# bench-progress" as it goes.  On the patched kernel the static key
# stays on once any process used swapnice: the host boots "unused" and
# "overhead" apart from "swapnice".  With no SETUP, only the extras run.
reps=$1 extras=$2
shift 2
nx=0
case ,$extras, in *,overhead,*) nx=$((nx + 1)) ;; esac
case ,$extras, in *,opposite,*) nx=$((nx + 1)) ;; esac
total=$(( ($# * 4 + nx * 2) * reps ))
n=0
progress() { n=$((n + 1)); echo "# bench-progress $n/$total $*"; }
# The first reclaim-heavy run after boot is slower on either kernel
# (the opposite case's main allocator, classic LRU, measured: 1064 and
# 1284 ms in two boots of the patched kernel, against 604-888 ms in 5 of
# the 6 next runs; 964 and 1028 ms unpatched, against 672-864 ms in 4 of
# 6).  A
# boot that runs the opposite case first would be compared cold against
# a warm one: warm up with a run that is not reported.
case ,$extras, in *,opposite,*)
	/tests/scenario opposite 150 classic > /dev/null
	/tests/scenario opposite 150 mglru > /dev/null ;;
esac
for r in $(seq "$reps"); do
	for setup in "$@"; do
		for lru in classic mglru; do
			progress "$setup $lru hold (repeat $r)"
			T=""
			[ "$r" = 1 ] && T=-T
			/tests/scenario run $T -l $lru -s $setup -w hold
			progress "$setup $lru stream (repeat $r)"
			/tests/scenario run -l $lru -s $setup -w stream
		done
	done
	for lru in classic mglru; do
		case ,$extras, in *,overhead,*)
			progress "overhead $lru (repeat $r)"
			/tests/scenario overhead 320 $lru ;;
		esac
		case ,$extras, in *,opposite,*)
			progress "opposite $lru (repeat $r)"
			/tests/scenario opposite 150 $lru ;;
		esac
	done
done
