/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stand-in for the kernel's <asm/asm.h>, for the user-space harness in
 * scripts/evidence/usercopy-x86/c/: the exception table.
 *
 * The kernel's _ASM_EXTABLE_UA(from, to) adds an entry to __ex_table: a
 * fault on a user access at "from" resumes at "to" (ex_handler_uaccess()).
 * Here each entry is a pair of absolute addresses in the section
 * harness_extable; the linker provides __start_harness_extable and
 * __stop_harness_extable around all the entries of the program, and the
 * harness's SIGSEGV handler looks the faulting instruction up in them
 * (scripts/evidence/usercopy-x86/c/runtime.c).  The section is writable so that the
 * dynamic relocations of a PIE need no text relocation.
 */
#ifndef _HARNESS_ASM_ASM_H
#define _HARNESS_ASM_ASM_H

#ifndef __ASSEMBLER__
#error "this stand-in is for assembler sources only"
#endif

#define _ASM_EXTABLE_UA(from, to)			\
	.pushsection harness_extable, "aw";		\
	.balign 8;					\
	.quad (from), (to);				\
	.popsection

#endif
