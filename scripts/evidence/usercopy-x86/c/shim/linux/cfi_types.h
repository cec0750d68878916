/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stand-in for the kernel's <linux/cfi_types.h>, for the user-space harness
 * in scripts/evidence/usercopy-x86/c/: newer copy_user_64.S (7.x) include
 * it.  The harness builds no kCFI type hashes, so nothing is needed here.
 */
#ifndef _HARNESS_LINUX_CFI_TYPES_H
#define _HARNESS_LINUX_CFI_TYPES_H
#endif
