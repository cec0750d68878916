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
	grep -q "up to date (8 cells)" "$TEST_DIR/stderr"
'

test_expect_success 'one job per base x target, each with its toolchain' '
	expect_eq "$(grep -c "^          - base: " "$wf")" 8 "matrix entries" &&
	grep -A2 "^          - base: \"6.1\"$" "$wf" | grep -q "target: loongarch64" &&
	grep -q "^            toolchain: clang-22$" "$wf" &&
	grep -q "^          --expect 6.1:armv5$" "$wf"
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
