#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/engines/lava-jobs: one LAVA QEMU job per (base, target) from the target
# tables, each accepted by LAVA's own schema (Debian's lava-common).
# tests/suite/t0525 runs them on a local lava-dispatcher.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# shellcheck source=scripts/lib/common.sh
. "$SCRIPTS/lib/common.sh"
# shellcheck source=scripts/lib/series.sh
. "$SCRIPTS/lib/series.sh"

# One job per kernel of configs/bases with a Debian tree and target table
# (scripts/targets lists the tables).
kernels=$(bases_with_package | paste -sd " " -)
targets=$(targets | paste -sd " " -)
export kernels targets

test_expect_success "one job per kernel ($kernels) x target ($targets), all valid" '
	expect_exit 0 lava-jobs --url-base https://lab.example/a "$TEST_DIR/jobs" &&
	want=$(for k in $kernels; do for t in $targets; do echo "$k-$t.yaml"; done; done | sort) &&
	{ [ -n "$kernels" ] && [ -n "$targets" ]; } || fail "no kernels or no targets in the tables" &&
	expect_eq "$(grep -c "^valid: " "$TEST_DIR/stdout")" "$(wc -l <<<"$want")" "valid jobs" &&
	expect_eq "$(ls "$TEST_DIR/jobs")" "$want" "job files" &&
	for k in $kernels; do
		grep -qxF "  kernel-overlay.base: '"'"'$k'"'"'" "$TEST_DIR/jobs/$k-x86_64.yaml" ||
			fail "$k-x86_64.yaml: no base $k in its metadata"
	done
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
