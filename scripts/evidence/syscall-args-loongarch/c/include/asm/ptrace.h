/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim of arch/loongarch/include/asm/ptrace.h: struct pt_regs only, member
 * for member as in the kernel (scripts/evidence/syscall-args-loongarch/syscall-args-loongarch checks the
 * members below against the tree's).  regs[4] is a0, which the kernel
 * overwrites with the return value; orig_a0 keeps the first argument;
 * regs[5]..regs[9] are a1..a5; regs[11] is a7, the system call number.
 */
#ifndef HARNESS_ASM_PTRACE_H
#define HARNESS_ASM_PTRACE_H

#include <linux/compiler.h>

struct pt_regs {
	/* Main processor registers. */
	unsigned long regs[32];

	/* Original syscall arg0. */
	unsigned long orig_a0;

	/* Special CSR registers. */
	unsigned long csr_era;
	unsigned long csr_badvaddr;
	unsigned long csr_crmd;
	unsigned long csr_prmd;
	unsigned long csr_euen;
	unsigned long csr_ecfg;
	unsigned long csr_estat;
	unsigned long __last[];
} __aligned(8);

_Static_assert(__builtin_offsetof(struct pt_regs, orig_a0) == 32 * 8,
	       "orig_a0 follows regs[32]");

#endif /* HARNESS_ASM_PTRACE_H */
