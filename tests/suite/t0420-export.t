#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/export: the mainline submission, mail-ready, from a git
# repository made of the 7.3 tree (committed once, cached under
# build/git/): To/Cc from 7.3's get_maintainer.pl, checkpatch.pl --strict
# of 7.3.  The stable prefix ("PATCH 6.1.y") is t0415's.  Called by path:
# "export" alone is the shell builtin.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=tests/suite/patches.sh
. "$(dirname "$0")/patches.sh"

# The submitter the patches are signed off by: set here, as a machine may
# have no git identity.
export GIT_COMMITTER_NAME="Kernel Overlay Tests" GIT_COMMITTER_EMAIL=tests@kernel-overlay.invalid
repo=$(git_tree 7.3)
head=$(git -C "$repo" rev-parse HEAD)
refs=$(git -C "$repo" for-each-ref)
outdir=$TEST_DIR/out
export repo head refs outdir

# A results.json about this tree, as 'make' writes it: the apply stage of
# a dry run on the pristine 7.3 tree, an objects stage with a section of
# its own, through scripts/report.
# shellcheck source=scripts/lib/common.sh
. "$SCRIPTS/lib/common.sh"
# shellcheck source=scripts/lib/results.sh
. "$SCRIPTS/lib/results.sh"
rep=$TEST_DIR/report
mkdir -p "$rep/stages"
: >"$TEST_DIR/inputs"
"$SCRIPTS/apply" --dry-run --json "$rep/stages/apply.json" "$(kernel_tree 7.3)" >/dev/null
stage_wrap "$rep/stages/apply.json" apply series series 0 1 "$TEST_DIR/inputs"
jq -n '{result: "pass"}' >"$rep/stages/objects.json"
stage_wrap "$rep/stages/objects.json" objects objects "0001 0002" 0 1 "$TEST_DIR/inputs"
printf '## objects\n\n| target | wrong |\n| --- | --- |\n| armv5 | 0 |\n' >"$rep/stages/objects.md"
"$SCRIPTS/report" "$rep" 2>/dev/null
results=$rep/results.json
export results

# header FILE NAME: the (unfolded) value of mail header NAME.
header() {
	awk -v h="$2: " '!NF { exit } index($0, h) == 1 { v = substr($0, length(h) + 1); on = 1; next }
		on && /^ / { sub(/^ +/, " "); v = v $0; next } { on = 0 } END { print v }' "$1"
}
export -f header

test_expect_success 'the git repository of the 7.3 tree is there, clean, one commit' '
	expect_eq "$(git -C "$repo" rev-list --count HEAD)" 1 commits &&
	expect_eq "$(git -C "$repo" status --porcelain | head -1)" "" "git status"
'

test_expect_success 'dry run: prints subjects, To/Cc and checkpatch, writes nothing' '
	expect_exit 0 "$SCRIPTS/export" --dry-run --results "$results" --tree "$repo" mainline "$outdir" &&
	[ ! -e "$outdir" ] &&
	grep -q "^  Subject: \\[PATCH 0/5\\] memcpy() and alignment performance fixes$" "$TEST_DIR/stdout" &&
	expect_eq "$(grep -c "^  checkpatch: clean$" "$TEST_DIR/stdout")" 5 "patches checkpatch-clean" &&
	grep -qxF "result: dry run; 6 file(s) would be written to $outdir; nothing is sent" "$TEST_DIR/stdout"
'

test_expect_success 'export: cover letter and the five patches that apply, in series order' '
	expect_exit 0 "$SCRIPTS/export" --results "$results" --tree "$repo" mainline "$outdir" &&
	(cd "$outdir" && ls) >"$TEST_DIR/files" &&
	expect_eq "$(wc -l <"$TEST_DIR/files")" 6 files &&
	expect_eq "$(head -1 "$TEST_DIR/files")" 0000-cover-letter.patch "first file" &&
	expect_eq "$(header "$outdir/0001-"*.patch Subject)" \
		"[PATCH 1/5] vdso: Use a packed, may_alias struct for get/put_unaligned()" "subject 1/5" &&
	expect_eq "$(header "$outdir/0004-"*.patch Subject)" \
		"[PATCH 4/5] LoongArch: Copy syscall arguments without memcpy()" "subject 4/5" &&
	grep -qxF "base-commit: $head" "$outdir/0000-cover-letter.patch"
'

test_expect_success 'the cover letter: a line per patch, what was left out, the evidence' '
	c=$outdir/0000-cover-letter.patch &&
	! grep -q "\\*\\*\\* \\(SUBJECT\\|BLURB\\) HERE" "$c" &&
	grep -qxF -- "- LoongArch: Copy syscall arguments without memcpy()" "$c" &&
	grep -qxF -- "  Kind: $(sed -n "s/^Kind: //p" "$TOP/patches/mainline/$P5")" "$c" &&
	grep -qxF -- "  Kind: upstream submission [for the arm64 tree]" "$c" &&
	grep -qxF -- "- $P3: not needed on this base" "$c" &&
	grep -qxF -- "- arm64: clear_user: Keep the alignment padding out of the store loop" "$c" &&
	grep -qxF "## 0001/0002: vdso: Use a packed, may_alias struct for get/put_unaligned()" "$c" &&
	grep -qxF "| armv5 | 0 |" "$c" &&
	! grep -q "^## 0003" "$c"
'

test_expect_success 'a results.json of another base, series or tree is refused, nothing written' '
	jq ".base = \"6.12\"" "$results" >"$TEST_DIR/r-base.json" &&
	expect_exit 2 "$SCRIPTS/export" --results "$TEST_DIR/r-base.json" --tree "$repo" mainline "$TEST_DIR/x" &&
	expect_one_line_error "r-base.json: made for the 6.12 series, not mainline" &&
	jq ".series_hash = \"0000\"" "$results" >"$TEST_DIR/r-series.json" &&
	expect_exit 2 "$SCRIPTS/export" --results "$TEST_DIR/r-series.json" --tree "$repo" mainline "$TEST_DIR/x" &&
	expect_one_line_error "r-series.json: made from another version of the mainline series" &&
	jq "(.stages.apply.files[] | select(.path == \"lib/tests/Makefile\") | .before) = \"1234567890abcdef\"" "$results" >"$TEST_DIR/r-tree.json" &&
	expect_exit 2 "$SCRIPTS/export" --results "$TEST_DIR/r-tree.json" --tree "$repo" mainline "$TEST_DIR/x" &&
	expect_one_line_error "r-tree.json: made from another tree: its lib/tests/Makefile is blob 1234567890ab" &&
	: >"$TEST_DIR/r-empty.json" &&
	expect_exit 2 "$SCRIPTS/export" --results "$TEST_DIR/r-empty.json" --tree "$repo" mainline "$TEST_DIR/x" &&
	expect_one_line_error "r-empty.json: empty" &&
	[ ! -e "$TEST_DIR/x" ]
'

test_expect_success 'threaded as git send-email --thread, one line per header, the submitter signs off' '
	c=$outdir/0000-cover-letter.patch &&
	id=$(header "$c" Message-Id) && test -n "$id" &&
	for p in "$outdir"/000[1-5]-*.patch; do
		expect_eq "$(header "$p" In-Reply-To)" "$id" "In-Reply-To of $(basename "$p")"
		test -n "$(header "$p" Message-Id)" || fail "$(basename "$p"): no Message-Id"
		tail -n +2 "$p" | awk "!NF { exit } /^[ \t]/ { bad = 1 } END { exit bad }" || fail "$(basename "$p"): a folded header"
		grep -qx "Signed-off-by: Kernel Overlay Tests <tests@kernel-overlay.invalid>" "$p" || fail "$(basename "$p"): no Signed-off-by of the submitter"
	done
'

# b4_then_am DIR N: b4 am -m of DIR's patches takes N patches, and git am
# of its mbox applies them to a fresh repository of the files they touch,
# as they are in the exported tree.
b4_then_am() {
	local d=$1 n=$2 w f p
	w=$TEST_DIR/b4-${1##*/}
	mkdir -p "$w/b4" || return 1
	cat "$d"/*.patch >"$w/b4/series.mbox" || return 1
	if ! (cd "$w/b4" && b4 am -m series.mbox -o . -n series) >"$w/b4.log" 2>&1; then
		cat "$w/b4.log"
		fail "b4 am of $d"
		return 1
	fi
	grep -q "^Total patches: $n$" "$w/b4.log" || { cat "$w/b4.log"; fail "b4 am of $d: not $n patches"; return 1; }
	mkdir -p "$w/fresh" && git -C "$w/fresh" init -q &&
	for p in "$d"/000[1-9]-*.patch; do
		awk "/^diff --git / { sub(/^b\//, \"\", \$4); print \$4 }" "$p"
	done | sort -u | while read -r f; do
		git -C "$repo" cat-file -e "$head:$f" 2>/dev/null || continue
		mkdir -p "$w/fresh/$(dirname "$f")" && git -C "$repo" show "$head:$f" >"$w/fresh/$f"
	done &&
	git -C "$w/fresh" add -A && git -C "$w/fresh" -c user.name=t -c user.email=t@t commit -qm base &&
	git -C "$w/fresh" -c user.name=t -c user.email=t@t am -q "$w/b4/series.mbx" &&
	expect_eq "$(git -C "$w/fresh" rev-list --count HEAD)" $((n + 1)) "commits after git am of $d"
}
export -f b4_then_am

test_expect_success 'b4 am -m takes the exported series; git am of its mbox applies to a fresh tree, authors kept' '
	b4_then_am "$outdir" 5 &&
	expect_eq "$(git -C "$TEST_DIR/b4-out/fresh" log -1 --format=%an HEAD~4)" "Seed 8fb4d3ac maintainers" "author of 1/5"
'

test_expect_success 'no submitter identity: a one-line error, nothing written' '
	unset GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL &&
	HOME=$TEST_DIR/nohome GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null \
		expect_exit 2 "$SCRIPTS/export" --results "$results" --tree "$repo" mainline "$TEST_DIR/x" &&
	expect_one_line_error "no submitter to sign off the patches" &&
	[ ! -e "$TEST_DIR/x" ]
'

test_expect_success 'To: maintainers and Cc: reviewers and lists, from get_maintainer.pl' '
	p=$(echo "$outdir"/0004-*.patch) &&
	expect_eq "$(header "$p" To)" "Huacai Chen <chenhuacai@kernel.org>" "To of the LoongArch patch" &&
	header "$p" Cc | grep -qF "loongarch@lists.linux.dev" &&
	# From the MAINTAINERS of 7.3 (that of 6.12 has tglx@linutronix.de).
	header "$outdir/0001-"*.patch To | grep -qF "Thomas Gleixner <tglx@kernel.org>" &&
	header "$outdir/0003-"*.patch To | grep -qF "Catalin Marinas <catalin.marinas@arm.com>" &&
	c=$outdir/0000-cover-letter.patch &&
	header "$c" To | grep -qF "Huacai Chen <chenhuacai@kernel.org>" &&
	header "$c" To | grep -qF "Thomas Gleixner <tglx@kernel.org>"
'

test_expect_success 'the exported patches apply to the repository and carry the series changes' '
	for n in 1 2 3 4 5; do
		p=$(echo "$outdir"/000$n-*.patch) &&
		git -C "$repo" apply --check "$p" || return 1
	done &&
	diff <(grep "^[-+][^-+]" "$outdir"/0004-*.patch) <(grep "^[-+][^-+]" "$TOP/patches/mainline/$P5")
'

test_expect_success 'the repository is untouched: HEAD, refs, work tree' '
	expect_eq "$(git -C "$repo" rev-parse HEAD)" "$head" HEAD &&
	expect_eq "$(git -C "$repo" for-each-ref)" "$refs" refs &&
	expect_eq "$(git -C "$repo" status --porcelain | head -1)" "" "git status"
'

test_expect_success 'bad input: one-line errors, nothing written' '
	expect_exit 2 "$SCRIPTS/export" --results "$results" --tree "$repo" mainline "$outdir" &&
	expect_one_line_error "out: not empty" &&
	expect_exit 2 "$SCRIPTS/export" --tree "$(kernel_tree 7.3)" mainline "$TEST_DIR/x" &&
	expect_one_line_error "linux-7.3: not the top of a git work tree" &&
	expect_exit 2 "$SCRIPTS/export" --tree "$repo" 5.4 "$TEST_DIR/x" &&
	expect_one_line_error "unknown base .5.4." &&
	expect_exit 2 "$SCRIPTS/export" --posting nosuch --tree "$repo" mainline "$TEST_DIR/x" &&
	expect_one_line_error "--posting nosuch: no such posting in configs/postings" &&
	expect_exit 2 "$SCRIPTS/export" --posting arm64 --tree "$repo" 6.12 "$TEST_DIR/x" &&
	expect_one_line_error "--posting arm64: configs/postings splits the mainline series; the 6.12 series goes out as one" &&
	[ ! -e "$TEST_DIR/x" ]
'

test_expect_success 'one posting per subsystem: its changes only, its recipients, the tree it goes through' '
	for po in vdso arm64 loongarch; do
		expect_exit 0 "$SCRIPTS/export" --posting $po --results "$results" --tree "$repo" mainline "$TEST_DIR/post-$po" ||
			return 1
	done &&
	expect_eq "$(cd "$TEST_DIR/post-vdso" && ls | cut -c1-8 | paste -sd " " -)" "0000-cov 0001-vds 0002-too 0003-lib" "vdso files" &&
	expect_eq "$(cd "$TEST_DIR/post-arm64" && ls | cut -c1-8 | paste -sd " " -)" "0000-cov 0001-arm" "arm64 files" &&
	c=$TEST_DIR/post-arm64/0000-cover-letter.patch &&
	expect_eq "$(header "$c" Subject)" "[PATCH 0/1] arm64: clear_user: the store loop in one I-cache line" subject &&
	grep -q "^This is the arm64 posting of the series; it goes through the arm64 tree\.$" "$c" &&
	! grep -q "^- .*disabled by override" "$c" &&
	header "$c" To | grep -q "Catalin Marinas" &&
	! header "$c" To | grep -q "Huacai Chen" &&
	header "$TEST_DIR/post-loongarch/0000-cover-letter.patch" To | grep -q "Huacai Chen" &&
	b4_then_am "$TEST_DIR/post-vdso" 3 && b4_then_am "$TEST_DIR/post-arm64" 1 &&
	b4_then_am "$TEST_DIR/post-loongarch" 1
'

test_done
