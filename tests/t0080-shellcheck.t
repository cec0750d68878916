#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# Every shell script of the project is shellcheck-clean, and has --help.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

test_expect_success 'shellcheck: scripts, tests, .ci/run' '
	cd "$TOP" &&
	files=$(git ls-files scripts tests .ci | xargs awk "FNR == 1 && /^#!.*(ba)?sh/ { print FILENAME } { nextfile }") &&
	test -n "$files" &&
	shellcheck -x $files
'

test_expect_success 'every program in scripts/ answers --help with a usage and exit 0' '
	for s in "$SCRIPTS"/*; do
		[ "$(basename "$s")" != lib.sh ] || continue
		"$s" --help >"$TEST_DIR/help" || fail "$s --help exited non-zero"
		grep -q "^Usage: scripts/$(basename "$s")" "$TEST_DIR/help" || fail "$s: no usage line"
	done
'

test_done
