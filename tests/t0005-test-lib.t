#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# tests/lib.sh itself: a body fails on its first failing command, also in
# the middle of a loop (bash ignores set -e wherever an "if" tests a
# command, which is how a failed check once went unnoticed), and passes
# when every command does.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

# run_inner BODY: a one-test script using tests/lib.sh, run; its TAP.
run_inner() {
	local t=$TEST_DIR/inner.t
	printf '%s\n' '#!/usr/bin/env bash' ". \"$TOP/tests/lib.sh\"" \
		"test_expect_success inner '$1'" 'test_done' >"$t"
	bash "$t" || true
}
export -f run_inner

test_expect_success 'a failed check in the middle of a loop fails the test' '
	run_inner "for i in 1 2 3; do [ \$i != 2 ] || fail \"item \$i\"; done" >"$TEST_DIR/tap" &&
	grep -qx "not ok 1 - inner" "$TEST_DIR/tap" &&
	grep -qx "#   FAIL: item 2" "$TEST_DIR/tap"
'

test_expect_success 'a failing command before the last one fails the test' '
	run_inner "false; true" >"$TEST_DIR/tap" &&
	grep -qx "not ok 1 - inner" "$TEST_DIR/tap"
'

test_expect_success 'a body whose commands all succeed passes' '
	run_inner "for i in 1 2 3; do [ \$i -gt 0 ]; done; true" >"$TEST_DIR/tap" &&
	grep -qx "ok 1 - inner" "$TEST_DIR/tap"
'

test_done
