# shellcheck shell=bash
# The target tables (configs/targets/NAME.conf), the board tables
# (configs/boards/NAME.conf) and the evidence tables
# (configs/evidence/NAME.conf), each kind with its SCHEMA: every key, its
# default or that it is mandatory.  The tables are parsed, never sourced:
# a table cannot run code or exit its reader, and a bad one is one error
# line naming the file, the line and the key.  Source it after
# scripts/lib/common.sh; it is not a program.

# Where the tables are (the tests point these at tables of their own); the
# schemas are always the project's.
TARGET_TABLES=${TARGET_TABLES:-$TOP/configs/targets}
BOARD_TABLES=${BOARD_TABLES:-$TOP/configs/boards}
EVIDENCE_TABLES=${EVIDENCE_TABLES:-$TOP/configs/evidence}

# _table_schema_path KIND: the schema of a kind, relative to the project.
_table_schema_path() {
	case $1 in
	evidence) echo configs/evidence/SCHEMA ;;
	*) echo "configs/${1}s/SCHEMA" ;;
	esac
}

# A value is a word of these characters, or "text" without ", \, ` or $:
# either way it means in the table what it would mean to the shell.
_TBL_WORD='^[A-Za-z0-9_./:=,+@%^-]*$'
_TBL_QUOTED='^"([^"\\`$]*)"$'
_TBL_ASSIGN='^([A-Za-z_][A-Za-z0-9_]*)=(.*)$'
_TBL_BARE='^([A-Za-z_][A-Za-z0-9_]*)$'
_TBL_COMMENT='^[[:space:]]*#'
_TBL_BLANK='^[[:space:]]*$'

# Per kind (target, board): the schema's keys in order, and per KIND:KEY
# the default (for an optional key) or 1 in _tbl_req (mandatory).
declare -gA _tbl_keys=() _tbl_default=() _tbl_req=()

# _table_parse schema|table KIND FILE: FILE's lines into _tp_keys,
# _tp_vals and _tp_lines (its line numbers).  A schema may also have
# "KEY" alone, a mandatory key (_tp_req[i]=1), and documents each key in a
# comment right above it; a table may only set its kind's keys, each
# once, the mandatory ones not empty.  The first bad line is the error.
_table_parse() {
	local mode=$1 kind=$2 file=$3 rel=${3#"$TOP"/} line n=0 key val req commented=0
	local schema
	schema=$(_table_schema_path "$2")
	local -A seen=()
	_tp_keys=() _tp_vals=() _tp_lines=() _tp_req=()
	{ [ -f "$file" ] && [ -r "$file" ]; } || die "$EX_USAGE" "$rel: cannot read"
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		if [[ $line =~ $_TBL_COMMENT ]]; then
			commented=1
			continue
		fi
		if [[ $line =~ $_TBL_BLANK ]]; then
			commented=0
			continue
		fi
		req=0
		if [[ $line =~ $_TBL_ASSIGN ]]; then
			key=${BASH_REMATCH[1]} val=${BASH_REMATCH[2]}
			if [[ $val =~ $_TBL_QUOTED ]]; then
				val=${BASH_REMATCH[1]}
			elif ! [[ $val =~ $_TBL_WORD ]]; then
				die "$EX_USAGE" "$rel:$n: $key: bad value: want $key=word (letters, digits, ._/:=,+@%^-) or $key=\"text\" (no \", \\, \` or \$)"
			fi
		elif [ "$mode" = schema ] && [[ $line =~ $_TBL_BARE ]]; then
			key=${BASH_REMATCH[1]} val='' req=1
		else
			die "$EX_USAGE" "$rel:$n: syntax error: not a comment, a blank line or KEY=value: $line"
		fi
		[ -z "${seen[$key]:-}" ] || die "$EX_USAGE" "$rel:$n: $key: set twice (first on line ${seen[$key]})"
		seen[$key]=$n
		if [ "$mode" = schema ]; then
			# Upper case: no key can be one of the loader's own (local) names.
			[[ $key =~ ^[A-Z][A-Z0-9_]*$ ]] || die "$EX_USAGE" "$rel:$n: $key: a key is in upper case"
			[ $commented -eq 1 ] || die "$EX_USAGE" "$rel:$n: $key: no comment above it saying what it means"
		else
			[ -n "${_tbl_req[$kind:$key]+set}${_tbl_default[$kind:$key]+set}" ] ||
				die "$EX_USAGE" "$rel:$n: $key: unknown key (the keys are in $schema)"
			[ -n "$val" ] || [ -z "${_tbl_req[$kind:$key]:-}" ] ||
				die "$EX_USAGE" "$rel:$n: $key: empty, but mandatory (see $schema)"
		fi
		commented=0
		_tp_keys+=("$key") _tp_vals+=("$val") _tp_lines+=("$n") _tp_req+=("$req")
	done <"$file"
	[ "$mode" = schema ] && return 0
	for key in ${_tbl_keys[$kind]}; do
		[ -z "${_tbl_req[$kind:$key]:-}" ] || [ -n "${seen[$key]:-}" ] ||
			die "$EX_USAGE" "$rel: $key: missing, but mandatory (see $schema)"
	done
}

# _table_schema KIND: read configs/KINDs/SCHEMA once.
_table_schema() {
	local kind=$1 i key
	[ -z "${_tbl_keys[$kind]+set}" ] || return 0
	_table_parse schema "$kind" "$TOP/$(_table_schema_path "$kind")"
	_tbl_keys[$kind]=${_tp_keys[*]}
	for i in "${!_tp_keys[@]}"; do
		key=${_tp_keys[i]}
		if [ "${_tp_req[i]}" -eq 1 ]; then
			_tbl_req[$kind:$key]=1
		else
			_tbl_default[$kind:$key]=${_tp_vals[i]}
		fi
	done
}

# _table_names DIR: the names of DIR/*.conf, sorted (LC_ALL=C).
_table_names() {
	local f
	for f in "$1"/*.conf; do
		[ -f "$f" ] || continue
		f=${f##*/}
		printf '%s\n' "${f%.conf}"
	done
}

# _table_load KIND DIR NAME ARRAY: every key of KIND's schema set to its
# default, then to the value in DIR/NAME.conf, in ARRAY, an associative
# array of the caller (emptied first: nothing of a table loaded before
# stays).  Nothing else is set or run.
_table_load() {
	local _tl_kind=$1 _tl_dir=$2 _tl_name=$3 _tl_file _tl_i _tl_key
	[[ $_tl_name =~ ^[A-Za-z0-9_][A-Za-z0-9_.-]*$ ]] || die "$EX_USAGE" "bad $_tl_kind name '$_tl_name'"
	_tl_file=$_tl_dir/$_tl_name.conf
	[ -f "$_tl_file" ] || die "$EX_USAGE" "unknown $_tl_kind '$_tl_name' (one of: $(_table_names "$_tl_dir" | paste -sd' '))"
	_table_array "$4"
	_table_schema "$_tl_kind"
	_table_parse table "$_tl_kind" "$_tl_file"
	_tbl_file=$_tl_file
	local -n _tl_out=$4
	_tl_out=()
	# shellcheck disable=SC2004 # _tl_out is associative (a nameref)
	for _tl_key in ${_tbl_keys[$_tl_kind]}; do
		_tl_out[$_tl_key]=${_tbl_default[$_tl_kind:$_tl_key]:-}
	done
	# shellcheck disable=SC2004 # _tl_out is associative (a nameref)
	for _tl_i in "${!_tp_keys[@]}"; do
		_tl_out[${_tp_keys[_tl_i]}]=${_tp_vals[_tl_i]}
	done
}

# table_vars ARRAY: every key of ARRAY (a loaded table) as a shell
# variable of the caller, for a shell file that reads and sets them
# (lava-jobs' lab file).  Called in a subshell: the variables are gone
# with it.
table_vars() {
	local -n _tv=$1
	local _tv_key
	for _tv_key in "${!_tv[@]}"; do
		printf -v "$_tv_key" '%s' "${_tv[$_tv_key]}"
	done
}

# _table_array NAME: dies (EX_USAGE) unless NAME is an associative array
# of the caller's (declare -A NAME), which a loader can fill by name.
_table_array() {
	if ! [[ $1 =~ ^[A-Za-z_][A-Za-z0-9_]*$ ]] || [[ $(declare -p "$1" 2>/dev/null) != "declare -A"* ]]; then
		die "$EX_USAGE" "internal: '$1' is not an associative array (declare -A $1)"
	fi
}

# _table_where KEY: FILE:LINE of KEY in the table loaded last, or the file
# alone when KEY has its default (for the checks after the load).
_table_where() {
	local i
	for i in "${!_tp_keys[@]}"; do
		[ "${_tp_keys[i]}" != "$1" ] || { printf '%s:%s\n' "${_tbl_file#"$TOP"/}" "${_tp_lines[i]}"; return; }
	done
	printf '%s\n' "${_tbl_file#"$TOP"/}"
}

# --- target tables ------------------------------------------------------------

# target_names: the default targets, one a line, sorted: the tables with
# DEFAULT=yes, what make, the CI matrix, LAVA's jobs and defconfig-builds
# take when no target is named.
target_names() {
	local n d
	for n in $(_table_names "$TARGET_TABLES"); do
		# A bad table is its error line and a failure, not a gap.
		d=$(local -A t && target_load "$n" t && printf '%s' "${t[DEFAULT]}") || return
		[ "$d" = no ] || printf '%s\n' "$n"
	done
}

# target_all_names: every target table, one a line, sorted.
target_all_names() { _table_names "$TARGET_TABLES"; }

# target_list: every target on one line, space-separated ("none" without
# any), for a usage text.
target_list() {
	local names
	names=$(target_all_names | paste -sd' ')
	printf '%s\n' "${names:-none}"
}

# target_keys: the keys of a target table, in the schema's order.
# shellcheck disable=SC2086 # the keys are words
target_keys() { _table_schema target && printf '%s\n' ${_tbl_keys[target]}; }

# target_load NAME ARRAY: ARCH, CROSS_COMPILE, TOOLCHAINS, IMAGE, QEMU...
# (every key of configs/targets/SCHEMA) from NAME's table over the
# defaults, in the caller's associative array ARRAY (emptied first).  A
# bad table is a die (EX_USAGE), also for a TOOLCHAINS entry that is not
# a toolchain _toolchain_resolve knows.
target_load() {
	local _tl_tc _tl_seen=' ' _tl_tcs=() _tl_at
	_table_load target "$TARGET_TABLES" "$1" "$2"
	local -n _tg=$2
	case ${_tg[DEFAULT]} in
	yes | no) ;;
	*) die "$EX_USAGE" "$(_table_where DEFAULT): DEFAULT: '${_tg[DEFAULT]}' is not yes or no" ;;
	esac
	case ${_tg[LAVA_SETS_MACHINE]} in
	yes | no) ;;
	*) die "$EX_USAGE" "$(_table_where LAVA_SETS_MACHINE): LAVA_SETS_MACHINE: '${_tg[LAVA_SETS_MACHINE]}' is not yes or no" ;;
	esac
	case ${_tg[HARNESS]} in
	'' | glibc | nolibc) ;;
	*) die "$EX_USAGE" "$(_table_where HARNESS): HARNESS: '${_tg[HARNESS]}' is not empty, glibc or nolibc" ;;
	esac
	case ${_tg[HARNESS_CC]} in
	gcc | clang-[1-9] | clang-[1-9][0-9]) ;;
	*) die "$EX_USAGE" "$(_table_where HARNESS_CC): HARNESS_CC: '${_tg[HARNESS_CC]}' is not gcc or clang-N" ;;
	esac
	case ${_tg[HARNESS_REPRODUCES]} in
	yes | no) ;;
	*) die "$EX_USAGE" "$(_table_where HARNESS_REPRODUCES): HARNESS_REPRODUCES: '${_tg[HARNESS_REPRODUCES]}' is not yes or no" ;;
	esac
	# The boot matches it in the console log: a word, no pattern.
	[[ ${_tg[END_MARKER]} =~ ^[A-Za-z0-9_-]+$ ]] ||
		die "$EX_USAGE" "$(_table_where END_MARKER): END_MARKER: '${_tg[END_MARKER]}' is not a word of A-Z, a-z, 0-9, _ and -"
	_tl_at=$(_table_where TOOLCHAINS)
	read -ra _tl_tcs <<<"${_tg[TOOLCHAINS]}"
	[ ${#_tl_tcs[@]} -gt 0 ] || die "$EX_USAGE" "$_tl_at: TOOLCHAINS: empty"
	for _tl_tc in "${_tl_tcs[@]}"; do
		_toolchain_resolve "$_tl_tc" "$2" || die "$EX_USAGE" "$_tl_at: TOOLCHAINS: '$_tl_tc' is not a toolchain (gcc, gcc-13...gcc-16, clang-N)"
		case $_tl_seen in
		*" $_tl_tc "*) die "$EX_USAGE" "$_tl_at: TOOLCHAINS: '$_tl_tc' twice" ;;
		esac
		_tl_seen+="$_tl_tc "
	done
}

# target_check NAME [TOOLCHAIN]: target_load NAME (and with TOOLCHAIN,
# even empty, target_toolchain) for its checks alone: a bad table or
# toolchain is a die, nothing is kept.
target_check() {
	local -A _tk=()
	if [ $# -gt 1 ]; then
		target_toolchain "$1" "$2" _tk
	else
		target_load "$1" _tk
	fi
}

# arch_srcarch ARCH: the directory under arch/ of the kernel's ARCH, as
# the kernel's top Makefile derives SRCARCH from ARCH.
arch_srcarch() {
	case $1 in
	x86_64 | i386) echo x86 ;;
	sparc32 | sparc64) echo sparc ;;
	parisc64) echo parisc ;;
	sh64) echo sh ;;
	*) echo "$1" ;;
	esac
}

# arch_sparse_flags ARCH BIG_ENDIAN(y|n) 64BIT(y|n): what arch/SRCARCH/Makefile
# adds to sparse's CHECKFLAGS for that configuration (the top Makefile's
# part is read from the tree), as the kernel's arch Makefiles write it:
# first line the macro sparse must then define (for a check that sparse
# knows the target), then the flags, one a line.  Status 1 for an ARCH
# not here.  LoongArch's come from $(CC) -dM: the macro alone.
arch_sparse_flags() {
	case $1 in
	x86 | x86_64 | i386)
		if [ "$3" = y ]; then printf '%s\n' __x86_64__ -D__x86_64__; else printf '%s\n' __i386__ -D__i386__; fi ;;
	arm)
		printf '%s\n' __arm__ "$([ "$2" = y ] && echo -D__ARMEB__ || echo -D__ARMEL__)" -D__arm__ ;;
	arm64)
		printf '%s\n' __aarch64__ "$([ "$2" = y ] && echo -D__AARCH64EB__ || echo -D__AARCH64EL__)" -D__aarch64__ ;;
	loongarch) echo __loongarch__ ;;
	*) return 1 ;;
	esac
}

# target_srcarch ARRAY: arch_srcarch of the ARCH of a loaded table.
target_srcarch() {
	local -n _ts=$1
	arch_srcarch "${_ts[ARCH]}"
}

# target_cmdline ARRAY: the kernel command line of a loaded table, as QEMU
# (scripts/stages/boot) and LAVA (scripts/engines/lava-jobs) pass it.
target_cmdline() {
	local -n _tcl=$1
	printf '%s\n' "console=${_tcl[CONSOLE]} rdinit=/init panic=-1 oops=panic${_tcl[KERNEL_ARGS]:+ ${_tcl[KERNEL_ARGS]}}"
}

# _target_cross ARRAY: a loaded table's CROSS_COMPILE, or for a table
# without one (its default compiler needs none: x86_64's gcc, LoongArch's
# clang) the prefix of ARCH's GNU triple; status 1 if there is none.
_target_cross() {
	local -n _tx=$1
	if [ -n "${_tx[CROSS_COMPILE]}" ]; then
		printf '%s\n' "${_tx[CROSS_COMPILE]}"
		return
	fi
	case ${_tx[ARCH]} in
	x86_64 | x86) echo x86_64-linux-gnu- ;;
	loongarch) echo loongarch64-linux-gnu- ;;
	*) return 1 ;;
	esac
}

# _toolchain_resolve TC ARRAY: how toolchain TC builds a kernel of a loaded
# table (its CROSS_COMPILE), in _tc_cross and _tc_llvm (make's
# CROSS_COMPILE= and LLVM=), _tc_cc and _tc_ld (the compiler and linker to
# run); status 1 if TC is not a toolchain.  The one place toolchains are
# defined.  gcc-13 to gcc-16 are the toolchain root's
# (scripts/toolchain-root): links that run each tool inside it, under
# build/toolchain-root/gcc-N/bin/ (a table whose default compiler needs
# no CROSS_COMPILE, x86_64's gcc or LoongArch's clang, gets ARCH's triple).
_toolchain_resolve() {
	local -n _tr=$2
	_tc_cross=${_tr[CROSS_COMPILE]}
	case $1 in
	gcc) _tc_llvm='' ;;
	clang-[1-9] | clang-[1-9][0-9]) _tc_llvm=-${1#clang-} ;;
	gcc-1[3-6])
		_tc_llvm=''
		_tc_cross=$(_target_cross "$2") || return 1
		_tc_cross=$BUILD/toolchain-root/$1/bin/$_tc_cross ;;
	*) return 1 ;;
	esac
	if [ -n "$_tc_llvm" ]; then
		_tc_cc=clang$_tc_llvm _tc_ld=ld.lld$_tc_llvm
	else
		_tc_cc=${_tc_cross}gcc _tc_ld=${_tc_cross}ld
	fi
}

# target_toolchain NAME TOOLCHAIN ARRAY: target_load NAME ARRAY, then in
# ARRAY the toolchain TOOLCHAIN (one of its TOOLCHAINS; empty: the first,
# TOOLCHAIN_DEFAULT): TOOLCHAIN, CROSS_COMPILE and LLVM (as make takes
# them), TOOLCHAIN_CC and TOOLCHAIN_LD (the commands).  Another toolchain
# is a die (EX_USAGE).
target_toolchain() {
	local _tt_t _tt_tc _tt_listed=0 _tt_tcs=()
	target_load "$1" "$3"
	local -n _tt=$3
	read -ra _tt_tcs <<<"${_tt[TOOLCHAINS]}"
	_tt[TOOLCHAIN_DEFAULT]=${_tt_tcs[0]}
	_tt_tc=${2:-${_tt_tcs[0]}}
	for _tt_t in "${_tt_tcs[@]}"; do [ "$_tt_t" != "$_tt_tc" ] || _tt_listed=1; done
	[ $_tt_listed -eq 1 ] || die "$EX_USAGE" "toolchain '$_tt_tc' not in $1's TOOLCHAINS (${_tt[TOOLCHAINS]})"
	_toolchain_resolve "$_tt_tc" "$3"
	_tt[TOOLCHAIN]=$_tt_tc _tt[CROSS_COMPILE]=$_tc_cross _tt[LLVM]=$_tc_llvm
	_tt[TOOLCHAIN_CC]=$_tc_cc _tt[TOOLCHAIN_LD]=$_tc_ld
}

# --- the user-mode rows of 0001's harness and codegen table -----------------

# harness_names: the rows of the user-mode harness and the codegen table
# (scripts/evidence/unaligned), one a line: each target table with
# HARNESS set, by name, then its HARNESS_VARIANT as TABLE-VARIANT.
harness_names() {
	local n line
	for n in $(_table_names "$TARGET_TABLES"); do
		# A bad table is its error line and a failure, not a gap.
		line=$(local -A t && target_load "$n" t && printf '%s %s' "${t[HARNESS]}" "${t[HARNESS_VARIANT]}") || return
		case $line in
		' '*) ;;
		*' ') printf '%s\n' "$n" ;;
		*) printf '%s\n%s\n' "$n" "$n-${line#* }" ;;
		esac
	done
}

# harness_load ROW ARRAY: target_load of the table of ROW (a name
# harness_names gives) into ARRAY, then in it HARNESS_ROW (ROW),
# HARNESS_TRIPLE (resolved), HARNESS_FLAGS (HARNESS_CFLAGS, and the
# variant's after them) and HARNESS_DRIVER (the harness's compiler
# command: TRIPLE-gcc or clang-N).  Another name is a die (EX_USAGE).
harness_load() {
	local _hl_row=$1 _hl_table=$1 _hl_variant='' _hl_cross _hl_flags
	if [ ! -f "$TARGET_TABLES/$_hl_row.conf" ] && [[ $_hl_row == *-* ]]; then
		_hl_table=${_hl_row%-*} _hl_variant=${_hl_row##*-}
	fi
	if [ ! -f "$TARGET_TABLES/$_hl_table.conf" ]; then
		die "$EX_USAGE" "unknown harness row '$_hl_row' (one of: $(harness_names | paste -sd' '))"
	fi
	target_load "$_hl_table" "$2"
	local -n _th=$2
	if [ -z "${_th[HARNESS]}" ] || { [ -n "$_hl_variant" ] && [ "$_hl_variant" != "${_th[HARNESS_VARIANT]}" ]; }; then
		die "$EX_USAGE" "unknown harness row '$_hl_row' (one of: $(harness_names | paste -sd' '))"
	fi
	if [ -z "${_th[HARNESS_TRIPLE]}" ]; then
		_hl_cross=$(_target_cross "$2") ||
			die "$EX_USAGE" "$(_table_where HARNESS_TRIPLE): HARNESS_TRIPLE: empty, and ARCH=${_th[ARCH]} has no default triple"
		_th[HARNESS_TRIPLE]=${_hl_cross%-}
	fi
	# HARNESS_CC is gcc or clang-N (target_load checked it).
	case ${_th[HARNESS_CC]} in
	gcc) _th[HARNESS_DRIVER]=${_th[HARNESS_TRIPLE]}-gcc ;;
	*) _th[HARNESS_DRIVER]=${_th[HARNESS_CC]} ;;
	esac
	_th[HARNESS_ROW]=$_hl_row
	_hl_flags=${_th[HARNESS_CFLAGS]}${_hl_variant:+ ${_th[HARNESS_VARIANT_CFLAGS]}}
	_th[HARNESS_FLAGS]=${_hl_flags# }
}

# --- board tables -------------------------------------------------------------

# board_names: the board tables there are, one a line, sorted.
board_names() { _table_names "$BOARD_TABLES"; }

# board_keys: the keys of a board table, in the schema's order.
# shellcheck disable=SC2086 # the keys are words
board_keys() { _table_schema board && printf '%s\n' ${_tbl_keys[board]}; }

# board_check NAME: board_load NAME for its checks alone, nothing kept.
board_check() {
	local -A _bk=()
	board_load "$1" _bk
}

# board_load NAME ARRAY: DEVICE_TYPE, BOOT_METHOD, BENCH... (every key of
# configs/boards/SCHEMA) from NAME's board table over the defaults, in the
# caller's associative array ARRAY (emptied first).
board_load() { _table_load board "$BOARD_TABLES" "$1" "$2"; }

# --- evidence tables ----------------------------------------------------------

# evidence_names: the evidence stages, in their ORDER (then by name).
evidence_names() {
	local n
	for n in $(_table_names "$EVIDENCE_TABLES"); do
		(local -A e && _table_load evidence "$EVIDENCE_TABLES" "$n" e && printf '%05d %s\n' "${e[ORDER]}" "$n") || exit
	done | sort | awk '{ print $2 }'
}

# evidence_keys: the keys of an evidence table, in the schema's order.
# shellcheck disable=SC2086 # the keys are words
evidence_keys() { _table_schema evidence && printf '%s\n' ${_tbl_keys[evidence]}; }

# evidence_load NAME ARRAY: PROVES, KIND, COMMAND, NEEDS, READS, ORDER
# from configs/evidence/NAME.conf over the defaults, in the caller's
# associative array ARRAY (emptied first); KIND, ORDER and PROVES checked.
evidence_load() {
	_table_load evidence "$EVIDENCE_TABLES" "$1" "$2"
	local -n _ev=$2
	case ${_ev[KIND]} in
	harness | benchmark | objects | codegen | check | setup) ;;
	*) die "$EX_USAGE" "$(_table_where KIND): KIND: '${_ev[KIND]}' is not harness, benchmark, objects, codegen, check or setup" ;;
	esac
	[[ ${_ev[ORDER]} =~ ^[0-9]+$ ]] || die "$EX_USAGE" "$(_table_where ORDER): ORDER: '${_ev[ORDER]}' is not a number"
	[[ ${_ev[PROVES]} =~ ^(series|[0-9]{4}( [0-9]{4})*)$ ]] ||
		die "$EX_USAGE" "$(_table_where PROVES): PROVES: '${_ev[PROVES]}' is not patch numbers (0003, \"0001 0002\") or series"
}

# evidence_check NAME: evidence_load NAME for its checks alone, nothing kept.
evidence_check() {
	local -A _ek=()
	evidence_load "$1" _ek
}

# evidence_command ARRAY MAP TABLE: ARRAY (a name), the words of the
# COMMAND of TABLE (an evidence table evidence_load filled) with its
# placeholders filled in from MAP (the name of an associative array,
# {KEY} -> MAP[KEY]), the command made absolute.  A word that is one
# placeholder becomes the lines of its value (none when it is empty:
# {kbuilds} is a list); a placeholder inside a word is replaced in place.
# Dies (EX_USAGE) on a placeholder MAP has no key for.
evidence_command() {
	local -n _ec_cmd=$1 _ec_map=$2 _ec_tbl=$3
	local w k filled
	local -a lines
	_ec_cmd=()
	for w in ${_ec_tbl[COMMAND]}; do
		if [[ $w =~ ^\{([^{}]+)\}$ ]]; then
			k=${BASH_REMATCH[1]}
			[ -n "${_ec_map[$k]+set}" ] ||
				die "$EX_USAGE" "$(_table_where COMMAND): COMMAND: unknown placeholder $w"
			mapfile -t lines <<<"${_ec_map[$k]}"
			[ -z "${_ec_map[$k]}" ] || _ec_cmd+=("${lines[@]}")
			continue
		fi
		# Left to right, the values not read again: a value may itself
		# hold braces (a user's path).
		filled=''
		while [[ $w =~ ^([^{]*)\{([^{}]+)\}(.*)$ ]]; do
			k=${BASH_REMATCH[2]}
			[ -n "${_ec_map[$k]+set}" ] ||
				die "$EX_USAGE" "$(_table_where COMMAND): COMMAND: unknown placeholder {$k} in $w"
			filled+=${BASH_REMATCH[1]}${_ec_map[$k]}
			w=${BASH_REMATCH[3]}
		done
		_ec_cmd+=("$filled$w")
	done
	[ ${#_ec_cmd[@]} -gt 0 ] || die "$EX_USAGE" "$(_table_where COMMAND): COMMAND is empty"
	[ "${_ec_cmd[0]#/}" != "${_ec_cmd[0]}" ] || _ec_cmd[0]=$TOP/${_ec_cmd[0]}
}

# --- workload tables ----------------------------------------------------------

WORKLOAD_TABLES=${WORKLOAD_TABLES:-$TOP/configs/workloads}

# workload_names: the workload tables there are, one a line, sorted.
workload_names() { _table_names "$WORKLOAD_TABLES"; }

# workload_load NAME ARRAY: PROVES, TARGET, PROGRAM, OP, ARGS, SHORT_ARGS,
# CONFIG_FRAGMENTS, CMDLINE, REPRO, ANCHOR, LIMITS from
# configs/workloads/NAME.conf over the defaults, in the caller's
# associative array ARRAY (emptied first); PROVES, TARGET and PROGRAM
# checked.
workload_load() {
	_table_load workload "$WORKLOAD_TABLES" "$1" "$2"
	local -n _wl=$2
	[[ ${_wl[PROVES]} =~ ^[0-9]{4}( [0-9]{4})*$ ]] ||
		die "$EX_USAGE" "$(_table_where PROVES): PROVES: '${_wl[PROVES]}' is not patch numbers (0004, \"0001 0002\")"
	[ -f "$TARGET_TABLES/${_wl[TARGET]}.conf" ] ||
		die "$EX_USAGE" "$(_table_where TARGET): TARGET: no target '${_wl[TARGET]}' (one of: $(target_list))"
	[ -f "$TOP/tests/guest/workloads/${_wl[PROGRAM]}.c" ] ||
		die "$EX_USAGE" "$(_table_where PROGRAM): PROGRAM: no tests/guest/workloads/${_wl[PROGRAM]}.c"
	[[ ${_wl[OP]} =~ ^[a-z0-9_]+$ ]] || die "$EX_USAGE" "$(_table_where OP): OP: '${_wl[OP]}' is not a word of a-z, 0-9 and _"
	[ -z "${_wl[REPRO]}" ] || compgen -G "$TOP/patches/repro/*-${_wl[REPRO]}.patch" >/dev/null ||
		die "$EX_USAGE" "$(_table_where REPRO): REPRO: no patches/repro/LINE-${_wl[REPRO]}.patch"
	[ -z "${_wl[SPLITS]}" ] || [ -f "$WORKLOAD_TABLES/${_wl[SPLITS]}.conf" ] ||
		die "$EX_USAGE" "$(_table_where SPLITS): SPLITS: no workload '${_wl[SPLITS]}'"
	[ -z "${_wl[SPLITS]}" ] || [ -n "${_wl[LEAVES_OUT]}" ] ||
		die "$EX_USAGE" "$(_table_where SPLITS): SPLITS without LEAVES_OUT: say what the run leaves out"
}
