/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The interface between the LoongArch syscall.h harness's driver
 * (driver.c) and the two builds of variant.c: one table of wrappers per
 * form of the tree's arch/loongarch/include/asm/syscall.h.
 */
#ifndef SYSCALL_ARGS_H
#define SYSCALL_ARGS_H

struct pt_regs;

/**
 * struct sa_ops - syscall.h helpers of one form of the header
 * @name: "unpatched" or "patched"
 * @get_arguments: syscall_get_arguments(), into args[0..5]
 * @get_nr: syscall_get_nr()
 * @get_error: syscall_get_error()
 * @get_return_value: syscall_get_return_value()
 * @set_return_value: syscall_set_return_value()
 * @rollback: syscall_rollback()
 * @get_arch: syscall_get_arch()
 *
 * The wrappers are out of line in their own object, so that the code the
 * compiler made of the header is what runs (and what the script counts
 * memcpy() calls in).  The task argument is always NULL: LoongArch's
 * helpers do not use it.
 */
struct sa_ops {
	const char *name;
	void (*get_arguments)(struct pt_regs *regs, unsigned long *args);
	long (*get_nr)(struct pt_regs *regs);
	long (*get_error)(struct pt_regs *regs);
	long (*get_return_value)(struct pt_regs *regs);
	void (*set_return_value)(struct pt_regs *regs, int error, long val);
	void (*rollback)(struct pt_regs *regs);
	int (*get_arch)(void);
};

extern const struct sa_ops sa_ops_unpatched;
extern const struct sa_ops sa_ops_patched;

#endif /* SYSCALL_ARGS_H */
