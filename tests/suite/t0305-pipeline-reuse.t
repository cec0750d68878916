#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/pipeline reuses a stage whose inputs did not change, and runs
# again exactly the stages a changed patch reaches.  On the 7.3 tree, one
# target (x86_64: its build is shared with t0300) and four evidence tables
# (the arm64 and LoongArch harnesses, a layout needing an arm64 build, an
# opt-in measurement; the x86 harness, a minute per run, is t0140's):
# after a first run, a second reuses every stage; with 0005 (LoongArch)
# changed, only the apply and the LoongArch harness run again: the x86_64
# build, its boot and the arm64 harness are reused.  And an
# opt-in measurement (syscall-args-compilers) shows once it is made.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

evidence=$TEST_DIR/evidence
mkdir -p "$evidence"
for t in SCHEMA clear-user-arm64.conf layout-arm64.conf syscall-args-loongarch.conf syscall-args-compilers.conf; do
	cp "$TOP/configs/evidence/$t" "$evidence/"
done
# The shipped opt-in table as it is, its measurement looked for under this
# test's directory instead of build/evidence-loongarch*/: the Makefile's
# EVIDENCE_LOONGARCH moved by the environment (pipeline_run).
measured=build/tests/$TEST_NAME/measured
report=$TEST_DIR/report
# 0005 with its assignments in another order: the same change, another
# patch.
changed=$TEST_DIR/patches
cp -r "$TOP/patches" "$changed"
p5=$changed/mainline/0005-loongarch-syscall-args-no-memcpy.patch
awk '/^\+\targs\[1\] = / { print "+\targs[5] = regs->regs[9];" } !/^\+\targs\[5\] = / { print }' \
	"$TOP/patches/mainline/0005-loongarch-syscall-args-no-memcpy.patch" >"$p5"
export evidence report changed measured

# pipeline ARGS...: one run on 7.3, x86_64 (not as shipped), the five
# tables, the opt-in measurement looked for in $measured.
pipeline_run() {
	EVIDENCE_TABLES=$evidence EVIDENCE_LOONGARCH=$measured \
		"$SCRIPTS/pipeline" --kernel 7.3 --targets x86_64 --no-shipped --report "$report" "$@"
}
# ran / reused: the stages of the last run that ran / were reused, sorted,
# from results.json.
ran() { jq -r '[.stages[] | select(.stage.reused == false and .result != "n/a") | .stage.name] | sort | join(" ")' "$report/results.json"; }
reused() { jq -r '[.stages[] | select(.stage.reused) | .stage.name] | sort | join(" ")' "$report/results.json"; }
export -f pipeline_run ran reused

test_expect_success 'the changed 0005 is another patch of the same change' '
	! cmp -s "$p5" "$TOP/patches/mainline/0005-loongarch-syscall-args-no-memcpy.patch" &&
	expect_eq "$(grep -c "^+	args\[" "$p5")" 5 "assignments"
'

test_expect_success 'a first run: every stage runs (or is n/a: no arm64 build)' '
	pipeline_run --rerun >"$TEST_DIR/run1.log" 2>&1 || { tail -20 "$TEST_DIR/run1.log"; fail "first run"; } &&
	expect_eq "$(ran)" "apply boot-x86_64 build-x86_64 clear-user-arm64 init-x86_64 initramfs-x86_64 syscall-args-loongarch" ran &&
	expect_eq "$(jq -r ".stages[\"layout-arm64\"].result" "$report/results.json")" n/a layout-arm64 &&
	expect_eq "$(jq -r ".stages[\"syscall-args-compilers\"] | .result + \": \" + .reason" "$report/results.json")" \
		"n/a: opt-in, not measured on this tree: make evidence-loongarch-gcc KERNEL=7.3" "the opt-in stage"
'

test_expect_success 'a second run with nothing changed reuses every stage and says so' '
	pipeline_run >"$TEST_DIR/run2.log" 2>&1 || { tail -20 "$TEST_DIR/run2.log"; fail "second run"; } &&
	expect_eq "$(ran)" "" ran &&
	expect_eq "$(reused)" "apply boot-x86_64 build-x86_64 clear-user-arm64 init-x86_64 initramfs-x86_64 syscall-args-compilers syscall-args-loongarch" reused &&
	grep -q "pipeline: build-x86_64 (reused: inputs unchanged)" "$TEST_DIR/run2.log" &&
	grep -q "^pipeline: stages run: 0; reused: 8 " "$TEST_DIR/run2.log"
'

test_expect_success 'with 0005 changed: the apply and the LoongArch harness run, nothing else' '
	PATCHES_DIR=$changed pipeline_run >"$TEST_DIR/run3.log" 2>&1 || { tail -20 "$TEST_DIR/run3.log"; fail "third run"; } &&
	expect_eq "$(ran)" "apply syscall-args-loongarch" ran &&
	expect_eq "$(reused)" "boot-x86_64 build-x86_64 clear-user-arm64 init-x86_64 initramfs-x86_64" reused &&
	grep -q "^+	args\[5\] = regs->regs\[9\];$" "$(jq -r .tree "$report/results.json")/.overlay-applied/0005-loongarch-syscall-args-no-memcpy.patch"
'

test_expect_success 'back to the project series: the apply and the harness again, the build still reused' '
	pipeline_run >"$TEST_DIR/run4.log" 2>&1 || { tail -20 "$TEST_DIR/run4.log"; fail "fourth run"; } &&
	expect_eq "$(ran)" "apply syscall-args-loongarch" ran &&
	jq -e ".stages[\"build-x86_64\"].stage.reused" "$report/results.json" >/dev/null
'

# measurement SOURCES: an opt-in measurement of this run's tree made with
# the series whose sources are SOURCES (a jq expression over the run's).
measurement() {
	mkdir -p "$TOP/$measured" &&
	jq -n --arg tree "$(jq -r .tree "$report/results.json")" --arg v "$(jq -r .version "$report/results.json")" \
		--slurpfile s "$report/series-sources.json" \
		"{result: \"pass\", tree: \$tree, version: \$v, sources: (\$s[0] | $1), toolchains: []}" >"$TOP/$measured/compilers.json" &&
	printf "%s\n" "## LoongArch per compiler" "" "| compiler | calls |" >"$TOP/$measured/compilers.md"
}
export -f measurement

test_expect_success 'an opt-in measurement of this tree with another series: that stage runs and stays n/a' '
	measurement ".[\"arch/loongarch/include/asm/syscall.h\"] = \"0000\"" &&
	pipeline_run >"$TEST_DIR/run5a.log" 2>&1 || { tail -20 "$TEST_DIR/run5a.log"; fail "run"; } &&
	expect_eq "$(ran)" "" "ran (an n/a stage is not counted)" &&
	expect_eq "$(jq -r ".stages[\"syscall-args-compilers\"] | \"\(.stage.reused) \(.result)\"" "$report/results.json")" \
		"false n/a" "the opt-in stage" &&
	jq -r ".stages[\"syscall-args-compilers\"].reason" "$report/results.json" |
		grep -q "measured on this tree with another version of the series (.*arch/loongarch/include/asm/syscall.h differ): make evidence-loongarch-gcc KERNEL=7.3"
'

test_expect_success 'an opt-in measurement of this tree appears: that stage runs, the rest is reused' '
	measurement . &&
	pipeline_run >"$TEST_DIR/run5.log" 2>&1 || { tail -20 "$TEST_DIR/run5.log"; fail "fifth run"; } &&
	expect_eq "$(ran)" "syscall-args-compilers" ran &&
	expect_eq "$(jq -r ".stages[\"syscall-args-compilers\"].measured.command" "$report/results.json")" \
		"make evidence-loongarch-gcc KERNEL=7.3" "measured by" &&
	grep -qx "| compiler | calls |" "$report/report.md" &&
	grep -q "^Opt-in measurement, made by .make evidence-loongarch-gcc KERNEL=7.3. on " "$report/report.md"
'

test_expect_success 'a file added to one table'"'"'s READS: that stage runs when the file changes, nothing else, with no pipeline edit' '
	echo one >"$TEST_DIR/extra-input" &&
	sed -i "s|^READS=.*|READS=\"arch/arm64/lib/clear_user.S build/tests/$TEST_NAME/extra-input\"|" "$evidence/clear-user-arm64.conf" &&
	pipeline_run >"$TEST_DIR/run7a.log" 2>&1 || { tail -20 "$TEST_DIR/run7a.log"; fail "run"; } &&
	expect_eq "$(ran)" "clear-user-arm64" "ran (its table changed)" &&
	jq -e ".stages[\"clear-user-arm64\"].stage.inputs | any(startswith(\"read build/tests/$TEST_NAME/extra-input \"))" \
		"$report/results.json" >/dev/null &&
	pipeline_run >"$TEST_DIR/run7b.log" 2>&1 || { tail -20 "$TEST_DIR/run7b.log"; fail "run"; } &&
	expect_eq "$(ran)" "" "ran (nothing changed)" &&
	echo two >"$TEST_DIR/extra-input" &&
	pipeline_run >"$TEST_DIR/run7c.log" 2>&1 || { tail -20 "$TEST_DIR/run7c.log"; fail "run"; } &&
	expect_eq "$(ran)" "clear-user-arm64" "ran (the file changed)"
'

test_expect_success 'an interrupted run leaves the last report as the cache: the next run reuses it' '
	mkdir -p "$report.prev" && cp -a "$report/." "$report.prev/" && rm -rf "$report" &&
	pipeline_run >"$TEST_DIR/run6.log" 2>&1 &&
	expect_eq "$(ran)" "" ran &&
	test ! -e "$report.prev"
'

test_done
