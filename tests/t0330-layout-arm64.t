#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/layout-arm64 on the arm64 kernel that the boot tests built from
# the 6.12 tree (it runs after t0300, and skips without that build): the
# store loop of __arch_clear_user() lies within one 64-byte line in vmlinux
# and at every placement of clear_user.o, with and without
# CONFIG_ARM64_BTI_KERNEL and with the 64-byte alignment of patches/repro/;
# a variant without the 16-byte alignment is caught; bad input is a
# one-line error.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

# The newest finished arm64 build of 6.12 (scripts/build-kernel's O= dirs).
kbuild=$(newest_kbuild 6.12 arm64)
export kbuild

if [ -z "$kbuild" ]; then
	test_skip 'layout of __arch_clear_user in the 6.12 arm64 build' 'no arm64 build of 6.12 (tests/t0300 makes it)'
	test_done
fi

test_expect_success '--help; no build directory, unknown option' '
	layout-arm64 --help | head -n 1 | grep -q "^Usage: scripts/layout-arm64 " &&
	expect_exit 2 layout-arm64 && expect_one_line_error "no build directory given" &&
	expect_exit 2 layout-arm64 --frob "$kbuild" && expect_one_line_error "unknown option"
'

test_expect_success '6.12 arm64 build: the loop is within one 64-byte line everywhere' '
	expect_exit 0 layout-arm64 --json "$TEST_DIR/l.json" --markdown "$TEST_DIR/l.md" "$kbuild" &&
	all_ok &&
	tap_line "vmlinux: __arch_clear_user at 0x[0-9a-f]+ \(address mod 64 = [0-9]+\), store loop \+16\.\.\+32 \(16 bytes\): within one 64-byte line$" &&
	for bti in unset y; do
		tap_line "arch/arm64/lib/clear_user.o \(tree, -DCONFIG_ARM64_BTI_KERNEL $bti\): .text aligned to 16, loop \+16\.\.\+32 \(16 bytes\): within one 64-byte line at every placement$" &&
		tap_line "arch/arm64/lib/clear_user.o \(6.12-arm64-clear-user-align-64, -DCONFIG_ARM64_BTI_KERNEL $bti\): .text aligned to 64, loop \+16\.\.\+32 \(16 bytes\): within one 64-byte line at every placement$" || return 1
	done &&
	grep -q "^# CONFIG_ARM64_BTI_KERNEL changes nothing in arch/arm64/lib/clear_user.o" "$TEST_DIR/stdout" &&
	expect_eq "$(jq -r ".result, .bti_changes_code, .repro_state" "$TEST_DIR/l.json" | paste -sd " " -)" \
		"pass false applied" json &&
	grep -q "^| as built, BTI n | 16 | +16 | 16 | none |$" "$TEST_DIR/l.md"
'

test_expect_success 'the check can fail: without the 16-byte alignment the loop can cross a line' '
	src=$(sed -n "s/^source_[^ ]* := //p" "$kbuild/arch/arm64/lib/.clear_user.o.cmd") &&
	mkdir -p "$TEST_DIR/a/arch/arm64/lib" "$TEST_DIR/b/arch/arm64/lib" &&
	cp "$src" "$TEST_DIR/a/arch/arm64/lib/clear_user.S" &&
	sed "/^\t\.p2align 4$/d" "$src" >"$TEST_DIR/b/arch/arm64/lib/clear_user.S" &&
	! cmp -s "$TEST_DIR/a/arch/arm64/lib/clear_user.S" "$TEST_DIR/b/arch/arm64/lib/clear_user.S" &&
	(cd "$TEST_DIR" && diff -u a/arch/arm64/lib/clear_user.S b/arch/arm64/lib/clear_user.S >unaligned.patch || true) &&
	expect_exit 1 layout-arm64 --repro "$TEST_DIR/unaligned.patch" "$kbuild" &&
	tap_line "arch/arm64/lib/clear_user.o \(unaligned, -DCONFIG_ARM64_BTI_KERNEL unset\): .text aligned to 4, loop \+16\.\.\+32 \(16 bytes\): crosses a line when placed at 36,40,44 mod 64$" &&
	tap_line "arch/arm64/lib/clear_user.o \(tree, -DCONFIG_ARM64_BTI_KERNEL unset\): .* within one 64-byte line at every placement$"
'

test_expect_success 'bad input: no such directory, an x86_64 build, a patch that does not apply' '
	expect_exit 2 layout-arm64 "$TEST_DIR/nowhere" && expect_one_line_error "no such directory" &&
	x86=$(newest_kbuild 6.12 x86_64) && test -n "$x86" &&
	expect_exit 2 layout-arm64 "$x86" && expect_one_line_error "not an arm64 kernel build" &&
	expect_exit 2 layout-arm64 --repro "$TOP/patches/6.12/0005-loongarch-syscall-args-no-memcpy.patch" "$kbuild" &&
	expect_last_error "neither applies nor is already in"
'

test_done
