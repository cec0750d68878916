#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/apply against a hostile world: a full file system or no inodes
# left (small tmpfs mounts in a private mount namespace), a read-only bind
# mount, symlinks planted at the tool's own paths, a patch that makes a
# symlink or a new directory, a patch partly in the tree, the user's git
# state (a rebase in progress, an assume-unchanged file, a git am that
# fails), the owner of the tree, and an output it cannot write.  Each
# ends with a one-line error or the right result; the tree is pristine or
# fully applied, never in between.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=tests/suite/patches.sh
. "$(dirname "$0")/patches.sh"

export -f tree_sum

mini_tree 7.3 "$TEST_DIR/pristine"
tree_sum "$TEST_DIR/pristine" >"$TEST_DIR/pristine.sum"
cp -a "$TEST_DIR/pristine" "$TEST_DIR/applied"
apply "$TEST_DIR/applied" >/dev/null 2>&1
tree_sum "$TEST_DIR/applied" >"$TEST_DIR/applied.sum"
size=$(du -sk "$TEST_DIR/pristine" | cut -f1)
export size

# in_tmpfs OPTIONS BODY: BODY in a private mount namespace with a tmpfs of
# OPTIONS on $TEST_DIR/m, the pristine mini tree copied to $TEST_DIR/m/t.
in_tmpfs() {
	unshare -m bash -c 'set -e; mount -t tmpfs -o "$1" tmpfs "$TEST_DIR/m"; cp -a "$TEST_DIR/pristine" "$TEST_DIR/m/t"; eval "$2"' _ "$1" "$2"
}
export -f in_tmpfs
mkdir -p "$TEST_DIR/m"

test_expect_success 'a full file system at several levels: refused in one line, or applied; never half' '
	for free in 0 8 32 96 160 256 512; do
		rc=0
		in_tmpfs "size=$((size + 600))k" "
			fill=\$(( \$(df -P -k \"$TEST_DIR/m\" | awk \"NR == 2 { print \\\$4 }\") - $free ))
			[ \$fill -le 0 ] || dd if=/dev/zero of=\"$TEST_DIR/m/fill\" bs=1k count=\$fill status=none 2>/dev/null || true
			rc=0; apply \"$TEST_DIR/m/t\" >\"$TEST_DIR/out\" 2>\"$TEST_DIR/err\" || rc=\$?
			echo \$rc >\"$TEST_DIR/rc\"
			tree_sum \"$TEST_DIR/m/t\" >\"$TEST_DIR/sum\"
			leftovers \"$TEST_DIR/m/t\" >\"$TEST_DIR/left\"
		" || fail "the tmpfs run with ${free}k free"
		rc=$(cat "$TEST_DIR/rc") got=$(cat "$TEST_DIR/sum")
		if [ "$rc" = 0 ]; then
			expect_eq "$got" "$(cat "$TEST_DIR/applied.sum")" "applied with ${free}k free"
		else
			expect_eq "$got" "$(cat "$TEST_DIR/pristine.sum")" "refused with ${free}k free (exit $rc)"
			expect_eq "$(wc -l <"$TEST_DIR/err")" 1 "error lines with ${free}k free: $(cat "$TEST_DIR/err")"
			grep -Eq "^apply: error: .*(free|failed)" "$TEST_DIR/err" || fail "${free}k free: $(cat "$TEST_DIR/err")"
		fi
		expect_eq "$(cat "$TEST_DIR/left")" "" "left over with ${free}k free"
		note "${free}k free: exit $rc"
	done
'

test_expect_success 'no inodes left: refused in one line, the tree untouched' '
	n=$(find "$TEST_DIR/pristine" | wc -l) &&
	in_tmpfs "size=20m,nr_inodes=$((n + 3))" "
		rc=0; apply \"$TEST_DIR/m/t\" >\"$TEST_DIR/out\" 2>\"$TEST_DIR/err\" || rc=\$?
		echo \$rc >\"$TEST_DIR/rc\"; tree_sum \"$TEST_DIR/m/t\" >\"$TEST_DIR/sum\"
	" &&
	expect_eq "$(cat "$TEST_DIR/rc")" 3 "exit" &&
	expect_one_line_error_in "$TEST_DIR/err" "inodes free" &&
	expect_eq "$(cat "$TEST_DIR/sum")" "$(cat "$TEST_DIR/pristine.sum")" tree
'

test_expect_success 'a tree on a read-only bind mount: refused in one line' '
	cp -a "$TEST_DIR/pristine" "$TEST_DIR/ro" &&
	unshare -m bash -c "mount --bind \"$TEST_DIR/ro\" \"$TEST_DIR/ro\" && mount -o remount,bind,ro \"$TEST_DIR/ro\" &&
		{ apply \"$TEST_DIR/ro\" >/dev/null 2>\"$TEST_DIR/err\"; echo \$? >\"$TEST_DIR/rc\"; }" &&
	expect_eq "$(cat "$TEST_DIR/rc")" 3 exit &&
	expect_one_line_error_in "$TEST_DIR/err" "read-only" &&
	expect_eq "$(tree_sum "$TEST_DIR/ro")" "$(cat "$TEST_DIR/pristine.sum")" tree
'

test_expect_success 'symlinks at the record directory or a file in it: refused, nothing written outside' '
	mkdir -p "$TEST_DIR/outside" &&
	cp -a "$TEST_DIR/pristine" "$TEST_DIR/s1" && ln -s "$TEST_DIR/outside" "$TEST_DIR/s1/.overlay-applied" &&
	expect_exit 3 apply "$TEST_DIR/s1" && expect_one_line_error "overlay-applied: a symlink" &&
	cp -a "$TEST_DIR/applied" "$TEST_DIR/s2" &&
	rm "$TEST_DIR/s2/.overlay-applied/base" && ln -s "$TEST_DIR/outside/base" "$TEST_DIR/s2/.overlay-applied/base" &&
	expect_exit 3 apply --reverse "$TEST_DIR/s2" && expect_one_line_error "a symlink in the record" &&
	expect_eq "$(ls -A "$TEST_DIR/outside")" "" "written outside the tree"
'

test_expect_success 'a patch that makes a symlink is refused in one line' '
	p=$TEST_DIR/sym-patches && cp -r "$TOP/patches" "$p" &&
	printf "%s\n" "diff --git a/lib/link b/lib/link" "new file mode 120000" \
		"index 0000000000000000000000000000000000000000..86bd9efbdb7dd6fe1bf2ddb4c8a2b23f0462ff1e" \
		"--- /dev/null" "+++ b/lib/link" "@@ -0,0 +1 @@" "+/etc/passwd" "\\ No newline at end of file" >>"$p/mainline/$P6" &&
	cp -a "$TEST_DIR/pristine" "$TEST_DIR/sym" &&
	expect_exit 3 apply --patches "$p" "$TEST_DIR/sym" && expect_one_line_error "creates the symlink lib/link" &&
	expect_eq "$(tree_sum "$TEST_DIR/sym")" "$(cat "$TEST_DIR/pristine.sum")" tree
'

test_expect_success 'a new directory: made by the run as the dry run said, removed by --reverse' '
	cp -a "$TEST_DIR/pristine" "$TEST_DIR/nd" &&
	p=$TEST_DIR/nd-patches && cp -r "$TOP/patches" "$p" &&
	f=$TOP/overlay/lib/unaligned_kunit.c &&
	{
		printf "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] a file in a new directory\n\n---\n"
		printf "diff --git a/lib/tests/new/x.c b/lib/tests/new/x.c\nnew file mode 100644\n"
		printf "index 0000000000000000000000000000000000000000..%s\n" "$(git hash-object "$f")"
		printf -- "--- /dev/null\n+++ b/lib/tests/new/x.c\n@@ -0,0 +1,%d @@\n" "$(wc -l <"$f")"
		sed "s/^/+/" "$f"
	} >"$p/mainline/0007-new-dir.patch" &&
	echo 0007-new-dir.patch >>"$p/mainline/series" &&
	expect_exit 0 apply --dry-run --patches "$p" "$TEST_DIR/nd" &&
	expect_statuses "0007-new-dir.patch=applied" &&
	expect_exit 0 apply --patches "$p" "$TEST_DIR/nd" &&
	cmp "$f" "$TEST_DIR/nd/lib/tests/new/x.c" &&
	expect_exit 0 apply --reverse "$TEST_DIR/nd" &&
	test ! -e "$TEST_DIR/nd/lib/tests/new" &&
	expect_eq "$(tree_sum "$TEST_DIR/nd")" "$(cat "$TEST_DIR/pristine.sum")" tree
'

test_expect_success 'a patch partly in the tree (a vendor took its Kconfig entry): refused, each file named' '
	cp -a "$TEST_DIR/pristine" "$TEST_DIR/part" &&
	cp "$TEST_DIR/applied/lib/Kconfig.debug" "$TEST_DIR/part/lib/Kconfig.debug" &&
	expect_exit 1 apply "$TEST_DIR/part" &&
	expect_statuses "$P6=partly present" &&
	grep -q "lib/Kconfig.debug: at its post-image; lib/tests/Makefile: at its pre-image" "$TEST_DIR/stdout" &&
	! grep -q "result: [0-9]* file(s) changed" "$TEST_DIR/stdout"
'

test_expect_success 'an output it cannot write: exit 2 before the tree is touched' '
	cp -a "$TEST_DIR/pristine" "$TEST_DIR/outp" &&
	expect_exit 2 apply --json "$TEST_DIR/nowhere/x.json" "$TEST_DIR/outp" &&
	expect_one_line_error "cannot write in" &&
	expect_eq "$(tree_sum "$TEST_DIR/outp")" "$(cat "$TEST_DIR/pristine.sum")" tree
'

test_expect_success 'a tree of another owner: what the run makes is the owner'"'"'s' '
	cp -a "$TEST_DIR/pristine" "$TEST_DIR/own" && chown -R 4321:4321 "$TEST_DIR/own" &&
	expect_exit 0 apply "$TEST_DIR/own" &&
	expect_eq "$(find "$TEST_DIR/own" ! -uid 4321 | head -n 3)" "" "files not of the owner" &&
	expect_exit 0 apply --reverse "$TEST_DIR/own"
'

test_expect_success 'TMPDIR inside the tree: a dry run creates nothing there' '
	cp -a "$TEST_DIR/pristine" "$TEST_DIR/tmpin" && mkdir "$TEST_DIR/tmpin/tmp" &&
	TMPDIR=$TEST_DIR/tmpin/tmp expect_exit 0 apply --dry-run "$TEST_DIR/tmpin" &&
	expect_eq "$(ls -A "$TEST_DIR/tmpin/tmp")" "" "files in TMPDIR"
'

# git_mini NAME: a git work tree of the pristine mini tree, one commit.
git_mini() {
	cp -a "$TEST_DIR/pristine" "$TEST_DIR/$1" && git -C "$TEST_DIR/$1" init -q &&
		git -C "$TEST_DIR/$1" add -A && git -C "$TEST_DIR/$1" -c user.name=t -c user.email=t@t commit -qm base &&
		echo "$TEST_DIR/$1"
}
export -f git_mini

test_expect_success '--git: a rebase, an am, a merge in progress: refused, the state untouched' '
	g=$(git_mini g1) && head=$(git -C "$g" rev-parse HEAD) &&
	mkdir "$g/.git/rebase-merge" && echo x >"$g/.git/rebase-merge/head-name" &&
	expect_exit 2 apply --git "$g" && expect_one_line_error "a git rebase is in progress" &&
	test -f "$g/.git/rebase-merge/head-name" && rm -r "$g/.git/rebase-merge" &&
	mkdir "$g/.git/rebase-apply" && expect_exit 2 apply --git "$g" && expect_one_line_error "am or rebase is in progress" &&
	test -d "$g/.git/rebase-apply" && rmdir "$g/.git/rebase-apply" &&
	echo "$head" >"$g/.git/MERGE_HEAD" && expect_exit 2 apply --git "$g" && expect_one_line_error "merge is in progress" &&
	rm "$g/.git/MERGE_HEAD" &&
	expect_eq "$(git -C "$g" rev-parse HEAD)" "$head" HEAD
'

test_expect_success '--git: an assume-unchanged file the series touches: refused, the edit kept' '
	g=$(git_mini g2) && echo "/* mine */" >>"$g/lib/Kconfig.debug" &&
	git -C "$g" update-index --assume-unchanged lib/Kconfig.debug &&
	expect_exit 2 apply --git "$g" && expect_one_line_error "assume-unchanged or skip-worktree" &&
	tail -n 1 "$g/lib/Kconfig.debug" | grep -qx "/\\* mine \\*/"
'

test_expect_success '--git: a git am that fails: HEAD, index and work tree as they were' '
	g=$(git_mini g3) && head=$(git -C "$g" rev-parse HEAD) &&
	# The third patch is refused by a hook of the repository, after the
	# first two were committed in the same am session.
	printf "#!/bin/sh\ngit diff --cached --name-only | grep -q clear_user && exit 1\nexit 0\n" >"$g/.git/hooks/pre-applypatch" &&
	chmod +x "$g/.git/hooks/pre-applypatch" &&
	expect_exit 1 apply --git "$g" &&
	expect_last_error "git am failed on \"arm64: clear_user: Keep the alignment padding out of the store loop\": the tree is back at $head" &&
	expect_eq "$(git -C "$g" rev-parse HEAD)" "$head" HEAD &&
	expect_eq "$(git -C "$g" status --porcelain)" "" status &&
	test ! -d "$g/.git/rebase-apply"
'

test_expect_success 'a record directory left by another tool version: refused in one line, kept as it was' '
	cp -a "$TEST_DIR/pristine" "$TEST_DIR/foreign" &&
	mkdir "$TEST_DIR/foreign/.overlay-applied" &&
	echo "0001-vdso-unaligned-packed-may-alias.patch applied" >"$TEST_DIR/foreign/.overlay-applied/applied-list" &&
	before=$(tree_sum "$TEST_DIR/foreign") &&
	for mode in "" --reverse --dry-run; do
		expect_exit 3 apply $mode "$TEST_DIR/foreign" &&
		expect_one_line_error "foreign/\.overlay-applied: not a record of this scripts/apply \(no series and base files; it holds: applied-list\): move it away" &&
		expect_eq "$(tree_sum "$TEST_DIR/foreign")" "$before" "tree after apply $mode" || return 1
	done &&
	# A record of a line this version does not have.
	rm -r "$TEST_DIR/foreign/.overlay-applied" && cp -a "$TEST_DIR/applied" "$TEST_DIR/foreign2" &&
	echo 5.99 >"$TEST_DIR/foreign2/.overlay-applied/base" &&
	before=$(tree_sum "$TEST_DIR/foreign2") &&
	expect_exit 3 apply --reverse "$TEST_DIR/foreign2" &&
	expect_one_line_error "its base .5\.99. is no line of this project" &&
	expect_eq "$(tree_sum "$TEST_DIR/foreign2")" "$before" "tree after --reverse"
'

# A tree copied to another machine mid-run (cp -r: the kept originals are
# copies there, no longer hard links to the tree'"'"'s files).
test_expect_success 'a journal from a run on another machine: rolled back there, then applied' '
	cp -a "$TEST_DIR/pristine" "$TEST_DIR/here" &&
	OVERLAY_TEST_FAULT_LOG=$TEST_DIR/points apply "$TEST_DIR/here" >/dev/null &&
	apply --reverse "$TEST_DIR/here" >/dev/null &&
	n=$(awk "\$2 == \"write\" { print \$1; exit }" "$TEST_DIR/points") && test -n "$n" &&
	rm "$TEST_DIR/points" &&
	rc=0 && { OVERLAY_TEST_FAULT=$n:KILL apply "$TEST_DIR/here" >/dev/null 2>&1 || rc=$?; } &&
	expect_eq "$rc" 137 "killed at point $n" &&
	test -f "$TEST_DIR/here/.overlay-applied/journal/intent" &&
	cp -r -p "$TEST_DIR/here" "$TEST_DIR/there" &&
	test "$(find "$TEST_DIR/there" -links +1 -type f | wc -l)" -eq 0 &&
	expect_exit 0 apply "$TEST_DIR/there" &&
	grep -q "rolled back an interrupted run" "$TEST_DIR/stderr" &&
	expect_eq "$(tree_sum "$TEST_DIR/there")" "$(cat "$TEST_DIR/applied.sum")" "the copy after apply" &&
	expect_eq "$(leftovers "$TEST_DIR/there")" "" "left over" &&
	expect_exit 0 apply --reverse "$TEST_DIR/there" &&
	expect_eq "$(tree_sum "$TEST_DIR/there")" "$(cat "$TEST_DIR/pristine.sum")" "the copy after --reverse"
'

# An intent without its "end" line was cut short (a crash while it was
# written): nothing of the tree was written after it, so the next run only
# removes the journal.  A rollback of it would take its last, cut path for
# a file the run created and remove it.
test_expect_success 'an intent cut short (no end line): the journal removed, nothing of the tree touched' '
	cp -a "$TEST_DIR/pristine" "$TEST_DIR/cut" &&
	echo "user data" >"$TEST_DIR/cut/lib/te" &&
	mkdir -p "$TEST_DIR/cut/.overlay-applied/journal/orig" &&
	printf "txid 1-2\nrecord-dir made\nreplace 1 %s include/vdso/unaligned.h\ncreate 2 - lib/te" \
		"$(git hash-object "$TEST_DIR/cut/include/vdso/unaligned.h")" >"$TEST_DIR/cut/.overlay-applied/journal/intent" &&
	expect_exit 1 apply --dry-run "$TEST_DIR/cut" &&
	expect_exit 0 apply "$TEST_DIR/cut" &&
	grep -q "removed the journal of a run interrupted before it wrote anything" "$TEST_DIR/stderr" &&
	expect_eq "$(cat "$TEST_DIR/cut/lib/te")" "user data" "the user file the cut path names" &&
	rm "$TEST_DIR/cut/lib/te" &&
	expect_eq "$(tree_sum "$TEST_DIR/cut")" "$(cat "$TEST_DIR/applied.sum")" "the tree after apply"
'

# A second apply trusts the record of the first (its blobs file) as quilt
# trusts .pc/: no patch is tried again; a touched file edited since, or a
# patch changed in the series, is tried again.  GNU patch is counted
# through a shim first on PATH.
test_expect_success 'apply again trusts the record: no patch run; an edited file or patch is tried again' '
	cp -a "$TEST_DIR/applied" "$TEST_DIR/again" &&
	mkdir -p "$TEST_DIR/shim" &&
	printf "#!/bin/sh\necho \"\$*\" >>\"%s\"\nexec /usr/bin/patch \"\$@\"\n" "$TEST_DIR/patch-runs" >"$TEST_DIR/shim/patch" &&
	chmod +x "$TEST_DIR/shim/patch" &&
	PATH=$TEST_DIR/shim:$PATH expect_exit 0 apply "$TEST_DIR/again" &&
	expect_statuses "$P1=already present" "$P4=already present" "$P6=already present" &&
	test ! -e "$TEST_DIR/patch-runs" &&
	echo "/* vendor */" >>"$TEST_DIR/again/arch/arm64/lib/clear_user.S" &&
	cp -R "$TOP/patches" "$TEST_DIR/patches" &&
	# Another 0005: its index line names another post-image, so neither
	# the record nor the blobs decide it.
	sed -i "s/^index \([0-9a-f]*\)\.\.[0-9a-f]*/index \1..1234567890123456789012345678901234567890/" "$TEST_DIR/patches/mainline/$P5" &&
	PATH=$TEST_DIR/shim:$PATH expect_exit 0 apply --patches "$TEST_DIR/patches" "$TEST_DIR/again" &&
	expect_statuses "$P4=already present" "$P5=already present" &&
	expect_eq "$(grep -o "0[0-9]*-[a-z0-9-]*\.patch" "$TEST_DIR/patch-runs" | sort -u | paste -sd " " -)" "$P4 $P5" "patches tried"
'

test_done
