#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# 0006's suite catches a byte-order fault that only a big-endian kernel
# shows: with get_unaligned_le32() planted to read in the CPU's order (no
# le32_to_cpu()), the 7.3 s390x kernel fails unaligned_le_test, and only
# it, while the x86_64 kernel with the same plant passes every case.  The
# plant reaches unaligned_kunit.o alone (a copy of <linux/unaligned.h>
# -include'd first, its guard keeping the real one out), built as t0315
# builds its planted kernels: the boot test's build redone in a private
# mount namespace over copies of the working tree and the O= directory.
# Long: two more builds and an s390x boot (make test-long).
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

s390x='' x86=''
! kbuild_prereq 7.3 s390x LONG || s390x=$KBUILD_DIR
! kbuild_prereq 7.3 x86_64 LONG || x86=$KBUILD_DIR
work=$TOP/build/work/linux-7.3
export s390x x86 work

# planted_boot TARGET KBUILD NAME WANT: build TARGET's kernel of the
# working tree with the CPU-order get_unaligned_le32() in unaligned_kunit.o
# (O= a copy of KBUILD), boot it, exit code WANT; the record in NAME.json.
planted_boot() {
	local t=$1 kb=$2 name=$3 want=$4 tree=$TEST_DIR/$3-tree obj=$TEST_DIR/$3-obj
	"$SCRIPTS/copy-tree" --link "$work" "$tree" 2>/dev/null &&
	m=$tree/lib/tests/Makefile && detach "$m" &&
	echo "CFLAGS_unaligned_kunit.o += -include $TEST_DIR/cpu-order-unaligned.h" >>"$m" &&
	rm -rf "$obj" && cp -a "$kb" "$obj" &&
	unshare -m bash -c "mount --bind \"\$1\" \"\$2\" && mount --bind \"\$3\" \"\$4\" && \"\$5\" --target \"\$6\" \"\$2\"" \
		- "$tree" "$work" "$obj" "$kb" "$SCRIPTS/stages/build-kernel" "$t" >/dev/null 2>"$TEST_DIR/$name-build.log" &&
	build-init "$t" "$TEST_DIR/$name-init" >/dev/null 2>&1 &&
	mkinitramfs "$TEST_DIR/$name-init/init" "$TEST_DIR/$name-init/initramfs.cpio" >/dev/null 2>&1 &&
	expect_exit "$want" boot --target "$t" --obj "$obj" --initrd "$TEST_DIR/$name-init/initramfs.cpio" --no-retry \
		--out "$TEST_DIR/$name-boot" --json "$TEST_DIR/$name.json"
}

test_expect_success LONG,KBUILD_7_3_s390x,KBUILD_7_3_x86_64 'the plant: one line, get_unaligned_le32() in the CPU order' '
	sed -e "s/return le32_to_cpu(__get_unaligned_t(__le32, p));/return __get_unaligned_t(u32, p);/" \
		"$work/include/linux/unaligned.h" >"$TEST_DIR/cpu-order-unaligned.h" &&
	expect_eq "$(diff "$work/include/linux/unaligned.h" "$TEST_DIR/cpu-order-unaligned.h" | grep -c "^>")" 1 "lines changed"
'

test_expect_success LONG,KBUILD_7_3_s390x,MOUNT_NS 's390x (big-endian): unaligned_le_test fails, and only it' '
	planted_boot s390x "$s390x" s390x 1 &&
	expect_unaligned_fails_alone "$TEST_DIR/s390x.json" unaligned_le_test
'

test_expect_success LONG,KBUILD_7_3_x86_64,MOUNT_NS 'x86_64 (little-endian): the same plant passes every case' '
	planted_boot x86_64 "$x86" x86_64 0 &&
	expect_eq "$(jq -r ".suites[] | select(.name == \"unaligned\") | .status" "$TEST_DIR/x86_64.json")" PASS suite &&
	expect_eq "$(unaligned_case "$TEST_DIR/x86_64.json" unaligned_le_test)" PASS "little-endian case"
'

test_done
