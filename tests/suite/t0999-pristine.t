#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# Last (t0999): the pristine trees are still what was unpacked.  The other tests
# work on hard-linked copies, so a write in place anywhere would show here.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# shellcheck source=scripts/lib/common.sh
. "$SCRIPTS/lib/common.sh"
# shellcheck source=scripts/lib/series.sh
. "$SCRIPTS/lib/series.sh"

# Every Debian tree of configs/bases.
kernels=$(bases_with_package)
[ -n "$kernels" ] || { echo "Bail out! configs/bases: no kernel with a Debian tree"; exit 1; }
# The checks (each a tar and an md5sum of a whole tree) run side by side,
# as many as there are cores; each test reads its own's exit code.
printf '%s\n' "$kernels" | xargs -P "$(nproc)" -I{} sh -c \
	'"$1" --check "$2" >"$3/check-$2.log" 2>&1; echo $? >"$3/check-$2.rc"' sh "$SCRIPTS/get-kernel" {} "$TEST_DIR"
for v in $kernels; do
	test_expect_success "pristine $v tree matches its unpack-time checksum" "
		cat \"\$TEST_DIR/check-$v.log\" &&
		expect_eq \"\$(cat \"\$TEST_DIR/check-$v.rc\")\" 0 'get-kernel --check $v'
	"
done

test_done
