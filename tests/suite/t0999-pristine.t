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
for v in $kernels; do
	test_expect_success "pristine $v tree matches its unpack-time checksum" "
		get-kernel --check $v
	"
done

test_done
