# SPDX-License-Identifier: GPL-2.0
# TAP helpers for the guest's shell tests, in kselftest's format.
#   plan N; check "what" CONDITION...; skip "what" "why"; note "text"; done_testing
# done_testing fails the test when the checks run are not the N planned.
_n=0 _fail=0 _plan=
plan() { _plan=$1; echo "TAP version 13"; echo "1..$1"; }
note() { echo "# $*"; }
# check DESCRIPTION COMMAND...: ok when COMMAND succeeds.
check() {
	local what=$1
	shift
	_n=$((_n + 1))
	if "$@"; then
		echo "ok $_n $what"
	else
		echo "not ok $_n $what"
		_fail=$((_fail + 1))
	fi
}
# expect DESCRIPTION EXPECTED ACTUAL: ok when equal; says both when not.
expect() {
	_n=$((_n + 1))
	if [ "$2" = "$3" ]; then
		echo "ok $_n $1"
	else
		echo "not ok $_n $1: expected '$2', got '$3'"
		_fail=$((_fail + 1))
	fi
}
skip() { _n=$((_n + 1)); echo "ok $_n $1 # SKIP $2"; }
# alive PID: the process exists and is not a zombie (kill -0 succeeds on
# a zombie, so it cannot tell a dead child that was not reaped yet).
alive() {
	local st
	st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
	[ -n "$st" ] && [ "$st" != Z ] && [ "$st" != X ]
}
# wait_rss PID KB SECS: wait until PID's VmRSS reaches KB; false if not.
wait_rss() {
	local i=0 kb
	while [ $i -lt $(($3 * 10)) ]; do
		kb=$(awk '$1 == "VmRSS:" { print $2 }' "/proc/$1/status" 2>/dev/null)
		[ -n "$kb" ] && [ "$kb" -ge "$2" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
done_testing() {
	if [ -n "$_plan" ] && [ "$_n" != "$_plan" ]; then
		_n=$((_n + 1))
		echo "not ok $_n the test ran $((_n - 1)) checks of the $_plan planned"
		_fail=$((_fail + 1))
	fi
	echo "# Totals: pass:$((_n - _fail)) fail:$_fail"
	[ $_fail = 0 ]
}
