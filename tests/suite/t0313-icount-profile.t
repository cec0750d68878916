#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# bench-icount --profile: each kernel's instructions per operation by
# function and its cache misses per operation, from two QEMU plugin boots
# under icount counting the program's timed window.  Without kernels: a
# table without the operations --profile needs (or naming an evidence
# program that is not there) is one line and exit 2 before any tree or
# build; --summary-only makes the profile's section again from a run's
# files (made-up figures here), its top-5 rows and "the rest" summing to
# the difference.  A long test boots pread-zero-arm64's three kernels
# (--short: SHORT_ARGS), and a table whose operations are wrong fails
# naming them.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# table NAME SED: configs/workloads/pread-zero-arm64.conf through SED, as
# $TEST_DIR/wl/NAME.conf.
table() {
	mkdir -p "$TEST_DIR/wl"
	sed "$2" "$TOP/configs/workloads/pread-zero-arm64.conf" >"$TEST_DIR/wl/$1.conf"
}
export -f table

test_expect_success 'a table without the operations --profile needs, or naming an evidence program that is not there, is one line and exit 2, before any tree or build' '
	table ops "s/^OPS=.*/OPS=lots/" &&
	WORKLOAD_TABLES=$TEST_DIR/wl expect_exit 2 bench-icount --profile --out "$TEST_DIR/bo" ops &&
	expect_one_line_error "wl/ops\.conf:[0-9]+: OPS: .lots. is not a number of operations" &&
	table short "/^SHORT_OPS=/d" &&
	WORKLOAD_TABLES=$TEST_DIR/wl expect_exit 2 bench-icount --short --profile --out "$TEST_DIR/bo" short &&
	expect_one_line_error "wl/short\.conf: SHORT_OPS: .. is not a number of operations" &&
	table model "/^CACHE_MODEL=/d" &&
	WORKLOAD_TABLES=$TEST_DIR/wl expect_exit 2 bench-icount --profile --out "$TEST_DIR/bo" model &&
	expect_one_line_error "wl/model\.conf:[0-9]+: CACHE without CACHE_MODEL" &&
	table evidence "s|^PROFILE_EVIDENCE=.*|PROFILE_EVIDENCE=clear-user-arm64/no-such|" &&
	WORKLOAD_TABLES=$TEST_DIR/wl expect_exit 2 bench-icount --profile --out "$TEST_DIR/bo" evidence &&
	expect_one_line_error "wl/evidence\.conf:[0-9]+: PROFILE_EVIDENCE: no program scripts/evidence/clear-user-arm64/no-such" &&
	[ ! -e "$TEST_DIR/bo" ]
'

# A run's files for randwrite-armv5-imx25, made up: NAME.json with its
# .profile and the shipped and series profiles (scripts/bench/profile's
# JSON).  shipped 4510 instructions per write, series 3605: 905 fewer.
fake=$TEST_DIR/fake
mkdir -p "$fake/profile-randwrite-armv5-imx25"
jq -n '{total: 4510, functions: {memcpy: 500, lzo1x_1_do_compress: 3000, ubifs_jnl_write_data: 800, a: 100, b: 50, c: 30, d: 20, e: 10},
	calls: [{callee: "0xc0123450", caller: "lzo1x_1_do_compress", count: 12, callee_name: "memcpy"}]}' \
	>"$fake/profile-randwrite-armv5-imx25/shipped.json"
jq -n '{total: 3605, functions: {memcpy: 100, lzo1x_1_do_compress: 2500, ubifs_jnl_write_data: 800, a: 90, b: 55, c: 25, d: 20, e: 12, f: 3},
	calls: []}' >"$fake/profile-randwrite-armv5-imx25/series.json"
# kernel TOTAL ICOUNT IMISS DMISS CALLERS: one kernel's .profile.kernels entry.
kernel() {
	jq -n --argjson t "$1" --argjson v "$2" --argjson i "$3" --argjson d "$4" --argjson c "$5" \
		'{per_op_total: $t, per_op_total_run2: $t, runs_spread_pct: 0.01, icount_value: $v, deviation_pct: (($t - $v) / $v * 100), top: [],
		  callers: {memcpy: $c}, calls_per_op: {memcpy: ([$c[].count] | add // 0)},
		  misses: {insn: $i, data: $d, insn_accesses: $t, data_accesses: 1000},
		  plugins: {insn_profile: "libinsn-profile.so,callee=0xc0123450", cache: "libcache.so,icachesize=16384,iassoc=4,iblksize=32,dcachesize=16384,dassoc=4,dblksize=32,evict=lru,limit=0"},
		  qemu_version: "10.0.2", icount: "shift=0", tree: "/t", window: "sys_getppid", run: {args: "-j 4 -s 262144", ops: 256}}'
}
jq -n --argjson s "$(kernel 4510 4500 40.5 90.25 '[{"caller": "lzo1x_1_do_compress", "count": 12}]')" \
	--argjson r "$(kernel 3605 3600 31 70 '[]')" --argjson p "$(kernel 3605 3600 31 70 '[]')" \
	'{workload: "randwrite-armv5-imx25", proves: ["0001"], target: "armv5-imx25", program: "randwrite", op: "write",
	  args: "-u 0", metric: "randwrite_ns_per_write", short: true, kernel_version: "7.3.4",
	  anchor: "a", limits: "l", date: "2026-12-05", machine: "m",
	  shipped: {value: 4500, runs: [4500], spread_pct: 0, notes: [], tree: "/s"},
	  series: {value: 3600, runs: [3600], spread_pct: 0, notes: [], tree: "/w"},
	  "vdso-unaligned-packed": {value: 3600, runs: [3600], spread_pct: 0, notes: [], tree: "/r"},
	  qemu: {version: "10.0.2", icount: "shift=0"}, repro: "vdso-unaligned-packed", repro_change_pct: 0,
	  change_pct: -20, spread_pct: 0, deterministic: true, result: "pass",
	  profile: {kernels: {shipped: $s, series: $r, "vdso-unaligned-packed": $p}, callees: ["memcpy"],
	            cache_model: "the ARM926EJ-S of the i.MX25",
	            qemu_version: "10.0.2", within: true, result: "pass"}}' >"$fake/randwrite-armv5-imx25.json"
export fake

test_expect_success '--summary-only: the top 5 of shipped against series and the rest sum to the difference; callers, misses, the model' '
	expect_exit 0 bench-icount --kernel 7.3 --summary-only --out "$fake" randwrite-armv5-imx25 &&
	j=$fake/randwrite-armv5-imx25.json &&
	expect_eq "$(jq -r ".profile.compare | [.rows[].function] | join(\" \")" "$j")" "lzo1x_1_do_compress memcpy a b c" top5 &&
	expect_eq "$(jq -r ".profile.compare | .difference" "$j")" -905 difference &&
	jq -e ".profile.compare | (([.rows[].change] | add) + .rest.change) == .difference and .rest.change == 5
		and ((([.rows[].share_pct] | add) + .rest.share_pct) - 100 | fabs) < 1e-9" "$j" >/dev/null ||
		{ fail "rows and rest do not sum: $(jq -c .profile.compare "$j")"; return 1; } &&
	# The markdown of scripts/bench/profile --compare: the same sum.
	md=$(jq -r .profile.compare.markdown "$j") &&
	expect_eq "$(awk -F"|" "/^\| / && \$2 !~ /function|total/ { s += \$5 } END { print s }" <<<"$md")" -905 "markdown rows" &&
	s=$fake/summary.md &&
	grep -q "^| lzo1x_1_do_compress | 3000 | 2500 | -500 | 55.2% |$" "$s" &&
	grep -q "^| the rest | | | 5 | -0.6% |$" "$s" &&
	grep -q "^Calls of memcpy per write, by calling function:" "$s" &&
	grep -q "^| shipped | 12 | lzo1x_1_do_compress 12 |$" "$s" &&
	grep -q "^| series | 0 | none |$" "$s" &&
	grep -q "^| vdso-unaligned-packed | 31 | 70 | " "$s" &&
	grep -q "^| shipped | 40.5 | 90.25 | " "$s" &&
	grep -q "the ARM926EJ-S of the i.MX25.*icachesize=16384.*QEMU 10.0.2.*no pipeline, no branch predictor" "$s" &&
	grep -q "timed window of 256 writes (.randwrite -i -j 4 -s 262144.; the plugins count between its two sys_getppid() calls" "$s" &&
	grep -q "Calls of memcpy per write" "$fake/icount.md" &&
	if command -v gnuplot >/dev/null; then
		test -s "$fake/profile-randwrite-armv5-imx25.png" &&
		grep -q "profile-randwrite-armv5-imx25.png)" "$s"
	fi
'

# The long cases: pread-zero-arm64's three kernels, short runs.
prof=$TEST_DIR/prof
export prof

test_expect_success LONG 'pread-zero-arm64 --short --profile: per-pread profile within 1% of icount, callers, misses, top 5 summing to the difference' '
	bench-icount --kernel 7.3 --short --runs 1 --profile --out "$prof" pread-zero-arm64 >"$TEST_DIR/prof.log" 2>&1 ||
		{ fail "bench-icount --profile failed: $(grep -v "^+" "$TEST_DIR/prof.log" | tail -3)"; return 1; }
	j=$prof/pread-zero-arm64.json &&
	jq -e ".profile.result == \"pass\" and .result == \"pass\"
		and ([.profile.kernels[]] | length) == 3
		and all(.profile.kernels[]; (.deviation_pct | fabs) <= 1 and .per_op_total > 0
			and .runs_spread_pct <= 0.1 and (.top | length) > 0 and (.callers.__arch_clear_user | type) == \"array\" and .calls_per_op.__arch_clear_user > 0
			and .misses.insn >= 0 and .misses.data > 0 and (.plugins.insn_profile | test(\"callee=0x.*\") and test(\"window=0x\"))
			and (.plugins.cache | test(\"icachesize=65536\")) and (.qemu_version | length) > 0 and (.tree | length) > 0)
		and .profile.compare.difference < 0
		and ((([.profile.compare.rows[].change] | add) + .profile.compare.rest.change - .profile.compare.difference) | fabs) < 1e-6" \
		"$j" >/dev/null || { fail "$(jq -c ".profile | del(.kernels[].top, .kernels[].callers)" "$j")"; return 1; }
	jq -r ".profile.kernels | to_entries[] | \"# \(.key): \(.value.per_op_total) per pread (icount \(.value.icount_value)), \(.value.misses.insn) I- \(.value.misses.data) D-misses\"" "$j" &&
	grep -q "^Calls of __arch_clear_user per pread" "$prof/summary.md"
'

test_expect_success LONG 'operations that are not the runs'"'"': the run fails, one error line naming them' '
	table wrong "s/^SHORT_OPS=.*/SHORT_OPS=150/" &&
	WORKLOAD_TABLES=$TEST_DIR/wl expect_exit 1 bench-icount --kernel 7.3 --short --runs 1 --profile --out "$TEST_DIR/wrong" wrong >/dev/null &&
	expect_last_error "wrong: .* by the profile, .* by icount.*more than 1% apart: is SHORT_OPS=150 \(.*wl/wrong\.conf:[0-9]+\) the operations of SHORT_ARGS" &&
	jq -e ".result == \"fail\" and .profile.result == \"fail\"" "$TEST_DIR/wrong/wrong.json" >/dev/null
'

test_done
