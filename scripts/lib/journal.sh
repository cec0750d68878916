# shellcheck shell=bash
# Crash-consistent writes of a kernel tree, for scripts/apply: a journal in
# the tree's record directory, as dpkg keeps .dpkg-new files and
# half-installed states and SQLite a rollback journal.  Before the first
# write, an intent (every file to be replaced, created or removed, with its
# blob) is written and fsynced, and each original is kept as a hard link,
# so a rollback needs no space.  Then each file is replaced by rename from
# a staging file made with mktemp next to it.  When the last write is done,
# a "done" mark is written, then the journal removed.  The next run finds
# an unfinished journal and rolls it back (or, marked done, finishes the
# clean-up) before it does anything else.  Source it after common.sh and
# series.sh.

# The journal: RECORD_DIR/journal/ with intent, orig/N and done.
JOURNAL=$RECORD_DIR/journal

# journal_state TREE: none, unfinished (roll back), done (clean up) or
# partial (an intent never completed: nothing was written yet).
journal_state() {
	local j=$1/$JOURNAL
	if [ ! -e "$j" ] && [ ! -L "$j" ]; then echo none
	elif [ -e "$j/done" ]; then echo 'done'
	elif [ -f "$j/intent" ]; then echo unfinished
	else echo partial
	fi
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

# _stage_name DIR NAME TXID: a staging file for DIR/NAME, made exclusively
# (mktemp: a planted file of that name cannot redirect it).
_stage_name() { mktemp "$1/.$2.ovl-$3.XXXXXX"; }

# _dir PATH: dirname without a process.
_dir() { case $1 in */*) printf '%s\n' "${1%/*}" ;; *) echo . ;; esac; }

# journal_space TREE STAGE PATH...: fail (EX_REFUSED, one line) unless the
# file system of TREE has room for the staging files of the PATHs (their
# new content in STAGE) and the journal: the originals are hard links.
journal_space() {
	local tree=$1 stage=$2 bytes=65536 inodes=16 p avail iavail sizes=() files=()
	shift 2
	for p in "$@"; do
		[ ! -f "$stage/$p" ] || files+=("$stage/$p")
		inodes=$((inodes + 2))
	done
	[ ${#files[@]} -eq 0 ] || mapfile -t sizes < <(stat -c %s -- "${files[@]}")
	for p in ${sizes[@]+"${sizes[@]}"}; do bytes=$((bytes + p + 4096)); done
	read -r avail iavail < <(df -B1 --output=avail,iavail "$tree" 2>/dev/null | tail -n 1) || return 0
	if [ -n "$avail" ] && [ "$avail" != - ] && [ "$avail" -lt "$bytes" ]; then
		die "$EX_REFUSED" "$tree: $avail bytes free, the run needs $bytes: nothing was changed"
	fi
	if [ -n "$iavail" ] && [ "$iavail" != - ] && [ "$iavail" -gt 0 ] && [ "$iavail" -lt "$inodes" ]; then
		die "$EX_REFUSED" "$tree: $iavail inodes free, the run needs $inodes: nothing was changed"
	fi
	# A file system that counts no inodes (btrfs: 0) has no such limit.
	[ "$iavail" != 0 ] || [ "$(stat -f -c %c "$tree")" = 0 ] ||
		die "$EX_REFUSED" "$tree: no inode free: nothing was changed"
}

# journal_write TREE STAGE TXID PATH...: make TREE's PATHs what STAGE has
# (a PATH absent from STAGE is removed; a directory it needs is made, one
# it empties removed), crash-consistently.  The caller holds the tree's
# lock, has checked that no path is a symlink and that there is room.
# Processes are counted: one hash-object for all originals, one sync per
# phase, and per file only mktemp, cp and mv (and ln for an original).
journal_write() {
	local tree=$1 stage=$2 txid=$3 j p n d new rec_made=0 i
	local _old=() _blobs=() _news=() _owners=()
	local -A _blob_of=() _owner_of=() _touched_dirs=()
	shift 3
	j=$tree/$JOURNAL
	if [ ! -d "$tree/$RECORD_DIR" ]; then
		mkdir "$tree/$RECORD_DIR" || return 1
		_owned_like "$tree/$RECORD_DIR" "$tree"
		rec_made=1
	fi
	_fault "record directory"
	mkdir "$j" || return 1
	_owned_like "$j" "$tree"
	mkdir "$j/orig" || return 1
	for p in "$@"; do [ ! -f "$tree/$p" ] || _old+=("$p"); done
	if [ ${#_old[@]} -gt 0 ]; then
		mapfile -t _blobs < <(cd "$tree" && git hash-object --no-filters -- "${_old[@]}") || return 1
		[ ${#_blobs[@]} -eq ${#_old[@]} ] || return 1
		for i in "${!_old[@]}"; do _blob_of[${_old[i]}]=${_blobs[i]}; done
	fi
	# The intent: every change, each original's blob, the directories to
	# make, and whether the record directory is this run's.
	{
		echo "txid $txid"
		echo "record-dir $([ $rec_made -eq 1 ] && echo made || echo existed)"
		n=0
		for p in "$@"; do
			n=$((n + 1))
			if [ -f "$tree/$p" ] && [ -f "$stage/$p" ]; then
				printf 'replace %s %s %s\n' "$n" "${_blob_of[$p]}" "$p"
			elif [ -f "$stage/$p" ]; then
				d=$(_dir "$p")
				while [ "$d" != . ] && [ ! -d "$tree/$d" ]; do
					echo "dir - - $d"
					d=$(_dir "$d")
				done | tac
				printf 'create %s - %s\n' "$n" "$p"
			elif [ -f "$tree/$p" ]; then
				printf 'remove %s %s %s\n' "$n" "${_blob_of[$p]}" "$p"
			fi
		done
	} | awk '!($1 == "dir" && seen[$4]++)' >"$j/intent.tmp" || return 1
	_sync "$j/intent.tmp"
	mv "$j/intent.tmp" "$j/intent" || return 1
	_sync "$j"
	_fault "intent"
	# The originals, kept as hard links: a rollback needs no space.
	while read -r op n _ p; do
		case $op in replace | remove) ln "$tree/$p" "$j/orig/$n" || return 1; _fault "keep $p" ;; esac
	done <"$j/intent"
	# Directories, then every staging file, all synced at once before the
	# first rename.
	if [ "$EUID" -eq 0 ]; then
		# Who owns what the run makes, read once for all of it.
		while read -r op n _ p; do
			case $op in
			replace) _owners+=("$tree/$p") ;;
			create | dir) _owners+=("$(_dir "$tree/$p")") ;;
			esac
		done <"$j/intent"
		if [ ${#_owners[@]} -gt 0 ]; then
			mapfile -t _blobs < <(stat -c '%u:%g %n' -- "${_owners[@]}" 2>/dev/null)
			for i in "${_blobs[@]}"; do _owner_of[${i#* }]=${i%% *}; done
		fi
	fi
	while read -r op n _ p; do
		case $op in
		dir)
			mkdir "$tree/$p" || return 1
			d=$(_dir "$tree/$p")
			[ "${_owner_of[$d]:-0:0}" = 0:0 ] || _owned_like "$tree/$p" "$d"
			_owner_of[$tree/$p]=${_owner_of[$d]:-0:0}
			_fault "mkdir $p" ;;
		replace | create)
			d=$(_dir "$tree/$p")
			new=$(_stage_name "$d" "${p##*/}" "$txid") || return 1
			cp --preserve=mode -- "$stage/$p" "$new" || return 1
			if [ "$op" = replace ]; then d=$tree/$p; fi
			[ "${_owner_of[$d]:-0:0}" = 0:0 ] || _owned_like "$new" "$d"
			_news+=("$new")
			_fault "stage $p" ;;
		esac
	done <"$j/intent"
	[ ${#_news[@]} -eq 0 ] || _sync "${_news[@]}" "$j/orig"
	i=0
	while read -r op n _ p; do
		case $op in
		replace | create)
			mv -f -- "${_news[i]}" "$tree/$p" || return 1
			i=$((i + 1))
			_touched_dirs[$(_dir "$tree/$p")]=1
			_fault "write $p" ;;
		remove)
			rm -f -- "$tree/$p" || return 1
			_touched_dirs[$(_dir "$tree/$p")]=1
			# A directory the removal empties goes too, as git and quilt
			# leave none (the record directory stays: its journal is in it).
			d=$(_dir "$p")
			while [ "$d" != . ] && [ "$d" != "$RECORD_DIR" ] && rmdir "$tree/$d" 2>/dev/null; do d=$(_dir "$d"); done
			_fault "remove $p" ;;
		esac
	done <"$j/intent"
	# The renames reach the disk with their directories.
	for d in "${!_touched_dirs[@]}"; do [ -d "$d" ] || unset "_touched_dirs[$d]"; done
	_sync "$tree" "${!_touched_dirs[@]}"
	: >"$j/done" || return 1
	_sync "$j"
	_fault "done"
	journal_clean "$tree"
}

# journal_clean TREE: the journal of a finished run removed, and with it the
# record directory when nothing else is in it (a reverse).
journal_clean() {
	local tree=$1
	rm -rf "${tree:?}/$JOURNAL"
	_fault "clean"
	rmdir "$tree/$RECORD_DIR" 2>/dev/null || true
}

# journal_rollback TREE: undo what an unfinished run wrote, from its journal:
# every original back in place (by rename of the kept hard link), every
# created file and directory removed, the staging files gone, then the
# journal.  Idempotent: a rollback interrupted in its turn is rolled back
# again by the next run.
journal_rollback() {
	local tree=$1 j=$1/$JOURNAL txid op n p d made ops=()
	# No intent yet: nothing of the tree was written.
	if [ ! -f "$j/intent" ]; then
		rm -rf "${tree:?}/$JOURNAL"
		rmdir "$tree/$RECORD_DIR" 2>/dev/null || true
		return 0
	fi
	txid=$(awk '$1 == "txid" { print $2 }' "$j/intent")
	made=$(awk '$1 == "record-dir" { print $2 }' "$j/intent")
	mapfile -t ops < <(awk '$1 == "replace" || $1 == "create" || $1 == "remove" || $1 == "dir"' "$j/intent" | tac)
	for line in ${ops[@]+"${ops[@]}"}; do
		read -r op n _ p <<<"$line"
		case $op in
		replace | remove)
			# Not written yet: the tree still has the kept file itself.
			[ -e "$j/orig/$n" ] || continue
			[ "$tree/$p" -ef "$j/orig/$n" ] && continue
			mkdir -p "$(dirname "$tree/$p")"
			mv -f "$j/orig/$n" "$tree/$p" ;;
		create) rm -f "$tree/$p" ;;
		dir) rmdir "$tree/$p" 2>/dev/null || true ;;
		esac
	done
	# Staging files of the run, next to their targets.
	if [ -n "$txid" ]; then
		for line in ${ops[@]+"${ops[@]}"}; do
			read -r op n _ p <<<"$line"
			d=$(dirname "$tree/$p")
			{ [ -d "$d" ] && [ ! -L "$d" ]; } || continue
			find "$d" -maxdepth 1 -type f -name ".*.ovl-$txid.*" -delete 2>/dev/null || true
		done
	fi
	_sync "$tree"
	rm -rf "${tree:?}/$JOURNAL"
	[ "$made" != made ] || rmdir "$tree/$RECORD_DIR" 2>/dev/null || true
}

# journal_recover TREE: before a run that writes, finish or undo the one a
# crash, a kill or a power loss interrupted; one line saying which.
journal_recover() {
	local tree=$1
	[ ! -L "$tree/$RECORD_DIR" ] || die "$EX_REFUSED" "$tree/$RECORD_DIR: a symlink, not this tool's record"
	[ ! -L "$tree/$JOURNAL" ] || die "$EX_REFUSED" "$tree/$JOURNAL: a symlink, not this tool's journal"
	case $(journal_state "$tree") in
	none)
		# An empty record directory: a run stopped just after making it,
		# or just before removing it.
		rmdir "$tree/$RECORD_DIR" 2>/dev/null || true ;;
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
