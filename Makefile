# The two commands: 'make' (the main job on the default tree) and
# 'make test' (the test suite, TAP under prove).  Both install what they
# need first (make deps).

KERNEL ?= 6.12
PROVE ?= prove

.PHONY: all deps test bench clean distclean help

all: deps
	scripts/pipeline --kernel $(KERNEL)

deps:
	scripts/deps

test: deps
	$(PROVE) --exec '' --timer tests/t*.t

# Timings of apply / apply again / reverse on the 6.12 tree.
bench: deps
	scripts/bench-apply

clean:
	rm -rf build/work build/report build/tests build/bench

# Also drops the unpacked pristine trees (about 25 s each to unpack again).
distclean:
	rm -rf build

help:
	@echo "make            deps, kernel tree ($(KERNEL)), apply, report (build/report/)"
	@echo "make test       the test suite (TAP, prove)"
	@echo "make bench      apply/re-apply/reverse timings on 6.12"
	@echo "make KERNEL=6.1 | KERNEL=/path/to/tree   another tree"
	@echo "make clean | distclean"
