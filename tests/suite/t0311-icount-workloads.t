#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# bench-icount's short runs on 7.3 (a long test: each workload builds two
# or three minimal kernels, 2 to 8 minutes each cold on 2 cores): every
# kernel's two runs agree to 0.1%; where a patch changes the path the
# workload runs, shipped and series differ by more than that.  On the
# i.MX25 UBIFS workload the series costs what the header before 7.0 did,
# and on arm64 the posted 64-byte alignment what 7.3 as shipped does,
# instruction for instruction.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# short NAME: bench-icount --short --runs 2 for workload NAME into
# $TEST_DIR/NAME; its NAME.json is the figure.
short() {
	bench-icount --kernel 7.3 --short --runs 2 --out "$TEST_DIR/$1" "$1" >"$TEST_DIR/$1.log" 2>&1 ||
		{ fail "bench-icount $1 failed: $(grep -v "^+" "$TEST_DIR/$1.log" | tail -3)"; return 1; }
	jq -r '"# \(.workload): shipped \(.shipped.value), series \(.series.value)\(if .repro then ", \(.repro) \(.[.repro].value)" else "" end) instructions per \(.op)"' "$TEST_DIR/$1/$1.json"
}
export -f short

# differs NAME: series and shipped of NAME differ by more than 0.1%.
differs() {
	jq -e '.deterministic and .spread_pct <= 0.1 and (.change_pct | fabs) > 0.1' "$TEST_DIR/$1/$1.json" >/dev/null ||
		{ fail "$1: $(jq -c "{spread_pct, change_pct}" "$TEST_DIR/$1/$1.json")"; return 1; }
}
export -f differs

test_expect_success LONG 'randwrite-armv5-imx25 (0001): the series takes instructions off every write, and costs what the pre-7.0 header did' '
	short randwrite-armv5-imx25 &&
	differs randwrite-armv5-imx25 &&
	jq -e ".change_pct < 0 and .repro == \"vdso-unaligned-packed\" and .series.value == .[.repro].value" \
		"$TEST_DIR/randwrite-armv5-imx25/randwrite-armv5-imx25.json" >/dev/null &&
	grep -q "/proc/cpu/alignment System" "$TEST_DIR/randwrite-armv5-imx25/summary.md"
'

test_expect_success LONG 'syscall-loongarch64 (0005): fewer instructions per system call with the series' '
	short syscall-loongarch64 &&
	differs syscall-loongarch64 &&
	jq -e ".change_pct < 0" "$TEST_DIR/syscall-loongarch64/syscall-loongarch64.json" >/dev/null
'

# The posted 64-byte alignment (the third kernel) changes no instruction:
# it costs what the kernel as shipped does.
test_expect_success LONG 'pread-zero-arm64 (0004): fewer instructions per pread() with the series, none fewer with the posted alignment' '
	short pread-zero-arm64 &&
	differs pread-zero-arm64 &&
	jq -e ".change_pct < 0 and .repro == \"arm64-clear-user-align-64\" and .shipped.value == .[.repro].value" \
		"$TEST_DIR/pread-zero-arm64/pread-zero-arm64.json" >/dev/null
'

test_expect_success LONG 'the x86_64 control: each kernel'"'"'s runs agree to 0.1%' '
	short copy-misaligned-x86_64 &&
	jq -e ".deterministic and .spread_pct <= 0.1" "$TEST_DIR/copy-misaligned-x86_64/copy-misaligned-x86_64.json" >/dev/null ||
		{ fail "copy-misaligned-x86_64: not deterministic"; return 1; }
'

test_done
