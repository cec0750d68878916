#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/apply survives faults.  Every write step of apply and of
# --reverse (on 7.3; on 6.12 and 6.1 the first step of each kind) is
# interrupted through the test hook
# OVERLAY_TEST_FAULT=N:SIGNAL: with SIGINT the run rolls back before it
# exits (130); with SIGKILL the next run rolls the journal back and does
# what it was asked.  Either way the tree ends byte-identical to the
# pristine or the fully applied one, with no staging file and no journal
# left.  Then random SIGKILLs on a whole tree.  The trees are small: the
# files the series touch, the Makefile, Kconfig and arch/.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=tests/suite/patches.sh
. "$(dirname "$0")/patches.sh"

# is_after_done POINTS N: fault point N comes after the "done" mark: the
# run had written everything, so an interrupt leaves the new state.
is_after_done() { awk -v n="$2" '$2 == "done" { d = $1 } END { exit !(d != "" && n >= d) }' "$1"; }
# points KERNEL FILE: the fault points to try: every one on 7.3 (the
# mainline series: new files, a new directory, removals), the first of
# each kind on the other lines.
points() {
	if [ "$1" = 7.3 ]; then awk '{ print $1 }' "$2"; else awk '!seen[$2]++ { print $1 }' "$2"; fi
}
# state_ok TREE SUM [SUM2] WHAT: TREE is byte-identical to the tree of
# checksum file SUM (or SUM2 when given: either is fine), with no staging
# file and no journal.
state_ok() {
	local got want
	got=$(tree_sum "$1") want=$(cat "$2")
	[ "$got" = "$want" ] || [ "$got" = "${3:-}" ] || fail "$4: the tree is neither of the states it may be in"
	expect_eq "$(leftovers "$1")" "" "left over after $4"
}
export -f is_after_done state_ok points
# apply_int: apply with SIGINT, SIGTERM and SIGHUP at their defaults: a
# test started as a background job of a non-interactive shell has them
# ignored, and bash cannot trap a signal ignored when it started.
apply_int() { env --default-signal=INT,TERM,HUP "$SCRIPTS/apply" "$@"; }
export -f apply_int

for k in ${T0035_KERNELS:-7.3 6.12 6.1}; do
	export k
	test_expect_success "$k: the fault points of apply and of --reverse" '
		d=$TEST_DIR/$k && mkdir -p "$d" &&
		mini_tree "$k" "$d/pristine" && tree_sum "$d/pristine" >"$d/pristine.sum" &&
		cp -a "$d/pristine" "$d/applied" &&
		OVERLAY_TEST_FAULT_LOG=$d/apply.points apply "$d/applied" >/dev/null &&
		tree_sum "$d/applied" >"$d/applied.sum" &&
		cp -a "$d/applied" "$d/reversed" &&
		OVERLAY_TEST_FAULT_LOG=$d/reverse.points apply --reverse "$d/reversed" >/dev/null &&
		expect_eq "$(tree_sum "$d/reversed")" "$(cat "$d/pristine.sum")" "reverse" &&
		test "$(wc -l <"$d/apply.points")" -ge 10 && test "$(wc -l <"$d/reverse.points")" -ge 6 &&
		note "$(wc -l <"$d/apply.points") points in apply, $(wc -l <"$d/reverse.points") in --reverse"
	'

	test_expect_success "$k: SIGINT at the points of apply: rolled back at once (or, once done, finished), exit 130" '
		d=$TEST_DIR/$k && test -s "$d/apply.points" &&
		for n in $(points "$k" "$d/apply.points"); do
			rm -rf "$d/t" && cp -a "$d/pristine" "$d/t"
			rc=0; OVERLAY_TEST_FAULT=$n:INT apply_int "$d/t" >/dev/null 2>"$d/err" || rc=$?
			expect_eq "$rc" 130 "exit at point $n ($(sed -n "${n}p" "$d/apply.points"))"
			state_ok "$d/t" "$d/pristine.sum" "$(is_after_done "$d/apply.points" "$n" && cat "$d/applied.sum")" "point $n"
		done
	'

	test_expect_success "$k: SIGKILL at the points of apply: the next apply rolls back and applies" '
		d=$TEST_DIR/$k && test -s "$d/apply.points" &&
		for n in $(points "$k" "$d/apply.points"); do
			rm -rf "$d/t" && cp -a "$d/pristine" "$d/t"
			rc=0; OVERLAY_TEST_FAULT=$n:KILL apply "$d/t" >/dev/null 2>&1 || rc=$?
			expect_eq "$rc" 137 "killed at point $n"
			apply "$d/t" >/dev/null 2>"$d/err" || fail "apply after a kill at point $n: $(cat "$d/err")"
			expect_eq "$(tree_sum "$d/t")" "$(cat "$d/applied.sum")" "tree after point $n and a new apply"
			expect_eq "$(leftovers "$d/t")" "" "left over after point $n"
			apply --reverse "$d/t" >/dev/null 2>&1 || fail "reverse after point $n"
			expect_eq "$(tree_sum "$d/t")" "$(cat "$d/pristine.sum")" "reversed after point $n"
		done
	'

	test_expect_success "$k: SIGINT and SIGKILL at the points of --reverse" '
		d=$TEST_DIR/$k && test -s "$d/reverse.points" &&
		for n in $(points "$k" "$d/reverse.points"); do
			rm -rf "$d/t" && cp -a "$d/applied" "$d/t"
			rc=0; OVERLAY_TEST_FAULT=$n:INT apply_int --reverse "$d/t" >/dev/null 2>&1 || rc=$?
			expect_eq "$rc" 130 "exit at point $n of --reverse"
			state_ok "$d/t" "$d/applied.sum" "$(is_after_done "$d/reverse.points" "$n" && cat "$d/pristine.sum")" "point $n of --reverse"
			rm -rf "$d/t" && cp -a "$d/applied" "$d/t"
			rc=0; OVERLAY_TEST_FAULT=$n:KILL apply --reverse "$d/t" >/dev/null 2>&1 || rc=$?
			expect_eq "$rc" 137 "killed at point $n of --reverse"
			rc=0; apply --reverse "$d/t" >/dev/null 2>"$d/err" || rc=$?
			# Killed after its last write, the reverse is done: nothing to
			# reverse is the right answer then.
			[ $rc -eq 0 ] || { [ $rc -eq 2 ] && grep -q "nothing to reverse" "$d/err"; } ||
				fail "reverse after a kill at point $n: exit $rc: $(cat "$d/err")"
			state_ok "$d/t" "$d/pristine.sum" "" "reversed after point $n"
		done
	'
done

test_expect_success 'a dry run and scripts/status report an interrupted run and write nothing; the next apply rolls it back' '
	d=$TEST_DIR/dry && mkdir -p "$d" && mini_tree 7.3 "$d/t" &&
	! OVERLAY_TEST_FAULT=8:KILL apply "$d/t" >/dev/null 2>&1 &&
	test -d "$d/t/.overlay-applied/journal" && tree_sum "$d/t" >"$d/half.sum" &&
	expect_exit 1 apply --dry-run --json "$TEST_DIR/dry.json" "$d/t" &&
	expect_one_line_error "an interrupted run left its journal" &&
	expect_eq "$(jq -r .result "$TEST_DIR/dry.json")" unfinished json &&
	expect_eq "$(tree_sum "$d/t")" "$(cat "$d/half.sum")" "tree after the dry run" &&
	expect_exit 1 status "$d/t" &&
	grep -q "^$d/t: an interrupted run of scripts/apply left its journal" "$TEST_DIR/stdout" &&
	expect_eq "$(tree_sum "$d/t")" "$(cat "$d/half.sum")" "tree after scripts/status" &&
	expect_exit 0 apply "$d/t" &&
	grep -q "rolled back an interrupted run" "$TEST_DIR/stderr"
'

test_expect_success 'random SIGKILLs on a whole 6.12 tree: applied or pristine after the next run' '
	t=$(copy_tree 6.12 whole) && pristine=$(pristine_sum 6.12) &&
	for i in 1 2 3 4 5; do
		apply "$t" >/dev/null 2>&1 & pid=$!
		sleep "0.$((RANDOM % 9 + 1))"
		kill -KILL "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
		apply --reverse "$t" >/dev/null 2>&1 || apply "$t" >/dev/null 2>&1 && apply --reverse "$t" >/dev/null 2>&1 || true
	done &&
	apply --reverse "$t" >/dev/null 2>&1 || true
	expect_eq "$(tree_sum "$t")" "$pristine" "the whole tree after the kills" &&
	expect_eq "$(leftovers "$t")" "" "left over"
'

test_done
