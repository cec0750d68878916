# The two commands: 'make' (the main job on the default tree) and
# 'make test' (the test suite, TAP under prove).  Both install what they
# need first (make deps).

# Empty: the default base of configs/bases; else a base or a tree's path.
KERNEL ?=
# Empty: every table of configs/targets/.
TARGETS ?=
# Empty: each target's default compiler (the first of its TOOLCHAINS).
TOOLCHAIN ?=
PROVE ?= prove
TEST_FAILED_LOG = $(CURDIR)/build/tests/failed.log

.PHONY: all all-arches deps toolchain-root-full test test-long bench bench-boot bench-icount evidence-armv5 evidence-loongarch-gcc defconfig-builds lava-local clean distclean help

all: deps
	scripts/pipeline $(if $(KERNEL),--kernel $(KERNEL)) $(if $(TARGETS),--targets "$(TARGETS)") $(if $(TOOLCHAIN),--toolchain $(TOOLCHAIN))

# The host's packages, then the toolchain root's GCC 16 for ARMv5 (a no-op
# when present; scripts/toolchain-root --full for every GCC 13 to 16), and
# QEMU's TCG plugins built from the installed QEMU's source.
deps:
	scripts/deps $(if $(TARGETS),--targets "$(TARGETS)")
	scripts/toolchain-root >/dev/null
	scripts/bench/qemu-plugins >/dev/null

# Opt-in: every target table (configs/targets/, the opt-in ones too: the
# kunit.py configurations) built with the series and booted, no shipped
# builds, no evidence stages, and 0001's objects per target (objects-boot-T):
# build/all-arches/report.md.  Resumable: a
# target that passed is reused, builds are incremental and ccache'd.
all-arches:
	scripts/deps --targets all
	scripts/pipeline --targets all --no-shipped --no-evidence --objects --report build/all-arches $(if $(KERNEL),--kernel $(KERNEL))

# Opt-in: every GCC of configs/toolchain-root (13 to 16, four targets).
toolchain-root-full: deps
	scripts/toolchain-root --full

# Three chains side by side (tests/suite/testrules.yml): the kernel
# builds and what reads them, and the rest in two, at nice 5
# (tests/suite/run-test); t0999 alone at the end.  No kernel object is
# compiled twice in one run (each build directory is its own cache, and a
# change of .config changes every object's hash), so make test's builds
# bypass ccache, whose misses cost 9% more CPU (a cold armv5 build: 317 s
# against 290, 2-core VM, 2026-12-05).
# A failed test's output is printed again after the summary (TEST_FAILED_LOG).
test: deps
	@mkdir -p build/tests && rm -f "$(TEST_FAILED_LOG)"
	CCACHE_DISABLE=1 TEST_FAILED_LOG="$(TEST_FAILED_LOG)" TEST_REQUIRED_PREREQS="KBUILD_* TOOLROOT_*" HARNESS_RULESFILE=tests/suite/testrules.yml \
		$(PROVE) -j3 --exec tests/suite/run-test --timer tests/suite/t*.t || { cat "$(TEST_FAILED_LOG)" 2>/dev/null; exit 1; }

# The same with the long tests too (loongarch64 on 7.3, the 6.12 and 6.1
# boot cells, the short icount workloads): TEST_LONG=1.
test-long: deps
	@mkdir -p build/tests && rm -f "$(TEST_FAILED_LOG)"
	TEST_FAILED_LOG="$(TEST_FAILED_LOG)" TEST_LONG=1 TEST_REQUIRED_PREREQS="KBUILD_* TOOLROOT_* LONG" HARNESS_RULESFILE=tests/suite/testrules.yml \
		$(PROVE) -j3 --exec tests/suite/run-test --timer tests/suite/t*.t || { cat "$(TEST_FAILED_LOG)" 2>/dev/null; exit 1; }

# Timings of apply / apply again / reverse next to quilt, on the default tree.
bench: deps
	scripts/bench/bench-apply

# Cold and warm build times and boot times per target (long: cold builds).
bench-boot: deps
	scripts/bench/bench-boot

# The opt-in measurements below (bench-icount, evidence-armv5,
# evidence-loongarch-gcc) each write RESULT.json and its report section
# RESULT.md beside it, at the path RESULT_TARGET says for the KERNEL (and
# TOOLCHAIN, SHORT) given: the one place these paths are written.
# 'make -s --no-print-directory evidence-path-TARGET KERNEL=...' prints it
# (nothing for a target without one): scripts/evidence/measured asks, for
# the evidence tables that show these measurements in the report
# (configs/evidence/SCHEMA).  Their directories are ?=: the environment
# can move one (the tests do).
evidence-path-%:
	@echo $(RESULT_$*)

# Guest instructions per operation of the threads' workloads
# (configs/workloads/), each target's kernel as shipped and with the
# series, under QEMU -icount; WORKLOADS= picks some, SHORT=1 the short runs,
# PROFILE=1 adds each kernel's profile and cache misses (QEMU's plugins).
# Without KERNEL, bench-icount's own OUT is the default kernel's: the
# path of KERNEL=that kernel.
BENCH_ICOUNT ?= build/bench-icount/$(notdir $(patsubst %/,%,$(KERNEL)))$(if $(SHORT),-short)
RESULT_bench-icount = $(if $(KERNEL),$(BENCH_ICOUNT)/icount.json)
bench-icount: deps
	scripts/bench/bench-icount $(if $(KERNEL),--kernel $(KERNEL) --out $(BENCH_ICOUNT)) $(if $(SHORT),--short) $(if $(PROFILE),--profile) $(WORKLOADS)

# Opt-in, not in CI: the whole imx_v4_v5_defconfig kernel built three ways
# (shipped, 7.0 memcpy() form, series applied): with GCC 16.2 on 7.3.4
# (2026-12-03, 2-core VM) 69 minutes cold, the three builds 66 of them
# and comparing their 1851 objects 3.
# KERNEL= and TOOLCHAIN= apply (make evidence-armv5 KERNEL=7.3
# TOOLCHAIN=gcc-16: the reporter's compiler); each pair has its own
# directory.
EVIDENCE_ARMV5 ?= build/evidence-armv5$(if $(KERNEL),-$(notdir $(KERNEL)))$(if $(TOOLCHAIN),-$(TOOLCHAIN))
RESULT_evidence-armv5 = $(EVIDENCE_ARMV5)/evidence.json
evidence-armv5: deps
	scripts/evidence/unaligned/objects-armv5 --full $(if $(KERNEL),--kernel $(KERNEL)) \
		$(if $(TOOLCHAIN),--toolchain $(TOOLCHAIN)) --json $(RESULT_evidence-armv5) \
		--markdown $(RESULT_evidence-armv5:.json=.md) $(EVIDENCE_ARMV5)

# Opt-in, not in CI: each target's FULL_DEFCONFIG kernel (x86_64_defconfig,
# arm64 defconfig, imx_v4_v5_defconfig, loongson64_defconfig; before 7.x
# loongson3_defconfig) built from KERNEL with the series, and the object
# checks that read a target's build run on it; results in
# build/defconfig-builds/VERSION/.
defconfig-builds: deps
	scripts/defconfig-builds $(if $(KERNEL),--kernel $(KERNEL)) $(if $(TARGETS),--targets "$(TARGETS)")

# Opt-in: LoongArch's syscall_get_arguments() per compiler (GCC 14 to 16
# from the toolchain root, clang-22), with syscall auditing: as shipped,
# with 0005, and without -fno-builtin-mem*; a kernel build per compiler.
EVIDENCE_LOONGARCH ?= build/evidence-loongarch$(if $(KERNEL),-$(notdir $(KERNEL)))
RESULT_evidence-loongarch-gcc = $(EVIDENCE_LOONGARCH)/compilers.json
evidence-loongarch-gcc: deps
	scripts/evidence/syscall-args-loongarch/syscall-args-compilers $(if $(KERNEL),--kernel $(KERNEL)) \
		--json $(RESULT_evidence-loongarch-gcc) --markdown $(RESULT_evidence-loongarch-gcc:.json=.md)

# The LAVA QEMU jobs of KERNEL's TARGETS on LAVA's own dispatcher (make
# test runs the four targets on 7.3); results in build/lava-local/.
lava-local: deps
	scripts/engines/lava-local $(if $(KERNEL),--kernel $(KERNEL)) $(if $(TARGETS),--targets "$(TARGETS)")

clean:
	rm -rf build/work build/report build/report.prev build/tests build/bench

# Also drops the unpacked pristine trees (about 25 s each to unpack again).
distclean:
	rm -rf build

help:
	@echo "make            deps, the default tree, apply, build, boot, evidence, report (build/report/)"
	@echo "make test       the test suite (TAP, prove)"
	@echo "make test-long  the test suite with its long tests (loongarch64, 6.12, 6.1 boots)"
	@echo "make bench      apply, apply again, reverse next to quilt push -a/pop -a on the default tree"
	@echo "make bench-boot cold/warm build and boot times per target (long)"
	@echo "make bench-icount  the threads' workloads in guest instructions per operation, shipped vs series"
	@echo "make evidence-armv5   whole ARMv5 kernel built 3 ways (opt-in, ~70 min cold; TOOLCHAIN=gcc-16 the reporter's GCC)"
	@echo "make evidence-loongarch-gcc  LoongArch syscall_get_arguments() per compiler, GCC 14 to 16 (opt-in)"
	@echo "make defconfig-builds  each target's defconfig kernel with the series, and its object checks (opt-in, hours cold)"
	@echo "make lava-local       the LAVA QEMU jobs on LAVA's own dispatcher"
	@echo "make all-arches       every target table, the kunit.py configurations among them, built and booted (opt-in, long)"
	@echo "make KERNEL=6.1 | KERNEL=/path/to/tree   another tree"
	@echo "make TARGETS=\"x86_64 armv5\"   some targets only"
	@echo "make TOOLCHAIN=clang-22   another of the targets' TOOLCHAINS"
	@echo "make toolchain-root-full  GCC 13 to 16 for every target in build/toolchain-root (2.2 GB)"
	@echo "make clean | distclean"
