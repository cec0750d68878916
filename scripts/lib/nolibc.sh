# shellcheck shell=bash disable=SC2034
# Building user programs against a kernel tree's nolibc (tools/include/nolibc),
# the way the tree's own tools/testing/selftests/nolibc builds its init:
# -nostdlib -nostdinc -static -include nolibc.h, the tree's UAPI headers
# (what its "make headers" installs), and -lgcc with gcc.  Used by
# scripts/stages/build-init, scripts/stages/build-workloads (the guest
# programs of a target table: the last section) and the LoongArch
# evidence programs.  Source it after scripts/lib/common.sh; it is not a
# program.

# The tables' arch_srcarch (the library's target_* for the guest programs).
declare -F arch_srcarch >/dev/null || lib_use tables

# nolibc_tree [TREE]: the absolute path of the tree whose nolibc to use:
# TREE as scripts/get-kernel takes it (a base such as 6.12, or a path), by
# default the pristine tree of the default base.  Exits as get-kernel
# does (with its one-line error) if there is no such tree, and dies
# (EX_USAGE) if the tree has no tools/include/nolibc/nolibc.h.
nolibc_tree() {
	local tree
	tree=$("$TOP/scripts/get-kernel" ${1:+"$1"}) || exit
	[ -f "$tree/tools/include/nolibc/nolibc.h" ] ||
		die "$EX_USAGE" "$tree: no tools/include/nolibc/nolibc.h"
	printf '%s\n' "$tree"
}

# nolibc_arch_file KARCH DIR [NAME]: the name of nolibc's header for the
# kernel's ARCH in the nolibc directory DIR: 7.x names them after the
# kernel's SRCARCH (arch-x86.h, arch-arm64.h), 6.x after ARCH or, where a
# target table's NOLIBC_ARCH says so, another name (arch-aarch64.h): the
# first that DIR has, else the 7.x name.
nolibc_arch_file() {
	local name
	set -- "$1" "$2" "arch-$(arch_srcarch "$1").h" "arch-$1.h" ${3:+"arch-$3.h"}
	for name in "${@:3}"; do
		[ ! -f "$2/$name" ] || { echo "$name"; return; }
	done
	echo "$3"
}

# nolibc_uapi TREE KARCH: the directory of TREE's UAPI headers for KARCH,
# as "make headers" makes them (generated asm/unistd*.h and asm-generic
# wrappers included), made with O= in a scratch directory (the tree is
# only read) and kept under $BUILD/nolibc/.  The cache key is the tree's
# version, KARCH and the names, sizes and times of the files the headers
# come from, so that a hard-linked copy of a tree shares its entry.
# Progress on stderr; the path on stdout.
nolibc_uapi() {
	local tree=$1 karch=$2 srcarch version fp dir tmp lockfd d srcs
	srcarch=$(arch_srcarch "$karch")
	srcs=(include/uapi "arch/$srcarch/include/uapi" "arch/$srcarch/tools"
		"arch/$srcarch/entry/syscalls" "arch/$srcarch/kernel/syscalls"
		"arch/$srcarch/kernel/Makefile.syscalls" scripts/syscall.tbl
		scripts/Makefile.asm-headers scripts/headers_install.sh)
	version=$(kernel_version "$tree")
	fp=$(cd "$tree" && for d in "${srcs[@]}"; do
		[ ! -e "$d" ] || find "$d" -type f -printf '%p %s %T@\n'
	done | sort | md5sum | cut -c1-12)
	dir=$BUILD/nolibc/uapi-$version-$karch-$fp
	if [ ! -f "$dir/include/linux/types.h" ]; then
		mkdir -p "$BUILD/nolibc"
		exec {lockfd}>>"$BUILD/nolibc/.lock"
		flock "$lockfd"
		if [ ! -f "$dir/include/linux/types.h" ]; then
			progress "installing the UAPI headers of $tree" "ARCH=$karch"
			tmp=$(mktemp -d "$BUILD/nolibc/.tmp.XXXXXX")
			# Not the caller's make flags or variables (make test's).
			printf '+ %s\n' "make -s -C $tree O=$tmp/obj ARCH=$karch headers" >&2
			if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
				make -s -C "$tree" O="$tmp/obj" ARCH="$karch" headers >"$tmp/log" 2>&1; then
				tail -n 20 "$tmp/log" >&2
				rm -rf "$tmp"
				exec {lockfd}>&-
				die "$EX_FAIL" "$tree: make ARCH=$karch headers failed"
			fi
			find "$tmp/obj/usr/include" -name '.*' -type f -delete
			rm -rf "$dir"
			mkdir -p "$dir"
			mv "$tmp/obj/usr/include" "$dir/include"
			printf '%s %s %s\n' "$tree" "$version" "$karch" >"$dir/source"
			rm -rf "$tmp"
		fi
		exec {lockfd}>&-
	fi
	printf '%s\n' "$dir/include"
}

# nolibc_setup TREE KARCH CC [NAME]: check that TREE's nolibc has KARCH
# (nolibc_arch_file, NAME its 6.x header's name when not KARCH), make its
# UAPI headers (nolibc_uapi), and set:
#   NOLIBC_TREE      TREE
#   NOLIBC_VERSION   its version (Makefile)
#   NOLIBC_DIR       TREE/tools/include/nolibc
#   NOLIBC_UAPI      the UAPI headers
#   NOLIBC_INCLUDES  the include path: -nostdinc, nolibc, the UAPI headers,
#                    and the compiler's own headers (stddef.h, ...; -isystem
#                    comes after every -I, as the kernel builds)
#   NOLIBC_CFLAGS    the compile flags of a nolibc program: NOLIBC_INCLUDES,
#                    no stack protector (nolibc sets no TLS canary),
#                    -include nolibc.h
#   NOLIBC_LDFLAGS   -nostdlib -static
#   NOLIBC_LIBS      after the sources: -lgcc with gcc (soft division and
#                    floating point on 32-bit ARM), nothing with clang (as
#                    the selftests' Makefile: LLVM= needs none)
nolibc_setup() {
	local tree=$1 karch=$2 cc=$3 arch_file ccinc
	arch_file=$(nolibc_arch_file "$karch" "$tree/tools/include/nolibc" "${4:-}")
	[ -f "$tree/tools/include/nolibc/$arch_file" ] ||
		die "$EX_USAGE" "$tree ($(kernel_version "$tree")): its nolibc has no $arch_file (tools/include/nolibc): no ARCH=$karch support"
	NOLIBC_TREE=$tree
	NOLIBC_VERSION=$(kernel_version "$tree")
	NOLIBC_DIR=$tree/tools/include/nolibc
	NOLIBC_UAPI=$(nolibc_uapi "$tree" "$karch") || exit
	ccinc=$("$cc" -print-file-name=include) || die "$EX_USAGE" "$cc -print-file-name=include failed"
	NOLIBC_INCLUDES=(-nostdinc -I"$NOLIBC_DIR" -I"$NOLIBC_UAPI" -isystem "$ccinc")
	NOLIBC_CFLAGS=("${NOLIBC_INCLUDES[@]}" -fno-stack-protector -include "$NOLIBC_DIR/nolibc.h")
	NOLIBC_LDFLAGS=(-nostdlib -static)
	NOLIBC_LIBS=()
	case $("$cc" --version 2>/dev/null | head -n 1) in
	*clang*) ;;
	*) NOLIBC_LIBS=(-lgcc) ;;
	esac
}

# --- the guest programs (tests/guest/) -------------------------------------

# nolibc_target TARGET: load TARGET's table (scripts/lib/tables.sh, which
# the caller sources) into NOLIBC_TABLE for building a guest program: dies
# (EX_USAGE) when its INIT_CC or INIT_MACHINE is empty, or INIT_CC or
# readelf is missing.
declare -gA NOLIBC_TABLE=()
nolibc_target() {
	local conf=$TARGET_TABLES/$1.conf
	target_load "$1" NOLIBC_TABLE
	[ -n "${NOLIBC_TABLE[INIT_CC]}" ] || die "$EX_USAGE" "$conf: INIT_CC is empty"
	[ -n "${NOLIBC_TABLE[INIT_MACHINE]}" ] || die "$EX_USAGE" "$conf: INIT_MACHINE is empty"
	need_cmd "${NOLIBC_TABLE[INIT_CC]}" readelf
}

# nolibc_programs LABEL SRCDIR "NAME..." ARG...: the body of build-init
# and build-workloads, whose command line ARG... is [--nolibc TREE]
# TARGET OUT (their usage for --help).  Builds each SRCDIR/NAME.c for
# TARGET (nolibc_target, nolibc_guest) and checks it static; only when all
# are built and checked do they replace OUT/NAME (no mix of old and new).
# Prints each OUT/NAME.
nolibc_programs() {
	local label=$1 srcdir=$2 names=() nolibc='' target out p
	read -r -a names <<<"$3"
	shift 3
	opt_parse '--nolibc= nolibc' "$@"
	[ ${#OPT_ARGS[@]} -eq 2 ] || die "$EX_USAGE" "need TARGET and OUT (see --help)"
	target=${OPT_ARGS[0]} out=${OPT_ARGS[1]}
	nolibc_target "$target"
	for p in "${names[@]}"; do
		[ -f "$srcdir/$p.c" ] || die "$EX_USAGE" "$srcdir/$p.c: missing"
	done
	nolibc_guest "$nolibc"

	mkdir -p "$out" || die "$EX_USAGE" "$out: cannot create"
	out=$(cd "$out" && pwd -P)
	# A global: at_exit runs after this function has returned.
	_nolibc_tmp=$out/.build.$$
	# shellcheck disable=SC2016 # expanded at exit
	at_exit 'rm -rf "$_nolibc_tmp"'
	mkdir "$_nolibc_tmp"

	progress "building $label" "$target"
	log "$target: nolibc of $NOLIBC_TREE ($NOLIBC_VERSION), UAPI headers $NOLIBC_UAPI"
	for p in "${names[@]}"; do
		nolibc_guest_build "$target" "$_nolibc_tmp/$p" "$srcdir/$p.c"
		nolibc_check_static "$target" "$_nolibc_tmp/$p" "$p"
	done
	for p in "${names[@]}"; do
		mv -f "$_nolibc_tmp/$p" "$out/$p"
		log "$target: $out/$p: static ${NOLIBC_TABLE[INIT_MACHINE]} executable, $(stat -c %s "$out/$p") bytes (nolibc of $NOLIBC_VERSION)"
	done
	for p in "${names[@]}"; do
		printf '%s\n' "$out/$p"
	done
}

# nolibc_guest TREE: nolibc_setup for the target nolibc_target loaded,
# with the nolibc of TREE (as nolibc_tree takes it), and GUEST_CFLAGS, the
# flags of a guest program: the table's INIT_CFLAGS (a list of words by
# design, configs/targets/SCHEMA), warnings, NOLIBC_CFLAGS and
# tests/guest/include.
nolibc_guest() {
	local tree
	tree=$(nolibc_tree "$1") || exit
	nolibc_setup "$tree" "${NOLIBC_TABLE[ARCH]}" "${NOLIBC_TABLE[INIT_CC]}" "${NOLIBC_TABLE[NOLIBC_ARCH]}"
	read -r -a GUEST_CFLAGS <<<"${NOLIBC_TABLE[INIT_CFLAGS]}"
	# A cross GCC may have no libgcc for the table's flags (sparc64's
	# for -m32): the guest programs need none, so none is linked.
	if [ ${#NOLIBC_LIBS[@]} -gt 0 ] &&
		! echo 'void _start(void) {}' | "${NOLIBC_TABLE[INIT_CC]}" "${GUEST_CFLAGS[@]}" -nostdlib -static \
			-x c - "${NOLIBC_LIBS[@]}" -o /dev/null >/dev/null 2>&1; then
		NOLIBC_LIBS=()
	fi
	GUEST_CFLAGS+=(-Wall -Wextra -Werror=implicit-function-declaration
		"${NOLIBC_CFLAGS[@]}" -I"$TOP/tests/guest/include")
}

# nolibc_guest_build TARGET OUT SRC: compile and link the guest program
# SRC into OUT (nolibc_guest's flags), the command printed; dies (EX_FAIL)
# when that fails.
nolibc_guest_build() {
	run "${NOLIBC_TABLE[INIT_CC]}" "${GUEST_CFLAGS[@]}" "${NOLIBC_LDFLAGS[@]}" -o "$2" "$3" \
		${NOLIBC_LIBS[@]+"${NOLIBC_LIBS[@]}"} ||
		die "$EX_FAIL" "$1: compiling $3 failed"
}

# nolibc_check_static TARGET BIN NAME: readelf says that BIN (NAME in the
# messages) is what a guest needs: a static, non-PIE executable for the
# table's INIT_MACHINE, without a program interpreter or a dynamic
# section, and for an ARMv5TE INIT_CFLAGS, of Tag_CPU_arch v5TE.  Dies
# (EX_FAIL) naming what is wrong.
nolibc_check_static() {
	local target=$1 bin=$2 name=$3 header type machine cpu
	header=$(readelf -h "$bin") || die "$EX_FAIL" "$target: $name: not an ELF file"
	type=$(awk -F':[ \t]+' '$1 ~ /^ *Type$/ { print $2; exit }' <<<"$header")
	case $type in
	EXEC*) ;;
	*) die "$EX_FAIL" "$target: $name is '$type', want EXEC (a static, non-PIE executable)" ;;
	esac
	machine=$(awk -F':[ \t]+' '$1 ~ /^ *Machine$/ { print $2; exit }' <<<"$header")
	[ "$machine" = "${NOLIBC_TABLE[INIT_MACHINE]}" ] ||
		die "$EX_FAIL" "$target: $name is for '$machine', want '${NOLIBC_TABLE[INIT_MACHINE]}'"
	if grep -q 'INTERP' < <(readelf -lW "$bin"); then
		die "$EX_FAIL" "$target: $name has a program interpreter: not static"
	fi
	if ! grep -q 'There is no dynamic section' < <(readelf -d "$bin"); then
		die "$EX_FAIL" "$target: $name has a dynamic section: not static"
	fi
	case " ${NOLIBC_TABLE[INIT_CFLAGS]} " in
	*" -march=armv5te "*)
		cpu=$(readelf -A "$bin" | awk '$1 == "Tag_CPU_arch:" { print $2; exit }')
		[ "$cpu" = v5TE ] || die "$EX_FAIL" "$target: $name: Tag_CPU_arch is '$cpu', want v5TE"
		;;
	esac
}
