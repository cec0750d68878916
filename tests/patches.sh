# shellcheck shell=bash
# Names of the series' patches, shared by the tests.
P1=0001-vdso-unaligned-packed-may-alias.patch
P2=0002-tools-headers-sync-unaligned.patch
P3=0003-x86-copy-user-align-destination.patch
P4=0004-arm64-clear-user-align-64.patch
P5=0005-loongarch-syscall-args-no-memcpy.patch
P6=0006-lib-unaligned-kunit.patch
export P1 P2 P3 P4 P5 P6

# post_image_ok TREE BASE: every file the BASE series touches has the
# post-image blob its patch names, or (for a patch that is not applied)
# nothing is checked for it.  Prints each file it checked.
post_images_ok() {
	local tree=$1 base=$2 p path post h
	for p in "$TOP/patches/$base"/*.patch; do
		while read -r path _ post; do
			h=$(git hash-object --no-filters "$tree/$path")
			echo "$path $h"
			[ "$h" = "$post" ] || fail "$path: blob $h, want the post-image $post"
		done < <(awk '/^diff --git / { path = $4; sub(/^b\//, "", path); want = 1; next }
			want && /^index / { split($2, h, /\.\./); print path, h[1], h[2]; want = 0 }' "$p")
	done
}

# accessor_block FILE: the lines from the comment before __get_unaligned_t()
# to the end of __put_unaligned_t(), the part every base must share.
accessor_block() {
	awk '/^\/\*$/ { buf = ""; keep = 1 } keep { buf = buf $0 "\n" }
		/^#define __get_unaligned_t/ { found = 1 }
		found && /^} while \(0\)$/ { printf "%s", buf; exit }' "$1"
}
