# shellcheck shell=bash disable=SC2034
# Shared by every script: logging, errors, progress, locking, small checks.
# Source it; it is not a program.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PROG=${PROG:-$(basename "$0")}
BUILD=${BUILD:-$TOP/build}
_lib_t0=$(date +%s)

# Exit codes shared by the scripts (each --help repeats the ones it uses).
EX_OK=0
EX_FAIL=1	# the job ran and found a problem (e.g. a patch conflicts)
EX_USAGE=2	# bad arguments or bad input files
EX_REFUSED=3	# the tree cannot be changed safely (read-only, symlink, escape)
EX_LOCKED=4	# another run holds the lock on the same tree

# checkpatch message types ignored, each for a reason (README, tests/t0050),
# by scripts/check and scripts/export: UNKNOWN_COMMIT_ID: the Debian trees
# have no git history to find the 7.0 commit a339671db64b in;
# FILE_PATH_CHANGES: every new file asks whether MAINTAINERS needs
# updating, and the KUnit test needs no section.
CHECKPATCH_IGNORE=UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES

log() { printf '%s: %s\n' "$PROG" "$*" >&2; }
warn() { printf '%s: warning: %s\n' "$PROG" "$*" >&2; }

# die CODE MESSAGE: one line on stderr, then exit with CODE.
die() {
	local code=$1
	shift
	printf '%s: error: %s\n' "$PROG" "$*" >&2
	exit "$code"
}

elapsed() { echo $(($(date +%s) - _lib_t0)); }

# stage NAME [TARGET]: progress line for a long step.
stage() {
	printf '[%4ss] %s: %s%s\n' "$(elapsed)" "$PROG" "$1" "${2:+ ($2)}" >&2
}

# run CMD...: print the exact command, then run it.
run() {
	printf '+ %s\n' "$*" >&2
	"$@"
}

# lock_path DIR: the lock file for DIR, outside DIR so that taking the
# lock never touches the tree.  Keyed by device and inode, so any path
# to the same tree finds the same lock.
lock_path() {
	local id
	id=$(stat -L -c '%d-%i' "$1") || return 1
	printf '%s/kernel-overlay-locks/%s.lock\n' "${TMPDIR:-/tmp}" "$id"
}

# lock_tree DIR: take the lock for DIR for the life of this process, or
# fail at once with EX_LOCKED.
lock_tree() {
	local path
	path=$(lock_path "$1") || die "$EX_USAGE" "$1: cannot stat"
	mkdir -p "$(dirname "$path")"
	exec {_lib_lock_fd}>>"$path" || die "$EX_USAGE" "$path: cannot open lock file"
	flock -n "$_lib_lock_fd" ||
		die "$EX_LOCKED" "$1: another run holds the lock ($path)"
}

# is_kernel_tree DIR: a top-level Makefile with VERSION and PATCHLEVEL,
# and the Kconfig and arch/ that every kernel tree has.
is_kernel_tree() {
	[ -f "$1/Makefile" ] && [ -f "$1/Kconfig" ] && [ -d "$1/arch" ] &&
		grep -q '^VERSION = [0-9]' "$1/Makefile" &&
		grep -q '^PATCHLEVEL = [0-9]' "$1/Makefile"
}

# kernel_version DIR: VERSION.PATCHLEVEL.SUBLEVEL from the Makefile.
kernel_version() {
	awk -F' = ' '$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
		$1 == "SUBLEVEL" { s = $2 } END { print v "." p "." s }' "$1/Makefile"
}

# owner_writable PATH: writable by us and not marked read-only.  root
# passes access(2) checks whatever the mode, so the write bit is checked
# too: a tree someone made read-only stays untouched, even for root.
owner_writable() {
	local mode
	[ -w "$1" ] || return 1
	mode=$(stat -c '%a' "$1") || return 1
	[ $((8#$mode & 8#200)) -ne 0 ]
}

# need_cmd CMD...: fail with a clear message if a command is missing.
need_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 ||
			die "$EX_USAGE" "$c not found: run 'make deps' first"
	done
}

# --- the series and its patches ---------------------------------------------

# base_of_version VERSION: the base of configs/bases whose
# VERSION.PATCHLEVEL globs match VERSION (6.12.117 -> 6.12), or nothing.
base_of_version() {
	awk -v v="$(echo "$1" | cut -d. -f1,2)" '!/^#/ && NF { n = split($2, g, ","); for (i = 1; i <= n; i++) {
		re = "^" g[i] "$"; gsub(/\./, "\\.", re); gsub(/\*/, ".*", re)
		if (v ~ re) { print $1; exit } } }' "$TOP/configs/bases"
}

# series_patches SERIES: the patches a series file applies, in order.
series_patches() { awk '!/^#/ && NF { print $1 }' "$1"; }

# touched_files PATCH...: the paths the patches change (b/ side), sorted.
touched_files() { awk '/^diff --git / { p = $4; sub(/^b\//, "", p); print p }' "$@" | sort -u; }

# metadata_block PATCH: the lines below the first "---" up to the first
# empty line: Upstream-Status and the Preimage lines.
metadata_block() { awk '/^---$/ { on = 1; next } on && !NF { exit } on' "$1"; }

# index_preimages PATCH: "Preimage: PATH HASH" for each file, as the
# patch's index lines give them.
index_preimages() {
	awk '/^diff --git / { p = $4; sub(/^b\//, "", p) }
		/^index / { split($2, h, /\.\./); print "Preimage: " p " " h[1] }' "$1"
}
