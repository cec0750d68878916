#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# The mainline series, as far as this machine allows.  No mainline tree is
# here, but three preimages can be rebuilt from what is: the two
# unaligned.h copies by reversing the mainline patches on the overlay
# post-image (giving the 7.0 memcpy() form, blob 9076483c9fbb), and
# copy_user_64.S by reversing the 6.12 x86 patch on 6.12.117 (blob
# fc9fb5d06174).  The arm64 and LoongArch preimages (de9a303b6ad0,
# 81d2733f7b94) are not on this machine.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/patches.sh
. "$(dirname "$0")/patches.sh"

m=$TEST_DIR/mainline
ML=$TOP/patches/mainline
export m ML

# blob PATH: git's blob hash of a file.
blob() { git hash-object --no-filters "$1"; }
export -f blob

test_expect_success 'reverse the mainline unaligned.h patches on the overlay: the 7.0 memcpy() preimage' '
	mkdir -p "$m/include/vdso" "$m/tools/include/vdso" "$m/arch" &&
	cp "$TOP/overlay/include/vdso/unaligned.h" "$m/include/vdso/" &&
	cp "$TOP/overlay/tools/include/vdso/unaligned.h" "$m/tools/include/vdso/" &&
	patch -d "$m" -p1 -R --fuzz=0 --force -s -i "$ML/$P1" &&
	patch -d "$m" -p1 -R --fuzz=0 --force -s -i "$ML/$P2" &&
	expect_eq "$(blob "$m/include/vdso/unaligned.h")" 9076483c9fbbd0a9d0735683b82b3bdf91ad5fb5 kernel &&
	expect_eq "$(blob "$m/tools/include/vdso/unaligned.h")" 9076483c9fbbd0a9d0735683b82b3bdf91ad5fb5 tools &&
	grep -q "__builtin_memcpy" "$m/include/vdso/unaligned.h"
'

test_expect_success 'reverse the 6.12 x86 patch on 6.12.117: the mainline copy_user_64.S preimage' '
	mkdir -p "$m/arch/x86/lib" &&
	cp "$(kernel_tree 6.12)/arch/x86/lib/copy_user_64.S" "$m/arch/x86/lib/" &&
	patch -d "$m" -p1 -R --fuzz=0 --force -s -i "$TOP/patches/6.12/$P3" &&
	expect_eq "$(blob "$m/arch/x86/lib/copy_user_64.S")" fc9fb5d0617443c2b25a2bf97bd8a6ea988b8478 x86
'

test_expect_success 'as a mainline-shaped tree: base from blob hashes, 0001-0003 apply with zero fuzz, no offset' '
	printf "VERSION = 7\nPATCHLEVEL = 0\nSUBLEVEL = 0\n" >"$m/Makefile" && : >"$m/Kconfig" &&
	mkdir -p "$TEST_DIR/series/mainline" &&
	cp "$ML/$P1" "$ML/$P2" "$ML/$P3" "$TEST_DIR/series/mainline/" &&
	printf "%s\n" "$P1" "$P2" "$P3" >"$TEST_DIR/series/mainline/series" &&
	cp -r "$TOP/patches/6.12" "$TOP/patches/6.1" "$TEST_DIR/series/" &&
	before=$(tree_sum "$m") && echo "$before" >"$TEST_DIR/before.sum" &&
	expect_exit 0 apply --patches "$TEST_DIR/series" "$m" &&
	grep -q "^base: mainline, from blob hashes" "$TEST_DIR/stdout" &&
	grep -Eq "^$P1 +applied$" "$TEST_DIR/stdout" &&
	grep -Eq "^$P2 +applied$" "$TEST_DIR/stdout" &&
	grep -Eq "^$P3 +applied$" "$TEST_DIR/stdout"
'

test_expect_success 'the result is the overlay post-image and 6.12.117 x86 code' '
	cmp "$TOP/overlay/include/vdso/unaligned.h" "$m/include/vdso/unaligned.h" &&
	cmp "$TOP/overlay/tools/include/vdso/unaligned.h" "$m/tools/include/vdso/unaligned.h" &&
	cmp "$(kernel_tree 6.12)/arch/x86/lib/copy_user_64.S" "$m/arch/x86/lib/copy_user_64.S"
'

test_expect_success 'apply again: already present; reverse: back to the same hashes and tree' '
	expect_exit 0 apply --patches "$TEST_DIR/series" "$m" &&
	expect_statuses "$P1=already present" "$P2=already present" "$P3=already present" &&
	expect_exit 0 apply --reverse "$m" &&
	expect_eq "$(blob "$m/include/vdso/unaligned.h")" 9076483c9fbbd0a9d0735683b82b3bdf91ad5fb5 kernel &&
	expect_eq "$(blob "$m/tools/include/vdso/unaligned.h")" 9076483c9fbbd0a9d0735683b82b3bdf91ad5fb5 tools &&
	expect_eq "$(blob "$m/arch/x86/lib/copy_user_64.S")" fc9fb5d0617443c2b25a2bf97bd8a6ea988b8478 x86 &&
	expect_eq "$(tree_sum "$m")" "$(cat "$TEST_DIR/before.sum")" checksum
'

test_expect_success 'the whole mainline series parses; 0004/0005 report their missing preimages as conflicts' '
	expect_exit 1 apply --dry-run "$m" &&
	grep -q "^base: mainline" "$TEST_DIR/stdout" &&
	expect_statuses "$P1=applied" "$P2=applied" "$P3=applied" "$P4=conflict" "$P5=conflict" &&
	grep -q "can.t find file to patch" "$TEST_DIR/stdout"
'

test_expect_success 'mainline 0004 aligns __arch_clear_user to 64 bytes, before SYM_FUNC_START' '
	sed -n "/^@@/,\$p" "$ML/$P4" | grep -A1 "^+	.p2align 6$" | grep -q "^ SYM_FUNC_START(__arch_clear_user)$" &&
	! grep -q "^-" <(sed -n "/^@@/,\$p" "$ML/$P4")
'

test_done
