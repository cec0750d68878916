#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# The report the main job writes: results.json and report.md from the
# apply stage, on a conflicting tree too.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/patches.sh
. "$(dirname "$0")/patches.sh"

r=$TEST_DIR/report
export r

test_expect_success 'report from an apply on 6.12: status table and results.json' '
	t=$(copy_tree 6.12 linux) && mkdir -p "$r/stages" &&
	apply --json "$r/stages/apply.json" "$t" >/dev/null &&
	report "$r" &&
	expect_eq "$(jq -r ".stages.apply.base" "$r/results.json")" 6.12 base &&
	expect_eq "$(jq ".stages.apply.patches | length" "$r/results.json")" 6 patches &&
	grep -qx "| $P3 | already present |  |" "$r/report.md" &&
	grep -qx "| $P5 | applied |  |" "$r/report.md" &&
	grep -q "^Result: \*\*applied\*\*, 6 file(s) changed" "$r/report.md"
'

test_expect_success 'a conflict shows in the report with its failing hunk' '
	t=$(copy_tree 6.12 conflict) && rm -rf "$r" && mkdir -p "$r/stages" &&
	f=$t/arch/loongarch/include/asm/syscall.h && detach "$f" &&
	sed -i "s/5 \* sizeof(long)/5 * sizeof(unsigned long)/" "$f" &&
	! apply --json "$r/stages/apply.json" "$t" >/dev/null &&
	report "$r" &&
	expect_eq "$(jq -r ".stages.apply.result" "$r/results.json")" refused result &&
	grep -qx "| $P5 | conflict |  |" "$r/report.md" &&
	grep -qx "### $P5: failing hunks" "$r/report.md"
'

test_expect_success 'no stage results: a one-line error' '
	mkdir -p "$TEST_DIR/empty" &&
	expect_exit 2 report "$TEST_DIR/empty" &&
	expect_one_line_error "no stage results"
'

test_done
