# shellcheck shell=bash disable=SC2016 # jq programs in single quotes
# The contract between the scripts: each stage of 'make' writes a JSON
# object, build/report/stages/NAME.json, with its own fields and one the
# pipeline adds, "stage" (docs/results.md describes both):
#   stage.name, stage.kind     what it is (series, build, boot, harness,
#                              benchmark, objects, codegen, check, setup,
#                              board-benchmark)
#   stage.proves               the changes it is evidence for ("0003",
#                              "0001 0002", "series"), or ""
#   stage.tree, stage.base, stage.version   the tree it ran on
#   stage.exit_code, stage.seconds, stage.reused
#   stage.inputs_hash, stage.inputs   what it was made from: a stage whose
#                              inputs hash is unchanged is not run again
# and scripts/report merges them into results.json:
#   {project_commit, generated, tree, base, version, series_hash,
#    stages: {NAME: {...}}}
# Source it after common.sh.

# RESULTS_KINDS: the stage kinds.
RESULTS_KINDS='series build boot harness benchmark objects codegen check setup board-benchmark'

# --- inputs ------------------------------------------------------------------

# inputs_files LABEL FILE...: "LABEL PATH SHA256" per existing file, "LABEL
# PATH absent" per missing one: lines of a stage's inputs.  One sha256sum
# for all of them: a no-op 'make' hashes a few thousand files.
inputs_files() {
	local label=$1 f line
	shift
	local -a have=()
	local -A sum=()
	for f; do [ ! -f "$f" ] || have+=("$f"); done
	if [ ${#have[@]} -gt 0 ]; then
		# "HASH  NAME" (64 + 2 characters before NAME); a name sha256sum
		# had to escape (a backslash, a newline) starts its line with
		# "\" and is hashed alone below.
		while IFS= read -r line; do
			[ "${line:0:1}" = $'\\' ] || sum[${line:66}]=${line:0:16}
		done < <(sha256sum -- "${have[@]}")
	fi
	for f; do
		if [ -n "${sum[$f]+set}" ]; then
			printf '%s %s %s\n' "$label" "${f#"$TOP"/}" "${sum[$f]}"
		elif [ -f "$f" ]; then
			printf '%s %s %s\n' "$label" "${f#"$TOP"/}" "$(sha256sum <"$f" | cut -c1-16)"
		else
			printf '%s %s absent\n' "$label" "${f#"$TOP"/}"
		fi
	done
}

# inputs_patch LABEL FILE: a patch by its name and content, wherever the
# series directory is (--patches, PATCHES_DIR).
inputs_patch() { printf '%s %s %s\n' "$1" "${2##*/}" "$(sha256sum <"$2" | cut -c1-16)"; }

# inputs_project PATH...: the project's own files under PATH (tracked or
# not, as they are on disk now), one input line each.  After
# inputs_project_snapshot, from its one listing and hashing of them.
inputs_project() {
	local f p
	local -a files=()
	if [ -n "${_ip_files+set}" ] && [[ "$*" != *[][*?:]* ]]; then
		for p; do
			p=${p%/}
			if [ "$p" = . ]; then
				files+=("${_ip_files[@]}")
			elif [ -n "${_ip_sum[$p]+set}" ]; then
				files+=("$p")
			elif [ -n "${_ip_dir[$p]+set}" ]; then
				mapfile -t -O ${#files[@]} files <<<"${_ip_dir[$p]%$'\n'}"
			fi
		done
		[ ${#files[@]} -gt 0 ] || return 0
		# In git's order (its place in the listing), each file once.
		for f in "${files[@]}"; do printf '%s\t%s\n' "${_ip_idx[$f]}" "$f"; done |
			sort -n -u -t $'\t' -k1,1 | while IFS=$'\t' read -r _ f; do
			printf 'project %s %s\n' "$f" "${_ip_sum[$f]}"
		done
		return 0
	fi
	while IFS= read -r f; do
		[ ! -f "$TOP/$f" ] || files+=("$TOP/$f")
	done < <(cd "$TOP" && git ls-files -co --exclude-standard -- "$@")
	[ ${#files[@]} -eq 0 ] || inputs_files project "${files[@]}"
}

# inputs_project_snapshot: list and hash the project's files once, for
# the inputs_project calls that follow (a run that computes the inputs of
# some forty stages: one sha256sum instead of one per call).  The files
# are taken as they are now: an edit during the run is seen by the next.
inputs_project_snapshot() {
	local f d line
	local -a files=()
	declare -ga _ip_files=()
	declare -gA _ip_sum=() _ip_dir=() _ip_idx=()
	while IFS= read -r f; do
		[ ! -f "$TOP/$f" ] || files+=("$TOP/$f")
	done < <(cd "$TOP" && git ls-files -co --exclude-standard)
	[ ${#files[@]} -gt 0 ] || return 0
	# "project NAME HASH" lines; NAME may hold spaces, HASH does not.
	while IFS= read -r line; do
		f=${line% *} f=${f#project }
		_ip_idx[$f]=${#_ip_files[@]}
		_ip_files+=("$f")
		_ip_sum[$f]=${line##* }
		# Each directory above it lists it.
		d=$f
		while [ "${d%/*}" != "$d" ]; do
			d=${d%/*}
			_ip_dir[$d]+=$f$'\n'
		done
	done < <(inputs_files project "${files[@]}")
}

# inputs_value LABEL VALUE: one input line for a value (a version string,
# a command line).
inputs_value() { printf '%s %s\n' "$1" "$(printf '%s' "$2" | sha256sum | cut -c1-16)"; }

# inputs_hash FILE: the hash of a stage's input lines.
inputs_hash() { sha256sum <"$1" | cut -c1-16; }

# --- the stage record ----------------------------------------------------------

# stage_wrap JSON NAME KIND PROVES EXIT SECONDS INPUTS [FIELDS_JSON]: add
# the "stage" record to the stage's JSON (written by the command, or made
# here from its exit code when it wrote none or nothing usable: pass or
# error; an array becomes {rows: ...}; without a .result, the exit code
# gives one: pass or fail).  FIELDS_JSON: more fields for the record (tree,
# base, version, toolchain).
stage_wrap() {
	local json=$1 name=$2 kind=$3 proves=$4 rc=$5 secs=$6 inputs=$7 fields=${8:-'{}'} tmp
	tmp=$(mktemp "$(dirname "$json")/.$name.XXXXXX")
	if [ -s "$json" ] && jq -e 'type == "object" or type == "array"' "$json" >/dev/null 2>&1; then
		jq 'if type == "array" then {rows: .} else . end' "$json" >"$tmp"
	else
		jq -n --argjson rc "$rc" '{result: (if $rc == 0 then "pass" else "error" end), exit_code: $rc}' >"$tmp"
	fi
	# shellcheck disable=SC2016 # a jq program, run by out_write
	out_write "$json" jq --arg name "$name" --arg kind "$kind" --arg proves "$proves" --argjson rc "$rc" \
		--argjson secs "$secs" --arg hash "$(inputs_hash "$inputs")" --rawfile inputs "$inputs" \
		--argjson fields "$fields" \
		'(if has("result") then . else . + {result: (if $rc == 0 then "pass" else "fail" end)} end)
		 + {stage: ({name: $name, kind: $kind, proves: $proves, exit_code: $rc, seconds: $secs,
			reused: false, inputs_hash: $hash,
			inputs: ($inputs | split("\n") | map(select(length > 0)))} + $fields)}' "$tmp" ||
		{ rm -f "$tmp"; die "$EX_FAIL" "$json: cannot write the stage record"; }
	rm -f "$tmp"
}

# stage_na JSON NAME KIND PROVES REASON INPUTS: the record of a stage that
# does not apply to this run.
stage_na() {
	# shellcheck disable=SC2016 # a jq program, run by out_write
	out_write "$1" jq -n --arg why "$5" '{result: "n/a", reason: $why}'
	stage_wrap "$1" "$2" "$3" "$4" 0 0 "$6"
}

# stage_reusable OLD_JSON INPUTS NEW_JSON: OLD_JSON is a passed run of the
# same stage from the same inputs.  Then NEW_JSON is written, the old
# record marked reused (.stage.reused), and its artifacts are printed as
# sha256sum -c reads them ("HASH  PATH"), for the caller to check they
# are still there.  One jq run where a record has no artifacts.
stage_reusable() {
	[ -s "$1" ] || return 1
	jq --arg h "$(inputs_hash "$2")" '
		if .stage.inputs_hash == $h and .stage.exit_code == 0 and .result != "error"
		then .stage.reused = true else "" | halt_error(1) end' "$1" >"$3" 2>/dev/null || {
		rm -f -- "$3"
		return 1
	}
	! grep -q '"artifacts"' "$3" || jq -r '.artifacts[]? | "\(.sha256)  \(.path)"' "$3"
}

# --- a boot's status ----------------------------------------------------------

# ktap_status RC KTAP_JSON WHAT: KTAP_STATUS, the status of a boot record
# (scripts/stages/boot, scripts/engines/lava-results) from the exit code RC
# of scripts/ktap/ktap-parse and the status of its --json KTAP_JSON: PASS
# or SKIP when RC is 0, FAIL, ERROR or MISS when it is 1.  Dies (EX_FAIL)
# on any other RC (2: bad usage) or a JSON that does not agree:
# ktap-parse failed on WHAT.
ktap_status() {
	KTAP_STATUS=''
	case $1 in
	0 | 1) KTAP_STATUS=$(jq -r .status "$2" 2>/dev/null) || KTAP_STATUS='' ;;
	esac
	case $1:$KTAP_STATUS in
	0:PASS | 0:SKIP | 1:FAIL | 1:ERROR | 1:MISS) ;;
	0:* | 1:*) die "$EX_FAIL" "ktap-parse failed on $3 (exit $1, status '$KTAP_STATUS' in $2)" ;;
	*) die "$EX_FAIL" "ktap-parse failed on $3 (exit $1)" ;;
	esac
}

# --- readers -----------------------------------------------------------------

# _RECORD_JQ: the jq function record_faults($kinds): what is wrong with a
# stage record, in the order checked ("object", "stage", "name", "kind",
# "result"; [] for a good one).  The one validator of a stage record, for
# a record of its own (stage_check) and for those of a results.json
# (results_check).
_RECORD_JQ='def record_faults($kinds):
	if type != "object" then ["object"]
	elif (.stage | type) != "object" then ["stage"]
	else [(select((.stage.name | type) != "string") | "name"),
	      (select(.stage.kind as $k | $kinds | split(" ") | index($k) == null) | "kind"),
	      (select((.result | type) != "string") | "result")] end;'

# _json_check FILE FILTER: dies (EX_USAGE) with one line naming FILE unless
# FILE is JSON and the jq FILTER ($kinds: RESULTS_KINDS) says nothing
# against it (prints "" for a good one, else what is wrong).
_json_check() {
	local f=$1 why
	[ -f "$f" ] || die "$EX_USAGE" "$f: no such file"
	[ -s "$f" ] || die "$EX_USAGE" "$f: empty"
	why=$(jq -r --arg kinds "$RESULTS_KINDS" "$_RECORD_JQ $2" "$f" 2>&1) ||
		die "$EX_USAGE" "$f: not JSON ($(printf '%s' "$why" | head -n 1))"
	# One JSON value: jq would take blanks as no input (and pass), and
	# two values as two records.
	jq -en 'reduce inputs as $v (0; . + 1) == 1' "$f" >/dev/null 2>&1 ||
		die "$EX_USAGE" "$f: not one JSON value"
	[ -z "$why" ] || die "$EX_USAGE" "$f: $why"
}

# stage_check FILE: FILE is a stage record: a JSON object with a stage
# object naming its kind; else one line naming the file and what is wrong.
stage_check() {
	_json_check "$1" '
		record_faults($kinds)[0] as $f |
		if $f == "object" then "not a JSON object"
		elif $f == "stage" then "no .stage record"
		elif $f == "name" then ".stage.name is not a string"
		elif $f == "kind" then ".stage.kind \(.stage.kind | tojson) is not a stage kind"
		elif $f == "result" then ".result is not a string"
		else "" end'
}

# results_check FILE: FILE is a results.json of scripts/report: an object
# with the tree it is about and .stages, each a stage record (its kind is
# checked, not its name or result).
results_check() {
	_json_check "$1" '
		if type != "object" then "not a JSON object"
		elif (.stages | type) != "object" then "no .stages object"
		else [.stages | to_entries[] | .key as $key | .value |
			{object: ".stages.\($key): not an object",
			 stage: ".stages.\($key): no .stage record",
			 kind: ".stages.\($key).stage.kind: not a stage kind"}[
				record_faults($kinds) | map(select(. != "name" and . != "result"))[0] // ""] // empty
			] | first // "" end'
}

# _FIELDS_JQ: the jq function field_faults($name; $kind): the fields a
# reader (scripts/report, configs/verdicts/*.jq) takes from a stage record
# whose type is not one it can use, as "PATH is TYPE, want TYPES" (a
# missing field is null).  The common fields and those of a kind are
# checked by kind, an evidence stage's own fields by its name, as the
# verdicts read them.
_FIELDS_JQ='def field_faults($name; $kind): . as $root |
	def at($p; $s):
		if ($p | length) == 0 then [$s, .]
		elif $p[0] == "[]" then
			(if type == "array" then to_entries[] | .key as $i | .value | at($p[1:]; "\($s)[\($i)]") else empty end)
		elif type == "object" then .[$p[0]] | at($p[1:]; "\($s).\($p[0])")
		else empty end;
	def n: ["number", "null"]; def s: ["string", "null"]; def a: ["array", "null"];
	def o: ["object", "null"]; def b: ["boolean", "null"]; def sc: ["string", "number", "null"];
	([[["reason"], s], [["tests"], a], [["tests", "[]"], ["object"]],
	  [["tests", "[]", "ok"], b], [["tests", "[]", "status"], s],
	  [["tests", "[]", "description"], sc], [["tests", "[]", "name"], sc],
	  [["stage", "proves"], s], [["stage", "exit_code"], n]] +
	 ({series: [[["tree"], s], [["version"], s], [["base"], s], [["base_evidence"], s],
		[["series_hash"], s], [["files_changed"], n], [["patches"], a], [["patches", "[]"], ["object"]],
		[["patches", "[]", "name"], ["string"]], [["patches", "[]", "status"], ["string"]],
		[["patches", "[]", "detail"], s], [["patches", "[]", "failing_hunks"], s]],
	   build: [[["kernel_version"], s], [["build_seconds"], n]],
	   boot: [[["target"], s], [["status"], s], [["counts"], o], [["counts", "passed"], n],
		[["counts", "failed"], n], [["counts", "skipped"], n], [["counts", "errors"], n],
		[["boot_seconds"], n], [["crash"], s], [["missing_suites"], a],
		[["missing_suites", "[]"], ["string"]], [["console_log"], s], [["ended_by"], s]]}[$kind] // []) +
	 ({"unaligned-suite": [[["results"], a], [["results", "[]"], ["object"]], [["results", "[]", "target"], ["string"]],
		[["results", "[]", "form"], ["string"]], [["results", "[]", "opt"], ["string"]],
		[["results", "[]", "wrong"], n], [["results", "[]", "probes"], n],
		[["results", "[]", "correctness"], sc]],
	   "codegen-table": [[["rows"], a], [["rows", "[]"], ["object"]], [["rows", "[]", "form"], s],
		[["rows", "[]", "status"], s], [["rows", "[]", "memcpy_calls"], n]],
	   "objects-armv5": [[["version"], s], [["summary"], o], [["summary", "built"], n],
		[["summary", "rework_text_differs"], n], [["summary", "objects_with_added_calls"], n],
		[["summary", "shipped_form"], s], [["summary", "memcpy_calls"], o]],
	   "usercopy-x86": [[["cpu"], o], [["cpu", "fsrm"], b], [["cpu", "erms"], b]],
	   "usercopy-throughput": [[["verdict"], s]],
	   "layout-arm64": [[["version"], s], [["layouts"], a], [["layouts", "[]"], ["object"]],
		[["layouts", "[]", "what"], s], [["layouts", "[]", "bti"], s], [["bti_changes_code"], b]],
	   "syscall-args-loongarch": [[["memcpy_calls"], o]],
	   "syscall-args-objects": [[["totals"], o], [["totals", "before"], o], [["totals", "after"], o]]}[$name] // []))
	| [.[] as [$p, $t] | $root | at($p; "") | select((.[1] | type) as $y | $t | index($y) == null) |
		"\(.[0]) is \(.[1] | type), want \($t | join(" or "))"];'

# stage_fields_check FILE: FILE, a stage record (stage_check), has each
# field a reader takes from it of a type it can use; else one line naming
# the file and the field.
stage_fields_check() {
	_json_check "$1" "$_FIELDS_JQ"' field_faults(.stage.name; .stage.kind) | first // ""'
}

# stages_check FILE...: stage_check and stage_fields_check of every FILE.
# One jq run decides that all are good (each file one JSON value, no
# fault); only when one is not are they checked one by one, which names
# it: a report reads some forty records, and four jq runs a record took
# seconds.
stages_check() {
	local f good
	[ $# -gt 0 ] || return 0
	good=$(jq -n --argjson n $# --arg kinds "$RESULTS_KINDS" "$_RECORD_JQ $_FIELDS_JQ"'
		[inputs | {f: input_filename,
			bad: ((record_faults($kinds) | length > 0) or (field_faults(.stage.name; .stage.kind) | length > 0))}]
		| length == $n and (map(.f) | unique | length) == $n and all(.[]; .bad | not)' "$@" 2>/dev/null) || good=false
	[ "$good" = true ] && return 0
	for f; do
		stage_check "$f"
		stage_fields_check "$f"
	done
}
