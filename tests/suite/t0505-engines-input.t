#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# The engines on their inputs: merge-results on the results.json of a real
# make run (tests/suite/fixtures/results/make-7.3.json, trimmed from one)
# and on empty or multi-value files; lava-jobs with values YAML would cut,
# lab values that are not numbers, and a failed run over an old output;
# ci-workflow's --output.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

data=$TOP/tests/suite/fixtures/results
export data

test_expect_success 'merge-results: a make run of one line (benchmark stages too) exits 0, no null cell' '
	expect_exit 0 merge-results --json "$TEST_DIR/m.json" "$data/make-7.3.json" &&
	! grep -q "null\|MISSING" "$TEST_DIR/stdout" &&
	grep -qxF "cells: 4 PASS" "$TEST_DIR/stdout" &&
	jq ".stages[\"bench-usercopy\"] = .stages[\"usercopy-throughput\"]" "$data/make-7.3.json" >"$TEST_DIR/b.json" &&
	expect_exit 0 merge-results --json "$TEST_DIR/b.json.out" "$TEST_DIR/b.json" &&
	! grep -q null "$TEST_DIR/stdout" &&
	expect_eq "$(jq ".benchmarks | length" "$TEST_DIR/b.json.out")" 0 "board benchmark rows"
'

test_expect_success 'merge-results: a file of blanks, two JSON values: one line, exit 2' '
	printf "  \n\n" >"$TEST_DIR/blank.json" &&
	expect_exit 2 merge-results "$TEST_DIR/blank.json" &&
	expect_one_line_error "blank.json: empty" &&
	cat "$data/make-7.3.json" "$data/make-7.3.json" >"$TEST_DIR/two.json" &&
	expect_exit 2 merge-results "$TEST_DIR/two.json" &&
	expect_one_line_error "two.json: not one JSON value" &&
	expect_exit 2 merge-results "$data/make-7.3.json" "$TEST_DIR/blank.json" &&
	expect_one_line_error "blank.json: empty" &&
	[ ! -s "$TEST_DIR/stdout" ] || fail "a matrix printed before the error"
'

# yaml_get FILE PYEXPR: the value at PYEXPR (on d, the job) of a YAML job.
yaml_get() { /usr/bin/python3 -c 'import sys, yaml; d = yaml.safe_load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"; }
export -f yaml_get

test_expect_success 'lava-jobs: a URL base with " #" is the URL of every job, quoted' '
	expect_exit 0 lava-jobs --url-base "https://lab/a #x" "$TEST_DIR/q" &&
	expect_eq "$(yaml_get "$TEST_DIR/q/6.12-x86_64.yaml" "d[\"actions\"][0][\"deploy\"][\"images\"][\"kernel\"][\"url\"]")" \
		"https://lab/a #x/6.12/x86_64/bzImage" "kernel url" &&
	printf "ROOTFS_URL=\"https://lab/r #1.tar.gz\"\n" >"$TEST_DIR/lab.conf" &&
	expect_exit 0 lava-jobs --boards --lab "$TEST_DIR/lab.conf" --url-base "https://lab/a #x" "$TEST_DIR/qb" &&
	j=$TEST_DIR/qb/6.12-armv5-board-series.yaml &&
	expect_eq "$(yaml_get "$j" "d[\"actions\"][0][\"deploy\"][\"nfsrootfs\"][\"url\"]")" "https://lab/r #1.tar.gz" "rootfs url" &&
	expect_eq "$(yaml_get "$j" "d[\"actions\"][0][\"deploy\"][\"kernel\"][\"url\"]")" \
		"https://lab/a #x/6.12/armv5/full-series/zImage" "board kernel url" &&
	expect_eq "$(yaml_get "$j" "d[\"metadata\"][\"kernel-overlay.base\"]")" 6.12 "base"
'

test_expect_success 'lava-jobs: a lab value that is not a number: one line, exit 2, nothing written' '
	echo BENCH_MINUTES=abc >"$TEST_DIR/abc.conf" &&
	expect_exit 2 lava-jobs --boards --lab "$TEST_DIR/abc.conf" "$TEST_DIR/abc" &&
	expect_one_line_error "abc.conf: .*BENCH_MINUTES: .abc. is not a whole number" &&
	[ ! -e "$TEST_DIR/abc" ] || fail "an output directory was made" &&
	echo "REPEAT=\"5; rm -rf /\"" >"$TEST_DIR/rep.conf" &&
	expect_exit 2 lava-jobs --boards --lab "$TEST_DIR/rep.conf" "$TEST_DIR/abc" &&
	expect_one_line_error "REPEAT: .* is not a whole number" &&
	expect_exit 2 lava-jobs --url-base "$(printf "https://lab/a\nb")" "$TEST_DIR/abc" &&
	expect_one_line_error "--url-base: a control character" &&
	[ "$(stray_files "$TEST_DIR")" = "" ] || fail "stray files: $(stray_files "$TEST_DIR")"
'

test_expect_success 'lava-jobs: a run whose jobs fail the schema leaves the old jobs, byte for byte' '
	d=$TEST_DIR/qb && before=$(cd "$d" && md5sum -- *.yaml) &&
	echo BOOT_METHOD=no-such-method >"$TEST_DIR/bad.conf" &&
	expect_exit 1 lava-jobs --boards --lab "$TEST_DIR/bad.conf" "$d" &&
	tail -n 1 "$TEST_DIR/stderr" | grep -q "^lava-jobs: error: a generated job fails LAVA.s schema$" &&
	grep -q "qb/6.12-armv5-board-series.yaml: " "$TEST_DIR/stderr" &&
	expect_eq "$(cd "$d" && md5sum -- *.yaml)" "$before" "the old jobs" &&
	expect_eq "$(stray_files "$TEST_DIR")" "" "stray files" &&
	expect_exit 1 lava-jobs --boards --lab "$TEST_DIR/bad.conf" "$TEST_DIR/fresh" &&
	[ ! -e "$TEST_DIR/fresh" ] || fail "a failed first run left a jobs directory"
'

test_expect_success 'ci-workflow --output DIR: one line, exit 2, nothing in DIR; a relative FILE is written' '
	mkdir -p "$TEST_DIR/cw/D" && cd "$TEST_DIR/cw" &&
	expect_exit 2 ci-workflow --output D &&
	expect_one_line_error "D: a directory" &&
	expect_eq "$(ls -A D)" "" "DIR content" &&
	expect_exit 0 ci-workflow --output wf.yml &&
	expect_exit 0 ci-workflow --check --output wf.yml &&
	expect_eq "$(ls -A)" "$(printf "D\nwf.yml")" "files"
'

test_expect_success 'ci-workflow: a full disk keeps the old workflow, one line' '
	in_small_fs size=16k "
		echo old >\"\$TEST_DIR/m/wf.yml\" && fill_fs \"\$TEST_DIR/m\" &&
		if ci-workflow --output \"\$TEST_DIR/m/wf.yml\" 2>\"\$TEST_DIR/err\"; then exit 9; else rc=\$?; fi
		[ \$rc -eq 1 ] && [ \"\$(cat \"\$TEST_DIR/m/wf.yml\")\" = old ] &&
		[ -z \"\$(stray_files \"\$TEST_DIR/m\")\" ]
	" &&
	expect_one_line_error_in "$TEST_DIR/err" "wf.yml: cannot write it"
'

test_expect_success 'ci-workflow: a target table with a syntax error or an exit: one line, exit 2, nothing written' '
	for bad in "if then (" "exit 0"; do
		rm -rf "$TEST_DIR/tt" && cp -r "$TOP/configs/targets" "$TEST_DIR/tt" &&
		echo "$bad" >>"$TEST_DIR/tt/armv5.conf" &&
		TARGET_TABLES=$TEST_DIR/tt expect_exit 2 ci-workflow --output "$TEST_DIR/tt.yml" &&
		expect_one_line_error "armv5.conf:[0-9]*: syntax error" &&
		[ ! -e "$TEST_DIR/tt.yml" ] || fail "written for a bad table"
	done
'

test_expect_success 'check --only "" (or only commas): one line, exit 2' '
	expect_exit 2 check --only "" "$TEST_DIR" &&
	expect_one_line_error "--only: no check named" &&
	expect_exit 2 check --only , "$TEST_DIR" &&
	expect_one_line_error "--only: no check named"
'

test_done
