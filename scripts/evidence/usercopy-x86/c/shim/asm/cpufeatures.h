/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stand-in for the kernel's <asm/cpufeatures.h>, for the user-space
 * harness in scripts/evidence/usercopy-x86/c/: the feature bits copy_user_64.S names.  The
 * values are the kernel's; the harness's ALTERNATIVE ignores them.
 */
#ifndef _HARNESS_ASM_CPUFEATURES_H
#define _HARNESS_ASM_CPUFEATURES_H

#define X86_FEATURE_ERMS	( 9*32+ 9) /* Enhanced REP MOVSB/STOSB */
#define X86_FEATURE_FSRM	(18*32+ 4) /* Fast Short REP MOV */

#endif
