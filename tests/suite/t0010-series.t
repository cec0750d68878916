#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# The series files and the patch metadata, for every base: what quilt,
# git am and scripts/apply rely on, and the trailer block the scripts read.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=tests/suite/patches.sh
. "$(dirname "$0")/patches.sh"

BASES="mainline 6.12 6.1"
export BASES

# shellcheck source=scripts/lib/common.sh
. "$SCRIPTS/lib/common.sh"
# shellcheck source=scripts/lib/series.sh
. "$SCRIPTS/lib/series.sh"
# entries BASE: every change the series names, in order (patch, #present
# and #not-needed lines), through the series library.
entries() { series_load "$1" && series_names patch present not-needed; }
# metadata_preimages PATCH: the Preimage lines of the metadata block (which
# must say what index_preimages reads off the index lines).
metadata_preimages() { patch_metadata "$1" | grep '^Preimage: ' || true; }
export -f entries metadata_preimages

test_expect_success 'every base has a series; every entry is a patch file, #present ones too, #not-needed ones are not' '
	for b in $BASES; do
		series_load "$b" || fail "$b: series does not load"
		for p in $(series_names patch present); do
			test -f "$TOP/patches/$b/$p" || fail "$b/series: $p missing"
		done
		for p in $(series_names not-needed); do
			! test -e "$TOP/patches/$b/$p" || fail "$b: $p is not needed but present"
		done
	done
'

test_expect_success 'every patch file is listed exactly once; each base names all its changes' '
	for b in $BASES; do
		for f in "$TOP/patches/$b"/*.patch; do
			n=$(entries "$b" | grep -cx "$(basename "$f")")
			expect_eq "$n" 1 "$b/$(basename "$f") in series"
		done
		want="$P1 $P2 $P3 $P4 $P5 $P6"
		expect_eq "$(entries "$b" | paste -sd " " -)" "$want" "$b entries"
	done
'

# A change this project wrote is stored with the placeholder identity as
# its author (git am needs one) and without a Signed-off-by: the
# submitter's is added by scripts/export; a posted change keeps its
# author's (t0050 checks whose).
test_expect_success 'format-patch mbox headers, [PATCH] subject, a Signed-off-by unless the project wrote it' '
	for f in "$TOP"/patches/*/*.patch; do
		head -1 "$f" | grep -Eq "^From [0-9a-f]{40} Mon Sep 17 00:00:00 2001$" || fail "$f: From line"
		grep -q "^From: .*" "$f" || fail "$f: From:"
		grep -q "^Date: " "$f" || fail "$f: Date:"
		grep -q "^Subject: \[PATCH\] " "$f" || fail "$f: Subject"
		grep -q "^From: Seed 8fb4d3ac maintainers$" "$f" ||
			grep -q "^Signed-off-by: .* <.*@.*>$" "$f" || fail "$f: Signed-off-by"
	done
'

test_expect_success 'metadata block: Upstream-Status and one Preimage per file, matching the index lines' '
	for f in "$TOP"/patches/*/*.patch; do
		block=$(patch_metadata "$f")
		printf "%s\n" "$block" | grep -Eq "^Upstream-Status: (Pending|Submitted|Backport|Inappropriate) \[.+\]$" ||
			fail "$f: Upstream-Status"
		want=$(index_preimages "$f")
		expect_eq "$(metadata_preimages "$f")" "$want" "$(basename "$f") Preimage lines"
		printf "%s\n" "$want" | grep -Eq " [0-9a-f]{40}$" || fail "$f: index lines are not full-length"
	done
'

test_expect_success 'the metadata check can fail: a wrong Preimage hash is noticed' '
	f=$TEST_DIR/bad.patch &&
	sed "s/^\(Preimage: [^ ]* \)[0-9a-f]/\10/" "$TOP/patches/mainline/$P4" >"$f" &&
	[ "$(metadata_preimages "$f")" != "$(index_preimages "$f")" ]
'

test_expect_success 'the mainline unaligned.h patch carries Fixes: a339671db64b' '
	grep -qx "Fixes: a339671db64b (\"vdso: Switch get/put_unaligned() from packed struct to memcpy()\")" \
		"$TOP/patches/mainline/$P1"
'

# Mainline does not carry 0003 (upstream since 6.15): its measurement port
# in patches/repro/ is the reference.
test_expect_success 'the same LoongArch and x86 code change on every base that carries it' '
	changes() { sed -n "/^@@/,\$p" "$1" | grep -E "^[-+]" | grep -Ev "^(---|\+\+\+) "; }
	for p in "$P3" "$P5"; do
		ref=$TOP/patches/mainline/$p
		[ "$p" != "$P3" ] || ref=$TOP/patches/repro/mainline-${P3#0003-}
		changes "$ref" >"$TEST_DIR/want"
		test -s "$TEST_DIR/want"
		for b in 6.12 6.1; do
			[ -f "$TOP/patches/$b/$p" ] || continue
			changes "$TOP/patches/$b/$p" | cmp - "$TEST_DIR/want" || fail "$b/$p differs from mainline"
		done
	done
'

test_expect_success 'quilt import takes every patch of every base' '
	for b in $BASES; do
		# quilt looks upwards for a patches/ directory when there is none
		# here, and would find (and write into) this project'"'"'s.
		mkdir -p "$TEST_DIR/quilt-$b/patches" && cd "$TEST_DIR/quilt-$b"
		for f in "$TOP/patches/$b"/*.patch; do quilt import "$f" >/dev/null; done
		expect_eq "$(wc -l <patches/series)" "$(ls "$TOP/patches/$b"/*.patch | wc -l)" "$b imported"
		quilt header "$(basename "$f")" | grep -q "^Subject: \[PATCH\]"
	done
'

test_expect_success 'series_quilt: the patches quilt and git am apply, without the comment lines' '
	expect_eq "$(series_quilt 6.12 | paste -sd " " -)" "$P1 $P2 $P5 $P6" "6.12 quilt series" &&
	expect_eq "$(series_quilt 6.1 | paste -sd " " -)" "$P1 $P2 $P6" "6.1 quilt series" &&
	series_load 6.12 &&
	expect_eq "$(series_names present)" "$P3" "6.12 #present" &&
	expect_eq "$(series_names not-needed)" "$P4" "6.12 #not-needed"
'

test_expect_success 'series_load refuses a #present or #not-needed line without a reason' '
	cp -r "$TOP/patches" "$TEST_DIR/noreason" &&
	sed -i "s/^#present \([^ ]*\) .*/#present \1/" "$TEST_DIR/noreason/6.12/series" &&
	expect_exit 2 bash -c ". \"$SCRIPTS/lib/common.sh\"; . \"$SCRIPTS/lib/series.sh\"; PATCHES_DIR=$TEST_DIR/noreason; series_load 6.12" &&
	expect_one_line_error "6.12/series:[0-9]+: .#present $P3. gives no reason"
'

# change NUM BASE: "PATH|CHANGE_WHY" of change_patch BASE NUM, both out of
# the one shell that ran it.
change() { change_patch "$2" "$1" >"$TEST_DIR/change" && printf "%s|%s\n" "$(cat "$TEST_DIR/change")" "$CHANGE_WHY"; }
export -f change

test_expect_success 'change_patch: mainline gets its own 0004 and 0005, 6.12 its own 0005, a repro port where there is one' '
	expect_eq "$(change 0003 mainline)" "$TOP/patches/repro/mainline-${P3#0003-}|" "mainline 0003 (#not-needed: the port)" &&
	expect_eq "$(change 0004 mainline)" "$TOP/patches/mainline/$P4|" "mainline 0004" &&
	expect_eq "$(change 0005 mainline)" "$TOP/patches/mainline/$P5|" "mainline 0005" &&
	expect_eq "$(change 0004 6.12)" "|the 6.12 series does not take 0004 ($(sed -n "s/^#not-needed $P4 //p" "$TOP/patches/6.12/series")) and patches/repro/ has no 6.12-${P4#0004-}" "6.12 0004 (#not-needed, no port)" &&
	cp -r "$TOP/patches" "$TEST_DIR/patches" && : >"$TEST_DIR/patches/repro/6.12-${P4#0004-}" &&
	expect_eq "$(PATCHES_DIR=$TEST_DIR/patches change 0004 6.12)" "$TEST_DIR/patches/repro/6.12-${P4#0004-}|" "6.12 0004 (#not-needed: the port)" &&
	expect_eq "$(change 0005 6.12)" "$TOP/patches/6.12/$P5|" "6.12 0005" &&
	expect_eq "$(change 0003 6.12)" "$TOP/patches/6.12/$P3|" "6.12 0003 (#present)"
'

test_expect_success 'change_patch: nothing, and why, for a change the line does not take and has no port of' '
	expect_eq "$(change 0005 6.1)" "|the 6.1 series does not take 0005 ($(sed -n "s/^#not-needed $P5 //p" "$TOP/patches/6.1/series")) and patches/repro/ has no 6.1-${P5#0005-}" "6.1 0005" &&
	expect_eq "$(change 0007 mainline)" "|the mainline series has no 0007 patch" "mainline 0007"
'

test_expect_success 'base_default: 7.3 (a tree of the mainline line), the tree get-kernel gives when given none' '
	expect_eq "$(base_default)" 7.3 "base_default" &&
	expect_eq "$(kernel_line 7.3) $(kernel_line 7.2) $(kernel_line 6.12)" "mainline mainline 6.12" "kernel_line" &&
	expect_eq "$(base_of_version 7.3.4) $(base_of_version 7.9.1) $(base_of_version 6.1.192)" "mainline mainline 6.1" "base_of_version" &&
	expect_eq "$("$SCRIPTS/get-kernel" 2>/dev/null)" "$("$SCRIPTS/get-kernel" "$(base_default)" 2>/dev/null)" "get-kernel default"
'

test_expect_success 'patch_only: the sections of a patch for one file, which patch takes alone' '
	p=$(change_patch mainline 0002) &&
	patch_only "$p" tools/include/vdso/unaligned.h >"$TEST_DIR/only.patch" &&
	expect_eq "$(patch_paths "$TEST_DIR/only.patch")" tools/include/vdso/unaligned.h "paths of the part" &&
	test "$(patch_paths "$p" | wc -l)" -gt 1 &&
	! grep -q "^-- $" "$TEST_DIR/only.patch" &&
	mkdir -p "$TEST_DIR/o/tools/include/vdso" &&
	cp "$TOP/overlay/tools/include/vdso/unaligned.h" "$TEST_DIR/o/tools/include/vdso/" &&
	patch -d "$TEST_DIR/o" -p1 --fuzz=0 --reverse -s -i "$TEST_DIR/only.patch" &&
	expect_eq "$(git hash-object --no-filters "$TEST_DIR/o/tools/include/vdso/unaligned.h")" \
		9076483c9fbbd0a9d0735683b82b3bdf91ad5fb5 "pre-image (7.0 memcpy form)"
'

test_done
