# shellcheck shell=bash
# Crash-consistent writes of a kernel tree, for scripts/apply: a journal in
# the tree's record directory, as dpkg keeps .dpkg-new files and
# half-installed states and SQLite a rollback journal.  Before the first
# write, an intent (every file to be replaced, created or removed, with its
# blob) is written and fsynced, and each original is kept as a hard link
# (journal/orig/PATH), so a rollback needs no space.  The new contents are
# staged in journal/new/PATH, on the tree's file system, and each file is
# replaced by a link to its staged copy, renamed over it.  When the last
# write is done, a "done" mark is written, then the journal removed.  The
# next run finds an unfinished journal and rolls it back (or, marked done,
# finishes the clean-up) before it does anything else.  Processes are
# counted: one cp keeps every original, one stages every new file, one
# puts them all in place (a link and a rename per file), one sync per
# phase.  Source it after common.sh and series.sh.

# The journal (series.sh names it: RECORD_DIR/journal/) holds intent,
# orig/, new/ and done.
# shellcheck disable=SC2034 # read by scripts/apply, which loads this once
JOURNAL_LIB=1

# journal_state TREE: none, unfinished (roll back), done (clean up) or
# partial (no intent, or one cut short before its "end" line: nothing was
# written yet).
journal_state() {
	local _js=''
	journal_state_to _js "$1"
	echo "$_js"
}
# journal_state_to VAR TREE: the same into VAR, with no subshell.
journal_state_to() {
	local j=$2/$JOURNAL
	if [ ! -e "$j" ] && [ ! -L "$j" ]; then printf -v "$1" none
	elif [ -e "$j/done" ]; then printf -v "$1" 'done'
	elif _intent_complete "$j/intent"; then printf -v "$1" unfinished
	else printf -v "$1" partial
	fi
}

# _intent_complete FILE: FILE is an intent written to its "end" line.
_intent_complete() {
	local line last=''
	[ -f "$1" ] || return 1
	while IFS= read -r line; do last=$line; done <"$1"
	[ "$last" = end ]
}

# _fault NAME: a test hook (as git's GIT_TEST_* variables): with
# OVERLAY_TEST_FAULT=N:SIGNAL the N-th fault point of this run sends
# SIGNAL to this process.  OVERLAY_TEST_FAULT_LOG gets every point's name.
_journal_faults=0
_fault() {
	[ -n "${OVERLAY_TEST_FAULT:-}${OVERLAY_TEST_FAULT_LOG:-}" ] || return 0
	_journal_faults=$((_journal_faults + 1))
	[ -z "${OVERLAY_TEST_FAULT_LOG:-}" ] || echo "$_journal_faults $1" >>"$OVERLAY_TEST_FAULT_LOG"
	if [ -n "${OVERLAY_TEST_FAULT:-}" ] && [ "${OVERLAY_TEST_FAULT%%:*}" = "$_journal_faults" ]; then
		kill "-${OVERLAY_TEST_FAULT#*:}" $$
		# SIGINT and the like run the trap; give it the time to.
		sleep 1
	fi
}

# _sync PATH...: fsync each (a file or a directory), so the order of the
# writes survives a power loss.
_sync() { sync -- "$@" 2>/dev/null || sync; }

# _owned_like PATH REF: PATH takes REF's owner and group (what the tool
# makes in a user's tree is the user's); only root can, only root needs to.
_owned_like() { [ "$EUID" -ne 0 ] || chown --reference="$2" -- "$1" 2>/dev/null || true; }

# _dir PATH: dirname without a process; _dirto VAR PATH sets VAR to it
# without a subshell either.
_dir() { case $1 in */*) printf '%s\n' "${1%/*}" ;; *) echo . ;; esac; }
_dirto() { case $2 in */*) printf -v "$1" '%s' "${2%/*}" ;; *) printf -v "$1" . ;; esac; }

# journal_space TREE STAGE PATH...: fail (EX_REFUSED, one line) unless the
# file system of TREE has room for the new files of the PATHs (their
# content in STAGE), the journal and its directories: the originals are
# hard links.
journal_space() {
	local tree=$1 stage=$2 bytes=65536 inodes=16 p d avail bsize ifree itotal sizes=() files=()
	shift 2
	for p in "$@"; do
		[ ! -f "$stage/$p" ] || files+=("$stage/$p")
		# The file, and a directory per level in journal/orig and journal/new.
		d=${p//[!\/]/}
		inodes=$((inodes + 1 + 2 * ${#d}))
	done
	[ ${#files[@]} -eq 0 ] || mapfile -t sizes < <(stat -c %s -- "${files[@]}")
	for p in ${sizes[@]+"${sizes[@]}"}; do bytes=$((bytes + p + 4096)); done
	read -r avail bsize ifree itotal < <(stat -f -c '%a %S %d %c' -- "$tree" 2>/dev/null) || return 0
	if [[ $avail =~ ^[0-9]+$ && $bsize =~ ^[0-9]+$ ]] && [ $((avail * bsize)) -lt "$bytes" ]; then
		die "$EX_REFUSED" "$tree: $((avail * bsize)) bytes free, the run needs $bytes: nothing was changed"
	fi
	# A file system that counts no inodes (btrfs: 0 in all) has no such limit.
	if [[ $ifree =~ ^[0-9]+$ ]] && [ "${itotal:-0}" != 0 ] && [ "$ifree" -lt "$inodes" ]; then
		[ "$ifree" -gt 0 ] || die "$EX_REFUSED" "$tree: no inode free: nothing was changed"
		die "$EX_REFUSED" "$tree: $ifree inodes free, the run needs $inodes: nothing was changed"
	fi
}

# journal_write TREE STAGE TXID PATH...: make TREE's PATHs what STAGE has
# (a PATH absent from STAGE is removed; a directory it needs is made, one
# it empties removed), crash-consistently.  The caller holds the tree's
# lock, has checked that no path is a symlink and that there is room;
# TREE_BLOB (series.sh) and STAT_OWNER (common.sh) may hold the tree's
# blobs and owners already.  The intent ends with an "end" line: one
# without it was cut short, before anything of the tree was written.
journal_write() {
	local tree=$1 stage=$2 txid=$3 j p n d op rec=existed line
	local olds=() news=() gones=() dirs=() order=() syncs=() owners=() up=()
	local -A seen=() owner=()
	shift 3
	j=$tree/$JOURNAL
	{ [ ! -e "$j" ] && [ ! -L "$j" ]; } || return 1
	# The record directory (when this run makes it) and the journal's, by
	# one mkdir, outermost first.
	local mk=()
	if [ ! -d "$tree/$RECORD_DIR" ]; then
		mk=("$tree/$RECORD_DIR")
		rec=made
	fi
	mkdir -- ${mk[@]+"${mk[@]}"} "$j" "$j/orig" "$j/new" || return 1
	_fault "record directory"
	for p in "$@"; do
		if [ -f "$tree/$p" ]; then
			olds+=("$p")
			if [ -f "$stage/$p" ]; then news+=("$p"); else gones+=("$p"); fi
		elif [ -f "$stage/$p" ]; then
			news+=("$p")
			# The directories it needs, outermost first, once each.
			up=()
			_dirto d "$p"
			while [ "$d" != . ] && [ ! -d "$tree/$d" ]; do up=("$d" ${up[@]+"${up[@]}"}); _dirto d "$d"; done
			for d in ${up[@]+"${up[@]}"}; do
				[ -z "${seen[$d]:-}" ] || continue
				seen[$d]=1
				dirs+=("$d")
			done
		fi
	done
	[ ${#olds[@]} -eq 0 ] || tree_blobs "$tree" "${olds[@]}"
	# The intent: every change, each original's blob, the directories to
	# make, and whether the record directory is this run's.
	{
		echo "txid $txid"
		echo "record-dir $rec"
		for d in ${dirs[@]+"${dirs[@]}"}; do echo "dir - - $d"; done
		n=0
		for p in "$@"; do
			n=$((n + 1))
			if [ -f "$tree/$p" ] && [ -f "$stage/$p" ]; then
				printf 'replace %s %s %s\n' "$n" "${TREE_BLOB[$p]}" "$p"
			elif [ -f "$stage/$p" ]; then
				printf 'create %s - %s\n' "$n" "$p"
			elif [ -f "$tree/$p" ]; then
				printf 'remove %s %s %s\n' "$n" "${TREE_BLOB[$p]}" "$p"
			fi
		done
		echo end
	} >"$j/intent" || return 1
	_fault "intent"
	# The originals, kept as hard links (one cp): a rollback needs no space.
	if [ ${#olds[@]} -gt 0 ]; then
		(cd "$tree" && cp -l --parents -- "${olds[@]}" "$j/orig/") || return 1
		_fault "keep"
	fi
	# Who owns what the run makes (root only: a user's tree stays the
	# user's), from one stat for all of it.
	if [ "$EUID" -eq 0 ]; then
		# (A record directory this run made has no owner to read yet.)
		# shellcheck disable=SC2004 # associative arrays (common.sh)
		[ "$rec" != made ] || STAT_OWNER[$tree/$RECORD_DIR]=- STAT_MODE[$tree/$RECORD_DIR]=-
		owners=("$tree")
		for p in ${news[@]+"${news[@]}"} ${dirs[@]+"${dirs[@]}"}; do
			if [ -f "$tree/$p" ]; then owners+=("$tree/$p"); else _dirto d "$tree/$p"; owners+=("$d"); fi
		done
		stat_paths "${owners[@]}"
		for p in "${owners[@]}"; do owner[$p]=${STAT_OWNER[$p]:-0:0}; done
		# A record directory this run made is the tree owner's (and what
		# goes in it).
		if [ "$rec" = made ]; then
			owner[$tree/$RECORD_DIR]=${owner[$tree]}
			[ "${owner[$tree]}" = 0:0 ] || _owned_like "$tree/$RECORD_DIR" "$tree"
		fi
	fi
	# Directories, outermost first, by one mkdir.
	if [ ${#dirs[@]} -gt 0 ]; then
		(cd "$tree" && mkdir -- "${dirs[@]}") || return 1
		for p in "${dirs[@]}"; do
			_dirto d "$tree/$p"
			[ "${owner[$d]:-0:0}" = 0:0 ] || _owned_like "$tree/$p" "$d"
			owner[$tree/$p]=${owner[$d]:-0:0}
		done
		_fault "mkdir"
	fi
	# The new contents, staged by one cp in journal/new.
	if [ ${#news[@]} -gt 0 ]; then
		(cd "$stage" && cp --preserve=mode --parents -- "${news[@]}" "$j/new/") || return 1
		for p in "${news[@]}"; do
			if [ -f "$tree/$p" ]; then d=$tree/$p; else _dirto d "$tree/$p"; fi
			[ "${owner[$d]:-0:0}" = 0:0 ] || _owned_like "$j/new/$p" "$d"
			syncs+=("$j/new/$p")
			_dirto d "$p"
			[ -n "${seen[new:$d]:-}" ] || order+=("$d")
			seen[new:$d]=1
		done
		_fault "stage"
	fi
	# One sync before the first write of the tree: the intent, the kept
	# originals and the new contents are on disk.
	for p in ${olds[@]+"${olds[@]}"}; do
		_dirto d "$j/orig/$p"
		[ -n "${seen[orig:$d]:-}" ] || syncs+=("$d")
		seen[orig:$d]=1
	done
	_sync "$j/intent" ${syncs[@]+"${syncs[@]}"} "$j/orig" "$j"
	# The writes, by one cp for every directory: "cp -lf" links each
	# staged file under a fresh name beside its target and renames it over
	# the target (coreutils' force_linkat), so each file is replaced
	# atomically, as by mv, and the staged copy is the same inode.  Under
	# the fault hook, one cp per directory, each a fault point: the tests
	# stop a run with some directories written and others not.
	if [ -z "${OVERLAY_TEST_FAULT:-}${OVERLAY_TEST_FAULT_LOG:-}" ]; then
		[ ${#news[@]} -eq 0 ] || (cd "$j/new" && cp -lf --parents -t "$tree" -- "${news[@]}") || return 1
	else
		for d in ${order[@]+"${order[@]}"}; do
			local part=() pd
			for p in "${news[@]}"; do _dirto pd "$p"; [ "$pd" != "$d" ] || part+=("$p"); done
			(cd "$j/new" && cp -lf --parents -t "$tree" -- "${part[@]}") || return 1
			_fault "write $d"
		done
	fi
	if [ ${#gones[@]} -gt 0 ]; then
		(cd "$tree" && rm -f -- "${gones[@]}") || return 1
		# A directory the removals empty goes too, as git and quilt leave
		# none (the record directory stays: its journal is in it).
		for p in "${gones[@]}"; do
			_dirto d "$p"
			order+=("$d")
			while [ "$d" != . ] && [ "$d" != "$RECORD_DIR" ] && empty_dir "$tree/$d"; do
				rmdir "$tree/$d" || break
				_dirto d "$d"
			done
		done
		_fault "remove"
	fi
	# The renames and removals reach the disk with their directories.
	syncs=("$tree")
	for d in ${order[@]+"${order[@]}"}; do
		while [ "$d" != . ] && [ ! -d "$tree/$d" ]; do _dirto d "$d"; done
		[ "$d" = . ] || [ -n "${seen[sync:$d]:-}" ] || syncs+=("$tree/$d")
		seen[sync:$d]=1
	done
	_sync "${syncs[@]}"
	# Everything is written: the next run only cleans up (a "done" lost
	# in a power loss makes it roll back to the original tree instead,
	# which is as whole).
	: >"$j/done" || return 1
	_fault "done"
	journal_clean "$tree"
}

# journal_clean TREE: the journal of a finished run removed, and with it the
# record directory when nothing else is in it (a reverse).
journal_clean() {
	local tree=$1
	rm -rf "${tree:?}/$JOURNAL"
	_fault "clean"
	! empty_dir "$tree/$RECORD_DIR" || rmdir "$tree/$RECORD_DIR" 2>/dev/null || true
}

# journal_rollback TREE: undo what an unfinished run wrote, from its journal:
# every original back in place (by rename of the kept hard link), every
# created file and directory removed, then the journal (with the staged
# new contents in it).  Idempotent: a rollback interrupted in its turn is
# rolled back again by the next run.
journal_rollback() {
	local tree=$1 j=$1/$JOURNAL op n p d rec='' line ops=()
	# No intent yet, or one cut short: nothing of the tree was written.
	if ! _intent_complete "$j/intent"; then
		rm -rf "${tree:?}/$JOURNAL"
		! empty_dir "$tree/$RECORD_DIR" || rmdir "$tree/$RECORD_DIR" 2>/dev/null || true
		return 0
	fi
	while read -r line; do
		read -r op n _ p <<<"$line"
		case $op in
		record-dir) rec=$n ;;
		replace | create | remove | dir) ops=("$line" ${ops[@]+"${ops[@]}"}) ;;
		esac
	done <"$j/intent"
	for line in ${ops[@]+"${ops[@]}"}; do
		read -r op n _ p <<<"$line"
		case $op in
		replace | remove)
			# Not kept yet, or not written yet: the tree has the original.
			[ -e "$j/orig/$p" ] || continue
			[ "$tree/$p" -ef "$j/orig/$p" ] && continue
			_dirto d "$tree/$p"
			[ -d "$d" ] || mkdir -p "$d"
			mv -f "$j/orig/$p" "$tree/$p" ;;
		create) [ ! -e "$tree/$p" ] || rm -f "$tree/$p" ;;
		dir) ! empty_dir "$tree/$p" || rmdir "$tree/$p" 2>/dev/null || true ;;
		esac
	done
	_sync "$tree"
	rm -rf "${tree:?}/$JOURNAL"
	[ "$rec" != made ] || ! empty_dir "$tree/$RECORD_DIR" || rmdir "$tree/$RECORD_DIR" 2>/dev/null || true
}

# journal_recover TREE: before a run that writes, finish or undo the one a
# crash, a kill or a power loss interrupted; one line saying which.
journal_recover() {
	local tree=$1
	[ ! -L "$tree/$RECORD_DIR" ] || die "$EX_REFUSED" "$tree/$RECORD_DIR: a symlink, not this tool's record"
	[ ! -L "$tree/$JOURNAL" ] || die "$EX_REFUSED" "$tree/$JOURNAL: a symlink, not this tool's journal"
	local state
	journal_state_to state "$tree"
	case $state in
	none)
		# An empty record directory: a run stopped just after making it,
		# or just before removing it.
		! empty_dir "$tree/$RECORD_DIR" || rmdir "$tree/$RECORD_DIR" 2>/dev/null || true ;;
	'done')
		journal_clean "$tree"
		log "finished the clean-up of an interrupted run (it had written everything)" ;;
	unfinished)
		journal_rollback "$tree"
		log "rolled back an interrupted run: the tree is as it was before it" ;;
	partial)
		rm -rf "${tree:?}/$JOURNAL"
		rmdir "$tree/$RECORD_DIR" 2>/dev/null || true
		log "removed the journal of a run interrupted before it wrote anything" ;;
	esac
}
