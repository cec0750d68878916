#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# The code generation table of the unaligned accessors: scripts/evidence/unaligned/codegen-table
# on this test's own scripts/evidence/unaligned/unaligned-variants output.  Its TAP (one line
# per assertion: the rework never calls memcpy() and is never bigger than
# the rejected forms; the memcpy form does reproduce the ARMv5 regression)
# is passed through as it is; the checks of its JSON and markdown follow,
# numbered on from there.  Its stderr (a line per compile) is kept out of
# prove's output and shown only on failure.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

variants=$TEST_DIR/variants
# The compilers: Debian 12's three, and the toolchain root's (make deps
# makes it with GCC 16 for ARMv5, the compiler the regression was
# reported with).
root_json=$TOP/build/toolchain-root/toolchains.json
ncomp=3
! test_have_prereq TOOLROOT_GCC16 ||
	ncomp=$((3 + $(jq '[.toolchains[].name] | unique | length' "$root_json")))
export variants ncomp

if ! unaligned-variants "$variants" >"$TEST_DIR/variants.log" 2>&1; then
	echo "Bail out! scripts/evidence/unaligned/unaligned-variants $variants failed"
	sed 's/^/# /' "$TEST_DIR/variants.log"
	exit 1
fi

rc=0
codegen-table --variants "$variants" --json "$TEST_DIR/codegen.json" \
	--markdown "$TEST_DIR/codegen.md" >"$TEST_DIR/tap" 2>"$TEST_DIR/codegen.log" || rc=$?
grep -v '^1\.\.' "$TEST_DIR/tap"
plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$TEST_DIR/tap")
# Number the checks below after codegen-table's (tests/suite/test-lib.sh's counters).
_test_n=${plan:-0}
_test_failed=$(grep -c '^not ok' "$TEST_DIR/tap" || :)
if [ "$rc" -ne 0 ] || [ -z "$plan" ]; then
	note "scripts/evidence/unaligned/codegen-table exited $rc; its stderr:"
	grep -v '^+ ' "$TEST_DIR/codegen.log" | sed 's/^/# /'
fi

test_expect_success 'codegen-table exits 0 and its plan matches its assertions' '
	expect_eq "$rc" 0 "exit code" &&
	expect_eq "$(grep -Ec "^(not )?ok [0-9]+ - " "$TEST_DIR/tap")" "$plan" "assertions"
'

test_expect_success 'stderr: one "+ command" line per compile, with the kernel flags' '
	n=$(grep -c "^+ .* -c .*/scripts/evidence/unaligned/c/probes.c -o " "$TEST_DIR/codegen.log") &&
	expect_eq "$n" "$(jq "[.[] | select(.command != null)] | length" "$TEST_DIR/codegen.json")" compiles &&
	! grep "^+ .*probes.c" "$TEST_DIR/codegen.log" | grep -v -- "-fno-strict-aliasing"
'

test_expect_success 'JSON: every compiler x target x opt x form is a row, n/a ones included' '
	expect_eq "$(jq length "$TEST_DIR/codegen.json")" $((ncomp * 7 * 2 * 3)) rows &&
	expect_eq "$(jq -r "[.[] | select(.status == \"n/a\" and .compiler == \"clang-14\") | .target] | unique | join(\" \")" \
		"$TEST_DIR/codegen.json")" "loongarch64 loongarch64-strict" "clang-14 n/a targets" &&
	jq -r "[.[] | select(.status == \"n/a\") | .compiler] | unique | join(\" \")" \
		"$TEST_DIR/codegen.json" | grep -q "^clang-14 gcc-12\( gcc-1[3-6]\)*$" &&
	expect_eq "$(jq "[.[] | select(.status == \"failed\")] | length" "$TEST_DIR/codegen.json")" 0 "failed rows"
'

test_expect_success 'JSON: gcc-12 armv5 -O2: one memcpy() call per probe function in the memcpy form only' '
	q() { jq -r ".[] | select(.compiler == \"gcc-12\" and .target == \"armv5\" and .opt == \"-O2\" and .form == \"$1\") | $2" \
		"$TEST_DIR/codegen.json"; } &&
	expect_eq "$(q memcpy "[.functions[] | select(.name | startswith(\"probe_\")) | .memcpy_calls] | unique | join(\" \")")" 1 "calls per probe" &&
	expect_eq "$(q memcpy .memcpy_calls)" "$(q memcpy "[.functions[] | select(.name | startswith(\"probe_\"))] | length")" "calls" &&
	expect_eq "$(q packed .memcpy_calls) $(q rework .memcpy_calls)" "0 0" "packed and rework calls" &&
	expect_eq "$(q rework .instructions)" "$(q packed .instructions)" "rework vs packed instructions" &&
	expect_eq "$(q rework .same_code_as_packed)" true "rework code = packed"
'

test_expect_success TOOLROOT_GCC16 'GCC 16.2 (the reporter'"'"'s) armv5: the memcpy form calls memcpy(), the rework does not and is the packed form' '
	for o in -O2 -Os; do
		q() { jq -r ".[] | select(.compiler == \"gcc-16\" and .target == \"armv5\" and .opt == \"$o\" and .form == \"$1\") | $2" \
			"$TEST_DIR/codegen.json"; }
		[ "$(q memcpy .memcpy_calls)" -gt 0 ] || fail "gcc-16 $o: the memcpy form makes no memcpy() call"
		expect_eq "$(q rework .memcpy_calls)" 0 "gcc-16 $o rework calls"
		expect_eq "$(q rework .same_code_as_packed)" true "gcc-16 $o rework code = packed"
	done &&
	grep -q "^ok [0-9]* - reproduction: gcc-16 armv5 -O2: the memcpy form calls memcpy()" "$TEST_DIR/tap"
'

test_expect_success 'JSON: clang makes no memcpy() call in any form' '
	expect_eq "$(jq "[.[] | select((.compiler | startswith(\"clang\")) and .status == \"ok\") | .memcpy_calls] | add" \
		"$TEST_DIR/codegen.json")" 0 "clang memcpy calls"
'

test_expect_success 'markdown: a table row per compiler x target x opt, and the summary' '
	expect_eq "$(grep -c "^| \(gcc-1[2-6]\|clang-14\|clang-22\) |" "$TEST_DIR/codegen.md")" $((ncomp * 7 * 2)) "table rows" &&
	grep -q "^| gcc-12 | armv5 | -O2 | 0 / [0-9]* | [1-9][0-9]* / [0-9]* | 0 / [0-9]* | yes |" "$TEST_DIR/codegen.md" &&
	grep -q "^| clang-14 | loongarch64 | -O2 | n/a | n/a | n/a | n/a | .*unknown target" "$TEST_DIR/codegen.md" &&
	grep -q "^Over [0-9]* compiled rows" "$TEST_DIR/codegen.md"
'

test_done
