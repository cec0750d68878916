#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# checkpatch.pl --strict from the 6.12 tree on every patch of every base.
# Two message types are ignored: UNKNOWN_COMMIT_ID, because the commits
# the mainline patches fix (a339671db64b for unaligned.h, fe59e0358d9b for
# clear_user.S) cannot be looked up: the Debian trees have no git history; FILE_PATH_CHANGES
# ("does MAINTAINERS need updating?"), which every new file raises: the
# KUnit test lib/unaligned_kunit.c needs no section of its own.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

ktree=$(kernel_tree 6.12)
export ktree

# checkpatch PATCH [ARGS...]: run from the top of the tree, as intended.
checkpatch() {
	local p=$1
	shift
	(cd "$ktree" && ./scripts/checkpatch.pl --strict --color=never "$@" "$p")
}
export -f checkpatch

test_expect_success 'no errors, warnings or checks on any patch' '
	for p in "$TOP"/patches/*/*.patch; do
		checkpatch "$p" --ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES >"$TEST_DIR/out" || { cat "$TEST_DIR/out"; fail "$p"; }
		grep -q "^total: 0 errors, 0 warnings, 0 checks" "$TEST_DIR/out" || { cat "$TEST_DIR/out"; fail "$p"; }
	done
'

test_expect_success 'the ignored types hide only the Fixes: ids and the new-file nudge' '
	for p in "$TOP"/patches/*/*.patch; do
		checkpatch "$p" --show-types >"$TEST_DIR/out" || true
		grep -E "^(ERROR|WARNING|CHECK):" "$TEST_DIR/out" |
			grep -Ev "^WARNING:UNKNOWN_COMMIT_ID: Unknown commit id .(a339671db64b|fe59e0358d9b)." |
			grep -v "^WARNING:FILE_PATH_CHANGES: added, moved or deleted file(s), does MAINTAINERS need updating?" &&
			fail "$p" || true
	done
'

test_expect_success 'a planted defect (trailing whitespace) is reported' '
	sed "0,/^+\t\.p2align 4$/s//&  /" "$TOP/patches/mainline/0004-arm64-clear-user-loop-label.patch" >"$TEST_DIR/bad.patch" &&
	! checkpatch "$TEST_DIR/bad.patch" >"$TEST_DIR/out" &&
	grep -q "^ERROR: trailing whitespace" "$TEST_DIR/out"
'

test_done
