#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# Every shell script of the project is shellcheck-clean, and has --help.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'shellcheck: scripts, tests, .ci/run' '
	cd "$TOP" &&
	files=$(git ls-files scripts tests .ci | xargs awk "FNR == 1 && /^#!.*(ba)?sh/ { print FILENAME } { nextfile }") &&
	test -n "$files" &&
	# A few files per run, a run per core: with -x each run reads the
	# libraries its files source again, and shellcheck uses one core.
	printf "%s\n" $files | xargs -P "$(nproc)" -n 4 shellcheck -x
'

test_expect_success 'every command under scripts/ answers --help with its usage, exit 0' '
	cd "$TOP" &&
	n=0 &&
	for s in $(git ls-files scripts | grep -v "^scripts/lib/"); do
		[ -x "$s" ] || continue
		n=$((n + 1))
		"$s" --help >"$TEST_DIR/help" || fail "$s --help exited non-zero"
		grep -q "^Usage: $s\( \|$\)" "$TEST_DIR/help" || fail "$s: no usage line naming $s"
	done &&
	test "$n" -ge 30 || fail "only $n commands found"
'

test_expect_success 'every executable file under scripts/ is a command, every command executable' '
	cd "$TOP" &&
	for s in $(git ls-files scripts); do
		case $s in
		scripts/lib/*) [ ! -x "$s" ] || fail "$s: the library is sourced, not run" ;;
		*.c | *.h | */c/* | */nolibc-include/*) ;;
		*) [ -x "$s" ] || fail "$s: not executable" ;;
		esac
	done
'

test_expect_success 'the README names every command and every top-level folder' '
	cd "$TOP" &&
	for s in $(git ls-files scripts | grep -v "^scripts/lib/"); do
		[ -x "$s" ] || continue
		grep -q "\`$(basename "$s")\`" README.md || fail "README.md does not name $(basename "$s")"
	done &&
	for d in $(git ls-files | cut -d/ -f1 | sort -u); do
		[ -d "$d" ] || continue
		grep -q "\`$d/" README.md || fail "README.md does not name the folder $d/"
	done
'

test_done
