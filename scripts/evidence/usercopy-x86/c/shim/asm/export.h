/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stand-in for the kernel's <asm/export.h>, which copy_user_64.S included
 * before the export macros moved to <linux/export.h> (6.4-6.5 trees), for
 * the user-space harness in scripts/evidence/usercopy-x86/c/.
 */
#include <linux/export.h>
