#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# One target on 6.12 with the 6.12 series, the stable backport: x86_64.
# A long test (make test-long), as are the other targets of 6.12 (make
# KERNEL=6.12), to keep a cold 'make test' within its budget; make test
# applies the 6.12 series (t0020) and boots the mainline one.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=tests/suite/boot.sh
. "$(dirname "$0")/boot.sh"

BOOT_PREREQ=LONG boot_tests 6.12 x86_64

test_done
