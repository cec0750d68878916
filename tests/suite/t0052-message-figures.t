#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# Every figure in a patch's message is measured here or quoted: a number
# in a paragraph that names none of the people the series quotes (the
# threads' reporters and posters) must appear in docs/evidence.md, which
# carries every figure of the reports with its date and machine (the
# opt-in measurements are not made by make test, so a report of this run
# would not have them).  Commit ids, trailers and ranges (0..63) are not
# figures.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# unbacked DOCS PATCH...: "PATCH: NUMBER: CONTEXT" per figure of a PATCH's
# message that is neither quoted nor in DOCS.
unbacked() {
	local docs=$1
	shift
	awk -v docs="$docs" '
		BEGIN {
			while ((getline l < docs) > 0) {
				gsub(/,/, "", l)
				while (match(l, /[0-9][0-9.]*[0-9]|[0-9]/)) {
					known[substr(l, RSTART, RLENGTH)] = 1
					l = substr(l, RSTART + RLENGTH)
				}
			}
			np = split("Stefan Kerkmann|Luke Yang|Jirka Hladky|Herton R. Krzesinski|Wentao Guan|Linus Torvalds|Arnd", people, "|")
			# A commit id: 12 hex digits (mawk has no {12}).
			for (i = 1; i <= 12; i++) commit = commit "[0-9a-f]"
		}
		FNR == 1 { file = FILENAME; sub(/.*\/patches\//, "", file); inhdr = 1; inbody = 0; para = "" }
		inhdr { if ($0 == "") { inhdr = 0; inbody = 1 } next }
		inbody && $0 == "---" { check(); inbody = 0; next }
		inbody && $0 == "" { check(); next }
		inbody { para = para " " $0 }
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
				if (!(n in known)) printf "%s: %s: %s\n", file, n, substr(t, RSTART > 30 ? RSTART - 30 : 1, 60)
				t = substr(t, RSTART + RLENGTH)
			}
		}' "$@"
}
export -f unbacked

test_expect_success 'every figure of every line'"'"'s messages is in docs/evidence.md or quoted' '
	unbacked "$TOP/docs/evidence.md" "$TOP"/patches/{mainline,6.12,6.1}/0*.patch >"$TEST_DIR/unbacked" &&
	expect_eq "$(cat "$TEST_DIR/unbacked")" "" "figures neither measured nor quoted"
'

test_expect_success 'the check can fail: a planted figure, then the same one quoted' '
	mkdir -p "$TEST_DIR/patches/mainline" &&
	p=$TEST_DIR/patches/mainline/0005-planted.patch &&
	awk "/^Copy the five registers/ { print \"Each call saves 98765 instructions.\"; print \"\" } { print }" \
		"$TOP/patches/mainline/0005-loongarch-syscall-args-no-memcpy.patch" >"$p" &&
	expect_eq "$(unbacked "$TOP/docs/evidence.md" "$p" | cut -d: -f1,2)" "mainline/0005-planted.patch: 98765" planted &&
	sed -i "s/^Each call saves 98765 instructions\\.$/Wentao Guan saw each call save 98765 instructions./" "$p" &&
	expect_eq "$(unbacked "$TOP/docs/evidence.md" "$p")" "" quoted
'

test_done
