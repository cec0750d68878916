#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# The GitHub Actions workflow made by scripts/engines/ci-workflow: in sync with the
# tables, and accepted by a workflow validator from the npm registry
# (@action-validator/cli, installed by scripts/deps into build/npm).
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

wf=$TOP/.github/workflows/kernel-matrix.yml
validator=$TOP/build/npm/node_modules/.bin/action-validator
export wf validator

# shellcheck source=scripts/lib/common.sh
. "$SCRIPTS/lib/common.sh"
# shellcheck source=scripts/lib/series.sh
. "$SCRIPTS/lib/series.sh"

# The cells, "KERNEL:TARGET:TOOLCHAIN" in the generator's order: every
# kernel of configs/bases with a Debian tree x every target table x each
# toolchain of its TOOLCHAINS (as scripts/targets reads them).
kernels=$(bases_with_package | paste -sd " " -)
want_cells=$(for k in $kernels; do
	for t in $(targets); do
		for tc in $(targets "$t" TOOLCHAINS); do echo "$k:$t:$tc"; done
	done
done)
cells=$(grep -c . <<<"$want_cells")
default=$(base_default)
# The opt-in cells: the other tables without a SKIP, on the default
# kernel with their first toolchain.
want_opt_in=$(for t in $(targets --all); do
	targets | grep -qxF "$t" && continue
	[ -z "$(targets "$t" SKIP)" ] || continue
	tcs=$(targets "$t" TOOLCHAINS) && echo "$default:$t:${tcs%% *}"
done)
export kernels want_cells cells default want_opt_in

test_expect_success "the committed workflow is what the tables give ($cells cells)" '
	[ -n "$kernels" ] || fail "configs/bases: no kernel with a Debian tree" &&
	expect_exit 0 ci-workflow --check &&
	grep -q "up to date ($cells cells)" "$TEST_DIR/stderr"
'

# job_cells JOB: the cells of the workflow job JOB, KERNEL:TARGET:TOOLCHAIN.
job_cells() {
	awk -v job="  $1:" "/^  [a-z-]+:\$/ { in_job = (\$0 == job) }
		in_job && /^          - base: / { b = \$3; gsub(/\"/, \"\", b) }
		in_job && /^            target: / { t = \$2 }
		in_job && /^            toolchain: / { print b \":\" t \":\" \$2 }" "$wf"
}
export -f job_cells

test_expect_success "one job per kernel ($kernels) x target x toolchain of the tables" '
	expect_eq "$(job_cells build-boot | wc -l)" "$cells" "matrix entries" &&
	expect_eq "$(job_cells build-boot)" "$want_cells" "matrix cells" &&
	expect_eq "$(sed -n "s/^          --expect //p" "$wf")" "$want_cells" "cells the merge job expects" &&
	grep -qxF "          --expect $default:armv5:gcc" "$wf" &&
	grep -qxF "          --expect $default:armv5:clang-22" "$wf" &&
	expect_eq "$(grep -c ":loongarch64:" <<<"$want_cells")" "$((4 * $(wc -w <<<"$kernels")))" "loongarch64 cells (clang-22, gcc-14 to gcc-16)" &&
	grep -q "TOOLCHAIN=\${{ matrix.toolchain }}$" "$wf" &&
	grep -q "name: results-\${{ matrix.base }}-\${{ matrix.target }}-\${{ matrix.toolchain }}$" "$wf"
'

test_expect_success 'the opt-in targets: one job of their own, on the default kernel, started by hand' '
	[ -n "$want_opt_in" ] &&
	expect_eq "$(job_cells build-boot-opt-in)" "$want_opt_in" "opt-in cells" &&
	grep -A1 "^  build-boot-opt-in:$" "$wf" | grep -qxF "    if: github.event_name == '"'"'workflow_dispatch'"'"'" &&
	! job_cells build-boot-opt-in | grep -q ":armeb:"
'

test_expect_success 'action-validator accepts it' '
	expect_exit 0 "$validator" "$wf"
'

test_expect_success 'action-validator rejects a broken copy (the check can fail)' '
	sed "s/^    runs-on: ubuntu-latest$/    runs-on: [1, 2]/; s/^    steps:$/    stepz:/" "$wf" >"$TEST_DIR/broken.yml" &&
	! cmp -s "$wf" "$TEST_DIR/broken.yml" &&
	expect_exit 1 "$validator" "$TEST_DIR/broken.yml"
'

test_expect_success 'an out-of-date workflow: --check fails with a one-line error' '
	sed "s/target: armv5/target: armv6/" "$wf" >"$TEST_DIR/stale.yml" &&
	expect_exit 1 ci-workflow --check --output "$TEST_DIR/stale.yml" &&
	expect_one_line_error "stale.yml: out of date with configs/"
'

test_done
