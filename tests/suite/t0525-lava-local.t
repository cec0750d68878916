#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# The generated LAVA QEMU jobs run to completion on LAVA's own dispatcher
# (lava-run from Debian's lava-dispatcher, unpacked by scripts/deps) for
# x86_64 and arm64 on 7.3 (the default line, whose builds t0300 made;
# armv5, its dtb, and loongarch64 are make test-long's), and scripts/engines/lava-results judges the runs as
# scripts/stages/boot judges a local boot: same parser, same counts.  A guest
# whose checks fail and a job whose artifact is missing must not pass.
# The kernels are the boot tests' (incremental and ccache'd).
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# shellcheck disable=SC2034 # read by the test bodies
L=$TEST_DIR/lava

# lava_cells OUT TARGET...: the jobs of these targets on 7.3 pass on the
# local dispatcher, each judged as a local boot.
lava_cells() {
	local out=$1 t r
	shift
	expect_exit 0 lava-local --out "$out" --kernel 7.3 --targets "$*" ||
		{ cat "$out/matrix.md"; return 1; }
	grep -q "^+ .*lava-run --job-id .*7.3-$1.yaml$" "$TEST_DIR/stderr" || fail "no lava-run command line"
	for t; do
		r=$out/7.3-$t/results.json
		expect_eq "$(jq -r ".stages[\"boot-$t\"].status" "$r")" PASS "$t status"
		expect_eq "$(jq -r ".stages[\"boot-$t\"].lava_job_result" "$r")" pass "$t LAVA job"
		jq -r .stages.apply.version "$r" | grep -q "^7\.3\.[0-9]*$" ||
			fail "$t: kernel version $(jq -r .stages.apply.version "$r")"
		jq -e ".stages[\"boot-$t\"].counts | .passed >= 11 and .failed == 0" "$r" >/dev/null ||
			fail "$t: counts $(jq -c ".stages[\"boot-$t\"].counts" "$r")"
		grep -q "^KTAP version 1" "$out/7.3-$t/console.log" || fail "$t: no KTAP header line in console.log"
	done
	grep -q "^cells: $# PASS$" "$out/matrix.md" || fail "matrix: $(tail -1 "$out/matrix.md")"
}
export -f lava_cells

test_expect_success 'the jobs of x86_64 and arm64 pass on the local dispatcher' '
	lava_cells "$L" x86_64 arm64
'

test_expect_success LONG 'the armv5 job passes on the local dispatcher, its QEMU given the table'"'"'s dtb' '
	lava_cells "$TEST_DIR/lava-armv5" armv5 &&
	grep -q "Boot command: /usr/bin/qemu-system-arm -cpu arm926 -machine versatilepb .*-dtb " \
		"$TEST_DIR/lava-armv5/7.3-armv5/lava.log"
'

test_expect_success LONG 'the loongarch64 job passes on the local dispatcher, its QEMU as the table says' '
	lava_cells "$TEST_DIR/lava-loongarch64" loongarch64 &&
	grep -q "^| 7.3 | 7.3.[0-9]* | loongarch64 | clang-22.[0-9.]* | PASS " "$TEST_DIR/lava-loongarch64/matrix.md" &&
	grep -q "Boot command: /usr/bin/qemu-system-loongarch64 .* -machine virt -cpu la464 " \
		"$TEST_DIR/lava-loongarch64/7.3-loongarch64/lava.log"
'

test_expect_success 'the dispatcher ran the tables: QEMU machine, cpu, no KVM' '
	grep -q "Boot command: /usr/bin/qemu-system-aarch64 -cpu max -machine virt " "$L/7.3-arm64/lava.log" &&
	grep -q "Boot command: /usr/bin/qemu-system-x86_64 .* -machine q35 -cpu qemu64 " "$L/7.3-x86_64/lava.log" &&
	! grep -q "enable-kvm" "$L"/*/lava.log
'

test_expect_success 'LAVA and scripts/stages/boot agree on the same x86_64 artifacts' '
	a=$L/artifacts/7.3/x86_64 && mkdir -p "$TEST_DIR/obj/arch/x86/boot" &&
	cp "$a/bzImage" "$TEST_DIR/obj/arch/x86/boot/" &&
	expect_exit 0 boot --target x86_64 --obj "$TEST_DIR/obj" --initrd "$a/initramfs.cpio" \
		--expect guest_init --out "$TEST_DIR/boot" --json "$TEST_DIR/boot.json" &&
	expect_eq "$(jq -c ".stages[\"boot-x86_64\"].counts" "$L/7.3-x86_64/results.json")" \
		"$(jq -c .counts "$TEST_DIR/boot.json")" counts
'

test_expect_success 'a guest whose checks fail is FAIL, a missing artifact is MISS, a foreign job fails' '
	j=$TEST_DIR/jobs && mkdir -p "$j" &&
	sed "s/kunit.filter_action=skip/& -- --inject-overrun/" "$L/jobs/7.3-x86_64.yaml" >"$j/7.3-x86_64-overrun.yaml" &&
	sed "s#/initramfs.cpio\$#/no-such.cpio#" "$L/jobs/7.3-arm64.yaml" >"$j/7.3-arm64-no-ramdisk.yaml" &&
	sed "/kernel-overlay\./d" "$L/jobs/7.3-x86_64.yaml" >"$j/7.3-x86_64-no-metadata.yaml" &&
	expect_exit 1 lava-local --out "$TEST_DIR/neg" --job "$j/7.3-x86_64-overrun.yaml" "$j/7.3-arm64-no-ramdisk.yaml" \
		"$j/7.3-x86_64-no-metadata.yaml" &&
	grep -q "no-metadata.yaml: no kernel-overlay.base/target metadata" "$TEST_DIR/stderr" &&
	grep -q "^x86_64: FAIL (LAVA job pass" "$TEST_DIR/stdout" &&
	grep -q "FAIL guest_init.copy_user_pipe" "$TEST_DIR/stderr" &&
	grep -q "^arm64: MISS (LAVA job fail" "$TEST_DIR/stdout" &&
	grep -q "LAVA: .*no-such.cpio.* does not exist" "$TEST_DIR/stderr" &&
	grep -q "^cells: 1 FAIL, 1 MISS$" "$TEST_DIR/neg/matrix.md"
'

# LAVA's test monitor stops at the end string; when the marker came in the
# same read, the dispatcher logs it as "feedback", not "target".
test_expect_success 'the end marker in a feedback record still ends the run; without it, MISS' '
	log=$L/7.3-x86_64/lava.log &&
	# The run put the marker in a target record, or (about one run in
	# five) in a feedback one, alone or with the text read with it:
	# either way, a feedback record here.
	grep -q "GUEST-INIT-END" "$log" &&
	sed "/GUEST-INIT-END/s/\"lvl\": \"target\"/\"lvl\": \"feedback\"/" "$log" >"$TEST_DIR/feedback.log" &&
	grep -q "\"lvl\": \"feedback\", \"msg\": \".*GUEST-INIT-END" "$TEST_DIR/feedback.log" &&
	! grep -q "\"lvl\": \"target\", \"msg\": \".*GUEST-INIT-END" "$TEST_DIR/feedback.log" &&
	expect_exit 0 lava-results --job "$L/jobs/7.3-x86_64.yaml" "$TEST_DIR/feedback.log" &&
	grep -q "^x86_64: PASS " "$TEST_DIR/stdout" &&
	grep -v "GUEST-INIT-END" "$log" >"$TEST_DIR/nomarker.log" &&
	expect_exit 1 lava-results --job "$L/jobs/7.3-x86_64.yaml" "$TEST_DIR/nomarker.log" &&
	grep -q "^x86_64: MISS " "$TEST_DIR/stdout"
'

test_expect_success 'bad input: one-line errors' '
	expect_exit 2 lava-local --out "$TEST_DIR/bad" --kernel 5.4 &&
	expect_one_line_error "unknown base .5\.4." &&
	expect_exit 2 lava-local --out "$TEST_DIR/bad" --targets "x86_64 nosuch" &&
	expect_one_line_error "unknown target .nosuch." &&
	[ ! -e "$TEST_DIR/bad" ] &&
	sed "/kernel-overlay\./d" "$L/jobs/7.3-x86_64.yaml" >"$TEST_DIR/no-meta.yaml" &&
	expect_exit 2 lava-results --job "$TEST_DIR/no-meta.yaml" "$L/7.3-x86_64/lava.log" &&
	expect_one_line_error "no kernel-overlay.base/target metadata" &&
	printf "%s\n" "KTAP version 1" "1..1" "ok 1 guest_init" GUEST-INIT-END >"$TEST_DIR/console.log" &&
	expect_exit 2 lava-results --job "$L/jobs/7.3-x86_64.yaml" "$TEST_DIR/console.log" &&
	expect_one_line_error "console.log: no LAVA log records"
'

test_done
