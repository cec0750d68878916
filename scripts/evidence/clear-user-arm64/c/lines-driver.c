// SPDX-License-Identifier: GPL-2.0
/*
 * Bare-metal driver for scripts/evidence/clear-user-arm64/clear-user-lines:
 * calls arm64 __arch_clear_user() (a kernel tree's arch/arm64/lib/
 * clear_user.S, assembled against the shims in include/ and placed at a
 * chosen address modulo 64) on a 4 KiB buffer, LINES_CALLS times, for a
 * QEMU TCG plugin to count what its store loop fetches.
 *
 * It runs under qemu-system-aarch64 -M virt -kernel at EL1 with the MMU
 * off (Debian's qemu-aarch64 is linked static and loads no plugin): the
 * unprivileged stores of the routine then store as plain ones, and no
 * fault is taken, so the exception-table entries are never used.  With
 * the MMU off data accesses are to Device memory, which faults on any
 * unaligned access: build with -mstrict-align and -mgeneral-regs-only
 * (the FP/SIMD registers trap at reset), freestanding.
 *
 * It reports through Arm semihosting (-semihosting-config
 * enable=on,target=native): "calls=N bytes=N" on QEMU's stdout, and the
 * exit status, 0 when every call returned 0 and cleared the whole
 * buffer, 1 otherwise.
 */

#ifndef __aarch64__
#error "the clear_user lines driver runs arm64 code: build it for aarch64"
#endif

#ifndef LINES_CALLS
#define LINES_CALLS	200
#endif
#define BUF_SIZE	4096
#define STACK_SIZE	16384

#define __stringify_1(x)	#x
#define __stringify(x)		__stringify_1(x)

/* Arm semihosting operations, and the reason code of a normal exit. */
#define SYS_WRITE0			0x04
#define SYS_EXIT			0x18
#define ADP_STOPPED_APPLICATION_EXIT	0x20026

/**
 * __arch_clear_user - the tree's routine, as assembled
 * @addr: start of the memory to clear
 * @sz: number of bytes to clear
 *
 * Return: the number of bytes not cleared (0 on success).
 */
unsigned long __arch_clear_user(void *addr, unsigned long sz);

void lines_main(void);

static unsigned char buf[BUF_SIZE] __attribute__((aligned(64)));
unsigned char lines_stack[STACK_SIZE] __attribute__((aligned(16)));

/* The entry point: a stack, then lines_main(), which does not return. */
__asm__(
	"	.section .text.start, \"ax\"\n"
	"	.globl _start\n"
	"_start:\n"
	"	adrp	x0, lines_stack + " __stringify(STACK_SIZE) "\n"
	"	add	x0, x0, :lo12:lines_stack + " __stringify(STACK_SIZE) "\n"
	"	mov	sp, x0\n"
	"	bl	lines_main\n"
	"1:	b	1b\n"
	"	.text\n");

/**
 * semihost - an Arm semihosting call
 * @op: the operation
 * @arg: its argument (a pointer, for the operations used here)
 *
 * Return: what the host returned in x0.
 */
static unsigned long semihost(unsigned long op, const void *arg)
{
	register unsigned long x0 __asm__("x0") = op;
	register const void *x1 __asm__("x1") = arg;

	__asm__ volatile("hlt #0xf000" : "+r"(x0) : "r"(x1) : "memory");
	return x0;
}

/**
 * put_str - a string on QEMU's semihosting console
 * @s: the string
 */
static void put_str(const char *s)
{
	semihost(SYS_WRITE0, s);
}

/**
 * put_dec - a number in decimal on QEMU's semihosting console
 * @n: the number
 */
static void put_dec(unsigned long n)
{
	char s[24];
	int i = sizeof(s) - 1;

	s[i] = '\0';
	do {
		s[--i] = '0' + n % 10;
		n /= 10;
	} while (n);
	put_str(&s[i]);
}

/**
 * lines_exit - leave QEMU with an exit status
 * @status: the status
 */
static void __attribute__((noreturn)) lines_exit(unsigned long status)
{
	unsigned long block[2] = { ADP_STOPPED_APPLICATION_EXIT, status };

	semihost(SYS_EXIT, block);
	for (;;)
		;
}

void lines_main(void)
{
	volatile unsigned char *p = buf;
	unsigned long i, j;

	for (i = 0; i < LINES_CALLS; i++) {
		for (j = 0; j < BUF_SIZE; j++)
			p[j] = 0xa5;
		if (__arch_clear_user(buf, BUF_SIZE)) {
			put_str("lines-driver: a call left bytes uncleared\n");
			lines_exit(1);
		}
		for (j = 0; j < BUF_SIZE; j++) {
			if (p[j]) {
				put_str("lines-driver: a byte was not cleared\n");
				lines_exit(1);
			}
		}
	}
	put_str("calls=");
	put_dec(LINES_CALLS);
	put_str(" bytes=");
	put_dec(BUF_SIZE);
	put_str("\n");
	lines_exit(0);
}
