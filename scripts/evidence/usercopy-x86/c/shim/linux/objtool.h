/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stand-in for the kernel's <linux/objtool.h>, for the user-space harness
 * in scripts/evidence/usercopy-x86/c/: newer copy_user_64.S (7.x) mark the
 * function ANNOTATE_NOENDBR, a note for objtool that emits no instruction.
 */
#ifndef _HARNESS_LINUX_OBJTOOL_H
#define _HARNESS_LINUX_OBJTOOL_H

#define ANNOTATE_NOENDBR

#endif
