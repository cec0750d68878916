#!/usr/bin/env bash
# The unaligned accessors of the series (tools/include/linux/unaligned.h with
# the reworked vdso/unaligned.h): correctness and strict-aliasing probes on
# x86_64, armel (ARM and Thumb), armhf, arm64 and loongarch64, with the
# packed and memcpy forms for comparison.  scripts/evidence/unaligned/unaligned-suite prints
# the TAP, which this test passes through; its progress and the commands it
# ran go to build/tests/t0110-unaligned.log, its results to
# build/tests/t0110-unaligned.json.
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$top/build/tests"
exec "$top/scripts/evidence/unaligned/unaligned-suite" --json "$top/build/tests/t0110-unaligned.json" \
	2>"$top/build/tests/t0110-unaligned.log"
