#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/evidence/unaligned/unaligned-suite can fail: with the plain packed form (6.12 as
# shipped) put in the rework's place, its strict-aliasing checks for the
# rework slot must say "not ok" and the suite must exit non-zero, while the
# same run's correctness checks still pass.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# shellcheck source=scripts/lib/common.sh
. "$SCRIPTS/lib/common.sh"
# shellcheck source=scripts/lib/series.sh
. "$SCRIPTS/lib/series.sh"
# shellcheck source=scripts/lib/evidence.sh
. "$SCRIPTS/lib/evidence.sh"

# The default line's tree, as the variants lay it out (linux-BASE).
variants=$TOP/build/variants
lin=linux-$(kernel_line "$(base_default)")
scratch=$TEST_DIR/$lin
out2=$TEST_DIR/variants
export variants lin scratch out2

test_expect_success 'the default variants exist (scripts/evidence/unaligned/unaligned-variants)' '
	evidence_variants_default >/dev/null &&
	test -f "$variants/packed/vdso/unaligned.h" &&
	! cmp -s "$variants/packed/vdso/unaligned.h" "$variants/$lin/tools/include/vdso/unaligned.h"
'

# Only tools/ is needed (for x86_64 and ARM): hard-linked, so the header is
# replaced by a rename, never written in place.
test_expect_success 'scratch tree: tools/ hard-linked, packed header renamed over the rework' '
	mkdir -p "$scratch" &&
	cp -al "$variants/$lin/tools" "$scratch/tools" &&
	h=$scratch/tools/include/vdso/unaligned.h &&
	cp "$variants/packed/vdso/unaligned.h" "$h.new" &&
	mv -f "$h.new" "$h" &&
	cmp "$variants/packed/vdso/unaligned.h" "$h" &&
	cmp "$TOP/overlay/tools/include/vdso/unaligned.h" "$variants/$lin/tools/include/vdso/unaligned.h"
'

test_expect_success 'unaligned-variants --tree SCRATCH points the rework slot at it' '
	unaligned-variants --tree "$scratch" "$out2" &&
	expect_eq "$(cat "$out2/rework.cflags")" "-I$(cd "$scratch" && pwd -P)/tools/include" rework.cflags
'

test_expect_success 'the suite fails, with not ok strict-aliasing lines for the rework slot' '
	expect_exit 1 unaligned-suite --variants "$out2" --targets x86_64,armv5-thumb \
		--json "$TEST_DIR/swap.json" &&
	for t in x86_64 armv5-thumb; do
		for o in O2 O3 Os; do
			grep -q "^not ok [0-9]* - $t: strict aliasing -$o (rework): [0-8]/9 right" "$TEST_DIR/stdout" ||
				fail "no failing rework line for $t -$o"
			grep -q "^ok [0-9]* - $t: correctness -$o (rework): 16/16 cases" "$TEST_DIR/stdout" ||
				fail "correctness of the packed form should still pass on $t -$o"
		done
	done &&
	expect_eq "$(grep -c "^not ok" "$TEST_DIR/stdout")" 6 "not ok lines" &&
	expect_eq "$(jq -r .result "$TEST_DIR/swap.json")" fail json &&
	expect_eq "$(jq "[.results[] | select(.form == \"rework\" and .wrong == 0)] | length" "$TEST_DIR/swap.json")" 0 json
'

test_expect_success 'the shared applied tree was not touched' '
	cmp "$TOP/overlay/tools/include/vdso/unaligned.h" "$variants/$lin/tools/include/vdso/unaligned.h"
'

test_done
