#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# 0006's alias case in a 7.3 x86_64 kernel: lib/tests/unaligned_kunit.c is
# built with -fstrict-aliasing, its alias case passes with the series, and
# fails, alone of the suite, when __may_alias__ is taken out of the
# header's packed struct; its endian cases and canaries fail on helpers
# planted with the wrong byte order and a stray store.  A planted kernel
# is the boot test's build redone in a private mount namespace, where a
# copy of the working tree with the plant and a copy of the O= directory
# are mounted over the originals: kbuild sees the paths it recorded, so
# only the objects the plant reaches compile again, and neither original
# is written.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

kbuild=''
! kbuild_prereq 7.3 x86_64 || kbuild=$KBUILD_DIR
work=$TOP/build/work/linux-7.3
export kbuild work

test_expect_success KBUILD_7_3_x86_64 'the series: unaligned_kunit.o is built with -fstrict-aliasing, every case passes' '
	grep -q -- "-fno-strict-aliasing.* -fstrict-aliasing" "$kbuild/lib/tests/.unaligned_kunit.o.cmd" &&
	build-init x86_64 "$TEST_DIR/init" >/dev/null 2>&1 &&
	mkinitramfs "$TEST_DIR/init/init" "$TEST_DIR/initramfs.cpio" >/dev/null 2>&1 &&
	expect_exit 0 boot --target x86_64 --obj "$kbuild" --initrd "$TEST_DIR/initramfs.cpio" \
		--out "$TEST_DIR/boot-series" --json "$TEST_DIR/series.json" &&
	expect_eq "$(unaligned_case "$TEST_DIR/series.json" unaligned_alias_test)" PASS "alias case" &&
	expect_eq "$(jq -r ".suites[] | select(.name == \"unaligned\") | .status" "$TEST_DIR/series.json")" PASS suite
'

test_expect_success KBUILD_7_3_x86_64,MOUNT_NS 'without __may_alias__: the alias case fails, and only it' '
	image=$(sha256sum <"$kbuild/arch/x86/boot/bzImage") &&
	planted=$TEST_DIR/planted && obj=$TEST_DIR/obj &&
	"$SCRIPTS/copy-tree" --link "$work" "$planted" 2>/dev/null &&
	h=$planted/include/vdso/unaligned.h && detach "$h" &&
	sed -i "s/ __attribute__((__may_alias__))//" "$h" &&
	expect_eq "$(grep -c "__attribute__((__may_alias__))" "$h")" 0 "attributes left" &&
	rm -rf "$obj" && cp -a "$kbuild" "$obj" &&
	unshare -m bash -c "mount --bind \"\$1\" \"\$2\" && mount --bind \"\$3\" \"\$4\" && \"\$5\" --target x86_64 \"\$2\"" \
		- "$planted" "$work" "$obj" "$kbuild" "$SCRIPTS/stages/build-kernel" >/dev/null 2>"$TEST_DIR/build.log" &&
	expect_eq "$(sha256sum <"$kbuild/arch/x86/boot/bzImage")" "$image" "the boot test'"'"'s image" &&
	expect_exit 1 boot --target x86_64 --obj "$obj" --initrd "$TEST_DIR/initramfs.cpio" --no-retry \
		--out "$TEST_DIR/boot-planted" --json "$TEST_DIR/planted.json" &&
	expect_unaligned_fails_alone "$TEST_DIR/planted.json" unaligned_alias_test
'

# The endian cases compare with bytes composed by hand, and every case
# checks the bytes around the value: with a get_unaligned_be32() that reads
# little-endian and a put_unaligned_le16() that also flips the byte after
# the value, the big-endian case fails on the value and the little-endian
# one on a canary.  The broken helpers reach unaligned_kunit.o alone (a
# copy of <linux/unaligned.h> -include'd first, its guard keeping the real
# one out), so the rest of the kernel runs as built.
test_expect_success KBUILD_7_3_x86_64,MOUNT_NS 'a helper with the wrong byte order or a stray store fails its case' '
	broken=$TEST_DIR/broken && obj=$TEST_DIR/obj-broken &&
	"$SCRIPTS/copy-tree" --link "$work" "$broken" 2>/dev/null &&
	sed -e "s/return be32_to_cpu(__get_unaligned_t(__be32, p));/return le32_to_cpu(__get_unaligned_t(__le32, p));/" \
		-e "s/^\t__put_unaligned_t(__le16, cpu_to_le16(val), p);/&\n\t((u8 *)p)[2] ^= 0xff;/" \
		"$work/include/linux/unaligned.h" >"$TEST_DIR/broken-unaligned.h" &&
	expect_eq "$(diff "$work/include/linux/unaligned.h" "$TEST_DIR/broken-unaligned.h" | grep -c "^>")" 2 "lines changed" &&
	m=$broken/lib/tests/Makefile && detach "$m" &&
	echo "CFLAGS_unaligned_kunit.o += -include $TEST_DIR/broken-unaligned.h" >>"$m" &&
	rm -rf "$obj" && cp -a "$kbuild" "$obj" &&
	unshare -m bash -c "mount --bind \"\$1\" \"\$2\" && mount --bind \"\$3\" \"\$4\" && \"\$5\" --target x86_64 \"\$2\"" \
		- "$broken" "$work" "$obj" "$kbuild" "$SCRIPTS/stages/build-kernel" >/dev/null 2>"$TEST_DIR/build-broken.log" &&
	expect_exit 1 boot --target x86_64 --obj "$obj" --initrd "$TEST_DIR/initramfs.cpio" --no-retry \
		--out "$TEST_DIR/boot-broken" --json "$TEST_DIR/broken.json" &&
	expect_eq "$(unaligned_case "$TEST_DIR/broken.json" unaligned_be_test)" FAIL "big-endian case" &&
	expect_eq "$(unaligned_case "$TEST_DIR/broken.json" unaligned_le_test)" FAIL "little-endian case" &&
	jq -r ".suites[] | select(.name == \"unaligned\") | .tests[] | select(.name == \"unaligned_le_test\") | .diagnostics[]" \
		"$TEST_DIR/broken.json" | grep -Eq "^byte [0-9]+ changed \(value at [0-9]+, size 2\)" &&
	for c in unaligned_native_test unaligned_const_test unaligned_alias_test; do
		expect_eq "$(unaligned_case "$TEST_DIR/broken.json" $c)" PASS "$c" || return 1
	done
'

test_done
