# SPDX-License-Identifier: GPL-2.0
#
# The console scan, sourced by tests/vm/run and tests/real/run:
# kernel_reports LOG prints every kernel report in a console log, one a
# line; nothing when there is none.

# Kernel reports that fail a run: what the kernel prints for an Oops
# (x86: "invalid opcode" after "kernel BUG at", "general protection
# fault", "BUG: unable to handle page fault"), a warning, the debug
# options' reports, lockups and RCU stalls ("self-detected stall",
# "detected stalls", "detected expedited stalls", "kthread starved"), bad
# page state, map or cache, bad rss counters, and swap entries that
# swapfile.c calls bad or unused.  Not "Unable to handle swap header"
# (stress-ng's swap stressor writes bad headers on purpose), and not user
# segfaults: those are the tests' business.
report_re='Kernel panic|Oops|BUG:|kernel BUG at|invalid opcode|WARNING:|KASAN|UBSAN|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|blocked for more than|soft lockup|hard LOCKUP|general protection fault|[Uu]nable to handle (kernel|page fault)|sleeping function called from invalid context|list_add corruption|list_del corruption|DEBUG_LOCKS_WARN_ON|INFO: lockdep is turned off|detected (expedited )?stall|rcu_[a-z]* kthread (timer wakeup didn.t happen|starved)|Bad page|Bad rss-counter|(Bad|Unused) swap (file|offset) entry|Bad swap'

kernel_reports() { # $1: console log
	# The report lines, and a Call Trace with none of them before it that
	# is not the OOM killer's (which memory pressure tests expect), nor the
	# OOM reaper's dump of a victim it could not reap (one in fork() holds
	# its mmap_lock: races, 2026-12-06), nor a user page's allocation
	# failure (GFP_HIGHUSER_MOVABLE: an OOM victim's last fault fails and
	# warns, on the unpatched kernel too): quoted by the line that
	# introduces it (the one before "CPU: N PID:").
	tr -d '\r' < "$1" | awk -v re="$report_re" '
		{ line[NR % 16] = $0 }
		$0 ~ re { print; last = NR; next }
		/Call Trace:/ && !(last && NR - last < 200) {
			hdr = ""; oom = 0
			for (i = NR - 1; i > 0 && i > NR - 8; i--) {
				if (line[i % 16] ~ /invoked oom-killer|page allocation failure: .*GFP_HIGHUSER_MOVABLE|oom_reaper: unable to reap/) { oom = 1; break }
				if (line[i % 16] ~ /CPU: [0-9]+ PID: / && i > 1) hdr = line[(i - 1) % 16]
			}
			if (!oom) { print "Call Trace outside an OOM report, after: " hdr; last = NR }
		}'
}
