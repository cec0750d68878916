#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/engines/merge-results on recorded results.json (tests/suite/fixtures/results/: a
# local 6.12 run whose armv5 boot failed, a 6.1 CI job that booted x86_64
# and only built arm64).
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

data=$TOP/tests/suite/fixtures/results
export data

# row BASE TARGET: the status column of that matrix row (last run).
row() { awk -F' [|] ' -v b="| $1" -v t="$2" '$1 == b && $3 == t { print $5 }' "$TEST_DIR/stdout"; }
export -f row

test_expect_success 'a failing cell, a built-only cell and a missing cell: exit 1' '
	expect_exit 1 merge-results --json "$TEST_DIR/m.json" --expect 6.12:x86_64 --expect 6.12:arm64 \
		--expect 6.12:armv5 --expect 6.12:loongarch64 --expect 6.1:x86_64 --expect 6.1:arm64 \
		"$data/local-6.12.json" "$data/ci-6.1.json" &&
	expect_eq "$(row 6.12 armv5)" FAIL "6.12 armv5" &&
	expect_eq "$(row 6.12 arm64)" MISSING "6.12 arm64" &&
	expect_eq "$(row 6.12 loongarch64)" PASS "6.12 loongarch64" &&
	expect_eq "$(row 6.1 arm64)" BUILT "6.1 arm64" &&
	grep -qxF "| 6.12 | 6.12.117 | loongarch64 | clang-22.1.8 | PASS | 15 | 0 | 4 | 3 s | $data/local-6.12.json |" "$TEST_DIR/stdout" &&
	grep -qxF "cells: 1 BUILT, 1 FAIL, 1 MISSING, 3 PASS" "$TEST_DIR/stdout" &&
	expect_eq "$(jq -r ".summary.FAIL" "$TEST_DIR/m.json")" 1 "JSON FAIL count" &&
	expect_eq "$(jq -r "[.rows[] | select(.status == \"MISSING\")][0].target" "$TEST_DIR/m.json")" arm64 "JSON missing cell"
'

test_expect_success 'a later file replaces a cell: the rerun passes, exit 0' '
	jq ".stages[\"boot-armv5\"].status = \"PASS\" | .stages[\"boot-armv5\"].counts.failed = 0" \
		"$data/local-6.12.json" >"$TEST_DIR/rerun.json" &&
	expect_exit 0 merge-results --expect 6.12:x86_64 --expect 6.12:armv5 \
		"$data/local-6.12.json" "$TEST_DIR/rerun.json" &&
	expect_eq "$(row 6.12 armv5)" PASS "6.12 armv5" &&
	expect_eq "$(grep -c "^| 6.12 | 6.12.117 | armv5 " "$TEST_DIR/stdout")" 1 "armv5 rows"
'

test_expect_success 'an expected toolchain: gcc matches gcc-12.2.0, clang-22 is missing' '
	expect_exit 1 merge-results --expect 6.12:x86_64:gcc --expect 6.12:x86_64:clang-22 \
		--expect 6.12:loongarch64:clang-22 "$TEST_DIR/rerun.json" &&
	grep -q "^| 6.12 | 6.12.117 | x86_64 | gcc-12.2.0 | PASS " "$TEST_DIR/stdout" &&
	grep -q "^| 6.12 | - | x86_64 | clang-22 | MISSING " "$TEST_DIR/stdout" &&
	grep -q "^| 6.12 | 6.12.117 | loongarch64 | clang-22.[0-9.]* | PASS " "$TEST_DIR/stdout" &&
	grep -q "^cells: .*1 MISSING" "$TEST_DIR/stdout"
'

test_expect_success 'a benchmark stage named bench-*, not of kind board-benchmark, adds no board row' '
	expect_eq "$(jq -r ".stages[\"bench-usercopy\"].stage.kind" "$data/local-6.12.json")" benchmark "fixture" &&
	expect_exit 1 merge-results --json "$TEST_DIR/b.json" "$data/local-6.12.json" &&
	expect_eq "$(jq ".benchmarks | length" "$TEST_DIR/b.json")" 0 "board benchmark rows" &&
	! grep -q null "$TEST_DIR/stdout"
'

test_expect_success 'a stage without its kind, an empty file: refused with one line' '
	jq "del(.stages[\"boot-x86_64\"].stage)" "$data/ci-6.1.json" >"$TEST_DIR/nokind.json" &&
	expect_exit 2 merge-results "$TEST_DIR/nokind.json" &&
	expect_one_line_error "nokind.json: .stages.boot-x86_64: no .stage record" &&
	: >"$TEST_DIR/empty.json" &&
	expect_exit 2 merge-results "$TEST_DIR/empty.json" &&
	expect_one_line_error "empty.json: empty"
'

test_expect_success 'bad input: not a results.json, a malformed --expect' '
	expect_exit 2 merge-results "$data/not-results.json" &&
	expect_one_line_error "not-results.json: not a results.json" &&
	expect_exit 2 merge-results --expect armv5 "$data/ci-6.1.json" &&
	expect_one_line_error "--expect armv5: want BASE:TARGET"
'

test_done
