#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# The 6.1 series on Debian's linux-source-6.1 (6.1.192): the unaligned
# accessors live in asm-generic/unaligned.h there, x86 and LoongArch are
# declared not needed.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=tests/suite/patches.sh
. "$(dirname "$0")/patches.sh"

tree=$(copy_tree 6.1 linux)
pristine=$(pristine_sum 6.1)
export tree pristine

test_expect_success 'the hard-linked copy is the pristine 6.1.192 tree' '
	expect_eq "$(tree_sum "$tree")" "$pristine" checksum
'

test_expect_success 'apply: base from blob hashes, x86, arm64 and LoongArch not needed' '
	expect_exit 0 apply "$tree" &&
	grep -q "^base: 6.1, from blob hashes" "$TEST_DIR/stdout" &&
	expect_statuses "$P1=applied" "$P2=applied" "$P3=not needed on this base" \
		"$P4=not needed on this base" "$P5=not needed on this base" "$P6=applied" &&
	grep -q "^$P3 *not needed on this base (6.1 has no rep_movs_alternative" "$TEST_DIR/stdout"
'

test_expect_success 'every touched file has the post-image blob its patch names' '
	post_images_ok "$tree" 6.1
'

test_expect_success 'kernel and tools accessors are the overlay definitions, byte for byte' '
	accessor_block "$TOP/overlay/include/vdso/unaligned.h" >"$TEST_DIR/want" &&
	test -s "$TEST_DIR/want" &&
	accessor_block "$tree/include/asm-generic/unaligned.h" >"$TEST_DIR/kernel" &&
	accessor_block "$tree/tools/include/asm-generic/unaligned.h" >"$TEST_DIR/tools" &&
	cmp "$TEST_DIR/want" "$TEST_DIR/kernel" &&
	cmp "$TEST_DIR/want" "$TEST_DIR/tools"
'

test_expect_success 'the new KUnit test is the overlay file, with the 6.1 include' '
	# 6.1 has the helpers in <asm/unaligned.h>: that include is the one
	# difference from the overlay (the 6.12 file).
	diff "$TOP/overlay/lib/unaligned_kunit.c" "$tree/lib/unaligned_kunit.c" >"$TEST_DIR/kunit.diff" || true
	expect_eq "$(grep "^[<>]" "$TEST_DIR/kunit.diff")" "< #include <linux/unaligned.h>
> #include <asm/unaligned.h>" "differences from the overlay"
'

test_expect_success 'the accessor comparison can fail: the pristine 6.1 block differs' '
	accessor_block "$(kernel_tree 6.1)/include/asm-generic/unaligned.h" >"$TEST_DIR/old" &&
	test -s "$TEST_DIR/old" &&
	! cmp -s "$TEST_DIR/want" "$TEST_DIR/old"
'

test_expect_success 'a second apply is a no-op: nothing written' '
	mark_tree "$tree" &&
	expect_exit 0 apply "$tree" &&
	expect_statuses "$P1=already present" "$P2=already present" "$P6=already present" &&
	expect_untouched "$tree"
'

test_expect_success 'reverse restores the original tree byte for byte' '
	expect_exit 0 apply --reverse "$tree" &&
	expect_statuses "$P1=reverted" "$P2=reverted" "$P6=reverted" &&
	expect_eq "$(tree_sum "$tree")" "$pristine" checksum
'

test_done
