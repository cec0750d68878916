/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shim of arch/loongarch/include/asm/unistd.h: syscall.h includes it and
 * uses nothing of it.  (The harness's driver has the system call numbers
 * it needs in tests/init/sys-loongarch64.h.)
 */
#ifndef HARNESS_ASM_UNISTD_H
#define HARNESS_ASM_UNISTD_H
#endif /* HARNESS_ASM_UNISTD_H */
