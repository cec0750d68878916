// SPDX-License-Identifier: GPL-2.0
/*
 * Freestanding TAP driver for the unaligned accessor cases, for targets
 * with no libc here (loongarch64: Debian 12 has no loong64 libc).  Runs
 * every entry of ua_cases[] and prints TAP in the kselftest harness's
 * format ("ok N name", "# Totals: ..."), with raw write() and exit_group()
 * system calls.
 *
 * Build: clang --target=loongarch64-linux-gnu -ffreestanding -nostdlib
 * -static -fno-pie, with -Ifreestanding-include (see its README), linked
 * with table.o, probe-check.o, correctness.o and alias.o.
 */
#include <linux/types.h>
#include <linux/kernel.h>

#include "cases.h"

#ifndef __loongarch64
#error "freestanding.c has system calls for loongarch64 only"
#endif

#define __NR_write	64	/* asm-generic/unistd.h */
#define __NR_exit_group	94

/* Entry point: the kernel leaves sp 16-byte aligned; never returns. */
asm(".text\n"
    ".globl _start\n"
    "_start:\n"
    "	bl ua_start\n");

static long ua_syscall3(long nr, long arg0, long arg1, long arg2)
{
	register long a7 asm("$a7") = nr;
	register long a0 asm("$a0") = arg0;
	register long a1 asm("$a1") = arg1;
	register long a2 asm("$a2") = arg2;

	asm volatile("syscall 0"
		     : "+r" (a0)
		     : "r" (a7), "r" (a1), "r" (a2)
		     : "$t0", "$t1", "$t2", "$t3", "$t4", "$t5", "$t6", "$t7",
		       "$t8", "memory");
	return a0;
}

/* The compiler may emit calls to these even when freestanding. */
void *memset(void *s, int c, size_t n)
{
	volatile u8 *p = s;

	while (n--)
		*p++ = (u8)c;
	return s;
}

void *memcpy(void *dst, const void *src, size_t n)
{
	volatile u8 *d = dst;
	const u8 *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

static void put_str(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	ua_syscall3(__NR_write, 1, (long)s, (long)n);
}

/* Decimal, for counts. */
static void put_uint(unsigned int v)
{
	char buf[12];
	unsigned int i = sizeof(buf) - 1;

	buf[i] = '\0';
	do {
		buf[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	put_str(buf + i);
}

/* 0x-prefixed lower-case hexadecimal, as the harness's %llx. */
static void put_hex(u64 v)
{
	static const char digits[] = "0123456789abcdef";
	char buf[19];
	unsigned int i = sizeof(buf) - 1;

	buf[i] = '\0';
	do {
		buf[--i] = digits[v & 0xf];
		v >>= 4;
	} while (v);
	buf[--i] = 'x';
	buf[--i] = '0';
	put_str(buf + i);
}

/**
 * ua_start - run every case, print TAP, exit 0 if all passed
 *
 * Called from _start; exits with exit_group(), never returns.
 */
void ua_start(void);
void ua_start(void)
{
	unsigned int i, passed = 0;

	put_str("TAP version 13\n1..");
	put_uint(ua_nr_cases);
	put_str("\n");
	for (i = 0; i < ua_nr_cases; i++) {
		struct ua_result res = { 0 };
		const struct ua_case *c = &ua_cases[i];

		c->run(&res);
		put_str("# ");
		put_str(c->name);
		put_str(": ");
		put_uint(res.checks);
		put_str(" checks, ");
		put_uint(res.failures);
		put_str(" failed\n");
		if (res.failures) {
			put_str("# ");
			put_str(c->name);
			put_str(": first failure: ");
			put_str(res.what);
			put_str(" at offset ");
			put_uint(res.offset);
			put_str("/");
			put_uint(res.offset2);
			put_str(": got ");
			put_hex(res.got);
			put_str(", want ");
			put_hex(res.want);
			put_str("\n");
		}
		if (res.checks && !res.failures) {
			passed++;
			put_str("ok ");
		} else {
			put_str("not ok ");
		}
		put_uint(i + 1);
		put_str(" freestanding.");
		put_str(c->name);
		put_str("\n");
	}
	put_str("# Totals: pass:");
	put_uint(passed);
	put_str(" fail:");
	put_uint(ua_nr_cases - passed);
	put_str(" xfail:0 xpass:0 skip:0 error:0\n");
	ua_syscall3(__NR_exit_group, passed == ua_nr_cases ? 0 : 1, 0, 0);
	for (;;)
		;
}
