#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/checks/check-sparse on the x86_64 build of 6.12 (Debian 12's sparse
# 0.6.4 cannot parse 7.x: that build is skipped, with the reason): sparse finds no warning
# that the series adds in the C files it touches and the users of the
# headers it touches; the builds are left alone; an endian bug planted in
# a copy of a touched header (--patched-override) is reported as new; a
# build sparse has no target for is skipped; bad input is a one-line error.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# The x86_64 build of 6.12 and the loongarch64 one of 7.3 (for the skip),
# which the long boot tests make (make test-long), and the x86_64 one of
# 7.3: prerequisites.
kbuild='' loongarch='' kbuild73=''
! kbuild_prereq 6.12 x86_64 LONG || kbuild=$KBUILD_DIR
! kbuild_prereq 7.3 loongarch64 LONG || loongarch=$KBUILD_DIR
! kbuild_prereq 7.3 x86_64 || kbuild73=$KBUILD_DIR
export kbuild loongarch kbuild73

test_expect_success '--help; no build, unknown option, bad --max-users and --patched-override' '
	expect_arg_errors check-sparse "$TEST_DIR" "no build directory given" &&
	expect_exit 2 check-sparse --max-users many "$TEST_DIR" && expect_one_line_error "--max-users needs a number" &&
	expect_exit 2 check-sparse --patched-override "$TEST_DIR/nowhere" "$TEST_DIR" &&
	expect_one_line_error "nowhere: no such directory \(--patched-override\)$"
'

[ -z "$kbuild" ] || note "build: ${kbuild#"$TOP"/}"

test_expect_success LONG,KBUILD_6_12_x86_64 'the 6.12 x86_64 build: no sparse warning new with the series' '
	touch "$TEST_DIR/stamp" &&
	start=$(date +%s) &&
	expect_exit 0 check-sparse --json "$TEST_DIR/s.json" --markdown "$TEST_DIR/s.md" "$kbuild" &&
	note "runtime: $(($(date +%s) - start)) s" &&
	all_ok &&
	name=$(basename "$kbuild") &&
	tap_line "$name: sparse: [1-9][0-9]* files, [0-9]+ warnings patched, [0-9]+ unpatched, 0 new$" &&
	grep -q "^# touched: include/vdso/unaligned.h tools/include/vdso/unaligned.h .*lib/unaligned_kunit.c (new)" "$TEST_DIR/stdout" &&
	grep -q "^# the unpatched files are those of the pristine tree build/src/linux-6.12$" "$TEST_DIR/stdout" &&
	grep -Eq "^# users of the touched headers \(besides the touched \.c files\): [0-9]+ objects \(include/vdso/unaligned\.h [1-9][0-9]*, .*\); checked: [0-9]+ \(--max-users 20\)" "$TEST_DIR/stdout" &&
	grep -q "^# touched .c files the build compiled: 1 (lib/unaligned_kunit.o)$" "$TEST_DIR/stdout" &&
	expect_eq "$(jq -r "[.result, .builds[0].status, .builds[0].totals.new] | join(\" \")" "$TEST_DIR/s.json")" \
		"pass pass 0" "json" &&
	expect_eq "$(jq "[.builds[0].users | .checked == ([.total, 20] | min), .checked == (.checked_objects | length)] | all" "$TEST_DIR/s.json")" \
		true "json: users checked" &&
	expect_eq "$(jq -r ".builds[0].files[] | select(.role == \"touched .c file\") | [.object, .unpatched_run] | join(\" \")" "$TEST_DIR/s.json")" \
		"lib/unaligned_kunit.o false" "json: the new .c file, without an unpatched run" &&
	expect_eq "$(jq "[.builds[0].files[] | select(.role == \"user\") | .unpatched_run] | all" "$TEST_DIR/s.json")" \
		true "json: every user has an unpatched run" &&
	grep -q "^## Sparse: warnings the series adds$" "$TEST_DIR/s.md" &&
	grep -Eq "^\| \`$name\` \| [1-9][0-9]* \| [0-9]+ / [0-9]+ \| [0-9]+ \| [0-9]+ \| 0 \|$" "$TEST_DIR/s.md" &&
	expect_eq "$(find "$kbuild" "$kbuild/source/include/vdso" "$kbuild/source/lib" -newer "$TEST_DIR/stamp" | head -n 3)" "" \
		"files of the build or its tree changed by the run"
'

# The check can fail: a copy of the touched header with a function that
# reads a __le32 into a u32 without le32_to_cpu(), as the patched version.
# (static, not static inline: sparse does not evaluate an unused inline.)
test_expect_success LONG,KBUILD_6_12_x86_64 'an endian bug planted in a copy of include/vdso/unaligned.h is reported as new' '
	mkdir -p "$TEST_DIR/plant/include/vdso" &&
	sed "/^#endif \/\* __VDSO_UNALIGNED_H \*\/$/i\\
static __maybe_unused __u32 planted_endian_bug(const __le32 *p)\\
{\\
	__u32 v;\\
\\
	v = *p;\\
	return v;\\
}\\
" "$kbuild/source/include/vdso/unaligned.h" >"$TEST_DIR/plant/include/vdso/unaligned.h" &&
	grep -q "^	v = \*p;$" "$TEST_DIR/plant/include/vdso/unaligned.h" &&
	expect_exit 1 check-sparse --max-users 2 --patched-override "$TEST_DIR/plant" --json "$TEST_DIR/p.json" "$kbuild" &&
	tap_line "$(basename "$kbuild"): sparse: 3 files, [0-9]+ warnings patched, [0-9]+ unpatched, [1-9][0-9]* new$" | grep -q "^not ok" &&
	grep -q "^# patched run: the files of $TEST_DIR/plant replace the tree.s (include/vdso/unaligned.h)$" "$TEST_DIR/stdout" &&
	grep -Eq "^# lib/crypto/blake2s-generic\.o \(lib/crypto/blake2s-generic\.c\): 1 new:$" "$TEST_DIR/stdout" &&
	grep -Eq "^#   $TEST_DIR/plant/include/vdso/unaligned\.h:[0-9]+:[0-9]+: warning: incorrect type in assignment \(different base types\)$" "$TEST_DIR/stdout" &&
	grep -Eq "^#   $TEST_DIR/plant/include/vdso/unaligned\.h:[0-9]+:[0-9]+:    got restricted __le32 " "$TEST_DIR/stdout" &&
	expect_eq "$(jq -r ".builds[0].files[] | select(.object == \"lib/crypto/blake2s-generic.o\") | .new_warnings[]" "$TEST_DIR/p.json" |
		grep -c "incorrect type in assignment (different base types)")" 1 "json: the planted warning, new"
'

test_expect_success LONG,KBUILD_7_3_loongarch64 'a build sparse has no target for (loongarch64) is skipped with the reason' '
	expect_exit 0 check-sparse "$loongarch" &&
	all_ok &&
	tap_line "$(basename "$loongarch"): sparse # SKIP sparse [0-9.]+ has no loongarch target: --arch=loongarch is ignored"
'

test_expect_success KBUILD_7_3_x86_64 'the 7.3 x86_64 build: a sparse that cannot parse the tree is a skip with its first error' '
	expect_exit 0 check-sparse --json "$TEST_DIR/s73.json" "$kbuild73" &&
	all_ok &&
	tap_line "$(basename "$kbuild73"): sparse # SKIP sparse [0-9.]+.* cannot parse Linux 7\.3\.[0-9]+: .*" &&
	expect_eq "$(jq -r ".builds[0].status" "$TEST_DIR/s73.json")" skip json
'

test_expect_success LONG,KBUILD_6_12_x86_64 'bad input: one-line errors' '
	expect_exit 2 check-sparse "$TEST_DIR/nowhere" &&
	expect_one_line_error "nowhere: no such directory$" &&
	mkdir -p "$TEST_DIR/empty" &&
	expect_exit 2 check-sparse "$TEST_DIR/empty" &&
	expect_one_line_error "empty: not a kernel build directory \(no \.config with a .Linux/ARCH VERSION. header\)$" &&
	mkdir -p "$TEST_DIR/unfinished" && cp "$kbuild/.config" "$TEST_DIR/unfinished/" &&
	expect_exit 2 check-sparse "$TEST_DIR/unfinished" &&
	expect_one_line_error "unfinished: no vmlinux \(the build did not finish\)$" &&
	pristine=$(readlink -f "$TOP/build/src/linux-6.12") && test -f "$pristine/Makefile" &&
	mkdir -p "$TEST_DIR/norecord" && cp "$kbuild/.config" "$TEST_DIR/norecord/" && : >"$TEST_DIR/norecord/vmlinux" &&
	ln -s "$pristine" "$TEST_DIR/norecord/source" &&
	expect_exit 2 check-sparse "$kbuild" "$TEST_DIR/norecord" &&
	expect_one_line_error "norecord: its tree .*/linux-6\.12 has no series record \(\.overlay-applied/ of scripts/apply\): not a tree with the series applied$"
'

test_done
