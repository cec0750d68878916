#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/engines/lava-jobs --boards: the real-board jobs, one per (base, target,
# kernel variant), from configs/targets, configs/boards and a lab's file,
# each accepted by LAVA's schema.  No board is here, so their benchmark
# steps run on this machine as LAVA's test shell runs them
# (tests/suite/lava-steps.sh), with the host's copy_rate and a real fio on
# tmpfs; scripts/engines/lava-results and scripts/engines/merge-results turn the logs
# into the series-versus-base table.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=tests/suite/lava-steps.sh
. "$(dirname "$0")/lava-steps.sh"

# shellcheck disable=SC2034 # read by the test bodies
J=$TEST_DIR/jobs

# shellcheck source=scripts/lib/common.sh
. "$SCRIPTS/lib/common.sh"
# shellcheck source=scripts/lib/series.sh
. "$SCRIPTS/lib/series.sh"

# The board jobs: every kernel of configs/bases with a Debian tree x every
# board table (scripts/targets --boards) x the series and base variants.
kernels=$(bases_with_package | paste -sd " " -)
boards=$(targets --boards | paste -sd " " -)
export kernels boards

test_expect_success "board jobs of $kernels x $boards x series/base, all valid" '
	{ [ -n "$kernels" ] && [ -n "$boards" ]; } || fail "no kernels or no board tables" &&
	expect_exit 0 lava-jobs --boards --url-base https://lab.example/a "$J" &&
	want=$(for k in $kernels; do for t in $boards; do for v in series base; do
		echo "$k-$t-board-$v.yaml"; done; done; done | sort) &&
	expect_eq "$(grep -c "^valid: .*-board-\(series\|base\)\.yaml$" "$TEST_DIR/stdout")" "$(wc -l <<<"$want")" "valid jobs" &&
	expect_eq "$(ls "$J")" "$want" "job files" &&
	for k in $kernels; do
		grep -qxF "  kernel-overlay.base: '"'"'$k'"'"'" "$J/$k-armv5-board-base.yaml" ||
			fail "$k-armv5-board-base.yaml: no base $k in its metadata"
	done
'

test_expect_success 'each job carries its tables: device, kernel, dtb, kernel args, benchmark' '
	a=$J/6.12-armv5-board-series.yaml &&
	grep -qxF "device_type: imx27-phytec-phycard-s-rdk" "$a" &&
	grep -qxF "      url: https://lab.example/a/6.12/armv5/full-series/zImage" "$a" &&
	grep -qxF "      url: https://lab.example/a/6.12/armv5/full-series/imx27-phytec-phycard-s-rdk.dtb" "$a" &&
	grep -q -- "--size=8M --rw=randwrite --bs=4k --direct=0 --fsync=1 --numjobs=4 --group_reporting" "$a" &&
	grep -qxF "      url: https://lab.example/a/6.12/armv5/full-base/zImage" "$J/6.12-armv5-board-base.yaml" &&
	grep -qxF "  kernel-overlay.variant: base" "$J/6.12-armv5-board-base.yaml" &&
	grep -qxF "  extra_kernel_args: '"'"'audit=1'"'"'" "$J/6.1-loongarch64-board-series.yaml" &&
	grep -qxF "  extra_kernel_args: '"'"'clearcpuid=erms,fsrm'"'"'" "$J/6.12-x86_64-board-series.yaml" &&
	grep -qxF "          BENCH_PROG: '"'"'pread_zero'"'"'" "$J/6.12-arm64-board-series.yaml" &&
	grep -qxF "          BENCH_ARGS: '"'"'-s 102400 -n 1000000'"'"'" "$J/6.12-arm64-board-series.yaml" &&
	! grep -q "^context:" "$J/6.12-arm64-board-series.yaml"
'

test_expect_success 'a lab file sets its own values, per target' '
	cat >"$TEST_DIR/lab.conf" <<-\EOF &&
	ROOTFS_URL=https://mylab.example/rootfs-$TARGET.tar.gz
	case $TARGET in
	armv5) DEVICE_TYPE=at91sam9g20ek BOARD_DTB=at91sam9g20ek.dtb NAND_IRQ=49 ;;
	esac
	EOF
	expect_exit 0 lava-jobs --boards --lab "$TEST_DIR/lab.conf" "$TEST_DIR/lab" &&
	a=$TEST_DIR/lab/6.1-armv5-board-series.yaml &&
	grep -qxF "device_type: at91sam9g20ek" "$a" &&
	grep -qxF "          NAND_IRQ: '"'"'49'"'"'" "$a" &&
	grep -qxF "      url: https://mylab.example/rootfs-armv5.tar.gz" "$a" &&
	grep -qxF "      compression: gz" "$a" &&
	grep -qxF "device_type: juno-uboot" "$TEST_DIR/lab/6.1-arm64-board-series.yaml"
'

test_expect_success 'bad lab files and a lab value LAVA refuses' '
	expect_exit 2 lava-jobs --boards --lab "$TEST_DIR/none.conf" "$TEST_DIR/x" &&
	expect_one_line_error "none.conf: cannot read the lab file" &&
	echo "case \$TARGET in" >"$TEST_DIR/broken.conf" &&
	expect_exit 2 lava-jobs --boards --lab "$TEST_DIR/broken.conf" "$TEST_DIR/x" &&
	expect_one_line_error "broken.conf: not valid shell" &&
	expect_exit 2 lava-jobs --lab "$TEST_DIR/lab.conf" "$TEST_DIR/x" &&
	expect_one_line_error "--lab goes with --boards" &&
	echo "BOOT_METHOD=no-such-method" >"$TEST_DIR/bad-method.conf" &&
	expect_exit 1 lava-jobs --boards --lab "$TEST_DIR/bad-method.conf" "$TEST_DIR/x" &&
	grep -q "6.12-armv5-board-series.yaml: unknown action type .*no_such_method" "$TEST_DIR/stderr" &&
	tail -n 1 "$TEST_DIR/stderr" | grep -q "^lava-jobs: error: a generated job fails LAVA.s schema$"
'

# The x86_64 jobs with a lab file for this machine: copy_rate from a
# file:// URL, small runs.
test_expect_success 'x86_64 copy-rate steps run under LAVA test shell rules, both kernels' '
	build-workloads x86_64 "$TEST_DIR/art/bench/x86_64" >/dev/null 2>"$TEST_DIR/build-workloads.log" &&
	cat >"$TEST_DIR/here.conf" <<-\EOF &&
	BENCH_ARGS="-s 65536 -o 1 -n 300"
	REPEAT=3
	EOF
	expect_exit 0 lava-jobs --boards --lab "$TEST_DIR/here.conf" --url-base "file://$TEST_DIR/art" "$TEST_DIR/here" &&
	for v in series base; do
		run_board_steps "$TEST_DIR/here/6.12-x86_64-board-$v.yaml" "$TEST_DIR/run-$v" 6.12.117 &&
		expect_exit 0 lava-results --job "$TEST_DIR/here/6.12-x86_64-board-$v.yaml" \
			--json "$TEST_DIR/run-$v/results.json" "$TEST_DIR/run-$v/lava.log" || return 1
	done &&
	r=$TEST_DIR/run-series/results.json &&
	expect_eq "$(jq -r ".stages[\"bench-x86_64\"] | [.status, .variant, .device_type] | join(\" \")" "$r")" "PASS series x86" &&
	expect_eq "$(jq -r "[.stages[\"bench-x86_64\"].cases[].name] | join(\" \")" "$r")" \
		"fetch-bench copy_rate_mbps-run1 copy_rate_mbps-run2 copy_rate_mbps-run3 copy_rate_mbps" cases &&
	runs=$(jq "[.stages[\"bench-x86_64\"].cases[] | select(.name | test(\"-run\")) | .measurement] | sort" "$r") &&
	expect_eq "$(jq ".stages[\"bench-x86_64\"].cases[-1].measurement" "$r")" "$(jq ".[1]" <<<"$runs")" median &&
	jq -e ".stages[\"bench-x86_64\"].cases[-1] | .measurement > 0 and .units == \"MB/s\"" "$r" >/dev/null
'

test_expect_success 'merge-results: the series-versus-base table' '
	expect_exit 0 merge-results "$TEST_DIR/run-base/results.json" "$TEST_DIR/run-series/results.json" &&
	grep -q "^| 6.12 | 6.12.117 | x86_64 | x86 | copy_rate_mbps | [0-9.]* MB/s | [0-9.]* MB/s | [-+][0-9.]* % | base PASS, series PASS |$" \
		"$TEST_DIR/stdout" &&
	! grep -q "MISSING" "$TEST_DIR/stdout"
'

test_expect_success 'a benchmark that fails is a failed case and a FAIL row' '
	printf "#!/bin/sh\necho \"copy_rate: error: mmap: out of memory\" >&2\nexit 1\n" >"$TEST_DIR/art/bench/x86_64/copy_rate" &&
	run_board_steps "$TEST_DIR/here/6.12-x86_64-board-series.yaml" "$TEST_DIR/run-fail" 6.12.117 &&
	expect_exit 1 lava-results --job "$TEST_DIR/here/6.12-x86_64-board-series.yaml" \
		--json "$TEST_DIR/run-fail/results.json" "$TEST_DIR/run-fail/lava.log" &&
	grep -q "^x86_64: FAIL (series kernel 6.12.117" "$TEST_DIR/stdout" &&
	grep -q "FAIL copy_rate-run1" "$TEST_DIR/stderr" &&
	expect_exit 1 merge-results "$TEST_DIR/run-base/results.json" "$TEST_DIR/run-fail/results.json" &&
	grep -q "| base PASS, series FAIL |$" "$TEST_DIR/stdout"
'

# The armv5 job's fio steps with the real fio, in a tmpfs directory (no
# UBIFS here: the lab file leaves UBIFS_VOLUME empty) and perf replaced
# by a stand-in that prints perf stat -x, output and runs the command.
test_expect_success 'armv5 fio steps: real fio on tmpfs, the bandwidth median, the irq count' '
	d=$(mktemp -d /dev/shm/t0526.XXXXXX) && echo "$d" >"$TEST_DIR/shm-dir" &&
	cat >"$TEST_DIR/fio.conf" <<-EOF &&
	BENCH_DIR=$d
	UBIFS_VOLUME=
	NAND_IRQ=49
	REPEAT=3
	EOF
	expect_exit 0 lava-jobs --boards --lab "$TEST_DIR/fio.conf" "$TEST_DIR/fio" &&
	mkdir -p "$TEST_DIR/run-fio/bin" &&
	printf "#!/bin/sh\nout=\$4; shift 10\n[ \"\$1\" = -- ] && shift\necho \"155783,,irq:irq_handler_entry,1001,100.00,,\" >\"\$out\"\nexec \"\$@\"\n" \
		>"$TEST_DIR/run-fio/bin/perf" && chmod +x "$TEST_DIR/run-fio/bin/perf" &&
	run_board_steps "$TEST_DIR/fio/6.12-armv5-board-series.yaml" "$TEST_DIR/run-fio" 6.12.117 &&
	rm -rf "$d" &&
	expect_exit 0 lava-results --job "$TEST_DIR/fio/6.12-armv5-board-series.yaml" \
		--json "$TEST_DIR/run-fio/results.json" "$TEST_DIR/run-fio/lava.log" &&
	r=$TEST_DIR/run-fio/results.json &&
	expect_eq "$(jq -r "[.stages[\"bench-armv5\"].cases[].name] | join(\" \")" "$r")" \
		"mount-ubifs fio-randwrite-4k-run1 nand-irqs-run1 fio-randwrite-4k-run2 nand-irqs-run2 fio-randwrite-4k-run3 nand-irqs-run3 fio-randwrite-4k" cases &&
	expect_eq "$(jq "[.stages[\"bench-armv5\"].cases[] | select(.name | startswith(\"nand-irqs\")) | .measurement] | unique" -c "$r")" "[155783]" irqs &&
	bw=$(awk -F";" "{ print \$48 }" "$TEST_DIR/run-fio"/measure.* | sort -n | sed -n 2p) &&
	expect_eq "$(jq ".stages[\"bench-armv5\"].cases[-1].measurement" "$r")" "$bw" "median KiB/s" &&
	jq -e "[.stages[\"bench-armv5\"].cases[] | select(.name | startswith(\"fio\")) | .measurement > 0] | all" "$r" >/dev/null
'
[ ! -s "$TEST_DIR/shm-dir" ] || rm -rf "$(cat "$TEST_DIR/shm-dir")"

test_done
