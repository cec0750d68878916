#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/deps on a machine where everything is there ('make test' ran it
# first): a run that found nothing to do leaves build/.deps-stamp, and the
# next run with nothing changed reads no apt or dpkg at all; without the
# stamp it checks again, and writes the same stamp.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# apt_logged: apt-cache, apt-get and dpkg-query, each call logged to
# $TEST_DIR/ran, then run as they are.
apt_logged() {
	local c
	for c in apt-cache apt-get dpkg-query; do
		stand_in "$c" "echo $c >>\"$TEST_DIR/ran\"" "exec $(command -v "$c") \"\$@\""
	done
	: >"$TEST_DIR/ran"
}

test_lazy_prereq DEPS_DONE '"$SCRIPTS/deps" --list | grep -q . && echo "packages missing: run make deps" && exit 1; exit 0'

test_expect_success DEPS_DONE 'nothing changed: up to date, no apt-cache, apt-get or dpkg-query run' '
	expect_exit 0 deps &&
	apt_logged &&
	PATH=$TEST_DIR/bin:$PATH expect_exit 0 deps &&
	grep -q "^deps: up to date" "$TEST_DIR/stderr" &&
	[ ! -s "$TEST_DIR/ran" ]
'

test_expect_success DEPS_DONE 'the stamp is what it trusts: without it the packages are checked again' '
	expect_exit 0 deps &&
	cp "$TOP/build/.deps-stamp" "$TEST_DIR/stamp" && rm "$TOP/build/.deps-stamp" &&
	apt_logged &&
	PATH=$TEST_DIR/bin:$PATH expect_exit 0 deps &&
	! grep -q "up to date" "$TEST_DIR/stderr" &&
	grep -qx dpkg-query "$TEST_DIR/ran" && grep -qx apt-cache "$TEST_DIR/ran" &&
	cmp "$TEST_DIR/stamp" "$TOP/build/.deps-stamp"
'

test_expect_success DEPS_DONE 'a target table'"'"'s PACKAGES: wanted when the target is named, not otherwise; a default target adds none' '
	tt=$TEST_DIR/targets && mkdir -p "$tt" &&
	cp "$TOP/configs/targets/x86_64.conf" "$tt/" &&
	{ cat "$TOP/configs/targets/x86_64.conf"; echo DEFAULT=no; echo "PACKAGES=\"kernel-overlay-no-such-package\""; } >"$tt/fake.conf" &&
	TARGET_TABLES=$tt expect_exit 0 deps --list &&
	[ ! -s "$TEST_DIR/stdout" ] &&
	TARGET_TABLES=$tt expect_exit 0 deps --list --targets x86_64 &&
	[ ! -s "$TEST_DIR/stdout" ] &&
	TARGET_TABLES=$tt expect_exit 0 deps --list --targets "x86_64 fake" &&
	expect_eq "$(cat "$TEST_DIR/stdout")" kernel-overlay-no-such-package missing &&
	TARGET_TABLES=$tt expect_exit 2 deps --list --targets nosuch &&
	expect_one_line_error "unknown target .nosuch."
'

test_done
