#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/evidence/clear-user-arm64/clear-user-lines: the fetch lines of
# the store loop of arm64 __arch_clear_user() per iteration, counted by
# the QEMU TCG plugin fetch-lines, for the 7.3 tree as shipped, with the
# posted 64-byte alignment and with 0004 (the series), at every placement
# mod 64: the series runs 4 instructions in one 16-byte line at every
# placement, the shipped loop runs alignment NOPs and crosses a 64-byte
# line at some; a planted change that puts NOPs inside the loop makes it
# fail; the plugin refuses bad arguments; bad input is a one-line error;
# 6.12 and 6.1, whose lines do not take 0004, are not applicable.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=tests/suite/patches.sh
. "$(dirname "$0")/patches.sh"

REL=arch/arm64/lib/clear_user.S
tree=$(kernel_tree 7.3)
P4PATH=$TOP/patches/mainline/$P4
REPRO=$TOP/patches/repro/mainline-arm64-clear-user-align-64.patch
export REL tree P4PATH REPRO

# fake_tree NAME: a directory with only the tree's clear_user.S and its
# Makefile (which tells the kernel line), for editing.
fake_tree() { tree_files "$1" "$tree" "$REL" Makefile; }

# row JSON VARIANT PLACEMENT FIELD: a figure of one run in the JSON.
row() {
	jq -r --arg v "$2" --argjson n "$3" --arg f "$4" \
		'.runs[] | select(.variant == $v and .placement == $n) | .[$f]' "$1"
}

export -f fake_tree row

test_expect_success '--help; no tree, two trees, unknown option; bad --calls and --placements' '
	expect_arg_errors clear-user-lines "$tree" "no kernel tree given" "more than one tree" &&
	clear-user-lines --help | grep -q "^  --placements LIST" &&
	expect_exit 2 clear-user-lines --calls 0 "$tree" &&
	expect_one_line_error "--calls 0: a number of calls from 1 to 100000$" &&
	expect_exit 2 clear-user-lines --calls x "$tree" &&
	expect_one_line_error "--calls x: a number of calls" &&
	for p in 3 64 0,0 , 0,-4; do
		expect_exit 2 clear-user-lines --placements "$p" "$tree" &&
		expect_one_line_error "--placements $p: offsets from 0, 4, ..., 60, each once" || return 1
	done &&
	expect_exit 2 clear-user-lines "$tree" --json &&
	expect_one_line_error "--json needs a value"
'

test_expect_success '7.3: the series in one line at every placement, shipped crosses; JSON and markdown' '
	before=$(md5sum <"$tree/$REL") &&
	start=$(date +%s) &&
	expect_exit 0 clear-user-lines --json "$TEST_DIR/r.json" --markdown "$TEST_DIR/r.md" "$tree" &&
	note "runtime: $(($(date +%s) - start)) s" &&
	all_ok &&
	tap_line "$P4: applied forward \(the tree is unpatched\)$" &&
	tap_line "${REPRO##*/}: applied forward to the shipped copy" &&
	tap_line "shipped: the function at each placement 0,4,8,12,16,20,24,28,32,36,40,44,48,52,56,60 mod 64" &&
	tap_line "series: the function at each placement 0,4,8,12,16,20,24,28,32,36,40,44,48,52,56,60 mod 64" &&
	tap_line "posted: the function at 0 mod 64 wherever placed" &&
	tap_line "fetch-lines agrees with the disassembly in 48 runs" &&
	tap_line "series: 4 instructions \(0 NOPs\), 1 16-byte and 1 64-byte lines per iteration; within one 64-byte line at every placement$" &&
	tap_line "shipped: .*; crosses a 64-byte line at [0-9,]*16[0-9,]* mod 64; runs NOPs at " &&
	tap_line "qemu-system-aarch64 ran 48 programs to completion: 200 calls each, exit 0$" &&
	grep -q "^# 16: shipped 6/2/2 x, posted 6/2/1 @0, series 4/1/1$" "$TEST_DIR/stdout" &&
	# The figures come from the plugin: per placement, the series runs
	# its 4 instructions in one 16-byte line; shipped its NOPs too.
	expect_eq "$(jq "[.runs[] | select(.variant == \"series\")] | length" "$TEST_DIR/r.json")" 16 "series runs" &&
	expect_eq "$(jq -c "[.runs[] | select(.variant == \"series\") | [.insns_per_iter, .loop_nops, .lines16_per_iter, .lines64_per_iter, .lines64_max]] | unique" "$TEST_DIR/r.json")" \
		"[[4,0,1,1,1]]" "series per iteration" &&
	expect_eq "$(jq -c "[.runs[] | select(.variant == \"series\") | .iterations] | unique" "$TEST_DIR/r.json")" \
		"[102200]" "series iterations (200 calls x 511)" &&
	expect_eq "$(row "$TEST_DIR/r.json" shipped 16 insns_per_iter) $(row "$TEST_DIR/r.json" shipped 16 lines64_per_iter)" \
		"6 2" "shipped at 16: instructions, 64-byte lines" &&
	expect_eq "$(row "$TEST_DIR/r.json" shipped 16 crosses64)" true "shipped at 16 crosses" &&
	jq -e ".crossing_placements.shipped | length > 0 and index(16) != null" "$TEST_DIR/r.json" >/dev/null &&
	expect_eq "$(jq -c ".crossing_placements.series, .crossing_placements.posted" "$TEST_DIR/r.json" | paste -sd " " -)" \
		"[] []" "series and posted cross nowhere" &&
	expect_eq "$(jq -c "[.runs[] | select(.variant == \"posted\") | .function_mod_64] | unique" "$TEST_DIR/r.json")" "[0]" "posted function" &&
	expect_eq "$(jq -r ".tree, .version, .base, .patch, .repro, .direction, .result" "$TEST_DIR/r.json" | paste -sd " " -)" \
		"$tree $(sed -n "s/^SUBLEVEL = /7.3./p" "$tree/Makefile") mainline $P4PATH $REPRO forward pass" "json: tree, version, base, patches" &&
	expect_eq "$(jq -r .qemu.version "$TEST_DIR/r.json")" "$(qemu-system-aarch64 --version | head -n 1)" "json: QEMU version" &&
	jq -e ".date | test(\"^[0-9]{4}-[0-9]{2}-[0-9]{2}T\")" "$TEST_DIR/r.json" >/dev/null &&
	jq -e ".machine.host | length > 0" "$TEST_DIR/r.json" >/dev/null &&
	jq -e ".plugin.path | endswith(\"/libfetch-lines.so\")" "$TEST_DIR/r.json" >/dev/null &&
	jq -e "all(.runs[]; .plugin_args | test(\"^lo=0x[0-9a-f]+,hi=0x[0-9a-f]+,head=0x[0-9a-f]+,line=16,line=64$\"))" "$TEST_DIR/r.json" >/dev/null &&
	expect_eq "$(jq "[.tests[] | select(.status == \"ok\")] | length" "$TEST_DIR/r.json")" 10 "json: tests" &&
	grep -q "^| function mod 64 | shipped | posted | series |$" "$TEST_DIR/r.md" &&
	grep -q "^| 16 (k) | 6 / 2 / 2 \*\*x\*\* | 6 / 2 / 1 @0 | 4 / 1 / 1 |$" "$TEST_DIR/r.md" &&
	expect_eq "$(grep -c "^| [0-9]" "$TEST_DIR/r.md")" 16 "markdown rows" &&
	grep -q "no model of an I-cache .*fetch width or of prefetch" "$TEST_DIR/r.md" &&
	grep -q "^+ timeout 120 qemu-system-aarch64 .* -plugin .*/libfetch-lines.so,lo=0x" "$TEST_DIR/stderr" &&
	expect_eq "$(md5sum <"$tree/$REL")" "$before" "the tree'"'"'s clear_user.S"
'

test_expect_success 'a planted change with NOPs inside the loop: more lines, the series fails' '
	t=$(fake_tree planted) &&
	mkdir -p "$TEST_DIR/b/${REL%/*}" &&
	sed "s/^1:	\.p2align 4\$/	.p2align 4\n1:	nop\n	nop/" "$t/$REL" >"$TEST_DIR/b/$REL" &&
	grep -q "^1:	nop\$" "$TEST_DIR/b/$REL" &&
	git_patch "$t/$REL" "$TEST_DIR/b/$REL" "$REL" >"$TEST_DIR/planted.patch" &&
	expect_exit 1 clear-user-lines --patch "$TEST_DIR/planted.patch" --placements 0,16 --calls 20 \
		--json "$TEST_DIR/p.json" "$t" &&
	tap_line "fetch-lines agrees with the disassembly in 6 runs" | grep -q "^ok" &&
	tap_line "series: 6 instructions \(2 NOPs\), 2 16-byte and 1\.\.2 64-byte lines per iteration; crosses a 64-byte line at 0 mod 64; runs NOPs at every placement$" |
		grep -q "^not ok" &&
	expect_eq "$(row "$TEST_DIR/p.json" series 0 lines64_per_iter) $(row "$TEST_DIR/p.json" series 0 lines16_per_iter)" \
		"2 2" "planted series at 0: 64-byte and 16-byte lines" &&
	expect_eq "$(jq -r .result "$TEST_DIR/p.json")" fail "json result"
'

test_expect_success 'a tree that already has 0004: shipped by reversing it' '
	t=$(fake_tree patched) &&
	patch -d "$t" -p1 --quiet -i "$P4PATH" &&
	expect_exit 0 clear-user-lines --placements 16 --calls 5 "$t" &&
	all_ok &&
	tap_line "$P4: applied reverse \(the tree already has it\)$" &&
	tap_line "shipped: 6 instructions \(2 NOPs\), 2 16-byte and 2 64-byte lines per iteration; crosses a 64-byte line at 16 mod 64" &&
	tap_line "series: 4 instructions \(0 NOPs\), 1 16-byte and 1 64-byte lines per iteration"
'

test_expect_success 'the plugin refuses bad arguments' '
	dir=$(qemu-plugins 2>/dev/null) &&
	for a in "lo=0x10,hi=0x20,line=3:line= takes a power of two" "hi=0x20:needs hi= and lo= or head=" \
		"lo=0x20,hi=0x10:needs lo <= head < hi" "lo=zz,hi=0x10:not an address" "frob=1:unknown argument"; do
		rc=0 &&
		qemu-system-aarch64 -M virt -nographic -nodefaults -plugin "$dir/libfetch-lines.so,${a%%:*}" \
			</dev/null >"$TEST_DIR/plugin.out" 2>&1 || rc=$? &&
		{ [ "$rc" -ne 0 ] || fail "${a%%:*}: exit 0"; } &&
		grep -q "fetch-lines: ${a#*:}" "$TEST_DIR/plugin.out" ||
		{ cat "$TEST_DIR/plugin.out"; fail "${a%%:*}: no message ${a#*:}"; return 1; }
	done
'

test_expect_success 'not applicable: 6.12 and 6.1 do not take 0004' '
	expect_exit 0 clear-user-lines "$(kernel_tree 6.12)" &&
	grep -q "^1\.\.0 # SKIP the 6\.12 series does not take 0004 " "$TEST_DIR/stdout" &&
	t61=$(kernel_tree 6.1) &&
	expect_exit 0 clear-user-lines --json "$TEST_DIR/na.json" "$t61" &&
	expect_eq "$(wc -l <"$TEST_DIR/stdout")" 1 "stdout lines" &&
	grep -q "^1\.\.0 # SKIP the 6\.1 series does not take 0004 .* and patches/repro/ has no 6\.1-arm64-clear-user-loop-label\.patch$" "$TEST_DIR/stdout" &&
	expect_eq "$(jq -r "[.result, .tree, .base, (.patch | tostring)] | join(\" \")" "$TEST_DIR/na.json")" "n/a $t61 6.1 null" "n/a JSON"
'

test_expect_success 'bad input: one-line errors' '
	mkdir -p "$TEST_DIR/empty" &&
	expect_exit 2 clear-user-lines "$TEST_DIR/empty" &&
	expect_one_line_error "no arch/arm64/lib/clear_user.S" &&
	expect_exit 2 clear-user-lines "$TEST_DIR/nowhere" &&
	expect_one_line_error "no such directory" &&
	t=$(fake_tree nosym) && echo "	ret" >"$t/$REL" &&
	expect_exit 2 clear-user-lines "$t" &&
	expect_one_line_error "clear_user.S: no __arch_clear_user" &&
	t=$(fake_tree noasm) && printf "\tfrobnicate\tx0, x1\n" >>"$t/$REL" &&
	expect_exit 2 clear-user-lines --patch "$P4PATH" "$t" &&
	expect_one_line_error "noasm/arch/arm64/lib/clear_user.S does not assemble .*clear_user.S:[0-9]+: Error: unknown mnemonic .frobnicate." &&
	expect_exit 2 clear-user-lines --repro "$TOP/patches/6.12/0005-loongarch-syscall-args-no-memcpy.patch" "$tree" &&
	expect_one_line_error "must change arch/arm64/lib/clear_user.S only" &&
	expect_exit 2 clear-user-lines --repro "$TEST_DIR/nosuch.patch" "$tree" &&
	expect_one_line_error "no such patch" &&
	t=$(fake_tree nomake) && rm "$t/Makefile" && echo "// mine" >>"$t/$REL" &&
	expect_exit 2 clear-user-lines --patch "$P4PATH" "$t" &&
	expect_one_line_error "nomake: no Makefile to tell the kernel line from: pass --repro FILE$" &&
	expect_exit 2 clear-user-lines --keep "$tree/scratch" "$tree" &&
	expect_one_line_error "inside the tree" &&
	test ! -e "$tree/scratch"
'

test_done
