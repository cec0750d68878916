# shellcheck shell=bash
# Build and boot one target, for the boot tests.  Source after tests/lib.sh.

# build_target VER TARGET: build the kernel (scripts/work-tree's applied
# tree; incremental and ccache'd), the guest init and its initramfs.
# Prints the O= directory; the initramfs is $TEST_DIR/init-TARGET/initramfs.cpio.
build_target() {
	local ver=$1 t=$2 work obj
	work=$(work-tree "$ver" 2>"$TEST_DIR/work-tree-$ver.log") || { cat "$TEST_DIR/work-tree-$ver.log"; return 1; }
	obj=$(build-kernel --target "$t" --json "$TEST_DIR/build-$ver-$t.json" "$work" 2>"$TEST_DIR/build-$ver-$t.log") ||
		{ tail -20 "$TEST_DIR/build-$ver-$t.log"; return 1; }
	build-init "$t" "$TEST_DIR/init-$t" >/dev/null 2>"$TEST_DIR/init-$t.log" || { cat "$TEST_DIR/init-$t.log"; return 1; }
	mkinitramfs "$TEST_DIR/init-$t/init" "$TEST_DIR/init-$t/initramfs.cpio" >/dev/null 2>&1 || return 1
	echo "$obj"
}

# suites_of JSON: the top-level suites scripts/boot found, sorted.
suites_of() {
	jq -r '[.suites[].name] | sort | join(" ")' "$1"
}
