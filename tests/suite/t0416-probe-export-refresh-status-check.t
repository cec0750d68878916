#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# What a probe of export, refresh, status and check found: an output
# written through a symlink or left truncated on a full disk, a dry run
# that promises what the real run refuses, a refused run that leaves the
# parents of its OUTDIR, a user's file taken for a patch directory, mail
# without recipients, and tools failing (a full TMPDIR) with their raw
# message or a wrong one as the last word.  Each command's output goes
# through scripts/lib/output.sh; each failure ends in one line naming it.
# Small trees only, as t0415.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=tests/suite/patches.sh
. "$(dirname "$0")/patches.sh"

export GIT_COMMITTER_NAME="Kernel Overlay Tests" GIT_COMMITTER_EMAIL=tests@kernel-overlay.invalid
export GIT_AUTHOR_NAME="$GIT_COMMITTER_NAME" GIT_AUTHOR_EMAIL="$GIT_COMMITTER_EMAIL"

# mini_git VER DIR: a git repository of VER's small tree and what export
# reads besides (as t0415).
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
# Its evidence, as 'make' writes a results.json (as t0415).
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

# export61 ARG...: export of the 6.1 repository with its evidence.
export61() { "$SCRIPTS/export" --results "$results61" --tree "$repo61" "$@"; }
# outside NAME CMD...: CMD in a small file system (in_small_fs) filled up
# first; its exit code, stdout and stderr outside, and what the file
# system holds afterwards in $TEST_DIR/ls.
outside() {
	local rc=0
	"$@" >"$TEST_DIR/stdout" 2>"$TEST_DIR/stderr" || rc=$?
	echo "$rc" >"$TEST_DIR/rc"
	ls -A "$TEST_DIR/m" >"$TEST_DIR/ls"
}
# no_new: nothing at $TEST_DIR/new, where the exports below put OUTDIR's
# parents.
no_new() { [ ! -e "$TEST_DIR/new" ] || fail "$TEST_DIR/new: left behind ($(find "$TEST_DIR/new" | head -n 3 | paste -sd " " -))"; }
export -f export61 outside no_new

# --- refresh ----------------------------------------------------------------------

test_expect_success 'refresh --base NAME where patches/NAME is a file: exit 2, one line, the file kept' '
	p=$TEST_DIR/p && rm -rf "$p" && cp -pR "$TOP/patches" "$p" &&
	echo "my notes" >"$p/notes" &&
	expect_exit 2 refresh --base notes --patches "$p" "$repo61" &&
	expect_one_line_error "notes: exists and is not a directory" &&
	expect_eq "$(cat "$p/notes")" "my notes" "the file" &&
	expect_eq "$(stray_files "$p")" "" "stray files"
'

test_expect_success 'refresh --base NAME where patches/NAME is a symlink: exit 3 before any work, the link and its target kept' '
	p=$TEST_DIR/p && rm -rf "$p" && cp -pR "$TOP/patches" "$p" &&
	cp -pR "$TOP/patches/6.1" "$TEST_DIR/target" && ln -s ../target "$p/linked" &&
	expect_exit 3 refresh --base linked --patches "$p" "$repo61" &&
	expect_one_line_error "linked: a symlink: refusing to write through it" &&
	[ -L "$p/linked" ] && diff -r "$TOP/patches/6.1" "$TEST_DIR/target"
'

test_expect_success 'refresh with TMPDIR full: exit 1, the last line names TMPDIR, the patches as they were' '
	p=$TEST_DIR/p && rm -rf "$p" && cp -pR "$TOP/patches" "$p" &&
	in_small_fs size=64k "fill_fs \"\$TEST_DIR/m\"; TMPDIR=\$TEST_DIR/m outside refresh --base 6.1 --patches \"$p\" \"$repo61\"" &&
	cat "$TEST_DIR/stdout" "$TEST_DIR/stderr" &&
	expect_eq "$(cat "$TEST_DIR/rc")" 1 "exit code" &&
	expect_last_error "no space left in TMPDIR \\($TEST_DIR/m\\)" &&
	expect_eq "$(cat "$TEST_DIR/ls")" .fill "files in TMPDIR" &&
	diff -r "$TOP/patches" "$p"
'

# --- status -------------------------------------------------------------------------

test_expect_success 'status --markdown/--json through a symlink: exit 3 before any work, the target untouched' '
	echo mine >"$TEST_DIR/target-file" && ln -sf target-file "$TEST_DIR/link" &&
	for opt in --markdown --json; do
		expect_exit 3 status "$opt" "$TEST_DIR/link" "$repo61" &&
		expect_one_line_error "link: a symlink: refusing to write through it" &&
		expect_eq "$(cat "$TEST_DIR/target-file")" mine "the symlink target ($opt)" || return 1
	done
'

test_expect_success 'status --json FILE in no directory: exit 2 before any work' '
	expect_exit 2 status --json "$TEST_DIR/no-such-dir/s.json" "$repo61" &&
	expect_one_line_error "--json .*no-such-dir/s.json: no directory"
'

test_expect_success 'status on a full disk: exit 1, one error line, the old FILE byte for byte, no temporary file' '
	in_small_fs size=64k "
		echo old-md >\"\$TEST_DIR/m/s.md\" && echo old-json >\"\$TEST_DIR/m/s.json\" && fill_fs \"\$TEST_DIR/m\" &&
		outside status --markdown \"\$TEST_DIR/m/s.md\" --json \"\$TEST_DIR/m/s.json\" \"$repo61\" &&
		cat \"\$TEST_DIR/m/s.md\" \"\$TEST_DIR/m/s.json\" >\"\$TEST_DIR/old\"" &&
	cat "$TEST_DIR/stdout" "$TEST_DIR/stderr" &&
	expect_eq "$(cat "$TEST_DIR/rc")" 1 "exit code" &&
	expect_last_error "s.md: cannot write it .*the old one is kept" &&
	expect_eq "$(cat "$TEST_DIR/old" | paste -sd " " -)" "old-md old-json" "the old files" &&
	expect_eq "$(cat "$TEST_DIR/ls" | paste -sd " " -)" ".fill s.json s.md" "files in the file system"
'

test_expect_success 'status with TMPDIR full: exit 1, the last line names TMPDIR' '
	in_small_fs size=64k "fill_fs \"\$TEST_DIR/m\"; TMPDIR=\$TEST_DIR/m outside status \"$repo61\"" &&
	cat "$TEST_DIR/stdout" "$TEST_DIR/stderr" &&
	expect_eq "$(cat "$TEST_DIR/rc")" 1 "exit code" &&
	expect_last_error "no space left in TMPDIR \\($TEST_DIR/m\\)" &&
	expect_eq "$(cat "$TEST_DIR/ls")" .fill "files in TMPDIR"
'

test_expect_success 'status on a tree no line tells: no option status lacks is suggested' '
	k=$TEST_DIR/linux-5.4 && mkdir -p "$k/arch" && : >"$k/Kconfig" &&
	printf "VERSION = 5\nPATCHLEVEL = 4\nSUBLEVEL = 0\n" >"$k/Makefile" &&
	expect_exit 2 status "$k" &&
	expect_last_error "Linux 5.4.0 is not a known base .*add a row for its version to configs/bases, or run scripts/apply --dry-run --base LINE on it" &&
	! grep -q "pass --base" "$TEST_DIR/stderr"
'

# --- check --------------------------------------------------------------------------

test_expect_success 'check --json/--markdown through a symlink: exit 3 before any check, the target untouched' '
	echo mine >"$TEST_DIR/target-file" && ln -sf target-file "$TEST_DIR/link" &&
	for opt in --json --markdown; do
		expect_exit 3 check --only headers "$opt" "$TEST_DIR/link" "$repo61" &&
		expect_one_line_error "link: a symlink: refusing to write through it" &&
		expect_eq "$(cat "$TEST_DIR/stdout")" "" "TAP ($opt)" &&
		expect_eq "$(cat "$TEST_DIR/target-file")" mine "the symlink target ($opt)" || return 1
	done
'

test_expect_success 'check on a full disk: exit 1, one error line, the old FILE byte for byte, no temporary file' '
	for opt in --json --markdown; do
		in_small_fs size=64k "
			echo old >\"\$TEST_DIR/m/out\" && fill_fs \"\$TEST_DIR/m\" &&
			outside check --only headers $opt \"\$TEST_DIR/m/out\" \"$repo61\" &&
			cat \"\$TEST_DIR/m/out\" >\"\$TEST_DIR/old\"" &&
		cat "$TEST_DIR/stdout" "$TEST_DIR/stderr" &&
		expect_eq "$(cat "$TEST_DIR/rc")" 1 "exit code ($opt)" &&
		expect_last_error "out: cannot write it .*the old one is kept" &&
		expect_eq "$(cat "$TEST_DIR/old")" old "the old file ($opt)" &&
		expect_eq "$(cat "$TEST_DIR/ls" | paste -sd " " -)" ".fill out" "files in the file system ($opt)" || return 1
	done
'

test_expect_success 'check with TMPDIR full: exit 1, the last line names TMPDIR' '
	in_small_fs size=64k "fill_fs \"\$TEST_DIR/m\"; TMPDIR=\$TEST_DIR/m outside check --only headers \"$repo61\"" &&
	cat "$TEST_DIR/stdout" "$TEST_DIR/stderr" &&
	expect_eq "$(cat "$TEST_DIR/rc")" 1 "exit code" &&
	expect_last_error "no space left in TMPDIR \\($TEST_DIR/m\\)" &&
	expect_eq "$(cat "$TEST_DIR/ls")" .fill "files in TMPDIR"
'

test_expect_success 'check hygiene with a get_maintainer.pl that fails: one line naming it, not a finding per file' '
	b=$TEST_DIR/broken-gm && rm -rf "$b" && mini_tree 6.1 "$b" && mkdir -p "$b/scripts" &&
	printf "print STDERR \"broken on purpose\\n\";\nexit 3;\n" >"$b/scripts/get_maintainer.pl" &&
	expect_exit 1 check --only hygiene "$b" &&
	expect_last_error "broken-gm/scripts/get_maintainer.pl on .*: failed \(exit 3\): broken on purpose" &&
	! grep -q "no MAINTAINERS section" "$TEST_DIR/stdout"
'

test_expect_success 'check: a refusal said inside a subshell (cppcheck_run) stays the one error line' '
	stand_in cppcheck "echo \"cppcheck: error: unknown --std value\"" "exit 1" &&
	PATH=$TEST_DIR/bin:$PATH expect_exit 1 check --only cppcheck "$repo61" &&
	expect_last_error "cppcheck failed \(exit 1\): cppcheck: error: unknown --std value"
'

# --- export -------------------------------------------------------------------------

test_expect_success 'export --dry-run refuses what the real run refuses: OUTDIR not empty, a file, a symlink' '
	mkdir -p "$TEST_DIR/full" && : >"$TEST_DIR/full/x" && : >"$TEST_DIR/a-file" &&
	mkdir -p "$TEST_DIR/elsewhere" && ln -sfn elsewhere "$TEST_DIR/outlink" &&
	for o in "full:2:not empty" "a-file:2:exists and is not a directory" "outlink:3:a symlink: refusing"; do
		IFS=: read -r dir code msg <<<"$o" &&
		expect_exit "$code" export61 --dry-run 6.1 "$TEST_DIR/$dir" &&
		expect_one_line_error "$dir: $msg" &&
		cp "$TEST_DIR/stderr" "$TEST_DIR/dry.err" &&
		expect_exit "$code" export61 6.1 "$TEST_DIR/$dir" &&
		cmp "$TEST_DIR/dry.err" "$TEST_DIR/stderr" || return 1
	done &&
	expect_eq "$(ls -A "$TEST_DIR/elsewhere")" "" "the symlink target"
'

test_expect_success 'export OUTDIR . or ..: refused up front (exit 2), dry run or not' '
	mkdir -p "$TEST_DIR/empty/sub" &&
	for o in . .. ./ sub/..; do
		for dry in --dry-run ""; do
			(cd "$TEST_DIR/empty/sub" && expect_exit 2 export61 $dry 6.1 "$o") &&
			expect_one_line_error "OUTDIR $o: name the directory to write" || return 1
		done
	done &&
	expect_eq "$(ls -A "$TEST_DIR/empty")" sub "what the directory holds"
'

test_expect_success 'export --extra DIR that does not exist: exit 2 up front, one line' '
	expect_exit 2 export61 --extra "$TEST_DIR/no-such-layer" 6.1 "$TEST_DIR/new/out" &&
	expect_one_line_error "--extra .*no-such-layer: not a directory" &&
	no_new
'

test_expect_success 'export of a tree without scripts/get_maintainer.pl or checkpatch.pl: exit 2, one line naming it, nothing written' '
	for s in get_maintainer.pl checkpatch.pl; do
		g=$TEST_DIR/no-$s && rm -rf "$g" && git clone -q "$repo61" "$g" &&
		git -C "$g" rm -q "scripts/$s" && git -C "$g" commit -q -m "no $s" &&
		for dry in --dry-run ""; do
			expect_exit 2 "$SCRIPTS/export" $dry --results "$results61" --tree "$g" 6.1 "$TEST_DIR/new/out" &&
			expect_one_line_error "no-$s: no scripts/$s at HEAD" &&
			no_new || return 1
		done
	done
'

test_expect_success 'a refused export leaves none of the parents of OUTDIR it made' '
	mkdir -p "$TEST_DIR/nob" &&
	BUILD=$TEST_DIR/nob expect_exit 1 "$SCRIPTS/export" --tree "$repo61" 6.1 "$TEST_DIR/new/deeper/out" &&
	expect_one_line_error "no evidence for" &&
	no_new &&
	jq ".base = \"mainline\"" "$results61" >"$TEST_DIR/other.json" &&
	expect_exit 2 "$SCRIPTS/export" --results "$TEST_DIR/other.json" --tree "$repo61" 6.1 "$TEST_DIR/new/deeper/out" &&
	expect_last_error "made for the mainline series, not 6.1" &&
	no_new
'

test_expect_success 'export with TMPDIR full: exit 1 before the clone, one line naming TMPDIR, nothing left' '
	in_small_fs size=64k "fill_fs \"\$TEST_DIR/m\"; TMPDIR=\$TEST_DIR/m outside export61 6.1 \"\$TEST_DIR/new/out\"" &&
	cat "$TEST_DIR/stdout" "$TEST_DIR/stderr" &&
	expect_eq "$(cat "$TEST_DIR/rc")" 1 "exit code" &&
	expect_last_error "TMPDIR $TEST_DIR/m: 0 MB free, [0-9]+ MB needed: nothing written" &&
	! grep -q "^+ git clone" "$TEST_DIR/stderr" &&
	expect_eq "$(cat "$TEST_DIR/ls")" .fill "files in TMPDIR" &&
	no_new
'

test_expect_success 'export when TMPDIR fills up under git am: the last line names TMPDIR, not "does not apply"' '
	real_git=$(command -v git) &&
	mkdir -p "$TEST_DIR/fillbin" &&
	printf "#!/bin/sh\ncase \" \$* \" in *\" am \"*) dd if=/dev/zero of=\"\$TMPDIR/.fill\" bs=4k status=none 2>/dev/null ;; esac\nexec %s \"\$@\"\n" "$real_git" >"$TEST_DIR/fillbin/git" &&
	chmod +x "$TEST_DIR/fillbin/git" &&
	in_small_fs size=32m "TMPDIR=\$TEST_DIR/m PATH=\$TEST_DIR/fillbin:\$PATH outside export61 6.1 \"\$TEST_DIR/new/out\"" &&
	cat "$TEST_DIR/stdout" "$TEST_DIR/stderr" &&
	expect_eq "$(cat "$TEST_DIR/rc")" 1 "exit code" &&
	expect_last_error "scripts/apply --git in the scratch clone: failed \\(exit 1\\): no space left in TMPDIR \\($TEST_DIR/m\\)" &&
	! grep -q "does not apply" "$TEST_DIR/stderr" &&
	expect_eq "$(cat "$TEST_DIR/ls")" .fill "files in TMPDIR" &&
	no_new
'

test_done
