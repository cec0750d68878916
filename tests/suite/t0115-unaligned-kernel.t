#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# --kernel BASE|PATH of scripts/evidence/unaligned/unaligned-variants and
# scripts/evidence/unaligned/objects-armv5: the default is the default line
# of configs/bases, a path is the line its tree belongs to, and a
# line without the forms to compare (6.1: no tools/include/vdso/unaligned.h,
# no include/vdso/unaligned.h) is a one-line error.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# shellcheck source=scripts/lib/common.sh
. "$SCRIPTS/lib/common.sh"
# shellcheck source=scripts/lib/series.sh
. "$SCRIPTS/lib/series.sh"
# 6.1 unpacked before the one-line error cases: its first unpack prints
# get-kernel's progress.
kernel_tree 6.1 >/dev/null || true

# The default kernel, its line (the variants' linux-LINE) and its tree.
k=$(base_default)
l=$(kernel_line "$k")
export k l

test_expect_success "unaligned-variants: the default and --kernel PATH of the $k tree make the same forms" '
	tree=$(kernel_tree "$k") &&
	unaligned-variants "$TEST_DIR/default" 2>"$TEST_DIR/default.log" &&
	unaligned-variants --kernel "$tree" "$TEST_DIR/path" 2>"$TEST_DIR/path.log" &&
	for d in default path; do
		expect_eq "$(cat "$TEST_DIR/$d/rework.cflags")" "-I$TEST_DIR/$d/linux-$l/tools/include" "$d: rework.cflags" &&
		cmp "$TOP/overlay/tools/include/vdso/unaligned.h" "$TEST_DIR/$d/linux-$l/tools/include/vdso/unaligned.h" || return 1
	done &&
	for f in packed/vdso/unaligned.h memcpy/vdso/unaligned.h memcpy/linux/compiler_types.h; do
		cmp "$TEST_DIR/default/$f" "$TEST_DIR/path/$f" || fail "$f differs"
	done &&
	# The packed form: the tree'"'"'s own header when it ships one, else
	# the pre-7.0 one (blob ff0c06b6513e) patches/repro/ rebuilds.
	if [ "$(git hash-object --no-filters "$tree/tools/include/vdso/unaligned.h")" = 9076483c9fbbd0a9d0735683b82b3bdf91ad5fb5 ]; then
		expect_eq "$(git hash-object --no-filters "$TEST_DIR/default/packed/vdso/unaligned.h")" \
			ff0c06b6513eff61046f9fcf40111c9a8baf176b "packed form"
	else
		cmp "$tree/tools/include/vdso/unaligned.h" "$TEST_DIR/default/packed/vdso/unaligned.h"
	fi &&
	expect_eq "$(git hash-object --no-filters "$TEST_DIR/default/memcpy/vdso/unaligned.h")" \
		9076483c9fbbd0a9d0735683b82b3bdf91ad5fb5 "memcpy form" &&
	grep -q "^+ patch -d $TEST_DIR/default/.overlay/unpatched -p1 --fuzz=0 --reverse -i $TEST_DIR/default/.overlay/0002-tools-headers-sync-unaligned.patch$" "$TEST_DIR/default.log"
'

test_expect_success 'unaligned-variants: 6.1 has no packed form to take, a bad --kernel is get-kernel.s error' '
	expect_exit 2 unaligned-variants --kernel 6.1 "$TEST_DIR/v61" &&
	expect_one_line_error "linux-6\.1: no tools/include/vdso/unaligned\.h \(the packed form\)$" &&
	test ! -e "$TEST_DIR/v61/linux-6.1" &&
	expect_exit 2 unaligned-variants --kernel nosuchline "$TEST_DIR/vbad" &&
	expect_one_line_error "unknown kernel .nosuchline." &&
	expect_exit 2 unaligned-variants --kernel &&
	expect_one_line_error "--kernel needs a value"
'

test_expect_success 'objects-armv5: 6.1 has no include/vdso/unaligned.h, one-line error' '
	expect_exit 2 objects-armv5 --kernel 6.1 "$TEST_DIR/o61" &&
	expect_one_line_error "linux-6\.1: no include/vdso/unaligned\.h$" &&
	test ! -e "$TEST_DIR/o61/src" &&
	expect_exit 2 objects-armv5 --kernel "$TEST_DIR/o61" &&
	expect_one_line_error "need OUT" &&
	objects-armv5 --help | grep -q "^--kernel NAME|PATH "
'

# Each form is built at OUT/here and moved back after: a run stopped
# during a build leaves one there, and the next run puts it back before
# anything else (here, before it refuses 6.1).
test_expect_success 'objects-armv5: the form a stopped run left in OUT/here goes back first; a bad OUT/here/form is one line' '
	o=$TEST_DIR/ostop &&
	mkdir -p "$o/here/src" "$o/here/obj" &&
	echo tree >"$o/here/src/Makefile" && echo objects >"$o/here/obj/.config" &&
	echo memcpy >"$o/here/form" &&
	expect_exit 2 objects-armv5 --kernel 6.1 "$o" &&
	expect_one_line_error "linux-6\.1: no include/vdso/unaligned\.h$" &&
	test "$(cat "$o/src/memcpy/Makefile")" = tree &&
	test "$(cat "$o/obj/memcpy/.config")" = objects &&
	test ! -e "$o/here/form" && test ! -e "$o/here/src" && test ! -e "$o/here/obj" &&
	echo nosuchform >"$o/here/form" &&
	expect_exit 1 objects-armv5 --kernel 6.1 "$o" &&
	expect_one_line_error "here/form: \"nosuchform\" is not a form" &&
	test "$(cat "$o/here/form")" = nosuchform && test -f "$o/src/memcpy/Makefile"
'

test_expect_success 'objects-armv5: an OUT another run is using is one error line, exit 4, nothing moved' '
	o=$TEST_DIR/olock && mkdir -p "$o/here/src" && echo memcpy >"$o/here/form" &&
	{ flock -F "$o" sleep 60 & } &&
	holder=$! &&
	for i in $(seq 50); do flock -n "$o" true || break; sleep 0.1; done &&
	rc=0
	expect_exit 4 objects-armv5 --kernel 6.1 "$o" &&
		expect_one_line_error "olock: another objects run is using it" || rc=1
	kill "$holder" 2>/dev/null || true
	wait "$holder" 2>/dev/null || true
	[ $rc -eq 0 ] && test -d "$o/here/src" && test ! -e "$o/src/memcpy"
'

test_expect_success 'objects: a SKIP table whose boot configuration cannot be made is n/a with its SKIP, exit 0' '
	deps --targets armeb >/dev/null 2>&1 &&
	objects --target armeb --config boot --json "$TEST_DIR/armeb.json" "$TEST_DIR/oarmeb" >"$TEST_DIR/armeb.tap" 2>"$TEST_DIR/armeb.log" &&
	grep -q "^1..0 # SKIP armeb: its boot configuration cannot be made (its table.s SKIP: " "$TEST_DIR/armeb.tap" &&
	jq -e ".result == \"n/a\" and .target == \"armeb\"" "$TEST_DIR/armeb.json" >/dev/null
'

test_done
