#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# report, ktap-parse and get-kernel on bad input and a full disk: one line
# naming the problem, the exit code their --help gives it, and the old
# output or the new one, never a part of one.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

FIX=$TOP/tests/suite/fixtures
r=$TEST_DIR/report
export FIX r

# report_dir DIR: a report directory of stage records from the fixture.
report_dir() {
	rm -rf "$1" && mkdir -p "$1/stages" &&
	for n in apply build-x86_64 boot-x86_64; do
		jq ".stages[\"$n\"]" "$FIX/results/local-6.12.json" >"$1/stages/$n.json" || return 1
	done
}

# restage FILE JQ: FILE rewritten by the jq filter JQ.
restage() { jq "$2" "$1" >"$1.new" && mv "$1.new" "$1"; }
export -f report_dir restage

test_expect_success 'report: an apply record without patches (a stage that failed) is reported' '
	report_dir "$r" &&
	expect_exit 0 report "$r" &&
	grep -q "^Tree: .*base \*\*6.12\*\*" "$r/report.md" &&
	expect_eq "$(jq -r .stages.apply.base "$r/results.json")" 6.12 base
'

test_expect_success 'report: a field of the wrong type: exit 2, one line naming the file and the field, nothing rewritten' '
	report_dir "$r" && report "$r" 2>/dev/null &&
	cp "$r/results.json" "$TEST_DIR/old.json" && cp "$r/report.md" "$TEST_DIR/old.md" &&
	restage "$r/stages/apply.json" ".patches = \"x\"" &&
	expect_exit 2 report "$r" && expect_one_line_error "stages/apply.json: .patches is string, want array or null" &&
	restage "$r/stages/apply.json" ".patches = [{name: \"0001-a.patch\", status: \"applied\", detail: 3}]" &&
	expect_exit 2 report "$r" && expect_one_line_error "apply.json: .patches\[0\].detail is number" &&
	restage "$r/stages/apply.json" "del(.patches)" &&
	restage "$r/stages/boot-x86_64.json" ".counts.passed = \"15\"" &&
	expect_exit 2 report "$r" && expect_one_line_error "boot-x86_64.json: .counts.passed is string, want number or null" &&
	cmp "$r/results.json" "$TEST_DIR/old.json" && cmp "$r/report.md" "$TEST_DIR/old.md" &&
	[ -z "$(ls -A "$r" | grep -v "^stages$\|^results.json$\|^report.md$")" ]
'

test_expect_success 'report: a full disk: exit 1, one line, the old results.json and report.md byte for byte' '
	report_dir "$TEST_DIR/src" &&
	in_small_fs size=256k "
		cp -r \"\$TEST_DIR/src\" \"\$TEST_DIR/m/r\" && report \"\$TEST_DIR/m/r\" 2>/dev/null &&
		cp \"\$TEST_DIR/m/r/results.json\" \"\$TEST_DIR/m/r/report.md\" \"\$TEST_DIR/\" &&
		fill_fs \"\$TEST_DIR/m\" &&
		rc=0; report \"\$TEST_DIR/m/r\" 2>\"\$TEST_DIR/err\" || rc=\$?
		[ \$rc -eq 1 ] || { echo \"exit \$rc\" >&2; exit 1; }
		cmp \"\$TEST_DIR/m/r/results.json\" \"\$TEST_DIR/results.json\" &&
		cmp \"\$TEST_DIR/m/r/report.md\" \"\$TEST_DIR/report.md\" &&
		[ -z \"\$(stray_files \"\$TEST_DIR/m\")\" ]
	" &&
	expect_one_line_error_in "$TEST_DIR/err" "cannot write it"
'

# --- ktap-parse ------------------------------------------------------------------

# xml_wf FILE: FILE is well-formed XML.
xml_wf() {
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout "$1"
	else
		/usr/bin/python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$1"
	fi
}
export -f xml_wf

test_expect_success 'ktap-parse: a full disk: exit 2, one line, the old JSON and XML kept, no temporary file' '
	ktap-parse "$FIX/ktap/kunit-pass.log" >/dev/null &&
	in_small_fs size=64k "
		echo old-json >\"\$TEST_DIR/m/out.json\" && echo old-xml >\"\$TEST_DIR/m/out.xml\" &&
		fill_fs \"\$TEST_DIR/m\" &&
		rc=0; ktap-parse --json \"\$TEST_DIR/m/out.json\" --junit \"\$TEST_DIR/m/out.xml\" \
			\"\$FIX/ktap/kunit-fail.log\" >/dev/null 2>\"\$TEST_DIR/err\" || rc=\$?
		[ \$rc -eq 2 ] || { echo \"exit \$rc\" >&2; exit 1; }
		[ \"\$(cat \"\$TEST_DIR/m/out.json\")\" = old-json ] && [ \"\$(cat \"\$TEST_DIR/m/out.xml\")\" = old-xml ] &&
		[ -z \"\$(stray_files \"\$TEST_DIR/m\")\" ]
	" &&
	expect_one_line_error_in "$TEST_DIR/err" "out.json: cannot write it"
'

test_expect_success 'ktap-parse: the JSON fits in the space, the XML not: neither is replaced' '
	in_small_fs size=64k "
		echo old-json >\"\$TEST_DIR/m/out.json\" &&
		mkdir \"\$TEST_DIR/m/full\" && mount -t tmpfs -o size=4k tmpfs \"\$TEST_DIR/m/full\" &&
		fill_fs \"\$TEST_DIR/m/full\" &&
		rc=0; ktap-parse --json \"\$TEST_DIR/m/out.json\" --junit \"\$TEST_DIR/m/full/out.xml\" \
			\"\$FIX/ktap/kunit-fail.log\" >/dev/null 2>\"\$TEST_DIR/err\" || rc=\$?
		[ \$rc -eq 2 ] || { echo \"exit \$rc\" >&2; exit 1; }
		[ \"\$(cat \"\$TEST_DIR/m/out.json\")\" = old-json ] &&
		[ ! -e \"\$TEST_DIR/m/full/out.xml\" ] && [ -z \"\$(stray_files \"\$TEST_DIR/m\")\" ]
	" &&
	expect_one_line_error_in "$TEST_DIR/err" "full/out.xml: cannot write it"
'

test_expect_success 'ktap-parse: a --json symlink is not written through' '
	echo outside >"$TEST_DIR/outside" && rm -f "$TEST_DIR/link.json" &&
	ln -s "$TEST_DIR/outside" "$TEST_DIR/link.json" &&
	expect_exit 2 ktap-parse --json "$TEST_DIR/link.json" "$FIX/ktap/kunit-pass.log" &&
	expect_one_line_error "link.json: a symlink" &&
	expect_eq "$(cat "$TEST_DIR/outside")" outside "the symlink target"
'

test_expect_success 'ktap-parse: a log name, --name and --expect with invalid UTF-8: well-formed XML, valid JSON' '
	bad=$(printf "bad\377\376 <name>&") &&
	cp "$FIX/ktap/kunit-pass.log" "$TEST_DIR/$bad.log" &&
	expect_exit 0 ktap-parse --json "$TEST_DIR/o.json" --junit "$TEST_DIR/o.xml" "$TEST_DIR/$bad.log" &&
	xml_wf "$TEST_DIR/o.xml" && expect_eq "$(jq -r .name "$TEST_DIR/o.json")" "bad?? <name>&" name &&
	expect_exit 1 ktap-parse --json "$TEST_DIR/o.json" --junit "$TEST_DIR/o.xml" \
		--name "$(printf "r\300\257n")" --expect "$(printf "s\355\240\200")" "$FIX/ktap/kunit-pass.log" &&
	xml_wf "$TEST_DIR/o.xml" && jq -e . "$TEST_DIR/o.json" >/dev/null &&
	expect_eq "$(jq -r .name "$TEST_DIR/o.json")" "r??n" name
'

# --- get-kernel ----------------------------------------------------------------------

# fake_tarball NAME [FILES]: $TEST_DIR/NAME.tar.xz, a tiny kernel tree as
# Debian packs it (linux-source-6.1/...), with FILES small files more
# under arch/ and, for NAME big, 2 MB of zeros.
fake_tarball() {
	local t=$TEST_DIR/tar/$1/linux-source-6.1 i
	rm -rf "$TEST_DIR/tar/$1" && mkdir -p "$t/arch" &&
	printf 'VERSION = 6\nPATCHLEVEL = 1\nSUBLEVEL = 0\n' >"$t/Makefile" && : >"$t/Kconfig" &&
	for ((i = 0; i < ${2:-0}; i++)); do echo "$i" >"$t/arch/f$i"; done &&
	{ [ "$1" != big ] || head -c 2M /dev/zero >"$t/big"; } &&
	tar -C "$TEST_DIR/tar/$1" -cJf "$TEST_DIR/$1.tar.xz" linux-source-6.1
}

# gk OPTIONS TARBALL SETUP ARGS: get-kernel ARGS with BUILD on a tmpfs of
# OPTIONS and TARBALL as /usr/src/linux-source-6.1.tar.xz, both in a
# private mount namespace; SETUP (shell code) runs first.  Its exit code
# in $TEST_DIR/rc, stdout and stderr in $TEST_DIR/stdout and stderr, what
# build/src then holds in $TEST_DIR/ls, the mode of its linux-6.1 in
# $TEST_DIR/mode and the exit code of a --check of it in $TEST_DIR/check.
gk() {
	rm -rf "$TEST_DIR/usrsrc" && mkdir -p "$TEST_DIR/usrsrc" &&
	cp "$TEST_DIR/$2.tar.xz" "$TEST_DIR/usrsrc/linux-source-6.1.tar.xz" &&
	GK_SETUP=$3 GK_ARGS=$4 && export GK_SETUP GK_ARGS &&
	in_small_fs "$1" '
		mount --bind "$TEST_DIR/usrsrc" /usr/src
		export BUILD=$TEST_DIR/m/build && mkdir -p "$BUILD/src" && cd "$BUILD/src"
		eval "$GK_SETUP"
		rc=0; get-kernel $GK_ARGS >"$TEST_DIR/stdout" 2>"$TEST_DIR/stderr" || rc=$?
		echo $rc >"$TEST_DIR/rc"
		cd "$BUILD/src"
		find . -mindepth 1 -maxdepth 2 | sort >"$TEST_DIR/ls"
		[ ! -d linux-6.1 ] || stat -c %a linux-6.1 >"$TEST_DIR/mode"
		rc=-; [ ! -d linux-6.1 ] || { rc=0; get-kernel --check 6.1 >/dev/null 2>&1 || rc=$?; }
		echo "$rc" >"$TEST_DIR/check"
	'
}
export -f gk

fake_tarball big && fake_tarball many 100 && fake_tarball small

test_expect_success 'get-kernel: not enough space for the tree: exit 1, one line, nothing unpacked' '
	gk size=1m big "" 6.1 &&
	expect_eq "$(cat "$TEST_DIR/rc")" 1 "exit code" &&
	expect_last_error "src: 1 MB free, 3 MB needed: nothing written" &&
	expect_eq "$(cat "$TEST_DIR/ls")" "./.lock" "build/src"
'

test_expect_success 'get-kernel: an unpack that fails (no inodes left): exit 1, tar.s first error in one line, nothing left' '
	gk size=8m,nr_inodes=40 many "" 6.1 &&
	expect_eq "$(cat "$TEST_DIR/rc")" 1 "exit code" &&
	expect_last_error "cannot unpack it into .*: tar: .*No space left on device; nothing kept" &&
	[ "$(wc -l <"$TEST_DIR/stderr")" -le 3 ] &&
	expect_eq "$(cat "$TEST_DIR/ls")" "./.lock" "build/src"
'

test_expect_success 'get-kernel: what an interrupted unpack left is removed; the next tree is whole, readable, checked' '
	gk size=8m small "
		mkdir -p .linux-6.1.new.AbC123/arch linux-6.1.tmp/arch && : >.linux-6.1.new.AbC123/.kernel-overlay-output
	" 6.1 &&
	expect_eq "$(cat "$TEST_DIR/rc")" 0 "exit code" &&
	expect_eq "$(cat "$TEST_DIR/stdout")" "$TEST_DIR/m/build/src/linux-6.1" "the tree" &&
	expect_eq "$(cat "$TEST_DIR/ls")" "$(printf "%s\n" ./.lock ./linux-6.1 ./linux-6.1.md5 ./linux-6.1.package \
		./linux-6.1.source ./linux-6.1/Kconfig ./linux-6.1/Makefile ./linux-6.1/arch)" "build/src" &&
	expect_eq "$(cat "$TEST_DIR/mode")" 755 "mode of the tree" &&
	expect_eq "$(cat "$TEST_DIR/check")" 0 "get-kernel --check"
'

test_expect_success 'get-kernel: a directory named 6.1 here does not hide the base; a second kernel is an error' '
	gk size=8m small "mkdir -p \"\$TEST_DIR/m/cwd/6.1/arch\" && cd \"\$TEST_DIR/m/cwd\"" 6.1 &&
	expect_eq "$(cat "$TEST_DIR/rc")" 0 "exit code" &&
	expect_eq "$(cat "$TEST_DIR/stdout")" "$TEST_DIR/m/build/src/linux-6.1" "the tree" &&
	gk size=8m small "" "6.1 6.12" &&
	expect_eq "$(cat "$TEST_DIR/rc")" 2 "exit code" && expect_one_line_error "more than one kernel given: 6.1, 6.12" &&
	gk size=8m small "mkdir -p \"\$TEST_DIR/m/cwd/6.1\" && cd \"\$TEST_DIR/m/cwd\"" ./6.1 &&
	expect_eq "$(cat "$TEST_DIR/rc")" 2 "exit code" && expect_one_line_error "6.1: not a kernel tree"
'

test_done
