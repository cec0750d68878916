#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/evidence/syscall-args-loongarch/syscall-args-loongarch: LoongArch syscall_get_arguments() of the
# 6.12 tree, unpatched and with patch 0005, under qemu-loongarch64: every
# test passes for both, one memcpy() call unpatched and none patched (the
# tree builds with -fno-builtin-memcpy), the tree left alone; a patched
# tree is tested by reversing the patch; 6.1 (no -fno-builtin-memcpy),
# whose line does not take 0005, is not applicable, and with 6.12's 0005
# given has no call in either form; a header that swaps two arguments
# fails; bad input is a one-line error.  Without a Makefile, the line is
# told by the header's blob (the pre-image of 6.12's 0005), or not at all.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

REL=arch/loongarch/include/asm/syscall.h
PATCH=$TOP/patches/6.12/0005-loongarch-syscall-args-no-memcpy.patch
tree=$(kernel_tree 6.12)
export REL PATCH tree

# fake_tree NAME: a directory with the tree's syscall.h, ptrace.h,
# arch/loongarch/Makefile (which the script reads) and Makefile (which
# tells the kernel line), for editing.
fake_tree() {
	tree_files "$1" "$tree" "$REL" arch/loongarch/include/asm/ptrace.h arch/loongarch/Makefile Makefile
}

# both_forms_ok: the driver's four tests passed, for both forms.
both_forms_ok() {
	local v
	for v in unpatched patched; do
		tap_line "$v: syscall_get_arguments\(\): args\[0\] = orig_a0, args\[1\.\.5\] = regs\[5\.\.9\], canaries and pt_regs unchanged, 8 patterns: 88 checks$" || return 1
		tap_line "$v: syscall_get_nr\(\), get/set_return_value\(\), get_error\(\), rollback\(\), get_arch\(\): [0-9]+ checks$" || return 1
	done
	tap_line "driver ran to completion \(LoongArch EXEC, qemu-loongarch64\): plan 4, 4 results, exit 0$"
}
export -f fake_tree both_forms_ok

test_expect_success '--help; no tree, two trees, unknown option' '
	expect_arg_errors syscall-args-loongarch "$tree" "no kernel tree given" "more than one tree"
'

test_expect_success '6.12: both forms pass, memcpy() call only unpatched, tree untouched' '
	before=$(md5sum <"$tree/$REL") &&
	start=$(date +%s) &&
	expect_exit 0 syscall-args-loongarch --json "$TEST_DIR/r.json" "$tree" &&
	note "runtime: $(($(date +%s) - start)) s" &&
	all_ok && both_forms_ok &&
	tap_line "0005-loongarch-syscall-args-no-memcpy.patch: applied forward \(the tree is unpatched\)$" &&
	tap_line "struct pt_regs: the shim has the tree'"'"'s members" &&
	tap_line "memcpy\(\) calls in syscall_get_arguments\(\): [1-9][0-9]* unpatched \(R_LARCH_B26\), 0 patched; the tree builds with -fno-builtin-memcpy$" &&
	expect_eq "$(jq -r ".direction, .result, .memcpy_calls.patched" "$TEST_DIR/r.json" | paste -sd " " -)" \
		"forward pass 0" "json" &&
	expect_eq "$(jq -r .nolibc.tree "$TEST_DIR/r.json")" "$(get-kernel 2>/dev/null)" "json: the default nolibc" &&
	{ grep -q "^+ clang-22 .* -include $(get-kernel 2>/dev/null)/tools/include/nolibc/nolibc.h .* -c [^ ]*/driver.c " "$TEST_DIR/stderr" ||
		fail "the driver is not built against the default tree'"'"'s nolibc"; } &&
	expect_eq "$(jq -r ".tree, .version, .base, .patch" "$TEST_DIR/r.json" | paste -sd " " -)" \
		"$tree $(sed -n "s/^SUBLEVEL = /6.12./p" "$tree/Makefile") 6.12 $PATCH" "json: tree, version, base, patch" &&
	expect_eq "$(md5sum <"$tree/$REL")" "$before" "the tree'"'"'s syscall.h"
'

test_expect_success 'a tree that already has 0005: the unpatched form by reversing it' '
	t=$(fake_tree patched) &&
	patch -d "$t" -p1 --quiet -i "$PATCH" &&
	expect_exit 0 syscall-args-loongarch "$t" &&
	all_ok && both_forms_ok &&
	tap_line "0005-loongarch-syscall-args-no-memcpy.patch: applied reverse \(the tree already has it\)$" &&
	tap_line "memcpy\(\) calls in syscall_get_arguments\(\): [1-9][0-9]* unpatched \(R_LARCH_B26\), 0 patched;"
'

test_expect_success '6.1 does not take 0005: not applicable, an n/a JSON' '
	t61=$(kernel_tree 6.1) &&
	expect_exit 0 syscall-args-loongarch --json "$TEST_DIR/na.json" "$t61" &&
	expect_eq "$(cat "$TEST_DIR/stdout")" "1..0 # SKIP the 6.1 series does not take 0005 ($(sed -n "s/^#not-needed ${PATCH##*/} //p" "$TOP/patches/6.1/series")) and patches/repro/ has no 6.1-loongarch-syscall-args-no-memcpy.patch" "stdout" &&
	expect_eq "$(jq -r "[.result, .tree, .base, .file, (.patch | tostring)] | join(\" \")" "$TEST_DIR/na.json")" \
		"n/a $t61 6.1 $REL null" "n/a JSON" &&
	jq -r .reason "$TEST_DIR/na.json" | grep -q "^the 6.1 series does not take 0005 (arch/loongarch/Makefile in 6.1 does not pass -fno-builtin-memcpy"
'

test_expect_success '6.1 with 6.12.s 0005 (no -fno-builtin-memcpy): both forms pass, no memcpy() call in either' '
	expect_exit 0 syscall-args-loongarch --patch "$PATCH" "$(kernel_tree 6.1)" &&
	all_ok && both_forms_ok &&
	tap_line "memcpy\(\) calls in syscall_get_arguments\(\): 0 unpatched, 0 patched; the tree.s arch/loongarch/Makefile has no -fno-builtin-memcpy"
'

test_expect_success 'a patched syscall.h that swaps args[1] and args[2] fails, the unpatched passes' '
	t=$(fake_tree swap) &&
	cp "$t/$REL" "$TEST_DIR/orig.h" &&
	patch -d "$t" -p1 --quiet -i "$PATCH" &&
	sed -i "s/args\[1\] = regs->regs\[5\];/args[1] = regs->regs[6];/; s/args\[2\] = regs->regs\[6\];/args[2] = regs->regs[5];/" "$t/$REL" &&
	grep -q "args\[2\] = regs->regs\[5\];" "$t/$REL" &&
	git_patch "$TEST_DIR/orig.h" "$t/$REL" "$REL" >"$TEST_DIR/swap.patch" &&
	expect_exit 1 syscall-args-loongarch --patch "$TEST_DIR/swap.patch" "$t" &&
	tap_line "swap.patch: applied reverse" | grep -q "^ok" &&
	tap_line "unpatched: syscall_get_arguments" | grep -q "^ok" &&
	tap_line "patched: syscall_get_arguments" | grep -q "^not ok" &&
	tap_line "patched: syscall_get_nr" | grep -q "^ok" &&
	grep -Eq "^# first failure: pattern 0: args\[1\] is 0x[0-9a-f]+ \(regs\[6\]\), want 0x[0-9a-f]+$" "$TEST_DIR/stdout"
'

test_expect_success 'bad input: one-line errors' '
	mkdir -p "$TEST_DIR/empty" &&
	expect_exit 2 syscall-args-loongarch "$TEST_DIR/empty" &&
	expect_one_line_error "no arch/loongarch/include/asm/syscall.h" &&
	t=$(fake_tree nomake) && rm "$t/Makefile" &&
	expect_exit 0 syscall-args-loongarch "$t" &&
	tap_line "0005-loongarch-syscall-args-no-memcpy.patch: applied forward" &&
	sed -i "s/5 \* sizeof(long)/5 * sizeof(unsigned long)/" "$t/$REL" &&
	expect_exit 2 syscall-args-loongarch "$t" &&
	expect_one_line_error "nomake: no Makefile to tell the kernel line from: pass --patch FILE$" &&
	sed "s/5 \* sizeof(long)/5 * sizeof(unsigned long)/" "$tree/$REL" >"$TEST_DIR/plain.h" &&
	! cmp -s "$tree/$REL" "$TEST_DIR/plain.h" &&
	(diff -u --label "a/$REL" --label "b/$REL" "$tree/$REL" "$TEST_DIR/plain.h" >"$TEST_DIR/plain.patch" || true) &&
	expect_exit 2 syscall-args-loongarch --patch "$TEST_DIR/plain.patch" "$tree" &&
	expect_one_line_error "must change $REL only \(it changes: nothing: no .diff --git. section\)$" &&
	expect_exit 2 syscall-args-loongarch "$TEST_DIR/nowhere" &&
	expect_one_line_error "no such directory" &&
	t=$(fake_tree nocompile) && sed -i "s/regs->orig_a0;/regs->orig_a9;/" "$t/$REL" &&
	expect_exit 2 syscall-args-loongarch "$t" &&
	expect_one_line_error "nocompile/arch/loongarch/include/asm/syscall.h does not compile .*syscall.h:[0-9]+:[0-9]+: error: .*orig_a9" &&
	expect_exit 2 syscall-args-loongarch --patch "$TOP/patches/repro/6.12-arm64-clear-user-align-64.patch" "$tree" &&
	expect_one_line_error "must change arch/loongarch/include/asm/syscall.h only" &&
	t=$(fake_tree drift) && sed -i "s/5 \* sizeof(long)/5 * sizeof(unsigned long)/" "$t/$REL" &&
	expect_exit 1 syscall-args-loongarch "$t" &&
	expect_one_line_error "applies to .*drift/arch/loongarch/include/asm/syscall.h neither forward nor reverse" &&
	expect_exit 2 syscall-args-loongarch --nolibc 6.1 "$tree" &&
	expect_one_line_error "its nolibc has no arch-loongarch.h"
'

test_done
