#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/export: a mail-ready 6.12 series from a git repository made of
# the 6.12 tree (committed once, cached under build/git/).  Called by
# path: "export" alone is the shell builtin.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/patches.sh
. "$(dirname "$0")/patches.sh"

repo=$(git_tree 6.12)
head=$(git -C "$repo" rev-parse HEAD)
refs=$(git -C "$repo" for-each-ref)
outdir=$TEST_DIR/out
export repo head refs outdir

# header FILE NAME: the (unfolded) value of mail header NAME.
header() {
	awk -v h="$2: " '!NF { exit } index($0, h) == 1 { v = substr($0, length(h) + 1); on = 1; next }
		on && /^ / { sub(/^ +/, " "); v = v $0; next } { on = 0 } END { print v }' "$1"
}
export -f header

test_expect_success 'the git repository of the 6.12 tree is there, clean, one commit' '
	expect_eq "$(git -C "$repo" rev-list --count HEAD)" 1 commits &&
	expect_eq "$(git -C "$repo" status --porcelain | head -1)" "" "git status"
'

test_expect_success 'dry run: prints subjects, To/Cc and checkpatch, writes nothing' '
	expect_exit 0 "$SCRIPTS/export" --dry-run --tree "$repo" 6.12 "$outdir" &&
	[ ! -e "$outdir" ] &&
	grep -q "^  Subject: \\[PATCH 6.12.y 0/4\\] memcpy() and alignment performance fixes$" "$TEST_DIR/stdout" &&
	expect_eq "$(grep -c "^  checkpatch: clean$" "$TEST_DIR/stdout")" 4 "patches checkpatch-clean" &&
	grep -qxF "result: dry run; 5 file(s) would be written to $outdir; nothing is sent" "$TEST_DIR/stdout"
'

test_expect_success 'export: cover letter and the four patches that apply, in series order' '
	expect_exit 0 "$SCRIPTS/export" --tree "$repo" 6.12 "$outdir" &&
	(cd "$outdir" && ls) >"$TEST_DIR/files" &&
	expect_eq "$(wc -l <"$TEST_DIR/files")" 5 files &&
	expect_eq "$(head -1 "$TEST_DIR/files")" 0000-cover-letter.patch "first file" &&
	expect_eq "$(header "$outdir/0001-"*.patch Subject)" \
		"[PATCH 6.12.y 1/4] vdso: Mark the get/put_unaligned() struct __may_alias__" "subject 1/4" &&
	expect_eq "$(header "$outdir/0003-"*.patch Subject)" \
		"[PATCH 6.12.y 3/4] LoongArch: Copy syscall arguments without memcpy()" "subject 3/4" &&
	grep -qxF "base-commit: $head" "$outdir/0000-cover-letter.patch"
'

test_expect_success 'the cover letter: a line per patch, what was left out, the evidence' '
	c=$outdir/0000-cover-letter.patch &&
	! grep -q "\\*\\*\\* \\(SUBJECT\\|BLURB\\) HERE" "$c" &&
	grep -qxF -- "- LoongArch: Copy syscall arguments without memcpy()" "$c" &&
	grep -qxF -- "- $P3: already present" "$c" &&
	grep -qxF -- "- $P4: not needed on this base" "$c" &&
	if [ -f "$TOP/build/report/report.md" ]; then
		grep -q "^## 0001/0002: include/vdso/unaligned.h" "$c" && ! grep -q "^## 0003" "$c"
	else
		grep -q "No evidence report at" "$c"
	fi
'

test_expect_success 'To: maintainers and Cc: reviewers and lists, from get_maintainer.pl' '
	p=$(echo "$outdir"/0003-*.patch) &&
	expect_eq "$(header "$p" To)" "Huacai Chen <chenhuacai@kernel.org>" "To of the LoongArch patch" &&
	header "$p" Cc | grep -qF "loongarch@lists.linux.dev" &&
	header "$outdir/0001-"*.patch To | grep -qF "Thomas Gleixner <tglx@linutronix.de>" &&
	c=$outdir/0000-cover-letter.patch &&
	header "$c" To | grep -qF "Huacai Chen <chenhuacai@kernel.org>" &&
	header "$c" To | grep -qF "Thomas Gleixner <tglx@linutronix.de>"
'

test_expect_success 'the exported patches apply to the repository and carry the series changes' '
	for n in 1 2 3 4; do
		p=$(echo "$outdir"/000$n-*.patch) &&
		git -C "$repo" apply --check "$p" || return 1
	done &&
	diff <(grep "^[-+][^-+]" "$outdir"/0003-*.patch) <(grep "^[-+][^-+]" "$TOP/patches/6.12/$P5")
'

test_expect_success 'the repository is untouched: HEAD, refs, work tree' '
	expect_eq "$(git -C "$repo" rev-parse HEAD)" "$head" HEAD &&
	expect_eq "$(git -C "$repo" for-each-ref)" "$refs" refs &&
	expect_eq "$(git -C "$repo" status --porcelain | head -1)" "" "git status"
'

test_expect_success 'bad input: one-line errors, nothing written' '
	expect_exit 2 "$SCRIPTS/export" --tree "$repo" 6.12 "$outdir" &&
	expect_one_line_error "out: not empty" &&
	expect_exit 2 "$SCRIPTS/export" --tree "$(kernel_tree 6.12)" 6.12 "$TEST_DIR/x" &&
	expect_one_line_error "linux-6.12: not the top of a git work tree" &&
	expect_exit 2 "$SCRIPTS/export" --tree "$repo" 5.4 "$TEST_DIR/x" &&
	expect_one_line_error "unknown base .5.4." &&
	[ ! -e "$TEST_DIR/x" ]
'

test_done
