#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# scripts/lib/common.sh: opt_parse, every command's option loop, and the
# progress lines: progress_ticker, the heartbeat of a long kernel build
# (build-kernel), says how far the build is every period and ends with the
# script that started it.  And scripts/lib/results.sh's inputs_project:
# from its one snapshot of the project, the same lines as from git.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# lib CODE: CODE run by bash with the project's library sourced (PROG=lib).
lib() {
	PROG=lib bash -c '. "$TOP/scripts/lib/common.sh"; set -euo pipefail; eval "$1"' _ "$1"
}
export -f lib

# opts ARG...: a command (PROG=opts) whose table has an option of each
# kind, run on ARG...: what it was given, one line a variable, an element
# of its array (list:) and an argument (arg:).
opts() {
	PROG=opts bash -c '
		. "$TOP/scripts/lib/common.sh"
		set -euo pipefail
		usage() { echo "Usage: opts [--flag] [--boards] [--ping] [--value V] [--list V]... [--call V] [ARG...]"; }
		seen() { called+="<$*>"; }
		flag=0 kind=target value=default list=() called=""
		opt_parse "
			--flag		flag
			--boards	kind=board
			--ping		seen()
			--value=	value
			--list=		list+
			--call=		seen()
		" "$@"
		echo "flag=$flag kind=$kind value=$value called=$called"
		for v in ${list[@]+"${list[@]}"}; do echo "list:$v"; done
		for v in ${OPT_ARGS[@]+"${OPT_ARGS[@]}"}; do echo "arg:$v"; done
	' opts "$@"
}
export -f opts

# stderr_is LINE: the stderr of the last expect_exit is LINE, exactly.
stderr_is() { expect_eq "$(cat "$TEST_DIR/stderr")" "$1" stderr; }
export -f stderr_is

test_expect_success 'opt_parse: no arguments, the defaults' '
	expect_exit 0 opts &&
	expect_eq "$(cat "$TEST_DIR/stdout")" "flag=0 kind=target value=default called=" stdout
'

test_expect_success 'opt_parse: flags, --name VALUE and --name=VALUE, an array, callbacks; the arguments in order' '
	expect_exit 0 opts a --flag --value v1 - --list 1 --list=2 --boards b --ping --call c1 --value=v2=x c &&
	expect_eq "$(cat "$TEST_DIR/stdout")" "flag=1 kind=board value=v2=x called=<><c1>
list:1
list:2
arg:a
arg:-
arg:b
arg:c" stdout &&
	expect_eq "$(cat "$TEST_DIR/stderr")" "" stderr
'

test_expect_success 'opt_parse: a value may be empty or start with "-", unless it is an option of the table' '
	expect_exit 0 opts --value "" x &&
	expect_eq "$(head -n 1 "$TEST_DIR/stdout")" "flag=0 kind=target value= called=" "empty value" &&
	expect_eq "$(tail -n 1 "$TEST_DIR/stdout")" "arg:x" "after an empty value" &&
	expect_exit 0 opts --list "-- --workload=x" --list -1 --value= --call --frob &&
	expect_eq "$(cat "$TEST_DIR/stdout")" "flag=0 kind=target value= called=<--frob>
list:-- --workload=x
list:-1" "values with a dash" &&
	for v in --flag --boards=x --list --list=1 --value -h --help; do
		expect_exit 2 opts --value "$v" && stderr_is "opts: error: --value needs a value" || return 1
		expect_eq "$(cat "$TEST_DIR/stdout")" "" "stdout of --value $v"
	done &&
	expect_exit 2 opts x --list && stderr_is "opts: error: --list needs a value" &&
	expect_exit 2 opts --call && stderr_is "opts: error: --call needs a value"
'

test_expect_success 'opt_parse: "--" ends the options, the rest are arguments' '
	expect_exit 0 opts --flag -- --value x --help -h -- &&
	expect_eq "$(cat "$TEST_DIR/stdout")" "flag=1 kind=target value=default called=
arg:--value
arg:x
arg:--help
arg:-h
arg:--" stdout &&
	expect_exit 0 opts --value -- -- --flag &&
	expect_eq "$(cat "$TEST_DIR/stdout")" "flag=0 kind=target value=-- called=
arg:--flag" "a value --, then the end of the options"
'

test_expect_success 'opt_parse: an unknown option, a value to a flag: one line, exit 2, nothing done' '
	for o in --frob -x --fla --flags --value2=1 ---flag; do
		expect_exit 2 opts a "$o" --flag && stderr_is "opts: error: unknown option $o (see --help)" || return 1
		expect_eq "$(cat "$TEST_DIR/stdout")" "" "stdout of $o"
	done &&
	expect_exit 2 opts --flag=1 && stderr_is "opts: error: --flag takes no value" &&
	expect_exit 2 opts --ping= && stderr_is "opts: error: --ping takes no value"
'

test_expect_success 'opt_parse: -h and --help print the usage and exit 0, in their turn among the options' '
	for h in -h --help; do
		expect_exit 0 opts a --flag "$h" --frob --value &&
		expect_eq "$(cat "$TEST_DIR/stdout")" "$(opts --help)" "stdout of $h" &&
		grep -q "^Usage: opts " "$TEST_DIR/stdout" &&
		expect_eq "$(cat "$TEST_DIR/stderr")" "" "stderr of $h" || return 1
	done &&
	expect_exit 2 opts --frob --help && expect_one_line_error "unknown option --frob"
'

test_expect_success 'opt_arg: the one argument, or none; a second one is an error' '
	expect_exit 0 lib "usage() { :; }; t=old; opt_parse \"\" -- -x; opt_arg t tree; echo \"t=\$t\"" &&
	expect_eq "$(cat "$TEST_DIR/stdout")" "t=-x" "one argument" &&
	expect_exit 0 lib "usage() { :; }; t=old; opt_parse \"\"; opt_arg t tree; echo \"t=\$t\"" &&
	expect_eq "$(cat "$TEST_DIR/stdout")" "t=" "no argument" &&
	expect_exit 2 lib "usage() { :; }; t=old; opt_parse \"\" a \"b c\"; opt_arg t \"build directory\"; echo \"t=\$t\"" &&
	stderr_is "lib: error: more than one build directory given: a, b c" &&
	expect_eq "$(cat "$TEST_DIR/stdout")" "" stdout
'

test_expect_success 'opt_no_args: for a command without arguments, the first one is an error' '
	expect_exit 0 lib "usage() { :; }; f=0; opt_parse \"--f f\" --f; opt_no_args; echo \"f=\$f\"" &&
	expect_eq "$(cat "$TEST_DIR/stdout")" "f=1" stdout &&
	expect_exit 2 lib "usage() { :; }; f=0; opt_parse \"--f f\" x --f; opt_no_args; echo \"f=\$f\"" &&
	stderr_is "lib: error: unknown argument x (see --help)" &&
	expect_eq "$(cat "$TEST_DIR/stdout")" "" stdout
'

test_expect_success 'progress_ticker: a progress line per period with the objects so far, none after a kill' '
	d=$TEST_DIR/obj && mkdir -p "$d/lib" && touch "$d/a.o" "$d/lib/b.o" "$d/lib/c.c" &&
	PROGRESS_EVERY=1 expect_exit 0 lib "t=\$(progress_ticker \"$d\" \"build Image\" arm64); sleep 2.5; kill \$t; sleep 1.5" &&
	n=$(grep -c "^\[ *[0-9]*s\] lib: build Image: 2 objects so far (arm64)$" "$TEST_DIR/stderr") &&
	[ "$n" -ge 1 ] && [ "$n" -le 3 ] || fail "$n progress lines in: $(cat "$TEST_DIR/stderr")" &&
	expect_eq "$(grep -vc "objects so far" "$TEST_DIR/stderr")" 0 "other lines"
'

test_expect_success 'progress_ticker: ends by itself when the script that started it is gone' '
	d=$TEST_DIR/obj &&
	PROGRESS_EVERY=1 expect_exit 0 lib "progress_ticker \"$d\" build >\"$TEST_DIR/pid\"" &&
	sleep 2.5 &&
	# A zombie that PID 1 has not reaped yet is gone too.
	st=$(ps -o stat= -p "$(cat "$TEST_DIR/pid")" || true) &&
	case $st in "" | Z*) ;; *) fail "the ticker outlived its script ($st)" ;; esac
'

# A reader of the script's stderr (a pipe, a command substitution) waits
# for every writer: nothing of the ticker may outlive its kill.
test_expect_success 'progress_ticker: killed, it leaves no sleep behind (that would hold the stderr pipe)' '
	PROGRESS_EVERY=37.25 lib "t=\$(progress_ticker \"$TEST_DIR/obj\" build); sleep 0.5; kill \$t" 2>/dev/null &&
	sleep 0.5 &&
	expect_eq "$(pgrep -fx "sleep 37.25" || true)" "" "sleeps left"
'

# A project of its own (its TOP is where its scripts/lib is): tracked and
# untracked files, a name with a space; each call's lines from git, then
# from the snapshot.
test_expect_success 'inputs_project: from its snapshot, the lines git gives, for files, directories, ., a glob' '
	p=$TEST_DIR/proj && mkdir -p "$p/scripts" "$p/d/e" && cp -r "$TOP/scripts/lib" "$p/scripts/" &&
	echo a >"$p/d/b" && echo b >"$p/d/e/b c" && echo c >"$p/z" &&
	git -C "$p" init -q && git -C "$p" add scripts d/b z &&
	echo u >"$p/d/a" && echo v >"$p/y" &&
	cat >"$TEST_DIR/calls" <<-\EOT &&
	. "$1/scripts/lib/common.sh"
	set -euo pipefail
	lib_use results
	calls() {
		for spec in d d/ z y "d/e/b c" . no/such "d/*"; do
			echo "== $spec"; inputs_project "$spec"
		done
		echo "== several"; inputs_project z d/b d scripts/lib
	}
	calls >"$2/git.out"
	inputs_project_snapshot
	calls >"$2/snapshot.out"
	EOT
	bash "$TEST_DIR/calls" "$p" "$TEST_DIR" &&
	grep -q "^project d/e/b c [0-9a-f]\{16\}$" "$TEST_DIR/git.out" &&
	grep -q "^project d/a [0-9a-f]\{16\}$" "$TEST_DIR/git.out" &&
	expect_eq "$(diff "$TEST_DIR/git.out" "$TEST_DIR/snapshot.out")" "" "snapshot against git"
'

test_done
