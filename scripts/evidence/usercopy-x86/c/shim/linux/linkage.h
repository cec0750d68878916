/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stand-in for the kernel's <linux/linkage.h> (and the x86 <asm/linkage.h>
 * it pulls in), for the user-space harness in scripts/evidence/usercopy-x86/c/.
 *
 * SYM_FUNC_START() makes a global, 16-byte aligned function symbol, as the
 * kernel does (without the CFI/IBT landing pad, which user space does not
 * enforce here).  SYM_FUNC_END() sets its size and adds NAME_end, a label
 * just past the last instruction: the harness uses it to tell which
 * variant an exception table entry or a faulting instruction belongs to.
 * The build renames both symbols per variant (objcopy --redefine-sym).
 *
 * RET is a plain "ret": the kernel's may add an int3 (straight-line
 * speculation) or jump to a return thunk, neither of which changes what
 * the function does.
 */
#ifndef _HARNESS_LINUX_LINKAGE_H
#define _HARNESS_LINUX_LINKAGE_H

#ifndef __ASSEMBLER__
#error "this stand-in is for assembler sources only"
#endif

#define SYM_FUNC_START(name)			\
	.text;					\
	.p2align 4;				\
	.globl name;				\
	.type name, @function;			\
	name:

#define SYM_FUNC_END(name)			\
	.size name, . - name;			\
	.globl name##_end;			\
	name##_end:

#define RET	ret

#endif
