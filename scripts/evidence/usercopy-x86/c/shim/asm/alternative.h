/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stand-in for the kernel's <asm/alternative.h>, for the user-space
 * harness in scripts/evidence/usercopy-x86/c/.
 *
 * The kernel assembles the old instruction and patches in the new one at
 * boot on CPUs with the feature.  Here the choice is made at build time:
 * the old instruction by default, which is what a CPU without the feature
 * runs (in copy_user_64.S: no ERMS, so large copies take the "rep movsq"
 * path that patch 0003 changes), or the new one when the harness is built
 * with -DHARNESS_ERMS (large copies with "rep movsb").
 */
#ifndef _HARNESS_ASM_ALTERNATIVE_H
#define _HARNESS_ASM_ALTERNATIVE_H

#ifndef __ASSEMBLER__
#error "this stand-in is for assembler sources only"
#endif

.macro ALTERNATIVE oldinstr, newinstr, ft_flags
#ifdef HARNESS_ERMS
	\newinstr
#else
	\oldinstr
#endif
.endm

#endif
