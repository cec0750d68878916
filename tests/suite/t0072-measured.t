#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/evidence/measured: an opt-in measurement (make evidence-armv5,
# make evidence-loongarch-gcc) shown as an evidence stage only when it was
# made on this run's tree; otherwise the stage is n/a and names the make
# command.  Results are fixtures: no kernel is built here.
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

test_expect_success 'a failed measurement fails the stage; a RESULT that is not JSON is an error' '
	echo "{\"result\": \"fail\", \"version\": \"7.3.4\", \"tree\": \"/src/linux-7.3\"}" >"$M/a/r.json" &&
	expect_exit 1 measure "$M/a/r.json" &&
	grep -q "^not ok 1 - make evidence-armv5 KERNEL=7.3 TOOLCHAIN=gcc-16: the measurement failed" "$TEST_DIR/stdout" &&
	echo "{\"result\": " >"$M/a/r.json" &&
	expect_exit 2 measure "$M/a/r.json" &&
	expect_one_line_error "a/r.json: not a JSON object"
'

test_done
