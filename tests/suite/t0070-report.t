#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# The report the main job writes: results.json and report.md from the
# apply stage, on a conflicting tree too.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=tests/suite/patches.sh
. "$(dirname "$0")/patches.sh"

r=$TEST_DIR/report
export r

# as_stage FILE NAME KIND: FILE made a stage record, as the pipeline does.
as_stage() {
	: >"$TEST_DIR/inputs"
	bash -c '. "$1/lib/common.sh"; . "$1/lib/results.sh"; stage_wrap "$2" "$3" "$4" series 0 1 "$5"' \
		_ "$SCRIPTS" "$1" "$2" "$3" "$TEST_DIR/inputs"
}
export -f as_stage

test_expect_success 'report from an apply on 6.12: status table and results.json' '
	t=$(copy_tree 6.12 linux) && mkdir -p "$r/stages" &&
	apply --json "$r/stages/apply.json" "$t" >/dev/null &&
	as_stage "$r/stages/apply.json" apply series &&
	report "$r" &&
	expect_eq "$(jq -r ".stages.apply.base" "$r/results.json")" 6.12 base &&
	expect_eq "$(jq -r ".base + \" \" + .version" "$r/results.json")" \
		"6.12 6.12.$(sed -n "s/^SUBLEVEL = //p" "$t/Makefile")" "results.json top: the base and the tree'"'"'s own version" &&
	expect_eq "$(jq ".stages.apply.patches | length" "$r/results.json")" 6 patches &&
	grep -q "^| $P3 | already present | in 6.12.y by a stable backport" "$r/report.md" &&
	grep -qx "| $P5 | applied |  |" "$r/report.md" &&
	grep -q "^Result: \*\*applied\*\*, 6 file(s) changed" "$r/report.md"
'

test_expect_success 'a conflict shows in the report with its failing hunk' '
	t=$(copy_tree 6.12 conflict) && rm -rf "$r" && mkdir -p "$r/stages" &&
	f=$t/arch/loongarch/include/asm/syscall.h && detach "$f" &&
	sed -i "s/5 \* sizeof(long)/5 * sizeof(unsigned long)/" "$f" &&
	! apply --json "$r/stages/apply.json" "$t" >/dev/null &&
	as_stage "$r/stages/apply.json" apply series &&
	report "$r" &&
	expect_eq "$(jq -r ".stages.apply.result" "$r/results.json")" refused result &&
	grep -qx "| $P5 | conflict |  |" "$r/report.md" &&
	grep -qx "### $P5: failing hunks" "$r/report.md"
'

test_expect_success 'a section of one change is titled by its patch, one of several changes is not' '
	t=$(copy_tree 6.12 titles) && rm -rf "$r" && mkdir -p "$r/stages" &&
	apply --json "$r/stages/apply.json" "$t" >/dev/null &&
	as_stage "$r/stages/apply.json" apply series &&
	for n in usercopy-x86 bench-icount; do
		echo "{\"result\": \"pass\"}" >"$r/stages/$n.json" &&
		as_stage "$r/stages/$n.json" "$n" harness || return 1
	done &&
	report "$r" &&
	grep -qxF "## 0003: $(series_lib patch_subject "$TOP/patches/6.12/$P3")" "$r/report.md" &&
	grep -qx "## 0001/0003/0004/0005: measured across the series" "$r/report.md"
'

test_expect_success 'the 0004 verdict takes the guest pread() timing from the arm64 boot record, not from a console log' '
	t=$(copy_tree 6.12 pread) && rm -rf "$r" && mkdir -p "$r/stages" &&
	apply --json "$r/stages/apply.json" "$t" >/dev/null &&
	as_stage "$r/stages/apply.json" apply series &&
	echo "{\"result\": \"pass\"}" >"$r/stages/clear-user-arm64.json" &&
	as_stage "$r/stages/clear-user-arm64.json" clear-user-arm64 harness &&
	printf "%s\n" "KTAP version 1" "1..1" "    # Subtest: guest_init" "    1..1" \
		"    # pread_dev_zero_100k: 2000 calls, 1.234 s" "    ok 1 pread_dev_zero_100k" "ok 1 guest_init" >"$TEST_DIR/k.log" &&
	ktap-parse --json "$r/stages/boot-arm64.json" "$TEST_DIR/k.log" >/dev/null &&
	as_stage "$r/stages/boot-arm64.json" boot-arm64 boot &&
	report "$r" &&
	grep -q "Guest /dev/zero pread() timing under TCG (not judged): 2000 calls, 1.234 s\." "$r/report.md" &&
	rm "$r/stages/boot-arm64.json" && report "$r" &&
	! grep -q "pread() timing" "$r/report.md"
'

test_expect_success 'the targets table: compiler, per-suite counts, 0001 objects, and a target its table skips with the reason' '
	t=$(copy_tree 6.12 targets) && rm -rf "$r" && mkdir -p "$r/stages" &&
	apply --json "$r/stages/apply.json" "$t" >/dev/null &&
	as_stage "$r/stages/apply.json" apply series &&
	echo "{\"result\": \"pass\", \"build_seconds\": 7, \"kernel_version\": \"6.12.1\", \"toolchain\": {\"cc\": \"mips-linux-gnu-gcc (Debian 12.2.0-14) 12.2.0\"}}" >"$r/stages/build-mips.json" &&
	as_stage "$r/stages/build-mips.json" build-mips build &&
	printf "%s\n" "KTAP version 1" "1..2" "    # Subtest: unaligned" "    1..3" "    ok 1 a" "    not ok 2 b" \
		"    ok 3 c # SKIP no" "not ok 1 unaligned" "    # Subtest: memcpy" "    1..1" "    ok 1 m" "ok 2 memcpy" >"$TEST_DIR/k.log" &&
	ktap-parse --json "$r/stages/boot-mips.json" "$TEST_DIR/k.log" >/dev/null || true &&
	as_stage "$r/stages/boot-mips.json" boot-mips boot &&
	bash -c ". \"\$1/lib/common.sh\"; . \"\$1/lib/results.sh\"; stage_na \"\$2\" build-armeb build series \"no big-endian ARMv7 in 7.3\" \"\$3\"" \
		_ "$SCRIPTS" "$r/stages/build-armeb.json" "$TEST_DIR/inputs" &&
	jq -n "{result: \"fail\", summary: {shipped_form: \"memcpy\", built: 57, rework_text_differs: 2, memcpy_text_differs: 5,
		memcpy_calls: {packed: 38, memcpy: 45, rework: 39}, objects_with_added_calls: 3}}" >"$r/stages/objects-boot-mips.json" &&
	as_stage "$r/stages/objects-boot-mips.json" objects-boot-mips objects &&
	report "$r" &&
	grep -q "^| mips | 6.12.1 | mips-linux-gnu-gcc 12.2.0 | 7 s | .* | 1/1/1 | 1/0/0 | - | .* | 5 / 2 of 57 | 38 / 45 / 39 |\$" "$r/report.md" &&
	grep -q "^| armeb | - | - | n/a | - | SKIP: no big-endian ARMv7 in 7.3 | .* | - | - |\$" "$r/report.md"
'

test_expect_success 'no stage results, no stages directory: one-line errors' '
	mkdir -p "$TEST_DIR/empty/stages" &&
	expect_exit 2 report "$TEST_DIR/empty" &&
	expect_one_line_error "no stage results" &&
	expect_exit 2 report "$TEST_DIR/nowhere" &&
	expect_one_line_error "nowhere/stages: no such directory"
'

test_expect_success 'a truncated, an empty, a record-less, a doubled or a blank stage file: one line naming it, nothing rewritten' '
	rm -rf "$r" && mkdir -p "$r/stages" && t=$(copy_tree 6.12 again) &&
	apply --dry-run --json "$r/stages/apply.json" "$t" >/dev/null && as_stage "$r/stages/apply.json" apply series &&
	report "$r" && cp "$r/results.json" "$TEST_DIR/before.json" &&
	head -c 100 "$r/stages/apply.json" >"$r/stages/cut.json" &&
	expect_exit 2 report "$r" && expect_one_line_error "cut.json: not JSON" &&
	: >"$r/stages/cut.json" &&
	expect_exit 2 report "$r" && expect_one_line_error "cut.json: empty" &&
	echo "{\"result\": \"pass\"}" >"$r/stages/cut.json" &&
	expect_exit 2 report "$r" && expect_one_line_error "cut.json: no .stage record" &&
	cat "$r/stages/apply.json" "$r/stages/apply.json" >"$r/stages/cut.json" &&
	expect_exit 2 report "$r" && expect_one_line_error "cut.json: not one JSON value" &&
	echo "  " >"$r/stages/cut.json" &&
	expect_exit 2 report "$r" && expect_one_line_error "cut.json: not one JSON value" &&
	cmp "$r/results.json" "$TEST_DIR/before.json" &&
	! ls -a "$r" | grep -q "^\.report\."
'

test_expect_success 'results.json as a symlink out of the report directory: refused, its target untouched' '
	rm -f "$r/stages/cut.json" && echo outside >"$TEST_DIR/outside" &&
	rm -f "$r/results.json" && ln -s "$TEST_DIR/outside" "$r/results.json" &&
	expect_exit 3 report "$r" && expect_one_line_error "results.json: a symlink" &&
	expect_eq "$(cat "$TEST_DIR/outside")" outside "the symlink target"
'

test_done
