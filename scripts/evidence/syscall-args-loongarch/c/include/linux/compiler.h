/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim of include/linux/compiler.h (and compiler_types.h, compiler_attributes.h)
 * for building a kernel tree's arch/loongarch/include/asm/syscall.h into a
 * freestanding user program: the attributes and hints it and the harness
 * use, with the kernel's definitions.
 */
#ifndef HARNESS_LINUX_COMPILER_H
#define HARNESS_LINUX_COMPILER_H

#include <linux/types.h>

#define __always_inline	inline __attribute__((__always_inline__))
#define noinline	__attribute__((__noinline__))
#define __aligned(x)	__attribute__((__aligned__(x)))
#define __used		__attribute__((__used__))
#define __noreturn	__attribute__((__noreturn__))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#endif /* HARNESS_LINUX_COMPILER_H */
