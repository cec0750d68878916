#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# QEMU's TCG plugins (scripts/bench/qemu-plugins) are built from the source
# of the QEMU installed here, and refused for a source or an installation of
# another version, nothing built; on the 7.3 x86_64 kernel of the boot
# tests, the insn-profile plugin and scripts/bench/profile give guest
# instructions per pread() from /dev/zero by function, counted in the
# program's timed window (window=, its getppid() calls), which add up to
# the icount figure, and contrib's cache model (with cache-window.patch)
# its misses per pread() in that window; end= ends QEMU where it says; a spin
# planted in read_zero() shows as read_zero()'s own change, the largest in
# the kernel (the program's own user-space code changes too: it waits on
# a clock that the spin moves).
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

kb=''
! kbuild_prereq 7.3 x86_64 || kb=$KBUILD_DIR
work=$TOP/build/work/linux-7.3
version=$(LC_ALL=C qemu-system-x86_64 --version | sed -n 's/^QEMU emulator version \([0-9.]*\).*/\1/p')
# The model of the cache case: a 32 KiB 8-way L1 of 64-byte lines, I and D.
CACHE=icachesize=32768,iassoc=8,iblksize=64,dcachesize=32768,dassoc=8,dblksize=64,evict=lru,limit=1
export kb work version CACHE

# every_qemu VERSION: stand-ins for the QEMUs qemu-plugins checks, all of
# VERSION.
every_qemu() {
	local q
	for q in qemu-system-x86_64 qemu-system-arm qemu-system-aarch64 qemu-system-s390x; do
		stand_in "$q" "echo 'QEMU emulator version $1 (Debian 1:$1+ds-1)'" || return 1
	done
}
export -f every_qemu

test_expect_success '--help; an unknown argument, a --source that is not there' '
	expect_exit 0 qemu-plugins --help &&
	grep -q "^Usage: scripts/bench/qemu-plugins" "$TEST_DIR/stdout" &&
	expect_exit 2 qemu-plugins extra &&
	expect_one_line_error "unknown argument extra" &&
	expect_exit 2 qemu-plugins --source "$TEST_DIR/none.tar.xz" &&
	expect_one_line_error "no such file"
'

test_expect_success 'the plugins of the installed QEMU, from its Debian source; a second run builds nothing' '
	expect_exit 0 qemu-plugins &&
	dir=$(cat "$TEST_DIR/stdout") &&
	expect_eq "$dir" "$TOP/build/qemu-plugins/$version" directory &&
	j=$dir/plugins.json &&
	expect_eq "$(jq -r .qemu.version "$j")" "$version" "the version built for" &&
	tarball=$TOP/build/qemu-plugins/src/$(jq -r .source.tarball "$j") &&
	[[ $(basename "$tarball") == qemu_$version+*.orig.tar.xz ]] &&
	expect_eq "$(sha256sum <"$tarball" | cut -d" " -f1)" "$(jq -r .source.sha256 "$j")" "the tarball'"'"'s SHA-256" &&
	for p in cache hotblocks insn-profile store-align fetch-lines; do
		jq -e --arg p "$p" "any(.plugins[]; .name == \$p)" "$j" >/dev/null || fail "$p not in plugins.json"
		test -f "$dir/lib$p.so" || fail "no lib$p.so"
	done &&
	cp "$j" "$TEST_DIR/before.json" &&
	expect_exit 0 qemu-plugins &&
	! grep -q "build the plugins" "$TEST_DIR/stderr" &&
	cmp "$j" "$TEST_DIR/before.json"
'

test_expect_success 'a source of another version is refused in one line; the plugins built stay' '
	mkdir -p "$TEST_DIR/fake/qemu-9.9.9/contrib/plugins" &&
	echo 9.9.9 >"$TEST_DIR/fake/qemu-9.9.9/VERSION" &&
	tar -C "$TEST_DIR/fake" -cJf "$TEST_DIR/qemu_9.9.9+ds.orig.tar.xz" qemu-9.9.9 &&
	dir=$TOP/build/qemu-plugins/$version && sum=$(md5sum "$dir"/*.so "$dir"/plugins.json | md5sum) &&
	expect_exit 1 qemu-plugins --source "$TEST_DIR/qemu_9.9.9+ds.orig.tar.xz" &&
	expect_one_line_error "qemu_9\.9\.9\+ds\.orig\.tar\.xz is QEMU 9\.9\.9, the installed qemu-system-x86_64 is $version: not building plugins for another version" &&
	expect_eq "$(md5sum "$dir"/*.so "$dir"/plugins.json | md5sum)" "$sum" "the built plugins" &&
	test ! -e "$TOP/build/qemu-plugins/9.9.9"
'

test_expect_success 'an installed QEMU of another version than the source is refused; so are two versions installed' '
	tarball=$TOP/build/qemu-plugins/src/$(jq -r .source.tarball "$TOP/build/qemu-plugins/$version/plugins.json") &&
	every_qemu 9.2.0 &&
	PATH=$TEST_DIR/bin:$PATH expect_exit 1 qemu-plugins --source "$tarball" &&
	expect_one_line_error "\.orig\.tar\.xz is QEMU $version, the installed qemu-system-x86_64 is 9\.2\.0: not building plugins for another version" &&
	rm "$TEST_DIR/bin/qemu-system-x86_64" &&
	PATH=$TEST_DIR/bin:$PATH expect_exit 1 qemu-plugins &&
	expect_one_line_error "qemu-system-arm is QEMU 9\.2\.0 \(1:9\.2\.0\+ds-1\), qemu-system-x86_64 is $version" &&
	test ! -e "$TOP/build/qemu-plugins/9.2.0"
'

# pread_boot NAME OBJ N PLUGIN...: OBJ's kernel booted under icount, the
# init running pread_zero's N pread()s of 100 KiB alone, with the plugins
# (PROFILE_ARGS: more arguments of insn-profile's); the insn-profile output
# in NAME.prof.
pread_boot() {
	local name=$1 obj=$2 n=$3 d
	shift 3
	d=$(cat "$TEST_DIR/plugins") || return 1
	boot --icount --no-retry --expect workloads --target x86_64 --obj "$obj" --initrd "$TEST_DIR/guest/initramfs.cpio" \
		--out "$TEST_DIR/$name" --json "$TEST_DIR/$name.json" \
		--append "kunit.enable=0 -- --workloads-only --workload=pread_zero:-i:-s:102400:-n:$n" \
		--plugin "$d/libinsn-profile.so,out=$TEST_DIR/$name.prof${PROFILE_ARGS:-}" "$@" >/dev/null 2>"$TEST_DIR/$name.log" ||
		{ tail -5 "$TEST_DIR/$name.log"; return 1; }
}
export -f pread_boot

test_expect_success KBUILD_7_3_x86_64 'the guest: the init and pread_zero in one initramfs' '
	qemu-plugins >"$TEST_DIR/plugins" 2>/dev/null &&
	build-init x86_64 "$TEST_DIR/guest" >/dev/null 2>&1 &&
	build-workloads x86_64 "$TEST_DIR/guest/bin" >"$TEST_DIR/programs" 2>/dev/null &&
	mkinitramfs --bin "$TEST_DIR/guest/bin/pread_zero" "$TEST_DIR/guest/init" "$TEST_DIR/guest/initramfs.cpio" >/dev/null 2>&1
'

test_expect_success KBUILD_7_3_x86_64 'a profile by function of the timed window: 400 pread()s, the icount figure, clearing on top' '
	window=$(awk "\$3 ~ /^(__[a-z0-9]+_)?sys_getppid\$/ { print \"0x\" \$1 }" "$kb/System.map" | sort -u) &&
	expect_eq "$(wc -w <<<"$window")" 1 "entries of getppid" &&
	pread_boot p20 "$kb" 20 &&
	PROFILE_ARGS=,window=$window pread_boot p400 "$kb" 400 --plugin "$(cat "$TEST_DIR/plugins")/libcache.so,$CACHE,window=$window" &&
	grep -qx "window 2" "$TEST_DIR/p400.prof" || fail "insn-profile: $(grep "^window" "$TEST_DIR/p400.prof")" &&
	expect_exit 0 profile --map "$kb/System.map" --ops 400 --json "$TEST_DIR/per-pread.json" "$TEST_DIR/p400.prof" &&
	icount=$(jq -r ".workloads[0].value" "$TEST_DIR/p400.json") &&
	jq -e --argjson i "$icount" ".total > \$i * 0.998 and .total < \$i * 1.002" "$TEST_DIR/per-pread.json" >/dev/null ||
		fail "per pread: $(jq .total "$TEST_DIR/per-pread.json") instructions by the profile, $icount by icount" &&
	expect_eq "$(jq -r ".functions | to_entries | max_by(.value) | .key" "$TEST_DIR/per-pread.json")" rep_stos_alternative "the top function" &&
	note "per pread() of 100 KiB: $(jq -r "\"\(.total) instructions by the profile, \(.functions | to_entries | sort_by(-.value) | .[:2] | map(\"\(.key) \(.value)\") | join(\", \"))\"" "$TEST_DIR/per-pread.json"); $icount by icount" &&
	jq -e "(.functions | add) as \$s | (\$s - .total) | fabs < 0.01" "$TEST_DIR/per-pread.json" >/dev/null
'

test_expect_success KBUILD_7_3_x86_64 'a cache figure of the window: the D-misses per pread() are the 1600 64-byte lines it clears and a few, the I-misses about none' '
	read -r _ _ dm _ im _ toggles < <(grep "^window " "$TEST_DIR/p400/plugin.log") &&
	expect_eq "$toggles" 2 "the cache plugin'"'"'s window toggles" &&
	d=$((dm / 400)) i=$((im / 400)) &&
	note "per pread() of 100 KiB: $d D-misses, $i I-misses (32 KiB 8-way L1s, 64-byte lines)" &&
	test "$d" -ge 1600 && test "$d" -lt 1700 &&
	test "$i" -ge 0 && test "$i" -lt 100 &&
	total=$(awk "/^core #/ { getline; print \$3; exit }" "$TEST_DIR/p400/plugin.log") &&
	test "$total" -gt "$dm" || fail "the whole boot'"'"'s D-misses ($total) are not more than the window'"'"'s ($dm)"
'

test_expect_success KBUILD_7_3_x86_64 'end= ends QEMU where the guest enters kernel_restart(): nothing after it counts, what came before does' '
	restart=$(awk "\$3 == \"kernel_restart\" { print \"0x\" \$1 }" "$kb/System.map") &&
	d=$(cat "$TEST_DIR/plugins") &&
	boot --icount --no-retry --expect workloads --target x86_64 --obj "$kb" --initrd "$TEST_DIR/guest/initramfs.cpio" \
		--out "$TEST_DIR/ended" --json "$TEST_DIR/ended.json" \
		--append "kunit.enable=0 -- --workloads-only --workload=pread_zero:-i:-s:102400:-n:20" \
		--plugin "$d/libinsn-profile.so,out=$TEST_DIR/ended.prof,end=$restart" >/dev/null 2>"$TEST_DIR/ended.log" &&
	grep -q "insn-profile: the guest reached end=, QEMU exits" "$TEST_DIR/ended/plugin.log" &&
	expect_exit 0 profile --map "$kb/System.map" --json "$TEST_DIR/ended-profile.json" "$TEST_DIR/ended.prof" &&
	expect_exit 0 profile --map "$kb/System.map" --json "$TEST_DIR/p20-profile.json" "$TEST_DIR/p20.prof" &&
	expect_eq "$(jq -r ".functions.machine_restart // 0" "$TEST_DIR/ended-profile.json")" 0 "machine_restart() with end=" &&
	jq -e ".functions.kernel_restart > 0" "$TEST_DIR/ended-profile.json" >/dev/null ||
		fail "kernel_restart() not counted with end=" &&
	jq -e ".functions.machine_restart > 0" "$TEST_DIR/p20-profile.json" >/dev/null ||
		fail "machine_restart() not counted without end=: the comparison shows nothing" &&
	jq -e --argjson v "$(jq ".workloads[0].value" "$TEST_DIR/p20.json")" ".workloads[0].value | . > \$v * 0.99 and . < \$v * 1.01" "$TEST_DIR/ended.json" >/dev/null ||
		fail "the workload figure with end= is not the one without"
'

test_expect_success KBUILD_7_3_x86_64,MOUNT_NS 'a spin planted in read_zero() is read_zero()'"'"'s change, the kernel'"'"'s largest' '
	tree=$TEST_DIR/planted-tree obj=$TEST_DIR/planted-obj &&
	"$SCRIPTS/copy-tree" --link "$work" "$tree" 2>/dev/null &&
	f=$tree/drivers/char/mem.c && detach "$f" &&
	awk "/^static ssize_t read_zero\\(/ { z = 1 } z && /^{/ { print; print \"\\t{ volatile unsigned int spin; for (spin = 0; spin < 1000; spin++) ; }\"; z = 0; next } { print }" \
		"$work/drivers/char/mem.c" >"$f" &&
	expect_eq "$(diff "$work/drivers/char/mem.c" "$f" | grep -c "^>")" 1 "lines planted" &&
	rm -rf "$obj" && cp -a "$kb" "$obj" &&
	unshare -m bash -c "mount --bind \"\$1\" \"\$2\" && mount --bind \"\$3\" \"\$4\" && \"\$5\" --target x86_64 \"\$2\"" \
		- "$tree" "$work" "$obj" "$kb" "$SCRIPTS/stages/build-kernel" >/dev/null 2>"$TEST_DIR/planted-build.log" &&
	pread_boot planted "$obj" 20 &&
	expect_exit 0 profile --map "$kb/System.map" --json "$TEST_DIR/a.json" "$TEST_DIR/p20.prof" &&
	expect_exit 0 profile --map "$obj/System.map" --json "$TEST_DIR/b.json" "$TEST_DIR/planted.prof" &&
	expect_exit 0 profile --compare --top 3 "$TEST_DIR/a.json" "$TEST_DIR/b.json" &&
	row=$(sed -n "3,\$p" "$TEST_DIR/stdout" | grep -v "^| (user) |" | head -1) &&
	[[ $row == "| read_zero | "* ]] || fail "the first row: $row" &&
	change=$(cut -d"|" -f5 <<<"$row" | tr -d " ") &&
	note "read_zero(): $change instructions more over 20 pread()s" &&
	test "${change%.*}" -ge $((20 * 1000 * 2))
'

test_done
