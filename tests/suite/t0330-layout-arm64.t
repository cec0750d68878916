#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/evidence/clear-user-arm64/layout-arm64 on the arm64 kernel that the boot tests built from
# the 7.3 tree with the mainline series (it runs after t0300, and skips
# without that build): the store loop of __arch_clear_user() lies within
# one 64-byte line in vmlinux and at every placement of clear_user.o, with
# and without CONFIG_ARM64_BTI_KERNEL, runs no alignment NOP with 0004,
# and the tree without 0004 (the baseline) runs two and can cross a line;
# the posted 64-byte alignment (patches/repro/) as the comparison; a
# variant without the 16-byte alignment is caught; bad input is a one-line
# error.  Without that build, on build directories made here: clear_user.o
# assembled from a tree's source against the shims of
# scripts/evidence/clear-user-arm64/c/include, linked as its vmlinux: 6.12
# with the port of the posted alignment given as --repro; by default 6.12
# and 6.1, whose lines do not take 0004 and have no port of it, are not
# applicable.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=tests/suite/patches.sh
. "$(dirname "$0")/patches.sh"

# The arm64 build of 7.3 the boot test made, and its x86_64 one for bad
# input: prerequisites.
kbuild='' x86=''
! kbuild_prereq 7.3 arm64 || kbuild=$KBUILD_DIR
! kbuild_prereq 7.3 x86_64 || x86=$KBUILD_DIR
REL=arch/arm64/lib/clear_user.S
REPRO=$TOP/patches/repro/6.12-arm64-clear-user-align-64.patch
ALIGN64=$TOP/patches/repro/mainline-arm64-clear-user-align-64.patch
P4STEM=${P4%.patch}
export kbuild x86 REL REPRO ALIGN64 P4STEM

# fake_kbuild NAME SRCTREE: a build directory of SRCTREE's clear_user.S
# as layout-arm64 reads one: .config, the object's .cmd file (savedcmd,
# source) and the object, and a vmlinux linked from it.
fake_kbuild() {
	local k=$TEST_DIR/$1 src=$2 cmd
	mkdir -p "$k/${REL%/*}"
	printf '# Linux/arm64 %s Kernel Configuration\nCONFIG_ARM64=y\n' \
		"$(sed -n 's/^VERSION = //p' "$src/Makefile").$(sed -n 's/^PATCHLEVEL = //p' "$src/Makefile").$(sed -n 's/^SUBLEVEL = //p' "$src/Makefile")" >"$k/.config"
	cmd="aarch64-linux-gnu-gcc -D__ASSEMBLY__ -nostdinc -I$TOP/scripts/evidence/clear-user-arm64/c/include"
	cmd+=" -c -o arch/arm64/lib/clear_user.o $src/$REL"
	printf '%s\n' "savedcmd_arch/arm64/lib/clear_user.o := $cmd" "" \
		"source_arch/arm64/lib/clear_user.o := $src/$REL" >"$k/arch/arm64/lib/.clear_user.o.cmd"
	(cd "$k" && eval "$cmd" && aarch64-linux-gnu-ld -e 0 -Ttext=0xffff800080010000 -o vmlinux arch/arm64/lib/clear_user.o)
	echo "$k"
}
export -f fake_kbuild

test_expect_success 'a build directory of 6.12 made here: the loop is within one line, the posted alignment applied' '
	t=$(kernel_tree 6.12) && k=$(fake_kbuild k612 "$t") &&
	expect_exit 0 layout-arm64 --repro "$REPRO" --json "$TEST_DIR/f.json" "$k" &&
	all_ok &&
	tap_line "vmlinux: __arch_clear_user at 0xffff800080010000 \(address mod 64 = 0\), store loop \+16\.\.\+32 \(16 bytes\): within one 64-byte line$" &&
	for bti in unset y; do
		tap_line "arch/arm64/lib/clear_user.o \(tree, -DCONFIG_ARM64_BTI_KERNEL $bti\): .text aligned to 16, loop \+16\.\.\+32 \(16 bytes\): within one 64-byte line at every placement$" &&
		tap_line "arch/arm64/lib/clear_user.o \(6.12-arm64-clear-user-align-64, -DCONFIG_ARM64_BTI_KERNEL $bti\): .text aligned to 64, loop \+16\.\.\+32 \(16 bytes\): within one 64-byte line at every placement$" || return 1
	done &&
	grep -q "^+ patch -d .*/variants/patched -p1 --fuzz=0 -i $REPRO$" "$TEST_DIR/stderr" &&
	expect_eq "$(jq -r "[.result, .repro_state, .tree, .version, .base, .patch, .repro] | join(\" \")" "$TEST_DIR/f.json")" \
		"pass applied $t $(sed -n "s/^SUBLEVEL = /6.12./p" "$t/Makefile") 6.12 $REPRO ${REPRO##*/}" "JSON"
'

test_expect_success 'a build of a source that has the port already: repro_state already-present' '
	t=$TEST_DIR/src-ported && mkdir -p "$t/${REL%/*}" &&
	cp "$(kernel_tree 6.12)/Makefile" "$t/" &&
	patch -s -p1 --fuzz=0 -o "$t/$REL" -i "$REPRO" "$(kernel_tree 6.12)/$REL" &&
	k=$(fake_kbuild kported "$t") &&
	expect_exit 0 layout-arm64 --repro "$REPRO" --json "$TEST_DIR/p.json" "$k" &&
	grep -q "6.12-arm64-clear-user-align-64.patch is already in $t/$REL: measuring it reversed too (the baseline)$" "$TEST_DIR/stderr" &&
	tap_line "arch/arm64/lib/clear_user.o \(tree, -DCONFIG_ARM64_BTI_KERNEL unset\): .text aligned to 64, " &&
	tap_line "arch/arm64/lib/clear_user.o \(without 6.12-arm64-clear-user-align-64: the baseline, -DCONFIG_ARM64_BTI_KERNEL unset\): .text aligned to 16, " &&
	expect_eq "$(jq -r "[.result, .repro_state, .base] | join(\" \")" "$TEST_DIR/p.json")" "pass already-present 6.12" "JSON"
'

test_expect_success 'build directories of 6.12 and 6.1: 0004 not needed there and no port, not applicable' '
	expect_exit 0 layout-arm64 "$TEST_DIR/k612" &&
	grep -q "^1\.\.0 # SKIP the 6\.12 series does not take 0004 (the store loop.s label already follows its alignment: .*) and patches/repro/ has no 6\.12-arm64-clear-user-loop-label\.patch$" "$TEST_DIR/stdout" &&
	t=$(kernel_tree 6.1) && k=$(fake_kbuild k61 "$t") &&
	expect_exit 0 layout-arm64 --json "$TEST_DIR/na.json" "$k" &&
	expect_eq "$(wc -l <"$TEST_DIR/stdout")" 1 "stdout lines" &&
	grep -q "^1\.\.0 # SKIP the 6\.1 series does not take 0004 (.*) and patches/repro/ has no 6\.1-arm64-clear-user-loop-label\.patch$" "$TEST_DIR/stdout" &&
	expect_eq "$(jq -r "[.result, .kbuild, .tree, .base] | join(\" \")" "$TEST_DIR/na.json")" "n/a $k $t 6.1" "n/a JSON"
'

test_expect_success 'bad input on the build made here: a patch of another file, a patch that does not fit' '
	k=$TEST_DIR/k612 &&
	expect_exit 2 layout-arm64 --repro "$TOP/patches/6.12/0005-loongarch-syscall-args-no-memcpy.patch" "$k" &&
	expect_one_line_error "0005-loongarch-syscall-args-no-memcpy.patch: must change $REL only \(it changes: arch/loongarch/include/asm/syscall.h\)$" &&
	sed "s/^	\.p2align 4\$/	.p2align 5/" "$(kernel_tree 6.12)/$REL" >"$TEST_DIR/p2align5.S" &&
	sed "s/^	\.p2align 5\$/	.p2align 3/" "$TEST_DIR/p2align5.S" >"$TEST_DIR/p2align3.S" &&
	git_patch "$TEST_DIR/p2align5.S" "$TEST_DIR/p2align3.S" "$REL" >"$TEST_DIR/drift.patch" &&
	expect_exit 2 layout-arm64 --repro "$TEST_DIR/drift.patch" "$k" &&
	expect_last_error "drift.patch neither applies nor is already in .*/$REL"
'

test_expect_success '--help; no build directory, unknown option' '
	expect_arg_errors layout-arm64 "$TEST_DIR" "no build directory given"
'

# On 7.3 with the mainline series, 0004 has put the loop label after its
# .p2align 4: the loop (label to b.hi) is the 16-byte block alone.  As
# shipped (0004 reversed) the label precedes the padding, so the loop takes
# in the NOPs, 24 bytes from +40, and crosses a line at 16 mod 64.
test_expect_success KBUILD_7_3_arm64 '7.3 arm64 build: no NOP in the loop, within one 64-byte line everywhere' '
	expect_exit 0 layout-arm64 --json "$TEST_DIR/l.json" --markdown "$TEST_DIR/l.md" "$kbuild" &&
	all_ok &&
	tap_line "vmlinux: __arch_clear_user at 0x[0-9a-f]+ \(address mod 64 = [0-9]+\), store loop \+48\.\.\+64 \(16 bytes\): within one 64-byte line$" &&
	for bti in unset y; do
		tap_line "arch/arm64/lib/clear_user.o \(tree, -DCONFIG_ARM64_BTI_KERNEL $bti\): .text aligned to 16, loop \+48\.\.\+64 \(16 bytes\): within one 64-byte line at every placement$" &&
		tap_line "arch/arm64/lib/clear_user.o \(without $P4STEM: the baseline, -DCONFIG_ARM64_BTI_KERNEL $bti\): .text aligned to 16, loop \+40\.\.\+64 \(24 bytes, 2 alignment NOP\(s\) per iteration\): crosses a line when placed at 16 mod 64$" || return 1
	done &&
	grep -q "^# CONFIG_ARM64_BTI_KERNEL changes nothing in arch/arm64/lib/clear_user.o" "$TEST_DIR/stdout" &&
	grep -qx "# arch/arm64/lib/clear_user.o: 1 instruction word(s) of .text differ with $P4STEM (BTI n)" "$TEST_DIR/stdout" &&
	expect_eq "$(jq -r ".result, .bti_changes_code, .repro_state, .text_words_differ" "$TEST_DIR/l.json" | paste -sd " " -)" \
		"pass false already-present 1" json &&
	grep -qx "Compared with: $P4STEM.patch (already present)." "$TEST_DIR/l.md" &&
	grep -qx "| as built, BTI n | 16 | 148 | +48 | 16 | 0 | none |" "$TEST_DIR/l.md" &&
	grep -qx "| without it (the baseline), BTI n | 16 | 148 | +40 | 24 | 2 | 16 |" "$TEST_DIR/l.md" &&
	grep -qxF "With it, 1 instruction word(s) of .text differ from the baseline (BTI n)." "$TEST_DIR/l.md" &&
	grep -Eqx "Rebuilt with the build.s aarch64-linux-gnu-gcc .* and GNU as [0-9]+\.[0-9]+(\.[0-9]+)?\." "$TEST_DIR/l.md" &&
	expect_eq "$(jq -r .assembler "$TEST_DIR/l.json")" "GNU as $(aarch64-linux-gnu-as --version | sed -n "1s/.* \([0-9][0-9.]*\)\$/\1/p")" assembler
'

# The 64-byte alignment of the whole function that was posted instead, on
# top of 0004: only the section alignment changes, no instruction.
test_expect_success KBUILD_7_3_arm64 '7.3 arm64 build with the posted 64-byte alignment as --repro' '
	expect_exit 0 layout-arm64 --repro "$ALIGN64" "$kbuild" &&
	all_ok &&
	tap_line "arch/arm64/lib/clear_user.o \(mainline-arm64-clear-user-align-64, -DCONFIG_ARM64_BTI_KERNEL unset\): .text aligned to 64, loop \+48\.\.\+64 \(16 bytes\): within one 64-byte line at every placement$" &&
	grep -qx "# arch/arm64/lib/clear_user.o: 0 instruction word(s) of .text differ with mainline-arm64-clear-user-align-64 (BTI n)" "$TEST_DIR/stdout"
'

# Both alignments taken out (the function's .p2align 6 and the loop's
# .p2align 4, with or without the label on its line): the loop can cross.
test_expect_success KBUILD_7_3_arm64 'the check can fail: without the alignments the loop can cross a line' '
	src=$(sed -n "s/^source_[^ ]* := //p" "$kbuild/arch/arm64/lib/.clear_user.o.cmd") &&
	mkdir -p "$TEST_DIR/a/arch/arm64/lib" "$TEST_DIR/b/arch/arm64/lib" &&
	cp "$src" "$TEST_DIR/a/arch/arm64/lib/clear_user.S" &&
	sed -E "/^\t\.p2align [46]$/d; s/^1:\t\.p2align 4$/1:/" "$src" >"$TEST_DIR/b/arch/arm64/lib/clear_user.S" &&
	! grep -q "p2align" "$TEST_DIR/b/arch/arm64/lib/clear_user.S" &&
	git_patch "$TEST_DIR/a/arch/arm64/lib/clear_user.S" "$TEST_DIR/b/arch/arm64/lib/clear_user.S" "$REL" >"$TEST_DIR/unaligned.patch" &&
	expect_exit 1 layout-arm64 --repro "$TEST_DIR/unaligned.patch" "$kbuild" &&
	tap_line "arch/arm64/lib/clear_user.o \(unaligned, -DCONFIG_ARM64_BTI_KERNEL unset\): .text aligned to 4, loop \+[0-9]+\.\.\+[0-9]+ \(16 bytes\): crosses a line when placed at [0-9,]+ mod 64$" &&
	tap_line "arch/arm64/lib/clear_user.o \(tree, -DCONFIG_ARM64_BTI_KERNEL unset\): .* within one 64-byte line at every placement$"
'

test_expect_success KBUILD_7_3_arm64,KBUILD_7_3_x86_64 'bad input: no such directory, an x86_64 build, a patch that does not apply' '
	expect_exit 2 layout-arm64 "$TEST_DIR/nowhere" && expect_one_line_error "no such directory" &&
	expect_exit 2 layout-arm64 "$x86" && expect_one_line_error "not an arm64 kernel build" &&
	expect_exit 2 layout-arm64 --repro "$TOP/patches/6.12/0005-loongarch-syscall-args-no-memcpy.patch" "$kbuild" &&
	expect_one_line_error "must change $REL only"
'

test_done
