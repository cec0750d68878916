#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# Every shell script of the project is shellcheck-clean (through
# scripts/check, the one place that runs it), and every command has
# --help.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'shellcheck: every shell file of the project is clean (scripts/check --only shellcheck)' '
	expect_exit 0 check --only shellcheck "$(kernel_tree 7.3)" &&
	all_ok &&
	n=$(tap_line "shellcheck: [0-9]+ scripts and tests$" | sed "s/.*shellcheck: \([0-9]*\) .*/\1/") &&
	{ test "$n" -ge 90 || fail "only $n shell files checked"; }
'

# The check can fail: a stand-in shellcheck with a finding in one file
# (the others pass) makes it a "not ok" with the finding, exit 1.
test_expect_success 'a shellcheck finding fails the check and is shown, in a script (-x) and in a test file (on its own)' '
	stand_in shellcheck "a=\" \$* \"" \
		"case \$a in *\" -x \"*) case \$a in *\" scripts/apply \"*) echo \"scripts/apply:1:1: warning: planted [SC0000]\"; exit 1 ;; esac ;; esac" \
		"case \$a in *\" -e SC1091 \"*) case \$a in *\" tests/suite/t0005-test-lib.t \"*) echo \"tests/suite/t0005-test-lib.t:1:1: warning: planted [SC0000]\"; exit 1 ;; esac ;; esac" &&
	PATH=$TEST_DIR/bin:$PATH expect_exit 1 check --only shellcheck "$(kernel_tree 7.3)" &&
	grep -q "^not ok [0-9]* - shellcheck: [0-9]* scripts and tests$" "$TEST_DIR/stdout" &&
	grep -q "^#   scripts/apply:1:1: warning: planted \[SC0000\]$" "$TEST_DIR/stdout" &&
	grep -q "^#   tests/suite/t0005-test-lib.t:1:1: warning: planted \[SC0000\]$" "$TEST_DIR/stdout"
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
		*.c | *.h | *.patch | */c/* | */nolibc-include/*) ;;
		*) [ -x "$s" ] || fail "$s: not executable" ;;
		esac
	done
'

test_expect_success 'every committed file that starts with #! is committed executable (a clone runs what git records, not this tree)' '
	cd "$TOP" &&
	git ls-files -s -- scripts tests .ci >"$TEST_DIR/index" &&
	n=0 &&
	while read -r mode _ _ f; do
		case $f in scripts/lib/*) continue ;; esac
		[ -f "$f" ] && [ "$(head -c2 "$f")" = "#!" ] || continue
		n=$((n + 1))
		[ "$mode" = 100755 ] || fail "$f: starts with #! but git records mode $mode"
	done <"$TEST_DIR/index" &&
	test "$n" -ge 100 || fail "only $n files with #! found"
'

test_expect_success 'no script pipes into grep -q (it stops reading at the first match; pipefail then fails the writer'"'"'s SIGPIPE)' '
	cd "$TOP" &&
	git grep -nE "\|[[:space:]]*grep[[:space:]]+-[a-zA-Z]*q" -- scripts tests/suite/test-lib.sh .ci |
		grep -vE "(head|tail) -n ?1[^|]*\|[[:space:]]*grep" >"$TEST_DIR/piped" || true
	[ ! -s "$TEST_DIR/piped" ] || fail "a pipe into grep -q (use grep -q ... < <(cmd)): $(cat "$TEST_DIR/piped")"
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
