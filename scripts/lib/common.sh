# shellcheck shell=bash disable=SC2034
# Shared by every script: logging, errors, progress, locking, small checks.
# Source it; it is not a program.

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# The scripts parse what GNU patch, git, make, the compilers and QEMU print:
# their English messages, whatever the user's locale.
export LC_ALL=C
PROG=${PROG:-$(basename "$0")}
BUILD=${BUILD:-$TOP/build}
_lib_t0=$(date +%s)

# Exit codes shared by the scripts (each --help repeats the ones it uses).
EX_OK=0
EX_FAIL=1	# the job ran and found a problem (e.g. a patch conflicts)
EX_USAGE=2	# bad arguments or bad input files
EX_REFUSED=3	# the tree cannot be changed safely (read-only, symlink, escape)
EX_LOCKED=4	# another run holds the lock on the same tree

# checkpatch message types ignored, each for a reason (README, tests/suite/t0050),
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

# need_value OPTION ARGC [VALUE]: in an option loop, OPTION ($1) must be
# followed by a value ($2) that is not itself an option.
need_value() {
	if [ "$2" -lt 2 ] || [ -z "${3:-}" ] || [ "${3#-}" != "$3" ]; then
		die "$EX_USAGE" "$1 needs a value"
	fi
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

# lock_tree DIR: take the lock of the tree DIR for the life of this process,
# or fail at once with EX_LOCKED: a flock on DIR itself, opened for
# reading, so that taking it writes nothing anywhere and every run on the
# tree finds the same lock, whatever its TMPDIR.
lock_tree() {
	exec {_lib_lock_fd}<"$1" || die "$EX_USAGE" "$1: cannot open to lock it"
	flock -n "$_lib_lock_fd" ||
		die "$EX_LOCKED" "$1: another run holds the lock on this tree"
}

# git_refuse_busy DIR: die (EX_USAGE, one line) when the git work tree DIR
# is in the middle of an am, rebase, merge, cherry-pick, revert or bisect:
# a command that commits would commit into it.
git_refuse_busy() {
	local what p
	for what in rebase-merge:rebase rebase-apply:"am or rebase" MERGE_HEAD:merge \
		CHERRY_PICK_HEAD:cherry-pick REVERT_HEAD:revert BISECT_LOG:bisect; do
		p=$(git -C "$1" rev-parse --git-path "${what%%:*}") || return 0
		case $p in /*) ;; *) p=$1/$p ;; esac
		[ ! -e "$p" ] || die "$EX_USAGE" "$1: a git ${what#*:} is in progress: finish or abort it first"
	done
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

# owner_unwritable PATH...: the first PATH that is not owner_writable, or
# nothing; the modes read by one stat for all.
owner_unwritable() {
	local p m
	for p in "$@"; do [ -w "$p" ] || { echo "$p"; return 0; }; done
	while read -r m p; do
		[ $((8#$m & 8#200)) -ne 0 ] || { echo "$p"; return 0; }
	done < <(stat -c '%a %n' -- "$@")
}

# need_cmd CMD...: fail with a clear message if a command is missing.
need_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 ||
			die "$EX_USAGE" "$c not found: run 'make deps' first"
	done
}

# shellcheck source=scripts/lib/output.sh
. "$TOP/scripts/lib/output.sh"
