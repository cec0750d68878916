# The two commands: 'make' (the main job on the default tree) and
# 'make test' (the test suite, TAP under prove).  Both install what they
# need first (make deps).

KERNEL ?= 6.12
TARGETS ?= x86_64 arm64 armv5 loongarch64
# Empty: each target's default compiler (the first of its TOOLCHAINS).
TOOLCHAIN ?=
PROVE ?= prove

.PHONY: all deps test bench bench-boot evidence-armv5 lava-local clean distclean help

all: deps
	scripts/pipeline --kernel $(KERNEL) --targets "$(TARGETS)" $(if $(TOOLCHAIN),--toolchain $(TOOLCHAIN))

deps:
	scripts/deps

test: deps
	$(PROVE) --exec '' --timer tests/t*.t

# Timings of apply / apply again / reverse on the 6.12 tree.
bench: deps
	scripts/bench-apply

# Cold and warm build times and boot times per target (long: cold builds).
bench-boot: deps
	scripts/bench-boot

# Opt-in, not in CI: the whole imx_v4_v5_defconfig kernel built three ways
# (shipped, 7.0 memcpy() form, series applied); about 25 minutes cold.
evidence-armv5: deps
	scripts/objects-armv5 --full --json build/evidence-armv5/evidence.json \
		--markdown build/evidence-armv5/evidence.md build/evidence-armv5

# The LAVA QEMU jobs of KERNEL's TARGETS on LAVA's own dispatcher (make
# test runs x86_64 and armv5 on 6.12); results in build/lava-local/.
lava-local: deps
	scripts/lava-local --kernel $(KERNEL) --targets "$(TARGETS)"

clean:
	rm -rf build/work build/report build/tests build/bench

# Also drops the unpacked pristine trees (about 25 s each to unpack again).
distclean:
	rm -rf build

help:
	@echo "make            deps, kernel tree ($(KERNEL)), apply, report (build/report/)"
	@echo "make test       the test suite (TAP, prove)"
	@echo "make bench      apply/re-apply/reverse timings on 6.12"
	@echo "make bench-boot cold/warm build and boot times per target (long)"
	@echo "make evidence-armv5   whole ARMv5 kernel built 3 ways (opt-in, ~25 min)"
	@echo "make lava-local       the LAVA QEMU jobs on LAVA's own dispatcher"
	@echo "make KERNEL=6.1 | KERNEL=/path/to/tree   another tree"
	@echo "make TARGETS=\"x86_64 armv5\"   some targets only"
	@echo "make TOOLCHAIN=clang-22   another of the targets' TOOLCHAINS"
	@echo "make clean | distclean"
