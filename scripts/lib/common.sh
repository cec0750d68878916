# shellcheck shell=bash disable=SC2034
# Shared by every script: logging, errors, progress, locking, small checks.
# Source it; it is not a program.

# dir_path_to VAR DIR [-P]: DIR's absolute path (with -P, without
# symlinks, as pwd -P), with no subshell: cd there and back (CDPATH not
# consulted).
dir_path_to() {
	local _dp_back=$PWD _dp_dir=$2
	case $_dp_dir in /*) ;; *) _dp_dir=./$_dp_dir ;; esac
	# shellcheck disable=SC2086 # an option or nothing
	cd ${3:-} -- "$_dp_dir" || return 1
	printf -v "$1" '%s' "$PWD"
	cd -- "$_dp_back" || return 1
}
_lib_dir=${BASH_SOURCE[0]%/*}
[ "$_lib_dir" != "${BASH_SOURCE[0]}" ] || _lib_dir=.
dir_path_to TOP "$_lib_dir/../.."
# The scripts parse what GNU patch, git, make, the compilers and QEMU print:
# their English messages, whatever the user's locale.
export LC_ALL=C
PROG=${PROG:-${0##*/}}
BUILD=${BUILD:-$TOP/build}
_lib_t0=$EPOCHSECONDS

# Exit codes shared by the scripts (each --help repeats the ones it uses).
EX_OK=0
EX_FAIL=1	# the job ran and found a problem (e.g. a patch conflicts)
EX_USAGE=2	# bad arguments or bad input files
EX_REFUSED=3	# the tree cannot be changed safely (read-only, symlink, escape)
EX_LOCKED=4	# another run holds the lock on the same tree

# checkpatch message types ignored, each for a reason (checkpatch_why;
# README, tests/suite/t0050).  On the mails scripts/export writes
# (CHECKPATCH_IGNORE_MAIL), which prints every finding it hides with its
# reason:
#   UNKNOWN_COMMIT_ID: a tree without the history of the Fixes: tags'
#   commits (a339671db64b, fe59e0358d9b) cannot look them up;
#   FILE_PATH_CHANGES: every new file asks whether MAINTAINERS needs
#   updating; the stable lines' KUnit test is a vendor carry (mainline's
#   0006 adds its MAINTAINERS entry).
# On the stored patches (CHECKPATCH_IGNORE: scripts/check, t0050) also
#   MISSING_SIGN_OFF: a patch this project wrote carries no Signed-off-by;
#   the submitter's is added by scripts/export (the Developer's
#   Certificate of Origin is theirs to give).
CHECKPATCH_IGNORE_MAIL=UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES
CHECKPATCH_IGNORE=$CHECKPATCH_IGNORE_MAIL,MISSING_SIGN_OFF
# A stable backport (Kind: stable backport) is the upstream commit
# verbatim, with its "commit <id> upstream." line: the findings about its
# message are upstream's, not fixed (CHECKPATCH_STABLE_MESSAGE, printed
# by scripts/export with why).
CHECKPATCH_STABLE_MESSAGE=GIT_COMMIT_ID,COMMIT_LOG_LONG_LINE,BAD_REPORTED_BY_LINK

# checkpatch_why TYPE: why TYPE is ignored (one line), or nothing.
checkpatch_why() {
	case $1 in
	UNKNOWN_COMMIT_ID) echo "the tree has no history to look the Fixes: commit up in" ;;
	FILE_PATH_CHANGES) echo "a new file asks whether MAINTAINERS needs updating; on a stable line the KUnit test is a vendor carry no section owns (mainline's 0006 adds it to GENERIC VDSO LIBRARY)" ;;
	MISSING_SIGN_OFF) echo "a stored patch this project wrote has no Signed-off-by; export adds the submitter's" ;;
	GIT_COMMIT_ID | COMMIT_LOG_LONG_LINE | BAD_REPORTED_BY_LINK) echo "in a stable backport: upstream's message, kept verbatim" ;;
	esac
}

log() { printf '%s: %s\n' "$PROG" "$*" >&2; }
warn() { printf '%s: warning: %s\n' "$PROG" "$*" >&2; }

# die CODE MESSAGE: one line on stderr, then exit with CODE.
die() {
	local code=$1
	shift
	printf '%s: error: %s\n' "$PROG" "$*" >&2
	exit "$code"
}

# --- options -------------------------------------------------------------------
#
# opt_parse SPEC ARG...: a command's option loop.  SPEC is its table of
# options, in one place, a pair of words each (one pair a line reads best):
#
#	--name		VAR		a flag: VAR=1
#	--name		VAR=VALUE	a flag: VAR=VALUE
#	--name		FUNC()		a flag: FUNC is called
#	--name=		VAR		takes a value: VAR=value
#	--name=		VAR+		takes a value, appended to the array VAR
#	--name=		FUNC()		takes a value: FUNC value is called
#
# The variables are the command's own, set to their defaults before the
# call.  A value follows its option as the next argument or after "="
# (--name=VALUE).  The next argument may be empty or start with "-" (as
# boot's --append "-- --workload=..."), but it is no value when it is
# missing or names an option of SPEC, -h or --help (in "--json --markdown
# FILE" the value was forgotten): both are "--json needs a value".
# -h and --help print the command's usage (its function usage) and exit
# 0; "--" ends the options; any other argument that starts with "-" but
# is no option of SPEC is "unknown option ARG (see --help)" ("-" alone is
# an argument), and --flag=VALUE is "--flag takes no value".  Each error
# is one line, EX_USAGE.  Options and arguments come in any order; the
# arguments, in order, are left in the array OPT_ARGS, for the command to
# check how many it takes.
opt_parse() {
	local IFS=$' \t\n' _op_i _op_name _op_to _op_val
	local -a _op_spec=()
	local -A _op_value=() _op_flag=([-h]='_opt_help()' [--help]='_opt_help()')
	read -r -d '' -a _op_spec <<<"$1" || true
	shift
	for ((_op_i = 0; _op_i < ${#_op_spec[@]}; _op_i += 2)); do
		_op_name=${_op_spec[_op_i]}
		case $_op_name in
		*=) _op_value[${_op_name%=}]=${_op_spec[_op_i + 1]} ;;
		*) _op_flag[$_op_name]=${_op_spec[_op_i + 1]} ;;
		esac
	done
	OPT_ARGS=()
	while [ $# -gt 0 ]; do
		case $1 in
		--) shift; OPT_ARGS+=("$@"); return 0 ;;
		-?*) ;;
		*) OPT_ARGS+=("$1"); shift; continue ;;
		esac
		_op_name=${1%%=*}
		if [ -n "${_op_flag[$1]+set}" ]; then
			_op_to=${_op_flag[$1]}
			case $_op_to in
			*'()') "${_op_to%'()'}" ;;
			*=*) printf -v "${_op_to%%=*}" '%s' "${_op_to#*=}" ;;
			*) printf -v "$_op_to" 1 ;;
			esac
		elif [ -n "${_op_value[$_op_name]+set}" ]; then
			_op_val=${1#*=}
			if [ "$_op_name" = "$1" ]; then
				[ $# -ge 2 ] || die "$EX_USAGE" "$1 needs a value"
				case $2 in
				-?*) [ -z "${_op_value[${2%%=*}]+set}${_op_flag[${2%%=*}]+set}" ] ||
					die "$EX_USAGE" "$1 needs a value" ;;
				esac
				_op_val=$2
				shift
			fi
			_opt_set "${_op_value[$_op_name]}" "$_op_val"
		elif [ -n "${_op_flag[$_op_name]+set}" ]; then
			die "$EX_USAGE" "$_op_name takes no value"
		else
			die "$EX_USAGE" "unknown option $1 (see --help)"
		fi
		shift
	done
}

# opt_arg VAR WHAT: VAR, the one argument opt_parse left (empty when
# there is none); a second one is "more than one WHAT given: A, B".
opt_arg() {
	[ ${#OPT_ARGS[@]} -le 1 ] ||
		die "$EX_USAGE" "more than one $2 given: ${OPT_ARGS[0]}, ${OPT_ARGS[1]}"
	printf -v "$1" '%s' "${OPT_ARGS[0]:-}"
}

# opt_no_args: for a command that takes options only, opt_parse left no
# argument ("unknown argument A (see --help)").
opt_no_args() {
	[ ${#OPT_ARGS[@]} -eq 0 ] || die "$EX_USAGE" "unknown argument ${OPT_ARGS[0]} (see --help)"
}

# _opt_set TO VALUE: an option's value to its VAR, VAR+ or FUNC() (opt_parse).
_opt_set() {
	case $1 in
	*'()') "${1%'()'}" "$2" ;;
	*+)
		local -n _os_array=${1%+}
		_os_array+=("$2") ;;
	*) printf -v "$1" '%s' "$2" ;;
	esac
}

# _opt_help: -h and --help, in every option table (opt_parse).
_opt_help() {
	usage
	exit "$EX_OK"
}

elapsed() { echo $((EPOCHSECONDS - _lib_t0)); }

# progress NAME [TARGET]: the progress line of a long step, on stderr
# ("[  12s] PROG: NAME (TARGET)").  A step, not a stage: a stage is a unit
# of the pipeline with a record in build/report/stages/ (docs/results.md).
progress() {
	printf '[%4ss] %s: %s%s\n' "$(elapsed)" "$PROG" "$1" "${2:+ ($2)}" >&2
}

# progress_ticker DIR NAME [TARGET]: in the background, a progress line every
# $PROGRESS_EVERY seconds (default 60) with the objects DIR holds so far,
# for a build too long to wait on in silence.  Prints its PID; the caller
# kills it when the build ends (at_exit, for a build that fails), and it
# ends by itself once the script is gone.
progress_ticker() {
	local dir=$1 name=$2 target=${3:-}
	(
		# The sleep holds no stream of the script's (a reader of its
		# stderr would wait for it) and goes with the ticker.
		trap 'kill $nap 2>/dev/null; exit 0' TERM
		trap - EXIT
		while :; do
			sleep "${PROGRESS_EVERY:-60}" >/dev/null 2>&1 &
			nap=$!
			wait $nap
			kill -0 $$ 2>/dev/null || exit 0
			progress "$name: $(find "$dir" -name '*.o' 2>/dev/null | wc -l) objects so far" "$target"
		done
	) >/dev/null &
	echo $!
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

# git_ready_to_commit DIR WHAT [PATHSPEC...]: die (EX_USAGE, one line
# naming WHAT) unless DIR is in a git work tree with no am, rebase, merge,
# cherry-pick, revert or bisect in progress and nothing uncommitted (under
# PATHSPEC): what a command that commits there needs.
git_ready_to_commit() {
	local dir=$1 what=$2
	shift 2
	git -C "$dir" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
		die "$EX_USAGE" "$what: not in a git work tree"
	git_refuse_busy "$dir"
	# --no-optional-locks: a refused run writes nothing, not even the
	# index's refreshed stat data.
	[ -z "$(git --no-optional-locks -C "$dir" status --porcelain -- "$@")" ] ||
		die "$EX_USAGE" "$what: the git work tree is dirty: commit or stash first"
}

# _makefile_version DIR: MK_VERSION, MK_PATCHLEVEL, MK_SUBLEVEL from the
# top of DIR/Makefile (the first assignments; bash alone: asked often).
_makefile_version() {
	local k eq v n=0
	MK_VERSION='' MK_PATCHLEVEL='' MK_SUBLEVEL=''
	[ -f "$1/Makefile" ] && [ -r "$1/Makefile" ] || return 0
	while read -r k eq v && [ $((n += 1)) -le 40 ]; do
		[ "$eq" = = ] || continue
		case $k in
		VERSION) [ -n "$MK_VERSION" ] || MK_VERSION=$v ;;
		PATCHLEVEL) [ -n "$MK_PATCHLEVEL" ] || MK_PATCHLEVEL=$v ;;
		SUBLEVEL) [ -n "$MK_SUBLEVEL" ] || MK_SUBLEVEL=$v; break ;;
		esac
	done <"$1/Makefile"
}

# is_kernel_tree DIR: a top-level Makefile with VERSION and PATCHLEVEL,
# and the Kconfig and arch/ that every kernel tree has.
is_kernel_tree() {
	[ -f "$1/Makefile" ] && [ -f "$1/Kconfig" ] && [ -d "$1/arch" ] || return 1
	_makefile_version "$1"
	[[ $MK_VERSION =~ ^[0-9] && $MK_PATCHLEVEL =~ ^[0-9] ]]
}

# kernel_version DIR: VERSION.PATCHLEVEL.SUBLEVEL from the Makefile.
kernel_version() {
	_makefile_version "$1"
	printf '%s.%s.%s\n' "$MK_VERSION" "$MK_PATCHLEVEL" "$MK_SUBLEVEL"
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

# stat_paths PATH...: STAT_MODE[PATH] (octal) and STAT_OWNER[PATH]
# (uid:gid) of each PATH not read yet in this process, by one stat.
declare -gA STAT_MODE=() STAT_OWNER=()
stat_paths() {
	local p m o todo=()
	for p in "$@"; do [ -n "${STAT_MODE[$p]+set}" ] || todo+=("$p"); done
	[ ${#todo[@]} -gt 0 ] || return 0
	while read -r m o p; do
		STAT_MODE[$p]=$m STAT_OWNER[$p]=$o
	done < <(stat -c '%a %u:%g %n' -- "${todo[@]}" 2>/dev/null)
}

# owner_unwritable PATH...: UNWRITABLE, the first PATH that is not
# owner_writable, or nothing (and status 1); the modes read by one stat
# for all (stat_paths: the owners are at hand afterwards).
owner_unwritable() {
	local p
	UNWRITABLE=''
	for p in "$@"; do [ -w "$p" ] || { UNWRITABLE=$p; return 0; }; done
	stat_paths "$@"
	for p in "$@"; do
		[ $((8#${STAT_MODE[$p]:-0} & 8#200)) -ne 0 ] || { UNWRITABLE=$p; return 0; }
	done
	return 1
}

# empty_dir DIR: DIR is a directory (not a symlink) with nothing in it,
# told by bash alone.
empty_dir() {
	local f
	[ -d "$1" ] && [ ! -L "$1" ] || return 1
	for f in "$1"/* "$1"/.[!.]* "$1"/..?*; do [ -e "$f" ] || [ -L "$f" ] && return 1; done
	return 0
}

# need_cmd CMD...: fail with a clear message if a command is missing.
need_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 ||
			die "$EX_USAGE" "$c not found: run 'make deps' first"
	done
}

# ccache_use: the compilers behind ccache use build/ccache ($CCACHE_DIR)
# in depend mode: a miss compiles once and hashes the headers the
# compiler's own dependency file names (kbuild's -Wp,-MMD), where the
# default mode runs the preprocessor first to hash its output.  Hits are
# as before; a cold tinyconfig arm64 7.3 build took 477 s of CPU instead
# of 668 (2-core VM, 2026-12-05).  A command line without -MD/-MMD falls
# back to the preprocessor mode.  The inode cache keeps a header's hash by
# its device, inode and times, so the hundreds of headers each object
# includes are read and hashed once a build, not once an object: a cold
# armv5 build, 343 s of CPU without it, 317 with it (same VM and day).
ccache_use() {
	export CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache} CCACHE_DEPEND=true CCACHE_INODECACHE=true
}

# lib_use NAME...: source scripts/lib/NAME.sh, each of them.  Sourced in
# a function, a library declares its globals with declare -g.
lib_use() {
	local _lu
	for _lu; do
		# shellcheck source=/dev/null # each library is checked on its own
		. "$TOP/scripts/lib/$_lu.sh" || die "$EX_USAGE" "scripts/lib/$_lu.sh cannot be read"
	done
}

# shellcheck source=scripts/lib/output.sh
. "$TOP/scripts/lib/output.sh"
