#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# The "rep movsq" stores of x86 rep_movs_alternative() by address
# (scripts/evidence/usercopy-x86/usercopy-stores, the QEMU TCG plugin
# scripts/bench/plugins/store-align.c, the bare-metal driver
# scripts/evidence/usercopy-x86/c/stores.c): on 6.12, without patch 0003
# every rep movsq store to a destination at offset 1 is misaligned and 1
# in 8 is split across a 64-byte line, with it none is, and at offset 0
# neither variant has any; the figures come from the plugin, which counts
# a known pattern right (line=32: 1 in 4 split; a range without the
# instruction: nothing); a planted patch that drops the alignment fails
# the check; bad input gets a one-line error; 6.1 (no 0003) is not
# applicable.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

FILE=arch/x86/lib/copy_user_64.S
T612=$(kernel_tree 6.12)
P3=$TOP/patches/6.12/0003-x86-copy-user-align-destination.patch
export FILE T612 P3

test_lazy_prereq QEMU_X86 'command -v qemu-system-x86_64 >/dev/null || { echo "qemu-system-x86_64 not installed"; exit 1; }'

test_expect_success '--help and bad arguments: one-line errors, exit 2' '
	expect_arg_errors usercopy-stores "$T612" "no kernel tree given" "more than one tree given: a, b" &&
	expect_exit 2 usercopy-stores "$TEST_DIR/nowhere" && expect_one_line_error "no such directory" &&
	expect_exit 2 usercopy-stores --offsets 64 "$T612" && expect_one_line_error "--offsets must be A-B or A,B,\.\.\. with offsets 0\.\.63" &&
	expect_exit 2 usercopy-stores --offsets 7-1 "$T612" && expect_one_line_error "--offsets must be" &&
	expect_exit 2 usercopy-stores --offsets 1,1 "$T612" && expect_one_line_error "--offsets names 1 twice" &&
	expect_exit 2 usercopy-stores --copies 0 "$T612" && expect_one_line_error "--copies must be 1\.\.99" &&
	expect_exit 2 usercopy-stores --keep "$T612/stores-scratch" "$T612" &&
	expect_one_line_error "is inside the tree: the tree is only read" &&
	test ! -e "$T612/stores-scratch"
'

# stores_line OFFSET WANT: the diagnostic line of OFFSET in the last run's TAP.
stores_line() {
	grep -qx "# offset $1: $2" "$TEST_DIR/stdout" || { fail "no line '# offset $1: $2'"; return 1; }
}

test_expect_success QEMU_X86 '6.12: unpatched misaligned at offsets 1 and 7, patched never; offset 0 aligned in both; the tree is only read' '
	md5=$(md5sum <"$T612/$FILE") &&
	expect_exit 0 usercopy-stores --offsets 0,1,7,8 --copies 2 --keep "$TEST_DIR/k" \
		--json "$TEST_DIR/s.json" --markdown "$TEST_DIR/s.md" "$T612" &&
	all_ok && expect_eq "$(sed -n "s/^1\.\.//p" "$TEST_DIR/stdout")" 4 "plan" &&
	tap_line "unpatched: misaligned rep movsq stores at every destination offset that is not a multiple of 8$" | grep -q "^ok " &&
	tap_line "patched: no misaligned and no split rep movsq store at any offset \(patch 0003\)$" | grep -q "^ok " &&
	stores_line 0 "unpatched 8192 stores, 0 misaligned, 0 split; patched 8191 stores, 0 misaligned, 0 split" &&
	stores_line 1 "unpatched 8192 stores, 8192 misaligned, 1024 split; patched 8191 stores, 0 misaligned, 0 split" &&
	stores_line 7 "unpatched 8192 stores, 8192 misaligned, 1024 split; patched 8191 stores, 0 misaligned, 0 split" &&
	stores_line 8 "unpatched 8192 stores, 0 misaligned, 0 split; patched 8191 stores, 0 misaligned, 0 split" &&
	grep -Eq "^\+ timeout 120 qemu-system-x86_64 -M pc -cpu qemu64 .* -kernel $TEST_DIR/k/image/stores.bin -append unpatched 1 2 65536 -plugin /.*/libstore-align.so,line=64,lo=0x[0-9a-f]+,hi=0x[0-9a-f]+,out=$TEST_DIR/k/runs/unpatched-1.plugin$" "$TEST_DIR/stderr" &&
	expect_eq "$(cat "$TEST_DIR/k/runs/unpatched-1.plugin")" "insns=1 stores=16384 misaligned=16384 split=2048 bytes=131072 line=64" "the plugin output of unpatched at offset 1" &&
	expect_eq "$(md5sum <"$T612/$FILE")" "$md5" "checksum of the tree file"
'

test_expect_success QEMU_X86 '6.12: the JSON and the markdown' '
	j=$TEST_DIR/s.json &&
	expect_eq "$(jq -r "[.result, .tree, .tree_state, .size, .copies, .line, (.rows | length), (.tests | length)] | join(\" \")" "$j")" \
		"pass $T612 patched 65536 2 64 8 4" "JSON summary" &&
	expect_eq "$(jq -r ".qemu.version" "$j")" "$(qemu-system-x86_64 --version | head -n 1)" "QEMU version" &&
	expect_eq "$(jq -r "[.plugin.name, .plugin.args] | join(\" \")" "$j")" "store-align line=64,lo=START,hi=END,out=FILE" "plugin" &&
	jq -e ".plugin.path | endswith(\"/libstore-align.so\")" "$j" >/dev/null &&
	jq -e ".date | test(\"^[0-9]{4}-[0-9]{2}-[0-9]{2}T\")" "$j" >/dev/null &&
	jq -e ".machine.host | test(\"x86_64\")" "$j" >/dev/null &&
	row() { jq -r --arg v "$1" --argjson o "$2" ".rows[] | select(.variant == \$v and .offset == \$o) | .per_copy | [.stores, .misaligned, .split, .bytes] | join(\" \")" "$j"; } &&
	expect_eq "$(row unpatched 1)" "8192 8192 1024 65536" "unpatched at offset 1" &&
	expect_eq "$(row patched 1)" "8191 0 0 65528" "patched at offset 1" &&
	expect_eq "$(row unpatched 0)" "8192 0 0 65536" "unpatched at offset 0" &&
	expect_eq "$(jq -r ".rows[] | select(.variant == \"unpatched\" and .offset == 1) | .total.stores" "$j")" 16384 "total of 2 copies" &&
	grep -qx "| offset | unpatched misaligned | unpatched split | patched misaligned | patched split |" "$TEST_DIR/s.md" &&
	grep -qx "| 1 | 8192 | 1024 | 0 | 0 |" "$TEST_DIR/s.md" &&
	grep -qx "| 0 | 0 | 0 | 0 | 0 |" "$TEST_DIR/s.md" &&
	grep -q "no pipeline, no store buffer" "$TEST_DIR/s.md" &&
	grep -q "count of stores by address only" "$TEST_DIR/s.md"
'

# plugin_run PLUGIN ARGS APPEND: qemu-system-x86_64 on the image the 6.12
# test kept, with PLUGIN and ARGS (out= added), the command line APPEND;
# its exit status in $TEST_DIR/p.rc, the plugin's line in $TEST_DIR/p.out.
plugin_run() {
	local rc=0
	rm -f "$TEST_DIR/p.out" "$TEST_DIR/p.con"
	qemu-system-x86_64 -M pc -cpu qemu64 -m 64M -accel tcg -nographic -nodefaults -no-reboot \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 -debugcon "file:$TEST_DIR/p.con" \
		-kernel "$TEST_DIR/k/image/stores.bin" -append "$3" \
		-plugin "$1,$2,out=$TEST_DIR/p.out" >"$TEST_DIR/p.log" 2>&1 || rc=$?
	echo "$rc" >"$TEST_DIR/p.rc"
}

test_expect_success QEMU_X86 'the plugin alone: a known pattern (8192 stores at offset 3: all misaligned, 1 in 4 split with line=32), nothing outside lo/hi, a bad argument stops QEMU before the guest runs' '
	plugin=$(jq -r .plugin.path "$TEST_DIR/s.json") &&
	ulo=$(jq -r .plugin.ranges.unpatched.lo "$TEST_DIR/s.json") && uhi=$(jq -r .plugin.ranges.unpatched.hi "$TEST_DIR/s.json") &&
	plo=$(jq -r .plugin.ranges.patched.lo "$TEST_DIR/s.json") && phi=$(jq -r .plugin.ranges.patched.hi "$TEST_DIR/s.json") &&
	plugin_run "$plugin" "line=32,lo=$ulo,hi=$uhi" "unpatched 3 1 65536" &&
	expect_eq "$(cat "$TEST_DIR/p.rc")" 1 "exit status (isa-debug-exit 0)" &&
	expect_eq "$(cat "$TEST_DIR/p.con")" "stores: ok unpatched offset 3 copies 1 size 65536" "console" &&
	expect_eq "$(cat "$TEST_DIR/p.out")" "insns=1 stores=8192 misaligned=8192 split=2048 bytes=65536 line=32" "line=32" &&
	plugin_run "$plugin" "lo=$plo,hi=$phi" "unpatched 3 1 65536" &&
	expect_eq "$(cat "$TEST_DIR/p.out")" "insns=0 stores=0 misaligned=0 split=0 bytes=0 line=64" "the other variant'"'"'s range" &&
	plugin_run "$plugin" "line=48" "unpatched 3 1 65536" &&
	test ! -e "$TEST_DIR/p.out" && test ! -s "$TEST_DIR/p.con" &&
	grep -q "^store-align: bad argument line=48 " "$TEST_DIR/p.log" &&
	grep -q "qemu_plugin_install returned error code -1" "$TEST_DIR/p.log"
'

test_expect_success QEMU_X86 'planted: a 0003 whose head no longer aligns the destination makes the patched copy misaligned: reported, exit 1' '
	t=$TEST_DIR/unaligned-tree && mkdir -p "$t/arch/x86/lib" && cp "$T612/Makefile" "$t/" &&
	patch -s -R -p1 -F0 -i "$P3" -o "$t/$FILE" "$T612/$FILE" &&
	sed "s/^+\tandq \$-8,%rax$/+\tmovq %rdi,%rax/" "$P3" >"$TEST_DIR/planted.patch" &&
	! cmp -s "$P3" "$TEST_DIR/planted.patch" &&
	expect_exit 1 usercopy-stores --offsets 0,1 --copies 1 --patch "$TEST_DIR/planted.patch" --json "$TEST_DIR/p.json" "$t" &&
	tap_line "patched: no misaligned and no split rep movsq store at any offset" | grep -q "^not ok " &&
	tap_line "unpatched: misaligned rep movsq stores" | grep -q "^ok " &&
	grep -qx "# patched offset 1: 8192 stores, 8192 misaligned, 1024 split per copy" "$TEST_DIR/stdout" &&
	expect_eq "$(jq -r .result "$TEST_DIR/p.json")" fail "JSON result"
'

test_expect_success 'not applicable: 6.1 does not take 0003' '
	t61=$(kernel_tree 6.1) &&
	expect_exit 0 usercopy-stores --json "$TEST_DIR/na.json" --markdown "$TEST_DIR/na.md" "$t61" &&
	grep -q "^1\.\.0 # SKIP the 6.1 series does not take 0003 " "$TEST_DIR/stdout" &&
	cmp "$TEST_DIR/stdout" "$TEST_DIR/na.md" &&
	expect_eq "$(jq -r "[.result, .tree, .base] | join(\" \")" "$TEST_DIR/na.json")" "n/a $t61 6.1" "n/a JSON"
'

test_done
