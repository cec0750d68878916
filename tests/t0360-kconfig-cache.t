#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/build-kernel's kconfig cache: the same inputs give a copy of the
# cached .config, a changed Kconfig file does not.  Configure only: no
# kernel is compiled here.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"

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

test_done
