#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# Adding a base is one row in configs/bases and a patches/BASE/ directory:
# in a scratch copy of the project, a made-up line 6.99 (a 6.12 tree with
# PATCHLEVEL 99 and shifted context) gets its series from scripts/refresh,
# and apply, status, report and the evidence harnesses pick it up with no
# other file of the project changed.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# The scratch project: its tracked files as they are now, and the pristine
# trees of this one (read only).
proj=$TEST_DIR/project
scratch_project "$proj"
kernel_tree 6.12 >/dev/null
ln -s "$TOP/build/src" "$proj/build/src"

# The made-up tree: 6.12.117 as 6.99.3, three lines more at the top of two
# touched files so that the 6.12 series needs a refresh.
tree=$(copy_tree 6.12 linux-6.99)
detach "$tree/Makefile" "$tree/include/vdso/unaligned.h" "$tree/lib/Makefile"
sed -i 's/^PATCHLEVEL = 12$/PATCHLEVEL = 99/; s/^SUBLEVEL = .*/SUBLEVEL = 3/' "$tree/Makefile"
for f in include/vdso/unaligned.h lib/Makefile; do
	sed -i '1i # vendor: three lines\n# that shift\n# every hunk' "$tree/$f"
done
export proj tree

# only_new_base: the scratch project differs from its commit in
# configs/bases and patches/6.99/ only, and in both.
only_new_base() {
	local changed others
	changed=$(git -C "$proj" status --porcelain -uall | awk '{ print $2 }')
	printf '%s\n' "$changed" | grep -qx configs/bases || fail "configs/bases unchanged"
	printf '%s\n' "$changed" | grep -q '^patches/6\.99/series$' || fail "no patches/6.99/series"
	others=$(printf '%s\n' "$changed" | grep -vx configs/bases | grep -v '^patches/6\.99/' || true)
	[ -z "$others" ] || fail "files other than configs/bases and patches/6.99/ changed: $others"
}
export -f only_new_base

test_expect_success 'the row and the refreshed series: configs/bases and patches/6.99/ only' '
	printf "6.99\t\t6.99\t\t\t\t\t-\t\t\t-\n" >>"$proj/configs/bases" &&
	expect_exit 0 "$proj/scripts/refresh" --base 6.99 --from 6.12 "$tree" &&
	test -f "$proj/patches/6.99/series" &&
	only_new_base
'

test_expect_success 'apply: the tree is detected as 6.99 and the refreshed series applies' '
	expect_exit 0 "$proj/scripts/apply" --dry-run --json "$TEST_DIR/apply.json" "$tree" &&
	grep -q "^base: 6.99, from blob hashes" "$TEST_DIR/stdout" &&
	expect_eq "$(jq -r ".base" "$TEST_DIR/apply.json")" 6.99 "apply base" &&
	expect_eq "$(jq -r "[.patches[].status] | unique | join(\",\")" "$TEST_DIR/apply.json")" \
		"already present,applied,not needed on this base" statuses
'

test_expect_success 'status: a column for the 6.99 tree, base 6.99' '
	expect_exit 0 "$proj/scripts/status" --json "$TEST_DIR/status.json" "$tree" &&
	expect_eq "$(jq -r ".trees[0].base" "$TEST_DIR/status.json")" 6.99 "status base" &&
	grep -q "^| patch | $tree (6.99.3, base 6.99) |" "$TEST_DIR/stdout"
'

test_expect_success 'report: results.json about 6.99, its sections titled from its patches' '
	r=$TEST_DIR/report && mkdir -p "$r/stages" && : >"$TEST_DIR/inputs" &&
	cp "$TEST_DIR/apply.json" "$r/stages/apply.json" &&
	bash -c ". \"$proj/scripts/lib/common.sh\"; . \"$proj/scripts/lib/results.sh\"
		stage_wrap \"$r/stages/apply.json\" apply series series 0 1 \"$TEST_DIR/inputs\"" &&
	expect_exit 0 "$proj/scripts/report" "$r" &&
	expect_eq "$(jq -r ".base + \" \" + .version" "$r/results.json")" "6.99 6.99.3" "results.json" &&
	grep -q "^Tree: .*, base \*\*6.99\*\*" "$r/report.md"
'

test_expect_success 'the harnesses: 6.99 patch for 0005, 0004 not taken by the 6.99 line' '
	expect_exit 0 "$proj/scripts/evidence/syscall-args-loongarch/syscall-args-loongarch" \
		--json "$TEST_DIR/sa.json" "$tree" &&
	expect_eq "$(jq -r .patch "$TEST_DIR/sa.json")" "$proj/patches/6.99/0005-loongarch-syscall-args-no-memcpy.patch" "0005 patch" &&
	expect_exit 0 "$proj/scripts/evidence/clear-user-arm64/clear-user-arm64" --json "$TEST_DIR/cu.json" "$tree" &&
	grep -q "^1\.\.0 # SKIP .*6\.99" "$TEST_DIR/stdout" &&
	expect_eq "$(jq -r .result "$TEST_DIR/cu.json")" n/a "0004 harness"
'

test_expect_success 'and nothing else of the scratch project changed' '
	only_new_base
'

test_done
