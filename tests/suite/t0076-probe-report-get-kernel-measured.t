#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# What a probe found in report, get-kernel, scripts/evidence/measured and
# bench-apply: an output pair half replaced on a full disk, a replaced
# tree's leftover no later run removed, an empty kernel name taken for the
# default, option values and options that were not checked, files
# removed that the run did not make, and a failed tool that did not end
# in one line naming it.  No kernel tree is unpacked here: get-kernel gets
# a fake Debian package of a few files, as in t0075.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

FIX=$TOP/tests/suite/fixtures
export FIX

# --- report --------------------------------------------------------------------------

# The stage records of a report, outside the small file systems.
mkdir -p "$TEST_DIR/src/stages" "$TEST_DIR/old" "$TEST_DIR/new"
for n in apply build-x86_64 boot-x86_64; do
	jq ".stages[\"$n\"]" "$FIX/results/local-6.12.json" >"$TEST_DIR/src/stages/$n.json"
done

# report_pair: in the small file system ($TEST_DIR/m), a report of the
# records; then one more stage record, board-x, whose markdown (48 KB)
# goes into report.md only (a stage no evidence table names), and the
# disk filled but for 16 KB: room for the new results.json, not for the
# new report.md.  report again: its exit code in $TEST_DIR/rc, stderr in
# err; the first run's outputs in old/, what is there after the second in
# new/, the temporary files left in stray.  With "room", the file that
# filled the disk is removed first.
report_pair() {
	local m=$TEST_DIR/m rc=0
	cp -r "$TEST_DIR/src" "$m/r" && report "$m/r" 2>/dev/null &&
		cp "$m/r/results.json" "$m/r/report.md" "$TEST_DIR/old/" &&
		jq '.stage.name = "board-x"' "$m/r/stages/build-x86_64.json" >"$m/r/stages/board-x.json" &&
		{ echo "## board-x" && head -c 48K /dev/zero | tr '\0' x | fold -w 64; } >"$m/r/stages/board-x.md" &&
		fill_fs "$m" && truncate -s -16K "$m/.fill" || return 1
	[ "${1:-}" != room ] || rm -f "$m/.fill"
	report "$m/r" 2>"$TEST_DIR/err" || rc=$?
	echo "$rc" >"$TEST_DIR/rc"
	cp "$m/r/results.json" "$m/r/report.md" "$TEST_DIR/new/" &&
		stray_files "$m" >"$TEST_DIR/stray"
}
export -f report_pair

test_expect_success 'report: room for the new results.json, not for report.md: exit 1, one line, both old byte for byte' '
	in_small_fs size=512k report_pair &&
	expect_eq "$(cat "$TEST_DIR/rc")" 1 "exit code" &&
	expect_one_line_error_in "$TEST_DIR/err" "report.md: cannot write it" &&
	cmp "$TEST_DIR/old/results.json" "$TEST_DIR/new/results.json" &&
	cmp "$TEST_DIR/old/report.md" "$TEST_DIR/new/report.md" &&
	expect_eq "$(cat "$TEST_DIR/stray")" "" "temporary files left"
'

test_expect_success 'report: with room, both new' '
	in_small_fs size=512k "report_pair room" &&
	expect_eq "$(cat "$TEST_DIR/rc")" 0 "exit code" &&
	expect_eq "$(jq -r ".stages[\"board-x\"].stage.name" "$TEST_DIR/new/results.json")" board-x "results.json" &&
	grep -qx "## board-x" "$TEST_DIR/new/report.md" &&
	expect_eq "$(cat "$TEST_DIR/stray")" "" "temporary files left"
'

test_expect_success 'report: TMPDIR full: exit 1, one line naming the write, nothing written' '
	rm -rf "$TEST_DIR/r" && cp -r "$TEST_DIR/src" "$TEST_DIR/r" &&
	in_small_fs size=64k "
		fill_fs \"\$TEST_DIR/m\"
		rc=0; TMPDIR=\$TEST_DIR/m report \"\$TEST_DIR/r\" 2>\"\$TEST_DIR/err\" || rc=\$?
		echo \$rc >\"\$TEST_DIR/rc\"
		ls -A \"\$TEST_DIR/m\" >\"\$TEST_DIR/ls\"
	" &&
	expect_eq "$(cat "$TEST_DIR/rc")" 1 "exit code" &&
	expect_one_line_error_in "$TEST_DIR/err" "cannot make the report in $TEST_DIR/m/report\.[^ ]* \(TMPDIR\): .*No space left on device; nothing written" &&
	expect_eq "$(cat "$TEST_DIR/ls")" .fill "TMPDIR afterwards" &&
	[ ! -e "$TEST_DIR/r/results.json" ] && [ ! -e "$TEST_DIR/r/report.md" ]
'

test_expect_success 'report "", two REPORT_DIRs, an output that is a directory: exit 2, one line, nothing written' '
	rm -rf "$TEST_DIR/r" && cp -r "$TEST_DIR/src" "$TEST_DIR/r" &&
	BUILD=$TEST_DIR/r/nothing expect_exit 2 report "" && expect_one_line_error "an empty REPORT_DIR" &&
	expect_exit 2 report "$TEST_DIR/r" "$TEST_DIR/src" && expect_one_line_error "one REPORT_DIR at most" &&
	mkdir "$TEST_DIR/r/report.md" &&
	expect_exit 2 report "$TEST_DIR/r" && expect_one_line_error "r/report.md: a directory" &&
	[ ! -e "$TEST_DIR/r/results.json" ] && [ -z "$(stray_files "$TEST_DIR/r")" ]
'

# --- get-kernel ----------------------------------------------------------------------

# fake_tarball NAME FILES: $TEST_DIR/NAME.tar.xz, a tiny kernel tree as
# Debian packs it (linux-source-6.1/...), with FILES empty files more
# under arch/, a thousand a directory.
fake_tarball() {
	local t=$TEST_DIR/tar/$1/linux-source-6.1 d
	rm -rf "$TEST_DIR/tar/$1" && mkdir -p "$t/arch" &&
		printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\n' >"$t/Makefile" && : >"$t/Kconfig" &&
		for ((d = 0; d < $2 / 1000; d++)); do
			mkdir "$t/arch/d$d" && (cd "$t/arch/d$d" && seq 1000 | xargs touch) || return 1
		done &&
		tar -C "$TEST_DIR/tar/$1" -cJf "$TEST_DIR/$1.tar.xz" linux-source-6.1
}
# many: removing its tree takes a while (20000 files); small: three files.
fake_tarball many 20000 && fake_tarball small 0
mkdir -p "$TEST_DIR/usrsrc"
# No test may install a package: apt-get stands in; its install fails.
stand_in apt-get '[ "$1" != update ] || exit 0' 'echo "E: Unable to locate package $*" >&2' \
	'echo "E: (the stand-in of t0076)" >&2' 'exit 100'
PATH=$TEST_DIR/bin:$PATH

# in_gk BODY: BODY in a private mount namespace with BUILD on a tmpfs
# ($TEST_DIR/m/build, src=$BUILD/src) and $TEST_DIR/usrsrc as /usr/src,
# where linux-source-6.1.tar.xz is 6.1's Debian package.
in_gk() {
	in_small_fs size=96m '
		mount --bind "$TEST_DIR/usrsrc" /usr/src
		export BUILD=$TEST_DIR/m/build && mkdir -p "$BUILD/src" && src=$BUILD/src
		'"$1"
}
# after_gk: the exit code of a get-kernel 6.1 (stdout, stderr) in
# $TEST_DIR/rc, what build/src holds then in ls, the exit code of a
# --check of the tree in check.
after_gk() {
	local rc=0
	get-kernel 6.1 >"$TEST_DIR/stdout" 2>"$TEST_DIR/stderr" || rc=$?
	echo "$rc" >"$TEST_DIR/rc"
	ls -A "$BUILD/src" >"$TEST_DIR/ls" 2>/dev/null || :
	rc=0
	get-kernel --check 6.1 >/dev/null 2>&1 || rc=$?
	echo "$rc" >"$TEST_DIR/check"
}
export -f in_gk after_gk

test_expect_success 'get-kernel "": exit 2, one line; with no argument, the default kernel still' '
	d=$(bash -c ". \"\$1/lib/common.sh\" && . \"\$1/lib/series.sh\" && base_default" _ "$SCRIPTS") &&
	mkdir -p "$TEST_DIR/b/src/linux-$d" && echo "linux-source-$d=1" >"$TEST_DIR/b/src/linux-$d.package" &&
	BUILD=$TEST_DIR/b expect_exit 2 get-kernel "" && expect_one_line_error "an empty kernel name" &&
	BUILD=$TEST_DIR/b expect_exit 2 get-kernel --check "" && expect_one_line_error "an empty kernel name" &&
	BUILD=$TEST_DIR/b expect_exit 0 get-kernel &&
	expect_eq "$(cat "$TEST_DIR/stdout")" "$TEST_DIR/b/src/linux-$d" "get-kernel with no argument"
'

test_expect_success 'get-kernel stopped (SIGKILL) while it removes the tree it replaced: the next run removes what is left' '
	cp "$TEST_DIR/many.tar.xz" "$TEST_DIR/usrsrc/linux-source-6.1.tar.xz" &&
	in_gk "
		get-kernel 6.1 >/dev/null 2>&1
		cp \"\$TEST_DIR/small.tar.xz\" /usr/src/linux-source-6.1.tar.xz
		setsid get-kernel 6.1 >/dev/null 2>&1 &
		pid=\$!
		while kill -0 \$pid 2>/dev/null; do
			if [ ! -e \"\$src/linux-6.1/arch/d0\" ] && [ -e \"\$src/linux-6.1/Makefile\" ] &&
				compgen -G \"\$src/.linux-6.1.old.*\" >/dev/null; then
				kill -9 -- -\$pid
				break
			fi
		done
		wait \$pid || :
		ls -A \"\$src\" >\"\$TEST_DIR/ls.killed\"
		after_gk
	" &&
	grep -q "^\.linux-6\.1\.old\." "$TEST_DIR/ls.killed" ||
		fail "not stopped while removing the old tree: $(cat "$TEST_DIR/ls.killed")" &&
	expect_eq "$(cat "$TEST_DIR/rc")" 0 "exit code of the next run" &&
	expect_eq "$(cat "$TEST_DIR/ls")" "$(printf "%s\n" .lock linux-6.1 linux-6.1.md5 linux-6.1.package linux-6.1.source)" "build/src" &&
	expect_eq "$(cat "$TEST_DIR/check")" 0 "get-kernel --check"
'

test_expect_success 'get-kernel removes only the leftovers it marked; the others are named and kept' '
	cp "$TEST_DIR/small.tar.xz" "$TEST_DIR/usrsrc/linux-source-6.1.tar.xz" &&
	in_gk "
		get-kernel 6.1 >/dev/null 2>&1
		mkdir -p \"\$src/.linux-6.1.old.new.AbC123/linux-6.1/arch\" \"\$src/.linux-6.12.new.XyZ789/arch\" \
			\"\$src/.linux-6.1.new.QwE456/arch\" \"\$src/.linux-6.1.old.backup/arch\" \"\$src/.linux-6.1.new.EmP123\" \
			\"\$TEST_DIR/m/outside/arch\" \"\$src/mine\"
		: >\"\$src/.linux-6.1.old.new.AbC123/.kernel-overlay-output\"
		: >\"\$src/.linux-6.12.new.XyZ789/.kernel-overlay-output\"
		: >\"\$TEST_DIR/m/outside/.kernel-overlay-output\"
		ln -s \"\$TEST_DIR/m/outside\" \"\$src/.linux-6.1.old.new.LnK123\"
		after_gk
		ls -A \"\$TEST_DIR/m/outside\" >\"\$TEST_DIR/outside\"
	" &&
	expect_eq "$(cat "$TEST_DIR/rc")" 0 "exit code" &&
	expect_eq "$(cat "$TEST_DIR/ls")" "$(printf "%s\n" .linux-6.1.new.QwE456 .linux-6.1.old.backup \
		.linux-6.1.old.new.LnK123 .lock linux-6.1 linux-6.1.md5 linux-6.1.package linux-6.1.source mine)" "build/src" &&
	expect_eq "$(cat "$TEST_DIR/outside")" "$(printf "%s\n" .kernel-overlay-output arch)" "the symlink target" &&
	grep -q "^get-kernel: warning: .*/\.linux-6\.1\.new\.QwE456: not made by get-kernel" "$TEST_DIR/stderr" &&
	grep -q "^get-kernel: warning: .*/\.linux-6\.1\.old\.backup: .*left as it is" "$TEST_DIR/stderr" &&
	expect_eq "$(grep -c ": error: " "$TEST_DIR/stderr")" 0 "error lines"
'

test_expect_success 'get-kernel: apt-get install failing, build/ read-only: exit 1, the last line names what failed' '
	rm -f "$TEST_DIR/usrsrc/linux-source-6.1.tar.xz" &&
	in_gk "after_gk" &&
	expect_eq "$(cat "$TEST_DIR/rc")" 1 "exit code" &&
	expect_last_error "apt-get install linux-source-6.1 failed" &&
	in_gk "mount -o remount,ro \"\$TEST_DIR/m\" && BUILD=\$TEST_DIR/m/b after_gk" &&
	expect_eq "$(cat "$TEST_DIR/rc")" 1 "exit code" &&
	expect_one_line_error "m/b/src: cannot create it"
'

# --- scripts/evidence/measured --------------------------------------------------------

mkdir -p "$TEST_DIR/res"
echo '{"result": "pass", "version": "7.3.4", "tree": "/work/linux-7.3", "n": 1}' >"$TEST_DIR/res/r.json"
printf '%s\n' "## Whole kernel" "" "| a | b |" >"$TEST_DIR/res/r.md"
echo '{"result": "pass", "version": "7.2.13", "tree": "/work/linux-7.2", "n": 2}' >"$TEST_DIR/res/other.json"

# measure OUT ARGS...: measured for Linux 7.3.4 at /work/linux-7.3, its
# JSON and markdown OUT.json and OUT.md.
measure() {
	local out=$1
	shift
	measured --make evidence-armv5,TOOLCHAIN=gcc-16 --kernel 7.3 --version 7.3.4 \
		--tree /work/linux-7.3 --json "$out.json" --markdown "$out.md" "$@"
}
export -f measure

test_expect_success 'measured --make that is not TARGET[,VAR=VALUE...]: exit 2, one line' '
	for m in , ",TOOLCHAIN=gcc-16" "x," "x,,TOOLCHAIN=gcc-16" "x,TOOLCHAIN" "x y" "x,T=a b" "=x"; do
		expect_exit 2 measured --make "$m" --kernel 7.3 --version 7.3.4 --tree /work/linux-7.3 "$TEST_DIR/res/r.json" &&
		expect_one_line_error "--make .*: not TARGET\[,VAR=VALUE...\]" || return 1
	done &&
	expect_exit 0 measured --make "x,A=1,B_2=a/b" --kernel 7.3 --version 7.3.4 --tree /work/linux-7.3 "$TEST_DIR/res/r.json" &&
	grep -q "^ok 1 - make x KERNEL=7.3 A=1 B_2=a/b: measured on this tree" "$TEST_DIR/stdout"
'

test_expect_success 'measured, nothing measured: the --markdown file there is not removed; the JSON says n/a' '
	echo mine >"$TEST_DIR/keep.md" &&
	expect_exit 0 measured --make evidence-armv5 --kernel 7.3 --version 7.3.4 --tree /work/linux-7.3 \
		--json "$TEST_DIR/keep.json" --markdown "$TEST_DIR/keep.md" "$TEST_DIR/res/other.json" "$TEST_DIR/res/none.json" &&
	expect_eq "$(cat "$TEST_DIR/keep.md")" mine "the markdown file" &&
	grep -qx "measured: nothing measured on this tree: $TEST_DIR/keep.md not written" "$TEST_DIR/stderr" &&
	expect_eq "$(jq -r .result "$TEST_DIR/keep.json")" n/a "the JSON"
'

test_expect_success 'report: an n/a stage shows its reason, not a markdown an earlier run left beside it' '
	rm -rf "$TEST_DIR/rn" && cp -r "$TEST_DIR/src" "$TEST_DIR/rn" &&
	measure "$TEST_DIR/rn/stages/objects-armv5-gcc16" "$TEST_DIR/res/r.json" >/dev/null 2>&1 &&
	grep -qx "| a | b |" "$TEST_DIR/rn/stages/objects-armv5-gcc16.md" &&
	measure "$TEST_DIR/rn/stages/objects-armv5-gcc16" "$TEST_DIR/res/other.json" >/dev/null 2>&1 &&
	grep -qx "| a | b |" "$TEST_DIR/rn/stages/objects-armv5-gcc16.md" &&
	jq ". + {stage: {name: \"objects-armv5-gcc16\", kind: \"objects\", proves: \"0001 0002\"}}" \
		"$TEST_DIR/rn/stages/objects-armv5-gcc16.json" >"$TEST_DIR/rn/x" && mv "$TEST_DIR/rn/x" "$TEST_DIR/rn/stages/objects-armv5-gcc16.json" &&
	expect_exit 0 report "$TEST_DIR/rn" &&
	grep -q "measured on another tree only (Linux 7.2.13 at /work/linux-7.2)" "$TEST_DIR/rn/report.md" &&
	! grep -q "| a | b |" "$TEST_DIR/rn/report.md"
'

# measure_pair: in the small file system, measured writes a JSON and
# markdown; then, with a RESULT whose markdown is 48 KB and the disk
# filled but for 16 KB (room for the new JSON, not the markdown), again.
# As report_pair: rc, err, old/, new/, stray.
measure_pair() {
	local m=$TEST_DIR/m rc=0
	mkdir "$m/res" && cp "$TEST_DIR/res/r.json" "$TEST_DIR/res/r.md" "$m/res/" &&
		measure "$m/out" "$m/res/r.json" >/dev/null 2>&1 &&
		cp "$m/out.json" "$m/out.md" "$TEST_DIR/old/" &&
		jq ".n = 5" "$TEST_DIR/res/r.json" >"$m/res/r.json" &&
		{ echo "## Whole kernel" && head -c 48K /dev/zero | tr '\0' x | fold -w 64; } >"$m/res/r.md" &&
		fill_fs "$m" && truncate -s -16K "$m/.fill" || return 1
	measure "$m/out" "$m/res/r.json" >/dev/null 2>"$TEST_DIR/err" || rc=$?
	echo "$rc" >"$TEST_DIR/rc"
	cp "$m/out.json" "$m/out.md" "$TEST_DIR/new/" &&
		stray_files "$m" >"$TEST_DIR/stray"
}
export -f measure_pair

test_expect_success 'measured: room for the new JSON, not for the markdown: exit 1, one line, both old' '
	rm -f "$TEST_DIR"/old/* "$TEST_DIR"/new/* &&
	in_small_fs size=512k measure_pair &&
	expect_eq "$(cat "$TEST_DIR/rc")" 1 "exit code" &&
	expect_one_line_error_in "$TEST_DIR/err" "out.md: cannot write it" &&
	cmp "$TEST_DIR/old/out.json" "$TEST_DIR/new/out.json" &&
	cmp "$TEST_DIR/old/out.md" "$TEST_DIR/new/out.md" &&
	expect_eq "$(cat "$TEST_DIR/stray")" "" "temporary files left"
'

test_expect_success 'measured "" as a RESULT: exit 2, one line (it was "not measured")' '
	expect_exit 2 measure "$TEST_DIR/e" "" "$TEST_DIR/res/r.json" &&
	expect_one_line_error "an empty RESULT" && [ ! -e "$TEST_DIR/e.json" ]
'

test_expect_success 'measured: a --markdown that is a directory: exit 2, one line, the JSON not written' '
	rm -rf "$TEST_DIR/d.json" "$TEST_DIR/d.md" && mkdir "$TEST_DIR/d.md" &&
	expect_exit 2 measure "$TEST_DIR/d" "$TEST_DIR/res/r.json" &&
	expect_one_line_error "d.md: a directory" && [ ! -e "$TEST_DIR/d.json" ] &&
	[ -z "$(stray_files "$TEST_DIR")" ]
'

test_expect_success 'measured: a RESULT whose .sources is not an object: exit 2, one line naming it' '
	echo "{\"a\": \"b\"}" >"$TEST_DIR/now.json" &&
	jq ".sources = \"x\"" "$TEST_DIR/res/r.json" >"$TEST_DIR/res/s.json" &&
	expect_exit 2 measure "$TEST_DIR/s" --sources "$TEST_DIR/now.json" "$TEST_DIR/res/s.json" &&
	expect_one_line_error "res/s.json: .sources is string, want an object"
'

# --- bench-apply ------------------------------------------------------------------------

# bench_build: $TEST_DIR/bb, a BUILD whose default kernel is a fake tree of
# three files (get-kernel takes it as unpacked), with a file of someone
# else's under bench/.  scripts/apply finds no line for it: a benchmark on
# it stops at its first round.
bench_build() {
	local d
	d=$(bash -c '. "$1/lib/common.sh" && . "$1/lib/series.sh" && base_default' _ "$SCRIPTS") &&
		rm -rf "$TEST_DIR/bb" && mkdir -p "$TEST_DIR/bb/src/linux-$d/arch" "$TEST_DIR/bb/bench/mine" &&
		printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\n' >"$TEST_DIR/bb/src/linux-$d/Makefile" &&
		: >"$TEST_DIR/bb/src/linux-$d/Kconfig" && echo "linux-source-$d=1" >"$TEST_DIR/bb/src/linux-$d.package" &&
		echo notes >"$TEST_DIR/bb/bench/mine/notes"
}
export -f bench_build

test_expect_success 'bench-apply: an unknown option, a second argument, an empty RUNS: exit 2, one line' '
	bench_build &&
	for args in "--frob" "3 --frob" "3 4" ""; do
		BUILD=$TEST_DIR/bb expect_exit 2 bench-apply ${args:-""} || return 1
		case $args in
		*--frob) expect_one_line_error "unknown option --frob" ;;
		"3 4") expect_one_line_error "one RUNS at most" ;;
		*) expect_one_line_error "RUNS must be a positive number" ;;
		esac || return 1
	done &&
	[ ! -e "$TEST_DIR/bb/bench/apply" ]
'

test_expect_success 'bench-apply removes its own copies only, also when it fails; a second run at once stops (exit 4)' '
	bench_build &&
	BUILD=$TEST_DIR/bb expect_exit 1 bench-apply 1 &&
	expect_last_error "scripts/apply .*failed \(exit [0-9]+\)" &&
	expect_eq "$(cd "$TEST_DIR/bb/bench" && find . | sort | paste -sd " " -)" ". ./mine ./mine/notes" "build/bench" &&
	BUILD=$TEST_DIR/bb expect_exit 4 flock "$TEST_DIR/bb/bench" bench-apply 1 &&
	expect_last_error "bench: another run holds the lock" &&
	expect_eq "$(cd "$TEST_DIR/bb/bench" && find . | sort | paste -sd " " -)" ". ./mine ./mine/notes" "build/bench"
'

test_done
