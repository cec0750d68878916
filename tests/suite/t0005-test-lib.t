#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# tests/suite/test-lib.sh itself: a body fails on its first failing command, also in
# the middle of a loop (bash ignores set -e wherever an "if" tests a
# command, which is how a failed check once went unnoticed), and passes
# when every command does.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# The inner scripts' planted failures are not this run's: make test's
# TEST_FAILED_LOG must not list them.
unset TEST_FAILED_LOG

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

test_expect_success 'TEST_FAILED_LOG: the failed test and its output appended, nothing for a pass' '
	export TEST_FAILED_LOG=$TEST_DIR/failed.log &&
	run_inner "echo from-the-body; fail \"item 3\"" >/dev/null 2>&1 &&
	run_inner "echo from-the-body; fail \"item 4\"" >/dev/null 2>&1 &&
	run_inner "true" >/dev/null 2>&1 &&
	expect_eq "$(grep -c "^inner: not ok 1 - inner (the last 40 lines of its output):$" "$TEST_FAILED_LOG")" 2 "blocks" &&
	grep -qx "#   FAIL: item 3" "$TEST_FAILED_LOG" &&
	grep -qx "#   FAIL: item 4" "$TEST_FAILED_LOG" &&
	expect_eq "$(wc -l <"$TEST_FAILED_LOG")" 6 "lines"
'

test_expect_success 'a body whose commands all succeed passes' '
	run_inner "for i in 1 2 3; do [ \$i -gt 0 ]; done; true" >"$TEST_DIR/tap" &&
	grep -qx "ok 1 - inner" "$TEST_DIR/tap"
'

# run_script FILE: FILE (test lines) after the library, then test_done,
# run as a test script outside 'make test'; its TAP.
run_script() {
	{ printf '%s\n' '#!/usr/bin/env bash' ". \"$TOP/tests/suite/test-lib.sh\""; cat "$1"; echo test_done; } >"$1.t"
	env -u TEST_REQUIRED_PREREQS bash "$1.t" || true
}
export -f run_script

test_expect_success 'a lazy prerequisite runs once, when first needed, and a test needing it runs' '
	cat >"$TEST_DIR/s" <<-EOF &&
	test_lazy_prereq THING "echo x >>$TEST_DIR/evals"
	test_expect_success THING one true
	test_expect_success THING two true
	EOF
	run_script "$TEST_DIR/s" >"$TEST_DIR/tap" &&
	grep -qx "ok 1 - one" "$TEST_DIR/tap" && grep -qx "ok 2 - two" "$TEST_DIR/tap" &&
	expect_eq "$(cat "$TEST_DIR/evals")" x "evaluations"
'

test_expect_success 'a lazy prerequisite that fails skips with its last line as the reason; one never needed never runs' '
	cat >"$TEST_DIR/s" <<-EOF &&
	test_lazy_prereq GONE "echo checking; echo no gone tool; exit 1"
	test_lazy_prereq UNUSED "touch $TEST_DIR/unused"
	test_expect_success GONE one false
	test_have_prereq GONE || echo "# lacks GONE"
	EOF
	run_script "$TEST_DIR/s" >"$TEST_DIR/tap" &&
	grep -qx "ok 1 - one # SKIP missing GONE: no gone tool" "$TEST_DIR/tap" &&
	grep -qx "# lacks GONE" "$TEST_DIR/tap" &&
	[ ! -e "$TEST_DIR/unused" ]
'

test_expect_success 'under make test, a missing required prerequisite fails the test instead' '
	cat >"$TEST_DIR/s" <<-EOF &&
	test_lazy_prereq KBUILD_FAKE "echo not built; exit 1"
	test_expect_success KBUILD_FAKE one true
	EOF
	run_script "$TEST_DIR/s" >/dev/null &&
	{ TEST_REQUIRED_PREREQS="KBUILD_*" bash "$TEST_DIR/s.t" >"$TEST_DIR/tap" || true; } &&
	grep -qx "not ok 1 - one" "$TEST_DIR/tap" &&
	grep -qx "#   missing prerequisite KBUILD_FAKE, which .make test. makes: not built" "$TEST_DIR/tap" &&
	{ TEST_FAILED_LOG=$TEST_DIR/failed.log TEST_REQUIRED_PREREQS="KBUILD_*" bash "$TEST_DIR/s.t" >/dev/null || true; } &&
	grep -qx "s: not ok 1 - one: missing prerequisite KBUILD_FAKE: not built" "$TEST_DIR/failed.log"
'

# tree_sum of a tree large enough for its content cache (20000 files or
# more): the cache is read (a poisoned entry changes the sum), agrees with
# an empty cache, and any change of content, mode, name or link changes
# the sum; a file written in the last two seconds is not cached.
test_expect_success 'tree_sum: its content cache is read, agrees with a cold one, and sees every change' '
	big=$TEST_DIR/big && mkdir -p "$big/a" "$big/b" &&
	(cd "$big/a" && seq 1 10000 | xargs touch && cd ../b && seq 1 10000 | sed "s/$/.c/" | xargs touch) &&
	echo one >"$big/a/1" && echo two >"$big/b/1.c" && ln -s a/1 "$big/l" &&
	touch -d "1 minute ago" "$big/a/1" "$big/b/1.c" &&
	export TREE_SUM_CACHE=$TEST_DIR/cache &&
	s0=$(tree_sum "$big") && [ -s "$TREE_SUM_CACHE" ] &&
	grep -q "	$(echo one | md5sum | cut -c1-32)\$" "$TREE_SUM_CACHE" &&
	expect_eq "$(tree_sum "$big")" "$s0" "a second sum" &&
	rm "$TREE_SUM_CACHE" && expect_eq "$(tree_sum "$big")" "$s0" "the sum with an empty cache" &&
	sed -i "s/	$(echo one | md5sum | cut -c1-32)\$/	00000000000000000000000000000000/" "$TREE_SUM_CACHE" &&
	[ "$(tree_sum "$big")" != "$s0" ] &&
	rm "$TREE_SUM_CACHE" && tree_sum "$big" >/dev/null &&
	echo ONE >"$big/a/1" && s1=$(tree_sum "$big") && [ "$s1" != "$s0" ] &&
	! grep -q "	$(echo ONE | md5sum | cut -c1-32)\$" "$TREE_SUM_CACHE" &&
	chmod 600 "$big/a/2" && s2=$(tree_sum "$big") && [ "$s2" != "$s1" ] &&
	mv "$big/a/3" "$big/a/3x" && s3=$(tree_sum "$big") && [ "$s3" != "$s2" ] &&
	ln -sfn b/1.c "$big/l" && s4=$(tree_sum "$big") && [ "$s4" != "$s3" ]
'

# expect_untouched is ctime's quick check corrected by the mark's listing:
# a hard link made elsewhere (another test copying the same pristine tree)
# changes a file's ctime and nothing else, and passes; a new file, a
# removal, a chmod and a rename over a file with its mtime put back fail.
test_expect_success 'expect_untouched: a hard link made elsewhere passes; a write, creation, removal or chmod fails' '
	t=$TEST_DIR/marked && mkdir -p "$t/d" && echo a >"$t/d/a" && echo b >"$t/b" &&
	mark_tree "$t" && expect_untouched "$t" &&
	ln "$t/d/a" "$TEST_DIR/a-link" && ln "$t/b" "$TEST_DIR/b-link" &&
	[ -n "$(find "$t" -cnewer "$TEST_DIR/.mark-marked" -type f)" ] &&
	expect_untouched "$t" &&
	for change in "echo A >$t/d/a.new && touch -r $t/d/a $t/d/a.new && mv $t/d/a.new $t/d/a" \
		"echo c >$t/d/c" "rm $t/b" "chmod 600 $t/b"; do
		rm -rf "$t" && mkdir -p "$t/d" && echo a >"$t/d/a" && echo b >"$t/b" &&
		touch -d "1 minute ago" "$t/d" "$t" && mark_tree "$t" &&
		eval "$change" &&
		out=$(_test_failmark="" expect_untouched "$t" 2>&1; echo "rc=$?") &&
		case $out in *"was changed"*rc=1) ;; *) fail "after $change: $out" ;; esac || return 1
	done
'

# make test's prove --exec: the first chain's tests at the nice they are
# given, the others 5 more; a first seq that is not a plain glob is an
# error, not something to eval.
test_expect_success 'run-test: a test of the first chain runs as it is, the others at nice 5' '
	d=$TEST_DIR/rt && mkdir -p "$d" && printf "#!/bin/sh\nnice\n" >"$d/a.t" && cp "$d/a.t" "$d/b.t" && chmod +x "$d"/*.t &&
	printf -- "---\npar:\n  - seq: %s/{a,c}.t\n  - seq: %s/*.t\n" "$d" "$d" >"$d/rules.yml" &&
	base=$(nice) &&
	expect_eq "$(HARNESS_RULESFILE=$d/rules.yml "$TOP/tests/suite/run-test" "$d/a.t")" "$base" "a, of the first chain" &&
	expect_eq "$(HARNESS_RULESFILE=$d/rules.yml "$TOP/tests/suite/run-test" "$d/b.t")" "$((base + 5))" "b, of another" &&
	printf -- "---\npar:\n  - seq: \$(touch %s/ran)\n" "$d" >"$d/bad.yml" &&
	HARNESS_RULESFILE=$d/bad.yml expect_exit 2 "$TOP/tests/suite/run-test" "$d/a.t" &&
	expect_one_line_error "the first seq is not a plain glob" &&
	test ! -e "$d/ran"
'

test_done
