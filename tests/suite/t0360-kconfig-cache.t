#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/stages/build-kernel's kconfig cache: the same inputs give a copy of the
# cached .config, a changed Kconfig file does not; --toolchain picks
# another compiler of the table; --full takes the first defconfig of the
# table the tree has.  Configure only: no kernel is compiled here.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

work=$("$SCRIPTS/work-tree" 6.12 2>/dev/null)
export work KCONFIG_CACHE=$TEST_DIR/kconfig-cache

# configure RUN TREE: build-kernel --configure-only into its own build dir.
configure() {
	BUILD=$TEST_DIR/$1 expect_exit 0 build-kernel --configure-only --target x86_64 "$2"
}
export -f configure

test_expect_success 'first configure: Kconfig runs, the .config is cached' '
	configure first "$work" &&
	grep -q "build-kernel: configure tinyconfig + 4 fragment(s)" "$TEST_DIR/stderr" &&
	expect_eq "$(ls "$KCONFIG_CACHE" | wc -l)" 1 "cached configs" &&
	cmp "$(cat "$TEST_DIR/stdout")/.config" "$KCONFIG_CACHE"/*.config
'

test_expect_success 'same inputs, fresh O= directory: the cached .config, no Kconfig pass' '
	configure second "$work" &&
	grep -q "build-kernel: configure: cached .config" "$TEST_DIR/stderr" &&
	! grep -q "merge_config.sh" "$TEST_DIR/stderr" &&
	cmp "$(cat "$TEST_DIR/stdout")/.config" "$TEST_DIR/first/kbuild/"*/.config
'

test_expect_success 'a changed Kconfig file in the tree misses the cache' '
	tree=$TEST_DIR/tree &&
	"$SCRIPTS/copy-tree" --link "$work" "$tree" >/dev/null 2>&1 &&
	detach "$tree/lib/Kconfig.debug" &&
	echo "# a vendor comment" >>"$tree/lib/Kconfig.debug" &&
	configure changed "$tree" &&
	grep -q "build-kernel: configure tinyconfig + 4 fragment(s)" "$TEST_DIR/stderr" &&
	expect_eq "$(ls "$KCONFIG_CACHE" | wc -l)" 2 "cached configs"
'

test_expect_success 'another toolchain of the table: its own build dir, a clang .config' '
	BUILD=$TEST_DIR/clang expect_exit 0 build-kernel --configure-only --toolchain clang-22 --target x86_64 "$work" &&
	obj=$(cat "$TEST_DIR/stdout") &&
	case $obj in */6.12.*-x86_64-clang-22-*) ;; *) fail "build dir $obj" ;; esac &&
	grep -qx "CONFIG_CC_IS_CLANG=y" "$obj/.config" &&
	grep -q "LLVM=-22" "$TEST_DIR/stderr" &&
	expect_eq "$(ls "$KCONFIG_CACHE" | wc -l)" 3 "cached configs"
'

test_expect_success 'a toolchain the table does not list: one-line error' '
	expect_exit 2 build-kernel --configure-only --toolchain clang-14 --target x86_64 "$work" &&
	expect_one_line_error "toolchain .clang-14. not in x86_64.s TOOLCHAINS \(gcc clang-22 gcc-13 gcc-14 gcc-15 gcc-16\)" &&
	expect_exit 2 build-kernel --configure-only --toolchain gcc --target loongarch64 "$work" &&
	expect_one_line_error "toolchain .gcc. not in loongarch64.s TOOLCHAINS \(clang-22 gcc-14 gcc-15 gcc-16\)"
'

# 7.x renamed loongson3_defconfig to loongson64_defconfig: --full takes
# the first of the table's FULL_DEFCONFIG names the tree has.  6.12, which
# has only the second, is configured (a full defconfig with clang: 24 s of
# CPU); that 7.3 has the first is read from the tree.
test_expect_success '--full: the first of FULL_DEFCONFIG the tree has; none is one line, nothing made' '
	expect_eq "$("$SCRIPTS/targets" loongarch64 FULL_DEFCONFIG)" "loongson64_defconfig loongson3_defconfig" FULL_DEFCONFIG &&
	test -f "$(kernel_tree 7.3)/arch/loongarch/configs/loongson64_defconfig" &&
	test ! -e "$(kernel_tree 6.12)/arch/loongarch/configs/loongson64_defconfig" &&
	BUILD=$TEST_DIR/full-6.12 expect_exit 0 build-kernel --full --configure-only --target loongarch64 \
		"$(kernel_tree 6.12)" &&
	grep -q "build-kernel: configure loongson3_defconfig (loongarch64" "$TEST_DIR/stderr" &&
	mkdir "$TEST_DIR/tables" && cp "$TOP"/configs/targets/SCHEMA "$TOP"/configs/targets/loongarch64.conf "$TEST_DIR/tables/" &&
	sed -i "s/^FULL_DEFCONFIG=.*/FULL_DEFCONFIG=\"loongson2_defconfig nope_defconfig\"/" "$TEST_DIR/tables/loongarch64.conf" &&
	TARGET_TABLES=$TEST_DIR/tables BUILD=$TEST_DIR/none expect_exit 2 build-kernel --full --configure-only \
		--target loongarch64 "$(kernel_tree 7.3)" &&
	expect_one_line_error "loongarch64.conf: FULL_DEFCONFIG: none of .loongson2_defconfig nope_defconfig. is in .*/arch/loongarch/configs/" &&
	[ ! -e "$TEST_DIR/none/kbuild" ]
'

test_done
