/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A raw loongarch64 system call, for the programs built without a libc
 * (Debian 12 has none for LoongArch): the guest init (sys-loongarch64.h)
 * and the board benchmarks (tests/bench/bench.h).  a7 = number, a0..a5 =
 * arguments, "syscall 0"; the result in a0, -errno on failure.
 */
#ifndef LSYS_LOONGARCH64_H
#define LSYS_LOONGARCH64_H

/* The kernel clobbers t0..t8 across a system call, and memory is shared. */
static inline long lsys6(long nr, long arg0, long arg1, long arg2,
			 long arg3, long arg4, long arg5)
{
	register long a7 __asm__("$a7") = nr;
	register long a0 __asm__("$a0") = arg0;
	register long a1 __asm__("$a1") = arg1;
	register long a2 __asm__("$a2") = arg2;
	register long a3 __asm__("$a3") = arg3;
	register long a4 __asm__("$a4") = arg4;
	register long a5 __asm__("$a5") = arg5;

	__asm__ volatile("syscall 0"
			 : "+r" (a0)
			 : "r" (a7), "r" (a1), "r" (a2), "r" (a3), "r" (a4),
			   "r" (a5)
			 : "$t0", "$t1", "$t2", "$t3", "$t4", "$t5", "$t6",
			   "$t7", "$t8", "memory");
	return a0;
}

#define lsys3(nr, a, b, c)	lsys6(nr, (long)(a), (long)(b), (long)(c), 0, 0, 0)

#endif /* LSYS_LOONGARCH64_H */
