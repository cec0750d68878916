#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# The boot harness fails when it should, on the 7.3 x86_64 kernel: a
# guest that panics, one that hangs (timeout; QEMU reaped), one whose KTAP
# has a failing subtest, and a build whose fragment symbol was dropped;
# and --icount: a workload run twice gives the same instruction count to
# 0.1%, with QEMU's version and options in the JSON, and a failing one no
# figure.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=tests/suite/boot.sh
. "$(dirname "$0")/boot.sh"

obj=$(build_target 7.3 x86_64)
initrd=$TEST_DIR/init-x86_64/initramfs.cpio
export obj initrd

# qemu_left: QEMU processes started from this test's boots, if any.
qemu_left() { pgrep -f "qemu-system-x86_64 .*$TEST_DIR" || true; }
export -f qemu_left

test_expect_success 'the kernel and initramfs for these cases are built' '
	test -f "$obj/arch/x86/boot/bzImage" && test -f "$initrd"
'

test_expect_success 'a guest init that reports a failing subtest: FAIL, exit 1' '
	expect_exit 1 boot --target x86_64 --obj "$obj" --initrd "$initrd" --out "$TEST_DIR/fail" \
		--json "$TEST_DIR/fail.json" --append "-- --inject-overrun" &&
	expect_eq "$(jq -r .status "$TEST_DIR/fail.json")" FAIL status &&
	jq -e ".counts.failed >= 1" "$TEST_DIR/fail.json" &&
	grep -q "^x86_64: FAIL" "$TEST_DIR/stdout"
'

test_expect_success 'a guest that panics (no init to run): ERROR with the panic line' '
	expect_exit 1 boot --target x86_64 --obj "$obj" --initrd "$initrd" --out "$TEST_DIR/panic" \
		--json "$TEST_DIR/panic.json" --append "rdinit=/no-such-init" &&
	expect_eq "$(jq -r .status "$TEST_DIR/panic.json")" ERROR status &&
	expect_eq "$(jq -r .ended_by "$TEST_DIR/panic.json")" panic "ended by" &&
	jq -r .crash "$TEST_DIR/panic.json" | grep -q "Kernel panic"
'

test_expect_success 'a guest that hangs: MISS after the timeout, retried once, QEMU reaped' '
	expect_exit 1 boot --target x86_64 --obj "$obj" --initrd "$initrd" --out "$TEST_DIR/hang" \
		--json "$TEST_DIR/hang.json" --timeout 30 --append "-- --hang" &&
	grep -q "hanging on purpose" "$TEST_DIR/hang/console-2.log" &&
	expect_eq "$(jq -r .status "$TEST_DIR/hang.json")" MISS status &&
	expect_eq "$(jq -r .ended_by "$TEST_DIR/hang.json")" timeout "ended by" &&
	expect_eq "$(jq -r .attempts "$TEST_DIR/hang.json")" 2 attempts &&
	expect_eq "$(qemu_left)" "" "QEMU processes left"
'

# icount N: boot with --icount, KUnit off, the init running only
# syscall_rate -i for 200 loops; the JSON is $TEST_DIR/icount-N.json.
icount() {
	boot --icount --target x86_64 --obj "$obj" --initrd "$TEST_DIR/wl.cpio" --out "$TEST_DIR/icount-$1" \
		--json "$TEST_DIR/icount-$1.json" --expect workloads \
		--append "kunit.enable=0 -- --workloads-only --workload=syscall_rate:-i:-n:200" >/dev/null 2>&1
}
export -f icount

test_expect_success '--icount: the same workload twice gives the same count to 0.1%; QEMU and its options recorded' '
	build-workloads x86_64 "$TEST_DIR/wl" >/dev/null 2>&1 &&
	mkinitramfs --bin "$TEST_DIR/wl/syscall_rate" "$TEST_DIR/init-x86_64/init" "$TEST_DIR/wl.cpio" 2>/dev/null &&
	icount 1 && icount 2 &&
	for n in 1 2; do
		jq -e ".status == \"PASS\" and .icount == \"shift=0,align=off,sleep=off\"
			and (.qemu_command | test(\" -icount shift=0,align=off,sleep=off( |\$)\"))
			and (.qemu_version | test(\"^[0-9]+\\\\.[0-9]+\"))
			and (.workloads | length) == 1 and .workloads[0].metric == \"syscall_rate_ns_per_syscall\"
			and .workloads[0].units == \"ns\" and .workloads[0].value > 0" "$TEST_DIR/icount-$n.json" ||
			{ fail "icount-$n.json: $(jq -c "{status, icount, qemu_version, workloads}" "$TEST_DIR/icount-$n.json")"; return 1; }
	done &&
	a=$(jq .workloads[0].value "$TEST_DIR/icount-1.json") && b=$(jq .workloads[0].value "$TEST_DIR/icount-2.json") &&
	echo "# syscall_rate -i: $a and $b instructions per system call" &&
	awk -v a="$a" -v b="$b" "BEGIN { d = (a > b ? a - b : b - a) / a * 100; exit !(d <= 0.1) }" ||
		fail "runs differ by more than 0.1%: $a and $b"
'

test_expect_success '--icount: a failing workload is its test'"'"'s FAIL, and no figure' '
	expect_exit 1 boot --icount --target x86_64 --obj "$obj" --initrd "$TEST_DIR/wl.cpio" --out "$TEST_DIR/icount-bad" \
		--json "$TEST_DIR/icount-bad.json" --expect workloads \
		--append "kunit.enable=0 -- --workloads-only --workload=syscall_rate:-i:-n:0" &&
	expect_eq "$(jq -c ".workloads | map(del(.notes))" "$TEST_DIR/icount-bad.json")" \
		"[{\"test\":\"syscall_rate\",\"status\":\"FAIL\",\"metric\":null,\"value\":null,\"units\":null}]" workloads &&
	# What the program said is kept (the exit status is not a note).
	expect_eq "$(jq -r ".workloads[0].notes | join(\"|\")" "$TEST_DIR/icount-bad.json")" \
		"syscall_rate: error: bad loop count '"'"'0'"'"' for -n: want an integer 1..4000000000 (see -h)" notes
'

test_expect_success 'a fragment symbol dropped by olddefconfig: the build fails before compiling' '
	printf "CONFIG_ARM64_BTI_KERNEL=y\n" >"$TEST_DIR/dropped.config" &&
	expect_exit 1 build-kernel --target x86_64 --fragment "$TEST_DIR/dropped.config" "$(work-tree 7.3 2>/dev/null)" &&
	grep -qxF "build-kernel: fragment symbol not in the final .config: CONFIG_ARM64_BTI_KERNEL=y (got: absent)" \
		"$TEST_DIR/stderr" &&
	tail -1 "$TEST_DIR/stderr" | grep -q "^build-kernel: error: x86_64: 1 fragment symbol(s) dropped by the configuration"
'

test_done
