#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# checkpatch.pl --strict on every patch of every base, from the tree of
# its line (7.3 for mainline, else 6.12).
# Three message types are ignored (CHECKPATCH_IGNORE, as scripts/check
# does): UNKNOWN_COMMIT_ID, because the commits the mainline patches fix
# (a339671db64b for unaligned.h, fe59e0358d9b for clear_user.S) cannot be
# looked up: the Debian trees have no git history; FILE_PATH_CHANGES
# ("does MAINTAINERS need updating?"), which every new file raises: on the
# stable lines the KUnit test is a vendor carry no section owns (mainline's
# 0006 adds it to GENERIC VDSO LIBRARY);
# MISSING_SIGN_OFF, on a patch this project wrote: its stored form has no
# Signed-off-by (no person to give the DCO), scripts/export adds the
# submitter's.  A patch that carries someone's posted change has their
# Signed-off-by, and no patch has one of the placeholder identity.  A
# stable backport is the upstream commit verbatim: the findings about its
# message (CHECKPATCH_STABLE_MESSAGE: the "commit <id> upstream." line,
# upstream's long lines and tags) are upstream's, and so are its Fixes:
# ids unknown to the tree.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=scripts/lib/common.sh
. "$SCRIPTS/lib/common.sh"
export CHECKPATCH_IGNORE CHECKPATCH_STABLE_MESSAGE
# The identity the stored patches of this project's own changes carry as
# From: (git am needs one): no person.
placeholder="Seed 8fb4d3ac maintainers"
# author PATCH: its From: header, unfolded.
author() {
	awk '!NF { exit } /^From: / { v = substr($0, 7); on = 1; next }
		on && /^[ \t]/ { sub(/^[ \t]+/, " "); v = v $0; next } { on = 0 } END { print v }' "$1"
}
# ignores PATCH: what checkpatch ignores on PATCH.
ignores() {
	if grep -qx "Kind: stable backport .*" "$1"; then
		echo "$CHECKPATCH_IGNORE,$CHECKPATCH_STABLE_MESSAGE"
	else
		echo "$CHECKPATCH_IGNORE"
	fi
}
export placeholder
export -f author ignores

# The mainline patches (and the mainline ports of patches/repro/) are
# checked by the checkpatch.pl of the tree they go to, 7.3's (it takes a
# Link: after a Reported-by:, 6.12's asks for Closes:); the others by
# 6.12's.
ktree=$(kernel_tree 6.12) mtree=$(kernel_tree 7.3)
export ktree mtree

# checkpatch PATCH [ARGS...]: run from the top of the tree, as intended.
checkpatch() {
	local p=$1 t=$ktree
	shift
	case $p in */patches/mainline/* | */patches/repro/mainline-* | */patches/repro/7.*) t=$mtree ;; esac
	(cd "$t" && ./scripts/checkpatch.pl --strict --color=never "$@" "$p")
}
export -f checkpatch

test_expect_success 'no errors, warnings or checks on any patch' '
	for p in "$TOP"/patches/*/*.patch; do
		checkpatch "$p" --ignore "$(ignores "$p")" >"$TEST_DIR/out" || { cat "$TEST_DIR/out"; fail "$p"; }
		grep -q "^total: 0 errors, 0 warnings, 0 checks" "$TEST_DIR/out" || { cat "$TEST_DIR/out"; fail "$p"; }
	done
'

test_expect_success 'the ignored types hide only the Fixes: ids, the new-file nudge and the sign-off of our own changes' '
	for p in "$TOP"/patches/*/*.patch; do
		checkpatch "$p" --show-types >"$TEST_DIR/out" || true
		# MISSING_SIGN_OFF only where the author is the placeholder.
		own=0 && case $(author "$p") in "$placeholder"*) own=1 ;; esac
		stable="^$" && ! grep -qx "Kind: stable backport .*" "$p" ||
			stable="^(ERROR|WARNING):(${CHECKPATCH_STABLE_MESSAGE//,/|}):|^WARNING:UNKNOWN_COMMIT_ID: Unknown commit id .(ca96b162bfd2|034ff37d3407|a5624566431d)."
		grep -E "^(ERROR|WARNING|CHECK):" "$TEST_DIR/out" |
			grep -Ev "$stable" |
			grep -Ev "^WARNING:UNKNOWN_COMMIT_ID: Unknown commit id .(a339671db64b|fe59e0358d9b|b5322b6ec06a|10a62a0611f5)." |
			grep -v "^WARNING:FILE_PATH_CHANGES: added, moved or deleted file(s), does MAINTAINERS need updating?" |
			{ if [ "$own" -gt 0 ]; then grep -v "^ERROR:MISSING_SIGN_OFF: Missing Signed-off-by: line(s)$"; else cat; fi; } |
			grep . && fail "$p" || true
	done
'

test_expect_success 'no stored patch signs off as the placeholder; a posted change keeps its author'"'"'s sign-off' '
	grep -l "^Signed-off-by: $placeholder" "$TOP"/patches/*/*.patch && fail "the placeholder signs off" || true
	for p in "$TOP"/patches/*/*.patch; do
		from=$(author "$p" | tr -d "\"")
		case $from in "$placeholder"*) continue ;; esac
		grep -qxF "Signed-off-by: $from" "$p" || fail "$p: From: $from without a Signed-off-by of that person"
	done
'

test_expect_success 'a planted defect (trailing whitespace) is reported' '
	sed "0,/^+\t\.p2align 4$/s//&  /" "$TOP/patches/mainline/0004-arm64-clear-user-loop-label.patch" >"$TEST_DIR/bad.patch" &&
	! checkpatch "$TEST_DIR/bad.patch" >"$TEST_DIR/out" &&
	grep -q "^ERROR: trailing whitespace" "$TEST_DIR/out"
'

test_done
