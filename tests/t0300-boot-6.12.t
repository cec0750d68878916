#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# The four targets on 6.12 with the series applied: build with the minimal
# configs, boot under QEMU (TCG), and require every expected suite to pass:
# KUnit's usercopy (not on armv5), memcpy and the series' unaligned, and the
# guest init's.
# Cold (empty ccache) this is most of 'make test': see the README.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/boot.sh
. "$(dirname "$0")/boot.sh"

# Expected suites and the least number of passing leaf tests, per target:
# armv5 runs without KUnit's usercopy suite (configs/fragments/armv5.config).
declare -A suites=([x86_64]="guest_init memcpy unaligned usercopy" [arm64]="guest_init memcpy unaligned usercopy"
	[armv5]="guest_init memcpy unaligned" [loongarch64]="guest_init memcpy unaligned usercopy")
declare -A passed=([x86_64]=15 [arm64]=15 [armv5]=11 [loongarch64]=15)

for t in x86_64 arm64 armv5 loongarch64; do
	test_expect_success "$t: builds; the fragments' symbols all survive" "
		build_target 6.12 $t >\"\$TEST_DIR/obj-$t\" &&
		jq -e '.build_seconds >= 0 and (.artifacts | length) >= 2' \"\$TEST_DIR/build-6.12-$t.json\"
	"
	test_expect_success "$t: boots, every expected suite passes, the slow cases are skipped" "
		expect_exit 0 boot --target $t --obj \"\$(cat \"\$TEST_DIR/obj-$t\")\" \
			--initrd \"\$TEST_DIR/init-$t/initramfs.cpio\" --out \"\$TEST_DIR/boot-$t\" \
			--json \"\$TEST_DIR/boot-$t.json\" &&
		expect_eq \"\$(jq -r .status \"\$TEST_DIR/boot-$t.json\")\" PASS status &&
		expect_eq \"\$(suites_of \"\$TEST_DIR/boot-$t.json\")\" '${suites[$t]}' suites &&
		expect_eq \"\$(jq .counts.failed \"\$TEST_DIR/boot-$t.json\")\" 0 failed &&
		jq -e '.counts.passed >= ${passed[$t]} and .counts.skipped >= 1' \"\$TEST_DIR/boot-$t.json\" &&
		expect_eq \"\$(jq -r .ended_by \"\$TEST_DIR/boot-$t.json\")\" marker 'ended by'
	"
done

test_done
