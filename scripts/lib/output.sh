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

# out_need_space DIR KB [INODES [LABEL]]: die (EX_FAIL, one line) unless
# the file system of DIR has KB kilobytes (and INODES inodes) free; the
# line starts with LABEL (default DIR).
out_need_space() {
	local dir=$1 kb=$2 inodes=${3:-0} label=${4:-$1} avail iavail
	read -r avail iavail < <(df -k --output=avail,iavail -- "$dir" 2>/dev/null | awk 'NR == 2 { print $1, $2 }')
	[ -n "${avail:-}" ] || return 0
	[ "$avail" -ge "$kb" ] ||
		die "$EX_FAIL" "$label: $((avail / 1024)) MB free, $((kb / 1024)) MB needed: nothing written"
	[ "$inodes" -eq 0 ] || [ "${iavail:-0}" = - ] || [ "$iavail" -ge "$inodes" ] ||
		die "$EX_FAIL" "$label: $iavail inodes free, $inodes needed: nothing written"
}

# out_file_arg OPTION FILE: before any work, FILE (the value of OPTION, a
# file the command will write with out_write) can be written: not a
# symlink (EX_REFUSED, as out_write), not a directory, in a directory
# that exists (EX_USAGE); one line each.
out_file_arg() {
	local opt=$1 file=$2 dir
	out_refuse_symlink "$file"
	[ ! -d "$file" ] || die "$EX_USAGE" "$opt $file: a directory"
	dir=$(dirname -- "$file")
	[ -d "$dir" ] || die "$EX_USAGE" "$opt $file: no directory $dir"
}

# --- scratch space and the tools a command runs -------------------------------

# out_tmp_dir VAR NAME [KB]: a fresh directory NAME.XXXXXX in TMPDIR (else
# /tmp) for the command's scratch work, its path in VAR; removed at exit.
# With KB, that much room is checked first.  One line (EX_FAIL, naming
# TMPDIR) when it cannot be made.
out_tmp_dir() {
	local _otd_base=${TMPDIR:-/tmp} _otd_dir
	[ -z "${3:-}" ] || out_need_space "$_otd_base" "$3" 0 "TMPDIR $_otd_base"
	_otd_dir=$(mktemp -d "$_otd_base/$2.XXXXXX" 2>/dev/null) ||
		die "$EX_FAIL" "TMPDIR $_otd_base: cannot create a directory there (missing, read-only or full?)"
	_out_pending+=("$_otd_dir")
	printf -v "$1" '%s' "$_otd_dir"
}

# out_space_gone DIR [TEXT]: the file system of DIR is full (under 1 MB or
# no inode free), or TEXT (a tool's messages) says a write found no room.
out_space_gone() {
	local avail iavail
	case ${2:-} in
	*"No space left on device"* | *"Out of diskspace"* | *"Disk quota exceeded"*) return 0 ;;
	esac
	read -r avail iavail < <(df -k --output=avail,iavail -- "$1" 2>/dev/null | awk 'NR == 2 { print $1, $2 }')
	[ -n "${avail:-}" ] || return 1
	[ "$avail" -lt 1024 ] || [ "$iavail" = 0 ]
}

# out_tool_failed NAME RC [TEXT]: die (EX_FAIL) with one line for the
# tool NAME that failed with exit code RC: when TMPDIR's file system has
# no room left, that is the line; else TEXT's last line (the tool's last
# message), and whether it was a full disk elsewhere.
out_tool_failed() {
	local name=$1 rc=$2 text=${3:-} base=${TMPDIR:-/tmp} last
	last=$(printf '%s\n' "$text" | awk 'NF { l = $0 } END { print l }')
	if out_space_gone "$base"; then
		die "$EX_FAIL" "$name: failed (exit $rc): no space left in TMPDIR ($base): make room there or set TMPDIR to another file system"
	fi
	case $text in
	*"No space left on device"* | *"Out of diskspace"* | *"Disk quota exceeded"*)
		die "$EX_FAIL" "$name: failed (exit $rc): no space left on a device${last:+ ($last)}" ;;
	esac
	die "$EX_FAIL" "$name: failed (exit $rc)${last:+: $last}"
}

# _out_tool_name CMD [ARG...]: how a message names the tool: CMD's base
# name, and for git its subcommand ("git clone").
_out_tool_name() {
	local n=${1##*/}
	shift
	case $n in
	git)
		while [ $# -gt 0 ]; do
			case $1 in
			-C | -c) shift ;;
			-*) ;;
			*) n+=" $1"; break ;;
			esac
			shift
		done ;;
	perl | python3 | bash | sh)
		while [ $# -gt 0 ]; do
			case $1 in -*) shift ;; *) n=$1; break ;; esac
		done ;;
	esac
	printf '%s' "$n"
}

# out_tool [-q] [-C DIR] CMD [ARG...]: run the tool CMD (in DIR), its
# stdout where the caller's goes, its messages (stderr) kept in memory
# (TMPDIR may be full); they are printed after it (with -q, only when it
# fails).  When it fails, its last message goes into out_tool_failed's
# one line, the last of the command.
out_tool() {
	local err rc=0 dir=. quiet=0
	if [ "$1" = -q ]; then quiet=1; shift; fi
	if [ "$1" = -C ]; then dir=$2; shift 2; fi
	{ err=$(cd -- "$dir" && "$@" 2>&1 >&3 3>&-); } 3>&1 || rc=$?
	if [ "$rc" -eq 0 ]; then
		[ -z "$err" ] || [ $quiet -eq 1 ] || printf '%s\n' "$err" >&2
		return 0
	fi
	# All but the last line (which the error line quotes).
	[ -z "$err" ] || printf '%s\n' "$err" | awk 'NF { if (n++) print l; l = $0 }' >&2
	out_tool_failed "$(_out_tool_name "$@")" "$rc" "$err"
}

# out_run [-q] [-C DIR] CMD [ARG...]: the command line printed (as run
# does), then out_tool.
out_run() {
	local q=()
	if [ "$1" = -q ]; then q=(-q); shift; fi
	if [ "$1" = -C ]; then
		printf '+ (cd %s && %s)\n' "$2" "${*:3}" >&2
	else
		printf '+ %s\n' "$*" >&2
	fi
	out_tool ${q[@]+"${q[@]}"} "$@"
}

# out_fail_line: from here on, a command whose failure ends the script
# (set -e) ends it with one line naming that command, exit EX_FAIL (and
# saying so when TMPDIR has no room left), so that a tool's raw message
# is never the last word.  Functions too (set -E); a failure in a
# subshell is named by the command of the script that ran it, unless it
# was a die, whose own line is the last one: a die in a subshell leaves
# its exit code in a pipe (no disk needed) that the trap reads.  Not
# while the script exits (die's line again).
out_fail_line() {
	exec {_out_said_fd}<> <(:)
	eval "$(declare -f die | sed '1s/^die /_out_die_said /')"
	# shellcheck disable=SC2317 # called by the script
	die() {
		[ "$BASHPID" = "$$" ] || printf '%s\n' "$1" >&"$_out_said_fd" || true
		_out_die_said "$@"
	}
	set -E
	trap '_out_err_trap $? "$BASH_COMMAND"' ERR
	# shellcheck disable=SC2016 # a flag, set when the exit starts
	at_exit '_out_exiting=1'
}
_out_err_trap() {
	local rc=$1 cmd=$2 said=0 c
	[ "$BASHPID" = "$$" ] && [ -z "${_out_exiting:-}" ] || return 0
	# The codes of the dies in subshells since the last look: one of
	# this code has said why.
	while read -r -t 0 -u "$_out_said_fd" 2>/dev/null && read -r -u "$_out_said_fd" c; do
		[ "$c" != "$rc" ] || said=1
	done
	[ $said -eq 0 ] || return 0
	_out_exiting=1
	cmd=${cmd//$'\n'/ }
	[ ${#cmd} -le 100 ] || cmd="${cmd:0:97}..."
	out_tool_failed "$cmd" "$rc"
}
