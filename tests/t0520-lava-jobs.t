#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/lava-jobs: one LAVA QEMU job per (base, target) from the target
# tables, each accepted by LAVA's own schema (Debian's lava-common).
# tests/t0525 runs them on a local lava-dispatcher.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

test_expect_success 'eight jobs (6.12 and 6.1 x four targets), all valid' '
	expect_exit 0 lava-jobs --url-base https://lab.example/a "$TEST_DIR/jobs" &&
	expect_eq "$(grep -c "^valid: " "$TEST_DIR/stdout")" 8 "valid jobs" &&
	expect_eq "$(ls "$TEST_DIR/jobs" | wc -l)" 8 "job files"
'

test_expect_success 'each job carries its table: machine, cpu, console, dtb only on armv5' '
	j=$TEST_DIR/jobs &&
	grep -qxF "  machine: versatilepb" "$j/6.12-armv5.yaml" &&
	grep -qxF "  cpu: arm926" "$j/6.12-armv5.yaml" &&
	grep -q "^        url: https://lab.example/a/6.12/armv5/versatile-pb.dtb$" "$j/6.12-armv5.yaml" &&
	! grep -q "dtb:" "$j/6.12-x86_64.yaml" &&
	grep -q "console=ttyS0 rdinit=/init" "$j/6.1-loongarch64.yaml" &&
	grep -qxF "      end: GUEST-INIT-END" "$j/6.12-arm64.yaml" &&
	grep -qxF "  kernel-overlay.target: armv5" "$j/6.1-armv5.yaml" &&
	grep -qxF "  kernel-overlay.base: '"'"'6.1'"'"'" "$j/6.1-armv5.yaml"
'

test_expect_success 'the schema check can fail: a wrong boot method, a missing job name' '
	sed "s/^    method: qemu$/    method: qemuu/" "$TEST_DIR/jobs/6.12-x86_64.yaml" >"$TEST_DIR/bad-method.yaml" &&
	sed "/^job_name:/d" "$TEST_DIR/jobs/6.12-x86_64.yaml" >"$TEST_DIR/no-name.yaml" &&
	expect_exit 1 lava-jobs --validate "$TEST_DIR/bad-method.yaml" &&
	expect_one_line_error "bad-method.yaml: " &&
	expect_exit 1 lava-jobs --validate "$TEST_DIR/no-name.yaml" &&
	expect_one_line_error "no-name.yaml: .*job_name"
'

test_done
