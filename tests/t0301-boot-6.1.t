#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# One target on 6.1 with the 6.1 series: x86_64.  6.1 has no usercopy KUnit
# suite (configs/fragments/6.1/series-tests.config).
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/boot.sh
. "$(dirname "$0")/boot.sh"

test_expect_success 'x86_64 on 6.1: builds with the 6.1 fragments' '
	build_target 6.1 x86_64 >"$TEST_DIR/obj" &&
	grep -qx "CONFIG_UNALIGNED_KUNIT_TEST=y" "$(cat "$TEST_DIR/obj")/.config"
'

test_expect_success 'x86_64 on 6.1: boots; memcpy, unaligned and the guest init pass' '
	expect_exit 0 boot --target x86_64 --obj "$(cat "$TEST_DIR/obj")" \
		--initrd "$TEST_DIR/init-x86_64/initramfs.cpio" --out "$TEST_DIR/boot" --json "$TEST_DIR/boot.json" &&
	expect_eq "$(jq -r .status "$TEST_DIR/boot.json")" PASS status &&
	expect_eq "$(suites_of "$TEST_DIR/boot.json")" "guest_init memcpy unaligned" suites
'

test_done
