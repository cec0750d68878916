#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/evidence/clear-user-arm64/clear-user-arm64: arm64 __arch_clear_user() of the 7.3 tree,
# unpatched and with mainline's 0004 (the loop label after its alignment),
# under qemu-aarch64: every harness test passes for both, the tree is left
# alone; a tree that already has the patch is tested by reversing it; 6.12
# with the port of the posted 64-byte alignment given as --patch; a
# planted bug in the fixup, and a patch that plants one in the patched
# copy only, make tests fail; bad input is a one-line error; 6.12 and 6.1,
# whose lines do not take 0004 and have no port of it, are not applicable.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=tests/suite/patches.sh
. "$(dirname "$0")/patches.sh"

REL=arch/arm64/lib/clear_user.S
tree=$(kernel_tree 7.3)
P4PATH=$TOP/patches/mainline/$P4
ALIGN612=$TOP/patches/repro/6.12-arm64-clear-user-align-64.patch
export REL tree P4PATH ALIGN612

# fake_tree NAME: a directory with only the tree's clear_user.S and its
# Makefile (which tells the kernel line), for editing.
fake_tree() { tree_files "$1" "$tree" "$REL" Makefile; }

export -f fake_tree

test_expect_success '--help; no tree, two trees, unknown option' '
	expect_arg_errors clear-user-arm64 "$tree" "no kernel tree given" "more than one tree"
'

test_expect_success '7.3: unpatched and with 0004 pass every test, tree untouched' '
	before=$(md5sum <"$tree/$REL") &&
	start=$(date +%s) &&
	expect_exit 0 clear-user-arm64 --json "$TEST_DIR/r.json" "$tree" &&
	note "runtime: $(($(date +%s) - start)) s" &&
	all_ok &&
	tap_line "$P4: applied forward \(the tree is unpatched\)$" &&
	tap_line "objects: .text alignment 16 unpatched, 16 patched; 9 and 9 exception-table entries; static AArch64 executable$" &&
	tap_line "exception table: 9 entries per routine" &&
	for v in unpatched patched; do
		tap_line "$v: clear, offsets 0..15 x lengths 0..300, 4095, 4096, 65543, 1048579: 4880 cases$" &&
		tap_line "$v: faults at every k in 0..len for lengths 0..300, .*: [0-9]+ cases$" &&
		grep -Eq "^# $v: fault cases \(k < len\) by r - \(len - k\): exact [1-9][0-9]*, short by 1: [0-9]+, .*short by 7: [0-9]+$" "$TEST_DIR/stdout" ||
		return 1
	done &&
	tap_line "patched and unpatched agree: same return value and memory: [0-9]+ cases$" &&
	tap_line "harness ran to completion: plan 6, 6 results, exit 0$" &&
	expect_eq "$(jq -r ".direction, .result, .objects.patched.text_align" "$TEST_DIR/r.json" | paste -sd " " -)" \
		"forward pass 16" "json" &&
	expect_eq "$(jq -r ".tree, .version, .base, .patch" "$TEST_DIR/r.json" | paste -sd " " -)" \
		"$tree $(sed -n "s/^SUBLEVEL = /7.3./p" "$tree/Makefile") mainline $P4PATH" "json: tree, version, base, patch" &&
	expect_eq "$(jq -c ".delta_r.unpatched == .delta_r.patched and (.delta_r.patched | keys | length) == 8" "$TEST_DIR/r.json")" \
		true "json distribution" &&
	expect_eq "$(md5sum <"$tree/$REL")" "$before" "the tree'"'"'s clear_user.S"
'

test_expect_success 'a tree that already has the patch: the unpatched copy by reversing it' '
	t=$(fake_tree patched) &&
	patch -d "$t" -p1 --quiet -i "$P4PATH" &&
	expect_exit 0 clear-user-arm64 "$t" &&
	all_ok &&
	tap_line "$P4: applied reverse \(the tree already has it\)$" &&
	tap_line "objects: .text alignment 16 unpatched, 16 patched;"
'

test_expect_success '6.12 with the port of the posted 64-byte alignment as --patch' '
	t612=$(kernel_tree 6.12) &&
	expect_exit 0 clear-user-arm64 --patch "$ALIGN612" "$t612" &&
	all_ok &&
	tap_line "${ALIGN612##*/}: applied forward \(the tree is unpatched\)$" &&
	tap_line "objects: .text alignment 16 unpatched, 64 patched; 6 and 6 exception-table entries; static AArch64 executable$"
'

test_expect_success 'a fixup that returns one byte less fails the fault tests of both copies' '
	t=$(fake_tree bug) &&
	sed -i "s/^9:\tsub\tx0, x2, x0\$/&\n\tsub\tx0, x0, #1/" "$t/$REL" &&
	grep -q "^	sub	x0, x0, #1\$" "$t/$REL" &&
	expect_exit 1 clear-user-arm64 "$t" &&
	for v in unpatched patched; do
		tap_line "$v: clear, offsets" | grep -q "^ok" &&
		tap_line "$v: faults at every k" | grep -q "^not ok" || return 1
	done &&
	grep -Eq "^# first failure: length 1 k 0: returned 0, want 1\.\.8$" "$TEST_DIR/stdout" &&
	tap_line "patched and unpatched agree" | grep -q "^ok"
'

test_expect_success 'a patch that also breaks the patched copy: the copies disagree' '
	t=$(fake_tree disagree) &&
	mkdir -p "$TEST_DIR/b/${REL%/*}" &&
	sed "s/^8:\tadd\tx0, x0, #4\t/8:\tadd\tx0, x0, #5\t/" \
		"$t/$REL" >"$TEST_DIR/b/$REL" &&
	git_patch "$t/$REL" "$TEST_DIR/b/$REL" "$REL" >"$TEST_DIR/bad.patch" &&
	grep -q "^+8:	add	x0, x0, #5" "$TEST_DIR/bad.patch" &&
	expect_exit 1 clear-user-arm64 --patch "$TEST_DIR/bad.patch" "$t" &&
	tap_line "unpatched: faults at every k" | grep -q "^ok" &&
	tap_line "patched: faults at every k" | grep -q "^not ok" &&
	tap_line "patched and unpatched agree" | grep -q "^not ok" &&
	grep -Eq "^# first failure: length [0-9]+ k [0-9]+: unpatched returned [0-9]+, patched [0-9]+$" "$TEST_DIR/stdout"
'

test_expect_success 'not applicable: 6.12 and 6.1 do not take 0004 and patches/repro/ has no port' '
	expect_exit 0 clear-user-arm64 "$(kernel_tree 6.12)" &&
	grep -q "^1\.\.0 # SKIP the 6\.12 series does not take 0004 (the store loop.s label already follows its alignment: .*) and patches/repro/ has no 6\.12-arm64-clear-user-loop-label\.patch$" "$TEST_DIR/stdout" &&
	t61=$(kernel_tree 6.1) &&
	expect_exit 0 clear-user-arm64 --json "$TEST_DIR/na.json" "$t61" &&
	expect_eq "$(wc -l <"$TEST_DIR/stdout")" 1 "stdout lines" &&
	grep -q "^1\.\.0 # SKIP the 6\.1 series does not take 0004 (the store loop.s label already follows its alignment: .*) and patches/repro/ has no 6\.1-arm64-clear-user-loop-label\.patch$" "$TEST_DIR/stdout" &&
	expect_eq "$(jq -r "[.result, .tree, .base, (.patch | tostring)] | join(\" \")" "$TEST_DIR/na.json")" "n/a $t61 6.1 null" "n/a JSON" &&
	jq -r .reason "$TEST_DIR/na.json" | grep -q "^the 6.1 series does not take 0004 " &&
	# 7.3'"'"'s blob tells its line without a Makefile: an edited copy cannot.
	t=$(fake_tree nomake) && rm "$t/Makefile" && echo "// mine" >>"$t/$REL" &&
	expect_exit 2 clear-user-arm64 "$t" &&
	expect_one_line_error "nomake: no Makefile to tell the kernel line from: pass --patch FILE$"
'

test_expect_success 'bad input: one-line errors' '
	mkdir -p "$TEST_DIR/empty" &&
	expect_exit 2 clear-user-arm64 "$TEST_DIR/empty" &&
	expect_one_line_error "no arch/arm64/lib/clear_user.S" &&
	expect_exit 2 clear-user-arm64 "$TEST_DIR/nowhere" &&
	expect_one_line_error "no such directory" &&
	t=$(fake_tree nosym) && echo "	ret" >"$t/$REL" &&
	expect_exit 2 clear-user-arm64 "$t" &&
	expect_one_line_error "clear_user.S: no __arch_clear_user" &&
	t=$(fake_tree noasm) && printf "\tfrobnicate\tx0, x1\n" >>"$t/$REL" &&
	expect_exit 2 clear-user-arm64 "$t" &&
	expect_one_line_error "noasm/arch/arm64/lib/clear_user.S does not assemble .*clear_user.S:[0-9]+: Error: unknown mnemonic .frobnicate." &&
	expect_exit 2 clear-user-arm64 --patch "$TOP/patches/6.12/0005-loongarch-syscall-args-no-memcpy.patch" "$tree" &&
	expect_one_line_error "must change arch/arm64/lib/clear_user.S only" &&
	expect_exit 2 clear-user-arm64 --patch "$TEST_DIR/nosuch.patch" "$tree" &&
	expect_one_line_error "no such patch" &&
	t=$(fake_tree drift) && sed -i "s/^1:	\.p2align 4\$/1:	.p2align 5/" "$t/$REL" &&
	grep -q "^1:	.p2align 5\$" "$t/$REL" &&
	expect_exit 1 clear-user-arm64 "$t" &&
	expect_one_line_error "applies to .*drift/arch/arm64/lib/clear_user.S neither forward nor reverse" &&
	expect_exit 2 clear-user-arm64 --keep "$tree/scratch" "$tree" &&
	expect_one_line_error "inside the tree" &&
	test ! -e "$tree/scratch"
'

test_done
