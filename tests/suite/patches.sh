# shellcheck shell=bash
# Names of the series' patches, shared by the tests.
P1=0001-vdso-unaligned-packed-may-alias.patch
P2=0002-tools-headers-sync-unaligned.patch
P3=0003-x86-copy-user-align-destination.patch
P4=0004-arm64-clear-user-loop-label.patch
P5=0005-loongarch-syscall-args-no-memcpy.patch
P6=0006-lib-unaligned-kunit.patch
export P1 P2 P3 P4 P5 P6

# series_lib FUNCTION ARG...: a function of the series library, in a
# subshell: the tests that source this file need none of the rest of the
# library in their own shell.
series_lib() {
	(
		set -e
		# shellcheck source=/dev/null # checked on its own; it sets TOP again
		. "$TOP/scripts/lib/common.sh"
		# shellcheck source=scripts/lib/series.sh
		. "$TOP/scripts/lib/series.sh"
		"$@"
	)
}

# series_patch_files PATCH: patch_files, "PATH PRE POST MODE" per file.
series_patch_files() { series_lib patch_files "$1"; }

# record_copy TREE NAME: the copy of the applied patch NAME in TREE's
# record of an apply (record_patches), or nothing.
record_copy() { series_lib record_patches "$1" | awk -v n="/$2" 'substr($0, length($0) - length(n) + 1) == n'; }

# post_images_ok TREE BASE [PRISTINE]: every file a patch applied to TREE
# (its record) touches has the post-image blob the patch names; with
# PRISTINE, only the files whose blob there is the patch's pre-image (a
# patch applied with offsets elsewhere gives another blob).  Prints each
# file it checked.
post_images_ok() {
	local tree=$1 base=$2 pristine=${3:-} p path pre post h n
	# The patches the tree's record says were applied: an already present
	# one keeps the tree's own blob.
	for p in $(series_lib record_patches "$tree"); do
		n=0
		while read -r path pre post _; do
			n=$((n + 1))
			if [ -n "$pristine" ] && [ -f "$pristine/$path" ] &&
				[ "$(git hash-object --no-filters "$pristine/$path")" != "$pre" ]; then
				continue
			fi
			h=$(git hash-object --no-filters "$tree/$path")
			echo "$path $h"
			[ "$h" = "$post" ] || fail "$path: blob $h, want the post-image $post"
		done < <(series_patch_files "$TOP/patches/$base/${p##*/}")
		# A patch whose files were not read would check nothing.
		[ "$n" -gt 0 ] || fail "$p: no file read from its diff --git sections"
	done
}

# accessor_block FILE: the lines from the comment before __get_unaligned_t()
# to the end of __put_unaligned_t(), the part every base must share.
accessor_block() {
	awk '/^\/\*$/ { buf = ""; keep = 1 } keep { buf = buf $0 "\n" }
		/^#define __get_unaligned_t/ { found = 1 }
		found && /^} while \(0\)$/ { printf "%s", buf; exit }' "$1"
}

# mini_tree KERNEL DIR: a small kernel tree: the files KERNEL's line
# touches, as its Debian tree has them, and what makes a kernel tree (the
# Makefile, Kconfig and arch/).
mini_tree() {
	local src line f
	src=$(kernel_tree "$1") line=$(series_lib kernel_line "$1")
	mkdir -p "$2/arch"
	cp "$src/Makefile" "$src/Kconfig" "$2/"
	series_lib patch_paths "$TOP/patches/$line"/*.patch | while read -r f; do
		[ -f "$src/$f" ] || continue
		mkdir -p "$2/$(dirname "$f")" && cp -p "$src/$f" "$2/$f"
	done
}
# leftovers DIR: staging files and the journal, which no run may leave.
leftovers() { find "$1" -name '.*.ovl-*' -o -path "*/.overlay-applied/journal*" | head -n 5; }
export -f mini_tree leftovers
