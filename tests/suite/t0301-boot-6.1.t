#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# One target on 6.1 with the 6.1 series: x86_64.  6.1 has no usercopy KUnit
# suite (configs/fragments/6.1/series-tests.config).
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=tests/suite/boot.sh
. "$(dirname "$0")/boot.sh"

boot_tests 6.1 x86_64

test_done
