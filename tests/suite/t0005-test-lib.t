#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# tests/suite/test-lib.sh itself: a body fails on its first failing command, also in
# the middle of a loop (bash ignores set -e wherever an "if" tests a
# command, which is how a failed check once went unnoticed), and passes
# when every command does.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# run_inner BODY: a one-test script using tests/suite/test-lib.sh, run; its TAP.
run_inner() {
	local t=$TEST_DIR/inner.t
	printf '%s\n' '#!/usr/bin/env bash' ". \"$TOP/tests/suite/test-lib.sh\"" \
		"test_expect_success inner '$1'" 'test_done' >"$t"
	bash "$t" || true
}
export -f run_inner

test_expect_success 'a failed check in the middle of a loop fails the test' '
	run_inner "for i in 1 2 3; do [ \$i != 2 ] || fail \"item \$i\"; done" >"$TEST_DIR/tap" &&
	grep -qx "not ok 1 - inner" "$TEST_DIR/tap" &&
	grep -qx "#   FAIL: item 2" "$TEST_DIR/tap"
'

test_expect_success 'a failed check inside a helper called in an && chain fails the test' '
	run_inner "check() { for i in 1 2 3; do [ \$i != 2 ] || fail \"item \$i\"; done; }; check && true" >"$TEST_DIR/tap" &&
	grep -qx "not ok 1 - inner" "$TEST_DIR/tap" &&
	grep -qx "#   FAIL: item 2" "$TEST_DIR/tap"
'

test_expect_success 'a failed check in a piped loop of an && chain fails the test' '
	run_inner "true && printf \"1\\n2\\n\" | while read -r i; do [ \$i != 1 ] || fail \"line \$i\"; done && true" >"$TEST_DIR/tap" &&
	grep -qx "not ok 1 - inner" "$TEST_DIR/tap" &&
	grep -qx "#   FAIL: line 1" "$TEST_DIR/tap"
'

test_expect_success 'a failing command before the last one fails the test' '
	run_inner "false; true" >"$TEST_DIR/tap" &&
	grep -qx "not ok 1 - inner" "$TEST_DIR/tap"
'

test_expect_success 'a failed test prints its output on stderr too, which prove shows without -v' '
	run_inner "echo from-the-body; fail \"item 3\"" >"$TEST_DIR/tap" 2>"$TEST_DIR/err" &&
	grep -qx "inner: not ok 1 - inner (the last 40 lines of its output):" "$TEST_DIR/err" &&
	grep -qx "#   from-the-body" "$TEST_DIR/err" &&
	grep -qx "#   FAIL: item 3" "$TEST_DIR/err" &&
	run_inner "true" >"$TEST_DIR/tap" 2>"$TEST_DIR/err" &&
	[ ! -s "$TEST_DIR/err" ]
'

test_expect_success 'a body whose commands all succeed passes' '
	run_inner "for i in 1 2 3; do [ \$i -gt 0 ]; done; true" >"$TEST_DIR/tap" &&
	grep -qx "ok 1 - inner" "$TEST_DIR/tap"
'

# make test runs two chains side by side (tests/suite/testrules.yml): a
# test that builds, boots or reads a kernel build in the other chain
# would race the first chain for build/work/ and build/kbuild/.
test_expect_success 'testrules.yml: every test that builds, boots or reads a kernel build is in the first chain' '
	first=$(sed -n "s/^  - seq: tests\/suite\/t0{\([0-9,]*\)}-\*\.t$/\1/p" "$TOP/tests/suite/testrules.yml" | head -n 1) &&
	test -n "$first" &&
	n=0 &&
	# (Comment lines aside, and this file, which names them.)
	for t in $(grep -lE "^[^#]*(boot_tests|kbuild_prereq|work-tree|build-kernel|scripts/pipeline|lava-local|bench-boot)" "$TOP"/tests/suite/t*.t); do
		[ "$t" != "$0" ] || continue
		num=$(basename "$t" | sed "s/^t0\([0-9]*\)-.*/\1/")
		n=$((n + 1))
		case ",$first," in *",$num,"*) ;; *) fail "$(basename "$t") builds or reads a kernel build, but is not in the first chain" ;; esac
	done &&
	test "$n" -ge 8
'

test_done
