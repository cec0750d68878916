#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/export: the mainline submission, mail-ready, from a git
# repository made of the 7.3 tree (committed once, cached under
# build/git/): To/Cc from 7.3's get_maintainer.pl and the threads'
# people, checkpatch.pl --strict of 7.3, the authors and sign-offs the
# kernel keeps, no mail without evidence, and the branch for b4.  The
# stable prefix ("PATCH 6.1.y") is t0415's.  Called by path: "export"
# alone is the shell builtin.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=tests/suite/patches.sh
. "$(dirname "$0")/patches.sh"

# The submitter the patches are signed off by: set here, as a machine may
# have no git identity.
export GIT_COMMITTER_NAME="Kernel Overlay Tests" GIT_COMMITTER_EMAIL=tests@kernel-overlay.invalid
me="Kernel Overlay Tests <tests@kernel-overlay.invalid>"
# The identity the stored patches of the project's own changes carry: no
# person; no mail may name it.
placeholder_name="Seed 8fb4d3ac maintainers"
placeholder_email=maintainers@users.noreply.a-seed-8fb4d3ac.example
repo=$(git_tree 7.3)
head=$(git -C "$repo" rev-parse HEAD)
refs=$(git -C "$repo" for-each-ref)
outdir=$TEST_DIR/out
export me placeholder_name placeholder_email repo head refs outdir

# A results.json about this tree, as 'make' writes it: the apply stage of
# a dry run on the pristine 7.3 tree, an objects stage (objects-armv5)
# with a section of its own, through scripts/report.
# shellcheck source=scripts/lib/common.sh
. "$SCRIPTS/lib/common.sh"
# shellcheck source=scripts/lib/results.sh
. "$SCRIPTS/lib/results.sh"
rep=$TEST_DIR/report
mkdir -p "$rep/stages"
: >"$TEST_DIR/inputs"
"$SCRIPTS/apply" --dry-run --json "$rep/stages/apply.json" "$(kernel_tree 7.3)" >/dev/null
stage_wrap "$rep/stages/apply.json" apply series series 0 1 "$TEST_DIR/inputs"
jq -n '{result: "pass"}' >"$rep/stages/objects-armv5.json"
stage_wrap "$rep/stages/objects-armv5.json" objects-armv5 objects "0001 0002" 0 1 "$TEST_DIR/inputs"
printf '## objects\n\n| target | wrong |\n| --- | --- |\n| armv5 | 0 |\n' >"$rep/stages/objects-armv5.md"
"$SCRIPTS/report" "$rep" 2>/dev/null
results=$rep/results.json
export results

# header FILE NAME: the (unfolded) value of mail header NAME.
header() {
	awk -v h="$2: " '!NF { exit } index($0, h) == 1 { v = substr($0, length(h) + 1); on = 1; next }
		on && /^ / { sub(/^ +/, " "); v = v $0; next } { on = 0 } END { print v }' "$1"
}
# trailers FILE: the trailer lines of the mail's message (up to its "---").
trailers() {
	awk '!body && !NF { body = 1; next } body && /^---$/ { exit }
		body && /^(Signed-off-by|Reviewed-by|Link|Cc|Fixes|Reported-by|Suggested-by|Closes): / { print }' "$1"
}
# no_placeholder FILE...: none of the files names the placeholder identity.
no_placeholder() {
	! grep -lF -e "$placeholder_name" -e "$placeholder_email" "$@" || fail "the placeholder identity in the mails above"
}
export -f header trailers no_placeholder

test_expect_success 'the git repository of the 7.3 tree is there, clean, one commit' '
	expect_eq "$(git -C "$repo" rev-list --count HEAD)" 1 commits &&
	expect_eq "$(git -C "$repo" status --porcelain | head -1)" "" "git status"
'

test_expect_success 'dry run: prints subjects, To/Cc and checkpatch with what it ignores and why, writes nothing' '
	expect_exit 0 "$SCRIPTS/export" --dry-run --results "$results" --tree "$repo" mainline "$outdir" &&
	[ ! -e "$outdir" ] &&
	grep -q "^  Subject: \\[PATCH 0/5\\] memcpy() and alignment performance fixes$" "$TEST_DIR/stdout" &&
	expect_eq "$(grep -c "^  checkpatch: clean$" "$TEST_DIR/stdout")" 5 "patches checkpatch-clean" &&
	# The types checkpatch ignores, with why, and each finding they hide.
	grep -qxF "  UNKNOWN_COMMIT_ID: the tree has no history to look the Fixes: commit up in" "$TEST_DIR/stdout" &&
	grep -q "^  FILE_PATH_CHANGES: a new file asks whether MAINTAINERS needs updating" "$TEST_DIR/stdout" &&
	grep -q "^    ignored UNKNOWN_COMMIT_ID: Unknown commit id .a339671db64b., .* (the tree has no history to look the Fixes: commit up in)$" "$TEST_DIR/stdout" &&
	grep -q "^left out: $P3: not needed on this base (upstream since Linux 6.15" "$TEST_DIR/stdout" &&
	grep -qxF "result: dry run; 6 file(s) and the branch overlay-mainline would be written to $outdir; nothing is sent" "$TEST_DIR/stdout"
'

test_expect_success 'export: cover letter and the five patches that apply, in series order, and the branch' '
	expect_exit 0 "$SCRIPTS/export" --results "$results" --tree "$repo" mainline "$outdir" &&
	(cd "$outdir" && ls) >"$TEST_DIR/files" &&
	expect_eq "$(grep -c "\\.patch$" "$TEST_DIR/files")" 6 "mail files" &&
	expect_eq "$(head -1 "$TEST_DIR/files")" 0000-cover-letter.patch "first file" &&
	expect_eq "$(tail -1 "$TEST_DIR/files")" git "the branch" &&
	expect_eq "$(header "$outdir/0001-"*.patch Subject)" \
		"[PATCH 1/5] vdso: Use a packed, may_alias struct for get/put_unaligned()" "subject 1/5" &&
	expect_eq "$(header "$outdir/0004-"*.patch Subject)" \
		"[PATCH 4/5] LoongArch: Copy syscall arguments without memcpy()" "subject 4/5" &&
	grep -qxF "base-commit: $head" "$outdir/0000-cover-letter.patch"
'

test_expect_success 'the cover letter is for the list: what the series does and its evidence, no internal metadata' '
	c=$outdir/0000-cover-letter.patch &&
	! grep -q "\\*\\*\\* \\(SUBJECT\\|BLURB\\) HERE" "$c" &&
	grep -qxF "for Linux 7.3.4; each change was measured, and the figures follow." "$c" &&
	grep -qx "Measured on Linux 7.3.4 (.*):" "$c" &&
	grep -A1 -xF "vdso: Use a packed, may_alias struct for get/put_unaligned()" "$c" | grep -qx -- "-*" &&
	grep -qxF "| armv5 | 0 |" "$c" &&
	! grep -q "Kind:\\|Upstream-Status:\\|Preimage:\\|No evidence\\|$P3\\|^#" "$c" &&
	# The shortlog: the submitter, and Wentao Guan for his change.
	grep -qxF "Kernel Overlay Tests (4):" "$c" &&
	grep -qxF "Wentao Guan (1):" "$c" &&
	no_placeholder "$outdir"/*.patch
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

test_expect_success 'no evidence for this tree: refused, one line, nothing written, dry run or not' '
	BUILD=$TEST_DIR/no-build expect_exit 1 "$SCRIPTS/export" --tree "$repo" mainline "$TEST_DIR/x" &&
	expect_one_line_error "no evidence for .*: .*report/results.json is missing \\(run .make KERNEL=.*\\); nothing written" &&
	BUILD=$TEST_DIR/no-build expect_exit 1 "$SCRIPTS/export" --dry-run --posting arm64 --tree "$repo" mainline "$TEST_DIR/x" &&
	expect_one_line_error "no evidence for " &&
	# The default results.json of another base (the last make was on 6.12).
	mkdir -p "$TEST_DIR/b612/report" && cp "$TEST_DIR/r-base.json" "$TEST_DIR/b612/report/results.json" &&
	BUILD=$TEST_DIR/b612 expect_exit 1 "$SCRIPTS/export" --tree "$repo" mainline "$TEST_DIR/x" &&
	expect_one_line_error "no evidence for .*: .*made for the 6.12 series, not mainline \\(run .make" &&
	[ ! -e "$TEST_DIR/x" ]
'

test_expect_success 'threaded as git send-email --thread, one line per header, the submitter signs off last' '
	c=$outdir/0000-cover-letter.patch &&
	id=$(header "$c" Message-Id) && test -n "$id" &&
	for p in "$outdir"/000[1-5]-*.patch; do
		expect_eq "$(header "$p" In-Reply-To)" "$id" "In-Reply-To of $(basename "$p")"
		test -n "$(header "$p" Message-Id)" || fail "$(basename "$p"): no Message-Id"
		tail -n +2 "$p" | awk "!NF { exit } /^[ \t]/ { bad = 1 } END { exit bad }" || fail "$(basename "$p"): a folded header"
		expect_eq "$(trailers "$p" | tail -n 1)" "Signed-off-by: $me" "last trailer of $(basename "$p")"
	done
'

test_expect_success 'authors as the kernel keeps them: the project'"'"'s changes are the submitter'"'"'s, 0005 Wentao Guan'"'"'s' '
	for p in "$outdir"/000[1235]-*.patch; do
		expect_eq "$(header "$p" From)" "$me" "From: of $(basename "$p")"
		expect_eq "$(trailers "$p" | grep -c "^Signed-off-by: ")" 1 "sign-offs of $(basename "$p")"
	done &&
	p=$(echo "$outdir"/0004-*.patch) &&
	expect_eq "$(header "$p" From)" "Wentao Guan <guanwentao@uniontech.com>" "From: of the LoongArch patch" &&
	trailers "$p" >"$TEST_DIR/t4" &&
	expect_eq "$(grep "^Signed-off-by: \\|^Reviewed-by: " "$TEST_DIR/t4")" "Signed-off-by: Wentao Guan <guanwentao@uniontech.com>
Reviewed-by: Yanteng Si <siyanteng@cqsoftware.com.cn>
Signed-off-by: $me" "the LoongArch patch: his sign-off, the review, the submitter" &&
	! grep -q "^Suggested-by: Wentao Guan" "$p" &&
	grep -q "^\\[ Reworded the subject and changelog: an optimization, not a fix, as$" "$p" &&
	no_placeholder "$outdir"/*.patch
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
	for p in "$d"/*.patch; do
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
	expect_eq "$(git -C "$TEST_DIR/b4-out/fresh" log -1 --format="%an <%ae>" HEAD~4)" "$me" "author of 1/5" &&
	expect_eq "$(git -C "$TEST_DIR/b4-out/fresh" log -1 --format="%an <%ae>" HEAD~1)" \
		"Wentao Guan <guanwentao@uniontech.com>" "author of 4/5"
'

test_expect_success 'no submitter identity, or the placeholder as one: a one-line error, nothing written' '
	(
		unset GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
		HOME=$TEST_DIR/nohome GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null \
			expect_exit 2 "$SCRIPTS/export" --results "$results" --tree "$repo" mainline "$TEST_DIR/x" &&
		expect_one_line_error "no submitter to sign off the patches"
	) &&
	GIT_COMMITTER_NAME=$placeholder_name GIT_COMMITTER_EMAIL=$placeholder_email \
		expect_exit 2 "$SCRIPTS/export" --results "$results" --tree "$repo" mainline "$TEST_DIR/x" &&
	expect_one_line_error "is this project.s placeholder identity, no person" &&
	[ ! -e "$TEST_DIR/x" ]
'

test_expect_success 'To: maintainers, Cc: reviewers, lists, keyword matches, the threads'"'"' people' '
	p=$(echo "$outdir"/0004-*.patch) &&
	expect_eq "$(header "$p" To)" "Huacai Chen <chenhuacai@kernel.org>" "To of the LoongArch patch" &&
	header "$p" Cc | grep -qF "loongarch@lists.linux.dev" &&
	header "$p" Cc | grep -qF "Yanteng Si <siyanteng@cqsoftware.com.cn>" &&
	# From the MAINTAINERS of 7.3 (that of 6.12 has tglx@linutronix.de).
	p=$(echo "$outdir"/0001-*.patch) &&
	header "$p" To | grep -qF "Thomas Gleixner <tglx@kernel.org>" &&
	# CLANG/LLVM matches 0001 by a keyword of its message only: Cc.
	! header "$p" To | grep -qF "Nathan Chancellor" &&
	header "$p" Cc | grep -qF "Nathan Chancellor <nathan@kernel.org>" &&
	for a in "Ian Rogers <irogers@google.com>" "Arnd Bergmann <arnd@arndb.de>" \
		"David Laight <david.laight.linux@gmail.com>" "Thomas Weißschuh <linux@weissschuh.net>" \
		linux-arch@vger.kernel.org "Stefan Kerkmann <s.kerkmann@pengutronix.de>"; do
		header "$p" Cc | grep -qF "$a" || fail "0001: no Cc $a"
	done &&
	! header "$p" Cc | grep -q "stable@" &&
	p=$(echo "$outdir"/0002-*.patch) &&
	header "$p" To | grep -qF "Arnaldo Carvalho de Melo <acme@kernel.org>" &&
	header "$p" To | grep -qF "Namhyung Kim <namhyung@kernel.org>" &&
	header "$p" Cc | grep -qF "linux-perf-users@vger.kernel.org" &&
	p=$(echo "$outdir"/0003-*.patch) &&
	header "$p" To | grep -qF "Catalin Marinas <catalin.marinas@arm.com>" &&
	header "$p" Cc | grep -qF "Kristina Martšenko <kristina.martsenko@arm.com>" &&
	! header "$p" Cc | grep -q "stable@" &&
	c=$outdir/0000-cover-letter.patch &&
	header "$c" To | grep -qF "Huacai Chen <chenhuacai@kernel.org>" &&
	header "$c" To | grep -qF "Thomas Gleixner <tglx@kernel.org>" &&
	header "$c" Cc | grep -qF "Kristina Martšenko <kristina.martsenko@arm.com>" &&
	! header "$c" To | grep -qF "Nathan Chancellor"
'

test_expect_success 'the exported patches apply to the repository and carry the series changes' '
	for n in 1 2 3 4 5; do
		p=$(echo "$outdir"/000$n-*.patch) &&
		git -C "$repo" apply --check "$p" || return 1
	done &&
	diff <(grep "^[-+][^-+]" "$outdir"/0004-*.patch) <(grep "^[-+][^-+]" "$TOP/patches/mainline/$P5")
'

# b4_send DIR BRANCH N: the branch export left in DIR/git, fetched into a
# scratch clone of the repository, is b4's: b4 prep knows its cover
# letter, and b4 send -o (no mail sent: a local command as the SMTP
# server, never run) writes N messages, in b4-send-BRANCH/.
b4_send() {
	local d=$1 b=$2 n=$3 w=$TEST_DIR/b4-send-$2
	rm -rf "$w" && mkdir -p "$w" || return 1
	if ! { git clone -q --shared --no-checkout "$repo" "$w/repo" &&
		git -C "$w/repo" sparse-checkout set --cone scripts >/dev/null &&
		git -C "$w/repo" fetch -q "$d/git" "$b:$b" &&
		git -C "$w/repo" checkout -q "$b" &&
		git -C "$w/repo" config user.name "Kernel Overlay Tests" &&
		git -C "$w/repo" config user.email tests@kernel-overlay.invalid; }; then
		fail "fetching $b from $d/git"
		return 1
	fi
	if ! (cd "$w/repo" && b4 prep --show-info) >"$w/info" 2>&1; then
		cat "$w/info"
		fail "b4 prep --show-info"
		return 1
	fi
	if ! (cd "$w/repo" && GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=sendemail.smtpserver GIT_CONFIG_VALUE_0=/bin/false \
		b4 send --no-sign -o "$w/mail") >"$w/send.log" 2>&1; then
		cat "$w/send.log"
		fail "b4 send -o"
		return 1
	fi
	expect_eq "$(find "$w/mail" -name "*.eml" | wc -l)" "$n" "messages b4 send -o wrote"
}
export -f b4_send

test_expect_success 'the branch in OUTDIR/git goes on in b4: b4 prep knows it, b4 send -o writes the series' '
	expect_eq "$(git -C "$outdir/git" symbolic-ref HEAD)" refs/heads/overlay-mainline "its branch" &&
	expect_eq "$(git -C "$outdir/git" rev-list --count "$head..overlay-mainline")" 6 "the cover letter commit and five patches" &&
	b4_send "$outdir" overlay-mainline 6 &&
	w=$TEST_DIR/b4-send-overlay-mainline &&
	grep -qxF "cover-subject: memcpy() and alignment performance fixes" "$w/info" &&
	no_placeholder "$w"/mail/*.eml &&
	grep -q "Thomas Gleixner <tglx@kernel.org>" "$w"/mail/0000-*.eml &&
	grep -qxF "Measured on Linux 7.3.4 ($(jq -r .generated "$results")):" "$w"/mail/0000-*.eml &&
	grep -qxF "From: Wentao Guan <guanwentao@uniontech.com>" "$w"/mail/0004-*.eml
'

# The repository's files are hard links of the pristine tree's, which
# other tests link into their copies meanwhile: a new link changes a
# file's ctime, not the file (a cold make test once saw " M" on a symlink
# while another test copied the 7.3 tree).  Content, size and mtime still
# count.
test_expect_success 'the repository is untouched: HEAD, refs, work tree' '
	expect_eq "$(git -C "$repo" rev-parse HEAD)" "$head" HEAD &&
	expect_eq "$(git -C "$repo" for-each-ref)" "$refs" refs &&
	expect_eq "$(git -c core.trustctime=false -C "$repo" status --porcelain | head -1)" "" "git status"
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
	expect_exit 2 "$SCRIPTS/export" --posting x86 --tree "$repo" mainline "$TEST_DIR/x" &&
	expect_one_line_error "--posting x86: no such posting in configs/postings" &&
	expect_exit 2 "$SCRIPTS/export" --posting arm64 --tree "$repo" 6.12 "$TEST_DIR/x" &&
	expect_one_line_error "--posting arm64: configs/postings splits the mainline series; the 6.12 series goes out as one" &&
	[ ! -e "$TEST_DIR/x" ]
'

test_expect_success 'one posting per subsystem: its changes only, its recipients, the tree it goes through' '
	for po in vdso arm64 loongarch; do
		expect_exit 0 "$SCRIPTS/export" --posting $po --results "$results" --tree "$repo" mainline "$TEST_DIR/post-$po" ||
			return 1
		cp "$TEST_DIR/stdout" "$TEST_DIR/post-$po.out"
		# Every posting passes checkpatch --strict: nothing but the
		# ignored types, each shown with why.
		grep "^  checkpatch: " "$TEST_DIR/stdout" | grep -vx "  checkpatch: clean" && fail "$po: checkpatch"
		grep "^    " "$TEST_DIR/stdout" | grep -v "^    ignored \\(UNKNOWN_COMMIT_ID\\|FILE_PATH_CHANGES\\): .* (.*)$" &&
			fail "$po: a finding kept without its reason"
		no_placeholder "$TEST_DIR/post-$po"/*.patch
	done &&
	expect_eq "$(cd "$TEST_DIR/post-vdso" && ls | cut -c1-8 | paste -sd " " -)" "0000-cov 0001-vds 0002-too 0003-lib git" "vdso files" &&
	c=$TEST_DIR/post-vdso/0000-cover-letter.patch &&
	expect_eq "$(header "$c" Subject)" "[PATCH 0/3] vdso: get/put_unaligned() without out-of-line memcpy() calls" subject &&
	grep -q "^Patches 1 and 3 are for the tree of include/vdso/" "$c" &&
	header "$c" To | grep -q "Thomas Gleixner" &&
	header "$c" To | grep -q "Arnaldo Carvalho de Melo" &&
	! header "$c" To | grep -q "Huacai Chen" &&
	grep -q "^    ignored UNKNOWN_COMMIT_ID: Unknown commit id .a339671db64b." "$TEST_DIR/post-vdso.out" &&
	b4_then_am "$TEST_DIR/post-vdso" 3 &&
	b4_then_am "$TEST_DIR/post-arm64" 1 && b4_then_am "$TEST_DIR/post-loongarch" 1
'

test_expect_success 'a posting of one patch has no cover letter: its notes go under the "---"' '
	expect_eq "$(cd "$TEST_DIR/post-arm64" && ls | paste -sd " " -)" \
		"0001-arm64-clear_user-Keep-the-alignment-padding-out-of-t.patch git" "arm64 files" &&
	p=$(echo "$TEST_DIR"/post-arm64/0001-*.patch) &&
	expect_eq "$(header "$p" Subject)" "[PATCH] arm64: clear_user: Keep the alignment padding out of the store loop" subject &&
	header "$p" To | grep -q "Catalin Marinas" &&
	! header "$p" To | grep -q "Huacai Chen" &&
	sed -n "/^---$/,/^ arch\\/arm64\\/lib\\/clear_user.S /p" "$p" >"$TEST_DIR/notes" &&
	grep -qxF "For the arm64 tree." "$TEST_DIR/notes" &&
	grep -q "^(The report of Linux 7.3.4 of .* has no section on these changes.)$" "$TEST_DIR/notes" &&
	p=$(echo "$TEST_DIR"/post-loongarch/0001-*.patch) &&
	expect_eq "$(header "$p" From)" "Wentao Guan <guanwentao@uniontech.com>" "From: of the LoongArch posting" &&
	sed -n "/^---$/,/^diff --git /p" "$p" | grep -q "^For the LoongArch tree: Wentao Guan.s patch of August 2025" &&
	# b4 puts the cover letter of its branch under the "---" too.
	b4_send "$TEST_DIR/post-loongarch" overlay-mainline-loongarch 1 &&
	sed -n "/^---$/,/^diff --git /p" "$TEST_DIR"/b4-send-overlay-mainline-loongarch/mail/*.eml |
		grep -q "^For the LoongArch tree: Wentao Guan.s patch of August 2025"
'

test_done
