#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/copy-tree deletes nothing it did not make: not the source when
# DEST holds it, not the project, not a directory of the user's; and a
# copy that fails (a full disk at any point) leaves the old DEST byte for
# byte, with no partial tree beside it.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# small_kernel DIR TAG: the smallest tree is_kernel_tree takes, and some
# files of TAG's content.
small_kernel() {
	mkdir -p "$1/arch/x86" "$1/lib" &&
	printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 0\n' >"$1/Makefile" &&
	echo "mainmenu \"$2\"" >"$1/Kconfig" &&
	for i in 1 2 3 4 5 6 7 8; do head -c 20000 /dev/urandom >"$1/lib/f$i.c"; done &&
	echo "$2" >"$1/arch/x86/tag"
}
export -f small_kernel

test_expect_success 'DEST holding SRC, SRC itself, inside SRC, the project: refused, nothing removed' '
	x=$TEST_DIR/x && small_kernel "$x/src/linux" one && echo keep >"$x/src/beside" &&
	expect_exit 3 copy-tree "$x/src/linux" "$x/src" &&
	expect_one_line_error "holds $x/src/linux: not replacing it" &&
	expect_exit 3 copy-tree "$x/src/linux" "$x" &&
	expect_exit 3 copy-tree "$x/src/linux" "$x/src/linux" &&
	expect_one_line_error "is $x/src/linux or inside it" &&
	expect_exit 3 copy-tree "$x/src/linux" "$x/src/linux/sub" &&
	o=$(mktemp -d /tmp/copy-tree-src.XXXXXX) && small_kernel "$o/linux" outside &&
	expect_exit 3 copy-tree "$o/linux" "$TOP/.." &&
	expect_one_line_error "holds the project" && rm -rf "$o" &&
	expect_eq "$(cat "$x/src/beside" "$x/src/linux/arch/x86/tag")" "keep
one" "the source and its neighbour"
'

test_expect_success 'a directory of the user (not a copy it made, outside build/) is not replaced' '
	x=$TEST_DIR/user && small_kernel "$x/src" one &&
	u=$(mktemp -d /tmp/copy-tree-user.XXXXXX) && echo mine >"$u/notes" &&
	expect_exit 3 copy-tree "$x/src" "$u" &&
	expect_one_line_error "was not made by this project" &&
	expect_eq "$(cat "$u/notes")" mine "the user file" && rm -rf "$u"
'

test_expect_success 'a copy replaces the one it made before; nothing left beside it' '
	x=$TEST_DIR/again && small_kernel "$x/one" one && small_kernel "$x/two" two &&
	expect_exit 0 copy-tree "$x/one" "$x/copy" &&
	expect_exit 0 copy-tree --link "$x/two" "$x/copy" &&
	expect_eq "$(cat "$x/copy/arch/x86/tag")" two "the new copy" &&
	diff -r "$x/two" "$x/copy" &&
	expect_eq "$(cd "$x" && ls)" "copy
one
two" "the directory holding the copies"
'

test_expect_success 'a full disk at every level: the old copy byte for byte, or the new one; never a part' '
	x=$TEST_DIR/full && small_kernel "$x/one" one && small_kernel "$x/two" two &&
	for kb in 200 240 260 280 300 340 400 480; do
		in_small_fs "size=${kb}k" "
			copy-tree \"$x/one\" \"\$TEST_DIR/m/copy\" >/dev/null 2>&1 &&
			sha=\$(cd \"\$TEST_DIR/m/copy\" && find . -type f | sort | xargs sha256sum) &&
			rc=0 && copy-tree \"$x/two\" \"\$TEST_DIR/m/copy\" 2>\"\$TEST_DIR/err.$kb\" >/dev/null || rc=\$?
			now=\$(cd \"\$TEST_DIR/m/copy\" && find . -type f | sort | xargs sha256sum)
			want=\$(cd \"$x/two\" && find . -type f | sort | xargs sha256sum)
			case \$rc in
			0) [ \"\$now\" = \"\$want\" ] ;;
			1) [ \"\$now\" = \"\$sha\" ] && [ \$(wc -l <\"\$TEST_DIR/err.$kb\") -le 2 ] &&
			   grep -q \"^copy-tree: error: \" \"\$TEST_DIR/err.$kb\" ;;
			*) false ;;
			esac && [ -z \"\$(stray_files \"\$TEST_DIR/m\")\" ] && echo \"$kb \$rc\" >>\"\$TEST_DIR/levels\"
		" || fail "with a ${kb}k file system"
	done &&
	note "levels (KB, exit code): $(paste -sd " " "$TEST_DIR/levels")" &&
	grep -q " 1$" "$TEST_DIR/levels" && grep -q " 0$" "$TEST_DIR/levels"
'

test_done
