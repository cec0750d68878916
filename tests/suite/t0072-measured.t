#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/evidence/measured: an opt-in measurement (make evidence-armv5,
# make evidence-loongarch-gcc, make bench-icount) shown as an evidence
# stage only when it was made on this run's tree; otherwise the stage is
# n/a and names the make command.  Where it looks is where the Makefile
# says the target writes (or the RESULT files given).  Results are
# fixtures: no kernel is built here.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

M=$TEST_DIR/m
export M
mkdir -p "$M/a" "$M/b"

# measure ARGS...: measured for Linux 7.3.4 with the trees /src/linux-7.3
# and /work/linux-7.3, into $M/out.json and $M/out.md.
measure() {
	measured --make evidence-armv5,TOOLCHAIN=gcc-16 --kernel 7.3 --version 7.3.4 \
		--tree /src/linux-7.3 --tree /work/linux-7.3 --json "$M/out.json" --markdown "$M/out.md" "$@"
}
export -f measure

test_expect_success 'measured: arguments' '
	expect_arg_errors measured "$M/a/r.json" "--make: missing" &&
	expect_exit 2 measured --make x --kernel 7.3 --version 7.3.4 "$M/a/r.json" &&
	expect_one_line_error "--kernel, --version and --tree are needed"
'

test_expect_success 'not measured: n/a, the reason names the make command' '
	expect_exit 0 measure "$M/a/r.json" "$M/b/r.json" &&
	grep -qx "1..0 # SKIP opt-in, not measured on this tree: make evidence-armv5 KERNEL=7.3 TOOLCHAIN=gcc-16" "$TEST_DIR/stdout" &&
	expect_eq "$(jq -r ".result + \": \" + .reason" "$M/out.json")" \
		"n/a: opt-in, not measured on this tree: make evidence-armv5 KERNEL=7.3 TOOLCHAIN=gcc-16" "n/a JSON" &&
	[ ! -e "$M/out.md" ]
'

test_expect_success 'measured on another tree (other version, other path): never shown as this one' '
	echo "{\"result\": \"pass\", \"version\": \"7.2.13\", \"tree\": \"/src/linux-7.3\", \"n\": 1}" >"$M/a/r.json" &&
	echo "{\"result\": \"pass\", \"version\": \"7.3.4\", \"tree\": \"/elsewhere/linux\", \"n\": 2}" >"$M/b/r.json" &&
	echo "## figures" >"$M/a/r.md" &&
	expect_exit 0 measure "$M/a/r.json" "$M/b/r.json" &&
	expect_eq "$(jq -r .result "$M/out.json")" n/a result &&
	jq -r .reason "$M/out.json" | grep -qF "measured on another tree only (Linux 7.2.13 at /src/linux-7.3; Linux 7.3.4 at /elsewhere/linux): make evidence-armv5" &&
	[ ! -e "$M/out.md" ]
'

test_expect_success 'measured on this tree: its JSON with .measured, its section under the command and date' '
	printf "%s\n" "## Whole kernel, GCC 16.2" "" "| a | b |" >"$M/b/r.md" &&
	echo "{\"result\": \"pass\", \"version\": \"7.3.4\", \"tree\": \"/work/linux-7.3\", \"n\": 3}" >"$M/b/r.json" &&
	expect_exit 0 measure "$M/a/r.json" "$M/b/r.json" &&
	grep -q "^ok 1 - make evidence-armv5 KERNEL=7.3 TOOLCHAIN=gcc-16: measured on this tree" "$TEST_DIR/stdout" &&
	expect_eq "$(jq -r "\"\(.n) \(.measured.file) \(.measured.command)\"" "$M/out.json")" \
		"3 $M/b/r.json make evidence-armv5 KERNEL=7.3 TOOLCHAIN=gcc-16" "JSON" &&
	expect_eq "$(head -n 1 "$M/out.md")" "## Whole kernel, GCC 16.2" heading &&
	grep -q "^Opt-in measurement, made by .make evidence-armv5 KERNEL=7.3 TOOLCHAIN=gcc-16. on 20" "$M/out.md" &&
	grep -qx "| a | b |" "$M/out.md"
'

# --sources: the series as applied in this run; a measurement made with
# another version of it (a changed or a new file) is not shown either.
test_expect_success 'measured with another version of the series: n/a naming the files; the same: shown' '
	echo "{\"include/vdso/unaligned.h\": \"aaa\", \"lib/tests/Makefile\": \"bbb\"}" >"$M/now.json" &&
	echo "{\"result\": \"pass\", \"version\": \"7.3.4\", \"tree\": \"/src/linux-7.3\", \"n\": 4,
		\"sources\": {\"include/vdso/unaligned.h\": \"old\", \"lib/tests/Makefile\": \"bbb\"}}" >"$M/a/r.json" &&
	echo "{\"result\": \"pass\", \"version\": \"7.3.4\", \"tree\": \"/work/linux-7.3\", \"n\": 5,
		\"sources\": {\"include/vdso/unaligned.h\": \"aaa\"}}" >"$M/b/r.json" &&
	cp "$M/out.md" "$M/out.md.before" &&
	expect_exit 0 measure --sources "$M/now.json" "$M/a/r.json" "$M/b/r.json" &&
	expect_eq "$(jq -r .result "$M/out.json")" n/a result &&
	jq -r .reason "$M/out.json" | grep -qE "^opt-in, measured on this tree with another version of the series \(20[0-9-]+, include/vdso/unaligned.h differ; 20[0-9-]+, lib/tests/Makefile differ\): make evidence-armv5 KERNEL=7.3 TOOLCHAIN=gcc-16$" &&
	cmp "$M/out.md" "$M/out.md.before" &&
	jq ".sources = {\"include/vdso/unaligned.h\": \"aaa\", \"lib/tests/Makefile\": \"bbb\"}" "$M/b/r.json" >"$M/b/r2.json" &&
	mv "$M/b/r2.json" "$M/b/r.json" &&
	expect_exit 0 measure --sources "$M/now.json" "$M/a/r.json" "$M/b/r.json" &&
	expect_eq "$(jq -r "\"\(.result) \(.n)\"" "$M/out.json")" "pass 5" "shown" &&
	echo "[]" >"$M/bad.json" &&
	expect_exit 2 measure --sources "$M/bad.json" "$M/b/r.json" &&
	expect_one_line_error "--sources .*bad.json: not a JSON object"
'

# Without RESULT arguments, measured asks make where the target writes
# (evidence-path-TARGET, the Makefile's RESULT_TARGET): with KERNEL, then
# without; a stand-in make says here, and logs how it was asked.
test_expect_success 'no RESULT: measured asks make, with KERNEL then without, MAKEFLAGS left out; --paths prints them' '
	stand_in make "echo \"\$* [\${MAKEFLAGS:-}] \$(pwd)\" >>\"\$TEST_DIR/make.log\"" \
		"case \" \$* \" in *\" KERNEL=7.3 \"*) echo \"\$M/k/r.json\" ;; *\" KERNEL= \"*) echo build/tests/t0072-measured/d/r.json ;; esac" &&
	PATH=$TEST_DIR/bin:$PATH MAKEFLAGS="KERNEL=6.1 -j9" expect_exit 0 measure --paths &&
	expect_eq "$(cat "$TEST_DIR/stdout")" "$(printf "%s\n" "$M/k/r.json" "$M/k/r.md" "$TOP/build/tests/t0072-measured/d/r.json" "$TOP/build/tests/t0072-measured/d/r.md")" "--paths" &&
	expect_eq "$(cat "$TEST_DIR/make.log")" "$(printf "%s\n" "-s --no-print-directory evidence-path-evidence-armv5 KERNEL=7.3 TOOLCHAIN=gcc-16 [] $TOP" \
		"-s --no-print-directory evidence-path-evidence-armv5 KERNEL= TOOLCHAIN=gcc-16 [] $TOP")" "how make was asked" &&
	mkdir -p "$TEST_DIR/d" &&
	echo "{\"result\": \"pass\", \"version\": \"7.3.4\", \"tree\": \"/work/linux-7.3\", \"n\": 6}" >"$TEST_DIR/d/r.json" &&
	PATH=$TEST_DIR/bin:$PATH expect_exit 0 measure &&
	expect_eq "$(jq -r "\"\(.n) \(.measured.file)\"" "$M/out.json")" "6 $TEST_DIR/d/r.json" "found where make said, without KERNEL"
'

test_expect_success 'no RESULT: a target the Makefile names no result of, a failing make, a $ in a VALUE: exit 2, one line' '
	stand_in make "exit 0" &&
	PATH=$TEST_DIR/bin:$PATH expect_exit 2 measure &&
	expect_one_line_error "--make evidence-armv5: the Makefile names no result of it \(no RESULT_evidence-armv5\)" &&
	stand_in make "echo \"make: *** No rule to make target\" >&2" "exit 2" &&
	PATH=$TEST_DIR/bin:$PATH expect_exit 2 measure &&
	expect_one_line_error "--make evidence-armv5: make evidence-path-evidence-armv5 failed: make: \*\*\* No rule" &&
	expect_exit 2 measured --make "evidence-armv5,TOOLCHAIN=\$(HOME)" --kernel 7.3 --version 7.3.4 --tree /work/linux-7.3 --paths &&
	expect_one_line_error "a VALUE with a \\$ \(make would expand it\)"
'

# The real Makefile: every shipped table of measured asks it for a target
# it has a result of, under build/, where its recipe writes; and a
# directory moved by the environment (t0305 does) moves both.
test_expect_success 'the Makefile: where each opt-in target of the tables writes, its recipe the same; ?= moves it' '
	n=0 &&
	for t in "$TOP"/configs/evidence/*.conf; do
		grep -q "^COMMAND=\"scripts/evidence/measured " "$t" || continue
		n=$((n + 1)) &&
		grep -qx "READS=measured" "$t" || { fail "$t: not READS=measured"; return 1; }
		! grep -q "build/" "$t" || { fail "$t spells a path under build/"; return 1; }
		mk=$(sed -n "s/^COMMAND=.* --make \([^ ]*\) .*/\1/p" "$t") &&
		expect_exit 0 measured --make "$mk" --kernel 7.3 --version 7.3.4 --tree /work/linux-7.3 --paths &&
		grep -q "^$TOP/build/.*/[a-z]*\.json$" "$TEST_DIR/stdout" || { fail "$t: --paths: $(cat "$TEST_DIR/stdout")"; return 1; }
		target=${mk%%,*} && vars=$(echo "${mk#"$target"}" | tr , " ") &&
		first=$(head -n 1 "$TEST_DIR/stdout") && first=${first#"$TOP"/} &&
		env -u MAKEFLAGS make -n --no-print-directory -C "$TOP" "$target" KERNEL=7.3 $vars >"$TEST_DIR/recipe" 2>&1 &&
		grep -qF -- "--json $first" "$TEST_DIR/recipe" || grep -qF -- "--out ${first%/*}" "$TEST_DIR/recipe" ||
			{ fail "$target: its recipe does not write $first: $(cat "$TEST_DIR/recipe")"; return 1; }
	done &&
	[ "$n" -ge 3 ] || fail "only $n tables of measured" &&
	expect_eq "$(env -u MAKEFLAGS make -s --no-print-directory -C "$TOP" evidence-path-evidence-armv5 KERNEL=7.3 TOOLCHAIN=gcc-16)" \
		build/evidence-armv5-7.3-gcc-16/evidence.json "evidence-armv5" &&
	expect_eq "$(env -u MAKEFLAGS make -s --no-print-directory -C "$TOP" evidence-path-bench-icount KERNEL=)" "" "bench-icount without KERNEL" &&
	EVIDENCE_LOONGARCH=$M/moved expect_exit 0 measured --make evidence-loongarch-gcc --kernel 7.3 --version 7.3.4 --tree /x --paths &&
	expect_eq "$(cat "$TEST_DIR/stdout")" "$(printf "%s\n" "$M/moved/compilers.json" "$M/moved/compilers.md")" "moved by the environment"
'

test_expect_success 'a failed measurement fails the stage; a RESULT that is not JSON is an error' '
	echo "{\"result\": \"fail\", \"version\": \"7.3.4\", \"tree\": \"/src/linux-7.3\"}" >"$M/a/r.json" &&
	expect_exit 1 measure "$M/a/r.json" &&
	grep -q "^not ok 1 - make evidence-armv5 KERNEL=7.3 TOOLCHAIN=gcc-16: the measurement failed" "$TEST_DIR/stdout" &&
	echo "{\"result\": " >"$M/a/r.json" &&
	expect_exit 2 measure "$M/a/r.json" &&
	expect_one_line_error "a/r.json: not a JSON object"
'

test_done
