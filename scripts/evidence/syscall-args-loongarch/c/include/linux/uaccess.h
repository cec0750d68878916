/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim of include/linux/uaccess.h: in the kernel it brings in
 * linux/string.h (through linux/fault-inject-usercopy.h and the arch's
 * headers), the only part of it syscall.h relies on.
 */
#ifndef HARNESS_LINUX_UACCESS_H
#define HARNESS_LINUX_UACCESS_H

#include <linux/string.h>

#endif /* HARNESS_LINUX_UACCESS_H */
