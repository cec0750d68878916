# shellcheck shell=bash
# Build and boot one target, for the boot tests.  Source after tests/suite/test-lib.sh.

# build_target VER TARGET: the target's packages (scripts/deps), build the kernel (scripts/work-tree's applied
# tree; incremental and ccache'd), the guest init and its initramfs.
# Prints the O= directory; the initramfs is $TEST_DIR/init-TARGET/initramfs.cpio.
build_target() {
	local ver=$1 t=$2 work obj
	fixture_locked deps --targets "$t" >/dev/null 2>"$TEST_DIR/deps-$t.log" || { cat "$TEST_DIR/deps-$t.log"; return 1; }
	work=$(fixture_locked work-tree "$ver" 2>"$TEST_DIR/work-tree-$ver.log") || { cat "$TEST_DIR/work-tree-$ver.log"; return 1; }
	obj=$(fixture_locked build-kernel --target "$t" --json "$TEST_DIR/build-$ver-$t.json" "$work" 2>"$TEST_DIR/build-$ver-$t.log") ||
		{ tail -20 "$TEST_DIR/build-$ver-$t.log"; return 1; }
	build-init "$t" "$TEST_DIR/init-$t" >/dev/null 2>"$TEST_DIR/init-$t.log" || { cat "$TEST_DIR/init-$t.log"; return 1; }
	mkinitramfs "$TEST_DIR/init-$t/init" "$TEST_DIR/init-$t/initramfs.cpio" >/dev/null 2>&1 || return 1
	echo "$obj"
}

# prebuild VER TARGET...: the working tree once, then the targets' kernels
# built two at a time.  A build of these small configurations keeps about
# one core busy (its configure, link and image steps are serial), so one
# at a time leaves the second core to the rest of the suite and makes the
# boot tests the longest part of a cold 'make test'.  A failure is left
# to the target's own build test, which builds again and shows it.
prebuild() {
	fixture_locked _prebuild "$@"
}
_prebuild() {
	local ver=$1 work t
	shift
	deps --targets "$*" >/dev/null 2>"$TEST_DIR/deps.log" || return 0
	work=$(work-tree "$ver" 2>"$TEST_DIR/work-tree-$ver.log") || return 0
	for t in "$@"; do
		while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n || true; done
		build-kernel --target "$t" "$work" >/dev/null 2>"$TEST_DIR/prebuild-$ver-$t.log" &
	done
	wait || true
}

# suites_of JSON: the top-level suites scripts/stages/boot found, sorted.
suites_of() {
	jq -r '[.suites[].name] | sort | join(" ")' "$1"
}

# boot_expect CONFIG: BOOT_SUITES and BOOT_PASSED, the suites a boot of
# the kernel built with CONFIG (a .config) shows, and how many cases pass
# at least (the guest init's 4, memcpy's 2, unaligned's 5, usercopy's 4 or
# 3).
# shellcheck disable=SC2034 # read by the test bodies boot_tests makes
boot_expect() {
	BOOT_SUITES="guest_init memcpy unaligned" BOOT_PASSED=11
	grep -qx CONFIG_USERCOPY_KUNIT_TEST=y "$1" || return 0
	BOOT_SUITES+=" usercopy" BOOT_PASSED=15
	! grep -qx CONFIG_ALTERNATE_USER_ADDRESS_SPACE=y "$1" || BOOT_PASSED=14
}

# boot_tests VER TARGET...: per target, a test that it builds from VER's
# working tree with the fragments' symbols all surviving, and one that it
# boots with every expected suite passing: the guest init's, KUnit's memcpy,
# the series' unaligned (0006), and usercopy where the .config has it (not
# on armv5, where the fragment turns it off, nor on 6.1, which has no such
# suite).  What a boot must show follows from the build's .config, not
# from the target's name: usercopy's four cases where it is built, less
# its address-confusion case where the architecture keeps kernel and user
# address spaces apart (CONFIG_ALTERNATE_USER_ADDRESS_SPACE: s390, m68k).
# BOOT_PREREQ: a prerequisite of every test made (LONG, say).
boot_tests() {
	local ver=$1 t skipped pre=()
	shift
	[ -z "${BOOT_PREREQ:-}" ] || pre=("$BOOT_PREREQ")
	# Not for one target, nor for tests left out (LONG in make test).
	if [ $# -ge 2 ] && { [ -z "${BOOT_PREREQ:-}" ] || test_have_prereq "$BOOT_PREREQ"; }; then
		prebuild "$ver" "$@"
	fi
	for t in "$@"; do
		# 6.1's memcpy suite has no slow cases to skip.
		skipped=1
		[ "$ver" != 6.1 ] || skipped=0
		test_expect_success ${pre[@]+"${pre[@]}"} "$ver $t: builds; the fragments' symbols all survive" "
			build_target $ver $t >\"\$TEST_DIR/obj-$t\" &&
			jq -e '.build_seconds >= 0 and (.artifacts | length) >= 2' \"\$TEST_DIR/build-$ver-$t.json\" &&
			grep -qx CONFIG_UNALIGNED_KUNIT_TEST=y \"\$(cat \"\$TEST_DIR/obj-$t\")/.config\"
		"
		test_expect_success ${pre[@]+"${pre[@]}"} "$ver $t: boots, every expected suite passes, the slow cases are skipped" "
			expect_exit 0 boot --target $t --obj \"\$(cat \"\$TEST_DIR/obj-$t\")\" \
				--initrd \"\$TEST_DIR/init-$t/initramfs.cpio\" --out \"\$TEST_DIR/boot-$t\" \
				--json \"\$TEST_DIR/boot-$t.json\" &&
			boot_expect \"\$(cat \"\$TEST_DIR/obj-$t\")/.config\" &&
			expect_eq \"\$(jq -r .status \"\$TEST_DIR/boot-$t.json\")\" PASS status &&
			expect_eq \"\$(suites_of \"\$TEST_DIR/boot-$t.json\")\" \"\$BOOT_SUITES\" suites &&
			expect_eq \"\$(jq .counts.failed \"\$TEST_DIR/boot-$t.json\")\" 0 failed &&
			jq -e --argjson p \"\$BOOT_PASSED\" '.counts.passed >= \$p and .counts.skipped >= $skipped' \"\$TEST_DIR/boot-$t.json\" &&
			expect_eq \"\$(jq -r .ended_by \"\$TEST_DIR/boot-$t.json\")\" marker 'ended by'
		"
	done
}
