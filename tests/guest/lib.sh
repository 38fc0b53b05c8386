# SPDX-License-Identifier: GPL-2.0
# TAP helpers for the guest's shell tests, in kselftest's format.
#   plan N; check "what" CONDITION...; skip "what" "why"; note "text"; done_testing
_n=0 _fail=0
plan() { echo "TAP version 13"; echo "1..$1"; }
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
done_testing() {
	echo "# Totals: pass:$((_n - _fail)) fail:$_fail"
	[ $_fail = 0 ]
}
