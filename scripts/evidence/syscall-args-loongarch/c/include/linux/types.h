/* SPDX-License-Identifier: GPL-2.0 */
/* Shim of include/linux/types.h: the few types the harness needs. */
#ifndef HARNESS_LINUX_TYPES_H
#define HARNESS_LINUX_TYPES_H

typedef _Bool bool;
#define true	1
#define false	0

typedef unsigned long size_t;
typedef unsigned char u8;
typedef unsigned int u32;
typedef unsigned long long u64;

#endif /* HARNESS_LINUX_TYPES_H */
