#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/refresh: the 6.12 series regenerated against changed trees.  The
# series is refreshed in a copy of patches/, never in the project's own.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=tests/suite/patches.sh
. "$(dirname "$0")/patches.sh"

# changed_lines PATCH: per file, its - and + lines (what must not change).
changed_lines() {
	awk '/^diff --git / { print "FILE " $4; inhunk = 0; next } /^@@ / { inhunk = 1; next }
		inhunk && /^[-+]/ { print }' "$1"
}
# header_of PATCH: the mail header and message, up to the "---".
header_of() { awk '/^---$/ { exit } { print }' "$1"; }
# fresh_patches NAME: a copy of the project's patches/ for one test
# (TEST_DIR/patches-NAME).
fresh_patches() {
	rm -rf "${TEST_DIR:?}/patches-$1" && cp -r "$TOP/patches" "$TEST_DIR/patches-$1" &&
		echo "$TEST_DIR/patches-$1"
}
export -f changed_lines header_of fresh_patches

# The shifted tree: three lines more at the top of two touched files (the
# hunks move), and a context line of 0006's lib/Makefile hunk edited (fuzz).
shifted=$(copy_tree 6.12 shifted)
for f in include/vdso/unaligned.h lib/Makefile; do
	detach "$shifted/$f"
	sed -i '1i # vendor: three lines\n# that shift\n# every hunk' "$shifted/$f"
done
sed -i 's/^obj-$(CONFIG_CMDLINE_KUNIT_TEST) += cmdline_kunit.o$/& vendor_cmdline.o/' "$shifted/lib/Makefile"
mark_tree "$shifted"
export shifted

test_expect_success 'on the tree it was made for, a refresh is byte-identical' '
	p=$(fresh_patches same) &&
	expect_exit 0 refresh --base 6.12 --patches "$p" "$(kernel_tree 6.12)" &&
	expect_statuses "$P1=unchanged" "$P2=unchanged" "$P5=unchanged" "$P6=unchanged" &&
	grep -q "^$P3 *already present in the tree: kept as it is$" "$TEST_DIR/stdout" &&
	grep -qxF "result: 0 patch(es) rewritten in $p/6.12" "$TEST_DIR/stdout" &&
	diff -r "$TOP/patches" "$p"
'

test_expect_success 'before the refresh the shifted tree refuses the series (fuzz)' '
	expect_exit 1 apply --dry-run --base 6.12 "$shifted" &&
	expect_eq "$(status_of "$P6")" fuzz "$P6" &&
	expect_eq "$(status_of "$P1")" applied "$P1"
'

test_expect_success 'shifted context: refreshed, and it applies with zero fuzz' '
	p=$(fresh_patches shifted) &&
	expect_exit 0 refresh --base 6.12 --patches "$p" "$shifted" &&
	grep -q "^$P1 *refreshed (Hunk #1 succeeded at 5 (offset 3 lines))$" "$TEST_DIR/stdout" &&
	grep -q "^$P6 *refreshed (.*with fuzz 1.*)$" "$TEST_DIR/stdout" &&
	expect_statuses "$P2=unchanged" "$P5=unchanged" &&
	expect_exit 0 apply --dry-run --base 6.12 --patches "$p" "$shifted" &&
	expect_statuses "$P1=applied" "$P2=applied" "$P5=applied" "$P6=applied" &&
	! grep -q offset "$TEST_DIR/stdout" &&
	expect_untouched "$shifted"
'

test_expect_success 'the refresh changed context only: headers, trailers and changed lines kept' '
	p=$TEST_DIR/patches-shifted &&
	for n in "$P1" "$P6"; do
		old=$TOP/patches/6.12/$n new=$p/6.12/$n &&
		! cmp -s "$old" "$new" &&
		cmp <(header_of "$old") <(header_of "$new") &&
		cmp <(changed_lines "$old") <(changed_lines "$new") &&
		expect_eq "$(grep "^Upstream-Status:" "$new")" "$(grep "^Upstream-Status:" "$old")" "Upstream-Status of $n" ||
		return 1
	done &&
	grep -q "^Preimage: lib/Makefile $(git hash-object --no-filters "$shifted/lib/Makefile")$" "$p/6.12/$P6" &&
	grep -q "^@@ -380,6 +380,10 @@" "$p/6.12/$P6" &&
	grep -q "^ obj-\$(CONFIG_CMDLINE_KUNIT_TEST) += cmdline_kunit.o vendor_cmdline.o$" "$p/6.12/$P6" &&
	cmp "$TOP/patches/6.12/series" "$p/6.12/series" &&
	expect_untouched "$shifted"
'

test_expect_success 'a touched line altered: refused, the hunk shown, nothing written' '
	altered=$(copy_tree 6.12 altered) &&
	s=$altered/arch/loongarch/include/asm/syscall.h && detach "$s" &&
	sed -i "s/5 \\* sizeof(long));/5 * sizeof(args[0]));/" "$s" &&
	grep -q "sizeof(args\\[0\\])" "$s" &&
	mark_tree "$altered" &&
	p=$(fresh_patches altered) &&
	expect_exit 1 refresh --base 6.12 --patches "$p" "$altered" &&
	grep -q "^$P5 *conflict: a hunk does not apply even with fuzz$" "$TEST_DIR/stdout" &&
	grep -q "^--- $P5: conflict.*needs a human:$" "$TEST_DIR/stdout" &&
	grep -qxF -- "-	memcpy(&args[1], &regs->regs[5], 5 * sizeof(long));" "$TEST_DIR/stdout" &&
	grep -qxF "result: refused; nothing was written" "$TEST_DIR/stdout" &&
	diff -r "$TOP/patches" "$p" &&
	expect_untouched "$altered"
'

test_expect_success 'a new base started from 6.12: the copy refreshed, 6.12 untouched' '
	p=$(fresh_patches newbase) &&
	expect_exit 0 refresh --base vendor-6.12 --from 6.12 --patches "$p" "$shifted" &&
	grep -qxF "base: vendor-6.12, new, from 6.12" "$TEST_DIR/stdout" &&
	cmp "$p/6.12/series" "$p/vendor-6.12/series" &&
	cmp "$TEST_DIR/patches-shifted/6.12/$P1" "$p/vendor-6.12/$P1" &&
	cmp "$TEST_DIR/patches-shifted/6.12/$P6" "$p/vendor-6.12/$P6" &&
	diff -r "$TOP/patches/6.12" "$p/6.12"
'

test_expect_success '--git-copy: the new base has the old one'"'"'s history (OpenWrt kernel bump)' '
	p=$(fresh_patches gitcopy) &&
	git -C "$p" init -q && git -C "$p" add -A &&
	git -C "$p" -c user.name=t -c user.email=t@t commit -q -m "the series" &&
	GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t \
		expect_exit 0 refresh --base vendor-6.12 --from 6.12 --git-copy --patches "$p" "$shifted" &&
	expect_eq "$(git -C "$p" log --format=%s | head -3 | paste -sd "|" -)" \
		"patches: copy 6.12 to vendor-6.12 (2/2: 6.12 restored)|patches: copy 6.12 to vendor-6.12 (1/2: the move)|the series" log &&
	expect_eq "$(git -C "$p" log --follow --format=%s -- "vendor-6.12/$P2" | tail -1)" "the series" "history of $P2" &&
	diff -r "$TOP/patches/6.12" "$p/6.12" &&
	expect_eq "$(git -C "$p" status --porcelain | sort | paste -sd " " -)" " M vendor-6.12/$P1  M vendor-6.12/$P6" "left to commit"
'

test_expect_success 'bad input: one-line errors, exit 2' '
	expect_exit 2 refresh --patches "$TEST_DIR/patches-same" "$shifted" &&
	expect_one_line_error "--base NAME is required" &&
	expect_exit 2 refresh --base x --from 5.4 --patches "$TEST_DIR/patches-same" "$shifted" &&
	expect_last_error "--from 5.4: no series at" &&
	expect_exit 2 refresh --base 6.12 --patches "$TEST_DIR/patches-same" "$TEST_DIR/no-tree" &&
	expect_one_line_error "no-tree: not a directory"
'

test_done
