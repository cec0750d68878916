#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# Last (t0999): the pristine trees are still what was unpacked.  The other tests
# work on hard-linked copies, so a write in place anywhere would show here.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

for v in 6.12 6.1; do
	test_expect_success "pristine $v tree matches its unpack-time checksum" "
		get-kernel --check $v
	"
done

test_done
