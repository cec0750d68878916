/* SPDX-License-Identifier: GPL-2.0 */
/* Shim of include/linux/sched.h: syscall.h only passes task pointers on. */
#ifndef HARNESS_LINUX_SCHED_H
#define HARNESS_LINUX_SCHED_H

struct task_struct;

#endif /* HARNESS_LINUX_SCHED_H */
