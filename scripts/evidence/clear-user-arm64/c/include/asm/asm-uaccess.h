/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim of arch/arm64/include/asm/asm-uaccess.h: USER(), and the two
 * alternative macros that the kernel's header brings in with it.
 *
 * USER(fixup, insn) emits the instruction and records an exception-table
 * entry for it, as the kernel's _asm_extable_uaccess does, but in the
 * section harness_extable and in the harness's format: two absolute
 * 64-bit addresses, the instruction's and the fixup's (the program is
 * linked static and not position-independent).  The linker provides
 * __start_harness_extable and __stop_harness_extable around the entries
 * of every object, and the harness's SIGSEGV handler searches them for
 * the faulting pc.
 *
 * At EL0 the unprivileged stores (sttr, sttrh, sttrb) behave as plain
 * stores, so the routine runs unchanged in user mode.
 */
#ifndef HARNESS_ASM_ASM_UACCESS_H
#define HARNESS_ASM_ASM_UACCESS_H

#ifndef __ASSEMBLY__
#error "asm-uaccess.h shim: for assembly sources only"
#endif

#define USER(l, x...)					\
9999:	x;						\
	.pushsection harness_extable, "a";		\
	.balign 8;					\
	.quad 9999b, l;					\
	.popsection

/*
 * alternative_if_not CAP ... alternative_else_nop_endif: at boot the kernel
 * turns the instructions between them into NOPs when the CPU has CAP; the
 * NOPs themselves go to another section, so .text is laid out as here.
 * Nothing patches them in this program: they run as written, which for
 * clear_user.S's MOPS block is the branch to the store loop, as on a CPU
 * without FEAT_MOPS.
 */
	.macro alternative_if_not cap
	.endm

	.macro alternative_else_nop_endif
	.endm

#endif /* HARNESS_ASM_ASM_UACCESS_H */
