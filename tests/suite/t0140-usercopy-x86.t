#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# x86 rep_movs_alternative() in user space (scripts/evidence/usercopy-x86/usercopy-x86,
# scripts/evidence/usercopy-x86/c/): the 6.12 tree's copy_user_64.S with and without patch
# 0003 passes every check, the harness is shown to fail on planted bugs
# (a wrong fixup, a dropped byte, a missing exception table entry; each
# run on the variants that show it, as the full run takes 50 s), bad
# input gets a one-line error, a tree whose line does not take 0003 (6.1)
# is not applicable, and scripts/evidence/usercopy-x86/usercopy-throughput --quick produces
# its markdown, JSON and PNG.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

FILE=arch/x86/lib/copy_user_64.S
T612=$(kernel_tree 6.12)
P3_NAME=0003-x86-copy-user-align-destination.patch
P3=$TOP/patches/6.12/$P3_NAME
export FILE T612 P3 P3_NAME

# planted NAME SED-SCRIPT: a tree of two files, the 6.12 Makefile and the
# 6.12 copy_user_64.S edited by SED-SCRIPT (which must change it).
planted() {
	local t=$TEST_DIR/$1
	mkdir -p "$t/arch/x86/lib"
	cp "$T612/Makefile" "$t/Makefile"
	sed "$2" "$T612/$FILE" >"$t/$FILE"
	if cmp -s "$T612/$FILE" "$t/$FILE"; then
		fail "$1: the edit changed nothing"
		return 1
	fi
	echo "$t"
}

# variant_line STATUS VARIANT WHAT: the last usercopy-x86 run printed a TAP
# line "STATUS N - VARIANT: ... WHAT ...".
variant_line() {
	grep -Eq "^$1 [0-9]+ - $2: .*$3" "$TEST_DIR/stdout" ||
		{ fail "no '$1 ... - $2: ...$3' line"; return 1; }
}

test_expect_success '6.12: every check passes for patched, unpatched and erms; the tree is only read' '
	md5=$(md5sum <"$T612/$FILE") &&
	touch "$TEST_DIR/before" &&
	expect_exit 0 usercopy-x86 --json "$TEST_DIR/r.json" --keep "$TEST_DIR/k612" "$T612" &&
	plan=$(sed -n "s/^1\.\.\([0-9]*\)$/\1/p" "$TEST_DIR/stdout") &&
	expect_eq "$plan" 20 "plan" &&
	expect_eq "$(grep -c "^ok " "$TEST_DIR/stdout")" 20 "ok lines" &&
	! grep -q "^not ok" "$TEST_DIR/stdout" &&
	for v in patched unpatched erms; do
		expect_eq "$(grep -Ec "^ok [0-9]+ - $v: " "$TEST_DIR/stdout")" 6 "ok lines of $v" || exit 1
	done &&
	variant_line ok patched "77056 copies .* 0 failed" &&
	variant_line ok unpatched "363608 copies with the source ending at a PROT_NONE page" &&
	variant_line ok unpatched "363608 copies with the destination ending at a PROT_NONE page" &&
	grep -Eq "^ok 20 - patched and unpatched: the same return values and destination bytes in all [0-9]+ fault cases$" "$TEST_DIR/stdout" &&
	grep -q "^# exception table entries: patched 8 unpatched 6 erms 8$" "$TEST_DIR/stdout" &&
	grep -q "reverses: the tree.s file already has the change" "$TEST_DIR/stderr" &&
	grep -q "^+ patch -d $TEST_DIR/k612/unpatched -p1 --fuzz=0 --reverse -i $P3$" "$TEST_DIR/stderr" &&
	grep -q "^+ gcc -c -nostdinc -I $TOP/scripts/evidence/usercopy-x86/c/shim -DHARNESS_ERMS " "$TEST_DIR/stderr" &&
	grep -q "^+ objcopy --redefine-sym rep_movs_alternative=rep_movs_alternative_unpatched " "$TEST_DIR/stderr" &&
	expect_eq "$(jq -r "[.result, .tree_state, (.tests | length), ([.tests[] | select(.ok)] | length)] | join(\" \")" "$TEST_DIR/r.json")" \
		"pass patched 20 20" "JSON summary" &&
	expect_eq "$(jq -r "[.tree, .version, .base, .patch] | join(\" \")" "$TEST_DIR/r.json")" \
		"$T612 $(sed -n "s/^SUBLEVEL = /6.12./p" "$T612/Makefile") 6.12 $P3" "JSON tree, version, base, patch" &&
	expect_eq "$(md5sum <"$T612/$FILE")" "$md5" "checksum of the tree file" &&
	expect_eq "$(find "$T612" -newer "$TEST_DIR/before" | head -n 5)" "" "files changed in the tree"
'

test_expect_success 'a tree with the unpatched file: the patch is applied forward, the same two versions' '
	t=$TEST_DIR/unpatched-tree && mkdir -p "$t/arch/x86/lib" && cp "$T612/Makefile" "$t/" &&
	patch -s -R -p1 -F0 -i "$P3" -o "$t/$FILE" "$T612/$FILE" &&
	expect_exit 0 usercopy-x86 --build-only --keep "$TEST_DIR/kfwd" "$t" &&
	grep -q "applies: the tree.s file is the unpatched version" "$TEST_DIR/stderr" &&
	grep -q "^+ patch -d $TEST_DIR/kfwd/patched -p1 --fuzz=0 -i $P3$" "$TEST_DIR/stderr" &&
	expect_eq "$(cat "$TEST_DIR/stdout")" "" "stdout of --build-only" &&
	for v in patched unpatched; do
		cmp "$TEST_DIR/k612/$v/$FILE" "$TEST_DIR/kfwd/$v/$FILE" || exit 1
	done &&
	cmp "$TEST_DIR/k612/unpatched/$FILE" "$t/$FILE" &&
	cmp "$TEST_DIR/k612/patched/$FILE" "$T612/$FILE" &&
	test -x "$TEST_DIR/kfwd/usercopy-test" && test -x "$TEST_DIR/kfwd/usercopy-bench" &&
	expect_eq "$(jq -r .tree_state "$TEST_DIR/kfwd/build.json")" unpatched "tree_state"
'

test_expect_success 'planted bug: a word-load fault fixed up to .Lexit (bytes before the fault not copied) fails the source-fault checks' '
	t=$(planted wrong-fixup "s/_ASM_EXTABLE_UA( 2b, .Lcopy_user_tail)/_ASM_EXTABLE_UA( 2b, .Lexit)/") &&
	expect_exit 1 usercopy-x86 --variants patched "$t" &&
	grep -q "^+ timeout 600 .*/usercopy-test patched$" "$TEST_DIR/stderr" &&
	variant_line "not ok" patched "copies with the source ending at a PROT_NONE page.*; [1-9][0-9]* failed" &&
	variant_line "not ok" patched "register contract" &&
	variant_line ok patched "77056 copies .* 0 failed" &&
	! grep -Eq "^(not )?ok [0-9]+ - (unpatched|erms):" "$TEST_DIR/stdout" &&
	grep -Eq "^#   len 8, source faults after 1 bytes, dst offset 0: returned 8, want 7$" "$TEST_DIR/stdout" &&
	grep -q "done: 5 passed, 2 failed of 7, fail" "$TEST_DIR/stderr"
'

test_expect_success 'planted bug: a byte dropped from the rep movsq remainder fails the copy checks (not the rep movsb path)' '
	t=$(planted dropped-byte "s/^\tmovl %eax,%ecx$/&\n\tshrl \$1,%ecx/") &&
	expect_exit 1 usercopy-x86 --variants patched,erms "$t" &&
	variant_line "not ok" patched "77056 copies .* [1-9][0-9]* failed" &&
	variant_line "not ok" patched "1280 large copies .* [1-9][0-9]* failed" &&
	variant_line ok erms "77056 copies .* 0 failed" &&
	variant_line ok erms "1280 large copies .* 0 failed" &&
	grep -Eq "^#   src offset 0 dst offset 0 len 65: data: byte 64 is 0xa5, want 0x[0-9a-f]{2}$" "$TEST_DIR/stdout"
'

test_expect_success 'planted bug: a missing exception table entry is an unexpected SIGSEGV: Bail out!, abort (--patch, no Makefile)' '
	t=$(planted no-entry "/_ASM_EXTABLE_UA( 0b, .Lexit)/d") && rm "$t/Makefile" &&
	expect_exit 2 usercopy-x86 "$t" &&
	expect_one_line_error "no Makefile to tell the kernel line from: pass --patch FILE" &&
	expect_exit 1 usercopy-x86 --patch "$P3" "$t" &&
	grep -Eq "^Bail out! SIGSEGV at ip 0x[0-9a-f]+ \(rep_movs_alternative_patched\), address 0x[0-9a-f]+: no exception table entry for this instruction$" "$TEST_DIR/stdout" &&
	grep -q "^# usercopy-x86: the harness did not complete: exit 134" "$TEST_DIR/stdout" &&
	grep -q "incomplete$" "$TEST_DIR/stderr"
'

test_expect_success 'bad input: no tree, no such directory, a tree without the file' '
	expect_exit 2 usercopy-x86 && expect_one_line_error "no kernel tree given" &&
	expect_exit 2 usercopy-x86 --variants patched,nope "$T612" &&
	expect_one_line_error "--variants: no variant .nope. \(patched, unpatched, erms\)$" &&
	(cd "$TEST_DIR" && expect_exit 2 usercopy-x86 --variants "*" "$T612") &&
	expect_one_line_error "--variants: no variant .\*. " &&
	expect_exit 2 usercopy-x86 "$TEST_DIR/nowhere" && expect_one_line_error "no such directory" &&
	mkdir -p "$TEST_DIR/empty/arch" &&
	expect_exit 2 usercopy-x86 "$TEST_DIR/empty" &&
	expect_one_line_error "no arch/x86/lib/copy_user_64.S \(not an x86 kernel tree\)$" &&
	expect_exit 2 usercopy-x86 --keep "$T612/usercopy-scratch" "$T612" &&
	expect_one_line_error "is inside the tree: the tree is only read" &&
	test ! -e "$T612/usercopy-scratch"
'

test_expect_success 'not applicable: 6.1 does not take 0003; a kernel tree without the file' '
	t61=$(kernel_tree 6.1) &&
	expect_exit 0 usercopy-x86 --json "$TEST_DIR/na.json" "$t61" &&
	expect_eq "$(cat "$TEST_DIR/stdout")" "1..0 # SKIP the 6.1 series does not take 0003 ($(sed -n "s/^#not-needed $P3_NAME //p" "$TOP/patches/6.1/series")) and patches/repro/ has no 6.1-x86-copy-user-align-destination.patch" "stdout" &&
	expect_eq "$(jq -r "[.result, .tree, .base, .patch] | join(\" \")" "$TEST_DIR/na.json")" "n/a $t61 6.1 " "n/a JSON" &&
	jq -r .reason "$TEST_DIR/na.json" | grep -q "^the 6.1 series does not take 0003 (6.1 has no rep_movs_alternative()" &&
	expect_exit 0 usercopy-throughput --quick --json "$TEST_DIR/na-b.json" --markdown "$TEST_DIR/na-b.md" "$t61" &&
	grep -q "^1\.\.0 # SKIP the 6.1 series does not take 0003 " "$TEST_DIR/stdout" &&
	cmp "$TEST_DIR/stdout" "$TEST_DIR/na-b.md" &&
	expect_eq "$(jq -r .result "$TEST_DIR/na-b.json")" n/a "usercopy-throughput n/a JSON" &&
	t=$TEST_DIR/no-x86 && mkdir -p "$t/arch" && cp "$T612/Makefile" "$T612/Kconfig" "$t/" &&
	expect_exit 0 usercopy-x86 "$t" &&
	grep -q "^1\.\.0 # SKIP $t (Linux 6\.12\.[0-9]*) has no $FILE$" "$TEST_DIR/stdout"
'

test_expect_success 'bad input: the 6.1 tree has no rep_movs_alternative (its 6.12 patch given)' '
	expect_exit 2 usercopy-x86 --patch "$P3" "$(kernel_tree 6.1)" &&
	expect_one_line_error "copy_user_64.S \(Linux 6\.1\.[0-9]+\) has no rep_movs_alternative .*nothing for this harness to test$"
'

test_expect_success 'bad input: a file that does not assemble, a file the patch does not fit' '
	t=$(planted no-asm "s/^SYM_FUNC_START(rep_movs_alternative)$/&\n\tmovq %rax/") &&
	expect_exit 2 usercopy-x86 "$t" &&
	expect_last_error "$t/$FILE does not assemble: copy_user_64.S:33: Error: number of operands mismatch for .movq.$" &&
	t=$(planted no-fit "s/^\tleaq 8(%rdi),%rax$/\tleaq 16(%rdi),%rax/") &&
	expect_exit 2 usercopy-x86 "$t" &&
	expect_last_error "0003-x86-copy-user-align-destination.patch neither applies nor reverses with zero fuzz on $t/$FILE"
'

test_expect_success 'usercopy-throughput --quick: markdown (stdout too), JSON and PNG' '
	expect_exit 0 usercopy-throughput --quick --json "$TEST_DIR/b.json" --markdown "$TEST_DIR/b.md" \
		--png "$TEST_DIR/b.png" "$T612" &&
	cmp "$TEST_DIR/stdout" "$TEST_DIR/b.md" &&
	grep -q "^## patched / unpatched (ratio of GB/s" "$TEST_DIR/b.md" &&
	grep -q "^## GB/s: patched / unpatched$" "$TEST_DIR/b.md" &&
	grep -q "^## GB/s for reference: erms" "$TEST_DIR/b.md" &&
	expect_eq "$(grep -Ec "^\| (64 B|1 KiB|16 KiB)( \| [0-9.]+ / [0-9.]+){8} \|$" "$TEST_DIR/b.md")" 6 "GB/s rows" &&
	expect_eq "$(grep -Ec "^\| (64 B|1 KiB|16 KiB)( \| [0-9.]+){9} \|$" "$TEST_DIR/b.md")" 3 "ratio rows" &&
	grep -q "rep movsb" "$TEST_DIR/b.md" &&
	e=no f=no &&
	if grep -m1 "^flags" /proc/cpuinfo | grep -qw erms; then e=yes; fi &&
	if grep -m1 "^flags" /proc/cpuinfo | grep -qw fsrm; then f=yes; fi &&
	grep -q "flags: erms \*\*$e\*\*, fsrm \*\*$f\*\*" "$TEST_DIR/b.md" &&
	grep -q "this CPU.s flags: " "$TEST_DIR/stderr" &&
	expect_eq "$(jq -r "[(.rows | length), (.ratio | length), .quick, .reps, .tree_state] | join(\" \")" "$TEST_DIR/b.json")" \
		"96 24 true 3 patched" "JSON summary" &&
	expect_eq "$(jq "[.rows[] | select(.gbps > 0)] | length" "$TEST_DIR/b.json")" 96 "positive rows" &&
	expect_eq "$(head -c 8 "$TEST_DIR/b.png" | od -An -tx1 | tr -d " \n")" 89504e470d0a1a0a "PNG signature" &&
	expect_exit 2 usercopy-throughput --dst-offset 100 "$T612" &&
	expect_one_line_error "multiple of 64"
'

test_done
