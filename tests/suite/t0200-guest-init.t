#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# The guest's /init (tests/guest/init/init.c) without a kernel: built for every
# target by scripts/stages/build-init against the default tree's nolibc
# (and refused against a nolibc without the target's architecture), run
# in user mode (not PID 1: the host's
# /dev/zero, exit status) natively or under qemu-user, and its KTAP
# checked line by line; the checks shown to fail on a faked overrun; its
# --workload suite (a program's lines, its exit status, a bad spec); the
# initramfs of scripts/stages/mkinitramfs listed, with --bin programs; and,
# where the host allows it, the PID 1 path (devtmpfs, reboot, /bin/NAME)
# in a PID namespace.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# The KTAP lines init prints, diagnostics left out, when every test passes.
KTAP_OK='KTAP version 1
1..1
  KTAP version 1
  1..4
  ok 1 clear_user_dev_zero
  ok 2 copy_user_pipe
  ok 3 copy_user_file
  ok 4 pread_dev_zero_100k
ok 1 guest_init
GUEST-INIT-END'
export KTAP_OK

# runner TARGET: the command prefix that runs a TARGET binary here (the
# table's INIT_RUNNER).
runner() {
	targets "$1" INIT_RUNNER
}

# check_ktap FILE: the whole KTAP of a passing run, in order, with the
# suite header and the timing diagnostic.  (Functions return on the first
# failure themselves: set -e does not apply in a function called from an
# && list.)
check_ktap() {
	expect_eq "$(grep -v '^ *# ' "$1")" "$KTAP_OK" "KTAP lines" || return 1
	grep -qx '  # Subtest: guest_init' "$1" ||
		{ fail "no '# Subtest: guest_init' in the suite"; return 1; }
	grep -Eqx '  # pread_dev_zero_100k: 2000 calls, [0-9]+\.[0-9]{3} s' "$1" ||
		{ fail "no timing diagnostic"; return 1; }
}

# The tree whose nolibc build-init uses by default.
DEFAULT_TREE=$(get-kernel 2>/dev/null)
export DEFAULT_TREE

# user_mode TARGET: build init for TARGET against the default tree's
# nolibc, run it in user mode with a scratch directory of its own, check
# its KTAP and that it cleaned up.
user_mode() {
	local run out=$TEST_DIR/$1 rc=0
	run=$(runner "$1") || return 1
	expect_exit 0 build-init "$1" "$out" || return 1
	expect_eq "$(cat "$TEST_DIR/stdout")" "$out/init" "printed path" || return 1
	grep -q "^build-init: $1: nolibc of $DEFAULT_TREE ($(basename "$DEFAULT_TREE" | sed 's/^linux-//')\.[0-9]*), UAPI headers " \
		"$TEST_DIR/stderr" || { fail "$1: no nolibc line for $DEFAULT_TREE"; return 1; }
	grep -q "^+ .* -nostdinc .*-include $DEFAULT_TREE/tools/include/nolibc/nolibc.h .* -nostdlib -static -o [^ ]* $TOP/tests/guest/init/init.c" \
		"$TEST_DIR/stderr" || { fail "$1: not compiled -nostdinc -nostdlib with the tree's nolibc.h"; return 1; }
	mkdir -p "$out/scratch"
	# shellcheck disable=SC2086 # the runner is a command and its options
	timeout 60 $run "$out/init" "$out/scratch" >"$out/ktap" 2>"$out/stderr" || rc=$?
	cat "$out/ktap" "$out/stderr"
	[ "$rc" -eq 0 ] || { fail "$1: init exited with $rc"; return 1; }
	check_ktap "$out/ktap" || return 1
	expect_eq "$(ls -A "$out/scratch")" "" "files left in the scratch directory"
}

test_expect_success 'build-init: --help, and an unknown target is refused' '
	build-init --help | head -n 1 | grep -q "^Usage: scripts/stages/build-init \[--nolibc TREE\] " &&
	expect_exit 2 build-init nosuch "$TEST_DIR/x" &&
	expect_one_line_error "unknown target .nosuch." &&
	expect_exit 2 build-init x86_64 &&
	expect_one_line_error "need TARGET and OUT" &&
	expect_exit 2 build-init --nolibc &&
	expect_one_line_error "--nolibc needs a value"
'

test_expect_success 'build-init --nolibc: a tree without nolibc, or without the arch, is refused' '
	mkdir -p "$TEST_DIR/notree" &&
	expect_exit 2 build-init --nolibc "$TEST_DIR/notree" x86_64 "$TEST_DIR/x" &&
	expect_one_line_error "not a kernel tree" &&
	t61=$(kernel_tree 6.1) &&
	expect_exit 2 build-init --nolibc 6.1 loongarch64 "$TEST_DIR/x" &&
	expect_one_line_error "$t61 \(6\.1\.[0-9]+\): its nolibc has no arch-loongarch.h" &&
	[ ! -e "$TEST_DIR/x" ]
'

# The init divides no 64-bit value with the compiler (a 32-bit target
# would call libgcc, which some link without, and Alpha has no divide
# instruction): guest.h's shift-and-subtract helpers, checked against
# the compiler's own division on the host.
test_expect_success 'div_u64_u32 and mod_u64_u32 agree with / and %' '
	cat >"$TEST_DIR/div.c" <<-EOF &&
	#include "guest.h"
	int main(void)
	{
		static const unsigned long long n[] = { 0, 1, 999999, 1000000,
			123456789012345ULL, 0xffffffffffffffffULL, 1ULL << 63 };
		static const unsigned long d[] = { 1, 7, 10, 1000, 1000000, 0xffffffffUL };
		unsigned int i, j;

		for (i = 0; i < sizeof(n) / sizeof(n[0]); i++)
			for (j = 0; j < sizeof(d) / sizeof(d[0]); j++)
				if (div_u64_u32(n[i], d[j]) != n[i] / d[j] ||
				    mod_u64_u32(n[i], d[j]) != n[i] % d[j])
					return 1;
		return 0;
	}
	EOF
	gcc -O2 -Wall -Werror -I"$TOP/tests/guest/include" -o "$TEST_DIR/div" "$TEST_DIR/div.c" &&
	"$TEST_DIR/div"
'

# Every default target (make deps installs their compilers); the opt-in
# ones run theirs under make all-arches.
test_expect_success 'the default targets: their inits are the next tests' '
	[ -n "$(targets)" ]
'
for target in $(targets); do
	export target
	test_expect_success "$target: built static, runs in user mode, all KTAP tests ok" '
		user_mode "$target"
	'
done

test_expect_success 'the KTAP is what the kernel tree'"'"'s kunit.py parses as 4 passes' '
	kunit=$TOP/build/src/linux-6.12/tools/testing/kunit/kunit.py
	[ -f "$kunit" ] || kunit=$(kernel_tree 6.12)/tools/testing/kunit/kunit.py
	# -B: no __pycache__ in the pristine tree.
	python3 -B "$kunit" parse "$TEST_DIR/x86_64/ktap" >"$TEST_DIR/kunit.out" &&
	cat "$TEST_DIR/kunit.out" &&
	grep -q "Testing complete. Ran 4 tests: passed: 4$" "$TEST_DIR/kunit.out"
'

test_expect_success 'a faked one-byte overrun fails the copy tests, with a diagnostic' '
	expect_exit 1 "$TEST_DIR/x86_64/init" "$TEST_DIR" --inject-overrun &&
	grep -qx "  not ok 1 clear_user_dev_zero" "$TEST_DIR/stdout" &&
	grep -qx "  not ok 2 copy_user_pipe" "$TEST_DIR/stdout" &&
	grep -qx "  not ok 3 copy_user_file" "$TEST_DIR/stdout" &&
	grep -qx "  ok 4 pread_dev_zero_100k" "$TEST_DIR/stdout" &&
	grep -qx "not ok 1 guest_init" "$TEST_DIR/stdout" &&
	grep -Eq "^  # copy_user_pipe: 1 of [0-9]+ transfers failed, first: .*guard changed at dst\+[0-9]+: got 0x5a, want 0xa5$" "$TEST_DIR/stdout" &&
	tail -n 1 "$TEST_DIR/stdout" | grep -qx GUEST-INIT-END
'

test_expect_success 'mkinitramfs: /init, /dev nodes, /proc, /tmp; reproducible; gzip' '
	mkinitramfs --help | head -n 1 | grep -q "^Usage: scripts/stages/mkinitramfs " &&
	expect_exit 0 mkinitramfs "$TEST_DIR/x86_64/init" "$TEST_DIR/a.cpio" &&
	cpio -itv --quiet <"$TEST_DIR/a.cpio" |
		awk "{ print \$1, \$NF }" >"$TEST_DIR/list" &&
	expect_eq "$(cat "$TEST_DIR/list")" "drwxr-xr-x dev
crw------- dev/console
crw-rw-rw- dev/zero
drwxr-xr-x proc
drwxrwxrwt tmp
-rwxr-xr-x init" "cpio listing" &&
	cpio -itv --quiet <"$TEST_DIR/a.cpio" | grep -Eq " 5, +1 .* dev/console$" &&
	cpio -itv --quiet <"$TEST_DIR/a.cpio" | grep -Eq " 1, +5 .* dev/zero$" &&
	mkdir "$TEST_DIR/x" && (cd "$TEST_DIR/x" && cpio -i --quiet init <"$TEST_DIR/a.cpio") &&
	cmp "$TEST_DIR/x/init" "$TEST_DIR/x86_64/init" &&
	mkinitramfs "$TEST_DIR/x86_64/init" "$TEST_DIR/b.cpio" 2>/dev/null &&
	cmp "$TEST_DIR/a.cpio" "$TEST_DIR/b.cpio" &&
	mkinitramfs --gzip "$TEST_DIR/x86_64/init" "$TEST_DIR/a.cpio.gz" 2>/dev/null &&
	gzip -dc "$TEST_DIR/a.cpio.gz" | cmp - "$TEST_DIR/a.cpio" &&
	expect_exit 2 mkinitramfs "$TEST_DIR/nosuch" "$TEST_DIR/c.cpio" &&
	expect_one_line_error "no such file"
'

test_expect_success 'init --workload: a second suite, the program'"'"'s lines as diagnostics, ok on exit 0' '
	expect_exit 0 build-workloads x86_64 "$TEST_DIR/wl" &&
	wl=$TEST_DIR/wl &&
	expect_exit 1 "$TEST_DIR/x86_64/init" "$TEST_DIR" --workload="$wl/pread_zero:-i:-s:4096:-n:20" \
		--workload="$wl/syscall_rate:-n:0" --workload=nosuch:-i --workload=: &&
	expect_eq "$(sed -n "/^ok 1 guest_init\$/,\$p" "$TEST_DIR/stdout" | grep -Ev "^  # pread_zero: pread_zero(: |_ns_per_pread )")" \
"ok 1 guest_init
  KTAP version 1
  # Subtest: workloads
  1..4
  # pread_zero: exit status 0
  ok 1 pread_zero
  # syscall_rate: syscall_rate: error: bad loop count '"'"'0'"'"' for -n: want an integer 1..4000000000 (see -h)
  # syscall_rate: exit status 2
  not ok 2 syscall_rate
  # nosuch: exec /bin/nosuch failed: -2
  # nosuch: exit status 127
  not ok 3 nosuch
  # :: bad --workload (PROG[:ARG...], at most 200 characters)
  not ok 4 workload
not ok 2 workloads
GUEST-INIT-END" "the workloads suite" &&
	grep -q "^1\.\.2$" "$TEST_DIR/stdout" &&
	grep -Eq "^  # pread_zero: pread_zero_ns_per_pread [0-9]+\.[0-9]{3} ns$" "$TEST_DIR/stdout" &&
	grep -Eq "^  # pread_zero: pread_zero: 20 pread\(\)s of 4096 bytes " "$TEST_DIR/stdout"
'

test_expect_success 'init --workloads-only: the workloads suite alone, numbered 1; ignored without a workload' '
	expect_exit 0 "$TEST_DIR/x86_64/init" "$TEST_DIR" --workloads-only --workload="$TEST_DIR/wl/syscall_rate:-i:-n:5" &&
	expect_eq "$(grep -v "^  # " "$TEST_DIR/stdout")" "KTAP version 1
1..1
  KTAP version 1
  1..1
  ok 1 syscall_rate
ok 1 workloads
GUEST-INIT-END" "KTAP lines" &&
	grep -q "^  # setup: user mode" "$TEST_DIR/stdout" &&
	expect_exit 0 "$TEST_DIR/x86_64/init" "$TEST_DIR" --workloads-only &&
	grep -qx "ok 1 guest_init" "$TEST_DIR/stdout"
'

test_expect_success 'mkinitramfs --bin: each program as /bin/NAME; a missing or second NAME refused' '
	expect_exit 0 mkinitramfs --bin "$TEST_DIR/wl/pread_zero" --bin "$TEST_DIR/wl/syscall_rate" \
		"$TEST_DIR/x86_64/init" "$TEST_DIR/w.cpio" &&
	expect_eq "$(cpio -itv --quiet <"$TEST_DIR/w.cpio" | awk "{ print \$1, \$NF }" | tail -n 4)" "-rwxr-xr-x init
drwxr-xr-x bin
-rwxr-xr-x bin/pread_zero
-rwxr-xr-x bin/syscall_rate" "cpio listing" &&
	mkdir "$TEST_DIR/w" && (cd "$TEST_DIR/w" && cpio -id --quiet <"$TEST_DIR/w.cpio") &&
	cmp "$TEST_DIR/w/bin/pread_zero" "$TEST_DIR/wl/pread_zero" &&
	expect_exit 2 mkinitramfs --bin "$TEST_DIR/wl/nosuch" "$TEST_DIR/x86_64/init" "$TEST_DIR/c.cpio" &&
	expect_one_line_error "--bin .*/nosuch: no such file" &&
	expect_exit 2 mkinitramfs --bin "$TEST_DIR/wl/pread_zero" --bin "$TEST_DIR/w/bin/pread_zero" \
		"$TEST_DIR/x86_64/init" "$TEST_DIR/c.cpio" &&
	expect_one_line_error "a second /bin/pread_zero" &&
	expect_exit 2 mkinitramfs --bin &&
	expect_one_line_error "--bin needs a value" &&
	[ ! -e "$TEST_DIR/c.cpio" ]
'

# As PID 1 of a new PID namespace, chrooted into the unpacked initramfs:
# the guest path (devtmpfs on /dev, console, reboot) without a kernel.
# reboot(RESTART) there kills the namespace's init with SIGHUP: 128 + 1.
test_expect_success PID_NS 'x86_64 as PID 1 (PID namespace): /dev set up, KTAP ok, reboot' '
	mkdir "$TEST_DIR/root" &&
	(cd "$TEST_DIR/root" && cpio -id --quiet <"$TEST_DIR/a.cpio") &&
	expect_exit 129 timeout 60 unshare --pid --fork --mount \
		chroot "$TEST_DIR/root" /init &&
	check_ktap "$TEST_DIR/stdout" &&
	grep -Eqx "  # setup: (devtmpfs on /dev|no devtmpfs .*)" "$TEST_DIR/stdout" &&
	expect_eq "$(ls -A "$TEST_DIR/root/tmp")" "" "files left in /tmp"
'
test_expect_success PID_NS 'x86_64 as PID 1: --workload=NAME runs /bin/NAME of the initramfs' '
	expect_exit 129 timeout 60 unshare --pid --fork --mount \
		chroot "$TEST_DIR/w" /init --workload=syscall_rate:-i:-n:50 &&
	grep -Eqx "  # syscall_rate: syscall_rate_ns_per_syscall [0-9]+\.[0-9]{3} ns" "$TEST_DIR/stdout" &&
	grep -qx "  ok 1 syscall_rate" "$TEST_DIR/stdout" &&
	grep -qx "ok 2 workloads" "$TEST_DIR/stdout"
'

test_done
