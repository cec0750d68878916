#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# Every figure in a patch's message is measured here or quoted: a number
# in a paragraph that names none of the people the series quotes (the
# threads' reporters and posters) must appear in docs/evidence.md, which
# carries every figure of the reports with its date and machine, and, when
# this machine has a report of the mainline tree (build/report, as 'make'
# writes it on 7.3), in that report too: make test itself does not make
# the opt-in measurements a report needs, so there the case is skipped.
# Commit ids, trailers and ranges (0..63) are not figures.  A stable
# backport ("commit <id> upstream." first) is the upstream commit
# verbatim: its whole message is quoted.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# unbacked [--loose] DOCS PATCH...: "PATCH: NUMBER: CONTEXT" per figure of
# a PATCH's message that is neither quoted nor in DOCS.  --loose, for a
# report: a version is found in a longer one (12.2 in 12.2.0), and a
# figure of 1000 or more within 0.1% of one in DOCS (the spread
# bench-icount allows between runs of one kernel; a message rounds).
unbacked() {
	local loose=0 docs
	[ "$1" != --loose ] || { loose=1; shift; }
	docs=$1
	shift
	awk -v docs="$docs" -v loose="$loose" '
		BEGIN {
			while ((getline l < docs) > 0) {
				gsub(/,/, "", l)
				while (match(l, /[0-9][0-9.]*[0-9]|[0-9]/)) {
					n = substr(l, RSTART, RLENGTH)
					known[n] = 1
					if (loose && split(n, part, ".") > 2)
						known[part[1] "." part[2]] = 1
					if (loose && n + 0 >= 1000)
						big[++nbig] = n + 0
					l = substr(l, RSTART + RLENGTH)
				}
			}
			np = split("Stefan Kerkmann|Luke Yang|Jirka Hladky|Herton R. Krzesinski|Wentao Guan|Linus Torvalds|Arnd", people, "|")
			# A commit id: 12 hex digits (mawk has no {12}).
			for (i = 1; i <= 12; i++) commit = commit "[0-9a-f]"
		}
		FNR == 1 { file = FILENAME; sub(/.*\/patches\//, "", file); inhdr = 1; inbody = 0; para = ""; first = 0 }
		inhdr { if ($0 == "") { inhdr = 0; inbody = 1; first = 1 } next }
		first { first = 0; if ($0 ~ /^commit [0-9a-f]+ upstream\.$/) { inbody = 0; para = ""; next } }
		inbody && $0 == "---" { check(); inbody = 0; next }
		inbody && $0 == "" { check(); next }
		inbody { para = para " " $0 }
		function near(x,   i, d) {
			if (x < 1000) return 0
			for (i = 1; i <= nbig; i++) {
				d = big[i] - x
				if (d < 0) d = -d
				if (d <= x / 1000) return 1
			}
			return 0
		}
		function check(   p, quoted, i, t) {
			p = para; para = ""
			if (p ~ /^ (Fixes|Reported-by|Closes|Suggested-by|Link|Cc|Signed-off-by):/) return
			quoted = 0
			for (i = 1; i <= np; i++) if (index(p, people[i])) quoted = 1
			if (quoted) return
			gsub(commit, "", p)
			gsub(/[0-9]+\.\.[0-9]+/, "", p)
			gsub(/,/, "", p)
			t = p
			while (match(t, /[0-9][0-9.]*[0-9]|[0-9]/)) {
				n = substr(t, RSTART, RLENGTH)
				sub(/\.$/, "", n)
				if (!(n in known) && !near(n + 0)) printf "%s: %s: %s\n", file, n, substr(t, RSTART > 30 ? RSTART - 30 : 1, 60)
				t = substr(t, RSTART + RLENGTH)
			}
		}' "$@"
}
export -f unbacked

test_expect_success 'every figure of every line'"'"'s messages is in docs/evidence.md or quoted' '
	unbacked "$TOP/docs/evidence.md" "$TOP"/patches/{mainline,6.12,6.1}/0*.patch >"$TEST_DIR/unbacked" &&
	expect_eq "$(cat "$TEST_DIR/unbacked")" "" "figures neither measured nor quoted"
'

# The report of the mainline tree, if this machine has one.
report=$TOP/build/report
if [ "$(jq -r .base "$report/results.json" 2>/dev/null)" = mainline ] && [ -f "$report/report.md" ]; then
	test_set_prereq MAINLINE_REPORT
else
	test_lack_prereq MAINLINE_REPORT "no report of the mainline tree in build/report ('make' on 7.3 writes one)"
fi
export report

test_expect_success MAINLINE_REPORT 'every figure of the mainline messages is in the report of a mainline tree or quoted' '
	unbacked --loose "$report/report.md" "$TOP"/patches/mainline/0*.patch >"$TEST_DIR/unbacked" &&
	expect_eq "$(cat "$TEST_DIR/unbacked")" "" "figures the report does not show"
'

test_expect_success 'the check can fail: a planted figure, then the same one quoted' '
	mkdir -p "$TEST_DIR/patches/mainline" &&
	p=$TEST_DIR/patches/mainline/0005-planted.patch &&
	awk "/^Copy the five registers/ { print \"Each call saves 98765 instructions.\"; print \"\" } { print }" \
		"$TOP/patches/mainline/0005-loongarch-syscall-args-no-memcpy.patch" >"$p" &&
	expect_eq "$(unbacked "$TOP/docs/evidence.md" "$p" | cut -d: -f1,2)" "mainline/0005-planted.patch: 98765" planted &&
	sed -i "s/^Each call saves 98765 instructions\\.$/Wentao Guan saw each call save 98765 instructions./" "$p" &&
	expect_eq "$(unbacked "$TOP/docs/evidence.md" "$p")" "" quoted &&
	printf "%s\n" "gcc 12.2.0, 630021.664 instructions" >"$TEST_DIR/r.md" &&
	printf "%s\n" "From: x" "" "GCC 12.2 ran 630038 and 631000 instructions." "---" >"$TEST_DIR/m.patch" &&
	expect_eq "$(unbacked --loose "$TEST_DIR/r.md" "$TEST_DIR/m.patch" | cut -d: -f2)" " 631000" "loose: version prefix, 0.1%"
'

test_done
