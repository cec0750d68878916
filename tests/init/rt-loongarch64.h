/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a loongarch64 program built without a libc (Debian 12 has none for
 * LoongArch) needs from one: a raw system call (a7 = number, a0..a5 =
 * arguments, "syscall 0"; the result in a0, -errno on failure) and the
 * memset()/memcpy() the compiler may call.  For the guest init
 * (sys-loongarch64.h) and the board benchmarks (tests/bench/bench.h); one
 * translation unit each, as the mem*() functions are defined here.
 */
#ifndef RT_LOONGARCH64_H
#define RT_LOONGARCH64_H

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

/*
 * The compiler may emit calls to these even when freestanding (structure
 * copies, loops it recognises).  The volatile accesses keep it from
 * turning their own loops into calls to themselves.
 */
void *memset(void *s, int c, unsigned long n);
void *memset(void *s, int c, unsigned long n)
{
	volatile unsigned char *p = s;

	while (n--)
		*p++ = (unsigned char)c;
	return s;
}

void *memcpy(void *dst, const void *src, unsigned long n);
void *memcpy(void *dst, const void *src, unsigned long n)
{
	volatile unsigned char *d = dst;
	const unsigned char *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

#endif /* RT_LOONGARCH64_H */
