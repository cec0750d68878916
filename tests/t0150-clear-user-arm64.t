#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/clear-user-arm64: arm64 __arch_clear_user() of the 6.12 tree,
# unpatched and with patches/repro/6.12-arm64-clear-user-align-64.patch,
# under qemu-aarch64: every harness test passes for both, the tree is left
# alone; a tree that already has the patch is tested by reversing it; a
# planted bug in the fixup, and a patch that plants one in the patched
# copy only, make tests fail; bad input is a one-line error.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

REL=arch/arm64/lib/clear_user.S
tree=$(kernel_tree 6.12)
export REL tree

# fake_tree NAME: a directory with only the tree's clear_user.S, for
# editing.
fake_tree() {
	mkdir -p "$TEST_DIR/$1/${REL%/*}"
	cp "$tree/$REL" "$TEST_DIR/$1/$REL"
	echo "$TEST_DIR/$1"
}

export -f fake_tree

test_expect_success '--help; no tree, two trees, unknown option' '
	clear-user-arm64 --help | head -n 1 | grep -q "^Usage: scripts/clear-user-arm64 " &&
	expect_exit 2 clear-user-arm64 && expect_one_line_error "no kernel tree given" &&
	expect_exit 2 clear-user-arm64 a b && expect_one_line_error "more than one tree" &&
	expect_exit 2 clear-user-arm64 --frob "$tree" && expect_one_line_error "unknown option"
'

test_expect_success '6.12: unpatched and patched pass every test, tree untouched' '
	before=$(md5sum <"$tree/$REL") &&
	start=$(date +%s) &&
	expect_exit 0 clear-user-arm64 --json "$TEST_DIR/r.json" "$tree" &&
	note "runtime: $(($(date +%s) - start)) s" &&
	all_ok &&
	tap_line "6.12-arm64-clear-user-align-64.patch: applied forward \(the tree is unpatched\)$" &&
	tap_line "objects: .text alignment 16 unpatched, 64 patched; 6 and 6 exception-table entries; static AArch64 executable$" &&
	tap_line "exception table: 6 entries per routine" &&
	for v in unpatched patched; do
		tap_line "$v: clear, offsets 0..15 x lengths 0..300, 4095, 4096, 65543, 1048579: 4880 cases$" &&
		tap_line "$v: faults at every k in 0..len for lengths 0..300, .*: [0-9]+ cases$" &&
		grep -Eq "^# $v: fault cases \(k < len\) by r - \(len - k\): exact [1-9][0-9]*, short by 1: [0-9]+, .*short by 7: [0-9]+$" "$TEST_DIR/stdout" ||
		return 1
	done &&
	tap_line "patched and unpatched agree: same return value and memory: [0-9]+ cases$" &&
	tap_line "harness ran to completion: plan 6, 6 results, exit 0$" &&
	expect_eq "$(jq -r ".direction, .result, .objects.patched.text_align" "$TEST_DIR/r.json" | paste -sd " " -)" \
		"forward pass 64" "json" &&
	expect_eq "$(jq -c ".delta_r.unpatched == .delta_r.patched and (.delta_r.patched | keys | length) == 8" "$TEST_DIR/r.json")" \
		true "json distribution" &&
	expect_eq "$(md5sum <"$tree/$REL")" "$before" "the tree'"'"'s clear_user.S"
'

test_expect_success 'a tree that already has the patch: the unpatched copy by reversing it' '
	t=$(fake_tree patched) &&
	patch -d "$t" -p1 --quiet -i "$TOP/patches/repro/6.12-arm64-clear-user-align-64.patch" &&
	expect_exit 0 clear-user-arm64 "$t" &&
	all_ok &&
	tap_line "6.12-arm64-clear-user-align-64.patch: applied reverse \(the tree already has it\)$" &&
	tap_line "objects: .text alignment 16 unpatched, 64 patched;"
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
	sed "s/^	\.p2align 4\$/	.p2align 6/; s/^8:\tadd\tx0, x0, #4\t/8:\tadd\tx0, x0, #5\t/" \
		"$t/$REL" >"$TEST_DIR/b/$REL" &&
	(cd "$TEST_DIR" && diff -u --label "a/$REL" --label "b/$REL" "disagree/$REL" "b/$REL" >bad.patch || true) &&
	grep -q "^+8:	add	x0, x0, #5" "$TEST_DIR/bad.patch" &&
	expect_exit 1 clear-user-arm64 --patch "$TEST_DIR/bad.patch" "$t" &&
	tap_line "unpatched: faults at every k" | grep -q "^ok" &&
	tap_line "patched: faults at every k" | grep -q "^not ok" &&
	tap_line "patched and unpatched agree" | grep -q "^not ok" &&
	grep -Eq "^# first failure: length [0-9]+ k [0-9]+: unpatched returned [0-9]+, patched [0-9]+$" "$TEST_DIR/stdout"
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
	expect_one_line_error "must touch arch/arm64/lib/clear_user.S only" &&
	expect_exit 2 clear-user-arm64 --patch "$TEST_DIR/nosuch.patch" "$tree" &&
	expect_one_line_error "no such patch" &&
	t=$(fake_tree drift) && sed -i "s/^	\.p2align 4\$/	.p2align 5/" "$t/$REL" &&
	expect_exit 1 clear-user-arm64 "$t" &&
	expect_one_line_error "applies to .*drift/arch/arm64/lib/clear_user.S neither forward nor reverse" &&
	expect_exit 2 clear-user-arm64 --keep "$tree/scratch" "$tree" &&
	expect_one_line_error "inside the tree" &&
	test ! -e "$tree/scratch"
'

test_done
