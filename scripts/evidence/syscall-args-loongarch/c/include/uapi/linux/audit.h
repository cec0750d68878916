/* SPDX-License-Identifier: GPL-2.0 */
/* Shim of include/uapi/linux/audit.h: the LoongArch audit architectures. */
#ifndef HARNESS_UAPI_LINUX_AUDIT_H
#define HARNESS_UAPI_LINUX_AUDIT_H

#include <linux/elf-em.h>

#define __AUDIT_ARCH_64BIT	0x80000000
#define __AUDIT_ARCH_LE		0x40000000

#define AUDIT_ARCH_LOONGARCH32	(EM_LOONGARCH | __AUDIT_ARCH_LE)
#define AUDIT_ARCH_LOONGARCH64	(EM_LOONGARCH | __AUDIT_ARCH_64BIT | __AUDIT_ARCH_LE)

#endif /* HARNESS_UAPI_LINUX_AUDIT_H */
