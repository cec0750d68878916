/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim of arch/loongarch/include/asm/unistd.h: syscall.h includes it and
 * uses nothing of it.  (The harness's driver, built against nolibc, has
 * the tree's UAPI <asm/unistd.h>.)
 */
#ifndef HARNESS_ASM_UNISTD_H
#define HARNESS_ASM_UNISTD_H
#endif /* HARNESS_ASM_UNISTD_H */
