# shellcheck shell=bash disable=SC2034
# The series model: everything the scripts know about the kernel lines, a
# line's series, its patches, a tree's record of an apply, and which line a
# tree belongs to.  Source it after common.sh.  No other file parses a
# series file, a patch, or the record.
#
# A line (configs/bases) has its series in patches/LINE/series, a real quilt
# series: one patch per line, applied in order.  Comment lines that the
# scripts read (quilt skips them):
#   #not-needed NAME REASON   the line does not take the change at all
#   #present NAME REASON      the change is already in the tree this line
#                             names (stable backport, upstream): NAME stays
#                             in patches/LINE/, and scripts/apply still
#                             probes it, so an older tree of the line that
#                             lacks it gets it
# A vendor override layer (--extra DIR) replaces a patch by DIR/NAME, or
# disables it with an empty DIR/NAME.

PATCHES_DIR=${PATCHES_DIR:-$TOP/patches}
# The author a stored patch of a change this project wrote carries (git am
# needs one): no person, who could give the Developer's Certificate of
# Origin.  Such a patch has no Signed-off-by; scripts/export makes the
# submitter its author and signs it off as them.  A patch of someone's
# posted change keeps that person as its author, with their sign-off.
PLACEHOLDER_NAME='Seed 8fb4d3ac maintainers'
PLACEHOLDER_EMAIL=maintainers@users.noreply.a-seed-8fb4d3ac.example
# The record an apply leaves in the tree, like quilt's .pc/: base, series
# (NAME applied|present per line, in order), a copy of each applied patch.
RECORD_DIR=.overlay-applied
# The journal of a run that writes the tree (scripts/lib/journal.sh).
JOURNAL=$RECORD_DIR/journal

# --- lines and kernels (configs/bases) ---------------------------------------

# A row is a name users give (make KERNEL=NAME, get-kernel NAME), the line
# whose series applies to it, version globs, a Debian package and suite,
# and the default mark.  A line is a row whose name is its line.  The
# table is read once per process, by bash alone: the scripts ask it often.
_B_READ=0
_bases_read() {
	local name line globs pkg suite def _
	[ "$_B_READ" -eq 0 ] || return 0
	_B_NAME=() _B_LINE=() _B_GLOBS=() _B_PKG=() _B_SUITE=() _B_DEFAULT=()
	while read -r name line globs pkg suite def _; do
		case $name in '' | '#'*) continue ;; esac
		_B_NAME+=("$name") _B_LINE+=("$line") _B_GLOBS+=("$globs")
		_B_PKG+=("$pkg") _B_SUITE+=("$suite") _B_DEFAULT+=("$def")
	done <"$TOP/configs/bases"
	_B_READ=1
}
# _base_field ARRAY NAME: ARRAY's value for the row named NAME, or nothing.
_base_field() {
	local -n _col=$1
	local i
	_bases_read
	for i in "${!_B_NAME[@]}"; do
		[ "${_B_NAME[i]}" != "$2" ] || { printf '%s\n' "${_col[i]}"; return 0; }
	done
}

# _bases: the rows, as in the table.
_bases() {
	local i
	_bases_read
	for i in "${!_B_NAME[@]}"; do
		printf '%s %s %s %s %s %s\n' "${_B_NAME[i]}" "${_B_LINE[i]}" "${_B_GLOBS[i]}" \
			"${_B_PKG[i]}" "${_B_SUITE[i]}" "${_B_DEFAULT[i]}"
	done
}

# bases_known: the lines, in table order.
bases_known() {
	local i
	_bases_read
	for i in "${!_B_NAME[@]}"; do
		[ "${_B_NAME[i]}" != "${_B_LINE[i]}" ] || printf '%s\n' "${_B_NAME[i]}"
	done
}

# base_known NAME: NAME is a line.
base_known() {
	local i
	_bases_read
	for i in "${!_B_NAME[@]}"; do
		[ "${_B_NAME[i]}" != "$1" ] || [ "$1" != "${_B_LINE[i]}" ] || return 0
	done
	return 1
}

# kernel_known NAME: NAME is a row of configs/bases (a line or a tree).
kernel_known() { [ -n "$(_base_field _B_NAME "$1")" ]; }

# kernel_line NAME: the line of kernel NAME.
kernel_line() { _base_field _B_LINE "$1"; }

# base_default: the kernel 'make' works on when given none.
base_default() {
	local i
	_bases_read
	for i in "${!_B_NAME[@]}"; do
		[ "${_B_DEFAULT[i]}" != default ] || { printf '%s\n' "${_B_NAME[i]}"; return 0; }
	done
}

# base_package NAME / base_suite NAME: its Debian source package and the
# suite it comes from ("-": none / the host's release).
base_package() { _base_field _B_PKG "$1"; }
base_suite() { _base_field _B_SUITE "$1"; }

# bases_with_package: the kernel names Debian ships a tree for, in order.
bases_with_package() {
	local i
	_bases_read
	for i in "${!_B_NAME[@]}"; do
		[ "${_B_PKG[i]}" = - ] || printf '%s\n' "${_B_NAME[i]}"
	done
}

# base_of_version VERSION: the line of the first row whose VERSION.PATCHLEVEL
# globs match VERSION (6.12.117 -> 6.12, 7.3.4 -> mainline), or nothing.
base_of_version() {
	_bases | awk -v v="$(echo "$1" | cut -d. -f1,2)" '{ n = split($3, g, ",")
		for (i = 1; i <= n; i++) {
			re = "^" g[i] "$"; gsub(/\./, "\\.", re); gsub(/\*/, ".*", re)
			if (v ~ re) { print $2; exit }
		} }'
}

# base_nearest VERSION: the line with a series whose version is nearest
# VERSION's (where a new line's series starts from).
base_nearest() {
	local mm
	mm=$(echo "$1" | awk -F. '{ print $1 * 1000 + $2 }')
	while read -r b _ globs _; do
		[ -f "$PATCHES_DIR/$b/series" ] || continue
		echo "$globs" | awk -F. -v mm="$mm" -v b="$b" \
			'{ d = $1 * 1000 + ($2 == "*" ? 0 : $2) - mm; print (d < 0 ? -d : d), b }'
	done < <(_bases) | sort -n -k1,1 -s | awk 'NR == 1 { print $2 }'
}

# --- patches ----------------------------------------------------------------

# patch_files PATCH...: "PATH PRE POST MODE" for each file of each PATCH,
# in order; MODE is the new file's mode for a created file, "deleted" for
# a removed one, "-" otherwise.  From patch_parse: the one parser of a
# patch's file list.
patch_files() {
	local rows
	patch_files_to rows "$@" || return
	printf '%s' "$rows"
}

# patch_files_to VAR PATCH...: patch_files's rows into VAR, with no
# subshell (read them with: while read -r path pre post mode; ... <<<"$VAR").
patch_files_to() {
	local -n _pf_out=$1
	local f
	shift
	patch_parse "$@"
	_pf_out=''
	for f in "$@"; do
		[ -n "${_PATCH_CHECK[$f]+set}" ] || { printf '%s: cannot read patch\n' "$f" >&2; return 2; }
		_pf_out+=${_PATCH_ROWS[$f]}
	done
}

# patch_paths PATCH...: the paths the patches change, sorted, once each.
patch_paths() {
	local _pp=()
	patch_paths_to _pp "$@" || return
	[ ${#_pp[@]} -eq 0 ] || printf '%s\n' "${_pp[@]}"
}

# patch_paths_to ARRAY PATCH...: the same into ARRAY, with no subshell and
# no sort process (a handful of paths; LC_ALL=C: byte order).
patch_paths_to() {
	local -n _pp_out=$1
	local p i rows
	local -A seen=()
	shift
	_pp_out=()
	[ $# -gt 0 ] || return 0
	patch_files_to rows "$@" || return
	while read -r p _; do
		{ [ -n "$p" ] && [ -z "${seen[$p]:-}" ]; } || continue
		seen[$p]=1
		for ((i = ${#_pp_out[@]}; i > 0; i--)); do
			[[ ${_pp_out[i - 1]} > $p ]] || break
			_pp_out[i]=${_pp_out[i - 1]}
		done
		_pp_out[i]=$p
	done <<<"$rows"
}

# patch_only PATCH PATH...: PATCH's sections that change one of PATHs
# (their "diff --git" headers and hunks; no mail header, no signature):
# a patch of part of a change, for a copy that holds only those files.
patch_only() {
	local p=$1
	shift
	awk -v paths="$*" 'BEGIN { n = split(paths, a, " "); for (i = 1; i <= n; i++) want["b/" a[i]] = 1 }
		/^diff --git / { on = ($4 in want); if (on) left = -1 }
		/^-- $/ && on && left == 0 { on = 0 }
		on && /^@@ / { split($2, o, ","); split($3, w, ","); left = ((2 in o) ? o[2] : 1) + ((2 in w) ? w[2] : 1); print; next }
		on && left > 0 { c = substr($0, 1, 1); if (c == "-" || c == "+") left--; else if (c != "\\") left -= 2; if (left < 0) left = 0 }
		on' "$p"
}

# patch_subject PATCH: the Subject: header, unfolded, without "[PATCH...]".
patch_subject() {
	awk '/^Subject: / { s = $0; sub(/^Subject: (\[[^]]*\] *)?/, "", s); on = 1; next }
		on && /^[ \t]/ { sub(/^[ \t]+/, " "); s = s $0; next }
		on { print s; exit }' "$1"
}

# patch_metadata PATCH: the block below the first "---" up to the first
# empty line (Upstream-Status:, Preimage: lines).
patch_metadata() { awk '/^---$/ { on = 1; next } on && !NF { exit } on' "$1"; }

# patch_meta PATCH KEY: the value of KEY: in the metadata block.
patch_meta() { patch_metadata "$1" | sed -n "s/^$2: //p"; }

# patch_kind PATCH: what the patch is on its line, the first words of its
# Kind: line: "upstream submission" (mainline: goes upstream), "stable
# backport" (of a change upstream has) or "vendor carry" (carried, with
# no upstream or stable path: hardening, an optimization); empty for a
# patch without one (patches/repro/, a vendor's --extra layer).
patch_kind() { patch_meta "$1" Kind | sed 's/ *\[.*//'; }

# index_preimages PATCH: "Preimage: PATH HASH" per file, from the index lines.
index_preimages() { patch_files "$1" | awk '{ print "Preimage: " $1 " " $2 }'; }

# patch_parse PATCH...: read every PATCH not read yet in this process, with
# one awk for all of them: _PATCH_ROWS[PATCH] (patch_files's rows) and
# _PATCH_CHECK[PATCH] ("ok", or patch_check's verdict "usage|refused
# MESSAGE").  A caller that will ask about many patches reads them all at
# once first (series_load, base_detect): one process instead of two per
# patch and question.  The checks, the first problem by rank: no Subject,
# no diff section, no hunk; a hunk whose lines do not add up to its @@
# counts (truncated or hand-edited); a rename; a file's path (escaping
# the tree), index line, mode (a symlink made) and hunks (a section with
# none, unless it changes a mode or makes or deletes an empty file: GNU
# patch takes any other for "nothing to do", so a header-only or cut-off
# patch would be "already present"); a symlink changed.
declare -gA _PATCH_ROWS=() _PATCH_CHECK=() _PATCH_HUNKS=()
patch_parse() {
	local f todo=()
	for f in "$@"; do
		[ -n "${_PATCH_CHECK[$f]+set}" ] || [ ! -f "$f" ] || [ ! -r "$f" ] || todo+=("$f")
	done
	[ ${#todo[@]} -gt 0 ] || return 0
	# awk writes the assignments (quoted for the shell), one eval reads them.
	eval "$(awk '
	function hflush() {
		if (hin && (hold != 0 || hnew != 0) && herr == "")
			herr = sprintf("hunk at line %d: %d old and %d new lines missing", hstart, hold, hnew)
		hin = 0
	}
	# _hunk_errors: each hunk read as far as its @@ counts say.
	function hline(   c) {
		if (herr != "") return
		if (/^@@ /) {
			hflush()
			split($2, o, ","); split($3, w, ",")
			hold = (2 in o) ? o[2] : 1; hnew = (2 in w) ? w[2] : 1
			hstart = FNR; hin = 1; return
		}
		if (hin && (hold > 0 || hnew > 0)) {
			c = substr($0, 1, 1)
			if (c == " " || $0 == "") { hold--; hnew-- }
			else if (c == "-") hold--
			else if (c == "+") hnew--
			else if (c == "\\") { }
			else hflush()
			if (hold < 0 || hnew < 0)
				herr = sprintf("hunk at line %d: more lines than its header says", hstart)
			return
		}
		if (hin && /^\\ /) return
		hflush()
	}
	function shq(v) { gsub(/\047/, "\047\\\047\047", v); return "\047" v "\047" }
	function file_end() {
		if (path != "") print "_PATCH_ROWS[" cur "]+=" shq(path " " pre " " post " " mode) "$\047\\n\047"
		if (path == "" || ferr != "") { path = ""; return }
		q = "/" path "/"
		if (substr(q, 1, 2) == "//" || index(q, "/../") || index(q, "/./"))
			ferr = "refused touched path '"'"'" path "'"'"' escapes the tree"
		else if (pre == "-")
			ferr = "usage malformed patch: a diff section has no '"'"'index PRE..POST'"'"' line"
		else if (length(pre) < 7 || length(post) < 7)
			ferr = "usage malformed patch: short blob hash on the index line of " path
		else if (mode == "120000")
			ferr = "refused creates the symlink " path ": not supported"
		else if (!shunk && !meta)
			ferr = "usage malformed patch: the diff section of " path " has no hunk"
		path = ""
	}
	function patch_end(   v, i) {
		hflush(); file_end()
		for (i = 1; i <= nsec; i++)
			print "_PATCH_HUNKS[" cur "]+=" shq(i " " secpath[i] " " secn[i]) "$\047\\n\047"
		if (!subj) v = "usage malformed patch: no Subject: header (not a format-patch mbox)"
		else if (!ndiff) v = "usage malformed patch: no '"'"'diff --git'"'"' section"
		else if (!hunk) v = "usage malformed patch: no hunk"
		else if (herr != "") v = "usage malformed patch: " herr
		else if (rename != "") v = rename
		else if (ferr != "") v = ferr
		else if (link) v = "refused changes a symlink: not supported"
		else v = "ok"
		print "_PATCH_CHECK[" cur "]=" shq(v)
	}
	FNR == 1 {
		if (NR > 1) patch_end()
		cur = shq(FILENAME)
		print "_PATCH_ROWS[" cur "]=\047\047; _PATCH_HUNKS[" cur "]=\047\047"
		nsec = 0
		subj = hunk = ndiff = link = shunk = meta = hin = 0
		rename = ferr = herr = path = ""
	}
	{ hline() }
	/^Subject: / { subj = 1 }
	/^@@ -[0-9]/ { hunk = shunk = 1 }
	/^@@ / && nsec { secn[nsec]++ }
	/^diff --git / {
		nsec++; secpath[nsec] = $4; sub(/^b\//, "", secpath[nsec]); secn[nsec] = 0
		file_end(); ndiff++
		a = $3; b = $4; sub(/^a\//, "", a); sub(/^b\//, "", b)
		if (a != b && rename == "") rename = "usage malformed patch: renames are not supported (" $3 " -> " $4 ")"
		path = b; pre = post = mode = "-"; shunk = meta = 0; next
	}
	/^(@@|---|\+\+\+) / { next }
	path != "" && /^(old|new) mode / { meta = 1; next }
	path != "" && /^new file mode / { mode = $4; meta = 1; next }
	path != "" && /^deleted file mode / { mode = "deleted"; meta = 1; next }
	path != "" && /^index [0-9a-f]+\.\.[0-9a-f]+/ { split($2, h, /\.\./); pre = h[1]; post = h[2] }
	/^index [0-9a-f]*\.\.[0-9a-f]* 120000$/ { link = 1 }
	END { if (NR > 0) patch_end() }' "${todo[@]}")"
	# An empty file: awk saw no line of it.
	for f in "${todo[@]}"; do
		[ -n "${_PATCH_CHECK[$f]+set}" ] && continue
		_PATCH_ROWS[$f]='' _PATCH_HUNKS[$f]=''
		_PATCH_CHECK[$f]="usage malformed patch: no Subject: header (not a format-patch mbox)"
	done
}

# patch_check PATCH: dies (EX_USAGE, or EX_REFUSED for a path that leaves
# the tree or a symlink) unless PATCH is a format-patch mbox the scripts
# can apply exactly (patch_parse's checks): full-length index lines, hunks
# that add up, no renames, no diff section without a hunk.
patch_check() {
	local p=$1
	[ -f "$p" ] || die "$EX_USAGE" "$p: patch listed in the series is missing"
	[ -r "$p" ] || die "$EX_USAGE" "$p: cannot read patch"
	patch_parse "$p"
	[ "${_PATCH_CHECK[$p]}" = ok ] || _patch_die "${p##*/}" "${_PATCH_CHECK[$p]}"
}

# _patch_die NAME "usage|refused MESSAGE": patch_check's error.
_patch_die() {
	case $2 in
	refused\ *) die "$EX_REFUSED" "$1: ${2#refused }" ;;
	*) die "$EX_USAGE" "$1: ${2#usage }" ;;
	esac
}

# --- a line's series ----------------------------------------------------------

# series_load BASE [EXTRA]: read patches/BASE/series (and the override layer
# EXTRA) into SERIES_ENTRIES ("KIND NAME" in series order; KIND is patch,
# present, not-needed or disabled), SERIES_FILE[NAME] (the patch to use,
# for patch and present) and SERIES_NOTE[NAME] (the reason, or the override
# it comes from).  Dies on a malformed series, entry or patch.
declare -ga SERIES_ENTRIES=() _SERIES_CHECKS=()
declare -gA SERIES_FILE=() SERIES_NOTE=()
series_load() {
	series_read "$@"
	series_check
}

# series_check: check every patch series_read found (the base's and the
# overrides, in series order), read by one process; dies on the first bad.
series_check() {
	local f
	[ ${#_SERIES_CHECKS[@]} -eq 0 ] || patch_parse "${_SERIES_CHECKS[@]}"
	for f in ${_SERIES_CHECKS[@]+"${_SERIES_CHECKS[@]}"}; do patch_check "$f"; done
}

# series_read BASE [EXTRA]: series_load without reading the patches, for a
# caller that may trust them (apply, when its record has their blobs) and
# runs series_check otherwise.
series_read() {
	local base=$1 extra=${2:-} dir=$PATCHES_DIR/$1 line kind name reason f n=0
	[ -d "$dir" ] || die "$EX_USAGE" "$dir: no series directory for base $base"
	[ -f "$dir/series" ] || die "$EX_USAGE" "$dir/series: missing series file"
	SERIES_ENTRIES=() SERIES_FILE=() SERIES_NOTE=() _SERIES_CHECKS=()
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		case $line in
		'#not-needed '* | '#present '*)
			read -r kind name reason <<<"$line"
			kind=${kind#\#}
			[ -n "$reason" ] || die "$EX_USAGE" "$dir/series:$n: '#$kind $name' gives no reason" ;;
		'' | '#'*) continue ;;
		*[[:space:]]*)
			# quilt allows "-pN" options after the name; this series does not.
			die "$EX_USAGE" "$dir/series:$n: malformed entry '$line'" ;;
		*) kind=patch name=$line reason='' ;;
		esac
		case $name in
		*/* | .*) die "$EX_USAGE" "$dir/series:$n: '$name' is not a file name in $dir" ;;
		esac
		SERIES_ENTRIES+=("$kind $name")
		SERIES_NOTE[$name]=$reason
		if [ "$kind" != not-needed ]; then
			_SERIES_CHECKS+=("$dir/$name")
			SERIES_FILE[$name]=$dir/$name
		fi
		f=$extra/$name
		if [ -z "$extra" ] || [ ! -e "$f" ]; then continue; fi
		[ -f "$f" ] || die "$EX_USAGE" "$f: override is not a regular file"
		if [ ! -s "$f" ]; then
			SERIES_ENTRIES[-1]="disabled $name"
			SERIES_NOTE[$name]="$f is empty"
		else
			# A vendor may also take a patch this base does not need.
			_SERIES_CHECKS+=("$f")
			SERIES_ENTRIES[-1]="patch $name"
			SERIES_FILE[$name]=$f
			SERIES_NOTE[$name]="override: $f"
		fi
	done <"$dir/series"
	[ ${#SERIES_ENTRIES[@]} -gt 0 ] || die "$EX_USAGE" "$dir/series: empty series (no patch and no #not-needed or #present line)"
	if [ -n "$extra" ]; then
		for f in "$extra"/* "$extra"/.[!.]*; do
			[ -e "$f" ] || continue
			[ -n "${SERIES_NOTE[$(basename "$f")]+set}" ] ||
				die "$EX_USAGE" "$f: the override names no patch of the $base series"
		done
	fi
}

# series_names KIND...: the loaded entries of those kinds, in order.
series_names() {
	local e k
	for e in "${SERIES_ENTRIES[@]}"; do
		for k in "$@"; do [ "${e%% *}" != "$k" ] || echo "${e#* }"; done
	done
}

# series_quilt BASE: the patches plain quilt (and git am) apply, in order.
series_quilt() { awk '!/^#/ && NF { print $1 }' "$PATCHES_DIR/$1/series"; }

# --- probing a patch against files -------------------------------------------

# _hunk_results_to VAR HUNKS: from the verbose dry run in $_try_out, into
# VAR one line per hunk of the patch, in order: "SECTION PATH N ok|no"
# (SECTION counts the patch's "diff --git" sections from 1, PATH is b/'s
# path, N the hunk's number in its section); HUNKS is the patch's
# "SECTION PATH COUNT" lines (_PATCH_HUNKS).  A hunk patch does not report
# as succeeded (a missing file, a failure) is "no".  Bash alone.
_hunk_results_to() {
	local -n _hr_out=$1
	local line s=0 h i path n
	local -A _hr_ok=()
	while IFS= read -r line; do
		case $line in
		*[Ll]ooks\ like\ a\ *\ diff\ to\ me*) s=$((s + 1)) ;;
		'Hunk #'[0-9]*' succeeded at '*)
			h=${line#Hunk #}
			[ $s -eq 0 ] || _hr_ok[$s,${h%% *}]=1 ;;
		esac
	done <<<"$_try_out"
	_hr_out=''
	while read -r i path n; do
		[ -n "$i" ] || continue
		for ((h = 1; h <= n; h++)); do
			_hr_out+="$i $path $h ${_hr_ok[$i,$h]:+ok}"$'\n'
		done
	done <<<"$2"
	_hr_out=${_hr_out// $'\n'/ no$'\n'}
	_hr_out=${_hr_out%$'\n'}
}

# patch_changed_lines PATCH: per file ("FILE b/PATH"), its - and + lines in
# order, each hunk read as far as its @@ counts say (a format-patch "-- "
# signature after the last hunk is not a removed line): what a refresh
# must leave as it was.
patch_changed_lines() {
	awk '/^diff --git / && !left { print "FILE " $4; next }
	/^@@ / && !left {
		split($2, o, ","); split($3, w, ",")
		left = ((2 in o) ? o[2] : 1) + ((2 in w) ? w[2] : 1); next
	}
	left {
		c = substr($0, 1, 1)
		if (c == "-" || c == "+") { print; left-- } else if (c != "\\") left -= 2
		if (left < 0) left = 0
	}' "$1"
}

# _patch_try DIR PATCH ARGS...: GNU patch's dry run; its output in $_try_out.
# --force: never guess that a patch is reversed, never ask.
_patch_try() {
	local d=$1 p=$2
	shift 2
	_try_out=$(patch -d "$d" -p1 --force --dry-run "$@" -i "$p" 2>&1)
}

# _offsets: "hunk N at line L, offset K lines" notes from the last dry run.
_offsets() {
	local line offs=() re='^Hunk #([0-9]+) succeeded at ([0-9]+) \(offset (-?[0-9]+) (lines?)\)'
	while IFS= read -r line; do
		[[ $line =~ $re ]] || continue
		offs+=("hunk ${BASH_REMATCH[1]} at line ${BASH_REMATCH[2]}, offset ${BASH_REMATCH[3]} ${BASH_REMATCH[4]}")
	done <<<"$_try_out"
	local IFS=';'
	line="${offs[*]}"
	printf '%s\n' "${line//;/; }"
}

# _failing_hunks DIR PATCH ARGS...: the hunks that do not apply, against a
# scratch copy of DIR.
_failing_hunks() {
	local d=$1 p=$2 scratch
	shift 2
	scratch=$(mktemp -d "$SERIES_TMP/scratch.XXXXXX")
	cp -a "$d/." "$scratch/"
	patch -d "$scratch" -p1 --force --no-backup-if-mismatch --reject-file="$scratch.rej" "$@" -i "$p" 2>&1 |
		grep -E 'FAILED|can.t find file|No file to patch|malformed' || true
	[ ! -s "$scratch.rej" ] || cat "$scratch.rej"
	rm -rf "$scratch" "$scratch.rej"
}

# probe_patch DIR PATCH DIRECTION: how PATCH stands against the files in
# DIR (a staging copy: the touched files of a tree), zero fuzz.  DIRECTION
# is forward (to apply) or reverse (to take out).  Sets PROBE_STATUS:
#   applies    the whole patch goes on (or comes off) cleanly
#   present    forward: the post-image is already there (nothing to do)
#   absent     reverse: the pre-image is already there (nothing to do)
#   partly     some hunks already at the target state, the others not:
#              never applied on top (PROBE_DETAIL names each file's state)
#   fuzz       applies only with fuzz (PROBE_DETAIL: where)
#   conflict   a hunk does not apply (PROBE_HUNKS: the failing hunks)
# and PROBE_DETAIL (line offsets, states) and PROBE_HUNKS.  Dies on a patch
# GNU patch calls malformed.  Needs SERIES_TMP (a scratch directory).
probe_patch() {
	local d=$1 p=$2 dir=$3 r_all=0 f_all=0 _hunks rev fwd path state
	local done_n=0 todo_n=0 neither_n=0 s n rr fr
	local -A file_state=()
	PROBE_STATUS='' PROBE_DETAIL='' PROBE_HUNKS=''
	patch_parse "$p"
	_hunks=${_PATCH_HUNKS[$p]:-}
	# One verbose dry run each way gives the whole patch's answer and each
	# hunk's: at most two runs of patch per patch, whatever its size.
	! _patch_try "$d" "$p" --verbose --reverse --fuzz=0 || r_all=1
	# A reverse that applies means the post-image is there.  A forward that
	# applies on top of it does not mean the pre-image is: an added block
	# whose context survives the addition (a Kconfig entry) goes on twice.
	# So a forward run is not asked.
	if [ "$dir" = forward ] && [ $r_all -eq 1 ]; then
		PROBE_STATUS=present
		return 0
	fi
	_hunk_results_to rev "$_hunks"
	local rev_out=$_try_out
	! _patch_try "$d" "$p" --verbose --forward --fuzz=0 || f_all=1
	_hunk_results_to fwd "$_hunks"
	if [ "$dir" = reverse ] && [ $f_all -eq 1 ] && [ $r_all -eq 0 ]; then
		PROBE_STATUS=absent
		return 0
	fi
	# Per hunk, the same test: at the post-image (its reverse applies), at
	# the pre-image (only its forward applies), or neither.  A patch some of
	# whose hunks are already where the run would take them is partly there.
	local _revs=() _fwds=() i
	mapfile -t _revs <<<"$rev"
	mapfile -t _fwds <<<"$fwd"
	for i in "${!_revs[@]}"; do
		read -r s path n rr <<<"${_revs[i]}"
		fr=${_fwds[i]##* }
		# Its forward is asked only when its reverse fails (as above).
		[ "$rr" != ok ] || fr=no
		if [ "$rr" != ok ] && [ "$fr" != ok ]; then
			state=neither
		elif [ "$dir" = forward ]; then
			state=$([ "$rr" = ok ] && echo post || echo pre)
		else
			state=$([ "$fr" = ok ] && echo pre || echo post)
		fi
		case $dir:$state in
		forward:post | reverse:pre) done_n=$((done_n + 1)) ;;
		*:neither) neither_n=$((neither_n + 1)) ;;
		*) todo_n=$((todo_n + 1)) ;;
		esac
		file_state[$path]+=" $state"
	done
	if [ $done_n -gt 0 ] && [ $neither_n -eq 0 ]; then
		PROBE_STATUS=partly
		PROBE_DETAIL=$(for path in "${!file_state[@]}"; do
			case "${file_state[$path]} " in
			*" pre "*" post "* | *" post "*" pre "*) state="some hunks applied, some not" ;;
			*" post "*) state="at its post-image" ;;
			*) state="at its pre-image" ;;
			esac
			echo "$path: $state"
		done | sort | paste -sd ';' - | sed 's/;/; /g')
		return 0
	fi
	if [ "$dir" = forward ] && [ $f_all -eq 1 ]; then
		PROBE_STATUS=applies PROBE_DETAIL=$(_offsets)
		return 0
	fi
	if [ "$dir" = reverse ] && [ $r_all -eq 1 ]; then
		_try_out=$rev_out
		PROBE_STATUS=applies PROBE_DETAIL=$(_offsets)
		return 0
	fi
	local run=(--forward)
	[ "$dir" = forward ] || run=(--reverse)
	if _patch_try "$d" "$p" "${run[@]}" --fuzz=0; then
		PROBE_STATUS=applies PROBE_DETAIL=$(_offsets)
		return 0
	fi
	if grep -q 'malformed patch\|Only garbage' <<<"$_try_out"; then
		die "$EX_USAGE" "$(basename "$p"): malformed patch: $(printf '%s\n' "$_try_out" | grep -m1 'malformed\|garbage')"
	fi
	if _patch_try "$d" "$p" "${run[@]}" --fuzz=2 && grep -q 'with fuzz' <<<"$_try_out"; then
		PROBE_STATUS=fuzz
		PROBE_DETAIL=$(printf '%s\n' "$_try_out" | grep -o 'Hunk #[0-9]* succeeded at [0-9]* with fuzz [0-9]*' |
			paste -sd ';' - | sed 's/;/; /g')
	else
		PROBE_STATUS=conflict
	fi
	PROBE_HUNKS=$(_failing_hunks "$d" "$p" "${run[@]}" --fuzz=0)
}

# patch_apply_to DIR PATCH DIRECTION: apply (forward) or take out (reverse)
# PATCH in DIR for real, zero fuzz; the caller has probed it.
patch_apply_to() {
	local dir=--forward
	[ "$3" = forward ] || dir=--reverse
	patch -d "$1" -p1 --force --silent --no-backup-if-mismatch "$dir" --fuzz=0 -i "$2" >/dev/null
}

# patches_apply_to DIR DIRECTION PATCH...: the same for several PATCHes, in
# the order given, by one run of GNU patch on their concatenation (read
# without a process), as "cat *.patch | patch -p1" would.
patches_apply_to() {
	local d=$1 dir=--forward p _pa_text="" part
	[ "$2" = forward ] || dir=--reverse
	shift 2
	[ $# -gt 0 ] || return 0
	for p in "$@"; do
		IFS= read -r -d '' part <"$p" || true
		_pa_text+=$part
	done
	patch -d "$d" -p1 --force --silent --no-backup-if-mismatch "$dir" --fuzz=0 >/dev/null <<<"$_pa_text"
}

# --- the record of an apply -------------------------------------------------

# record_exists TREE: TREE has a complete record of an apply.
record_exists() { [ -f "$1/$RECORD_DIR/series" ] && [ -f "$1/$RECORD_DIR/base" ]; }

# record_base TREE: the line recorded, or nothing.
record_base() {
	local b=''
	[ ! -f "$1/$RECORD_DIR/base" ] || read -r b <"$1/$RECORD_DIR/base" || true
	[ -z "$b" ] || printf '%s\n' "$b"
}

# record_load TREE: RECORD_ENTRIES, newest first: "applied NAME" (its
# patch is TREE/RECORD_DIR/NAME) or "present NAME" (was already there).
declare -ga RECORD_ENTRIES=()
record_load() {
	local rec=$1/$RECORD_DIR name st
	record_exists "$1" ||
		die "$EX_USAGE" "$1: nothing to reverse (no $RECORD_DIR/: the series was not applied by scripts/apply)"
	RECORD_ENTRIES=()
	local copies=() p
	while read -r name st; do
		case $st in
		applied) copies+=("$rec/$name"); RECORD_ENTRIES=("applied $name" ${RECORD_ENTRIES[@]+"${RECORD_ENTRIES[@]}"}) ;;
		present) RECORD_ENTRIES=("present $name" ${RECORD_ENTRIES[@]+"${RECORD_ENTRIES[@]}"}) ;;
		*) die "$EX_USAGE" "$rec/series: malformed record line '$name $st'" ;;
		esac
	done <"$rec/series"
	# The copies of the applied patches, read by one process.
	[ ${#copies[@]} -eq 0 ] || patch_parse "${copies[@]}"
	for p in ${copies[@]+"${copies[@]}"}; do patch_check "$p"; done
}

# record_patches TREE: the applied patches' copies in the record.
record_patches() {
	local name st
	record_exists "$1" || return 0
	while read -r name st; do
		[ "$st" != applied ] || echo "$1/$RECORD_DIR/$name"
	done <"$1/$RECORD_DIR/series"
}

# record_current TREE: the record's line still has every patch the record
# says was applied, byte for byte, and nothing else to apply: the tree is
# what applying today's series would give.
record_current() {
	local base p
	base=$(record_base "$1")
	[ -n "$base" ] && [ -f "$PATCHES_DIR/$base/series" ] || return 1
	for p in $(record_patches "$1"); do
		cmp -s "$p" "$PATCHES_DIR/$base/$(basename "$p")" || return 1
		awk -v n="$(basename "$p")" '$1 == n || $2 == n { f = 1 } END { exit !f }' \
			"$PATCHES_DIR/$base/series" || return 1
	done
}

# record_untouched TREE: nothing in TREE was written after its record
# (people edit working trees; directories do not count: a tool may make
# and remove a temporary file in one).  A walk of the metadata only, about a
# second on a kernel tree.
record_untouched() {
	record_exists "$1" &&
		[ -z "$(find "$1" ! -type d -newer "$1/$RECORD_DIR/series" ! -path "$1/$RECORD_DIR/*" -print -quit)" ]
}

# build_sources TREE: "tree PATH" then "PATH BLOB" for each file TREE's
# recorded series touches (BLOB "-" for one that is absent): what a build
# of TREE was made from, as far as the series goes.
build_sources() {
	local p recorded
	echo "tree $1"
	mapfile -t recorded < <(record_patches "$1")
	for p in $(patch_paths ${recorded[@]+"${recorded[@]}"}); do
		if [ -f "$1/$p" ]; then echo "$p $(git hash-object --no-filters "$1/$p")"; else echo "$p -"; fi
	done
}

# sources_json TREE: the same as one JSON object, {PATH: BLOB}, without the
# tree: what a measurement made on TREE records, so that a later run can
# tell whether the series it measured is the one applied now.
sources_json() {
	build_sources "$1" | sed 1d | jq -Rn '[inputs | split(" ") | {(.[0]): .[1]}] | add // {}'
}

# --- which line a tree belongs to ---------------------------------------------

# tree_blobs TREE PATH...: TREE_BLOB[PATH], the git blob of each PATH that
# is a regular file in TREE (not a symlink; "" for none), hashed by one run
# of git; an absolute PATH is a file outside TREE (a patch, say).
declare -gA TREE_BLOB=()
tree_blobs() {
	local tree=$1 p f i paths=() hashes=()
	shift
	for p in "$@"; do
		[ -z "${TREE_BLOB[$p]+set}" ] || continue
		case $p in /*) f=$p ;; *) f=$tree/$p ;; esac
		if [ -f "$f" ] && [ ! -L "$f" ]; then paths+=("$p"); else TREE_BLOB[$p]=''; fi
	done
	[ ${#paths[@]} -gt 0 ] || return 0
	mapfile -t hashes < <(cd "$tree" && git hash-object --no-filters -- "${paths[@]}")
	for i in "${!paths[@]}"; do TREE_BLOB[${paths[i]}]=${hashes[i]:-}; done
}

# _blob_score BASE: BS_MATCH of BS_TOTAL files BASE's patches touch are at
# a pre- or post-image of a patch (TREE_BLOB holds the tree's blobs).
_blob_score() {
	local dir=$PATCHES_DIR/$1 path pre post h rows
	BS_MATCH=0 BS_TOTAL=0
	[ -f "$dir/series" ] || return 0
	local line_patches=("$dir"/*.patch)
	[ -f "${line_patches[0]}" ] || return 0
	patch_files_to rows "${line_patches[@]}"
	while read -r path pre post _; do
		[ -n "$path" ] || continue
		BS_TOTAL=$((BS_TOTAL + 1))
		h=${TREE_BLOB[$path]:-}
		[ -n "$h" ] || continue
		case $h in "$pre"* | "$post"*) BS_MATCH=$((BS_MATCH + 1)) ;; esac
	done <<<"$rows"
}

# base_detect TREE: set BASE and BASE_EVIDENCE for TREE: the line its record
# names; else the line most of whose touched files are at a pre- or
# post-image blob; else the line whose version globs match the Makefile's.
# Dies when none decides.  Leaves the blobs it read in TREE_BLOB.
base_detect() {
	local tree=$1 b='' m t best='' best_m=0 tie=0 scores='' version all=() paths=()
	[ ! -f "$tree/$RECORD_DIR/base" ] || read -r b <"$tree/$RECORD_DIR/base" || true
	if [ -n "$b" ]; then
		BASE=$b BASE_EVIDENCE="the record of the earlier apply ($RECORD_DIR/base)"
		return
	fi
	local lines=() i
	_bases_read
	for i in "${!_B_NAME[@]}"; do [ "${_B_NAME[i]}" != "${_B_LINE[i]}" ] || lines+=("${_B_NAME[i]}"); done
	for b in "${lines[@]}"; do
		# A patches directory may leave a base out, not half of one.
		[ ! -d "$PATCHES_DIR/$b" ] || [ -f "$PATCHES_DIR/$b/series" ] ||
			die "$EX_USAGE" "$PATCHES_DIR/$b/series: missing series file"
		for m in "$PATCHES_DIR/$b"/*.patch; do [ ! -f "$m" ] || all+=("$m"); done
	done
	# Every line's patches read, and every file they touch hashed, at once.
	if [ ${#all[@]} -gt 0 ]; then
		patch_parse "${all[@]}"
		local -A seen=()
		local rows
		patch_files_to rows "${all[@]}"
		while read -r m _; do
			{ [ -n "$m" ] && [ -z "${seen[$m]:-}" ]; } || continue
			seen[$m]=1
			paths+=("$m")
		done <<<"$rows"
		[ ${#paths[@]} -eq 0 ] || tree_blobs "$tree" "${paths[@]}"
	fi
	for b in "${lines[@]}"; do
		_blob_score "$b"
		m=$BS_MATCH t=$BS_TOTAL
		scores+="${scores:+, }$b $m/$t"
		if [ "$m" -gt "$best_m" ]; then best=$b best_m=$m tie=0
		elif [ "$m" -eq "$best_m" ] && [ "$m" -gt 0 ]; then tie=1
		fi
	done
	if [ -n "$best" ] && [ "$tie" -eq 0 ]; then
		BASE=$best BASE_EVIDENCE="blob hashes (files matching a pre- or post-image: $scores)"
		return
	fi
	version=$(kernel_version "$tree")
	b=$(base_of_version "$version")
	[ -n "$b" ] || die "$EX_USAGE" "$tree: Linux $version is not a known base and no blob hash decides ($scores): pass --base"
	BASE=$b BASE_EVIDENCE="Makefile version ${version%.*} (blob hashes undecided: $scores)"
}

# series_hash BASE [EXTRA]: one hash of what applying BASE's series means:
# the series file, every patch in patches/BASE and the override layer.
series_hash() {
	local f h p files=() sum
	for f in "$PATCHES_DIR/$1"/* ${2:+"$2"/*}; do [ ! -f "$f" ] || files+=("$f"); done
	# "NAME SHA256  -" per file (as sha256sum <FILE prints it), hashed
	# again: two processes for the lot.
	read -r sum _ < <(
		[ ${#files[@]} -eq 0 ] ||
			sha256sum -- "${files[@]}" | while read -r h p; do printf '%s %s  -\n' "${p##*/}" "$h"; done |
			sha256sum)
	[ ${#files[@]} -gt 0 ] || read -r sum _ < <(sha256sum </dev/null)
	printf '%s\n' "${sum:0:16}"
}

# --- the patch a piece of evidence is about -----------------------------------

# change_patch BASE NUM: the patch that carries change NUM (0003, 0004...)
# for line BASE: the line's own (a patch or #present entry), else the
# measurement-only port patches/repro/BASE-SLUG.patch (SLUG: the change's
# name without its number) where the line does not take it.  Prints its
# path; prints nothing and sets CHANGE_WHY when there is none.
change_patch() {
	local base=$1 num=$2 name slug f
	CHANGE_WHY=''
	series_load "$base"
	name=$( (series_names patch present not-needed) | awk -v n="$num" 'index($0, n "-") == 1 { print; exit }')
	if [ -n "$name" ] && [ -n "${SERIES_FILE[$name]:-}" ]; then
		echo "${SERIES_FILE[$name]}"
		return 0
	fi
	if [ -n "$name" ]; then
		slug=${name#"$num"-}
		f=$PATCHES_DIR/repro/$base-$slug
		if [ -f "$f" ]; then echo "$f"; return 0; fi
		CHANGE_WHY="the $base series does not take $num (${SERIES_NOTE[$name]:-not needed}) and patches/repro/ has no $base-$slug"
	else
		CHANGE_WHY="the $base series has no $num patch"
	fi
}

# variants_make DIR PATCH ROOT: ROOT/unpatched and ROOT/patched get the
# files PATCH touches, as DIR has them, with PATCH taken out of the one
# and put into the other; VARIANT_DIRECTION says which was needed
# (forward: DIR lacks the change; reverse: DIR has it).  Zero fuzz; dies
# (EX_FAIL) when the patch goes neither way.
variants_make() {
	local dir=$1 p=$2 root=$3 path v
	rm -rf "$root/unpatched" "$root/patched" "$root/probe"
	for v in unpatched patched probe; do
		mkdir -p "$root/$v"
		for path in $(patch_paths "$p"); do
			[ -f "$dir/$path" ] || continue
			mkdir -p "$root/$v/$(dirname "$path")"
			cp "$dir/$path" "$root/$v/$path"
		done
	done
	local SERIES_TMP=$root/probe.tmp
	mkdir -p "$SERIES_TMP"
	probe_patch "$root/probe" "$p" forward
	rm -rf "$root/probe" "$SERIES_TMP"
	case $PROBE_STATUS in
	applies)
		VARIANT_DIRECTION=forward
		printf '+ patch -d %s -p1 --fuzz=0 -i %s\n' "$root/patched" "$p" >&2
		patch_apply_to "$root/patched" "$p" forward ;;
	present)
		VARIANT_DIRECTION=reverse
		printf '+ patch -d %s -p1 --fuzz=0 --reverse -i %s\n' "$root/unpatched" "$p" >&2
		patch_apply_to "$root/unpatched" "$p" reverse ;;
	*)
		die "$EX_FAIL" "$(basename "$p") applies to $dir neither forward nor reverse without fuzz ($PROBE_STATUS${PROBE_DETAIL:+: $PROBE_DETAIL})" ;;
	esac
}
