#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/ktap/ktap-parse on the recorded console logs of tests/suite/fixtures/ktap:
# exact status, exit code, summary, counts, JSON and JUnit XML for each, then
# random bytes and truncated logs through a sanitizer build.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

FIX=$TOP/tests/suite/fixtures/ktap
# The parser's units: every .c of scripts/ktap, as scripts/ktap/ktap-parse builds it.
KTAP=$TOP/scripts/ktap
BIN=${BUILD:-$TOP/build}/harness/ktap-parse
export FIX KTAP BIN

# exit_of STATUS: ktap-parse's exit code for a run of STATUS (the project's
# scheme: 0 a pass, 1 a run that failed, whichever way).
exit_of() { case $1 in PASS | SKIP) echo 0 ;; *) echo 1 ;; esac; }

# parse STATUS ARGS...: ktap-parse with --json and --junit into TEST_DIR:
# the exit code of STATUS, and STATUS in the JSON.
parse() {
	local want=$1
	shift
	rm -f "$TEST_DIR/out.json" "$TEST_DIR/out.xml"
	expect_exit "$(exit_of "$want")" ktap-parse --json "$TEST_DIR/out.json" --junit "$TEST_DIR/out.xml" "$@"
	expect_eq "$(jq -r .status "$TEST_DIR/out.json")" "$want" "the JSON's status"
}

# summary: the first stdout line of the last parse.
summary() { head -n 1 "$TEST_DIR/stdout"; }

# js FILTER: jq -c FILTER on the last JSON.
js() { jq -c "$1" "$TEST_DIR/out.json"; }

# xml_ok FILE: well-formed JUnit XML (xmllint, else a rough structural check).
xml_ok() {
	if test_have_prereq XMLLINT; then
		xmllint --noout "$1"
	else
		head -n 1 "$1" | grep -q '^<?xml version="1.0" encoding="UTF-8"?>$' &&
			grep -q '^<testsuites ' "$1" && tail -n 1 "$1" | grep -q '^</testsuites>$' &&
			[ "$(grep -c '<testcase ' "$1")" -eq "$(grep -c '</testcase>' "$1")" ] &&
			! grep -q '[<&][^a-z/?#!]' "$1"
	fi
}

test_expect_success 'scripts/ktap/ktap-parse builds the parser into build/harness; -Wall -Wextra clean' '
	rm -f "$BIN" &&
	expect_exit 0 ktap-parse "$FIX/kunit-pass.log" &&
	test -x "$BIN" &&
	grep -q "^+ .*-o .*/harness/ktap-parse" "$TEST_DIR/stderr" &&
	expect_exit 0 ktap-parse "$FIX/kunit-pass.log" &&
	test ! -s "$TEST_DIR/stderr" &&
	${HOSTCC:-cc} -std=gnu11 -O2 -Wall -Wextra -Werror -o "$TEST_DIR/kp" "$KTAP"/*.c &&
	expect_exit 0 ktap-parse --help &&
	grep -q "^Usage: scripts/ktap/ktap-parse " "$TEST_DIR/stdout"
'

test_expect_success 'the parser is built again when any of its .c or .h files, or its build rule, is newer' '
	mkdir -p "$TEST_DIR/top/scripts" &&
	cp -r "$TOP/scripts/lib" "$KTAP" "$TEST_DIR/top/scripts/" &&
	d=$TEST_DIR/top/scripts/ktap &&
	for f in ktap.h ktap-junit.c ktap-parse; do
		touch -d 2001-01-01 "$d"/*.c "$d"/*.h "$d/ktap-parse" &&
		BUILD=$TEST_DIR/top/build expect_exit 0 "$d/ktap-parse" "$FIX/kunit-pass.log" &&
		BUILD=$TEST_DIR/top/build expect_exit 0 "$d/ktap-parse" "$FIX/kunit-pass.log" &&
		test ! -s "$TEST_DIR/stderr" || fail "$f: built again with nothing newer"
		touch "$d/$f" &&
		BUILD=$TEST_DIR/top/build expect_exit 0 "$d/ktap-parse" "$FIX/kunit-pass.log" &&
		grep -q "^+ .* -o .*/top/build/harness/ktap-parse\.[0-9]* .*/ktap\.c .*/util\.c" "$TEST_DIR/stderr" ||
			fail "$f: not built again when newer"
	done
'

test_expect_success 'the parser'"'"'s state is private to ktap.c: no header has it, the writers read the run' '
	! grep -n "struct \(kline\|extractor\|descent\|ktap_parser\) {" "$KTAP"/*.h &&
	! grep -n "struct \(kline\|extractor\|descent\|ktap_parser\)\b" "$KTAP"/ktap-json.c "$KTAP"/ktap-junit.c &&
	grep -q "^void ktap_write_json(const struct ktap_run \*r, FILE \*f)" "$KTAP/ktap-json.c" &&
	grep -q "^void ktap_write_junit(const struct ktap_run \*r, FILE \*f)" "$KTAP/ktap-junit.c"
'

test_expect_success CPPCHECK 'cppcheck --enable=warning,portability,performance is quiet' '
	cppcheck -q --error-exitcode=1 --enable=warning,portability,performance "$KTAP"/*.c
'

test_expect_success 'passing KUnit boot: PASS, nested suites, a parameterised case, skips' '
	parse PASS "$FIX/kunit-pass.log" &&
	expect_eq "$(summary)" "kunit-pass: PASS: 8 passed, 0 failed, 4 skipped, 0 errors (suites: memcpy usercopy)" &&
	expect_eq "$(wc -l <"$TEST_DIR/stdout")" 1 "stdout lines" &&
	expect_eq "$(js "[.name, .status, .counts, .crash, .missing_suites, .documents]")" \
		"[\"kunit-pass\",\"PASS\",{\"passed\":8,\"failed\":0,\"skipped\":4,\"errors\":0},null,[],1]" &&
	expect_eq "$(js "[.suites[] | [.name, .status, (.tests | length)]]")" \
		"[[\"memcpy\",\"PASS\",6],[\"usercopy\",\"PASS\",4]]" &&
	expect_eq "$(js ".suites[0].tests[2] | [.name, .status, .reason]")" \
		"[\"memcpy_large_test\",\"SKIP\",\"Test is slow\"]" &&
	expect_eq "$(js "[.suites[1].tests[2].tests[] | .name + \"=\" + .status]")" \
		"[\"size-0=PASS\",\"size-1=PASS\",\"size-4096=PASS\"]" &&
	expect_eq "$(js ".suites[0].diagnostics")" \
		"[\"module: memcpy_kunit\",\"memcpy: pass:2 fail:0 skip:4 total:6\",\"Totals: pass:2 fail:0 skip:4 total:6\"]" &&
	xml_ok "$TEST_DIR/out.xml" &&
	grep -q "^<testsuites name=\"kunit-pass\" tests=\"12\" failures=\"0\" errors=\"0\" skipped=\"4\">" "$TEST_DIR/out.xml" &&
	grep -q "<testcase classname=\"usercopy\" name=\"usercopy_test_check_nonzero_user.size-4096\">" "$TEST_DIR/out.xml" &&
	grep -q "<skipped message=\"Test is slow\"/>" "$TEST_DIR/out.xml"
'

test_expect_success 'the same boot without timestamps gives the same results' '
	parse PASS --name kunit-pass "$FIX/kunit-pass.log" && cp "$TEST_DIR/out.json" "$TEST_DIR/time.json" &&
	parse PASS --name kunit-pass "$FIX/kunit-notime.log" &&
	expect_eq "$(summary)" "kunit-pass: PASS: 8 passed, 0 failed, 4 skipped, 0 errors (suites: memcpy usercopy)" &&
	cmp "$TEST_DIR/time.json" "$TEST_DIR/out.json"
'

test_expect_success 'failing subtest: FAIL, exit 1, its path and its diagnostics' '
	parse FAIL "$FIX/kunit-fail.log" &&
	expect_eq "$(summary)" "kunit-fail: FAIL: 1 passed, 1 failed, 1 skipped, 0 errors (suites: memcpy)" &&
	expect_eq "$(sed -n 2,\$p "$TEST_DIR/stdout")" "  FAIL memcpy.memcpy_test" &&
	expect_eq "$(js "[.status, .suites[0].status, .suites[0].tests[1].status, .crash]")" "[\"FAIL\",\"FAIL\",\"FAIL\",null]" &&
	expect_eq "$(js ".suites[0].tests[1].diagnostics[0]")" "\"memcpy_test: EXPECTATION FAILED at lib/memcpy_kunit.c:114\"" &&
	xml_ok "$TEST_DIR/out.xml" &&
	grep -q "failures=\"1\"" "$TEST_DIR/out.xml" &&
	grep -q "<failure message=\"not ok\">memcpy_test: EXPECTATION FAILED" "$TEST_DIR/out.xml"
'

test_expect_success 'CRLF line endings (serial console): same results, no CR left' '
	parse FAIL --name kunit-fail "$FIX/kunit-fail.log" && cp "$TEST_DIR/out.json" "$TEST_DIR/lf.json" &&
	grep -q "$(printf "\r\r")\$" "$FIX/kunit-crlf.log" &&
	parse FAIL --name kunit-fail "$FIX/kunit-crlf.log" &&
	cmp "$TEST_DIR/lf.json" "$TEST_DIR/out.json" &&
	! grep -q "$(printf "\r")" "$TEST_DIR/stdout" "$TEST_DIR/out.json" "$TEST_DIR/out.xml"
'

test_expect_success 'kernel panic in the middle of a suite: ERROR, exit 1, the crash line' '
	parse ERROR "$FIX/kunit-panic.log" &&
	expect_eq "$(summary)" "kunit-panic: ERROR: 2 passed, 0 failed, 0 skipped, 3 errors (suites: memcpy)" &&
	grep -qx "  ERROR memcpy: crash: BUG: kernel NULL pointer dereference, address: 0000000000000000" "$TEST_DIR/stdout" &&
	grep -qx "  ERROR memcpy: cut off: 2 of 6 planned tests reported, no result line" "$TEST_DIR/stdout" &&
	expect_eq "$(tail -n 1 "$TEST_DIR/stdout")" "  crash: BUG: kernel NULL pointer dereference, address: 0000000000000000" &&
	expect_eq "$(js "[.status, .suites[0].status, .crash]")" \
		"[\"ERROR\",\"ERROR\",\"BUG: kernel NULL pointer dereference, address: 0000000000000000\"]" &&
	expect_eq "$(js "[.errors[].test]")" "[\"memcpy\",\"memcpy\",\"KTAP document 1\"]" &&
	xml_ok "$TEST_DIR/out.xml" && grep -q "<error message=\"crash\">" "$TEST_DIR/out.xml"
'

test_expect_success 'an Oops that KUnit survived (try faulted, not ok): still ERROR' '
	parse ERROR "$FIX/kunit-oops.log" &&
	expect_eq "$(summary)" "kunit-oops: ERROR: 1 passed, 0 failed, 0 skipped, 1 errors (suites: usercopy)" &&
	expect_eq "$(js ".suites[0].tests[1] | [.name, .status]")" "[\"usercopy_test_invalid\",\"ERROR\"]" &&
	expect_eq "$(js .crash)" "\"BUG: unable to handle page fault for address: ffffc90000013000\""
'

test_expect_success 'hang: cut off mid-suite is ERROR; with --timed-out it is MISS, exit 1' '
	parse ERROR "$FIX/kunit-hang.log" &&
	expect_eq "$(summary)" "kunit-hang: ERROR: 2 passed, 0 failed, 1 skipped, 2 errors (suites: memcpy)" &&
	grep -qx "  ERROR memcpy: cut off: 3 of 6 planned tests reported, no result line" "$TEST_DIR/stdout" &&
	parse MISS --timed-out "$FIX/kunit-hang.log" &&
	expect_eq "$(summary)" "kunit-hang: MISS: 2 passed, 0 failed, 1 skipped, 2 errors (suites: memcpy)" &&
	grep -qx "  MISS boot timed out" "$TEST_DIR/stdout" &&
	expect_eq "$(js "[.status, .miss, .suites[0].status]")" "[\"MISS\",[\"boot timed out\"],\"ERROR\"]" &&
	xml_ok "$TEST_DIR/out.xml" && grep -q "<error message=\"MISS\">" "$TEST_DIR/out.xml"
'

test_expect_success '"KTAP version 1" + "1..0" with an expected suite: ERROR, suite missing' '
	parse ERROR --expect memcpy "$FIX/kunit-empty.log" &&
	expect_eq "$(summary)" "kunit-empty: ERROR: 0 passed, 0 failed, 0 skipped, 2 errors (suites: none)" &&
	grep -qx "  ERROR expected suite memcpy not found" "$TEST_DIR/stdout" &&
	expect_eq "$(js "[.status, .missing_suites, .suites, .documents]")" "[\"ERROR\",[\"memcpy\"],[],1]" &&
	xml_ok "$TEST_DIR/out.xml"
'

test_expect_success 'zero tests is never a pass, even with nothing expected' '
	parse ERROR "$FIX/kunit-empty.log" &&
	grep -qx "  ERROR no test results: a run with zero tests is not a pass" "$TEST_DIR/stdout"
'

test_expect_success 'two KTAP documents (KUnit, then the guest init): both parsed, end marker' '
	parse PASS --end-marker "ktap-init: done" --expect memcpy --expect unaligned "$FIX/two-docs.log" &&
	expect_eq "$(summary)" "two-docs: PASS: 5 passed, 0 failed, 1 skipped, 0 errors (suites: memcpy unaligned clear_user_align)" &&
	expect_eq "$(js "[.documents, [.suites[] | [.name, .document, .status]]]")" \
		"[2,[[\"memcpy\",1,\"PASS\"],[\"unaligned\",2,\"PASS\"],[\"clear_user_align\",2,\"PASS\"]]]" &&
	expect_eq "$(js ".suites[1].tests[1].diagnostics")" "[\"[    1.520100] random: crng init done\"]" &&
	xml_ok "$TEST_DIR/out.xml"
'

test_expect_success 'end marker missing: MISS; expected suite missing: ERROR' '
	parse MISS --end-marker "ktap-init: finished" "$FIX/two-docs.log" &&
	grep -qx "  MISS end marker .ktap-init: finished. not found" "$TEST_DIR/stdout" &&
	parse ERROR --expect usercopy "$FIX/two-docs.log" &&
	expect_eq "$(js .missing_suites)" "[\"usercopy\"]"
'

test_expect_success 'kernel KTAP cut off, then the guest init'"'"'s: ERROR on the first only' '
	sed "/^\[.*\] ok 1 memcpy\$/d" "$FIX/two-docs.log" >"$TEST_DIR/cut.log" &&
	parse ERROR "$TEST_DIR/cut.log" &&
	expect_eq "$(js "[.suites[] | .status]")" "[\"ERROR\",\"PASS\",\"PASS\"]" &&
	grep -qx "  ERROR memcpy: cut off: no result line" "$TEST_DIR/stdout"
'

test_expect_success 'a result after the top-level plan is kept and makes the run an ERROR, not a PASS' '
	printf "%s\n" "[    1.0] KTAP version 1" "[    1.0] 1..1" "[    1.1] ok 1 a" \
		"[    1.2] # between" "[    1.3] not ok 2 b" "[    1.4] reboot: Power down" >"$TEST_DIR/plan.log" &&
	parse ERROR "$TEST_DIR/plan.log" &&
	expect_eq "$(summary)" "plan: ERROR: 1 passed, 1 failed, 0 skipped, 1 errors (suites: a b)" &&
	grep -qx "  FAIL b" "$TEST_DIR/stdout" &&
	grep -qx "  ERROR KTAP document 1: 2 tests reported, plan was 1..1" "$TEST_DIR/stdout" &&
	expect_eq "$(js "[.status, [.suites[] | .name + \"=\" + .status], .errors[0].test]")" \
		"[\"ERROR\",[\"a=PASS\",\"b=FAIL\"],\"KTAP document 1\"]" &&
	xml_ok "$TEST_DIR/out.xml" && grep -q "<error message=\"ERROR\">KTAP document 1: 2 tests reported, plan was 1..1" "$TEST_DIR/out.xml" &&
	sed "s/^\(\[.*\] ok 1 memcpy\)\$/\1\n[    1.300000] ok 2 extra # SKIP after the plan/" "$FIX/two-docs.log" >"$TEST_DIR/extra.log" &&
	parse ERROR "$TEST_DIR/extra.log" &&
	expect_eq "$(summary)" "extra: ERROR: 5 passed, 0 failed, 2 skipped, 1 errors (suites: memcpy extra unaligned clear_user_align)" &&
	grep -qx "  ERROR KTAP document 1: 2 tests reported, plan was 1..1" "$TEST_DIR/stdout"
'

test_expect_success 'lines after a complete plan that are no results stay outside the document' '
	printf "%s\n" "[    1.0] KTAP version 1" "[    1.0] 1..1" "[    1.1] ok 1 a" "[    1.2] Run /init" \
		"[    1.3] BUG: kernel NULL pointer dereference" "[    1.4] # not a result" >"$TEST_DIR/after.log" &&
	parse ERROR "$TEST_DIR/after.log" &&
	expect_eq "$(summary)" "after: ERROR: 1 passed, 0 failed, 0 skipped, 1 errors (suites: a)" &&
	grep -qx "  ERROR crash outside KTAP output: BUG: kernel NULL pointer dereference" "$TEST_DIR/stdout" &&
	expect_eq "$(js "[.suites[0].status, .suites[0].diagnostics, .crash]")" \
		"[\"PASS\",[],\"BUG: kernel NULL pointer dereference\"]"
'

test_expect_success 'a count different from the plan: a plan after the results, a second plan' '
	printf "%s\n" "KTAP version 1" "ok 1 a" "ok 2 b" "1..1" >"$TEST_DIR/late.log" &&
	parse ERROR "$TEST_DIR/late.log" &&
	grep -qx "  ERROR KTAP document 1: 2 tests reported, plan was 1..1" "$TEST_DIR/stdout" &&
	printf "%s\n" "KTAP version 1" "ok 1 a" "1..3" >"$TEST_DIR/late.log" &&
	parse ERROR "$TEST_DIR/late.log" &&
	grep -qx "  ERROR KTAP document 1: 1 tests reported, plan was 1..3" "$TEST_DIR/stdout" &&
	printf "%s\n" "KTAP version 1" "ok 1 a" "1..1" >"$TEST_DIR/late.log" &&
	parse PASS "$TEST_DIR/late.log" &&
	printf "%s\n" "KTAP version 1" "1..2" "ok 1 a" "1..3" "ok 2 b" >"$TEST_DIR/second.log" &&
	parse ERROR "$TEST_DIR/second.log" &&
	grep -qx "  ERROR KTAP document 1: a second plan 1..3, the plan was 1..2" "$TEST_DIR/stdout" &&
	printf "%s\n" "KTAP version 1" "  KTAP version 1" "  # Subtest: s" "  1..1" "  ok 1 x" "  ok 2 y" "  1..2" "ok 1 s" \
		>"$TEST_DIR/second.log" &&
	parse ERROR "$TEST_DIR/second.log" &&
	grep -qx "  ERROR s: 2 tests reported, plan was 1..1" "$TEST_DIR/stdout" &&
	grep -qx "  ERROR s: a second plan 1..2, the plan was 1..1" "$TEST_DIR/stdout"
'

test_expect_success 'no KTAP at all: MISS, exit 1' '
	parse MISS "$FIX/no-ktap.log" &&
	expect_eq "$(summary)" "no-ktap: MISS: 0 passed, 0 failed, 0 skipped, 0 errors (suites: none)" &&
	grep -qx "  MISS no KTAP output found" "$TEST_DIR/stdout" &&
	expect_eq "$(js "[.status, .suites, .crash]")" "[\"MISS\",[],null]"
'

test_expect_success 'the example of ktap.rst: 2-space nesting, SKIP in ok lines, diagnostics' '
	sed -n "/^Example KTAP output/,/^This output defines/p" \
		"$TOP/build/src/linux-6.12/Documentation/dev-tools/ktap.rst" 2>/dev/null |
		sed -n "s/^\t//p" >"$TEST_DIR/rst.log" &&
	if [ ! -s "$TEST_DIR/rst.log" ]; then exit 0; fi &&
	parse FAIL "$TEST_DIR/rst.log" &&
	expect_eq "$(summary)" "rst: FAIL: 3 passed, 1 failed, 2 skipped, 0 errors (suites: main_test)" &&
	expect_eq "$(js "[.suites[0].tests[] | .name + \"=\" + .status]")" \
		"[\"example_test_1=PASS\",\"example_test_2=PASS\",\"example_test_3=FAIL\"]" &&
	expect_eq "$(js ".suites[0].tests[0].tests[0].diagnostics")" "[\"test_1: initializing test_1\"]"
'

test_expect_success 'usage and I/O errors: exit 2 and one line on stderr' '
	expect_exit 2 ktap-parse &&
	expect_one_line_error "expected one CONSOLE_LOG" &&
	expect_exit 2 ktap-parse --bogus "$FIX/kunit-pass.log" &&
	expect_one_line_error "bad option" &&
	expect_exit 2 ktap-parse "$TEST_DIR/does-not-exist.log" &&
	expect_one_line_error "does-not-exist.log" &&
	expect_exit 2 ktap-parse --json "$TEST_DIR/no/such/dir/out.json" "$FIX/kunit-pass.log" &&
	expect_one_line_error "out.json"
'

test_expect_success 'the project'"'"'s exit codes: 0 a pass, 1 FAIL, ERROR or MISS (the JSON says which), 2 bad usage' '
	for want in kunit-pass:0:PASS kunit-fail:1:FAIL kunit-panic:1:ERROR kunit-empty:1:ERROR no-ktap:1:MISS; do
		f=${want%%:*} code=${want#*:} code=${code%%:*}
		expect_exit "$code" ktap-parse --json "$TEST_DIR/x.json" "$FIX/$f.log" &&
		expect_eq "$(jq -r .status "$TEST_DIR/x.json")" "${want##*:}" "$f"
	done &&
	expect_exit 2 ktap-parse --expect &&
	expect_exit 0 ktap-parse --help &&
	grep -qx "  1  FAIL, ERROR or MISS: the run failed; the summary line and the JSON.s" "$TEST_DIR/stdout" &&
	grep -qx "  2  bad usage: bad arguments, an unreadable log, an unwritable output" "$TEST_DIR/stdout" &&
	expect_exit 0 "$BIN" --help &&
	grep -q "^Exit codes: 0 PASS or SKIP; 1 FAIL, ERROR or MISS (the summary and the\$" "$TEST_DIR/stdout" &&
	for c in 0:PASS 0:SKIP 1:FAIL 1:ERROR 1:MISS; do
		jq -n --arg s "${c#*:}" "{status: \$s}" >"$TEST_DIR/s.json" &&
		expect_eq "$(PROG=boot && . "$TOP/scripts/lib/common.sh" && . "$TOP/scripts/lib/results.sh" &&
			ktap_status "${c%%:*}" "$TEST_DIR/s.json" log && echo "$KTAP_STATUS")" "${c#*:}" "ktap_status $c"
	done &&
	for c in 0:FAIL 1:PASS 2:ERROR 3:MISS; do
		jq -n --arg s "${c#*:}" "{status: \$s}" >"$TEST_DIR/s.json" &&
		rc=0 && (PROG=boot && . "$TOP/scripts/lib/common.sh" && . "$TOP/scripts/lib/results.sh" &&
			ktap_status "${c%%:*}" "$TEST_DIR/s.json" log) 2>"$TEST_DIR/err" || rc=$?
		expect_eq "$rc" 1 "ktap_status $c" &&
		expect_one_line_error_in "$TEST_DIR/err" "ktap-parse failed on log \\(exit ${c%%:*}"
	done
'

test_expect_success 'every fixture gives valid JSON and well-formed JUnit XML' '
	for f in "$FIX"/*.log; do
		rc=0
		ktap-parse --json "$TEST_DIR/all.json" --junit "$TEST_DIR/all.xml" "$f" >/dev/null || rc=$?
		[ "$rc" -le 1 ] || fail "$f: exit $rc"
		jq -e ".status and .counts" "$TEST_DIR/all.json" >/dev/null || fail "$f: JSON"
		xml_ok "$TEST_DIR/all.xml" || fail "$f: XML"
	done
'

# many_errors N: a suite of N cases, each but every 100th reporting ERROR
# with its own message (a log of 14 MB for 300000).
many_errors() {
	awk -v n="$1" 'BEGIN {
		print "KTAP version 1"; print "1..1"
		print "    KTAP version 1"; print "    # Subtest: many"; print "    1.." n
		for (i = 1; i <= n; i++)
			if (i % 100) print "    not ok " i " case_" i " # ERROR boom " i
			else print "    ok " i " case_" i
		print "not ok 1 many"
	}'
}

# many_cases N: the <testcase> lines the JUnit of many_errors N must have.
many_cases() {
	awk -v n="$1" 'BEGIN {
		for (i = 1; i <= n; i++)
			if (i % 100) print "    <testcase classname=\"many\" name=\"case_" i "\"><error message=\"error\">reported ERROR: boom " i
			else print "    <testcase classname=\"many\" name=\"case_" i "\"></testcase>"
	}'
}

# The JUnit writer takes time in proportion to the run: 300000 cases and
# 297000 errors in a CPU budget (30 s) some fifteen times what it needs, and
# far less than a writer that searches the run's errors for each test's.
test_expect_success 'JUnit of 297000 errors: complete, well-formed, each error with its case (a linear writer)' '
	many_errors 300000 >"$TEST_DIR/many.log" &&
	expect_exit 1 bash -c "ulimit -t 30 && exec \"\$0\" \"\$@\"" "$BIN" \
		--json "$TEST_DIR/many.json" --junit "$TEST_DIR/many.xml" "$TEST_DIR/many.log" &&
	expect_eq "$(summary)" "many: ERROR: 3000 passed, 0 failed, 0 skipped, 297000 errors (suites: many)" &&
	xml_ok "$TEST_DIR/many.xml" &&
	grep -q "^<testsuites name=\"many\" tests=\"300000\" failures=\"0\" errors=\"297000\" skipped=\"0\">\$" "$TEST_DIR/many.xml" &&
	many_cases 300000 >"$TEST_DIR/cases.want" &&
	grep "<testcase " "$TEST_DIR/many.xml" >"$TEST_DIR/cases.got" &&
	cmp "$TEST_DIR/cases.want" "$TEST_DIR/cases.got" &&
	expect_eq "$(jq -c "[.counts.errors, (.errors | length), .errors[-1].test, .errors[-1].message]" "$TEST_DIR/many.json")" \
		"[297000,297000,\"many.case_299999\",\"reported ERROR: boom 299999\"]" &&
	rm -f "$TEST_DIR/many.log" "$TEST_DIR/many.xml" "$TEST_DIR/many.json" "$TEST_DIR"/cases.*
'

# The robustness checks run a sanitizer build, if the host cc can link one.
san=$TEST_DIR/ktap-parse-san
if ${HOSTCC:-cc} -std=gnu11 -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all \
	-o "$san" "$KTAP"/*.c 2>/dev/null; then
	note "robustness checks under -fsanitize=address,undefined"
else
	note "no sanitizer runtime: robustness checks on the plain build"
	san=$BIN
fi
export san ASAN_OPTIONS=detect_leaks=0:exitcode=86 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

# robust WANT_STATUSES LOG [ARGS...]: a status in WANT_STATUSES ("ERROR
# MISS") and its exit code, no sanitizer report.
robust() {
	local want=$1 log=$2 rc=0 st
	shift 2
	"$san" "$@" --json "$TEST_DIR/r.json" --junit "$TEST_DIR/r.xml" "$log" \
		>"$TEST_DIR/r.out" 2>"$TEST_DIR/r.err" || rc=$?
	st=$(jq -r .status "$TEST_DIR/r.json") || fail "$log: JSON"
	case " $want " in *" $st "*) ;; *) cat "$TEST_DIR/r.err"; fail "$log: $st, want one of $want" ;; esac
	[ "$rc" = "$(exit_of "$st")" ] || fail "$log: $st with exit $rc"
	[ ! -s "$TEST_DIR/r.err" ] || { cat "$TEST_DIR/r.err"; fail "$log: stderr"; }
	xml_ok "$TEST_DIR/r.xml" || fail "$log: XML"
}

test_expect_success '200 KiB of /dev/urandom: ERROR or MISS, no crash, valid outputs' '
	head -c 204800 /dev/urandom >"$TEST_DIR/random.bin" &&
	robust "ERROR MISS" "$TEST_DIR/random.bin" &&
	robust "ERROR MISS" "$TEST_DIR/random.bin" --expect memcpy --end-marker done &&
	{ cat "$FIX/kunit-pass.log"; head -c 65536 /dev/urandom; } >"$TEST_DIR/tail.bin" &&
	robust "PASS ERROR" "$TEST_DIR/tail.bin"
'

test_expect_success 'the passing log truncated anywhere before its last result: ERROR or MISS' '
	last=$(grep -b "ok 2 usercopy\$" "$FIX/kunit-pass.log" | cut -d: -f1) &&
	len=$(grep "ok 2 usercopy\$" "$FIX/kunit-pass.log" | wc -c) &&
	for n in $(seq 0 11 $((last + len - 2))) $((last + len - 2)); do
		head -c "$n" "$FIX/kunit-pass.log" >"$TEST_DIR/trunc.log"
		robust "ERROR MISS" "$TEST_DIR/trunc.log"
	done &&
	head -c $((last + len - 1)) "$FIX/kunit-pass.log" >"$TEST_DIR/trunc.log" &&
	robust PASS "$TEST_DIR/trunc.log"
'

test_expect_success 'binary junk, NUL bytes and a 200000-byte line inside a suite: still PASS' '
	{
		head -n 12 "$FIX/kunit-pass.log"
		head -c 3000 /dev/urandom | tr -d "\n[:cntrl:]" | tr -d "#BOKW"; echo
		printf "%200000s\n" x
		printf "a\000b\001\377\376\303(\r\n"
		sed -n "13,\$p" "$FIX/kunit-pass.log"
	} >"$TEST_DIR/junk.log" &&
	robust PASS "$TEST_DIR/junk.log" &&
	expect_eq "$(jq -c .counts "$TEST_DIR/r.json")" "{\"passed\":8,\"failed\":0,\"skipped\":4,\"errors\":0}"
'

test_expect_success VALGRIND 'valgrind: no memory errors or leaks on the fixtures' '
	for f in kunit-pass kunit-panic two-docs kunit-crlf; do
		rc=0
		valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99 \
			"$BIN" --expect memcpy --json "$TEST_DIR/v.json" --junit "$TEST_DIR/v.xml" \
			"$FIX/$f.log" >/dev/null 2>"$TEST_DIR/v.err" || rc=$?
		[ "$rc" -le 1 ] || { cat "$TEST_DIR/v.err"; fail "$f: valgrind exit $rc"; }
	done
'

test_done
