#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/pipeline refuses bad arguments before it writes anything: an
# unknown kernel (get-kernel's exit code, 2), a --report directory the
# project did not make (3: never moved aside or removed, with --rerun or
# beside a DIR.prev).  No tree is needed: each is refused first.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'an unknown --kernel: exit 2, its one error line, no report directory made' '
	expect_exit 2 pipeline --kernel 6.99 --report "$TEST_DIR/r1" &&
	expect_last_error "unknown kernel .6\.99." &&
	test ! -e "$TEST_DIR/r1"
'

test_expect_success 'a --report directory the project did not make: refused (3), kept as it was' '
	mkdir -p "$TEST_DIR/mine" && echo precious >"$TEST_DIR/mine/notes.txt" &&
	for args in "" --rerun; do
		expect_exit 3 pipeline --kernel 6.99 $args --report "$TEST_DIR/mine" &&
		expect_one_line_error "mine: exists and was not made by this project" &&
		expect_eq "$(cat "$TEST_DIR/mine/notes.txt")" precious notes || return 1
	done &&
	test ! -e "$TEST_DIR/mine.prev"
'

test_expect_success 'a foreign DIR.prev beside --report: refused (3), both kept' '
	mkdir -p "$TEST_DIR/r2" "$TEST_DIR/r2.prev" && : >"$TEST_DIR/r2/.kernel-overlay-output" &&
	echo precious >"$TEST_DIR/r2.prev/notes.txt" &&
	expect_exit 3 pipeline --kernel 6.99 --report "$TEST_DIR/r2" &&
	expect_one_line_error "r2\.prev: exists and was not made by this project" &&
	test -f "$TEST_DIR/r2/.kernel-overlay-output" &&
	expect_eq "$(cat "$TEST_DIR/r2.prev/notes.txt")" precious notes
'

test_expect_success 'a symlink at --report: refused (3), its target untouched' '
	mkdir -p "$TEST_DIR/elsewhere" && ln -s elsewhere "$TEST_DIR/link" &&
	expect_exit 3 pipeline --kernel 6.99 --report "$TEST_DIR/link" &&
	expect_one_line_error "link: a symlink" &&
	test -z "$(ls -A "$TEST_DIR/elsewhere")"
'

test_done
