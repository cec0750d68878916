/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim of include/linux/linkage.h and arch/arm64/include/asm/linkage.h,
 * for assembling a kernel tree's arch/arm64/lib/clear_user.S into a user
 * program (scripts/evidence/clear-user-arm64/c/harness.c, scripts/evidence/clear-user-arm64/clear-user-arm64).
 *
 * As in the kernel: SYM_FUNC_START() aligns with __ALIGN (.balign
 * CONFIG_FUNCTION_ALIGNMENT, 4 on arm64 without ftrace call ops), makes
 * the symbol global and emits the "bti c" landing pad unconditionally,
 * so the function's prologue has the kernel's layout.  SYM_FUNC_END()
 * gives the symbol its type and size.  EXPORT_SYMBOL() is empty: there
 * are no modules here.
 */
#ifndef HARNESS_LINUX_LINKAGE_H
#define HARNESS_LINUX_LINKAGE_H

#ifndef __ASSEMBLY__
#error "linkage.h shim: for assembly sources only"
#endif

#define SYM_FUNC_START(name)		\
	.globl name ;			\
	.balign 4 ;			\
	name:				\
	bti c ;

#define SYM_FUNC_END(name)		\
	.type name, %function ;		\
	.size name, . - name ;

#define EXPORT_SYMBOL(sym)

#endif /* HARNESS_LINUX_LINKAGE_H */
