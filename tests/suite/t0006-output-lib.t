#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/lib/output.sh, the one way every command writes an output: a
# file or a directory is the old one or the new one, never a part, on a
# full disk and in a read-only directory; nothing is written through a
# symlink; safe_rm_rf removes only what the project made, never /, the
# project, a source or one of their parents.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# lib CODE: CODE run by bash with the project's library sourced (PROG=lib).
lib() {
	PROG=lib bash -c '. "$TOP/scripts/lib/common.sh"; set -euo pipefail; eval "$1"' _ "$1"
}
export -f lib

test_expect_success 'out_write: the new content, mode kept, no temporary file left' '
	d=$TEST_DIR/w && mkdir -p "$d" && echo old >"$d/f" && chmod 640 "$d/f" &&
	expect_exit 0 lib "out_write \"$d/f\" echo new" &&
	expect_eq "$(cat "$d/f")" new content &&
	expect_eq "$(stat -c %a "$d/f")" 640 mode &&
	expect_eq "$(stray_files "$d")" "" "stray files"
'

test_expect_success 'out_write: a failing command leaves the old file and its exit code' '
	d=$TEST_DIR/w && echo old >"$d/f" &&
	expect_exit 7 lib "out_write \"$d/f\" sh -c \"echo partial; exit 7\"" &&
	expect_eq "$(cat "$d/f")" old content &&
	expect_eq "$(stray_files "$d")" "" "stray files"
'

test_expect_success 'out_write on a full disk: the old file, one line, exit 1' '
	in_small_fs size=64k "
		echo old >\"\$TEST_DIR/m/f\" && fill_fs \"\$TEST_DIR/m\" &&
		if lib \"out_write \\\"\$TEST_DIR/m/f\\\" head -c 100000 /dev/zero\" 2>\"\$TEST_DIR/err\"; then exit 9; else rc=\$?; fi
		[ \$rc -eq 1 ] && [ \"\$(cat \"\$TEST_DIR/m/f\")\" = old ] &&
		[ -z \"\$(stray_files \"\$TEST_DIR/m\")\" ]
	" &&
	expect_one_line_error_in "$TEST_DIR/err" "cannot write it"
'

test_expect_success 'out_write refuses a symlink and a read-only directory, one line each' '
	d=$TEST_DIR/s && mkdir -p "$d/ro" && echo outside >"$TEST_DIR/outside" &&
	ln -s "$TEST_DIR/outside" "$d/link" &&
	expect_exit 3 lib "out_write \"$d/link\" echo new" &&
	expect_one_line_error "a symlink: refusing to write through it" &&
	expect_eq "$(cat "$TEST_DIR/outside")" outside "the link target" &&
	in_small_fs size=64k "
		echo old >\"\$TEST_DIR/m/f\" && mount -o remount,ro \"\$TEST_DIR/m\" &&
		if lib \"out_write \\\"\$TEST_DIR/m/f\\\" echo new\" 2>\"\$TEST_DIR/err\"; then exit 9; else rc=\$?; fi
		[ \$rc -eq 1 ] && [ \"\$(cat \"\$TEST_DIR/m/f\")\" = old ]
	" &&
	expect_one_line_error_in "$TEST_DIR/err" "cannot create a file in .*read-only"
'

test_expect_success 'out_dir_begin/out_dir_commit: the old set until the new one is whole' '
	d=$TEST_DIR/dirs && mkdir -p "$d" &&
	expect_exit 0 lib "out_dir_begin $d/set; echo 1 >\"\$OUT_DIR/a\"; out_dir_commit \"\$OUT_DIR\" $d/set" &&
	expect_exit 0 lib "out_dir_begin $d/set; echo 2 >\"\$OUT_DIR/b\"; out_dir_commit \"\$OUT_DIR\" $d/set" &&
	[ ! -e "$d/set/a" ] && expect_eq "$(cat "$d/set/b")" 2 "new set" &&
	expect_exit 1 lib "out_dir_begin $d/set; echo 3 >\"\$OUT_DIR/c\"; exit 1" &&
	expect_eq "$(ls "$d/set")" b "the set after a failed run" &&
	expect_eq "$(stray_files "$d")" "" "stray directories"
'

test_expect_success 'out_dir_commit does not replace a directory it did not make' '
	d=$TEST_DIR/foreign && mkdir -p "$d/set" && echo mine >"$d/set/user-file" &&
	expect_exit 3 lib "out_dir_begin $d/set; out_dir_commit \"\$OUT_DIR\" $d/set" &&
	expect_one_line_error "was not made by this project" &&
	expect_eq "$(cat "$d/set/user-file")" mine "the user file" &&
	expect_eq "$(stray_files "$d")" "" "stray directories"
'

test_expect_success 'safe_rm_rf: refuses /, the project, a parent of a source, a foreign directory' '
	d=$TEST_DIR/rm && mkdir -p "$d/src/linux" "$d/foreign" "$d/ours" && : >"$d/ours/.kernel-overlay-output" &&
	expect_exit 3 lib "safe_rm_rf /" && expect_one_line_error "is /" &&
	expect_exit 3 lib "safe_rm_rf $TOP/.." && expect_one_line_error "holds $TOP" &&
	expect_exit 3 lib "safe_rm_rf $d/src $d/src/linux" && expect_one_line_error "holds $d/src/linux" &&
	expect_exit 3 lib "safe_rm_rf $d/foreign" && expect_one_line_error "not made by this project" &&
	[ -d "$d/src/linux" ] && [ -d "$d/foreign" ] &&
	expect_exit 0 lib "safe_rm_rf $d/ours" && [ ! -e "$d/ours" ]
'

test_expect_success 'an EXIT trap set before the library (a test'"'"'s clean-up) still runs, after at_exit' '
	d=$TEST_DIR/trap && mkdir -p "$d" &&
	expect_exit 5 bash -c "trap \"echo earlier >>$d/order\" EXIT; . \"\$TOP/scripts/lib/common.sh\"; . \"\$TOP/scripts/lib/common.sh\"; at_exit \"echo at_exit >>$d/order\"; exit 5" &&
	expect_eq "$(paste -sd " " "$d/order")" "at_exit earlier" "order of the exit code run"
'

# tests/suite/patches.sh's series_lib and kbuild_prereq source the library
# in a subshell: a parent's EXIT trap (test-lib's removal of TEST_DIR)
# that trap -p shows there must not run when that subshell exits.
test_expect_success 'a subshell that sources the library runs its own exit code only, not its parent'"'"'s' '
	d=$TEST_DIR/sub && mkdir -p "$d" &&
	expect_exit 0 bash -c "trap \"echo parent >>$d/order\" EXIT
		( . \"\$TOP/scripts/lib/common.sh\"; at_exit \"echo sub >>$d/order\" )
		echo between >>$d/order
		. \"\$TOP/scripts/lib/common.sh\"
		( . \"\$TOP/scripts/lib/common.sh\" ); ( at_exit \"echo never >>$d/order\"; exit 3 )
		echo end >>$d/order" &&
	expect_eq "$(paste -sd " " "$d/order")" "sub between end parent" "order of the exit code run"
'

test_expect_success 'out_need_space: one line when the file system is too small' '
	expect_exit 1 lib "out_need_space $TEST_DIR 999999999999" &&
	expect_one_line_error "MB needed: nothing written" &&
	expect_exit 0 lib "out_need_space $TEST_DIR 1"
'

test_done
