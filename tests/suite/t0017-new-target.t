#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# Adding a target is one table: in a scratch copy of the project, a
# made-up target "madeup" (x86_64's table under another name, opt-in, with
# one more word on its kernel command line) is listed, configured, its
# guest init built and booted, its LAVA job and its CI cell written, its
# rows of 0001's codegen table and user-mode harness built and run, and
# its 0001 objects compared, with no other file of the project changed.
# make test boots the madeup table on the x86_64 kernel make test builds
# anyway; the madeup kernel's own build (its own O= directory: a cold
# build) and its objects are make test-long's.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

proj=$TEST_DIR/project
scratch_project "$proj"
# The scratch project builds with this one's trees, ccache, kconfig cache
# and the kernel headers nolibc builds against (40 s of CPU to make again).
mkdir -p "$TOP/build/nolibc"
for d in src work ccache kconfig-cache unpacked npm toolchain-root nolibc; do
	[ ! -e "$TOP/build/$d" ] || ln -s "$TOP/build/$d" "$proj/build/$d"
done
{
	echo "# madeup: a target made up by tests/suite/t0017-new-target.t."
	grep -v -e '^#' -e '^DEFAULT=' -e '^KERNEL_ARGS=' "$TOP/configs/targets/x86_64.conf"
	echo "DEFAULT=no"
	echo "KERNEL_ARGS=\"$("$TOP/scripts/targets" x86_64 KERNEL_ARGS) madeup.word=1\""
} >"$proj/configs/targets/madeup.conf"
export proj
# in_proj CMD ARG...: the scratch project's CMD (a path under it).
in_proj() {
	local c=$1
	shift
	"$proj/$c" "$@"
}
export -f in_proj

kbuild_prereq 7.3 x86_64 || true

test_expect_success 'listed and loaded: scripts/targets --all, its keys, its toolchain' '
	in_proj scripts/targets --all >"$TEST_DIR/all" &&
	grep -qx madeup "$TEST_DIR/all" &&
	! in_proj scripts/targets | grep -qx madeup &&
	test "$(in_proj scripts/targets madeup QEMU)" = qemu-system-x86_64 &&
	in_proj scripts/targets --toolchain gcc madeup | grep -qx "TOOLCHAIN=gcc"
'

test_expect_success 'build-kernel: its own configuration, the series'"'"' suites in it' '
	work=$(fixture_locked work-tree 7.3 2>"$TEST_DIR/wt.log") &&
	obj=$(in_proj scripts/stages/build-kernel --configure-only --target madeup "$work" 2>"$TEST_DIR/cfg.log") &&
	case $obj in "$proj"/build/kbuild/*-madeup-*) ;; *) false ;; esac &&
	grep -qx CONFIG_UNALIGNED_KUNIT_TEST=y "$obj/.config"
'

test_expect_success KBUILD_7_3_x86_64 'build-init, mkinitramfs, boot: the table'"'"'s command line, every suite passing' '
	in_proj scripts/stages/build-init madeup "$TEST_DIR/init" >/dev/null 2>"$TEST_DIR/init.log" &&
	in_proj scripts/stages/mkinitramfs "$TEST_DIR/init/init" "$TEST_DIR/init/initramfs.cpio" >/dev/null 2>&1 &&
	in_proj scripts/stages/boot --target madeup --obj "$KBUILD_DIR" --initrd "$TEST_DIR/init/initramfs.cpio" \
		--out "$TEST_DIR/boot" --json "$TEST_DIR/boot.json" >/dev/null 2>"$TEST_DIR/boot.log" &&
	jq -e ".status == \"PASS\" and .target == \"madeup\" and .counts.failed == 0" "$TEST_DIR/boot.json" >/dev/null &&
	grep -q "Kernel command line:.* madeup.word=1" "$(jq -r .console_log "$TEST_DIR/boot.json")"
'

test_expect_success 'LAVA: lava-jobs --all writes and validates its job, with its command line' '
	in_proj scripts/engines/lava-jobs --all "$TEST_DIR/lava" >/dev/null 2>"$TEST_DIR/lava.log" &&
	f=$(ls "$TEST_DIR"/lava/*-madeup.yaml | head -n 1) && test -f "$f" &&
	grep -q "madeup.word=1" "$f" &&
	! grep -l "madeup" "$TEST_DIR"/lava/*-x86_64.yaml
'

test_expect_success 'CI: the generated workflow has its opt-in cell' '
	in_proj scripts/engines/ci-workflow --output "$TEST_DIR/wf.yml" >/dev/null &&
	grep -qx " *target: madeup" "$TEST_DIR/wf.yml" &&
	! grep -q "madeup" "$TOP/.github/workflows/kernel-matrix.yml"
'

test_expect_success 'the codegen table: a row of its own, from its HARNESS keys' '
	in_proj scripts/evidence/unaligned/unaligned-variants "$TEST_DIR/variants" >/dev/null 2>"$TEST_DIR/variants.log" &&
	in_proj scripts/evidence/unaligned/codegen-table --help | grep -q "today: .*madeup" &&
	in_proj scripts/evidence/unaligned/codegen-table --variants "$TEST_DIR/variants" --compilers gcc-12 \
		--targets madeup --json "$TEST_DIR/codegen.json" >"$TEST_DIR/codegen.tap" 2>"$TEST_DIR/codegen.log" &&
	expect_eq "$(jq -r "[.[] | select(.target == \"madeup\" and .status == \"ok\")] | length" "$TEST_DIR/codegen.json")" 6 "madeup rows" &&
	grep -q "^ok [0-9]* - gcc-12 madeup -O2: rework: no memcpy() call$" "$TEST_DIR/codegen.tap"
'

test_expect_success 'the unaligned harness: a row of its own, built, checked and run as its table says' '
	in_proj scripts/evidence/unaligned/unaligned-suite --variants "$TEST_DIR/variants" --targets madeup \
		--json "$TEST_DIR/suite.json" >"$TEST_DIR/suite.tap" 2>"$TEST_DIR/suite.log" &&
	grep -q "^ok 1 - madeup: binaries are madeup code and ran (natively)" "$TEST_DIR/suite.tap" &&
	expect_eq "$(jq -r "[.results[] | select(.target == \"madeup\" and .form == \"rework\" and .wrong == 0)] | length" \
		"$TEST_DIR/suite.json")" 3 "rework rows with no wrong answer" &&
	mkdir -p "$TEST_DIR/tables" &&
	{ cat "$proj/configs/targets/madeup.conf" && echo "HARNESS_ELF_ATTRS=\"Tag_CPU_arch: v5TE\""; } \
		>"$TEST_DIR/tables/madeup.conf" &&
	TARGET_TABLES=$TEST_DIR/tables expect_exit 1 in_proj scripts/evidence/unaligned/unaligned-suite \
		--variants "$TEST_DIR/variants" --targets madeup &&
	grep -q "^not ok 1 - madeup: binaries are madeup code" "$TEST_DIR/stdout" &&
	grep -q "readelf -A has no .Tag_CPU_arch: v5TE." "$TEST_DIR/stdout"
'

test_expect_success LONG,KBUILD_7_3_x86_64 'its own kernel builds and boots; its 0001 objects equal pre-7.0'"'"'s' '
	work=$(fixture_locked work-tree 7.3 2>"$TEST_DIR/wt.log") &&
	obj=$(in_proj scripts/stages/build-kernel --target madeup "$work" 2>"$TEST_DIR/build.log") &&
	in_proj scripts/stages/boot --target madeup --obj "$obj" --initrd "$TEST_DIR/init/initramfs.cpio" \
		--out "$TEST_DIR/boot2" --json "$TEST_DIR/boot2.json" >/dev/null 2>&1 &&
	jq -e ".status == \"PASS\"" "$TEST_DIR/boot2.json" >/dev/null &&
	in_proj scripts/evidence/unaligned/objects --target madeup --config boot --objects "lib/string.o lib/xxhash.o" \
		--json "$TEST_DIR/objects.json" "$TEST_DIR/objects" >"$TEST_DIR/objects.tap" 2>"$TEST_DIR/objects.log" &&
	jq -e ".target == \"madeup\" and .summary.built == 2 and .summary.rework_text_differs == 0" "$TEST_DIR/objects.json" >/dev/null
'

test_expect_success 'and nothing else of the scratch project changed' '
	test "$(git -C "$proj" status --porcelain -uall | grep -v "^?? build/")" = "?? configs/targets/madeup.conf"
'

test_done
