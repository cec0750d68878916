#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/evidence/unaligned/codegen-table can fail: on a scratch 6.12 tree whose
# tools/include/vdso/unaligned.h is mainline 7.0's memcpy() form, the
# "rework" is that form, and the zero-memcpy assertion must fail on gcc-12
# armv5, with a non-zero exit.
#
# The memcpy form needs __unqual_scalar_typeof(), which 6.12's tools
# headers lack: scripts/evidence/unaligned/unaligned-variants supplies it as an -I directory
# in front of tools/include, but with --tree the rework gets tools/include
# alone, so the scratch tree's own tools/include/linux/compiler_types.h
# gets the definitions appended.  The scratch tree is a hard-linked copy:
# both files are replaced by writing a new file and renaming it, never
# edited in place.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

variants=$TEST_DIR/variants
swapped=$TEST_DIR/swapped
scratch=$(copy_tree 6.12 scratch)
export variants swapped scratch

test_expect_success 'the three forms from the real tree (scripts/evidence/unaligned/unaligned-variants)' '
	unaligned-variants "$variants" &&
	test -f "$variants/memcpy/vdso/unaligned.h" &&
	test -f "$variants/memcpy/linux/compiler_types.h"
'

test_expect_success 'scratch tree: the memcpy form in place of tools/include/vdso/unaligned.h' '
	h=$scratch/tools/include/vdso/unaligned.h &&
	ct=$scratch/tools/include/linux/compiler_types.h &&
	pristine=$(kernel_tree 6.12) &&
	cp "$variants/memcpy/vdso/unaligned.h" "$h.new" &&
	mv -f "$h.new" "$h" &&
	{ cat "$ct" && grep -v "^#include_next" "$variants/memcpy/linux/compiler_types.h"; } >"$ct.new" &&
	mv -f "$ct.new" "$ct" &&
	expect_eq "$(git hash-object --no-filters "$h")" 9076483c9fbbd0a9d0735683b82b3bdf91ad5fb5 "swapped header blob" &&
	! cmp -s "$h" "$pristine/tools/include/vdso/unaligned.h" &&
	! cmp -s "$ct" "$pristine/tools/include/linux/compiler_types.h" &&
	grep -q "__unqual_scalar_typeof" "$ct"
'

test_expect_success 'the pristine tree is untouched (the scratch files were renamed in)' '
	pristine=$(kernel_tree 6.12) &&
	! grep -q "__builtin_memcpy" "$pristine/tools/include/vdso/unaligned.h" &&
	! grep -q "__unqual_scalar_typeof" "$pristine/tools/include/linux/compiler_types.h"
'

test_expect_success 'scripts/evidence/unaligned/unaligned-variants --tree SCRATCH: the rework is the scratch tools/include' '
	unaligned-variants --tree "$scratch" "$swapped" &&
	expect_eq "$(cat "$swapped/rework.cflags")" "-I$(cd "$scratch" && pwd -P)/tools/include" rework.cflags
'

test_expect_success 'codegen-table fails: not ok for the rework zero-memcpy assertion on gcc-12 armv5 (and armv5-thumb)' '
	expect_exit 1 codegen-table --variants "$swapped" --compilers gcc-12 --json "$TEST_DIR/swapped.json" &&
	grep -q "^not ok [0-9]* - gcc-12 armv5 -O2: rework: no memcpy() call$" "$TEST_DIR/stdout" &&
	grep -q "^not ok [0-9]* - gcc-12 armv5 -Os: rework: no memcpy() call$" "$TEST_DIR/stdout" &&
	grep -q "^1\.\.[0-9]" "$TEST_DIR/stdout"
'

test_expect_success 'only those fail, with the check that the rework is the packed form: the other rows and the reproduction check pass' '
	expect_eq "$(grep -c "^not ok" "$TEST_DIR/stdout")" 8 "not ok lines (ARMv5 in ARM and Thumb code)" &&
	expect_eq "$(grep -c "^not ok [0-9]* - gcc-12 armv5-thumb -O[2s]: \(rework: no memcpy() call\|the rework.s code is the packed form.s\)$" "$TEST_DIR/stdout")" 4 \
		"not ok: Thumb" &&
	expect_eq "$(grep -c "^not ok [0-9]* - gcc-12 armv5 -O[2s]: the rework.s code is the packed form.s$" "$TEST_DIR/stdout")" 2 \
		"not ok: the rework is the packed form" &&
	grep -q "^ok [0-9]* - reproduction: gcc-12 armv5 -O2: " "$TEST_DIR/stdout" &&
	grep -q "^ok [0-9]* - gcc-12 x86_64 -O2: rework: no memcpy() call$" "$TEST_DIR/stdout" &&
	expect_eq "$(jq ".[] | select(.target == \"armv5\" and .opt == \"-O2\" and .form == \"rework\") | .memcpy_calls" \
		"$TEST_DIR/swapped.json")" \
		"$(jq ".[] | select(.target == \"armv5\" and .opt == \"-O2\" and .form == \"memcpy\") | .memcpy_calls" \
		"$TEST_DIR/swapped.json")" "swapped rework calls = memcpy form calls"
'

test_done
