#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# The series files and the patch metadata, for every base: what quilt,
# git am and scripts/apply rely on, and the trailer block the scripts read.
# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
# shellcheck source=tests/patches.sh
. "$(dirname "$0")/patches.sh"

BASES="mainline 6.12 6.1"
export BASES

# entries BASE: patch names listed in the series, applied or not-needed.
entries() {
	awk '/^#not-needed / { print $2; next } /^#/ || !NF { next } { print $1 }' "$TOP/patches/$1/series"
}
# metadata_preimages PATCH: the Preimage lines of the block below "---"
# (index_preimages, from scripts/lib.sh: the same as the index lines say).
metadata_preimages() { metadata_block "$1" | grep '^Preimage: ' || true; }
# shellcheck source=scripts/lib.sh
. "$SCRIPTS/lib.sh"
export -f entries metadata_preimages index_preimages metadata_block touched_files

test_expect_success 'every base has a series; every entry is a patch file or declared not needed' '
	for b in $BASES; do
		test -f "$TOP/patches/$b/series" || fail "$b: no series"
		awk "!/^#/ && NF" "$TOP/patches/$b/series" | while read -r p; do
			test -f "$TOP/patches/$b/$p" || fail "$b/series: $p missing"
		done
		grep "^#not-needed " "$TOP/patches/$b/series" | while read -r _ p reason; do
			test -n "$reason" || fail "$b: $p: no reason"
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
		# mainline does not carry the KUnit test (see its series file).
		[ "$b" != mainline ] || want="$P1 $P2 $P3 $P4 $P5"
		expect_eq "$(entries "$b" | paste -sd " " -)" "$want" "$b entries"
	done
'

test_expect_success 'format-patch mbox headers, [PATCH] subject, Signed-off-by' '
	for f in "$TOP"/patches/*/*.patch; do
		head -1 "$f" | grep -Eq "^From [0-9a-f]{40} Mon Sep 17 00:00:00 2001$" || fail "$f: From line"
		grep -q "^From: .*" "$f" || fail "$f: From:"
		grep -q "^Date: " "$f" || fail "$f: Date:"
		grep -q "^Subject: \[PATCH\] " "$f" || fail "$f: Subject"
		grep -q "^Signed-off-by: .* <.*@.*>$" "$f" || fail "$f: Signed-off-by"
	done
'

test_expect_success 'metadata block: Upstream-Status and one Preimage per file, matching the index lines' '
	for f in "$TOP"/patches/*/*.patch; do
		block=$(awk "/^---\$/ { on = 1; next } on && !NF { exit } on" "$f")
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
	! expect_eq "$(metadata_preimages "$f")" "$(index_preimages "$f")" 2>/dev/null
'

test_expect_success 'the mainline unaligned.h patch carries Fixes: a339671db64b' '
	grep -qx "Fixes: a339671db64b (\"vdso: Switch get/put_unaligned() from packed struct to memcpy()\")" \
		"$TOP/patches/mainline/$P1"
'

test_expect_success 'the same LoongArch and x86 code change on every base that carries it' '
	changes() { sed -n "/^@@/,\$p" "$1" | grep -E "^[-+]" | grep -Ev "^(---|\+\+\+) "; }
	for p in "$P3" "$P5"; do
		changes "$TOP/patches/mainline/$p" >"$TEST_DIR/want"
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

test_expect_success 'git am takes the 6.12 and 6.1 series on their trees, one commit each' '
	for b in 6.12 6.1; do
		src=$(kernel_tree "$b") g=$TEST_DIR/git-$b
		mkdir -p "$g" && git -C "$g" init -q
		# The files the series touches, except those it adds.
		touched_files "$TOP/patches/$b"/*.patch | while read -r path; do
			[ -e "$src/$path" ] || continue
			mkdir -p "$g/$(dirname "$path")" && cp "$src/$path" "$g/$path"
		done
		git -C "$g" add -A && git -C "$g" -c user.name=t -c user.email=t@t commit -qm base
		applied=$(entries "$b" | while read -r p; do
			[ -f "$TOP/patches/$b/$p" ] || continue
			git -C "$g" apply --check -R "$TOP/patches/$b/$p" 2>/dev/null && continue
			echo "$TOP/patches/$b/$p"; done)
		git -C "$g" -c user.name=t -c user.email=t@t am -q $applied
		expect_eq "$(git -C "$g" rev-list --count HEAD)" "$(($(echo "$applied" | wc -l) + 1))" "$b commits"
	done
'

test_done
