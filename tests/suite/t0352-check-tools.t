#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/check --only tools on the 7.3 tree with the series: perf's
# objects that include the unaligned headers (perf's own CFLAGS, -Wpacked
# -Werror) and objtool build with GCC and clang-22; 0002 without the
# pragmas it restores in tools/include/linux/unaligned.h fails with the
# compiler's own message, and only that form (the tree as shipped is
# clean); with the series, tools/perf/check-headers.sh is quiet on every
# file it touches (the restored pragmas are the only lines the tools
# linux/unaligned.h adds, which its rule ignores); a compiler that is not installed is a skip; a tree
# without the series is a skip.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

tree=$(copy_tree 7.3 linux)
apply "$tree" >/dev/null 2>&1
# 0002 as first posted: the tools copy synced, the pragmas not restored.
planted=$TEST_DIR/no-pragmas
mkdir -p "$planted"
awk '/^diff --git a\/tools\/include\/linux\/unaligned.h/ { skip = 1; next }
	/^diff --git / { skip = 0 }
	!skip' "$TOP/patches/mainline/0002-tools-headers-sync-unaligned.patch" \
	>"$planted/0002-tools-headers-sync-unaligned.patch"
export tree planted

test_expect_success 'the 7.3 series: perf (5 objects) and objtool build with GCC and clang-22, no diagnostic' '
	expect_exit 0 check --only tools --json "$TEST_DIR/t.json" "$tree" &&
	all_ok &&
	tap_line "tools: perf: 5 object\(s\) that include linux/unaligned.h vdso/unaligned.h, gcc: builds, no diagnostic$" &&
	tap_line "tools: perf: 5 object\(s\) that include linux/unaligned.h vdso/unaligned.h, clang-22: builds, no diagnostic$" &&
	tap_line "tools: objtool, gcc: builds, no diagnostic$" &&
	tap_line "tools: objtool, clang-22: builds, no diagnostic$" &&
	grep -q "^+ make -k -C $tree/tools/perf -f Makefile.perf -j[0-9]* O=.* CC=clang-22 .*builtin-script.o util/arm-spe-decoder/arm-spe-pkt-decoder.o util/hisi-ptt-decoder/hisi-ptt-pkt-decoder.o util/hisi-ptt.o util/intel-pt-decoder/intel-pt-pkt-decoder.o$" "$TEST_DIR/stderr" &&
	expect_eq "$(jq -r ".checks.tools.result, (.checks.tools.items | length)" "$TEST_DIR/t.json" | paste -sd " " -)" "pass 4" json
'

test_expect_success '0002 without the pragmas: perf fails with the compiler message, the tree as shipped does not' '
	t2=$(copy_tree 7.3 no-pragmas-tree) &&
	apply --extra "$planted" "$t2" >/dev/null 2>&1 &&
	expect_exit 1 check --only tools --tools-cc gcc "$t2" &&
	tap_line "tools: perf: 5 object\(s\) that include .*, gcc: [1-9][0-9]* diagnostic\(s\) the tree as shipped does not have$" &&
	grep -q "^#   tools/include/vdso/unaligned.h:[0-9]*:[0-9]*: error: packed attribute is unnecessary \[-Werror=packed\]$" "$TEST_DIR/stdout" &&
	tap_line "tools: objtool, gcc: builds, no diagnostic$" &&
	grep -q "^+ make -k -C .*/shipped/tools/perf " "$TEST_DIR/stderr"
'

test_expect_success 'the 7.3 series: header pairs identical, check-headers.sh quiet, pragmas the only lines the tools copy adds' '
	expect_exit 0 check --only headers "$tree" &&
	tap_line "headers: 1 header pair\(s\) the series touches: identical, check-headers.sh quiet$" &&
	expect_eq "$(diff "$tree/include/linux/unaligned.h" "$tree/tools/include/linux/unaligned.h" | grep "^>" | grep -vc "^> #pragma GCC diagnostic ")" 0 "lines other than pragmas"
'

test_expect_success 'a compiler that is not installed, a tree without the series: skips with the reason' '
	expect_exit 0 check --only tools --tools-cc no-such-cc "$tree" &&
	tap_line "tools: perf: .*, no-such-cc # SKIP no-such-cc is not installed$" &&
	expect_exit 0 check --only tools --base mainline "$(kernel_tree 7.3)" &&
	tap_line "tools: tools that include the changed headers # SKIP the series is not applied to .*$" &&
	expect_exit 2 check --tools-cc &&
	expect_last_error "--tools-cc needs a value"
'

test_done
