#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# The mainline series on Debian's 7.x trees (linux-source-7.3 from
# trixie-backports, 7.2 from sid, downloaded and unpacked, not installed):
# apply, apply again, reverse, against whole-tree checksums; the
# post-images against the overlay and the patches' index lines.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=tests/suite/patches.sh
. "$(dirname "$0")/patches.sh"

for k in 7.3 7.2; do
	export k
	test_expect_success "$k: the tree ships the 7.0 memcpy() form (blob 9076483c9fbb), the regression" '
		src=$(kernel_tree "$k") &&
		expect_eq "$(git hash-object "$src/include/vdso/unaligned.h")" 9076483c9fbbd0a9d0735683b82b3bdf91ad5fb5 kernel &&
		expect_eq "$(git hash-object "$src/tools/include/vdso/unaligned.h")" 9076483c9fbbd0a9d0735683b82b3bdf91ad5fb5 tools &&
		grep -q "^linux-source-$k=$k\." "$src.package"
	'

	test_expect_success "$k: dry run: mainline from blob hashes; 0003 not needed (upstream since 6.15), the rest applies" '
		t=$(copy_tree "$k" "linux-$k") && echo "$t" >"$TEST_DIR/tree-$k" &&
		mark_tree "$t" &&
		expect_exit 0 apply --dry-run "$t" &&
		grep -q "^base: mainline, from blob hashes" "$TEST_DIR/stdout" &&
		expect_statuses "$P1=applied" "$P2=applied" "$P3=not needed on this base" "$P4=applied" "$P5=applied" "$P6=applied" &&
		grep -q "^$P3 *not needed on this base (upstream since Linux 6.15: commit b5322b6ec06a " "$TEST_DIR/stdout" &&
		expect_untouched "$t"
	'

	test_expect_success "$k: apply; the post-images are the index lines' and the overlay's" '
		t=$(cat "$TEST_DIR/tree-$k") &&
		expect_exit 0 apply "$t" &&
		post_images_ok "$t" mainline "$(kernel_tree "$k")" >"$TEST_DIR/post-$k" &&
		test -s "$TEST_DIR/post-$k" &&
		cmp "$TOP/overlay/include/vdso/unaligned.h" "$t/include/vdso/unaligned.h" &&
		cmp "$TOP/overlay/tools/include/vdso/unaligned.h" "$t/tools/include/vdso/unaligned.h" &&
		cmp "$TOP/overlay/lib/unaligned_kunit.c" "$t/lib/tests/unaligned_kunit.c"
	'

	test_expect_success "$k: apply again is a no-op; reverse restores the tree byte for byte" '
		t=$(cat "$TEST_DIR/tree-$k") &&
		mark_tree "$t" &&
		expect_exit 0 apply "$t" && grep -q "^result: nothing to do" "$TEST_DIR/stdout" &&
		expect_untouched "$t" &&
		expect_exit 0 apply --reverse "$t" &&
		expect_statuses "$P1=reverted" "$P2=reverted" "$P4=reverted" "$P5=reverted" "$P6=reverted" &&
		! grep -q "^$P3 " "$TEST_DIR/stdout" &&
		test ! -e "$t/lib/tests/unaligned_kunit.c" &&
		expect_eq "$(tree_sum "$t")" "$(pristine_sum "$k")" checksum
	'
done

test_expect_success 'mainline 0004 puts the store loop label after its .p2align 4' '
	sed -n "/^@@/,\$p" "$TOP/patches/mainline/$P4" >"$TEST_DIR/hunk" &&
	grep -qx -- "-1:	.p2align 4" "$TEST_DIR/hunk" &&
	grep -A1 "^+	.p2align 4$" "$TEST_DIR/hunk" | grep -qx "+1:" &&
	grep -A1 "^+1:$" "$TEST_DIR/hunk" | grep -qx " USER(9f, sttr	xzr, \[x0\])"
'

test_done
