/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stand-in for the kernel's <linux/export.h> when the user-space harness
 * (scripts/evidence/usercopy-x86/c/) assembles arch/x86/lib/copy_user_64.S: there is no
 * module symbol table to add to, so EXPORT_SYMBOL() emits nothing.
 */
#ifndef _HARNESS_LINUX_EXPORT_H
#define _HARNESS_LINUX_EXPORT_H

#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)

#endif
