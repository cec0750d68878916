# shellcheck shell=bash
# TAP for the shell tests, after git's t/test-lib.sh: each test is a
# description and a body evaluated with 'set -e' in a subshell; the plan is
# printed at the end.  Source it first thing in a test file.

set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SCRIPTS=$TOP/scripts
TEST_NAME=$(basename "$0" .t)
# Under build/, on the file system of the pristine trees, so that
# copy_tree can hard-link.
TEST_DIR=$TOP/build/tests/$TEST_NAME
export PATH="$SCRIPTS:$PATH" TOP SCRIPTS TEST_DIR

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

# test_expect_success DESCRIPTION BODY
test_expect_success() {
	_test_n=$((_test_n + 1))
	local out=$TEST_DIR/.out.$_test_n rc=0
	# The body's status is taken after it ran, not in an "if": bash ignores
	# set -e in any command an "if", "&&" or "||" tests, and a failed check
	# inside a loop would then go unnoticed unless it was the last one.
	(
		set -e
		eval "$2"
	) >"$out" 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		echo "ok $_test_n - $1"
	else
		_test_failed=$((_test_failed + 1))
		echo "not ok $_test_n - $1"
		sed 's/^/#   /' "$out"
	fi
}

# test_skip DESCRIPTION REASON
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

# --- assertions for test bodies -----------------------------------------

fail() {
	printf 'FAIL: %s\n' "$*" >&2
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

# expect_last_error PATTERN: stderr of the last expect_exit has exactly one
# error line, the last one, matching PATTERN (progress lines and the
# commands run may come before it).
expect_last_error() {
	expect_eq "$(grep -c ': error: ' "$TEST_DIR/stderr")" 1 "error lines" || return 1
	tail -n 1 "$TEST_DIR/stderr" | grep -Eq "^[a-z0-9-]+: error: .*$1" ||
		fail "last stderr line '$(tail -n 1 "$TEST_DIR/stderr")' does not match '$1'"
}

# newest_kbuild VERSION TARGET: the O= directory of the newest finished
# build of TARGET for kernel VERSION (6.12: any 6.12.N) under build/kbuild/
# (scripts/build-kernel), or nothing.
newest_kbuild() {
	local d best=''
	for d in "$TOP/build/kbuild/$1".*-"$2"-*; do
		# The target's default toolchain: VERSION-TARGET-HASH, not
		# VERSION-TARGET-clang-22-HASH (build-kernel --toolchain).
		[[ ${d##*/} =~ ^[0-9.]+-$2-[0-9a-f]+$ ]] || continue
		[ -f "$d/vmlinux" ] || continue
		if [ -z "$best" ] || [ "$d/vmlinux" -nt "$best/vmlinux" ]; then
			best=$d
		fi
	done
	printf '%s\n' "$best"
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

# copy_tree VER NAME: a hard-linked copy of the pristine tree, for this test.
copy_tree() {
	"$SCRIPTS/copy-tree" --link "$(kernel_tree "$1")" "$TEST_DIR/$2" 2>/dev/null
	echo "$TEST_DIR/$2"
}

# git_tree VER: a git work tree of the pristine tree, one commit, made on
# first use under build/git/ (a hard-linked copy, so about a minute and
# the object store only) and shared by the tests that need git.  Read it,
# never write it: its files are the pristine tree's.
git_tree() {
	local dir=$TOP/build/git/linux-$1 tmp
	if [ ! -d "$dir/.git" ]; then
		tmp=$dir.tmp.$$
		rm -rf "$tmp"
		mkdir -p "$(dirname "$dir")"
		if ! { "$SCRIPTS/copy-tree" --link "$(kernel_tree "$1")" "$tmp" >/dev/null 2>&1 &&
			git -C "$tmp" init -q &&
			git -C "$tmp" -c core.looseCompression=1 add -A -f &&
			git -C "$tmp" -c user.name="Kernel Overlay Tests" -c user.email=tests@kernel-overlay.invalid \
				commit -q -m "Linux $1 (Debian linux-source-$1, unpacked)" &&
			mv "$tmp" "$dir"; }; then
			rm -rf "$tmp"
			return 1
		fi
	fi
	echo "$dir"
}

# pristine_sum VER: the checksum recorded when the pristine tree was unpacked.
pristine_sum() { cat "$(kernel_tree "$1").md5"; }

# tree_sum DIR: same definition as scripts/get-kernel: every entry's name,
# type, mode, link target and content.
tree_sum() {
	tar -C "$1" --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf - . |
		md5sum | cut -d' ' -f1
}

# mark_tree DIR / expect_untouched DIR: nothing under DIR was written,
# renamed or chmod-ed between the two (ctime, so a restored mtime does not
# hide a write).  Much cheaper than tree_sum on a whole kernel tree; no
# hard-linked copy of DIR may be made or removed in between.
# The sleep: file times come from a coarse clock (one tick is a few ms).
mark_tree() { touch "$TEST_DIR/.mark-$(basename "$1")" && sleep 0.05; }
expect_untouched() {
	local changed
	changed=$(find "$1" -cnewer "$TEST_DIR/.mark-$(basename "$1")" -print -quit)
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
