#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Boot smoke test: the kernel is the series', swap is on, /data is mounted.
. /tests/lib.sh
plan 5
note "kernel $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs, $(awk '/MemTotal/ {print $2}' /proc/meminfo) kB"
case $(uname -r) in
*-swapnice|*-swapnice-debug) ok=1 ;;
*) ok=0 ;;
esac
check "kernel release $(uname -r) carries the series' local version" [ $ok = 1 ]
check "swap is on /dev/vda" grep -q '^/dev/vda ' /proc/swaps
check "the data disk is mounted on /data" grep -q '^/dev/vdb /data ext4' /proc/mounts
n=$(ls /data/small | wc -l)
check "the data disk holds the generated tree ($n top directories)" [ "$n" -ge 60 ]
check "cgroup v2 has the memory controller" grep -qw memory /sys/fs/cgroup/cgroup.subtree_control
done_testing
