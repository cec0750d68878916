#!/usr/bin/env bash
# The unaligned accessors of the series (tools/include/linux/unaligned.h with
# the reworked vdso/unaligned.h): correctness and strict-aliasing probes on
# every target whose table has HARNESS (x86_64, ARMv5 in ARM and Thumb
# code, ARMv7, arm64 and LoongArch, with and without -mstrict-align), with
# the packed and memcpy forms for comparison.  scripts/evidence/unaligned/unaligned-suite prints
# the TAP, which this test passes through; its progress and the commands it
# ran go to build/tests/t0110-unaligned.log, its results to
# build/tests/t0110-unaligned.json.
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$top/build/tests"
exec "$top/scripts/evidence/unaligned/unaligned-suite" --json "$top/build/tests/t0110-unaligned.json" \
	2>"$top/build/tests/t0110-unaligned.log"
