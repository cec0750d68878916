#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# The real-object comparison of t0130 with GCC 16.2, the compiler the
# ARMv5 regression was reported with (the toolchain root's, which make
# deps makes), on the report's objects: crypto/crc32c.o, whose
# chksum_digest() calls memcpy() with the 7.0 form, and the i.MX25 board's
# NAND driver.  Builds go to build/objects-gcc-16/ and are reused.  The
# builds are make test-long's (about 200 s cold): make test keeps GCC 16 on
# the probes (t0120) and GCC 12 on these objects (t0130); 'make
# evidence-armv5 TOOLCHAIN=gcc-16' compares the whole kernel's.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

test_expect_success LONG,TOOLROOT_GCC16 'GCC 16.2: the rework is the packed form in each object; the memcpy() form adds calls, chksum_digest() among them' '
	objects-armv5 --toolchain gcc-16 --objects "crypto/crc32c.o drivers/mtd/nand/raw/nand_base.o" \
		--json "$TEST_DIR/objects.json" "$TOP/build/objects-gcc-16" >"$TEST_DIR/tap" 2>"$TEST_DIR/log" ||
		{ cat "$TEST_DIR/tap"; tail -20 "$TEST_DIR/log"; return 1; }
	cat "$TEST_DIR/tap"
	! grep -q "^not ok" "$TEST_DIR/tap" &&
	grep -q "^ok [0-9]* - crypto/crc32c.o: rework code identical to the packed form.s" "$TEST_DIR/tap" &&
	grep -q "^ok [0-9]* - crypto/crc32c: chksum_digest() calls memcpy() with the memcpy() form" "$TEST_DIR/tap" &&
	grep -q "^ok [0-9]* - the memcpy() form has the regression: [1-9][0-9]* objects gain calls" "$TEST_DIR/tap" &&
	jq -e ".compiler | test(\"gcc-16 .* 16\\\\.2\")" "$TEST_DIR/objects.json" >/dev/null ||
		fail "compiler in the JSON: $(jq -r .compiler "$TEST_DIR/objects.json")"
'

# The rework tree is made again when the series changes, whichever file
# of it changes (here only a message line): its sources are the series'.
test_expect_success LONG,TOOLROOT_GCC16 'a changed series makes the rework tree again; an unchanged one reuses it' '
	cp -r "$TOP/patches" "$TEST_DIR/patches" &&
	# A line more in the message of 0004 (before its ---): another series.
	sed -i "0,/^---\$/s//Cc: nobody@example.invalid\n&/" "$TEST_DIR/patches/mainline/0004-"*.patch &&
	! cmp -s "$TEST_DIR/patches/mainline/0004-"*.patch "$TOP/patches/mainline/0004-"*.patch &&
	for run in changed same; do
		PATCHES_DIR=$TEST_DIR/patches objects-armv5 --toolchain gcc-16 --objects "crypto/crc32c.o drivers/mtd/nand/raw/nand_base.o" \
			--json "$TEST_DIR/$run.json" "$TOP/build/objects-gcc-16" >"$TEST_DIR/$run.tap" 2>"$TEST_DIR/$run.log" ||
			{ tail -20 "$TEST_DIR/$run.log"; return 1; }
	done &&
	grep -q "^+ .*/scripts/apply --base mainline .*/src/rework$" "$TEST_DIR/changed.log" &&
	! grep -q "scripts/apply" "$TEST_DIR/same.log" &&
	! grep -q "^not ok" "$TEST_DIR/same.tap"
'

# The root's compiler sees each path of TOOLCHAIN_ROOT_BINDS, also when
# the current directory is below one (a build's O= directory in OUT,
# bound first: a path that begins with OUT's was taken for OUT once, and
# OUT itself was left out).
test_expect_success TOOLROOT_GCC16 'the root compiler sees a bound directory from a current directory below it' '
	# Outside the project and TMPDIR, which the root always sees.
	d=$(mktemp -d /var/tmp/t0131.XXXXXX) && mkdir -p "$d/here/obj" "$d/here/src" &&
	echo "int bound;" >"$d/here/src/a.c" &&
	(cd "$d/here/obj" && TOOLCHAIN_ROOT_BINDS=$d "$TOP/build/toolchain-root/gcc-16/bin/arm-linux-gnueabi-gcc" \
		-c "$d/here/src/a.c" -o a.o) &&
	test -s "$d/here/obj/a.o" && rm -rf "$d"
'

test_done
