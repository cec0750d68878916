# shellcheck shell=bash disable=SC2034
# What the evidence harnesses (scripts/evidence/*/) share, on top of the
# series library: the patch a harness measures on a tree, the two variants
# of the files that patch touches, and the "not applicable" result; the
# skeleton of a harness of one file (its tree, file and patch, the --keep
# directory, compiler errors) and of its TAP and JSON.  Source it after
# common.sh and series.sh.

# evidence_base TREE: EV_BASE and EV_BASE_EVIDENCE as base_detect finds
# them; when it cannot tell, EV_BASE is empty and EV_BASE_WHY says why.
evidence_base() {
	local out
	EV_BASE='' EV_BASE_EVIDENCE='' EV_BASE_WHY=''
	# In a subshell: base_detect dies when nothing decides, and a harness
	# given its patch runs without a base.
	if out=$(base_detect "$1" 2>&1 && printf '%s\n%s' "$BASE" "$BASE_EVIDENCE"); then
		EV_BASE=${out%%$'\n'*} EV_BASE_EVIDENCE=${out#*$'\n'}
	elif [ ! -f "$1/Makefile" ] && ! record_exists "$1"; then
		EV_BASE_WHY="$1: no Makefile to tell the kernel line from"
	else
		out=${out##*"$PROG: error: "}
		EV_BASE_WHY=${out%": pass --base"}
	fi
}

# evidence_patch TREE NUM PATCH OPTION: the patch a harness measures on
# TREE: PATCH when given (the harness's OPTION), else change NUM of TREE's
# line (change_patch).  Sets EV_PATCH (absolute), the EV_BASE* of
# evidence_base, and EV_NA: empty, or why there is nothing to measure (the
# line has no patch for NUM: EV_PATCH is empty).  Dies (EX_USAGE) when
# PATCH is missing, or is not given and the line cannot be told.
evidence_patch() {
	local tree=$1 num=$2 given=$3 option=$4 out
	EV_PATCH='' EV_NA=''
	evidence_base "$tree"
	if [ -z "$given" ]; then
		[ -n "$EV_BASE" ] || die "$EX_USAGE" "$EV_BASE_WHY: pass $option"
		# change_patch prints the patch or sets CHANGE_WHY: both out of
		# the one subshell, parted by a unit separator.
		out=$(change_patch "$EV_BASE" "$num" && printf '\037%s' "$CHANGE_WHY")
		given=${out%%$'\037'*} EV_NA=${out#*$'\037'}
		given=${given%$'\n'}
		[ -n "$given" ] || return 0
	fi
	[ -f "$given" ] || die "$EX_USAGE" "$given: no such patch"
	EV_PATCH=$(cd "$(dirname "$given")" && pwd -P)/$(basename "$given")
}

# evidence_skip JSON REASON [KEY VALUE]...: the harness does not apply to
# this tree: TAP "1..0 # SKIP REASON" on stdout and, when JSON is not empty,
# {"result": "n/a", "reason": REASON, KEY: VALUE...} in it (an empty VALUE
# is null); then exit 0.
evidence_skip() {
	local json=$1 reason=$2
	shift 2
	printf '1..0 # SKIP %s\n' "$reason"
	if [ -n "$json" ]; then
		# shellcheck disable=SC2016 # a jq program, run by out_write
		out_write "$json" jq -n --arg reason "$reason" '{result: "n/a", reason: $reason} +
			([range(0; $ARGS.positional | length; 2) as $i |
			  {($ARGS.positional[$i]): ($ARGS.positional[$i + 1] | if . == "" then null else . end)}] | add // {})' \
			--args "$@" || die "$EX_FAIL" "cannot write $json"
	fi
	exit "$EX_OK"
}

# evidence_variants DIR PATCH ROOT CODE MESSAGE: variants_make, with the
# harness's own error: a patch that goes neither way dies with CODE and
# MESSAGE (plus how the patch stands).  Sets VARIANT_DIRECTION, and
# EV_VARIANT_CMDS, the commands run, for the harness to print (stderr)
# where its progress shows them.
evidence_variants() {
	local dir=$1 p=$2 root=$3 code=$4 msg=$5 rc state=()
	mkdir -p "$root"
	# A subshell whose status is tested runs without set -e, whatever it
	# says: this one is a plain command, between set +e and set -e.
	set +e
	(
		set -e
		trap 'printf "%s\n%s\n" "${VARIANT_DIRECTION:-}" "${PROBE_STATUS:-}${PROBE_DETAIL:+: $PROBE_DETAIL}" >"$root/variants.state"' EXIT
		variants_make "$dir" "$p" "$root"
	) 2>"$root/variants.log"
	rc=$?
	set -e
	mapfile -t state <"$root/variants.state"
	EV_VARIANT_CMDS=$(cat "$root/variants.log")
	rm -f "$root/variants.state" "$root/variants.log"
	[ "$rc" -eq 0 ] || die "$code" "$msg${state[1]:+ (${state[1]})}"
	VARIANT_DIRECTION=${state[0]}
}

# evidence_kernel KERNEL: the tree of a harness's --kernel BASE|PATH, as
# scripts/get-kernel resolves it (EV_PRISTINE), and its line (EV_KBASE:
# KERNEL itself when it is a line of configs/bases, else what base_detect
# says of the tree).  Exits as get-kernel does when there is no such
# tree; dies (EX_USAGE) when KERNEL is empty (the harness's default,
# base_default, found no default line) or its line cannot be told.
evidence_kernel() {
	[ -n "$1" ] || die "$EX_USAGE" "configs/bases marks no default line: pass --kernel"
	EV_PRISTINE=$("$TOP/scripts/get-kernel" "$1") || exit
	if kernel_known "$1"; then
		EV_KBASE=$(kernel_line "$1")
	else
		evidence_base "$EV_PRISTINE"
		[ -n "$EV_BASE" ] || die "$EX_USAGE" "$EV_BASE_WHY"
		EV_KBASE=$EV_BASE
	fi
}

# --- a harness of one file of a tree ---------------------------------------------

# evidence_begin TREE JSON REL NUM PATCH WHAT: the start of a harness of
# the file REL of TREE with change NUM: evidence_tree, jq when the harness
# writes JSON, and evidence_file (PATCH, WHAT), whose "not applicable" is
# the harness's result (evidence_na into JSON, exit 0).
evidence_begin() {
	evidence_tree "$1"
	[ -z "$2" ] || need_cmd jq
	evidence_file "$EV_TREE" "$EV_VERSION" "$3" "$4" "$5" "$6"
	[ -z "$EV_NA" ] || evidence_na "$2" "$3" "$EV_NA"
}

# evidence_tree TREE: a harness's TREE argument: given, and a directory.
# Sets EV_TREE (absolute, symlinks resolved) and EV_VERSION (what its
# Makefile says, or empty without one).
evidence_tree() {
	[ -n "$1" ] || die "$EX_USAGE" "no kernel tree given (see --help)"
	[ -d "$1" ] || die "$EX_USAGE" "$1: no such directory"
	EV_TREE=$(cd "$1" && pwd -P)
	EV_VERSION=''
	[ ! -f "$EV_TREE/Makefile" ] || EV_VERSION=$(kernel_version "$EV_TREE")
}

# evidence_file TREE VERSION REL NUM PATCH WHAT: the file REL of TREE (a
# kernel of VERSION, or "") that a harness tests with change NUM, and the
# patch it measures (evidence_patch; PATCH: its --patch FILE).  Sets
# EV_SRC (TREE/REL), EV_PATCH and the EV_BASE* of evidence_base, and
# EV_NA: empty, or why there is nothing to measure (TREE, a kernel tree,
# has no REL, or its line has no patch for NUM).  Dies (EX_USAGE) when
# TREE has no REL and is no kernel tree ("TREE: no REL (WHAT)"), and where
# evidence_patch does.  It returns 0 either way, so that it runs under
# set -e: a failure inside it is the harness's.
evidence_file() {
	local tree=$1 version=$2 rel=$3
	EV_SRC=$tree/$rel EV_NA=''
	if [ ! -f "$EV_SRC" ]; then
		is_kernel_tree "$tree" || die "$EX_USAGE" "$tree: no $rel ($6)"
		evidence_base "$tree"
		EV_NA="$tree${version:+ (Linux $version)} has no $rel"
		return 0
	fi
	evidence_patch "$tree" "$4" "$5" "--patch FILE"
}

# evidence_na JSON REL REASON: evidence_skip for a harness of one file,
# with its fields: tree, file, version and base (EV_TREE, REL, EV_VERSION
# and EV_BASE).
evidence_na() {
	evidence_skip "$1" "$3" tree "$EV_TREE" file "$2" version "$EV_VERSION" base "${EV_BASE:-}"
}

# evidence_must_touch PATCH REL [NAME]: PATCH changes REL and nothing
# else; else dies (EX_USAGE) saying what it changes, naming it NAME
# (default: PATCH).
evidence_must_touch() {
	local touched=()
	patch_paths_to touched "$1"
	[ "${touched[*]}" != "$2" ] || return 0
	[ ${#touched[@]} -gt 0 ] || touched=("nothing: no 'diff --git' section")
	die "$EX_USAGE" "${3:-$1}: must change $2 only (it changes: ${touched[*]})"
}

# evidence_workdir NAME KEEP TREE: the scratch directory of harness NAME:
# KEEP (its --keep DIR, created and kept), refused inside TREE or around
# it (the tree is only read), or else a temporary one, removed on exit.
# Sets EV_WORK (absolute).
evidence_workdir() {
	local keep=$2 tree=$3 dir
	if [ -n "$keep" ]; then
		# Checked before anything is created there.
		dir=$(realpath -m -- "$keep")
		case $dir/ in
		"$tree"/*) die "$EX_USAGE" "--keep $keep is inside the tree: the tree is only read" ;;
		esac
		case $tree/ in
		"$dir"/*) die "$EX_USAGE" "--keep $keep contains the tree: the tree is only read" ;;
		esac
		mkdir -p "$dir" || die "$EX_USAGE" "$keep: cannot create"
		EV_WORK=$dir
	else
		EV_WORK=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
		# shellcheck disable=SC2016 # expanded at exit
		at_exit 'rm -rf "$EV_WORK"'
	fi
}

# evidence_make_variants TREE PATCH WORK SRC: evidence_variants of the
# file SRC of TREE into WORK, for a harness of that file: a patch that goes
# neither way fails the harness (EX_FAIL); then the progress line and the
# commands.  Sets VARIANT_DIRECTION.
evidence_make_variants() {
	evidence_variants "$1" "$2" "$3" "$EX_FAIL" \
		"$(basename "$2") applies to $4 neither forward nor reverse (without fuzz)"
	progress "making the variants" "$VARIANT_DIRECTION"
	printf '%s\n' "$EV_VARIANT_CMDS" >&2
}

# first_error LOG [FILE]: the line of a compiler log that says what is
# wrong: the first error (about FILE, when there is one), else the first
# line.
first_error() {
	{ [ -n "${2:-}" ] && grep -m1 -F "$2:" "$1" | grep -m1 -iE 'error|fatal'; } ||
		grep -m1 -iE 'error|fatal' "$1" || head -n 1 "$1"
}

# --- a harness's TAP -------------------------------------------------------------

# evidence_tap_start FILE: the harness's TAP lines are collected in FILE,
# and printed after their plan by evidence_tap_end.  EV_TAP_N counts them;
# EV_FAILED is 1 once one is not ok.
evidence_tap_start() {
	EV_TAP=$1 EV_TAP_N=0 EV_FAILED=0
	: >"$EV_TAP"
}

# ev_tap STATUS DESCRIPTION: the next TAP line, "ok" or "not ok".
ev_tap() {
	EV_TAP_N=$((EV_TAP_N + 1))
	printf '%s %d - %s\n' "$1" "$EV_TAP_N" "$2" >>"$EV_TAP"
	[ "$1" = ok ] || EV_FAILED=1
}

# ev_diag: standard input as TAP comments.
ev_diag() { sed 's/^/# /' >>"$EV_TAP"; }

# evidence_tap_end: the plan, then the TAP lines.
evidence_tap_end() {
	echo "1..$EV_TAP_N"
	cat "$EV_TAP"
}

# evidence_tap_variants PATCH DIRECTION DIR REL: the first TAP line of a
# harness: which way PATCH went (evidence_variants into DIR), and that the
# unpatched and patched copies of REL differ, with the diff as comments.
evidence_tap_variants() {
	local label
	label="$(basename "$1"): applied $2"
	if [ "$2" = forward ]; then
		label="$label (the tree is unpatched)"
	else
		label="$label (the tree already has it)"
	fi
	if cmp -s "$3/unpatched/$4" "$3/patched/$4"; then
		ev_tap "not ok" "$label: the two copies are identical"
	else
		ev_tap ok "$label"
		diff -u "$3/unpatched/$4" "$3/patched/$4" | sed -n '/^@@/,$p' | ev_diag || true
	fi
}

# evidence_tap_run OUT ERR: the TAP of a test program the harness ran (its
# standard output OUT and error ERR), after the harness's own lines and
# numbered on from them: its results and comments, then ERR as comments.
# Sets EV_PLAN (its plan, or empty) and EV_SEEN (its results).
evidence_tap_run() {
	local line
	EV_PLAN=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$1" | head -n 1)
	EV_SEEN=0
	while IFS= read -r line; do
		case $line in
		"TAP version"* | 1..*) ;;
		"ok "* | "not ok "*)
			EV_SEEN=$((EV_SEEN + 1))
			ev_tap "${line%% [0-9]*}" "${line#* - }" ;;
		*) printf '%s\n' "$line" >>"$EV_TAP" ;;
		esac
	done <"$1"
	[ ! -s "$2" ] || ev_diag <"$2"
}

# evidence_run_complete RC OUT: the program of evidence_tap_run ran to
# completion: as many results as its plan, exit 0 or 1 (RC), and its
# "# Totals: " line in OUT.
evidence_run_complete() {
	[ -n "$EV_PLAN" ] && [ "$EV_PLAN" = "$EV_SEEN" ] && { [ "$1" = 0 ] || [ "$1" = 1 ]; } &&
		grep -q '^# Totals: ' "$2"
}

# evidence_tap_complete LABEL RC OUT [OK]: the last TAP line, "LABEL:
# plan P, N results, exit RC", ok when the program of evidence_tap_run
# (exit code RC, output OUT) ran to completion (evidence_run_complete)
# and OK, the harness's own check of it, is not "no".  A program that did
# not exit 0 fails the harness.
evidence_tap_complete() {
	local label="$1: plan ${EV_PLAN:-missing}, $EV_SEEN results, exit $2"
	if [ "${4:-yes}" != no ] && evidence_run_complete "$2" "$3"; then
		ev_tap ok "$label"
	else
		ev_tap "not ok" "$label"
	fi
	[ "$2" = 0 ] || EV_FAILED=1
}

# evidence_result: "pass", or "fail" once a TAP line was not ok.
evidence_result() { if [ "$EV_FAILED" = 0 ]; then echo pass; else echo fail; fi; }

# evidence_done WHAT: the last progress line (every WHAT passed, or not),
# then exit 0, or 1 once a TAP line was not ok.
evidence_done() {
	progress "done: $([ "$EV_FAILED" = 0 ] && echo "every $1 passed" || echo "a $1 FAILED")"
	exit "$EV_FAILED"
}

# EV_JQ: jq definitions for a harness's JSON: null_if_empty, and
# tap_tests, the TAP lines of a string as [{n, status, name}].
EV_JQ='def null_if_empty: if . == "" then null else . end;
	def tap_tests: [split("\n")[] | capture("^(?<status>(not )?ok) (?<n>[0-9]+) - (?<name>.*)$") |
		{n: (.n | tonumber), status: .status, name: .name}];'

# evidence_json JSON REL PATCH DIRECTION FIELDS [JQ_ARGS...]: the results
# of a harness of one file, in JSON: tree, file (REL), version, base,
# patch, direction and result, then the harness's FIELDS (a jq object,
# with EV_JQ's functions and JQ_ARGS at hand), then tests (its TAP lines).
evidence_json() {
	local json=$1 rel=$2 patch=$3 direction=$4 fields=$5
	shift 5
	# shellcheck disable=SC2016 # a jq program, run by out_write
	out_write "$json" jq -n --arg tree "$EV_TREE" --arg file "$rel" --arg version "$EV_VERSION" --arg base "${EV_BASE:-}" \
		--arg patch "$patch" --arg direction "$direction" --arg result "$(evidence_result)" \
		--rawfile tap "$EV_TAP" "$@" "$EV_JQ"'
		{tree: $tree, file: $file, version: ($version | null_if_empty),
		 base: ($base | null_if_empty), patch: $patch, direction: $direction,
		 result: $result} + ('"$fields"') + {tests: ($tap | tap_tests)}' ||
		die "$EX_FAIL" "cannot write $json"
}

# evidence_variants_default: the default variants directory ($BUILD/variants,
# as scripts/evidence/unaligned/unaligned-variants lays it out), made again
# when missing or made from another line's tree than the default one (a
# change of configs/bases leaves the old one behind).  Progress on stderr,
# the path on stdout.
evidence_variants_default() {
	local v=$BUILD/variants k
	k=$(base_default)
	if [ ! -f "$v/rework.cflags" ] ||
		[ "$(kernel_version "$v/linux-$(kernel_line "$k")" 2>/dev/null)" != "$(kernel_version "$("$TOP/scripts/get-kernel" "$k")")" ]; then
		progress "creating $v (the $(base_default) tree)" >&2
		rm -rf "$v"
		run "$TOP/scripts/evidence/unaligned/unaligned-variants" "$v" >&2
	fi
	echo "$v"
}

# arm64_loop_of FILE SYMBOL: "func loop_start loop_end nops" of SYMBOL in
# the arm64 object or ELF FILE (loop end exclusive; addresses as in the
# file, their low 32 bits): the loop is the first backward conditional
# branch in the function and its target; nops, the NOPs in it.  0004's
# two evidence scripts (layout-arm64, clear-user-lines) read loops so.
arm64_loop_of() {
	aarch64-linux-gnu-objdump -d --no-show-raw-insn "$1" | awk -v sym="$2" '
		# mawk has no strtonum(), and a double cannot hold a 64-bit
		# kernel address: the low 32 bits are all the line maths needs.
		function hex(s,  i, n) {
			n = 0
			if (length(s) > 8)
				s = substr(s, length(s) - 7)
			for (i = 1; i <= length(s); i++)
				n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return n
		}
		$0 ~ "^[0-9a-f]+ <" sym ">:$" { on = 1; start = hex($1); next }
		on && /^$/ { exit }
		on && $2 == "nop" { nop[++n] = hex(substr($1, 1, length($1) - 1)) }
		on && $2 ~ /^b\.[a-z]+$/ {
			at = hex(substr($1, 1, length($1) - 1)); to = hex($3)
			if (to < at) {
				# The NOPs the loop runs: alignment padding after its label.
				for (i = 1; i <= n; i++) if (nop[i] >= to) nops++
				printf "%.0f %.0f %.0f %d\n", start, to, at + 4, nops; found = 1; exit
			}
		}
		END { if (!found) exit 1 }'
}
