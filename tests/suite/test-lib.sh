# shellcheck shell=bash
# TAP for the shell tests, after git's t/test-lib.sh: each test is a
# description and a body evaluated with 'set -e' in a subshell; the plan is
# printed at the end.  Source it first thing in a test file.

set -u
# The tests parse the messages of the scripts and of the tools they run.
export LC_ALL=C
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SCRIPTS=$TOP/scripts
TEST_NAME=$(basename "$0" .t)
# Under build/, on the file system of the pristine trees, so that
# copy_tree can hard-link.
TEST_DIR=$TOP/build/tests/$TEST_NAME
# Every command of the project by name: scripts/ and its subfolders (the
# library, scripts/lib, holds no commands).
_test_path=$SCRIPTS
for _d in "$SCRIPTS"/*/ "$SCRIPTS"/evidence/*/; do
	case $_d in */lib/) continue ;; esac
	_test_path+=:${_d%/}
done
export PATH="$_test_path:$PATH" TOP SCRIPTS TEST_DIR

_test_n=0
_test_failed=0

_test_cleanup() {
	# A test may have made directories read-only: give the write bits back
	# (on directories only: files may be hard links into a pristine tree).
	if [ -d "$TEST_DIR" ]; then
		find "$TEST_DIR" -type d ! -perm -u+w -exec chmod u+w {} + 2>/dev/null
		rm -rf "$TEST_DIR"
	fi
}
_test_cleanup
mkdir -p "$TEST_DIR"
trap _test_cleanup EXIT

# --- prerequisites, after git's test-lib ------------------------------------

# A test names what it needs: a tool or a capability of the machine (a
# lazy prerequisite, defined once below and checked the first time a test
# asks), or a kernel build (kbuild_prereq, which makes it when missing).
# A missing one makes the test a "# SKIP" with the reason; under 'make
# test', whose TEST_REQUIRED_PREREQS names the prerequisites it is meant to
# have (patterns: KBUILD_* is every build), a missing one fails it instead.
declare -A _test_prereq=() _test_prereq_why=() _test_lazy=()

# test_set_prereq NAME / test_lack_prereq NAME WHY
test_set_prereq() { _test_prereq[$1]=1; }
test_lack_prereq() { unset "_test_prereq[$1]"; _test_prereq_why[$1]=$2; }
# test_lazy_prereq NAME SCRIPT: NAME holds if SCRIPT succeeds, run (in a
# subshell, output kept apart) the first time a test needs NAME, as in
# git's test-lib.  When it fails, its last line of output is the reason
# a test is skipped, or the script itself when it printed nothing.
test_lazy_prereq() { _test_lazy[$1]=$2; }
# _test_prereq_eval NAME: a lazy prerequisite's script, once.
_test_prereq_eval() {
	local script=${_test_lazy[$1]:-} out
	[ -n "$script" ] || return 0
	unset "_test_lazy[$1]"
	if out=$( (eval "$script") 2>&1); then
		test_set_prereq "$1"
	else
		out=$(printf '%s\n' "$out" | sed '/^[[:space:]]*$/d' | tail -n 1)
		test_lack_prereq "$1" "${out:-"'$script' failed"}"
	fi
}
# LONG: a test 'make test' leaves out to keep within its time budget (a
# cell of the boot matrix, say); 'make test-long' (TEST_LONG=1) runs it.
if [ -n "${TEST_LONG:-}" ]; then
	test_set_prereq LONG
else
	test_lack_prereq LONG "a long test, left out of make test: make test-long runs it"
fi
# test_have_prereq NAME[,NAME...]
test_have_prereq() {
	local p
	for p in ${1//,/ }; do
		_test_prereq_eval "$p"
		[ -n "${_test_prereq[$p]:-}" ] || return 1
	done
}
# _test_required NAME: NAME matches a pattern of TEST_REQUIRED_PREREQS.
_test_required() {
	local pat
	for pat in ${TEST_REQUIRED_PREREQS:-}; do
		# shellcheck disable=SC2053 # a glob, on purpose
		[[ $1 == $pat ]] && return 0
	done
	return 1
}

# test_expect_success [PREREQ[,PREREQ...]] DESCRIPTION BODY
test_expect_success() {
	local prereqs=''
	if [ $# -eq 3 ]; then prereqs=$1; shift; fi
	_test_n=$((_test_n + 1))
	local out=$TEST_DIR/.out.$_test_n rc=0 p
	for p in ${prereqs//,/ }; do
		_test_prereq_eval "$p"
		[ -z "${_test_prereq[$p]:-}" ] || continue
		if _test_required "$p"; then
			_test_failed=$((_test_failed + 1))
			echo "not ok $_test_n - $1"
			echo "#   missing prerequisite $p, which 'make test' makes: ${_test_prereq_why[$p]:-not checked}"
			[ -z "${TEST_FAILED_LOG:-}" ] ||
				printf '%s: not ok %s - %s: missing prerequisite %s: %s\n' "$TEST_NAME" "$_test_n" "$1" \
					"$p" "${_test_prereq_why[$p]:-not checked}" >>"$TEST_FAILED_LOG"
		else
			echo "ok $_test_n - $1 # SKIP missing $p: ${_test_prereq_why[$p]:-not checked}"
		fi
		return 0
	done
	# Every fail() of the body marks the test failed, wherever it ran: bash
	# ignores set -e inside a loop or function that an "&&" chain, "if" or
	# "!" tests, so a failed check there would otherwise go unnoticed
	# unless it happened to be the last one.
	_test_failmark=$TEST_DIR/.failed.$_test_n
	rm -f "$_test_failmark"
	export _test_failmark
	local t0=$EPOCHREALTIME
	(
		set -e
		eval "$2"
	) >"$out" 2>&1
	rc=$?
	[ ! -e "$_test_failmark" ] || [ $rc -ne 0 ] || rc=1
	if [ $rc -eq 0 ]; then
		echo "ok $_test_n - $1"
	else
		_test_failed=$((_test_failed + 1))
		echo "not ok $_test_n - $1"
		sed 's/^/#   /' "$out"
		# prove shows a test's stderr even without -v: the end of the
		# failed body's output, so that a CI log says what failed.  The
		# same block goes to TEST_FAILED_LOG, which make test prints
		# after prove's summary, where a log's tail shows it.
		local block
		block=$(echo "$TEST_NAME: not ok $_test_n - $1 (the last 40 lines of its output):"
			tail -n 40 "$out" | sed 's/^/#   /')
		printf '%s\n' "$block" >&2
		[ -z "${TEST_FAILED_LOG:-}" ] || printf '%s\n' "$block" >>"$TEST_FAILED_LOG"
	fi
	# TEST_TIMES=1: how long each test took, as a TAP comment (where a
	# test file's time goes).
	[ -z "${TEST_TIMES:-}" ] || awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "#   time %.2f s\n", b - a }'
}

# The machine's tools and capabilities, each checked once, when a test
# first needs it.
test_lazy_prereq XMLLINT 'command -v xmllint >/dev/null || { echo "xmllint not installed"; exit 1; }'
test_lazy_prereq CPPCHECK 'command -v cppcheck >/dev/null || { echo "cppcheck not installed"; exit 1; }'
test_lazy_prereq VALGRIND 'command -v valgrind >/dev/null || { echo "valgrind not installed"; exit 1; }'
test_lazy_prereq STRACE 'strace -qq -o /dev/null true || { echo "no working strace"; exit 1; }'
# shellcheck disable=SC2016 # a script, expanded when it runs
test_lazy_prereq MOUNT_NS '[ "$(id -u)" = 0 ] && unshare -m true || { echo "needs root and unshare -m (a private mount namespace)"; exit 1; }'
# shellcheck disable=SC2016 # a script, expanded when it runs
test_lazy_prereq PID_NS '[ "$(id -u)" = 0 ] && unshare --pid --fork --mount true || { echo "needs root and unshare --pid"; exit 1; }'
# GCC 16 for ARMv5 in the toolchain root (make deps makes it), as
# scripts/toolchain-root lists it.
# shellcheck disable=SC2016 # a script, expanded when it runs
test_lazy_prereq TOOLROOT_GCC16 'jq -e ".toolchains[] | select(.name == \"gcc-16\" and .triple == \"arm-linux-gnueabi\")" "$TOP/build/toolchain-root/toolchains.json" >/dev/null &&
	[ -x "$TOP/build/toolchain-root/gcc-16/bin/arm-linux-gnueabi-gcc" ] ||
	{ echo "no gcc-16 for armel in build/toolchain-root (scripts/toolchain-root)"; exit 1; }'

# test_skip DESCRIPTION REASON: a test that cannot run here for a reason
# no prerequisite names.
test_skip() {
	_test_n=$((_test_n + 1))
	echo "ok $_test_n - $1 # SKIP $2"
}

test_done() {
	echo "1..$_test_n"
	[ "$_test_failed" -eq 0 ]
	exit
}

note() { printf '# %s\n' "$*"; }

# --- hostile file systems ------------------------------------------------

# in_small_fs OPTIONS BODY: BODY (a string) in a private mount namespace
# with a tmpfs of OPTIONS (size=, nr_inodes=) on $TEST_DIR/m: a full disk
# or no inodes for one command, nothing mounted for the rest of the
# machine.  BODY's exit code is returned.
in_small_fs() {
	mkdir -p "$TEST_DIR/m"
	# shellcheck disable=SC2016 # expanded by the inner bash
	unshare -m bash -c 'set -e; mount -t tmpfs -o "$1" tmpfs "$TEST_DIR/m"; eval "$2"' _ "$1" "$2"
}

# fill_fs DIR: fill the file system of DIR (one file, $DIR/.fill).
fill_fs() { dd if=/dev/zero of="$1/.fill" bs=4k status=none 2>/dev/null || true; }

# stray_files DIR: temporary files an output left behind (out_write's
# .NAME.tmp.*, out_dir_begin's .NAME.new.*, out_dir_commit's .NAME.old.*).
stray_files() { find "$1" -name '.*.tmp.*' -o -name '.*.new.*' -o -name '.*.old.*' 2>/dev/null; }
export -f in_small_fs fill_fs stray_files

# --- assertions for test bodies -----------------------------------------

# fail MESSAGE: the check failed; the test fails even if the caller goes on.
fail() {
	printf 'FAIL: %s\n' "$*" >&2
	[ -z "${_test_failmark:-}" ] || : >>"$_test_failmark"
	return 1
}

# expect_eq GOT WANT [WHAT]
expect_eq() {
	[ "$1" = "$2" ] || fail "${3:-value}: got '$1', want '$2'"
}

# expect_exit CODE CMD...: run CMD, keep stdout/stderr in $TEST_DIR/stdout
# and $TEST_DIR/stderr, and check its exit code.
expect_exit() {
	local want=$1 got=0
	shift
	"$@" >"$TEST_DIR/stdout" 2>"$TEST_DIR/stderr" || got=$?
	cat "$TEST_DIR/stdout" "$TEST_DIR/stderr"
	[ "$got" -eq "$want" ] || fail "exit code of $*: got $got, want $want"
}

# expect_one_line_error PATTERN: stderr of the last expect_exit is exactly
# one line, an error matching PATTERN (extended regex).
expect_one_line_error() {
	local n
	n=$(wc -l <"$TEST_DIR/stderr")
	[ "$n" -eq 1 ] || fail "stderr has $n lines, want 1"
	grep -Eq "^[a-z0-9-]+: error: .*$1" "$TEST_DIR/stderr" ||
		fail "stderr '$(cat "$TEST_DIR/stderr")' does not match '$1'"
}

# expect_one_line_error_in FILE PATTERN: FILE (a command's stderr) is
# exactly one line, an error matching PATTERN.
expect_one_line_error_in() {
	[ "$(wc -l <"$1")" -eq 1 ] || fail "$1 has $(wc -l <"$1") lines, want 1: $(cat "$1")"
	grep -Eq "^[a-z0-9-]+: error: .*$2" "$1" || fail "'$(cat "$1")' does not match '$2'"
}

# expect_last_error PATTERN: stderr of the last expect_exit has exactly one
# error line, the last one, matching PATTERN (progress lines and the
# commands run may come before it).
expect_last_error() {
	expect_eq "$(grep -c ': error: ' "$TEST_DIR/stderr")" 1 "error lines" || return 1
	tail -n 1 "$TEST_DIR/stderr" | grep -Eq "^[a-z0-9-]+: error: .*$1" ||
		fail "last stderr line '$(tail -n 1 "$TEST_DIR/stderr")' does not match '$1'"
}

# expect_arg_errors CMD ARG NONE [TWO]: CMD --help starts with its usage
# line, naming CMD by its path; CMD without an argument, with an unknown
# option (before ARG) and, given TWO, with two arguments exits 2 with a
# one-line error matching NONE, "unknown option" and TWO.
expect_arg_errors() {
	local cmd=$1 arg=$2 none=$3 two=${4:-} path
	path=$(command -v "$cmd") || { fail "$cmd: no such command"; return 1; }
	"$cmd" --help | head -n 1 | grep -q "^Usage: ${path#"$TOP"/} " ||
		{ fail "$cmd --help: no usage line naming ${path#"$TOP"/}"; return 1; }
	{ expect_exit 2 "$cmd" && expect_one_line_error "$none"; } || return 1
	if [ -n "$two" ]; then
		{ expect_exit 2 "$cmd" a b && expect_one_line_error "$two"; } || return 1
	fi
	expect_exit 2 "$cmd" --frob "$arg" && expect_one_line_error "unknown option"
}

# unaligned_case JSON CASE: the status of CASE of 0006's unaligned suite
# in a boot record (scripts/stages/boot --json).
unaligned_case() {
	jq -r --arg c "$2" '.suites[] | select(.name == "unaligned") | .tests[] | select(.name == $c) | .status' "$1"
}

# expect_unaligned_fails_alone JSON CASE: the boot record JSON is a FAIL
# with one failed case, CASE of the unaligned suite, and every other of
# the suite's five cases passed.
expect_unaligned_fails_alone() {
	local c want
	expect_eq "$(jq -r .status "$1")" FAIL status &&
		expect_eq "$(jq .counts.failed "$1")" 1 failed || return 1
	for c in unaligned_native_test unaligned_const_test unaligned_le_test unaligned_be_test unaligned_alias_test; do
		want=PASS
		[ "$c" != "$2" ] || want=FAIL
		expect_eq "$(unaligned_case "$1" "$c")" "$want" "$c" || return 1
	done
}

# kbuild_prereq VER TARGET: the prerequisite KBUILD_<VER>_<TARGET> (dots
# made underscores), and KBUILD_DIR its O= directory: a finished build of
# TARGET (its default toolchain) from VER's working tree that is up to
# date (the tree still has today's series and nothing in it changed after
# the apply, and the build's record of its sources, .overlay-sources, is
# the tree's now).  A fixture: made here when missing (the working tree
# and the build, under the fixtures' lock), unless TEST_NO_FIXTURES is set.
# With GATE (LONG, say), only when GATE holds: a test that reads the build
# needs GATE,KBUILD_<VER>_<TARGET>, so that make test, which leaves GATE
# out, neither makes the build nor fails for the want of it.
kbuild_prereq() {
	local name=KBUILD_${1//./_}_$2 out
	KBUILD_DIR=''
	if [ -n "${3:-}" ] && ! test_have_prereq "$3"; then
		test_lack_prereq "$name" "needs $3: ${_test_prereq_why[$3]:-}"
		return 1
	fi
	if ! _kbuild_check "$1" "$2" >/dev/null 2>&1 && [ -z "${TEST_NO_FIXTURES:-}" ]; then
		note "fixture: building the $2 kernel of $1 (scripts/work-tree, scripts/stages/build-kernel)"
		fixture_locked _kbuild_make "$1" "$2" >"$TEST_DIR/fixture-$1-$2.log" 2>&1 ||
			{ test_lack_prereq "$name" "the $2 kernel of $1 does not build: $(tail -n 1 "$TEST_DIR/fixture-$1-$2.log")"; return 1; }
	fi
	if out=$(_kbuild_check "$1" "$2"); then
		export KBUILD_DIR=$out
		test_set_prereq "$name"
	else
		test_lack_prereq "$name" "$out"
		return 1
	fi
}

# fixture_locked CMD...: CMD (a command or a function) under the lock of
# the fixtures, the working trees and kernel builds of build/work and
# build/kbuild, which two test files never make at once.
fixture_locked() {
	local fd rc=0
	mkdir -p "$TOP/build/tests"
	exec {fd}>>"$TOP/build/tests/.fixtures.lock"
	flock "$fd"
	"$@" || rc=$?
	exec {fd}>&-
	return $rc
}
# _kbuild_make VER TARGET: the target's packages (its table's PACKAGES),
# the working tree and the build, as t0300 makes them.
_kbuild_make() {
	local work
	"$SCRIPTS/deps" --targets "$2" >/dev/null &&
		work=$("$SCRIPTS/work-tree" "$1") && "$SCRIPTS/stages/build-kernel" --target "$2" "$work" >/dev/null
}

# _kbuild_check VER TARGET: kbuild_prereq's checks, in a subshell of its own
# with the series library (its names stay out of the tests'): the O=
# directory on stdout, or the reason and status 1.
_kbuild_check() {
	(
		# (not followed: its TOP and the tests' are the same)
		# shellcheck source=/dev/null
		. "$SCRIPTS/lib/common.sh"
		# shellcheck source=/dev/null
		. "$SCRIPTS/lib/series.sh"
		work=$TOP/build/work/linux-$1
		if ! record_current "$work" 2>/dev/null || ! record_untouched "$work"; then
			echo "no working tree of $1 with today's series (scripts/work-tree $1)"
			exit 1
		fi
		obj=$("$SCRIPTS/stages/build-kernel" --configure-only --target "$2" "$work" 2>/dev/null) ||
			{ echo "the $2 configuration of $1 does not configure"; exit 1; }
		img=$obj/$("$SCRIPTS/targets" "$2" IMAGE)
		{ [ -f "$obj/vmlinux" ] && [ -f "$img" ]; } ||
			{ echo "no finished $2 build of $1 in $obj"; exit 1; }
		# The build's own record of the sources it was made from.
		{ [ -f "$obj/.overlay-sources" ] && cmp -s "$obj/.overlay-sources" <(build_sources "$work"); } ||
			{ echo "the $2 build of $1 in $obj was made from other sources than the tree has now"; exit 1; }
		echo "$obj"
	)
}

# stand_in NAME LINE...: $TEST_DIR/bin/NAME, a /bin/sh script of the
# LINEs, to stand in for the tool NAME (with $TEST_DIR/bin first in PATH):
# a check shown able to fail on a finding the real tool would not report.
stand_in() {
	local name=$1
	shift
	mkdir -p "$TEST_DIR/bin" &&
		printf '#!/bin/sh\n' >"$TEST_DIR/bin/$name" &&
		printf '%s\n' "$@" >>"$TEST_DIR/bin/$name" &&
		chmod +x "$TEST_DIR/bin/$name"
}

# tap_line PATTERN: the one TAP result line of the last run matching the
# extended regex PATTERN (after the number), or a failure.
tap_line() {
	local l
	l=$(grep -E "^(not )?ok [0-9]+ - $1" "$TEST_DIR/stdout") ||
		{ fail "no TAP line matching '$1'"; return 1; }
	[ "$(wc -l <<<"$l")" -eq 1 ] || { fail "several TAP lines match '$1'"; return 1; }
	printf '%s\n' "$l"
}

# all_ok: the last run's TAP is complete and every line is ok.
all_ok() {
	local plan n
	plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$TEST_DIR/stdout")
	n=$(grep -cE '^(not )?ok [0-9]+ - ' "$TEST_DIR/stdout")
	expect_eq "$n" "$plan" "TAP results vs plan" || return 1
	! grep -q '^not ok' "$TEST_DIR/stdout" || { fail "a TAP line is not ok"; return 1; }
}

# status_of PATCH: the status scripts/apply printed for PATCH (without the
# parenthesised detail), from the last expect_exit.
status_of() {
	awk -v p="$1" '$1 == p { $1 = ""; sub(/^ +/, ""); sub(/ \(.*$/, ""); print }' "$TEST_DIR/stdout"
}

# expect_statuses PATCH=STATUS...
expect_statuses() {
	local kv
	for kv in "$@"; do
		expect_eq "$(status_of "${kv%%=*}")" "${kv#*=}" "status of ${kv%%=*}"
	done
}

# --- kernel trees -----------------------------------------------------------

# kernel_tree VER: the pristine tree (unpacked on first use).
kernel_tree() { "$SCRIPTS/get-kernel" "$1" 2>/dev/null; }

# scratch_project DIR: a copy of the project in DIR (its tracked files and
# the untracked ones git does not ignore, as they are now), committed, so
# that a test can show which files it changed; DIR/build is empty.
scratch_project() {
	mkdir -p "$1/build"
	(cd "$TOP" && git ls-files -co --exclude-standard -z | cpio -0 -pdm --quiet "$1")
	git -C "$1" init -q && git -C "$1" add -A &&
		git -C "$1" -c user.name=t -c user.email=t@t commit -qm scratch
}

# copy_tree VER NAME: a hard-linked copy of the pristine tree, for this test.
copy_tree() {
	"$SCRIPTS/copy-tree" --link "$(kernel_tree "$1")" "$TEST_DIR/$2" 2>/dev/null
	echo "$TEST_DIR/$2"
}

# tree_files NAME TREE FILE...: $TEST_DIR/NAME with copies of only these
# files of TREE (paths relative to it), for editing; its path on stdout.
tree_files() {
	local d=$TEST_DIR/$1 src=$2 f
	shift 2
	for f in "$@"; do
		{ mkdir -p "$d/$(dirname "$f")" && cp "$src/$f" "$d/$f"; } || return 1
	done
	echo "$d"
}

# git_tree VER: a git work tree of the pristine tree, one commit, made on
# first use under build/git/ (a hard-linked copy, so about a minute and
# the object store only) and shared by the tests that need git.  Read it,
# never write it: its files are the pristine tree's.  No automatic gc: its
# repack of some 80,000 loose objects would run for minutes in the
# background of the tests that follow.
git_tree() {
	local dir=$TOP/build/git/linux-$1 tmp
	if [ ! -d "$dir/.git" ]; then
		tmp=$dir.tmp.$$
		rm -rf "$tmp"
		mkdir -p "$(dirname "$dir")"
		if ! { "$SCRIPTS/copy-tree" --link "$(kernel_tree "$1")" "$tmp" >/dev/null 2>&1 &&
			git -C "$tmp" init -q &&
			git -C "$tmp" -c core.looseCompression=1 add -A -f &&
			git -C "$tmp" config gc.auto 0 &&
			git -C "$tmp" -c user.name="Kernel Overlay Tests" -c user.email=tests@kernel-overlay.invalid \
				commit -q -m "Linux $1 (Debian linux-source-$1, unpacked)" &&
			mv "$tmp" "$dir"; }; then
			rm -rf "$tmp"
			return 1
		fi
	fi
	echo "$dir"
}

# git_patch OLD NEW PATH: on stdout, a patch as git writes it ("diff
# --git a/PATH b/PATH", an index line) that changes PATH from the content
# of the file OLD to that of the file NEW: what the scripts take (a plain
# "diff -u" has no "diff --git" section).
git_patch() {
	local d rc=0
	d=$(mktemp -d "$TEST_DIR/.git-patch.XXXXXX") || return 1
	if ! { mkdir -p "$d/a/$(dirname "$3")" "$d/b/$(dirname "$3")" &&
		cp "$1" "$d/a/$3" && cp "$2" "$d/b/$3"; }; then
		rm -rf "$d"
		return 1
	fi
	(cd "$d" && git diff --no-index --no-prefix "a/$3" "b/$3") || rc=$?
	rm -rf "$d"
	# git diff exits 1 when the files differ.
	[ "$rc" -eq 1 ] || fail "git_patch $3: exit $rc from git diff, want 1 (a difference)"
}

# pristine_sum VER: tree_sum of VER's pristine tree, taken once and kept
# under build/tests/ by the checksum get-kernel took when it unpacked the
# tree (TREE.md5): the same content gives the same sum, and t0999 checks
# the tree against that checksum after every other test.  Kept, it is also
# what the tree was before any test ran: a write in place to a hard-linked
# copy, which changes the pristine tree with it, still shows.
pristine_sum() {
	local tree memo
	tree=$(kernel_tree "$1") && [ -s "$tree.md5" ] || return 1
	# Keyed by tree_sum's own definition too: another format, another sum.
	memo=$TOP/build/tests/.pristine-sum/$1-$(cat "$tree.md5")-$(declare -f tree_sum | md5sum | cut -c1-12)
	if [ ! -s "$memo" ]; then
		mkdir -p "${memo%/*}" && tree_sum "$tree" >"$memo.$$" && mv -f "$memo.$$" "$memo" || return 1
	fi
	cat "$memo"
}

# tree_sum DIR: a checksum of every entry under DIR: its path, type, mode,
# link target and, for a file, its content.  Content hashes are kept in
# TREE_SUM_CACHE (build/tests/.content-md5) by the file's identity (device, inode, birth
# time, size, mtime): a write changes the mtime and a new file has a new
# birth, so only files not seen as they are now are read.  A hard-linked
# copy of a pristine tree (copy_tree) is then summed without reading its
# 1.7 GB: 2.4 s instead of 10.7 for 6.12 (2026-12-04, the 2-core VM),
# 4.3 s once the cache held 358,000 entries (2026-12-05).  A tree with
# a tab, a newline or a backslash in a name, and a small tree (under
# 20000 files: the mini trees of t0035, whose tar takes a few ms, where
# reading the cache would take a second), are summed whole, with tar.
tree_sum() {
	local dir=$1 cache=${TREE_SUM_CACHE:-$TOP/build/tests/.content-md5} tmp rc=0
	if [ "$(find "$dir" -type f -print 2>/dev/null | head -n 20000 | wc -l)" -lt 20000 ] ||
		[ -n "$(find "$dir" \( -name $'*\t*' -o -name $'*\n*' -o -name '*\\*' \) -print -quit)" ]; then
		tar -C "$dir" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - . |
			md5sum | cut -d' ' -f1
		return
	fi
	mkdir -p "$TOP/build/tests" "$(dirname "$cache")" && touch "$cache" || return 1
	tmp=$(mktemp -d "$TOP/build/tests/.tree-sum.XXXXXX") || return 1
	(
		set -o pipefail
		cd "$dir" &&
			find . -mindepth 1 -printf '%y\t%m\t%P\t%l\n' >"$tmp/entries" &&
			find . -type f -print0 | xargs -0 -r stat -c '%n	%d:%i:%.9W:%s:%.9Y' >"$tmp/ids" &&
			# One pass over the cache, keeping only what this tree asks
			# for: the content of each file it knows ("known"), and the
			# files it does not know with their identities ("unknown").
			awk -F'\t' -v unknown="$tmp/unknown" '
				FILENAME == ARGV[1] { n++; path[n] = $1; id[n] = $2; want[$2] = 1; next }
				$1 in want { md5[$1] = $2 }
				END {
					for (i = 1; i <= n; i++)
						if (id[i] in md5) print path[i] "\t" md5[id[i]]
						else print path[i] "\t" id[i] >unknown
				}' "$tmp/ids" "$cache" >"$tmp/known" &&
			touch "$tmp/unknown" &&
			# Those are hashed (two processes).
			cut -f1 "$tmp/unknown" | xargs -d "\n" -r -n 500 -P 2 md5sum >"$tmp/hashed" &&
			awk 'FILENAME == ARGV[1] { split($0, f, "\t"); id[f[1]] = f[2]; next }
				{ h = substr($0, 1, 32); p = substr($0, 35); print id[p] "\t" h "\t" p }' \
				"$tmp/unknown" "$tmp/hashed" >"$tmp/new" &&
			# Into the cache, under its lock, only files last written two
			# seconds ago or more: file times come from a coarse clock, and
			# a write in the same tick as the hash would keep the identity
			# (git's "racily clean" entries).
			awk -F'\t' -v old="$(($(date +%s) - 2))" '{ n = split($1, k, ":"); if (k[n] + 0 < old) print $1 "\t" $2 }' \
				"$tmp/new" | flock "$cache" tee -a "$cache" >/dev/null &&
			awk -F'\t' 'FILENAME == ARGV[1] { content[$1] = $2; next }
				FILENAME == ARGV[2] { content[$3] = $2; next }
				{ print $1 "\t" $2 "\t" $3 "\t" $4 "\t" ($1 == "f" ? content["./" $3] : "") }' \
				"$tmp/known" "$tmp/new" "$tmp/entries" | LC_ALL=C sort | md5sum | cut -d' ' -f1
	) || rc=$?
	rm -rf "$tmp"
	return $rc
}

# mark_tree DIR / expect_untouched DIR: nothing under DIR was written,
# created, removed, renamed or chmod-ed between the two.  The quick check is
# ctime, so that a restored mtime does not hide a write; but another test
# hard-linking the same pristine tree meanwhile changes the ctime of every
# shared inode (a cold make test saw it), so a file whose ctime moved is
# judged by its entry in a listing made at mark time: type, inode, size,
# mtime, mode and link target, not ctime or link count.  What that misses
# is a write in place that keeps the size and puts the mtime back; on a
# hard-linked file it would change the pristine tree too, which t0999
# checks.
# The sleep: file times come from a coarse clock (one tick is a few ms).
tree_listing() {
	find "$1" -printf '%y %i %s %T@ %m %p\t%l\n'
}
mark_tree() {
	local mark
	mark=$TEST_DIR/.mark-$(basename "$1")
	tree_listing "$1" >"$mark.list" && touch "$mark" && sleep 0.05
}
expect_untouched() {
	local mark changed
	mark=$TEST_DIR/.mark-$(basename "$1")
	[ -n "$(find "$1" -cnewer "$mark" -print -quit)" ] || return 0
	changed=$(LC_ALL=C comm -3 <(tree_listing "$1" | LC_ALL=C sort) <(LC_ALL=C sort "$mark.list") |
		sed -E 's/^\t?([^ ]* ){5}//; s/\t.*//; q')
	[ -z "$changed" ] || fail "$changed was changed"
}

# detach FILE...: give a hard-linked file its own inode before editing it
# in place, so that the pristine tree is not edited with it.
detach() {
	local f
	for f in "$@"; do
		cp -p "$f" "$f.detach" && mv -f "$f.detach" "$f"
	done
}
