#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# What a probe found in report, get-kernel, scripts/evidence/measured and
# bench-apply: an output pair half replaced on a full disk, a replaced
# tree's leftover no later run removed, an empty kernel name taken for the
# default, option values and options that were not checked, a file
# removed that the run did not write, and a failed tool that did not end
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

test_done
