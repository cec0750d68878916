#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# The 6.12 series on Debian's linux-source-6.12 (whichever 6.12.y the
# archive serves): apply, apply again, reverse, and the post-images,
# against whole-tree checksums.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=tests/suite/patches.sh
. "$(dirname "$0")/patches.sh"

tree=$(copy_tree 6.12 linux)
pristine=$(pristine_sum 6.12)
export tree pristine

test_expect_success 'the hard-linked copy is the pristine 6.12 tree' '
	expect_eq "$(tree_sum "$tree")" "$pristine" checksum
'

test_expect_success 'dry run: base from blob hashes, statuses, nothing written' '
	mark_tree "$tree" &&
	expect_exit 0 apply --dry-run "$tree" &&
	grep -q "^base: 6.12, from blob hashes" "$TEST_DIR/stdout" &&
	expect_statuses "$P1=applied" "$P2=applied" "$P3=already present" "$P4=not needed on this base" "$P5=applied" "$P6=applied" &&
	expect_untouched "$tree"
'

test_expect_success 'apply: x86 already present (stable backport), arm64 not needed, the rest applied' '
	expect_exit 0 apply --json "$TEST_DIR/apply.json" "$tree" &&
	expect_statuses "$P1=applied" "$P2=applied" "$P3=already present" "$P4=not needed on this base" "$P5=applied" "$P6=applied" &&
	expect_eq "$(jq -r ".patches[2].status" "$TEST_DIR/apply.json")" "already present" json &&
	expect_eq "$(jq -r ".base + \" \" + .result" "$TEST_DIR/apply.json")" "6.12 applied" json
'

test_expect_success 'every touched file has the post-image blob its patch names' '
	post_images_ok "$tree" 6.12
'

test_expect_success 'every overlay file is exactly the post-image in the tree' '
	(cd "$TOP/overlay" && find . -type f) | while read -r f; do
		cmp "$TOP/overlay/$f" "$tree/$f" || fail "$f differs from the overlay"
	done
'

test_expect_success 'tools copy in sync: identical, and check-headers.sh is quiet about it' '
	cmp "$tree/include/vdso/unaligned.h" "$tree/tools/include/vdso/unaligned.h" &&
	(cd "$tree/tools/perf" && bash check-headers.sh) >"$TEST_DIR/check-headers" 2>&1 &&
	! grep unaligned "$TEST_DIR/check-headers"
'

test_expect_success 'check-headers.sh does report an unsynced tools copy (the check can fail)' '
	other=$(copy_tree 6.12 unsynced) &&
	cp "$TOP/overlay/include/vdso/unaligned.h" "$other/include/vdso/unaligned.h.new" &&
	mv "$other/include/vdso/unaligned.h.new" "$other/include/vdso/unaligned.h" &&
	(cd "$other/tools/perf" && bash check-headers.sh) 2>&1 | grep -q "vdso/unaligned.h"
'

test_expect_success 'a second apply is a no-op: everything already present, nothing written' '
	mark_tree "$tree" &&
	expect_exit 0 apply "$tree" &&
	expect_statuses "$P1=already present" "$P2=already present" "$P3=already present" \
		"$P4=not needed on this base" "$P5=already present" "$P6=already present" &&
	grep -q "^result: nothing to do" "$TEST_DIR/stdout" &&
	expect_untouched "$tree"
'

test_expect_success 'reverse restores the original tree byte for byte, x86 left alone' '
	expect_exit 0 apply --reverse "$tree" &&
	expect_statuses "$P1=reverted" "$P2=reverted" "$P3=left alone" "$P5=reverted" "$P6=reverted" &&
	! grep -q "^$P4" "$TEST_DIR/stdout" &&
	test ! -e "$tree/lib/unaligned_kunit.c" &&
	expect_eq "$(tree_sum "$tree")" "$pristine" checksum
'

test_expect_success 'a second reverse is refused: nothing to reverse, nothing written' '
	mark_tree "$tree" &&
	expect_exit 2 apply --reverse "$tree" &&
	expect_one_line_error "nothing to reverse" &&
	expect_untouched "$tree"
'

test_done
