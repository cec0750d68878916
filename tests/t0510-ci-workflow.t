#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# The GitHub Actions workflow made by scripts/ci-workflow: in sync with the
# tables, and accepted by a workflow validator from the npm registry
# (@action-validator/cli, installed by scripts/deps into build/npm).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

wf=$TOP/.github/workflows/kernel-matrix.yml
validator=$TOP/build/npm/node_modules/.bin/action-validator
export wf validator

test_expect_success 'the committed workflow is what the tables give' '
	expect_exit 0 ci-workflow --check &&
	grep -q "up to date (14 cells)" "$TEST_DIR/stderr"
'

# 2 bases x (3 targets x gcc, clang-22 + loongarch64 x clang-22).
test_expect_success 'one job per base x target x toolchain of the table' '
	expect_eq "$(grep -c "^          - base: " "$wf")" 14 "matrix entries" &&
	expect_eq "$(grep -A2 "^          - base: \"6.1\"$" "$wf" | grep -A1 "target: loongarch64" |
		grep -c "toolchain: ")" 1 "loongarch64 toolchains" &&
	expect_eq "$(grep -c "^            toolchain: clang-22$" "$wf")" 8 "clang-22 cells" &&
	grep -q "^          --expect 6.1:armv5:gcc$" "$wf" &&
	grep -q "^          --expect 6.1:armv5:clang-22$" "$wf" &&
	grep -q "TOOLCHAIN=\${{ matrix.toolchain }}$" "$wf" &&
	grep -q "name: results-\${{ matrix.base }}-\${{ matrix.target }}-\${{ matrix.toolchain }}$" "$wf"
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
