/* SPDX-License-Identifier: GPL-2.0 */
/* Shim of include/uapi/linux/elf-em.h: LoongArch only. */
#ifndef HARNESS_LINUX_ELF_EM_H
#define HARNESS_LINUX_ELF_EM_H

#define EM_LOONGARCH	258	/* LoongArch */

#endif /* HARNESS_LINUX_ELF_EM_H */
