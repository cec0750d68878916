#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# The targets on 7.3, the default tree, with the mainline series applied:
# build with the minimal configs, boot under QEMU (TCG), and require every
# expected suite to pass.  make test boots x86_64 (whose build most kernel
# tests read), arm64 (whose build t0330 reads) and m68k, big-endian: of
# the big-endian targets the cheapest cold (309 s of CPU to build and a
# 5 s boot, where s390x takes 356 s and 45 s; 2-core VM, 2026-12-05).
# armv5, s390x and loongarch64 (the longest build, clang) are make
# test-long's.  Cold (empty ccache) this is most of 'make test': see
# tests/README.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=tests/suite/boot.sh
. "$(dirname "$0")/boot.sh"

boot_tests 7.3 x86_64 arm64 m68k
BOOT_PREREQ=LONG boot_tests 7.3 armv5 s390x loongarch64

test_done
