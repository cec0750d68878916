#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/syscall-args-objects: the objects of the loongarch64 build of
# 6.12 that inline syscall_get_arguments(), rebuilt from their own command
# lines: no memcpy() call from asm/syscall.h with patch 0005 (as built),
# at least one with it reversed, and the rebuilds have the build's code;
# the build is left alone; a patch that puts the memcpy() back makes the
# checks fail; bad input is a one-line error.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

REL=arch/loongarch/include/asm/syscall.h
# The newest finished loongarch64 build of 6.12, and an arm64 one for bad
# input (scripts/build-kernel's O= dirs).
kbuild=$(newest_kbuild 6.12 loongarch64)
arm64=$(newest_kbuild 6.12 arm64)
export REL kbuild arm64

# expected_callers: "OBJECT FUNCTION" for each caller of
# syscall_get_arguments() that the build's .config builds (the function
# may be inlined further: it is looked for anywhere in the chain).
expected_callers() {
	local c=$kbuild/.config
	! grep -qx 'CONFIG_SECCOMP_FILTER=y' "$c" || echo "kernel/seccomp.o populate_seccomp_data"
	! grep -qx 'CONFIG_AUDITSYSCALL=y' "$c" || echo "kernel/entry/common.o syscall_enter_audit"
	if grep -qx 'CONFIG_HAVE_ARCH_TRACEHOOK=y' "$c"; then
		echo "kernel/ptrace.o ptrace_get_syscall_info_entry"
		echo "lib/syscall.o collect_syscall"
	fi
}
export -f expected_callers

test_expect_success '--help; no build, two builds, unknown option' '
	syscall-args-objects --help | head -n 1 | grep -q "^Usage: scripts/syscall-args-objects " &&
	expect_exit 2 syscall-args-objects && expect_one_line_error "no build directory given" &&
	expect_exit 2 syscall-args-objects a b && expect_one_line_error "more than one build directory" &&
	expect_exit 2 syscall-args-objects --frob "$TEST_DIR" && expect_one_line_error "unknown option"
'

if [ -z "$kbuild" ]; then
	reason="no loongarch64 build of 6.12 under build/kbuild/ (scripts/build-kernel makes it)"
	test_skip 'the build: no memcpy() call from syscall_get_arguments() after 0005, one or more before' "$reason"
	test_skip 'a patch that puts the memcpy() back: the checks fail' "$reason"
	test_skip 'bad input: one-line errors' "$reason"
	test_done
fi
note "build: ${kbuild#"$TOP"/}"

test_expect_success 'the build: no memcpy() call from syscall_get_arguments() after 0005, one or more before' '
	touch "$TEST_DIR/stamp" &&
	start=$(date +%s) &&
	expect_exit 0 syscall-args-objects --json "$TEST_DIR/r.json" --markdown "$TEST_DIR/r.md" "$kbuild" &&
	note "runtime: $(($(date +%s) - start)) s" &&
	all_ok &&
	grep -q "^# 0005-loongarch-syscall-args-no-memcpy.patch reverses on .*/$REL: the build has it" "$TEST_DIR/stdout" &&
	tap_line "functions that inline syscall_get_arguments\(\): [1-9][0-9]*, in [1-9][0-9]* of [1-9][0-9]* candidate objects$" &&
	expected_callers >"$TEST_DIR/callers" &&
	test -s "$TEST_DIR/callers" &&
	while read -r obj f; do
		tap_line "$obj: the rebuild with the header as built \(and -g\) has the build.s code: " &&
		tap_line "$obj: [^:]*\b$f\b[^:]*: after: 0 memcpy calls from syscall_get_arguments\(\) \([0-9]+ in the function\); before: [1-9][0-9]* \([1-9][0-9]*\)$" ||
		return 1
	done <"$TEST_DIR/callers" &&
	expect_eq "$(jq -r "[.direction, .result, .g_changes_code, .totals.after.from_header] | join(\" \")" "$TEST_DIR/r.json")" \
		"reverse pass false 0" "json" &&
	expect_eq "$(jq "[.objects[].functions[] | .memcpy_calls.before.from_header >= 1] | all" "$TEST_DIR/r.json")" \
		true "json: every function has a call before" &&
	grep -q "^## LoongArch syscall_get_arguments() (0005), Linux 6\.12\.[0-9]*$" "$TEST_DIR/r.md" &&
	grep -q "^Totals: [1-9][0-9]* functions in .*memcpy() calls from the header [1-9][0-9]* before, 0 after" "$TEST_DIR/r.md" &&
	expect_eq "$(find "$kbuild" "$kbuild/source/$REL" -newer "$TEST_DIR/stamp" | head -n 3)" "" \
		"files of the build or its header changed by the run"
'

# A patch that fails the checks honestly: 0005 turned around.  Its
# pre-image is the header as built (with 0005), its post-image the header
# with the memcpy() back, so it applies forward to the build: "before" is
# the header as built (no memcpy() call: the check measured nothing) and
# "after" is the header with it applied (a memcpy() call in each function,
# which the patch must not leave).
test_expect_success 'a patch that puts the memcpy() back: the checks fail' '
	cp "$kbuild/source/$REL" "$TEST_DIR/built.h" &&
	patch -s -R -o "$TEST_DIR/memcpy.h" "$TEST_DIR/built.h" \
		"$TOP/patches/6.12/0005-loongarch-syscall-args-no-memcpy.patch" &&
	(diff -u --label "a/$REL" --label "b/$REL" "$TEST_DIR/built.h" "$TEST_DIR/memcpy.h" >"$TEST_DIR/back.patch" || true) &&
	grep -q "^+	memcpy(&args\[1\], &regs->regs\[5\], 5 \* sizeof(long));$" "$TEST_DIR/back.patch" &&
	expect_exit 1 syscall-args-objects --patch "$TEST_DIR/back.patch" "$kbuild" &&
	grep -q "^# back.patch applies to .*/$REL: the build lacks it" "$TEST_DIR/stdout" &&
	total=$(grep -cE "^(not )?ok [0-9]+ - [^ ]+: [^:]+: after: " "$TEST_DIR/stdout") &&
	n=$(grep -cE "^not ok [0-9]+ - [^ ]+: [^:]+: after: [1-9][0-9]* memcpy calls from syscall_get_arguments\(\) .*; before: 0 \(0\); want none after; none before: the check measured nothing" "$TEST_DIR/stdout") &&
	expect_eq "$n" "$total" "function lines that fail both ways" &&
	test "$n" -ge 1 &&
	! grep -q "^not ok .*: the rebuild with the header as built" "$TEST_DIR/stdout" &&
	tap_line "functions that inline syscall_get_arguments\(\): " | grep -q "^ok"
'

test_expect_success 'bad input: one-line errors' '
	mkdir -p "$TEST_DIR/empty" &&
	expect_exit 2 syscall-args-objects "$TEST_DIR/empty" &&
	expect_one_line_error "empty: not a LoongArch kernel build \(no CONFIG_LOONGARCH=y in \.config\)$" &&
	expect_exit 2 syscall-args-objects "$TEST_DIR/nowhere" &&
	expect_one_line_error "nowhere: no such directory$" &&
	if [ -n "$arm64" ]; then
		expect_exit 2 syscall-args-objects "$arm64" &&
		expect_one_line_error "arm64-[0-9a-f]+: not a LoongArch kernel build"
	else
		note "no arm64 build of 6.12 under build/kbuild/: that case is left out"
	fi &&
	mkdir -p "$TEST_DIR/unfinished" && cp "$kbuild/.config" "$TEST_DIR/unfinished/" &&
	expect_exit 2 syscall-args-objects "$TEST_DIR/unfinished" &&
	expect_one_line_error "unfinished: no vmlinux \(the build did not finish\)$" &&
	expect_exit 2 syscall-args-objects --patch "$TOP/patches/6.12/0003-x86-copy-user-align-destination.patch" "$kbuild" &&
	expect_one_line_error "must change arch/loongarch/include/asm/syscall.h only \(it changes: arch/x86/lib/copy_user_64.S\)$"
'

test_done
