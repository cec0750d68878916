# shellcheck shell=bash
# One way to write an output, for every command (common.sh sources it).
#
# A file is written to a temporary file created exclusively beside it,
# checked, fsync'ed and renamed over the target: a reader sees the old
# file or the new one, never a part.  A set of files (a patch directory,
# an export, a report, a jobs directory, a copied tree) is built in a
# fresh sibling directory and swapped in when complete; the old one is
# removed only after the new one is in place.  Nothing is written through
# a symlink, and nothing is removed that this project did not make.

# The file a directory made by out_dir_begin carries, so that a later run
# knows it may replace the directory.
OUT_MARKER=.kernel-overlay-output

# Temporary files and directories to remove when the process exits before
# committing them (a failure, an interrupt).
_out_cleanup() {
	local p
	for p in "${_out_pending[@]}"; do
		[ -z "$p" ] || rm -rf -- "$p" 2>/dev/null || true
	done
}

# at_exit CODE: run CODE (a string, as for trap) when the script exits,
# after the CODE given before it; scripts use it instead of "trap ... EXIT",
# which would replace the removal of the pending temporary outputs.
at_exit() { _out_at_exit+=("$1"); }
_out_status() { return "$1"; }
_out_exit() {
	local rc=$? c
	# Each CODE sees the exit status in $?, as in a trap.
	for c in "${_out_at_exit[@]}"; do { _out_status $rc; eval "$c"; } || true; done
	_out_cleanup
	[ -z "${_out_prev_exit:-}" ] || { _out_status $rc; eval "$_out_prev_exit"; } || true
	return $rc
}
# Once per process: its own lists, and its EXIT trap.  A subshell that
# sources the library again (tests do, in "( . common.sh; ... )") starts
# with empty lists, so it never runs its parent's clean-up.  An EXIT trap
# set before in the same process (a test's own clean-up,
# tests/suite/test-lib.sh) still runs, after ours; in a subshell, trap -p
# shows the parent's traps, which are not this process's and are skipped.
if [ "${_out_pid:-}" != "$BASHPID" ]; then
	_out_pid=$BASHPID
	_out_pending=() _out_at_exit=() _out_prev_exit=''
	if [ "$BASHPID" = "$$" ]; then
		_out_prev_exit=$(trap -p EXIT)
		_out_prev_exit=${_out_prev_exit#trap -- }
		eval "_out_prev_exit=${_out_prev_exit% EXIT}"
		[ "$_out_prev_exit" != _out_exit ] || _out_prev_exit=''
	fi
	trap _out_exit EXIT
fi
_out_forget() {
	local i
	for i in "${!_out_pending[@]}"; do
		[ "${_out_pending[$i]}" != "$1" ] || unset '_out_pending[i]'
	done
}

# out_refuse_symlink PATH: die (EX_REFUSED) when PATH is a symlink: an
# output written through one lands wherever it points.
out_refuse_symlink() {
	[ ! -L "$1" ] || die "$EX_REFUSED" "$1: a symlink: refusing to write through it"
}

# out_write FILE CMD [ARG...]: run CMD with its stdout going to FILE, all
# or nothing.  CMD's exit code is returned when it fails, and FILE is then
# untouched; a failed write (a full disk, a read-only directory) dies with
# EX_FAIL and one line.
out_write() {
	local file=$1 dir tmp st rc wrc
	shift
	out_refuse_symlink "$file"
	dir=$(dirname -- "$file")
	[ -d "$dir" ] || die "$EX_FAIL" "$file: directory $dir does not exist"
	tmp=$(mktemp "$dir/.${file##*/}.tmp.XXXXXX" 2>/dev/null) ||
		die "$EX_FAIL" "$file: cannot create a file in $dir (read-only, or disk full?)"
	_out_pending+=("$tmp")
	# Through cat, so that a failed write is told from a failed command:
	# CMD then ends on SIGPIPE, and the one line below names the write.
	if "$@" | cat >"$tmp" 2>/dev/null; then st="0 0"; else st="${PIPESTATUS[*]}"; fi
	rc=${st% *} wrc=${st#* }
	if [ "$wrc" -ne 0 ]; then
		rm -f -- "$tmp"
		_out_forget "$tmp"
		die "$EX_FAIL" "$file: cannot write it (disk full or read-only?); the old one is kept"
	fi
	if [ "$rc" -ne 0 ]; then
		rm -f -- "$tmp"
		_out_forget "$tmp"
		return "$rc"
	fi
	out_commit_file "$tmp" "$file"
}

# out_commit_file TMP FILE: TMP (written beside FILE) fsync'ed and renamed
# over FILE; dies with one line if either fails, TMP removed.
out_commit_file() {
	local tmp=$1 file=$2
	if [ -f "$file" ] && [ ! -L "$file" ]; then
		chmod --reference="$file" -- "$tmp" 2>/dev/null || true
	else
		chmod "$(printf '%o' $((8#666 & ~8#$(umask))))" -- "$tmp" 2>/dev/null || true
	fi
	if ! sync -- "$tmp" 2>/dev/null || ! mv -fT -- "$tmp" "$file" 2>/dev/null; then
		rm -f -- "$tmp"
		_out_forget "$tmp"
		die "$EX_FAIL" "$file: cannot write it (disk full or read-only?); the old one is kept"
	fi
	_out_forget "$tmp"
}

# out_write_string FILE STRING: STRING and a newline, as out_write.
out_write_string() {
	# shellcheck disable=SC2317 # called through out_write
	_out_print() { printf '%s\n' "$1"; }
	out_write "$1" _out_print "$2"
}

# out_dir_begin DEST: a fresh, empty directory beside DEST (same file
# system, so that out_dir_commit can rename it), marked as this project's,
# in OUT_DIR (not printed: a $(...) subshell could not register it for
# removal).  It is removed at exit unless committed.
out_dir_begin() {
	local dest=$1 parent new
	out_refuse_symlink "$dest"
	parent=$(dirname -- "$dest")
	mkdir -p -- "$parent" 2>/dev/null || die "$EX_FAIL" "$parent: cannot create it"
	new=$(mktemp -d "$parent/.${dest##*/}.new.XXXXXX" 2>/dev/null) ||
		die "$EX_FAIL" "$dest: cannot create a directory in $parent (disk full or read-only?)"
	_out_pending+=("$new")
	# mktemp makes it 0700; the output gets the umask's mode, as mkdir's.
	chmod "$(printf '%o' $((8#777 & ~8#$(umask))))" -- "$new"
	: >"$new/$OUT_MARKER" 2>/dev/null || die "$EX_FAIL" "$new: cannot write (disk full?)"
	# shellcheck disable=SC2034 # the caller reads it
	OUT_DIR=$new
}

# out_dir_replaceable DEST: DEST does not exist, is an empty directory, or
# is one this project made (it carries OUT_MARKER).
out_dir_replaceable() {
	[ ! -e "$1" ] && [ ! -L "$1" ] && return 0
	[ -d "$1" ] && [ ! -L "$1" ] || return 1
	[ -e "$1/$OUT_MARKER" ] && return 0
	[ -z "$(ls -A -- "$1")" ]
}

# out_dir_commit NEW DEST [own]: NEW (from out_dir_begin, complete) takes
# DEST's place; the old DEST, if any, is removed afterwards.  Dies
# (EX_REFUSED) when DEST is something this project did not make.  "own":
# DEST is one of the project's own directories (patches/LINE), which is
# replaced whatever it holds and carries no marker.
out_dir_commit() {
	local new=$1 dest=$2 own=${3:-} old=
	if [ "$own" = own ]; then
		rm -f -- "$new/$OUT_MARKER"
	else
		out_dir_replaceable "$dest" ||
			die "$EX_REFUSED" "$dest: exists and was not made by this project (no $OUT_MARKER): not replacing it"
	fi
	sync -f -- "$new" 2>/dev/null || true
	if [ -e "$dest" ]; then
		old=$(mktemp -u "$(dirname -- "$dest")/.${dest##*/}.old.XXXXXX")
		mv -T -- "$dest" "$old" || die "$EX_FAIL" "$dest: cannot move it aside"
		_out_pending+=("$old")
	fi
	if ! mv -T -- "$new" "$dest"; then
		[ -z "$old" ] || mv -T -- "$old" "$dest" 2>/dev/null || true
		die "$EX_FAIL" "$dest: cannot put the new one in place; the old one is kept"
	fi
	_out_forget "$new"
	[ -n "$old" ] || return 0
	if [ "$own" = own ] || [ -e "$old/$OUT_MARKER" ]; then
		rm -rf -- "$old"
	else
		rmdir -- "$old"	# out_dir_replaceable: empty
	fi
	_out_forget "$old"
}

# safe_rm_rf PATH [SOURCE...]: rm -rf PATH, refused (EX_REFUSED, one line)
# when PATH is /, the project or one of its parents, a SOURCE or one of
# SOURCE's parents, or a directory this project did not make (no
# OUT_MARKER).  A path that does not exist is fine.
safe_rm_rf() {
	local p=$1 rp s rs
	shift
	[ -e "$p" ] || [ -L "$p" ] || return 0
	if [ -L "$p" ] || [ ! -d "$p" ]; then
		rm -f -- "$p" || die "$EX_FAIL" "$p: cannot remove it"
		return 0
	fi
	rp=$(realpath -- "$p")
	[ "$rp" != / ] || die "$EX_REFUSED" "$p: is /: not removing it"
	for s in "$TOP" "$@"; do
		rs=$(realpath -m -- "$s")
		case $rs/ in
		"$rp"/*) die "$EX_REFUSED" "$p: holds $s: not removing it" ;;
		esac
	done
	[ -e "$rp/$OUT_MARKER" ] ||
		die "$EX_REFUSED" "$p: not made by this project (no $OUT_MARKER): not removing it"
	rm -rf -- "$rp" || die "$EX_FAIL" "$p: cannot remove it"
}

# out_need_space DIR KB [INODES]: die (EX_FAIL, one line) unless the file
# system of DIR has KB kilobytes (and INODES inodes) free.
out_need_space() {
	local dir=$1 kb=$2 inodes=${3:-0} avail iavail
	read -r avail iavail < <(df -k --output=avail,iavail -- "$dir" 2>/dev/null | awk 'NR == 2 { print $1, $2 }')
	[ -n "${avail:-}" ] || return 0
	[ "$avail" -ge "$kb" ] ||
		die "$EX_FAIL" "$dir: $((avail / 1024)) MB free, $((kb / 1024)) MB needed: nothing written"
	[ "$inodes" -eq 0 ] || [ "${iavail:-0}" = - ] || [ "$iavail" -ge "$inodes" ] ||
		die "$EX_FAIL" "$dir: $iavail inodes free, $inodes needed: nothing written"
}
