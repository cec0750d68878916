#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# MAINTAINERS: every tracked file is covered by a section, every F: pattern
# matches something, checked with the kernel tree's own get_maintainer.pl.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

gm=$(kernel_tree 6.12)/scripts/get_maintainer.pl
export gm

# sections FILE: the sections get_maintainer.pl finds for a file of ours.
sections() {
	(cd "$TOP" && perl "$gm" --no-tree --mpath MAINTAINERS --no-git --no-git-fallback \
		--sections -f "$1") | awk "NR == 1 || prev == \"\" { print } { prev = \$0 }" | grep -v "^$"
}
export -f sections

test_expect_success 'every tracked file is covered by a section' '
	cd "$TOP" &&
	git ls-files | while read -r f; do
		[ -n "$(sections "$f")" ] || fail "$f: no MAINTAINERS section"
	done
'

test_expect_success 'each patch goes to the list of its area' '
	sections patches/mainline/0004-arm64-clear-user-loop-label.patch | grep -qx "ARM64 CLEAR_USER ALIGNMENT" &&
	(cd "$TOP" && perl "$gm" --no-tree --mpath MAINTAINERS --no-git --no-git-fallback \
		-f patches/mainline/0005-loongarch-syscall-args-no-memcpy.patch) | grep -q "^loongarch@lists.linux.dev"
'

test_expect_success 'an uncovered file is noticed (the check can fail)' '
	[ -z "$(sections no-such-area/file.c)" ]
'

test_expect_success 'every F: pattern matches a tracked file (get_maintainer.pl --self-test)' '
	(cd "$TOP" && perl "$gm" --self-test=patterns) >"$TEST_DIR/self" 2>&1 &&
	! grep . "$TEST_DIR/self"
'

test_done
