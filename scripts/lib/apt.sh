# shellcheck shell=bash
# Debian's archive, as this machine is configured for it: the archive URI
# of the configured sources (never a host name written here), and a
# private apt state for suites of newer releases, through which packages
# are downloaded and unpacked, never installed on the host.  Source it
# after common.sh.

APT_SOURCES_DIR=${APT_SOURCES_DIR:-/etc/apt/sources.list.d}
APT_SOURCES_LIST=${APT_SOURCES_LIST:-/etc/apt/sources.list}

# apt_codename: the host's release (bookworm).
apt_codename() { (. /etc/os-release && echo "${VERSION_CODENAME:-}"); }

# apt_base_uri: the archive URI of the configured source for the host's
# release itself (deb822 files first, then one-line entries), or nothing.
apt_base_uri() {
	local c
	c=$(apt_codename)
	{
		awk -v c="$c" 'BEGIN { RS = "" }
			$0 ~ "Suites:[^\n]*[ \t]" c "([ \t\n]|$)" && match($0, /URIs:[ \t]*[^ \t\n]+/) {
				u = substr($0, RSTART, RLENGTH); sub(/URIs:[ \t]*/, "", u); print u }' \
			"$APT_SOURCES_DIR"/*.sources 2>/dev/null || true
		awk -v c="$c" '$1 == "deb" { sub(/^deb[ \t]+(\[[^]]*\][ \t]+)?/, "")
			if ($2 == c) print $1 }' "$APT_SOURCES_LIST" "$APT_SOURCES_DIR"/*.list 2>/dev/null || true
	} | head -1
}

# apt_private [--src] SUITE...: a private apt state for SUITEs of the host's
# archive under build/apt/SUITES (its own lists, cache and sources; the
# host's dpkg status, so nothing is "installed" there), updated now; the
# options that select it in APT_PRIVATE_OPTS.  --src: their source
# packages (deb-src) instead, under build/apt/src-SUITES.  Release files past their Valid-Until date
# are accepted, on purpose and only here: the archive serves some suites
# with stale ones, and the packages are still checked against the signed
# Release file's hashes.
apt_private() {
	local uri dir types=deb prefix=''
	if [ "${1:-}" = --src ]; then
		types=deb-src prefix=src-
		shift
	fi
	uri=$(apt_base_uri)
	[ -n "$uri" ] || die "$EX_FAIL" "no apt source for $(apt_codename) to take the archive URI from"
	dir=$BUILD/apt/$prefix$(printf '%s-' "$@" | sed 's/-$//')
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial" "$dir/etc/sources.list.d" \
		"$dir/etc/preferences.d" "$dir/etc/apt.conf.d"
	: >"$dir/etc/sources.list"
	printf 'Types: %s\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
		"$types" "$uri" "$*" >"$dir/etc/sources.list.d/overlay.sources"
	APT_PRIVATE_OPTS=(-o "Dir::State=$dir" -o "Dir::State::Lists=$dir/lists"
		-o Dir::State::status=/var/lib/dpkg/status -o "Dir::Cache=$dir/cache"
		-o "Dir::Etc::sourcelist=$dir/etc/sources.list" -o "Dir::Etc::sourceparts=$dir/etc/sources.list.d"
		-o "Dir::Etc::preferencesparts=$dir/etc/preferences.d" -o "Dir::Etc::parts=$dir/etc/apt.conf.d"
		-o Acquire::Check-Valid-Until=false -o APT::Sandbox::User=root)
	run apt-get -q "${APT_PRIVATE_OPTS[@]}" update >&2 ||
		die "$EX_FAIL" "apt-get update of $* (private state $dir) failed"
}

# apt_candidate PACKAGE: its candidate version in the private state, or
# nothing when the suites do not have it.
apt_candidate() {
	apt-cache "${APT_PRIVATE_OPTS[@]}" policy "$1" 2>/dev/null |
		awk '$1 == "Candidate:" && $2 != "(none)" { print $2; exit }'
}

# apt_fetch PACKAGE VERSION DIR: download PACKAGE=VERSION (checked by apt
# against the archive) into DIR and unpack it with dpkg-deb -x into
# DIR/root; prints DIR/root.  Nothing is installed.
apt_fetch() {
	local pkg=$1 version=$2 dir=$3 deb
	mkdir -p "$dir"
	rm -f "$dir/${pkg}_"*.deb
	# apt-get download writes to the current directory.
	(cd "$dir" && run apt-get -q "${APT_PRIVATE_OPTS[@]}" download "$pkg=$version" >&2) ||
		die "$EX_FAIL" "apt-get download $pkg=$version failed"
	deb=$(echo "$dir/${pkg}_"*.deb)
	[ -f "$deb" ] || die "$EX_FAIL" "apt-get download $pkg=$version left no .deb in $dir"
	rm -rf "$dir/root"
	run dpkg-deb -x "$deb" "$dir/root" >&2 || die "$EX_FAIL" "dpkg-deb -x $deb failed"
	echo "$dir/root"
}

# apt_source_file PACKAGE VERSION SUFFIX DIR: download the file of source
# package PACKAGE=VERSION whose name ends with SUFFIX (.orig.tar.xz, say)
# into DIR with apt-get source --download-only, in a private state made
# with apt_private --src; prints its path.  apt checks each file it
# fetches against the signed Sources index, and the file is checked here
# again against the index's SHA-256: a backport's .dsc may not be served
# while its orig tarball is, so apt-get's own exit status is not the test.
apt_source_file() {
	local pkg=$1 version=$2 suffix=$3 dir=$4 want f name
	want=$(apt-cache "${APT_PRIVATE_OPTS[@]}" showsrc "$pkg" 2>/dev/null |
		awk -v v="$version" -v s="$suffix" '/^$/ { ver = "" } /^Version: / { ver = $2 }
			/^Checksums-Sha256:/ { on = 1; next } /^[^ ]/ { on = 0 }
			on && ver == v && NF == 3 && length($3) > length(s) && substr($3, length($3) - length(s) + 1) == s {
				print $1, $3; exit }')
	[ -n "$want" ] || die "$EX_FAIL" "the archive has no source $pkg=$version with a file *$suffix"
	name=${want#* } f=$dir/$name
	mkdir -p "$dir"
	if [ "$({ sha256sum <"$f"; } 2>/dev/null | cut -d' ' -f1)" != "${want%% *}" ]; then
		(cd "$dir" && LC_ALL=C run apt-get -q "${APT_PRIVATE_OPTS[@]}" source --download-only "$pkg=$version" >&2) || true
		[ "$({ sha256sum <"$f"; } 2>/dev/null | cut -d' ' -f1)" = "${want%% *}" ] ||
			die "$EX_FAIL" "apt-get source $pkg=$version: no $name with the archive's SHA-256 in $dir"
	fi
	echo "$f"
}
