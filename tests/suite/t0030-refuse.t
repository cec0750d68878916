#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# Bad input to scripts/apply: each case gives its exit code and a one-line
# error (or, for conflict and fuzz, the status table), and leaves the tree
# byte-identical, checked over the whole tree.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=tests/suite/patches.sh
. "$(dirname "$0")/patches.sh"

pristine=$(pristine_sum 6.12)
export pristine

# refused CODE PATTERN TREE [APPLY ARGS...]: apply exits with CODE and a
# one-line error matching PATTERN, and wrote nothing in TREE (no file or
# directory written, created, removed, renamed or chmod-ed: expect_untouched).
refused() {
	local code=$1 pattern=$2 tree=$3
	shift 3
	mark_tree "$tree" &&
		expect_exit "$code" apply "$@" "$tree" &&
		expect_one_line_error "$pattern" &&
		expect_untouched "$tree"
}

# fake_tree DIR VERSION PATCHLEVEL: the least that passes for a kernel tree.
fake_tree() {
	mkdir -p "$1/arch"
	printf 'VERSION = %s\nPATCHLEVEL = %s\nSUBLEVEL = 0\n' "$2" "$3" >"$1/Makefile"
	: >"$1/Kconfig"
}
export -f refused fake_tree

test_expect_success 'no tree, two trees, unknown option: usage errors' '
	expect_exit 2 apply && expect_one_line_error "no kernel tree given" &&
	expect_exit 2 apply a b && expect_one_line_error "more than one tree" &&
	expect_exit 2 apply --frobnicate x && expect_one_line_error "unknown option"
'

test_expect_success 'a path that does not exist' '
	expect_exit 2 apply "$TEST_DIR/nowhere" &&
	expect_one_line_error "no such file or directory"
'

test_expect_success 'a file, and a directory that is not a kernel tree' '
	: >"$TEST_DIR/file" &&
	expect_exit 2 apply "$TEST_DIR/file" && expect_one_line_error "not a directory" &&
	mkdir -p "$TEST_DIR/notkernel/arch" && echo "all:" >"$TEST_DIR/notkernel/Makefile" &&
	refused 2 "not a kernel tree" "$TEST_DIR/notkernel"
'

test_expect_success 'an unknown version without --base; an unknown --base' '
	fake_tree "$TEST_DIR/v5.10" 5 10 &&
	refused 2 "Linux 5.10.0 is not a known base .*pass --base" "$TEST_DIR/v5.10" &&
	refused 2 "unknown base .5.4." "$TEST_DIR/v5.10" --base 5.4
'

test_expect_success 'a vendor edit inside a hunk: conflict, hunk shown, nothing applied' '
	t=$(copy_tree 6.12 vendor-in-hunk) &&
	f=$t/arch/loongarch/include/asm/syscall.h && detach "$f" &&
	sed -i "s/5 \* sizeof(long)/5 * sizeof(unsigned long)/" "$f" &&
	mark_tree "$t" &&
	expect_exit 1 apply "$t" &&
	expect_statuses "$P1=applied" "$P3=already present" "$P5=conflict" &&
	grep -q "^--- $P5: conflict; failing hunks:" "$TEST_DIR/stdout" &&
	grep -q "^Hunk #1 FAILED at 58" "$TEST_DIR/stdout" &&
	grep -q "^-	memcpy(&args\[1\], &regs->regs\[5\], 5 \* sizeof(long));" "$TEST_DIR/stdout" &&
	grep -q "^result: refused; the tree was not changed" "$TEST_DIR/stdout" &&
	expect_untouched "$t"
'

test_expect_success 'a vendor edit elsewhere in a touched file: applies, offset reported' '
	t=$(copy_tree 6.12 vendor-elsewhere) &&
	f=$t/arch/loongarch/include/asm/syscall.h && detach "$f" &&
	sed -i "1a /* vendor: line one */\n/* vendor: line two */" "$f" &&
	expect_exit 0 apply "$t" &&
	expect_statuses "$P1=applied" "$P5=applied" &&
	grep -q "^$P5 *applied (hunk 1 at line 60, offset 2 lines)$" "$TEST_DIR/stdout" &&
	patch -s -o "$TEST_DIR/want" "$(kernel_tree 6.12)/arch/loongarch/include/asm/syscall.h" <"$TOP/patches/6.12/$P5" &&
	sed -i "1a /* vendor: line one */\n/* vendor: line two */" "$TEST_DIR/want" &&
	cmp "$TEST_DIR/want" "$f" &&
	grep -q "vendor: line two" "$f"
'

test_expect_success 'context changed next to a hunk: fuzz, refused, nothing applied' '
	t=$(copy_tree 6.12 fuzz) &&
	f=$t/arch/loongarch/include/asm/syscall.h && detach "$f" &&
	sed -i "s/^static inline int syscall_get_arch(/static __always_inline int syscall_get_arch(/" "$f" &&
	mark_tree "$t" &&
	expect_exit 1 apply "$t" &&
	expect_statuses "$P5=fuzz" &&
	grep -q "^$P5 *fuzz (Hunk #1 succeeded at 58 with fuzz 1)" "$TEST_DIR/stdout" &&
	expect_untouched "$t"
'

test_expect_success 'a read-only tree: refused before writing; a dry run still works' '
	t=$(copy_tree 6.12 readonly) &&
	find "$t" -type d -exec chmod a-w {} + &&
	refused 3 "read-only" "$t" &&
	expect_exit 0 apply --dry-run "$t"
'

test_expect_success 'a touched path that is a symlink' '
	t=$(copy_tree 6.12 symlink) &&
	mv "$t/arch/loongarch/include/asm" "$TEST_DIR/loongarch-asm-elsewhere" &&
	ln -s "$TEST_DIR/loongarch-asm-elsewhere" "$t/arch/loongarch/include/asm" &&
	refused 3 "arch/loongarch/include/asm: touched path is a symlink" "$t"
'

test_expect_success 'a patch whose path escapes the tree' '
	t=$(copy_tree 6.12 escape) &&
	cp -r "$TOP/patches" "$TEST_DIR/escape-patches" &&
	sed -i "s|a/arch/loongarch/include/asm/syscall.h|a/../escape/syscall.h|; s|b/arch/loongarch/include/asm/syscall.h|b/../escape/syscall.h|" \
		"$TEST_DIR/escape-patches/6.12/$P5" &&
	refused 3 "touched path .\.\./escape/syscall.h. escapes the tree" "$t" --patches "$TEST_DIR/escape-patches"
'

test_expect_success 'a second concurrent run on the same tree, with another TMPDIR: locked out' '
	t=$(copy_tree 6.12 locked) &&
	{ flock -F "$t" sleep 60 & } &&
	holder=$! &&
	for i in $(seq 50); do flock -n "$t" true || break; sleep 0.1; done &&
	rc=0
	mkdir -p "$TEST_DIR/othertmp" &&
	TMPDIR=$TEST_DIR/othertmp refused 4 "another run holds the lock" "$t" || rc=$?
	kill "$holder" 2>/dev/null || true
	wait "$holder" 2>/dev/null || true
	[ $rc -eq 0 ] && expect_exit 0 apply --dry-run "$t"
'

test_expect_success 'malformed, missing and empty series files and patches' '
	t=$(copy_tree 6.12 malformed) &&
	bad=$TEST_DIR/bad-patches && cp -r "$TOP/patches" "$bad" &&
	head -c 300 "$TOP/patches/6.12/$P2" >"$bad/6.12/$P2" &&
	refused 2 "$P2: malformed patch: no .diff --git. section" "$t" --patches "$bad" &&
	sed -i "/^index /d" "$bad/6.12/$P1" && cp "$TOP/patches/6.12/$P2" "$bad/6.12/$P2" &&
	refused 2 "$P1: malformed patch: a diff section has no .index" "$t" --patches "$bad" &&
	cp "$TOP/patches/6.12/$P1" "$bad/6.12/$P1" &&
	sed -i "s/^@@ -58,7 +58,11 @@/@@ -58,7 +58,99 @@/" "$bad/6.12/$P5" &&
	refused 2 "$P5: malformed patch: hunk at line [0-9]+: 0 old and 88 new lines missing" "$t" --patches "$bad" &&
	cp "$TOP/patches/6.12/$P5" "$bad/6.12/$P5" &&
	sed -n "1,$(grep -n "^+++ b/lib/Makefile$" "$TOP/patches/6.12/$P6" | cut -d: -f1)p" "$TOP/patches/6.12/$P6" >"$bad/6.12/$P6" &&
	refused 2 "$P6: malformed patch: the diff section of lib/Makefile has no hunk" "$t" --patches "$bad" &&
	cp "$TOP/patches/6.12/$P6" "$bad/6.12/$P6" &&
	rm "$bad/6.12/$P3" &&
	refused 2 "$P3: patch listed in the series is missing" "$t" --patches "$bad" &&
	cp "$TOP/patches/6.12/$P3" "$bad/6.12/$P3" &&
	echo "$P3 -p0" >>"$bad/6.12/series" &&
	refused 2 "malformed entry" "$t" --patches "$bad" &&
	grep -v "^#" "$TOP/patches/6.12/series" >/dev/null && printf "# nothing\n" >"$bad/6.12/series" &&
	refused 2 "empty series" "$t" --patches "$bad" &&
	rm "$bad/6.12/series" &&
	refused 2 "missing series file" "$t" --patches "$bad" &&
	expect_eq "$(tree_sum "$t")" "$pristine" "tree checksum"
'

test_expect_success '--reverse on a tree the series was never applied to' '
	t=$(copy_tree 6.12 noreverse) &&
	refused 2 "nothing to reverse" "$t" --reverse
'

# A small git tree with the files the 6.12 series touches: enough for git am.
git_tree() {
	local src=$1 dst=$2 f
	fake_tree "$dst" 6 12
	for f in include/vdso/unaligned.h tools/include/vdso/unaligned.h \
		arch/x86/lib/copy_user_64.S arch/arm64/lib/clear_user.S \
		arch/loongarch/include/asm/syscall.h lib/Kconfig.debug lib/Makefile; do
		mkdir -p "$dst/$(dirname "$f")" && cp "$src/$f" "$dst/$f"
	done
	git -C "$dst" init -q && git -C "$dst" add -A &&
		git -C "$dst" -c user.name=t -c user.email=t@t commit -qm base
}
export -f git_tree
export GIT_COMMITTER_NAME=test GIT_COMMITTER_EMAIL=test@example.com

test_expect_success "--git: one commit per applied patch (four: 0003 present, 0004 not needed); a dirty work tree is refused" '
	git_tree "$(kernel_tree 6.12)" "$TEST_DIR/git" &&
	echo dirt >>"$TEST_DIR/git/Kconfig" &&
	refused 2 "git work tree is dirty" "$TEST_DIR/git" --git &&
	git -C "$TEST_DIR/git" checkout -q Kconfig &&
	expect_exit 0 apply --git "$TEST_DIR/git" &&
	expect_eq "$(git -C "$TEST_DIR/git" rev-list --count HEAD)" 5 commits &&
	git -C "$TEST_DIR/git" log --format=%s | grep -q "^LoongArch: Copy syscall arguments without memcpy()$" &&
	! git -C "$TEST_DIR/git" log --format=%B | grep -q "Upstream-Status" &&
	expect_eq "$(git -C "$TEST_DIR/git" status --porcelain)" "" "git status" &&
	refused 2 "--reverse and --git together" "$TEST_DIR/git" --git --reverse
'

test_done
