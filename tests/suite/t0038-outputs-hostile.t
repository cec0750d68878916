#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# Every command that writes, the same way: run once into a small tmpfs,
# then again with other input on the full file system and on the file
# system remounted read-only.  Each second run fails with one error line
# and exit code 1, and leaves the first run's output byte for byte, with
# no temporary file beside it.  (What each command does with bad input is
# in its own test; this is the layer they share, scripts/lib/output.sh.)
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

FIX=$TOP/tests/suite/fixtures
IN=$TEST_DIR/in
export FIX IN
mkdir -p "$IN"

# The inputs of both runs, outside the small file system.
mkdir -p "$IN/k1/arch/x86" "$IN/k2/arch/x86"
for v in 1 2; do
	printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = %s\n' "$v" >"$IN/k$v/Makefile"
	echo "mainmenu \"$v\"" >"$IN/k$v/Kconfig"
	head -c $((v * 3000)) /dev/urandom >"$IN/k$v/arch/x86/data"
	printf 'KTAP version 1\n1..1\nok 1 run%s\n' "$v" >"$IN/console$v.log"
	mkdir -p "$IN/r$v/stages"
	for n in apply build-x86_64 boot-x86_64; do
		jq ".stages[\"$n\"]" "$FIX/results/local-6.12.json" >"$IN/r$v/stages/$n.json"
	done
done
jq '.stages["boot-x86_64"].counts.passed = 3' "$FIX/results/make-7.3.json" >"$IN/make-7.3-b.json"

# write_CMD RUN DIR: the command writes its output under DIR (RUN 1 or 2:
# which input); sum_CMD DIR: what it wrote, as checksums.
write_copy_tree() { copy-tree "$IN/k$1" "$2/copy"; }
sum_copy_tree() { (cd "$1/copy" && find . -type f | sort | xargs sha256sum); }
# (The stage records are report's input and live beside its output: the
# second run reads the first run's.)
write_report() { [ -d "$2/r" ] || cp -r "$IN/r$1" "$2/r"; report "$2/r"; }
sum_report() { sha256sum "$1/r/results.json" "$1/r/report.md"; }
write_ktap_parse() { ktap-parse --json "$2/k.json" --junit "$2/k.xml" --name run "$IN/console$1.log"; }
sum_ktap_parse() { sha256sum "$1/k.json" "$1/k.xml"; }
write_merge_results() {
	local f=$FIX/results/make-7.3.json
	[ "$1" = 1 ] || f=$IN/make-7.3-b.json
	merge-results --json "$2/m.json" "$f" >/dev/null
}
sum_merge_results() { sha256sum "$1/m.json"; }
write_lava_jobs() { lava-jobs --url-base "https://lab.invalid/run$1" "$2/jobs"; }
sum_lava_jobs() { (cd "$1/jobs" && find . -type f | sort | xargs sha256sum); }
write_ci_workflow() { ci-workflow --output "$2/w.yml"; }
sum_ci_workflow() { sha256sum "$1/w.yml"; }
export -f write_copy_tree sum_copy_tree write_report sum_report write_ktap_parse sum_ktap_parse \
	write_merge_results sum_merge_results write_lava_jobs sum_lava_jobs write_ci_workflow sum_ci_workflow

# hostile CMD HOW [CODE]: CMD's second run on a file system that is full
# (HOW=full) or read-only (HOW=ro), as described at the top; CODE: the
# exit code CMD's --help gives a failed write (default 1).
hostile() {
	local cmd=${1//-/_} how=$2 code=${3:-1} err=$TEST_DIR/err.$1.$2
	in_small_fs size=2m "
		m=\$TEST_DIR/m
		write_$cmd 1 \"\$m\" >/dev/null 2>&1 || { echo 'the first run failed' >&2; exit 1; }
		sum_$cmd \"\$m\" >\"\$TEST_DIR/before\"
		case $how in
		full) fill_fs \"\$m\" ;;
		ro) mount -o remount,ro \"\$m\" ;;
		esac
		rc=0; write_$cmd 2 \"\$m\" >/dev/null 2>\"$err\" || rc=\$?
		[ \$rc -eq $code ] || { echo \"the second run exited \$rc, want $code\" >&2; exit 1; }
		sum_$cmd \"\$m\" | cmp -s - \"\$TEST_DIR/before\" || { echo 'the output changed' >&2; exit 1; }
		[ -z \"\$(stray_files \"\$m\")\" ] || { echo \"left: \$(stray_files \"\$m\")\" >&2; exit 1; }
	" || return 1
	# The commands print their progress and the commands they run first.
	expect_eq "$(grep -c ': error: ' "$err")" 1 "$1 ($how): error lines in '$(cat "$err")'" &&
	expect_eq "$(grep -vc '^\[ *[0-9]*s\] \|^+ \|: error: ' "$err")" 0 "$1 ($how): other lines in '$(cat "$err")'"
}
export -f hostile

# ktap-parse's 1 is a failed test run: its write errors are 2.
for cmd in copy-tree report ktap-parse:2 merge-results lava-jobs ci-workflow; do
	code=${cmd#*:} cmd=${cmd%:*}
	[ "$code" != "$cmd" ] || code=1
	for how in full ro; do
		test_expect_success "$cmd on a $how file system: one line, exit $code, the old output byte for byte" "
			hostile $cmd $how $code
		"
	done
done

test_done
