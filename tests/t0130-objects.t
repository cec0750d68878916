#!/usr/bin/env bash
# Real 6.12 kernel objects for ARMv5, built three ways by
# scripts/objects-armv5 (shipped, the 7.0 memcpy() form from patches/repro/,
# the series applied): its TAP passes through.  Every rework object must be
# identical to the shipped one (code and relocations); the memcpy form must
# reproduce the regression's extra memcpy() calls, chksum_digest() among
# them.  Builds go to build/objects/ and are reused (ccache), so a second
# run takes well under a minute.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

exec objects-armv5 --json "$TEST_DIR/objects.json" "$TOP/build/objects" 2>"$TEST_DIR/objects.log"
