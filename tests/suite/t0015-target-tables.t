#!/usr/bin/env bash
# shellcheck disable=SC2016,SC2317 # test bodies are single-quoted strings, evaluated later
# The target and board tables through their one loader (scripts/lib/tables.sh,
# shown by scripts/targets): every shipped table loads, the schema's
# defaults apply, a bad table (unknown, duplicated, missing or empty key,
# a syntax error, code) is one error line naming the file, the line and
# the key and runs nothing, the toolchain resolver takes only a toolchain
# of TOOLCHAINS, and the commands that read every table fail on a bad one.
# shellcheck source=tests/suite/test-lib.sh
. "$(dirname "$0")/test-lib.sh"

# The mandatory keys of configs/targets/SCHEMA and nothing else: line 10 is
# the first a test adds.
GOOD='ARCH=x86_64
FRAGMENTS="boot kunit"
IMAGE=arch/x86/boot/bzImage
INIT_CC=gcc
INIT_MACHINE="Advanced Micro Devices X86-64"
QEMU=qemu-system-x86_64
QEMU_MACHINE=q35
QEMU_CPU=qemu64
CONSOLE=ttyS0'
T=$TEST_DIR/targets
RAN=$TEST_DIR/ran
export T RAN
mkdir -p "$T"
printf '%s\n' "$GOOD" >"$T/good.conf"

# table NAME TEXT...: $T/NAME.conf, the good table with TEXT's lines
# after it (from line 10).
table() {
	local name=$1
	shift
	printf '%s\n' "$GOOD" "$@" >"$T/$name.conf"
}

# refused NAME PATTERN: loading table NAME is exit 2 and one error line
# matching PATTERN, and nothing of it ran.
refused() {
	TARGET_TABLES=$T expect_exit 2 targets "$1" &&
		expect_one_line_error "$2" &&
		expect_eq "$(cat "$TEST_DIR/stdout")" "" "stdout" &&
		{ [ ! -e "$RAN" ] || fail "the table ran code: $RAN exists"; }
}

test_expect_success 'every shipped table loads, with every key of its schema' '
	expect_exit 0 targets &&
	expect_eq "$(cat "$TEST_DIR/stdout")" "arm64
armv5
loongarch64
x86_64" "target tables" &&
	expect_exit 0 targets --boards &&
	expect_eq "$(cat "$TEST_DIR/stdout")" "arm64
armv5
loongarch64
x86_64" "board tables" &&
	nt=$(grep -cE "^[A-Z][A-Z0-9_]*(=|$)" "$TOP/configs/targets/SCHEMA") &&
	nb=$(grep -cE "^[A-Z][A-Z0-9_]*(=|$)" "$TOP/configs/boards/SCHEMA") &&
	[ "$nt" -ge 20 ] && [ "$nb" -ge 10 ] &&
	for t in arm64 armv5 loongarch64 x86_64; do
		expect_exit 0 targets "$t" &&
		expect_eq "$(wc -l <"$TEST_DIR/stdout")" "$nt" "$t: keys" &&
		expect_exit 0 targets --boards "$t" &&
		expect_eq "$(wc -l <"$TEST_DIR/stdout")" "$nb" "board $t: keys" || return 1
	done
'

test_expect_success 'DEFAULT=no: built only when named, not one of the defaults; --all lists it' '
	expect_exit 0 targets --all &&
	expect_eq "$(cat "$TEST_DIR/stdout")" "$(cd "$TOP/configs/targets" && printf "%s\n" *.conf | sed "s/\.conf\$//")" "every target table" &&
	grep -qx m68k "$TEST_DIR/stdout" &&
	expect_eq "$(targets armv5-imx25 DEFAULT)" no "armv5-imx25 DEFAULT" &&
	d=$TEST_DIR/defaults && mkdir -p "$d" &&
	printf "%s\n" "$GOOD" >"$d/a.conf" &&
	printf "%s\n" "$GOOD" "DEFAULT=no" >"$d/b.conf" &&
	printf "%s\n" "$GOOD" "DEFAULT=yes" >"$d/c.conf" &&
	expect_eq "$(TARGET_TABLES=$d targets)" "a
c" "default targets" &&
	expect_eq "$(TARGET_TABLES=$d targets --all)" "a
b
c" "all targets" &&
	printf "%s\n" "$GOOD" "DEFAULT=maybe" >"$d/b.conf" &&
	TARGET_TABLES=$d expect_exit 2 targets &&
	expect_one_line_error "defaults/b\.conf:10: DEFAULT: .maybe. is not yes or no"
'

test_expect_success 'LAVA_SETS_MACHINE other than yes or no, an END_MARKER that is no word: one line each' '
	d=$TEST_DIR/values && mkdir -p "$d" &&
	printf "%s\n" "$GOOD" "LAVA_SETS_MACHINE=maybe" >"$d/a.conf" &&
	TARGET_TABLES=$d expect_exit 2 targets a &&
	expect_one_line_error "values/a\.conf:10: LAVA_SETS_MACHINE: .maybe. is not yes or no" &&
	printf "%s\n" "$GOOD" "END_MARKER=" >"$d/a.conf" &&
	TARGET_TABLES=$d expect_exit 2 targets a &&
	expect_one_line_error "values/a\.conf:10: END_MARKER: .. is not a word" &&
	printf "%s\n" "$GOOD" "END_MARKER=A.B" >"$d/a.conf" &&
	TARGET_TABLES=$d expect_exit 2 targets a &&
	expect_one_line_error "values/a\.conf:10: END_MARKER: .A\.B. is not a word"
'

test_expect_success 'workload tables: every shipped one loads; a bad PROVES, TARGET, PROGRAM or REPRO is one line' '
	for w in $(cd "$TOP/configs/workloads" && ls *.conf | sed "s/\.conf\$//"); do
		bash -c ". \"\$TOP/scripts/lib/common.sh\" && . \"\$TOP/scripts/lib/tables.sh\" && declare -A w && workload_load \"\$1\" w && targets \"\${w[TARGET]}\" >/dev/null" - "$w" ||
			{ fail "workload table $w does not load"; return 1; }
	done &&
	w=$TEST_DIR/workloads && mkdir -p "$w" &&
	cp "$TOP/configs/workloads/pread-zero-arm64.conf" "$w/good.conf" &&
	sed "s/^PROVES=.*/PROVES=4/" "$w/good.conf" >"$w/p.conf" &&
	sed "s/^TARGET=.*/TARGET=nosuch/" "$w/good.conf" >"$w/t.conf" &&
	sed "s/^PROGRAM=.*/PROGRAM=fio/" "$w/good.conf" >"$w/g.conf" &&
	{ grep -v "^REPRO=" "$w/good.conf" && echo REPRO=nosuch; } >"$w/r.conf" &&
	for c in "good 0" "p 2 PROVES: .4. is not patch numbers" "t 2 TARGET: no target .nosuch." "g 2 PROGRAM: no tests/guest/workloads/fio\.c" \
		"r 2 REPRO: no patches/repro/LINE-nosuch\.patch"; do
		set -- $c &&
		name=$1 code=$2 && shift 2 &&
		WORKLOAD_TABLES=$w expect_exit "$code" bash -c ". \"\$TOP/scripts/lib/common.sh\" && . \"\$TOP/scripts/lib/tables.sh\" && declare -A w && workload_load \"\$1\" w" - "$name" || return 1
		[ "$code" = 0 ] || expect_one_line_error "workloads/$name\.conf:[0-9]+: $*" || return 1
	done
'

test_expect_success 'bench-icount: bad input is one line and exit 2, before any tree or build' '
	w=$TEST_DIR/wl-bad && mkdir -p "$w" &&
	sed "s/^CMDLINE=.*/CONFIG_FRAGMENTS=nosuch/" "$TOP/configs/workloads/pread-zero-arm64.conf" >"$w/frag.conf" &&
	WORKLOAD_TABLES=$w expect_exit 2 bench-icount --out "$TEST_DIR/bo" frag &&
	expect_one_line_error "wl-bad/frag\.conf:[0-9]+: no fragment configs/fragments/nosuch\.config" &&
	expect_exit 2 bench-icount --out "$TEST_DIR/bo" nosuch &&
	expect_one_line_error "unknown workload .nosuch." &&
	expect_exit 2 bench-icount --runs 0 --out "$TEST_DIR/bo" &&
	expect_one_line_error "--runs: .0. is not 1 to 9" &&
	expect_exit 2 bench-icount --bogus &&
	expect_one_line_error "unknown option --bogus" &&
	[ ! -e "$TEST_DIR/bo" ] &&
	# No progress line of the tree copy or the build: the refusal came first.
	! grep -qE "work-[t]ree|build-[k]ernel" "$TEST_DIR/stderr"
'

test_expect_success 'defaults apply; a value of the table wins over its default' '
	TARGET_TABLES=$T expect_exit 0 targets good &&
	grep -qxF "TOOLCHAINS=\"gcc clang-22 gcc-13 gcc-14 gcc-15 gcc-16\"" "$TEST_DIR/stdout" &&
	grep -qxF "BASE_CONFIG=tinyconfig" "$TEST_DIR/stdout" &&
	grep -qxF "FILL=no" "$TEST_DIR/stdout" &&
	grep -qxF "CROSS_COMPILE=" "$TEST_DIR/stdout" &&
	grep -qxF "QEMU_MEM=512M" "$TEST_DIR/stdout" &&
	grep -qxF "TIMEOUT=180" "$TEST_DIR/stdout" &&
	grep -qxF "KERNEL_ARGS=\"kunit.filter=speed>slow kunit.filter_action=skip\"" "$TEST_DIR/stdout" &&
	expect_eq "$(targets arm64 TIMEOUT)" 180 "arm64 TIMEOUT (the default)" &&
	expect_eq "$(targets armv5 TIMEOUT)" 300 "armv5 TIMEOUT (its own)" &&
	expect_eq "$(targets arm64 FULL_DEFCONFIG)" defconfig "arm64 FULL_DEFCONFIG" &&
	expect_eq "$(targets loongarch64 TOOLCHAINS)" "clang-22 gcc-14 gcc-15 gcc-16" "loongarch64 TOOLCHAINS" &&
	expect_eq "$(targets --boards arm64 BOOT_COMMANDS)" nfs "arm64 board BOOT_COMMANDS" &&
	expect_eq "$(targets --boards armv5 REPEAT) $(targets --boards armv5 BENCH_MINUTES)" "5 20" "armv5 board" &&
	expect_exit 2 targets x86_64 NO_SUCH_KEY &&
	expect_one_line_error "NO_SUCH_KEY: no such key"
'

test_expect_success 'the loader fills the caller'"'"'s associative array, nothing else, nothing left of the table before' '
	out=$(bash -c ". \"\$TOP/scripts/lib/common.sh\" && . \"\$TOP/scripts/lib/tables.sh\" &&
		declare -A t=([STALE]=1) && target_load armv5 t && echo \"\${t[ARCH]} \${t[QEMU_CPU]} \${t[DTB]}\" &&
		target_load x86_64 t && echo \"\${t[ARCH]} [\${t[DTB]}] \${t[STALE]-gone} \${ARCH-unset} \${QEMU_CPU-unset}\"") &&
	expect_eq "$out" "arm arm926 arch/arm/boot/dts/arm/versatile-pb.dtb
x86_64 [] gone unset unset" "the array" &&
	expect_exit 2 bash -c ". \"\$TOP/scripts/lib/common.sh\" && . \"\$TOP/scripts/lib/tables.sh\" && t=1 && target_load armv5 t" &&
	expect_one_line_error "internal: .t. is not an associative array"
'

test_expect_success 'an unknown key: one line, file, line and key' '
	table unknown "FOO=1" &&
	refused unknown "targets/unknown.conf:10: FOO: unknown key" &&
	table llvm "LLVM=-22" &&
	refused llvm "targets/llvm.conf:10: LLVM: unknown key" &&
	table musl "HARNESS=musl" &&
	refused musl "targets/musl.conf:10: HARNESS: .musl. is not empty, glibc or nolibc" &&
	table icc "HARNESS=glibc" "HARNESS_CC=icc" &&
	refused icc "targets/icc.conf:11: HARNESS_CC: .icc. is not gcc or clang-N" &&
	mkdir -p "$TEST_DIR/boards" && cp "$TOP/configs/boards/x86_64.conf" "$TEST_DIR/boards/" &&
	echo "ARCH=x86_64" >>"$TEST_DIR/boards/x86_64.conf" &&
	BOARD_TABLES=$TEST_DIR/boards expect_exit 2 targets --boards x86_64 &&
	expect_one_line_error "boards/x86_64.conf:[0-9]+: ARCH: unknown key \(the keys are in configs/boards/SCHEMA\)"
'

test_expect_success 'a missing or empty mandatory key: one line, file and key' '
	grep -v "^IMAGE=" "$T/good.conf" >"$T/missing.conf" &&
	refused missing "targets/missing.conf: IMAGE: missing, but mandatory" &&
	table empty "QEMU_CPU=" &&
	sed -i "/^QEMU_CPU=qemu64$/d" "$T/empty.conf" &&
	refused empty "targets/empty.conf:9: QEMU_CPU: empty, but mandatory"
'

test_expect_success 'syntax errors: one line each, file, line (and key)' '
	table spaced "TIMEOUT = 120" &&
	refused spaced "targets/spaced.conf:10: syntax error: .*TIMEOUT = 120" &&
	table unquoted "KERNEL_ARGS=quiet loglevel=3" &&
	refused unquoted "targets/unquoted.conf:10: KERNEL_ARGS: bad value" &&
	table unterminated "KERNEL_ARGS=\"quiet" &&
	refused unterminated "targets/unterminated.conf:10: KERNEL_ARGS: bad value" &&
	table single "KERNEL_ARGS='"'"'quiet'"'"'" &&
	refused single "targets/single.conf:10: KERNEL_ARGS: bad value" &&
	table exported "export TIMEOUT=120" &&
	refused exported "targets/exported.conf:10: syntax error" &&
	table indented "  TIMEOUT=120" &&
	refused indented "targets/indented.conf:10: syntax error" &&
	table bare "TIMEOUT" &&
	refused bare "targets/bare.conf:10: syntax error"
'

test_expect_success 'a duplicated key: one line, both lines, the key' '
	table twice "QEMU_MEM=1G" "IMAGE=vmlinux" &&
	refused twice "targets/twice.conf:11: IMAGE: set twice \(first on line 3\)"
'

test_expect_success 'a table with code: refused, nothing run, the caller not exited' '
	table exit0 "exit 0" &&
	refused exit0 "targets/exit0.conf:10: syntax error: .*exit 0" &&
	table subst "\$(touch \"$RAN\")" &&
	refused subst "targets/subst.conf:10: syntax error" &&
	table value "QEMU_ARGS=\$(touch $RAN)" &&
	refused value "targets/value.conf:10: QEMU_ARGS: bad value" &&
	table quoted "QEMU_ARGS=\"\$(touch $RAN)\"" &&
	refused quoted "targets/quoted.conf:10: QEMU_ARGS: bad value" &&
	table backquoted "QEMU_ARGS=\"\`touch $RAN\`\"" &&
	refused backquoted "targets/backquoted.conf:10: QEMU_ARGS: bad value" &&
	table chained "TIMEOUT=120; touch $RAN" &&
	refused chained "targets/chained.conf:10: TIMEOUT: bad value" &&
	table expanded "QEMU_ARGS=\"\${RAN}\"" &&
	refused expanded "targets/expanded.conf:10: QEMU_ARGS: bad value"
'

test_expect_success 'the toolchain resolver: a toolchain of TOOLCHAINS only' '
	expect_exit 0 targets --toolchain "" x86_64 &&
	expect_eq "$(cat "$TEST_DIR/stdout")" "TOOLCHAIN=gcc
CROSS_COMPILE=
LLVM=
TOOLCHAIN_CC=gcc
TOOLCHAIN_LD=ld" "x86_64 default" &&
	expect_exit 0 targets --toolchain clang-22 arm64 &&
	expect_eq "$(cat "$TEST_DIR/stdout")" "TOOLCHAIN=clang-22
CROSS_COMPILE=aarch64-linux-gnu-
LLVM=-22
TOOLCHAIN_CC=clang-22
TOOLCHAIN_LD=ld.lld-22" "arm64 clang-22" &&
	expect_eq "$(targets --toolchain "" loongarch64 | grep ^LLVM=)" "LLVM=-22" "loongarch64 default" &&
	expect_exit 2 targets --toolchain gcc loongarch64 &&
	expect_one_line_error "toolchain .gcc. not in loongarch64.s TOOLCHAINS \(clang-22 gcc-14 gcc-15 gcc-16\)" &&
	expect_exit 0 targets --toolchain gcc-16 armv5 &&
	expect_eq "$(grep "^CROSS_COMPILE=\|^TOOLCHAIN_CC=" "$TEST_DIR/stdout")" "CROSS_COMPILE=$TOP/build/toolchain-root/gcc-16/bin/arm-linux-gnueabi-
TOOLCHAIN_CC=$TOP/build/toolchain-root/gcc-16/bin/arm-linux-gnueabi-gcc" "armv5 gcc-16 (the toolchain root)" &&
	expect_eq "$(targets --toolchain gcc-14 loongarch64 | grep ^CROSS_COMPILE=)" \
		"CROSS_COMPILE=$TOP/build/toolchain-root/gcc-14/bin/loongarch64-linux-gnu-" "loongarch64 gcc-14: ARCH.s triple" &&
	expect_exit 2 targets --toolchain gcc-13 loongarch64 &&
	expect_one_line_error "toolchain .gcc-13. not in loongarch64.s TOOLCHAINS \(clang-22 gcc-14 gcc-15 gcc-16\)" &&
	expect_exit 2 targets --toolchain "gcc clang-22" x86_64 &&
	expect_one_line_error "toolchain .gcc clang-22. not in x86_64.s TOOLCHAINS" &&
	table icc "TOOLCHAINS=\"gcc icc\"" &&
	refused icc "targets/icc.conf:10: TOOLCHAINS: .icc. is not a toolchain" &&
	table dup "TOOLCHAINS=\"gcc clang-22 gcc\"" &&
	refused dup "targets/dup.conf:10: TOOLCHAINS: .gcc. twice"
'

# A copy of the shipped tables and one bad table: what iterates over all
# of them must stop on it.
test_expect_success 'ci-workflow, lava-jobs and merge-results fail on a bad table' '
	mkdir "$TEST_DIR/all" && cp "$TOP"/configs/targets/*.conf "$TEST_DIR/all/" &&
	TARGET_TABLES=$TEST_DIR/all expect_exit 0 ci-workflow --check &&
	printf "%s\n" "exit 0" >>"$TEST_DIR/all/x86_64.conf" &&
	TARGET_TABLES=$TEST_DIR/all expect_exit 2 ci-workflow --check &&
	expect_one_line_error "all/x86_64.conf:[0-9]+: syntax error: .*exit 0" &&
	TARGET_TABLES=$TEST_DIR/all expect_exit 2 lava-jobs "$TEST_DIR/jobs" &&
	expect_one_line_error "all/x86_64.conf:[0-9]+: syntax error" &&
	[ ! -e "$TEST_DIR/jobs" ] &&
	TARGET_TABLES=$TEST_DIR/all expect_exit 2 lava-jobs --boards "$TEST_DIR/jobs" &&
	expect_one_line_error "all/x86_64.conf:[0-9]+: syntax error" &&
	TARGET_TABLES=$TEST_DIR/all expect_exit 2 merge-results "$TOP/tests/suite/fixtures/results/local-6.12.json" &&
	expect_one_line_error "all/x86_64.conf:[0-9]+: syntax error" &&
	mkdir "$TEST_DIR/boards-all" && cp "$TOP"/configs/boards/*.conf "$TEST_DIR/boards-all/" &&
	echo "REPEAT=3" >>"$TEST_DIR/boards-all/armv5.conf" &&
	echo "REPEAT=4" >>"$TEST_DIR/boards-all/armv5.conf" &&
	BOARD_TABLES=$TEST_DIR/boards-all expect_exit 2 lava-jobs --boards "$TEST_DIR/jobs" &&
	expect_one_line_error "boards-all/armv5.conf:[0-9]+: REPEAT: set twice"
'

# defconfig-builds runs for hours: what it is given is checked before
# any tree or build, the evidence tables it reads included.
test_expect_success 'defconfig-builds: a bad target or check table is one error line, before any build' '
	expect_exit 2 defconfig-builds --targets "armv5 nope" &&
	expect_one_line_error "unknown target .nope." &&
	expect_exit 2 defconfig-builds --frob &&
	expect_one_line_error "unknown option --frob" &&
	expect_exit 2 defconfig-builds --kernel "$TEST_DIR/nonexistent" --targets armv5 &&
	expect_one_line_error "nonexistent: no such directory" &&
	mkdir "$TEST_DIR/ev" && cp "$TOP"/configs/evidence/SCHEMA "$TOP"/configs/evidence/*.conf "$TEST_DIR/ev/" &&
	sed -i "s/{obj:arm64}/{tree}/" "$TEST_DIR/ev/layout-arm64.conf" &&
	EVIDENCE_TABLES=$TEST_DIR/ev expect_exit 2 defconfig-builds --targets arm64 --out "$TEST_DIR/out" &&
	expect_one_line_error "layout-arm64.conf: COMMAND: \{tree\}: not a placeholder a check of one build can have" &&
	[ ! -e "$TEST_DIR/out" ]
'

test_expect_success 'evidence_command: placeholders filled, a list split, one in a word, an unknown one refused' '
	mkdir "$TEST_DIR/evc" && cp "$TOP"/configs/evidence/SCHEMA "$TEST_DIR/evc/" &&
	printf "%s\n" PROVES=0003 KIND=harness ORDER=1 \
		"COMMAND=\"scripts/x --json {json} {kbuilds} in/{name}.md {obj:arm64} {tree}\"" >"$TEST_DIR/evc/t.conf" &&
	cat >"$TEST_DIR/fill" <<-\EOF &&
	. "$TOP/scripts/lib/common.sh"
	lib_use tables
	declare -A e
	evidence_load t e
	declare -A m=([json]="/a b.json" [name]="n{name}" [obj:arm64]= [tree]=/t
		[kbuilds]=$(printf "%s\n" --kbuild /k1 --kbuild /k2))
	evidence_command c m e
	printf "<%s>" "${c[@]}"
	EOF
	got=$(EVIDENCE_TABLES=$TEST_DIR/evc bash "$TEST_DIR/fill") &&
	expect_eq "$got" "<$TOP/scripts/x><--json></a b.json><--kbuild></k1><--kbuild></k2><in/n{name}.md></t>" "the command" &&
	sed -i "s|{tree}|{trees}|" "$TEST_DIR/evc/t.conf" &&
	EVIDENCE_TABLES=$TEST_DIR/evc expect_exit 2 bash "$TEST_DIR/fill" &&
	expect_one_line_error "t.conf:[0-9]*: COMMAND: unknown placeholder .trees."
'

test_expect_success 'the schemas: every key documented, no key in both' '
	for s in targets boards; do
		awk -v f="$s/SCHEMA" "/^[A-Z][A-Z0-9_]*(=|\$)/ && prev !~ /^#/ { print f \": undocumented: \" \$0; bad = 1 }
			{ prev = \$0 } END { exit bad }" "$TOP/configs/$s/SCHEMA" || return 1
	done &&
	targets x86_64 | cut -d= -f1 | sort >"$TEST_DIR/target-keys" &&
	targets --boards x86_64 | cut -d= -f1 | sort >"$TEST_DIR/board-keys" &&
	expect_eq "$(comm -12 "$TEST_DIR/target-keys" "$TEST_DIR/board-keys")" "" "keys in both schemas"
'

# What a generic script knows of an architecture comes from its table: no
# architecture name outside comments in these (the evidence scripts are
# each about one architecture's change, and the loader maps ARCH to the
# kernel's SRCARCH).
test_expect_success 'the generic scripts name no architecture' '
	for f in scripts/pipeline scripts/report scripts/targets scripts/check scripts/checks/check-sparse \
		scripts/stages/boot scripts/stages/build-kernel scripts/stages/mkinitramfs \
		scripts/engines/ci-workflow scripts/engines/lava-jobs scripts/engines/lava-local \
		scripts/engines/lava-results scripts/engines/merge-results \
		scripts/bench/bench-boot scripts/bench/bench-icount scripts/bench/bench-kunit \
		scripts/lib/kbuild.sh scripts/lib/nolibc.sh \
		scripts/evidence/unaligned/unaligned-suite scripts/evidence/unaligned/codegen-table; do
		grep -v "^[[:space:]]*#" "$TOP/$f" |
			grep -nwE "x86_64|x86|i386|arm64|aarch64|arm|armv5|armel|armhf|loongarch|loongarch64|s390|s390x|m68k|mips|powerpc|riscv" &&
			{ echo "$f names an architecture"; return 1; }
	done
	true
'

# A made-up target is one table: its LAVA job takes the arch, the machine
# and cpu options, the command line and the end marker from it.
test_expect_success 'lava-jobs: a made-up target from its table alone' '
	mkdir -p "$TEST_DIR/lt" && cp "$TOP/configs/targets/SCHEMA" "$TOP/configs/targets/x86_64.conf" "$TEST_DIR/lt/" &&
	cat >"$TEST_DIR/lt/madeup.conf" <<-EOT &&
	ARCH=madeup
	CROSS_COMPILE=madeup-linux-gnu-
	TOOLCHAINS=gcc
	FRAGMENTS="boot kunit"
	IMAGE=arch/madeup/boot/Image
	INIT_CC=gcc
	INIT_MACHINE=Madeup
	QEMU=qemu-system-madeup
	QEMU_MACHINE=board7
	QEMU_CPU=core9
	CONSOLE=ttyMU0
	END_MARKER=MADEUP-END
	LAVA_ARCH=madeup64
	EOT
	TARGET_TABLES=$TEST_DIR/lt expect_exit 0 "$SCRIPTS/engines/lava-jobs" "$TEST_DIR/jobs" &&
	j=$(ls "$TEST_DIR"/jobs/*-madeup.yaml | head -n 1) && [ -n "$j" ] &&
	grep -q "^  arch: madeup64$" "$j" &&
	grep -q "^  - .-machine board7.$" "$j" && grep -q "^  - .-cpu core9.$" "$j" &&
	grep -q "^  kernel-overlay.end-marker: MADEUP-END$" "$j" && grep -q "^      end: MADEUP-END$" "$j" &&
	grep -q "console=ttyMU0 rdinit=/init panic=-1 oops=panic" "$j" &&
	sed -i "s/^LAVA_ARCH=madeup64$/LAVA_SETS_MACHINE=yes/" "$TEST_DIR/lt/madeup.conf" &&
	TARGET_TABLES=$TEST_DIR/lt expect_exit 0 "$SCRIPTS/engines/lava-jobs" "$TEST_DIR/jobs2" &&
	j=$(ls "$TEST_DIR"/jobs2/*-madeup.yaml | head -n 1) &&
	grep -q "^  arch: madeup$" "$j" && ! grep -q -- "-machine board7" "$j"
'

test_expect_success 'a table with SKIP: build-kernel refuses it with the reason in one line, the tree untouched' '
	table skipped "DEFAULT=no" "SKIP=\"no such machine here (measured)\"" &&
	tree=$TEST_DIR/tree && mkdir -p "$tree" && echo "VERSION = 7" >"$tree/Makefile" &&
	before=$(tree_sum "$tree") &&
	TARGET_TABLES=$T expect_exit 2 build-kernel --target skipped "$tree" &&
	expect_one_line_error "skipped.conf:11: skipped is not built here: no such machine here \(measured\)" &&
	expect_eq "$(tree_sum "$tree")" "$before" "the tree" &&
	expect_eq "$(TARGET_TABLES=$T targets skipped SKIP)" "no such machine here (measured)" SKIP
'

test_done
