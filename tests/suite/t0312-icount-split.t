#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# bench-icount --summary-only: summary.json, summary.md and icount.md made
# again from the NAME.json files a run left, with no build and no boot;
# a workload whose table SPLITS another one gets the share of that one's
# difference (shipped - series) the code it leaves out accounts for.
# Made-up figures, so the share is known: 600 - 300 against 310 - 300.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

icount_out=$TEST_DIR/icount-out
mkdir -p "$icount_out"
# row NAME SHIPPED SERIES: a NAME.json as a run writes it (the fields the
# summary reads).
row() {
	jq -n --arg w "$1" --argjson s "$2" --argjson r "$3" \
		'{workload: $w, proves: ["0001"], target: "armv5-imx25", program: "randwrite", op: "write",
		  args: "-u 0", metric: "randwrite_ns_per_write", short: false, kernel_version: "7.3.4",
		  anchor: "a", limits: "l", date: "2026-12-03", machine: "m",
		  shipped: {value: $s, runs: [$s, $s], spread_pct: 0, notes: []},
		  series: {value: $r, runs: [$r, $r], spread_pct: 0, notes: []},
		  qemu: {version: "10.0.2", icount: "shift=0"}, repro: null,
		  change_pct: (($r - $s) / $s * 100), spread_pct: 0, deterministic: true, result: "pass"}' >"$icount_out/$1.json"
}
row randwrite-armv5-imx25 600 300
row randwrite-armv5-imx25-compr-none 310 300
row randwrite-armv5-imx25-compr-zlib 320 300
export icount_out

test_expect_success 'the compressor runs split the default (zstd) run: 96.667% and 93.333% of its 300 instructions' '
	expect_exit 0 bench-icount --kernel 7.3 --summary-only --out "$icount_out" randwrite-armv5-imx25 \
		randwrite-armv5-imx25-compr-none randwrite-armv5-imx25-compr-zlib &&
	expect_eq "$(jq -r ".[] | select(.split) | \"\(.workload) \(.split.of) \(.split.difference) \(.split.of_difference) \(.split.share_pct * 1000 | round / 1000)\"" "$icount_out/summary.json")" \
		"randwrite-armv5-imx25-compr-none randwrite-armv5-imx25 10 300 96.667
randwrite-armv5-imx25-compr-zlib randwrite-armv5-imx25 20 300 93.333" splits &&
	grep -q "^| randwrite-armv5-imx25-compr-none | randwrite-armv5-imx25 | lib/zstd, .* | 10 | 300 | 96.667% |$" "$icount_out/summary.md" &&
	grep -q "^| randwrite-armv5-imx25-compr-none | randwrite-armv5-imx25 | lib/zstd" "$icount_out/icount.md" &&
	test ! -e "$icount_out/boot-randwrite-armv5-imx25-shipped-1"
'

test_expect_success 'without the workload it splits, no share; a workload that has not run is an error' '
	expect_exit 0 bench-icount --kernel 7.3 --summary-only --out "$icount_out" randwrite-armv5-imx25-compr-none &&
	expect_eq "$(jq "[.[] | select(.split)] | length" "$icount_out/summary.json")" 0 splits &&
	expect_exit 2 bench-icount --kernel 7.3 --summary-only --out "$icount_out" syscall-loongarch64 &&
	expect_last_error "--summary-only: syscall-loongarch64 has not run into .*out \(no syscall-loongarch64.json\)"
'

test_done
