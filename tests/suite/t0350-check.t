#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/check on the 6.12 tree with the series applied: checkpatch, the
# tools header sync, the project's hygiene and cppcheck pass (sparse has
# its own test, t0340); a patch with trailing whitespace, a series entry
# without its file and a header pair out of sync each fail their check;
# bad input is a one-line error.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

tree=$(copy_tree 6.12 linux)
apply "$tree" >/dev/null 2>&1
export tree

test_expect_success 'the 6.12 series on its tree: every check passes' '
	expect_exit 0 check --only checkpatch,headers,hygiene,cppcheck --json "$TEST_DIR/c.json" \
		--markdown "$TEST_DIR/c.md" "$tree" &&
	all_ok &&
	tap_line "checkpatch: 0001-vdso-unaligned-packed-may-alias.patch$" &&
	tap_line "headers: 1 header pair\(s\) the series touches: identical, check-headers.sh quiet$" &&
	tap_line "hygiene: metadata of [0-9]+ patches: Upstream-Status, Kind, Preimage = index, Fixes$" &&
	tap_line "cppcheck: project C: [0-9]+ files, no findings$" &&
	expect_eq "$(jq -r ".result, .base, (.checks | keys | join(\",\"))" "$TEST_DIR/c.json" | paste -sd " " -)" \
		"pass 6.12 checkpatch,cppcheck,headers,hygiene" json &&
	grep -q "^| checkpatch | 0003-x86-copy-user-align-destination.patch | pass | 0 |$" "$TEST_DIR/c.md"
'

test_expect_success 'planted defects fail their checks: trailing whitespace, a missing patch file, no Kind' '
	bad=$TEST_DIR/patches && cp -r "$TOP/patches" "$bad" &&
	sed -i "0,/^+\tsubq %rax,%rcx$/s//&  /" "$bad/6.12/0003-x86-copy-user-align-destination.patch" &&
	echo 0007-no-such.patch >>"$bad/6.12/series" &&
	sed -i "/^Kind: /d" "$bad/6.12/0005-loongarch-syscall-args-no-memcpy.patch" &&
	expect_exit 1 check --only checkpatch,hygiene --patches "$bad" "$tree" &&
	grep -q "^not ok [0-9]* - checkpatch: 0003-x86-copy-user-align-destination.patch: total: 1 errors" "$TEST_DIR/stdout" &&
	grep -q "^#   ERROR: trailing whitespace" "$TEST_DIR/stdout" &&
	grep -q "^not ok [0-9]* - hygiene: series files and patch files$" "$TEST_DIR/stdout" &&
	grep -q "^#   .*/6.12/0007-no-such.patch: patch listed in the series is missing$" "$TEST_DIR/stdout" &&
	grep -q "^not ok [0-9]* - hygiene: metadata of [0-9]* patches$" "$TEST_DIR/stdout" &&
	grep -q "^#   6.12/0005-loongarch-syscall-args-no-memcpy.patch: no Kind line below ---" "$TEST_DIR/stdout"
'

test_expect_success 'a tools copy out of sync fails the header check' '
	f=$tree/tools/include/vdso/unaligned.h && detach "$f" &&
	echo "/* drift */" >>"$f" &&
	expect_exit 1 check --only headers "$tree" &&
	grep -q "^#   include/vdso/unaligned.h and tools/include/vdso/unaligned.h differ$" "$TEST_DIR/stdout"
'

# cppcheck once refused --std=gnu11 and the check read its silence as "no
# findings": a refusal must fail, and a finding must be counted.  The
# stand-in runs the real cppcheck, then reports one finding more.
test_expect_success 'cppcheck: a finding fails the check, a refused option is an error' '
	stand_in cppcheck "/usr/bin/cppcheck \"\$@\" || exit" "echo \"tests/guest/init/init.c:1: warning: planted [planted]\"" &&
	PATH=$TEST_DIR/bin:$PATH expect_exit 1 check --only cppcheck "$tree" &&
	grep -q "^not ok [0-9]* - cppcheck: project C: [0-9]* files, 1 finding" "$TEST_DIR/stdout" &&
	grep -q "tests/guest/init/init.c:1: warning: planted" "$TEST_DIR/stdout" &&
	stand_in cppcheck "echo \"cppcheck: error: unknown --std value\"" "exit 1" &&
	PATH=$TEST_DIR/bin:$PATH expect_exit 1 check --only cppcheck "$tree" &&
	expect_last_error "cppcheck failed \(exit 1\): cppcheck: error: unknown --std value"
'

test_expect_success 'bad input: no tree, not a kernel tree, an unknown check' '
	expect_exit 2 check && expect_one_line_error "no kernel tree given" &&
	expect_exit 2 check "$TEST_DIR" && expect_one_line_error "not a kernel tree" &&
	expect_exit 2 check --only frob "$tree" && expect_one_line_error "unknown check .frob."
'

test_done
