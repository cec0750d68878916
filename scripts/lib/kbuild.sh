# shellcheck shell=bash disable=SC2034
# Reading a finished kernel build directory (the O= directory of
# scripts/stages/build-kernel, or a tree built in place): its .config
# header, its vmlinux, the source tree it was built from and its .cmd
# files.  Used by the commands that take KBUILD arguments
# (scripts/checks/check-sparse and the harnesses that rebuild a build's
# objects).  Source it after common.sh; it only reads the build.

# kbuild_check KBUILD [SYMBOL WHAT]: dies (EX_USAGE) unless KBUILD is a
# directory with a finished build: a .config whose header names the
# architecture and version ("# Linux/arm64 6.12.117 Kernel
# Configuration"), or with SYMBOL, one that sets SYMBOL=y (else "not WHAT
# kernel build", WHAT as "an arm64"), and a vmlinux.  Sets KB_DIR (absolute, symlinks
# resolved), KB_ARCH and KB_VERSION (from the header, empty without one).
kbuild_check() {
	local kb=$1 symbol=${2:-} what=${3:-} hdr
	[ -d "$kb" ] || die "$EX_USAGE" "$kb: no such directory"
	kb=$(cd "$kb" && pwd -P)
	hdr=$(sed -n 's/^# Linux\/\([^ ]*\) \([^ ]*\) Kernel Configuration$/\1 \2/p' "$kb/.config" 2>/dev/null | head -n 1 || true)
	if [ -n "$symbol" ]; then
		grep -qx "$symbol=y" "$kb/.config" 2>/dev/null ||
			die "$EX_USAGE" "$kb: not $what kernel build (no $symbol=y in .config)"
	else
		[ -n "$hdr" ] || die "$EX_USAGE" "$kb: not a kernel build directory (no .config with a 'Linux/ARCH VERSION' header)"
	fi
	[ -f "$kb/vmlinux" ] || die "$EX_USAGE" "$kb: no vmlinux (the build did not finish)"
	KB_DIR=$kb KB_ARCH='' KB_VERSION=''
	if [ -n "$hdr" ]; then
		KB_ARCH=${hdr%% *} KB_VERSION=${hdr#* }
	fi
}

# kbuild_srctree KBUILD: the source tree KBUILD was built from (absolute):
# the target of KBUILD/source, else the tree whose Makefile KBUILD/Makefile
# includes, else KBUILD itself (built in the tree).  Fails when the tree
# is gone.
kbuild_srctree() {
	local kb=$1 inc
	if [ -L "$kb/source" ]; then
		(cd "$kb/source" 2>/dev/null && pwd -P) || return 1
	elif inc=$(sed -n 's/^include \(\/.*\)\/Makefile$/\1/p' "$kb/Makefile" 2>/dev/null) && [ -n "$inc" ]; then
		(cd "$inc" 2>/dev/null && pwd -P) || return 1
	else
		echo "$kb"
	fi
}

# kbuild_cmd_field CMDFILE KEY: the value of "KEY_OBJECT := VALUE" in a
# .cmd file of kbuild (savedcmd, source), trailing white space removed.
kbuild_cmd_field() { sed -n "s/^$2_[^ ]* := //p" "$1" | sed 's/[[:space:]]*$//'; }
