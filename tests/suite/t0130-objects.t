#!/usr/bin/env bash
# Real kernel objects of the default tree (7.3, which ships the 7.0 memcpy()
# form) for ARMv5, built three ways by scripts/evidence/unaligned/objects-armv5:
# as shipped, with the pre-7.0 packed form (patches/repro/), with the series:
# its TAP passes through.  Every rework object must be identical to the
# packed form's (code and relocations); the memcpy() form must have the
# regression's extra memcpy() calls, chksum_digest() among them.  Builds go
# to build/objects/ and are reused (ccache), so a second run takes well
# under a minute.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

exec objects-armv5 --json "$TEST_DIR/objects.json" "$TOP/build/objects" 2>"$TEST_DIR/objects.log"
