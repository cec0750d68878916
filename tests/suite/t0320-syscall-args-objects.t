#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/evidence/syscall-args-loongarch/syscall-args-objects: the objects of the loongarch64 build of
# 6.12 that inline syscall_get_arguments(), rebuilt from their own command
# lines: no memcpy() call from asm/syscall.h with patch 0005 (as built),
# at least one with it reversed, and the rebuilds have the build's code;
# the build is left alone; a patch that puts the memcpy() back makes the
# checks fail; bad input is a one-line error.  Without a build: a build
# directory of 6.1, whose line does not take 0005, is not applicable, and
# one of 6.12 with a single object made here gets 6.12's 0005 applied
# forward and loses that object's memcpy() call.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# shellcheck source=scripts/lib/common.sh
. "$SCRIPTS/lib/common.sh"
# shellcheck source=scripts/lib/series.sh
. "$SCRIPTS/lib/series.sh"

REL=arch/loongarch/include/asm/syscall.h
# The loongarch64 build of 7.3 the long boot test makes (make test-long:
# make test checks the objects of made-up builds below), and the arm64 one
# for bad input: prerequisites; the 0005 of 7.3's line.
kbuild='' arm64='' version=''
! kbuild_prereq 7.3 loongarch64 LONG || kbuild=$KBUILD_DIR
! kbuild_prereq 7.3 arm64 || arm64=$KBUILD_DIR
[ -z "$kbuild" ] || version=$(kernel_version "$kbuild/source")
P0005=$TOP/patches/$(kernel_line 7.3)/0005-loongarch-syscall-args-no-memcpy.patch
export REL kbuild arm64 version P0005

# expected_callers: "OBJECT FUNCTION" for each caller of
# syscall_get_arguments() that the build's .config builds (the function
# may be inlined further: it is looked for anywhere in the chain).
expected_callers() {
	local c=$kbuild/.config
	! grep -qx 'CONFIG_SECCOMP_FILTER=y' "$c" || echo "kernel/seccomp.o populate_seccomp_data"
	# kernel/entry/common.c up to 6.x, syscall-common.c in 7.x.
	! grep -qx 'CONFIG_AUDITSYSCALL=y' "$c" ||
		echo "$(cd "$kbuild/source" && grep -l syscall_get_arguments kernel/entry/*.c | head -n 1 | sed 's/\.c$/.o/') syscall_enter_audit"
	if grep -qx 'CONFIG_HAVE_ARCH_TRACEHOOK=y' "$c"; then
		echo "kernel/ptrace.o ptrace_get_syscall_info_entry"
		echo "lib/syscall.o collect_syscall"
	fi
}
export -f expected_callers

test_expect_success '--help; no build, two builds, unknown option' '
	expect_arg_errors syscall-args-objects "$TEST_DIR" "no build directory given" "more than one build directory"
'

# fake_kbuild NAME VER: what the script reads of a LoongArch build
# directory before its objects: .config, vmlinux and the source link to
# the pristine VER tree.
fake_kbuild() {
	local d=$TEST_DIR/$1 src
	src=$(kernel_tree "$2")
	mkdir -p "$d"
	printf '# Linux/loongarch %s Kernel Configuration\nCONFIG_LOONGARCH=y\n' \
		"$(sed -n 's/^SUBLEVEL = /'"$2"'./p' "$src/Makefile")" >"$d/.config"
	: >"$d/vmlinux"
	ln -sfn "$src" "$d/source"
	echo "$d"
}
export -f fake_kbuild

test_expect_success 'a 6.1 build directory: 0005 not needed there, not applicable, an n/a JSON' '
	k=$(fake_kbuild kbuild-6.1 6.1) &&
	expect_exit 0 syscall-args-objects --json "$TEST_DIR/na.json" "$k" &&
	expect_eq "$(wc -l <"$TEST_DIR/stdout")" 1 "stdout lines" &&
	grep -q "^1\.\.0 # SKIP the 6\.1 series does not take 0005 (arch/loongarch/Makefile in 6\.1 does not pass -fno-builtin-memcpy, .*) and patches/repro/ has no 6\.1-loongarch-syscall-args-no-memcpy\.patch$" "$TEST_DIR/stdout" &&
	expect_eq "$(jq -r "[.result, .kbuild, .tree, .base, .header] | join(\" \")" "$TEST_DIR/na.json")" \
		"n/a $k $(kernel_tree 6.1) 6.1 $REL" "n/a JSON"
'

# caller_object KBUILD: one object, kernel/caller.o, as Kbuild leaves it
# in KBUILD: its .cmd file (savedcmd, source, deps with the source tree's
# header) and the object, compiled from a function that inlines
# syscall_get_arguments(), with the flags of the 6.12 LoongArch build that
# matter here and the shims of scripts/evidence/syscall-args-loongarch/c/
# before the tree's arch/loongarch/include (which still gives asm/syscall.h).
caller_object() {
	local k=$1 src cmd
	src=$(cd "$k/source" && pwd -P)
	mkdir -p "$k/kernel"
	cat >"$TEST_DIR/caller.c" <<-EOF
	#include <asm/syscall.h>
	void collect(struct pt_regs *regs, unsigned long *args);
	void collect(struct pt_regs *regs, unsigned long *args)
	{
		syscall_get_arguments((struct task_struct *)0, regs, args);
	}
	EOF
	cmd="clang-22 --target=loongarch64-linux-gnu -march=loongarch64 -mno-lsx -nostdinc -fno-pie"
	cmd+=" -fno-stack-protector -mcmodel=normal -std=gnu11 -fno-strict-aliasing -fno-builtin-memcpy -O2"
	cmd+=" -I$TOP/scripts/evidence/syscall-args-loongarch/c/include -I$src/arch/loongarch/include"
	cmd+=" -c -o kernel/caller.o $TEST_DIR/caller.c"
	printf '%s\n' "savedcmd_kernel/caller.o := $cmd" "" "source_kernel/caller.o := $TEST_DIR/caller.c" "" \
		"deps_kernel/caller.o := \\" "  $TEST_DIR/caller.c \\" "  $src/$REL \\" \
		"  \$(wildcard include/config/SECCOMP) \\" "" \
		"kernel/caller.o: \$(deps_kernel/caller.o)" >"$k/kernel/.caller.o.cmd"
	(cd "$k" && eval "$cmd")
}
export -f caller_object

test_expect_success 'a 6.12 build directory with one object: 6.12.s 0005 applied forward, the call gone after' '
	k=$(fake_kbuild kbuild-6.12 6.12) && t=$(kernel_tree 6.12) &&
	caller_object "$k" &&
	expect_exit 0 syscall-args-objects --json "$TEST_DIR/one.json" "$k" &&
	all_ok &&
	grep -q "^# 0005-loongarch-syscall-args-no-memcpy.patch applies to $t/$REL: the build lacks it" "$TEST_DIR/stdout" &&
	tap_line "kernel/caller.o: the rebuild with the header as built \(and -g\) has the build.s code: " &&
	tap_line "kernel/caller.o: collect: after: 0 memcpy calls from syscall_get_arguments\(\) \(0 in the function\); before: 1 \(1\)$" &&
	grep -q "^# kernel/caller.o: collect: before without -fno-builtin-mem\*: [0-9] ([0-9])$" "$TEST_DIR/stdout" &&
	# The third rebuild, the thread'"'"'s alternative: without -fno-builtin-memcpy.
	expect_eq "$(grep -c "^+ (cd $k && clang-22 .* -c -o kernel/caller.o" "$TEST_DIR/stderr")" 0 "rebuilds to the build'"'"'s own object" &&
	expect_eq "$(grep "^+ (cd $k && clang-22 " "$TEST_DIR/stderr" | grep -c -- "-fno-builtin-memcpy")" 2 "rebuilds with -fno-builtin-memcpy" &&
	expect_eq "$(grep -c "^+ (cd $k && clang-22 " "$TEST_DIR/stderr")" 3 "rebuilds" &&
	jq -e ".totals.builtin.from_header >= 0 and (.builtin | length) == 1" "$TEST_DIR/one.json" >/dev/null &&
	tap_line "functions that inline syscall_get_arguments\(\): 1, in 1 of 1 candidate objects$" &&
	grep -q "^+ patch -d .*/variants/patched -p1 --fuzz=0 -i $TOP/patches/6.12/0005-loongarch-syscall-args-no-memcpy.patch$" "$TEST_DIR/stderr" &&
	grep -q "^+ (cd $k && clang-22 .* -I[^ ]*/variants/patched/arch/loongarch/include -I$TOP/scripts/evidence/syscall-args-loongarch/c/include " "$TEST_DIR/stderr" &&
	expect_eq "$(jq -r "[.result, .direction, .tree, .base, .patch, .totals.before.from_header, .totals.after.from_header] | join(\" \")" "$TEST_DIR/one.json")" \
		"pass forward $t 6.12 $TOP/patches/6.12/0005-loongarch-syscall-args-no-memcpy.patch 1 0" "JSON"
'

[ -z "$kbuild" ] || note "build: ${kbuild#"$TOP"/}"

test_expect_success LONG,KBUILD_7_3_loongarch64 'the build: no memcpy() call from syscall_get_arguments() after 0005, one or more before' '
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
	grep -qF "## LoongArch syscall_get_arguments() (0005), Linux $version" "$TEST_DIR/r.md" &&
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
test_expect_success LONG,KBUILD_7_3_loongarch64 'a patch that puts the memcpy() back: the checks fail' '
	cp "$kbuild/source/$REL" "$TEST_DIR/built.h" &&
	patch -s -R -o "$TEST_DIR/memcpy.h" "$TEST_DIR/built.h" "$P0005" &&
	git_patch "$TEST_DIR/built.h" "$TEST_DIR/memcpy.h" "$REL" >"$TEST_DIR/back.patch" &&
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

test_expect_success LONG,KBUILD_7_3_loongarch64,KBUILD_7_3_arm64 'bad input: one-line errors' '
	mkdir -p "$TEST_DIR/empty" &&
	expect_exit 2 syscall-args-objects "$TEST_DIR/empty" &&
	expect_one_line_error "empty: not a LoongArch kernel build \(no CONFIG_LOONGARCH=y in \.config\)$" &&
	expect_exit 2 syscall-args-objects "$TEST_DIR/nowhere" &&
	expect_one_line_error "nowhere: no such directory$" &&
	expect_exit 2 syscall-args-objects "$arm64" &&
	expect_one_line_error "arm64-[0-9a-f]+: not a LoongArch kernel build" &&
	mkdir -p "$TEST_DIR/unfinished" && cp "$kbuild/.config" "$TEST_DIR/unfinished/" &&
	expect_exit 2 syscall-args-objects "$TEST_DIR/unfinished" &&
	expect_one_line_error "unfinished: no vmlinux \(the build did not finish\)$" &&
	expect_exit 2 syscall-args-objects --patch "$TOP/patches/6.12/0003-x86-copy-user-align-destination.patch" "$kbuild" &&
	expect_one_line_error "must change arch/loongarch/include/asm/syscall.h only \(it changes: arch/x86/lib/copy_user_64.S\)$"
'

test_done
