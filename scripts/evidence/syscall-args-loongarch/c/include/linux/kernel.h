/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim of include/linux/kernel.h: IS_ERR_VALUE() (include/linux/err.h in
 * the kernel), which syscall_get_error() uses.
 */
#ifndef HARNESS_LINUX_KERNEL_H
#define HARNESS_LINUX_KERNEL_H

#include <linux/compiler.h>

#define MAX_ERRNO	4095
#define IS_ERR_VALUE(x)	unlikely((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)

#endif /* HARNESS_LINUX_KERNEL_H */
