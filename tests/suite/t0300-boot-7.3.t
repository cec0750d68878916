#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# The targets on 7.3, the default tree, with the mainline series applied:
# build with the minimal configs, boot under QEMU (TCG), and require every
# expected suite to pass.  make test boots x86_64, arm64, armv5 and s390x
# (big-endian); loongarch64, whose clang build is the longest, and m68k
# (big-endian too) are make test-long's.  Cold (empty ccache) this is most of 'make test': see
# tests/README.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=tests/suite/boot.sh
. "$(dirname "$0")/boot.sh"

boot_tests 7.3 x86_64 arm64 armv5 s390x
BOOT_PREREQ=LONG boot_tests 7.3 loongarch64 m68k

test_done
