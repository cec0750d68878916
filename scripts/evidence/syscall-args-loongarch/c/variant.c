// SPDX-License-Identifier: GPL-2.0
/*
 * One form of a kernel tree's arch/loongarch/include/asm/syscall.h,
 * wrapped for the driver (driver.c).  Built twice by
 * scripts/evidence/syscall-args-loongarch/syscall-args-loongarch, once per form, with
 * -DSA_VARIANT=unpatched or patched and the directory holding that form's
 * asm/syscall.h first on the include path, then include/ (the shims).
 */
#include <asm/syscall.h>

#include "syscall_args.h"

#ifndef SA_VARIANT
#error "define SA_VARIANT (unpatched or patched)"
#endif

#define SA_NAME_(v)	#v
#define SA_NAME(v)	SA_NAME_(v)
#define SA_OPS_(v)	sa_ops_##v
#define SA_OPS(v)	SA_OPS_(v)

#define NO_TASK		((struct task_struct *)0)

static void get_arguments(struct pt_regs *regs, unsigned long *args)
{
	syscall_get_arguments(NO_TASK, regs, args);
}

static long get_nr(struct pt_regs *regs)
{
	return syscall_get_nr(NO_TASK, regs);
}

static long get_error(struct pt_regs *regs)
{
	return syscall_get_error(NO_TASK, regs);
}

static long get_return_value(struct pt_regs *regs)
{
	return syscall_get_return_value(NO_TASK, regs);
}

static void set_return_value(struct pt_regs *regs, int error, long val)
{
	syscall_set_return_value(NO_TASK, regs, error, val);
}

static void rollback(struct pt_regs *regs)
{
	syscall_rollback(NO_TASK, regs);
}

static int get_arch(void)
{
	return syscall_get_arch(NO_TASK);
}

const struct sa_ops SA_OPS(SA_VARIANT) = {
	.name = SA_NAME(SA_VARIANT),
	.get_arguments = get_arguments,
	.get_nr = get_nr,
	.get_error = get_error,
	.get_return_value = get_return_value,
	.set_return_value = set_return_value,
	.rollback = rollback,
	.get_arch = get_arch,
};
