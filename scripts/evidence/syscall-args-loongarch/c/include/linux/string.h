/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim of include/linux/string.h: the memcpy() declaration that the
 * unpatched syscall_get_arguments() needs.  The harness's driver links
 * the definition (nolibc's memcpy(), a weak function in driver.o); built
 * with -fno-builtin-memcpy, as the kernel on LoongArch, each use is a
 * call.
 */
#ifndef HARNESS_LINUX_STRING_H
#define HARNESS_LINUX_STRING_H

#include <linux/types.h>

void *memcpy(void *dst, const void *src, size_t n);

#endif /* HARNESS_LINUX_STRING_H */
