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
	# A zombie that PID 1 has not reaped yet is gone too.
	st=$(ps -o stat= -p "$(cat "$TEST_DIR/pid")" || true) &&
	case $st in "" | Z*) ;; *) fail "the ticker outlived its script ($st)" ;; esac
'

# A reader of the script's stderr (a pipe, a command substitution) waits
# for every writer: nothing of the ticker may outlive its kill.
test_expect_success 'stage_ticker: killed, it leaves no sleep behind (that would hold the stderr pipe)' '
	PROGRESS_EVERY=37.25 lib "t=\$(stage_ticker \"$TEST_DIR/obj\" build); sleep 0.5; kill \$t" 2>/dev/null &&
	sleep 0.5 &&
	expect_eq "$(pgrep -fx "sleep 37.25" || true)" "" "sleeps left"
'

test_done
