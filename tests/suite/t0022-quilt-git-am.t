#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# Each line's series is a real quilt series: plain "quilt push -a --fuzz=0"
# then "quilt pop -a", and "git am" of its patches in series order, work on
# the Debian tree the line names (configs/bases), with no help from
# scripts/apply.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"
# shellcheck source=scripts/lib/common.sh
. "$SCRIPTS/lib/common.sh"
# shellcheck source=scripts/lib/series.sh
. "$SCRIPTS/lib/series.sh"

# Every kernel of configs/bases with a Debian tree, with its line's series.
for k in $(bases_with_package); do
	b=$(kernel_line "$k")
	export k b
	test_expect_success "$k: quilt push -a --fuzz=0 of the $b series applies every patch, quilt pop -a restores the tree" '
		q=$(copy_tree "$k" "quilt-$k") &&
		ln -s "$TOP/patches/$b" "$q/patches" &&
		(cd "$q" && quilt push -a --fuzz=0) >"$TEST_DIR/push-$k" 2>&1 || { cat "$TEST_DIR/push-$k"; fail "quilt push"; } &&
		expect_eq "$(cd "$q" && quilt applied | xargs -n1 basename | paste -sd " " -)" \
			"$(series_quilt "$b" | paste -sd " " -)" "patches quilt applied" &&
		! grep -q "fuzz\|FAILED" "$TEST_DIR/push-$k" &&
		(cd "$q" && quilt pop -a) >/dev/null &&
		rm "$q/patches" && rm -rf "$q/.pc" &&
		expect_eq "$(tree_sum "$q")" "$(pristine_sum "$k")" "checksum after pop"
	'

	test_expect_success "$k: git am of the $b series in order, one commit each, post-images as the index lines say" '
		src=$(kernel_tree "$k") g=$TEST_DIR/git-$k &&
		mkdir -p "$g" && git -C "$g" init -q &&
		# git am reads and writes only the files a patch names: a
		# repository of those files, as the Debian tree has them, stands
		# for the whole tree.
		for p in $(series_quilt "$b"); do patch_paths "$TOP/patches/$b/$p"; done | sort -u |
			while read -r path; do
				[ -e "$src/$path" ] || continue
				mkdir -p "$g/$(dirname "$path")" && cp "$src/$path" "$g/$path"
			done &&
		git -C "$g" add -A && git -C "$g" -c user.name=t -c user.email=t@t commit -qm base &&
		n=0 &&
		for p in $(series_quilt "$b"); do
			# A file at the patch'"'"'s pre-image must end at its post-image
			# (elsewhere the patch applies with line offsets).
			patch_files "$TOP/patches/$b/$p" | while read -r path pre post _; do
				[ "$(git -C "$g" rev-parse -q --verify "HEAD:$path" 2>/dev/null || echo 0000000000000000000000000000000000000000)" = "$pre" ] &&
					echo "$path $post"
			done >"$TEST_DIR/at-pre"
			git -C "$g" -c user.name=t -c user.email=t@t am -q "$TOP/patches/$b/$p" || fail "git am $p"
			n=$((n + 1))
			while read -r path post; do
				expect_eq "$(git -C "$g" rev-parse "HEAD:$path")" "$post" "$p: $path"
			done <"$TEST_DIR/at-pre"
		done &&
		expect_eq "$(git -C "$g" rev-list --count HEAD)" "$((n + 1))" "commits"
	'
done

test_expect_success 'the quilt test can fail: a patch already in the tree stops quilt push' '
	q=$(copy_tree 6.12 quilt-present) &&
	mkdir "$q/patches" &&
	cp "$TOP/patches/6.12/0003-x86-copy-user-align-destination.patch" "$q/patches/" &&
	echo 0003-x86-copy-user-align-destination.patch >"$q/patches/series" &&
	! (cd "$q" && quilt push -a --fuzz=0) >"$TEST_DIR/push-present" 2>&1 &&
	grep -q "FAILED" "$TEST_DIR/push-present"
'

test_done
