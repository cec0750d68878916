#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/status, the matrix a backporter reads first, and the vendor
# override layer (--extra) it shares with scripts/apply.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=tests/suite/patches.sh
. "$(dirname "$0")/patches.sh"

# cell PATCH COLUMN: the matrix cell (markdown on stdout of the last run).
cell() {
	awk -F' [|] ' -v p="$1" -v c="$2" '$1 == "| " p { sub(/ [|]$/, "", $NF); f = $(c + 1); sub(/ · .*/, "", f); print f }' "$TEST_DIR/stdout"
}
export -f cell

# shellcheck source=scripts/lib/common.sh
. "$SCRIPTS/lib/common.sh"
# shellcheck source=scripts/lib/series.sh
. "$SCRIPTS/lib/series.sh"

# The trees status reads by default: the kernels of configs/bases with a
# Debian tree, one column each, in table order.
kernels=$(bases_with_package | paste -sd " " -)
export kernels

# col KERNEL: its column in the matrix (1: the first tree).
col() { tr ' ' '\n' <<<"$kernels" | grep -nxF -- "$1" | cut -d: -f1; }

# want_cell KERNEL PATCH: the cell on the pristine tree, as the series of
# the kernel's line declares it: an entry applies, a #present one is
# already there, a #not-needed one is not needed, a patch the series does
# not list is "-".
want_cell() {
	awk -v p="$2" '$1 == p { s = "applies" } $1 == "#present" && $2 == p { s = "already present" }
		$1 == "#not-needed" && $2 == p { s = "not needed" } END { print (s == "" ? "-" : s) }' \
		"$TOP/patches/$(kernel_line "$1")/series"
}
export -f col want_cell

test_expect_success "every Debian tree of configs/bases by default ($kernels): one row per patch, one column per tree" '
	[ -n "$kernels" ] || fail "configs/bases: no kernel with a Debian tree" &&
	expect_exit 0 status --json "$TEST_DIR/status.json" &&
	header="| patch |" &&
	for k in $kernels; do
		header+=" $k ($(kernel_version "$(kernel_tree "$k")"), base $(kernel_line "$k")) |"
	done &&
	grep -qxF "$header" "$TEST_DIR/stdout" || fail "no header line \"$header\"" &&
	for k in $kernels; do
		for p in "$P1" "$P2" "$P3" "$P4" "$P5" "$P6"; do
			expect_eq "$(cell "$p" "$(col "$k")")" "$(want_cell "$k" "$p")" "$p on $k" || return 1
		done
	done &&
	# What the 6.12 and 6.1 lines are known to take, whatever their series say.
	expect_eq "$(cell "$P1" "$(col 6.12)")" applies "$P1 on 6.12" &&
	expect_eq "$(cell "$P3" "$(col 6.12)")" "already present" "$P3 on 6.12" &&
	expect_eq "$(cell "$P4" "$(col 6.12)")" "not needed" "$P4 on 6.12" &&
	expect_eq "$(cell "$P5" "$(col 6.12)")" applies "$P5 on 6.12" &&
	expect_eq "$(cell "$P1" "$(col 6.1)")" applies "$P1 on 6.1" &&
	expect_eq "$(cell "$P3" "$(col 6.1)")" "not needed" "$P3 on 6.1" &&
	expect_eq "$(cell "$P5" "$(col 6.1)")" "not needed" "$P5 on 6.1" &&
	expect_eq "$(cell "$P6" "$(col 6.1)")" applies "$P6 on 6.1" &&
	expect_eq "$(jq -r "[.trees[].label] | join(\" \")" "$TEST_DIR/status.json")" "$kernels" "JSON trees" &&
	expect_eq "$(jq -r "[.trees[].base] | join(\" \")" "$TEST_DIR/status.json")" \
		"$(for k in $kernels; do kernel_line "$k"; done | paste -sd " " -)" "JSON bases" &&
	expect_eq "$(jq -r ".patches | length" "$TEST_DIR/status.json")" 6 "JSON rows" &&
	expect_eq "$(jq -r ".patches[2].cells[$(($(col 6.12) - 1))].status" "$TEST_DIR/status.json")" "already present" "JSON cell" &&
	# What each patch is on its line: its Kind: line, in the cell and the JSON.
	grep -q "^| $P1 | applies · upstream submission |" "$TEST_DIR/stdout" &&
	expect_eq "$(jq -r ".patches[0].cells[$(($(col 6.12) - 1))].kind" "$TEST_DIR/status.json")" "vendor carry" "0001 on 6.12" &&
	expect_eq "$(jq -r ".patches[2].cells[$(($(col 6.12) - 1))].kind" "$TEST_DIR/status.json")" "stable backport" "0003 on 6.12"
'

test_expect_success 'a conflict and a patch that needs a refresh, on one tree' '
	tree=$(copy_tree 6.12 vendor) &&
	h=$tree/include/vdso/unaligned.h && detach "$h" &&
	sed -i "s/__get_unaligned_t(type, ptr) ({/__get_unaligned_t(type, ptr) ({ \\/\\* vendor \\*\\//" "$h" &&
	m=$tree/lib/Makefile && detach "$m" &&
	sed -i "s/^obj-\$(CONFIG_SLUB_KUNIT_TEST) += slub_kunit.o$/& vendor.o/" "$m" &&
	mark_tree "$tree" &&
	expect_exit 0 status "$tree" &&
	expect_eq "$(cell "$P1" 1)" conflict "$P1" &&
	expect_eq "$(cell "$P6" 1)" "needs refresh" "$P6" &&
	expect_eq "$(cell "$P2" 1)" applies "$P2" &&
	expect_untouched "$tree"
'

test_expect_success 'override layer: an empty file disables, a same-named patch replaces' '
	extra=$TEST_DIR/extra && mkdir -p "$extra" &&
	: >"$extra/$P5" &&
	sed "s/^+\\(.*\\)unaligned access helpers\\(.*\\)$/+\\1unaligned helpers (vendor)\\2/" \
		"$TOP/patches/6.12/$P6" >"$extra/$P6" &&
	! cmp -s "$extra/$P6" "$TOP/patches/6.12/$P6" &&
	expect_exit 0 status --extra "$extra" 6.12 &&
	expect_eq "$(cell "$P5" 1)" disabled "$P5" &&
	expect_eq "$(cell "$P6" 1)" "applies (override)" "$P6" &&
	expect_eq "$(cell "$P1" 1)" applies "$P1"
'

test_expect_success 'apply --extra: the replacement is what lands, the disabled patch is left out' '
	tree=$(copy_tree 6.12 extra-applied) &&
	expect_exit 0 apply --extra "$TEST_DIR/extra" "$tree" &&
	expect_statuses "$P5=disabled by override" "$P6=applied" &&
	grep -q "unaligned helpers (vendor)" "$tree/lib/unaligned_kunit.c" &&
	grep -q "memcpy(&args\\[1\\]" "$tree/arch/loongarch/include/asm/syscall.h" &&
	copy=$(record_copy "$tree" "$P6") && test -n "$copy" &&
	cmp "$TEST_DIR/extra/$P6" "$copy"
'

test_expect_success 'an override naming no patch of the series: one-line error' '
	: >"$TEST_DIR/extra/0099-vendor-only.patch" &&
	expect_exit 2 status --extra "$TEST_DIR/extra" 6.12 &&
	expect_last_error "0099-vendor-only.patch: the override names no patch of the 6.12 series" &&
	rm "$TEST_DIR/extra/0099-vendor-only.patch"
'

test_expect_success 'a missing tree: one-line error, exit 2' '
	expect_exit 2 status "$TEST_DIR/no-such-tree" &&
	expect_last_error "no-such-tree: no such file or directory"
'

test_done
