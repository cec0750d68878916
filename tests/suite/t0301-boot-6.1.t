#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# One target on 6.1 with the 6.1 series: x86_64.  6.1 has no usercopy KUnit
# suite (configs/fragments/6.1/series-tests.config).
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=tests/suite/boot.sh
. "$(dirname "$0")/boot.sh"

# A long test: 'make test' boots x86_64, arm64, armv5 and s390x on 7.3
# (its budget is 50 minutes on 2 cores); this cell is 'make test-long',
# as every cell is 'make KERNEL=6.1 TARGETS=x86_64'.
BOOT_PREREQ=LONG boot_tests 6.1 x86_64

test_done
