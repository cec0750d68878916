#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# The on-target benchmarks of tests/guest/workloads/ (randwrite, copy_rate,
# pread_zero, syscall_rate) without a board: a warning-free host build; the one
# result line LAVA parses; -h; bad arguments (exit 2) and a failing
# system call (exit 1), each one stderr line; the system calls they make
# (strace, where installed); and scripts/stages/build-workloads for every target,
# against the default tree's nolibc, each binary run briefly natively or
# under qemu-user.  The host build is against glibc: the sources build
# with a libc too.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# PROGRAM METRIC UNITS SMALL-ARGS: what each prints, and a quick run.
BENCHES="randwrite randwrite_kibps KiB/s -d $TEST_DIR/rw -j 2 -s 65536
copy_rate copy_rate_mbps MB/s -n 200
pread_zero pread_zero_seconds s -n 200
syscall_rate syscall_rate_lps loops/s -n 2000"
HOST=$TEST_DIR/host
# The tree whose nolibc build-workloads uses by default.
DEFAULT_TREE=$(get-kernel 2>/dev/null)
export BENCHES HOST DEFAULT_TREE

# runner TARGET: the command prefix that runs a TARGET binary here (the
# table's INIT_RUNNER; empty: natively).
runner() {
	targets "$1" INIT_RUNNER
}

# check_result OUT ERR METRIC UNITS: OUT is exactly one line, "METRIC
# VALUE UNITS" with a positive decimal VALUE, split by the shell into the
# three words a LAVA test shell passes on; ERR is one diagnostic line.
check_result() {
	local n value
	n=$(wc -l <"$1")
	[ "$n" -eq 1 ] || { fail "stdout has $n lines, want 1"; return 1; }
	grep -Eqx "$3 [0-9]+\.[0-9]+ $4" "$1" ||
		{ fail "stdout '$(cat "$1")' is not '$3 VALUE $4'"; return 1; }
	# shellcheck disable=SC2046 # split as the LAVA test shell does
	set -- $(cat "$1") "$2"
	[ $# -eq 4 ] || { fail "the result line splits into $(($# - 1)) words, want 3"; return 1; }
	value=$2
	awk -v v="$value" 'BEGIN { exit !(v + 0 > 0) }' ||
		{ fail "value $value is not positive"; return 1; }
	n=$(wc -l <"$4")
	[ "$n" -eq 1 ] || { fail "stderr has $n lines, want 1 diagnostic"; return 1; }
	! grep -q 'error' "$4" || { fail "stderr has an error: $(cat "$4")"; return 1; }
}

# expect_syscalls DIR: under strace, the programs of DIR enter the kernel
# on every loop, and once more for their untimed loop: syscall_rate with
# each call of its mix (counted from its first dup(): a dynamic loader
# closes files before), pread_zero and copy_rate with one pread64,
# copy_rate's into a destination at page+5.
expect_syscalls() {
	local d=$1 c
	strace -qq -o "$TEST_DIR/st" -e trace=dup,close,getpid,getuid,umask \
		"$d/syscall_rate" -n 50 >/dev/null 2>&1 || { fail "strace of $d/syscall_rate failed"; return 1; }
	sed -n '/^dup(/,$p' "$TEST_DIR/st" >"$TEST_DIR/st.mix"
	for c in dup close getpid getuid umask; do
		# 50 timed loops and one untimed
		expect_eq "$(grep -c "^$c(" "$TEST_DIR/st.mix")" 51 "$c calls" || return 1
	done
	strace -qq -o "$TEST_DIR/st" -e trace=pread64 \
		"$d/pread_zero" -s 4096 -n 40 >/dev/null 2>&1 &&
		expect_eq "$(grep -c "^pread64(.*, 4096, 0) = 4096$" "$TEST_DIR/st")" 41 "pread64 calls" || return 1
	strace -qq -o "$TEST_DIR/st" -e trace=pread64 -e raw=pread64 \
		"$d/copy_rate" -s 8192 -o 5 -n 20 >/dev/null 2>&1 &&
		expect_eq "$(grep -c "^pread64(0x[0-9a-f]*, 0x[0-9a-f]*005, 0x2000, 0) = 0x2000$" "$TEST_DIR/st")" 21 \
			"pread64 calls of 8192 bytes into page+5"
}

# run_benches DIR RUNNER: run each program of DIR with its small count
# (under RUNNER, a command prefix, or natively) and check its output.
run_benches() {
	local prog metric units args rc
	while read -r prog metric units args; do
		rc=0
		# shellcheck disable=SC2086 # the runner and the args are words
		timeout 60 $2 "$1/$prog" $args >"$TEST_DIR/out" 2>"$TEST_DIR/err" || rc=$?
		cat "$TEST_DIR/out" "$TEST_DIR/err"
		[ "$rc" -eq 0 ] || { fail "$prog exited with $rc"; return 1; }
		check_result "$TEST_DIR/out" "$TEST_DIR/err" "$metric" "$units" || return 1
	done <<<"$BENCHES"
}

# bad_args PROG PATTERN ARGS...: exit 2, nothing on stdout, one stderr
# line "PROG: error: ..." matching PATTERN (extended regex).
bad_args() {
	local prog=$1 pat=$2
	shift 2
	expect_exit 2 "$HOST/$prog" "$@" || return 1
	[ ! -s "$TEST_DIR/stdout" ] || { fail "$prog $*: output on stdout"; return 1; }
	expect_eq "$(wc -l <"$TEST_DIR/stderr")" 1 "$prog $*: stderr lines" || return 1
	grep -Eq "^$prog: error: .*$pat" "$TEST_DIR/stderr" ||
		fail "$prog $*: stderr '$(cat "$TEST_DIR/stderr")' does not match '$pat'"
}

# sys_fail PROG PATTERN: the last expect_exit (exit 1) printed one stderr
# line "PROG: error: ..." matching PATTERN, and nothing on stdout.
sys_fail() {
	[ ! -s "$TEST_DIR/stdout" ] || { fail "$1: output on stdout"; return 1; }
	expect_eq "$(wc -l <"$TEST_DIR/stderr")" 1 "$1: stderr lines" || return 1
	grep -Eq "^$1: error: .*$2" "$TEST_DIR/stderr" ||
		fail "$1: stderr '$(cat "$TEST_DIR/stderr")' does not match '$2'"
}
export -f runner check_result run_benches expect_syscalls bad_args sys_fail

test_expect_success 'host build: gcc-12 -Wall -Wextra -Werror, no warnings' '
	mkdir -p "$HOST" "$TEST_DIR/rw" &&
	for p in randwrite copy_rate pread_zero syscall_rate; do
		gcc-12 -std=gnu11 -O2 -Wall -Wextra -Werror -o "$HOST/$p" \
			"$TOP/tests/guest/workloads/$p.c" 2>"$TEST_DIR/cc.err" ||
			{ cat "$TEST_DIR/cc.err"; fail "$p: build failed"; }
		[ ! -s "$TEST_DIR/cc.err" ] || { cat "$TEST_DIR/cc.err"; fail "$p: compiler output"; }
	done
'

test_expect_success 'each program prints one "NAME VALUE UNITS" line, a positive value' '
	run_benches "$HOST" ""
'

test_expect_success '-i: one "PROG_ns_per_OP NS ns" line instead, NS positive' '
	for spec in "randwrite write -d $TEST_DIR/rw -j 2 -s 16384" "copy_rate pread -n 50" \
		"pread_zero pread -s 4096 -n 50" "syscall_rate syscall -n 500"; do
		set -- $spec &&
		prog=$1 op=$2 &&
		shift 2 &&
		"$HOST/$prog" -i "$@" >"$TEST_DIR/out" 2>"$TEST_DIR/err" ||
			{ fail "$prog -i $*: failed: $(cat "$TEST_DIR/err")"; exit 1; }
		check_result "$TEST_DIR/out" "$TEST_DIR/err" "${prog}_ns_per_$op" ns || exit 1
		grep -Eqx "${prog}_ns_per_$op [0-9]+\.[0-9]{3} ns" "$TEST_DIR/out" ||
			{ fail "$prog -i: $(cat "$TEST_DIR/out"): not three decimals"; exit 1; }
	done
'

test_expect_success 'the diagnostics show the arguments that were used' '
	"$HOST/pread_zero" -s 4096 -n 30 2>&1 >/dev/null |
		grep -Eqx "pread_zero: 30 pread\(\)s of 4096 bytes from /dev/zero in [0-9]+\.[0-9]{6} s, [0-9.]+ MB/s cleared" &&
	"$HOST/copy_rate" -s 8192 -o 13 -n 30 2>&1 >/dev/null |
		grep -Eq "^copy_rate: 30 pread\(\)s of 8192 bytes, destination at page\+13, in [0-9]+\.[0-9]{6} s" &&
	"$HOST/syscall_rate" -n 77 2>&1 >/dev/null |
		grep -Eq "^syscall_rate: 77 loops \(5 system calls each\) in "
'

test_expect_success 'syscall_rate -t 1 runs for one second, not a fixed count' '
	"$HOST/syscall_rate" -t 1 >"$TEST_DIR/out" 2>"$TEST_DIR/err" &&
	cat "$TEST_DIR/out" "$TEST_DIR/err" &&
	check_result "$TEST_DIR/out" "$TEST_DIR/err" syscall_rate_lps loops/s &&
	secs=$(sed -n "s/.* in \([0-9.]*\) s, .*/\1/p" "$TEST_DIR/err") &&
	awk -v s="$secs" "BEGIN { exit !(s >= 1.0 && s < 3.0) }" ||
		fail "ran for ${secs:-?} s, want 1..3"
'

test_expect_success '-h: the usage on stdout, nothing on stderr, exit 0' '
	for p in randwrite copy_rate pread_zero syscall_rate; do
		expect_exit 0 "$HOST/$p" -h || exit 1
		head -n 1 "$TEST_DIR/stdout" | grep -q "^Usage: $p " || fail "$p: no usage line"
		[ ! -s "$TEST_DIR/stderr" ] || fail "$p -h: output on stderr"
	done
'

test_expect_success 'bad arguments: exit 2, one stderr line, nothing on stdout' '
	bad_args pread_zero "unknown option .-x." -x &&
	bad_args pread_zero "bad count .0. for -n: want an integer 1\.\.1000000000" -n 0 &&
	bad_args pread_zero "bad count .12ab. for -n" -n 12ab &&
	bad_args pread_zero "bad count .-5. for -n" -n -5 &&
	bad_args pread_zero "bad count .99999999999999999999999. for -n" -n 99999999999999999999999 &&
	bad_args pread_zero "bad size .67108865. for -s: want an integer 1\.\.67108864" -s67108865 &&
	bad_args pread_zero "missing value for .-n." -n &&
	bad_args pread_zero "unexpected argument .extra." -n 5 extra &&
	bad_args syscall_rate "-t and -n exclude each other" -t 1 -n 1 &&
	bad_args syscall_rate "bad duration .0. for -t" -t 0 &&
	bad_args syscall_rate "unknown option .-s." -s 100 &&
	bad_args copy_rate "bad offset .4096. for -o: want an integer 0\.\.4095" -o 4096 &&
	bad_args copy_rate "bad size .. for -s" -s "" &&
	bad_args copy_rate "unknown option .--help." --help &&
	bad_args randwrite "the file size is not a multiple of the block size" -s 5000 -b 4096 &&
	bad_args randwrite "missing value for .-d." -d "" &&
	bad_args randwrite "bad job count .0. for -j: want an integer 1\.\.64" -j 0 &&
	bad_args randwrite "bad UBI device .32. for -u" -u 32
'

test_expect_success 'a failing system call: exit 1, one stderr line naming it' '
	expect_exit 1 "$HOST/syscall_rate" -n 10 <&- &&
	sys_fail syscall_rate "dup\(0\).* failed: EBADF \(errno 9\)$" &&
	expect_exit 1 bash -c "ulimit -v 40000 && exec \"\$1\" -s 67108864 -n 1" - "$HOST/pread_zero" &&
	sys_fail pread_zero "mmap failed: ENOMEM" &&
	expect_exit 1 bash -c "ulimit -v 40000 && exec \"\$1\" -s 67108864 -n 1" - "$HOST/copy_rate" &&
	sys_fail copy_rate "mmap failed: ENOMEM" &&
	expect_exit 1 "$HOST/randwrite" -d "$TEST_DIR/nosuch" -s 8192 &&
	sys_fail randwrite "$TEST_DIR/nosuch/randwrite\.0 failed: ENOENT \(errno 2\)$"
'

test_expect_success STRACE 'strace: every loop enters the kernel; the destination is misaligned' '
	expect_syscalls "$HOST"
'

test_expect_success 'build-workloads: --help; an unknown target, missing arguments: exit 2' '
	build-workloads --help | head -n 1 | grep -q "^Usage: scripts/stages/build-workloads \[--nolibc TREE\] TARGET OUT$" &&
	expect_exit 2 build-workloads nosuch "$TEST_DIR/x" &&
	expect_one_line_error "unknown target .nosuch. \(one of: .*x86_64" &&
	expect_exit 2 build-workloads x86_64 &&
	expect_one_line_error "need TARGET and OUT" &&
	expect_exit 2 build-workloads --bogus x86_64 "$TEST_DIR/x" &&
	expect_one_line_error "unknown option --bogus" &&
	[ ! -e "$TEST_DIR/x" ]
'

names=$(targets) || { echo "Bail out! scripts/targets: the target tables do not load"; exit 1; }
for target in $names; do
	export target
	test_expect_success "$target: build-workloads builds four static programs, and they run" '
		out=$TEST_DIR/$target &&
		expect_exit 0 build-workloads "$target" "$out" &&
		expect_eq "$(cat "$TEST_DIR/stdout")" "$out/randwrite
$out/copy_rate
$out/pread_zero
$out/syscall_rate" "printed paths" &&
		cc=$(targets "$target" INIT_CC) &&
		{ grep -q "^build-workloads: $target: nolibc of $DEFAULT_TREE (" "$TEST_DIR/stderr" ||
			fail "no nolibc line for $DEFAULT_TREE"; }
		for p in randwrite copy_rate pread_zero syscall_rate; do
			grep -q "^+ $cc .* -Wall -Wextra .* -nostdinc .*-include $DEFAULT_TREE/tools/include/nolibc/nolibc.h .* -nostdlib -static -o [^ ]* $TOP/tests/guest/workloads/$p.c\( -lgcc\)\{0,1\}$" "$TEST_DIR/stderr" ||
				fail "no compiler command for $p against the default nolibc"
			[ -x "$out/$p" ] || fail "$out/$p: not executable"
		done
		! grep -E "warning:|error:" "$TEST_DIR/stderr" || fail "build-workloads printed warnings" &&
		expect_eq "$(ls -A "$out")" "copy_rate
pread_zero
randwrite
syscall_rate" "files in OUTDIR" &&
		r=$(runner "$target") &&
		run_benches "$out" "$r"
	'
done

test_expect_success STRACE 'strace: the nolibc x86_64 build makes the same system calls' '
	expect_syscalls "$TEST_DIR/x86_64"
'

test_done
