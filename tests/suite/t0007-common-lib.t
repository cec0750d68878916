#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/lib/common.sh's progress lines: stage_ticker, the heartbeat of a
# long kernel build (build-kernel), says how far the build is every
# period and ends with the script that started it.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# lib CODE: CODE run by bash with the project's library sourced (PROG=lib).
lib() {
	PROG=lib bash -c '. "$TOP/scripts/lib/common.sh"; set -euo pipefail; eval "$1"' _ "$1"
}
export -f lib

test_expect_success 'stage_ticker: a stage line per period with the objects so far, none after a kill' '
	d=$TEST_DIR/obj && mkdir -p "$d/lib" && touch "$d/a.o" "$d/lib/b.o" "$d/lib/c.c" &&
	PROGRESS_EVERY=1 expect_exit 0 lib "t=\$(stage_ticker \"$d\" \"build Image\" arm64); sleep 2.5; kill \$t; sleep 1.5" &&
	n=$(grep -c "^\[ *[0-9]*s\] lib: build Image: 2 objects so far (arm64)$" "$TEST_DIR/stderr") &&
	[ "$n" -ge 1 ] && [ "$n" -le 3 ] || fail "$n stage lines in: $(cat "$TEST_DIR/stderr")" &&
	expect_eq "$(grep -vc "objects so far" "$TEST_DIR/stderr")" 0 "other lines"
'

test_expect_success 'stage_ticker: ends by itself when the script that started it is gone' '
	d=$TEST_DIR/obj &&
	PROGRESS_EVERY=1 expect_exit 0 lib "stage_ticker \"$d\" build >\"$TEST_DIR/pid\"" &&
	sleep 2.5 &&
	! kill -0 "$(cat "$TEST_DIR/pid")" 2>/dev/null || fail "the ticker outlived its script"
'

test_done
