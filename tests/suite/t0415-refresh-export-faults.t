#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/refresh and scripts/export under faults: a full disk, a git
# repository mid-rebase, option values that are options, malformed
# patches, two exports into one place at once, a symlink as the output,
# and the 6.1 line (no arch/ in its series).  Small trees only: the files
# the series touch, and a git repository made of those.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=tests/suite/patches.sh
. "$(dirname "$0")/patches.sh"

export GIT_COMMITTER_NAME="Kernel Overlay Tests" GIT_COMMITTER_EMAIL=tests@kernel-overlay.invalid
export GIT_AUTHOR_NAME="$GIT_COMMITTER_NAME" GIT_AUTHOR_EMAIL="$GIT_COMMITTER_EMAIL"

# A small 6.12 tree whose include/vdso/unaligned.h has three lines more at
# the top: refresh rewrites 0001 (its hunk moves).
shifted=$TEST_DIR/shifted
mini_tree 6.12 "$shifted"
sed -i '1i # vendor: three lines\n# that shift\n# every hunk' "$shifted/include/vdso/unaligned.h"
export shifted

# mini_git VER DIR: a git repository (one commit) of VER's small tree and
# what export reads besides: the top-level files, scripts/ (checkpatch.pl,
# get_maintainer.pl), LICENSES and a small directory under each top-level
# one that those scripts look for, arch/ among them.
mini_git() {
	local src d
	src=$(kernel_tree "$1")
	mini_tree "$1" "$2"
	find "$src" -maxdepth 1 -type f -exec cp -p {} "$2/" \;
	for d in scripts LICENSES Documentation/dev-tools arch/x86/tools drivers/base fs/proc init ipc kernel/configs lib/kunit include/vdso; do
		mkdir -p "$2/$(dirname "$d")" && cp -pR "$src/$d" "$2/$(dirname "$d")/" || return 1
	done
	cp -p "$src/arch/Kconfig" "$2/arch/"
	git -C "$2" init -q && git -C "$2" add -A -f &&
		git -C "$2" commit -q -m "Linux $1, the files export reads"
}
repo61=$TEST_DIR/git-6.1
mini_git 6.1 "$repo61"
# Its evidence, as 'make' writes a results.json: the apply stage of a dry
# run on it, through scripts/report (export writes no mail without).
# shellcheck source=scripts/lib/common.sh
. "$SCRIPTS/lib/common.sh"
# shellcheck source=scripts/lib/results.sh
. "$SCRIPTS/lib/results.sh"
rep=$TEST_DIR/report61
mkdir -p "$rep/stages"
: >"$TEST_DIR/inputs"
"$SCRIPTS/apply" --dry-run --json "$rep/stages/apply.json" "$repo61" >/dev/null
stage_wrap "$rep/stages/apply.json" apply series series 0 1 "$TEST_DIR/inputs"
"$SCRIPTS/report" "$rep" 2>/dev/null
results61=$rep/results.json
export repo61 results61

# refresh_full_disk: in a small file system (in_small_fs), a copy of the
# 6.12 patches, the disk filled, then refresh: its exit code and output
# outside, and whether the old set is still there byte for byte.
refresh_full_disk() {
	mkdir -p "$TEST_DIR/m/p" && cp -pR "$TOP/patches/6.12" "$TEST_DIR/m/p/" && fill_fs "$TEST_DIR/m"
	rc=0
	refresh --base 6.12 --patches "$TEST_DIR/m/p" "$shifted" >"$TEST_DIR/stdout" 2>"$TEST_DIR/stderr" || rc=$?
	echo "$rc" >"$TEST_DIR/rc"
	diff -r "$TOP/patches/6.12" "$TEST_DIR/m/p/6.12" >"$TEST_DIR/diff" 2>&1 || true
	{ ls -A "$TEST_DIR/m/p"; ls -A "$TEST_DIR/m/p/6.12"; } >"$TEST_DIR/ls"
}
# export_full_disk: export of the 6.1 repository into a filled small file
# system.
export_full_disk() {
	fill_fs "$TEST_DIR/m"
	rc=0
	"$SCRIPTS/export" --results "$results61" --tree "$repo61" 6.1 "$TEST_DIR/m/out" >"$TEST_DIR/stdout" 2>"$TEST_DIR/stderr" || rc=$?
	echo "$rc" >"$TEST_DIR/rc"
	ls -A "$TEST_DIR/m" >"$TEST_DIR/ls"
}
export -f refresh_full_disk export_full_disk

test_expect_success 'refresh on a full disk: exit 1, one error line, the old patches byte for byte' '
	in_small_fs size=256k refresh_full_disk &&
	cat "$TEST_DIR/stdout" "$TEST_DIR/stderr" &&
	expect_eq "$(cat "$TEST_DIR/rc")" 1 "exit code" &&
	expect_last_error "cannot write the refreshed patches" &&
	expect_eq "$(cat "$TEST_DIR/diff")" "" "diff of the old set" &&
	expect_eq "$(cat "$TEST_DIR/ls" | paste -sd " " -)" "6.12 $(ls -A "$TOP/patches/6.12" | paste -sd " " -)" "files left"
'

test_expect_success 'refresh rewrites the whole set when it can' '
	rm -rf "$TEST_DIR/p" && cp -pR "$TOP/patches" "$TEST_DIR/p" &&
	expect_exit 0 refresh --base 6.12 --patches "$TEST_DIR/p" "$shifted" &&
	grep -qxF "result: 1 patch(es) rewritten in $TEST_DIR/p/6.12" "$TEST_DIR/stdout" &&
	! cmp -s "$TOP/patches/6.12/$P1" "$TEST_DIR/p/6.12/$P1" &&
	cmp "$TOP/patches/6.12/$P6" "$TEST_DIR/p/6.12/$P6" &&
	expect_eq "$(stat -c %a "$TEST_DIR/p/6.12")" "$(stat -c %a "$TOP/patches/6.12")" "mode of the directory" &&
	expect_eq "$(ls -A "$TEST_DIR/p" | paste -sd " " -)" "$(ls -A "$TOP/patches" | paste -sd " " -)" "patches/"
'

test_expect_success 'refresh --git-copy during a git rebase -i: refused, nothing committed' '
	g=$TEST_DIR/pg && rm -rf "$g" && cp -pR "$TOP/patches" "$g" &&
	git -C "$g" init -q && git -C "$g" add -A && git -C "$g" commit -q -m "the series" &&
	echo notes >"$g/NOTES" && git -C "$g" add NOTES && git -C "$g" commit -q -m notes &&
	GIT_SEQUENCE_EDITOR="sed -i 1s/^pick/edit/" git -C "$g" rebase -q -i HEAD~1 >/dev/null 2>&1 &&
	[ -d "$g/.git/rebase-merge" ] &&
	head=$(git -C "$g" rev-parse HEAD) &&
	expect_exit 2 refresh --base vendor-6.12 --from 6.12 --git-copy --patches "$g" "$shifted" &&
	expect_last_error "a git rebase is in progress" &&
	expect_eq "$(git -C "$g" rev-parse HEAD)" "$head" HEAD &&
	[ ! -e "$g/vendor-6.12" ]
'

test_expect_success 'an option value that is an option is an error (refresh, export)' '
	rm -rf "$TEST_DIR/p" && cp -pR "$TOP/patches" "$TEST_DIR/p" &&
	expect_exit 2 refresh --base --git-copy --patches "$TEST_DIR/p" "$shifted" &&
	expect_one_line_error "--base needs a value" &&
	[ ! -e "$TEST_DIR/p/--git-copy" ] &&
	expect_exit 2 "$SCRIPTS/export" --tree --dry-run 6.1 "$TEST_DIR/x" &&
	expect_one_line_error "--tree needs a value" &&
	expect_exit 2 "$SCRIPTS/export" --tree "$repo61" --results --dry-run 6.1 "$TEST_DIR/x" &&
	expect_one_line_error "--results needs a value" &&
	[ ! -e "$TEST_DIR/x" ]
'

test_expect_success 'refresh: a patch with a header-only diff section is malformed, not a conflict or present' '
	f=$TOP/patches/6.12/$P6 &&
	# Where the cuts go: the lines of the patch that say so.
	mk=$(grep -n "^+++ b/lib/Makefile$" "$f" | cut -d: -f1) &&
	dash=$(grep -n "^---$" "$f" | head -n 1 | cut -d: -f1) &&
	kc=$(grep -n "^+++ b/lib/Kconfig.debug$" "$f" | cut -d: -f1) &&
	for cut in makefile-header hunk-in-message; do
		rm -rf "$TEST_DIR/p" && cp -pR "$TOP/patches" "$TEST_DIR/p" &&
		case $cut in
		makefile-header) sed -n "1,${mk}p" "$f" && want=lib/Makefile ;;
		*) sed -n "1,$((dash - 1))p" "$f" && printf "@@ -1 +1 @@\n-a\n+b\n" &&
			sed -n "$dash,$((kc - 1))p" "$f" && want=lib/Kconfig.debug ;;
		esac >"$TEST_DIR/p/6.12/$P6" &&
		cp "$TEST_DIR/p/6.12/$P6" "$TEST_DIR/bad.patch" &&
		expect_exit 2 refresh --base 6.12 --patches "$TEST_DIR/p" "$shifted" &&
		expect_last_error "$P6: malformed patch: the diff section of $want has no hunk" &&
		cmp "$TEST_DIR/bad.patch" "$TEST_DIR/p/6.12/$P6" &&
		cmp "$TOP/patches/6.12/$P1" "$TEST_DIR/p/6.12/$P1" || return 1
	done
'

test_expect_success 'export of the 6.1 line (its series touches nothing under arch/)' '
	expect_exit 0 "$SCRIPTS/export" --results "$results61" --tree "$repo61" 6.1 "$TEST_DIR/out61" &&
	expect_eq "$(cd "$TEST_DIR/out61" && ls | sed "s/-.*//" | paste -sd " " -)" "0000 0001 0002 0003 git" files &&
	expect_eq "$(grep -c "^  checkpatch: clean$" "$TEST_DIR/stdout")" 3 "patches checkpatch-clean" &&
	grep -q "^Subject: \\[PATCH 6.1.y 0/3\\]" "$TEST_DIR/out61/0000-cover-letter.patch" &&
	# The branch b4 takes over: the same prefix.
	expect_eq "$(git -C "$TEST_DIR/out61/git" log -1 --format=%B "$(git -C "$TEST_DIR/out61/git" rev-list --reverse HEAD | sed -n 2p)" |
		sed -n "/^{/,\$p" | jq -r ".series.prefixes | join(\" \")")" 6.1.y "b4 prefixes" &&
	expect_eq "$(stat -c %a "$TEST_DIR/out61")" "$(mkdir "$TEST_DIR/mode" && stat -c %a "$TEST_DIR/mode")" "mode of OUTDIR"
'

test_expect_success 'the default results.json of another line (the last make was on 7.3): no evidence, refused, nothing written' '
	mkdir -p "$TEST_DIR/b/report" &&
	jq ".base = \"mainline\"" "$TOP/tests/suite/fixtures/results/make-7.3.json" >"$TEST_DIR/b/report/results.json" &&
	BUILD=$TEST_DIR/b expect_exit 1 "$SCRIPTS/export" --tree "$repo61" 6.1 "$TEST_DIR/out61b" &&
	expect_one_line_error "no evidence for .*: .*results.json: made for the mainline series, not 6.1 \\(run .make KERNEL=" &&
	[ ! -e "$TEST_DIR/out61b" ] &&
	expect_exit 2 "$SCRIPTS/export" --tree "$repo61" --results "$TEST_DIR/b/report/results.json" 6.1 "$TEST_DIR/out61c" &&
	expect_last_error "results.json: made for the mainline series, not 6.1" &&
	[ ! -e "$TEST_DIR/out61c" ]
'

test_expect_success 'two exports into one place at once: the second is refused, nothing mixed' '
	out=$TEST_DIR/both &&
	{ "$SCRIPTS/export" --results "$results61" --tree "$repo61" 6.1 "$out" >"$TEST_DIR/a.out" 2>"$TEST_DIR/a.err" & } &&
	pid=$! &&
	for _ in $(seq 300); do grep -q ": clone " "$TEST_DIR/a.err" && break; sleep 0.1; done &&
	grep -q ": clone " "$TEST_DIR/a.err" &&
	expect_exit 4 "$SCRIPTS/export" --reroll 2 --results "$results61" --tree "$repo61" 6.1 "$out" &&
	expect_one_line_error "another export is writing there" &&
	rc=0 && wait "$pid" || rc=$? &&
	expect_eq "$rc" 0 "exit code of the first export" &&
	expect_eq "$(cd "$out" && ls | grep -c "^v2-")" 0 "v2 patches" &&
	expect_eq "$(cd "$out" && ls | wc -l)" 5 "files and the branch"
'

test_expect_success 'export does not write through a symlink at OUTDIR' '
	mkdir -p "$TEST_DIR/elsewhere" && ln -s elsewhere "$TEST_DIR/link" &&
	expect_exit 3 "$SCRIPTS/export" --results "$results61" --tree "$repo61" 6.1 "$TEST_DIR/link" &&
	expect_one_line_error "link: a symlink: refusing to write through it" &&
	expect_eq "$(ls -A "$TEST_DIR/elsewhere")" "" "the symlink target"
'

test_expect_success 'export on a full disk: exit 1, one error line, no OUTDIR, nothing left' '
	in_small_fs size=64k export_full_disk &&
	cat "$TEST_DIR/stdout" "$TEST_DIR/stderr" &&
	expect_eq "$(cat "$TEST_DIR/rc")" 1 "exit code" &&
	expect_last_error "out: cannot write the patches" &&
	expect_eq "$(cat "$TEST_DIR/ls")" ".fill" "files in the file system"
'

test_done
