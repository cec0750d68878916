// SPDX-License-Identifier: GPL-2.0
/*
 * Bare-metal driver for scripts/evidence/usercopy-x86/usercopy-stores: a
 * multiboot image for qemu-system-x86_64 (TCG) that runs one variant of
 * rep_movs_alternative() (the objects usercopy-x86 --build-only leaves in
 * DIR/obj/) COPIES times on SIZE bytes, from a page-aligned source to a
 * destination at page offset OFFSET, so that a TCG plugin
 * (scripts/bench/plugins/store-align.c) can count the stores of its
 * "rep movsq" by address.  Bare metal because Debian's qemu-x86_64 is a
 * static binary built without plugin support; qemu-system-x86_64 has it.
 *
 * The command line (-append) is "VARIANT OFFSET COPIES SIZE", VARIANT
 * patched or unpatched.  The result is one line on the debug console
 * (port 0xe9): "stores: ok VARIANT offset O copies C size S" or
 * "stores: error ...", then the isa-debug-exit device (port 0xf4) ends
 * QEMU with status 1 (ok) or 3 (error).
 *
 * Build (freestanding, linked at 1 MiB by usercopy-stores's linker script):
 *   gcc -O2 -ffreestanding -fno-pic -mno-red-zone -mgeneral-regs-only
 *       -fno-stack-protector -fno-tree-loop-distribute-patterns -c stores.c
 */
#include <stddef.h>
#include <stdint.h>

#define MAX_SIZE	(1UL << 20)
#define PAGE		4096UL

/* Not C functions: the kernel's register contract (usercopy.h). */
extern const char rep_movs_alternative_patched[];
extern const char rep_movs_alternative_unpatched[];

/*
 * Multiboot (version 1) header with the address fields (flag bit 16), so
 * that QEMU loads the flat binary made by objcopy -O binary; the entry
 * runs in 32-bit protected mode without paging: identity-map the first
 * GiB with 2 MiB pages, enter long mode, call stores_main().
 */
asm(
	"	.pushsection .multiboot, \"a\"\n"
	"	.balign 4\n"
	"mb_header:\n"
	"	.long 0x1badb002\n"
	"	.long 0x00010000\n"
	"	.long -(0x1badb002 + 0x00010000)\n"
	"	.long mb_header\n"
	"	.long __image_start\n"
	"	.long __load_end\n"
	"	.long __bss_end\n"
	"	.long mb_entry\n"
	"	.popsection\n"
	"	.pushsection .text\n"
	"	.code32\n"
	"	.globl mb_entry, mb_info\n"
	"mb_entry:\n"
	"	movl $boot_stack_top, %esp\n"
	"	movl %ebx, mb_info\n"
	"	movl $boot_pml4, %eax\n"
	"	movl %eax, %cr3\n"
	"	movl %cr4, %eax\n"
	"	orl $0x20, %eax\n"			/* PAE */
	"	movl %eax, %cr4\n"
	"	movl $0xc0000080, %ecx\n"		/* EFER */
	"	rdmsr\n"
	"	orl $0x100, %eax\n"			/* LME */
	"	wrmsr\n"
	"	movl %cr0, %eax\n"
	"	orl $0x80000001, %eax\n"		/* PG, PE */
	"	movl %eax, %cr0\n"
	"	lgdt boot_gdt_ptr\n"
	"	ljmp $0x08, $mb_entry64\n"
	"	.code64\n"
	"mb_entry64:\n"
	"	movl $0x10, %eax\n"
	"	movl %eax, %ds\n"
	"	movl %eax, %es\n"
	"	movl %eax, %ss\n"
	"	movq $boot_stack_top, %rsp\n"
	"	call stores_main\n"
	"1:	hlt\n"
	"	jmp 1b\n"
	"	.popsection\n"
	"	.pushsection .data\n"
	"	.balign 4096\n"
	"boot_pml4:\n"
	"	.quad boot_pdpt + 0x3\n"
	"	.fill 511, 8, 0\n"
	"boot_pdpt:\n"
	"	.quad boot_pd + 0x3\n"
	"	.fill 511, 8, 0\n"
	"boot_pd:\n"
	"	.set i, 0\n"
	"	.rept 512\n"
	"	.quad (i << 21) + 0x83\n"		/* present, writable, 2 MiB */
	"	.set i, i + 1\n"
	"	.endr\n"
	"	.balign 8\n"
	"boot_gdt:\n"
	"	.quad 0\n"
	"	.quad 0x00209a0000000000\n"		/* 64-bit code */
	"	.quad 0x0000920000000000\n"		/* data */
	"boot_gdt_ptr:\n"
	"	.word boot_gdt_ptr - boot_gdt - 1\n"
	"	.long boot_gdt\n"
	"mb_info:\n"
	"	.long 0\n"
	"	.popsection\n"
	"	.pushsection .bss\n"
	"	.balign 16\n"
	"	.skip 16384\n"
	"boot_stack_top:\n"
	"	.popsection\n");

/* The multiboot information structure's address, from %ebx. */
extern uint32_t mb_info;
void stores_main(void);

static unsigned char src[MAX_SIZE] __attribute__((aligned(PAGE)));
static unsigned char dst[MAX_SIZE + 2 * PAGE] __attribute__((aligned(PAGE)));

static void outb(uint16_t port, uint8_t v)
{
	asm volatile("outb %0, %1" : : "a" (v), "Nd" (port));
}

static void puts_con(const char *s)
{
	while (*s)
		outb(0xe9, *s++);
}

static void putu_con(unsigned long v)
{
	char buf[24];
	int i = sizeof(buf) - 1;

	buf[i] = '\0';
	do {
		buf[--i] = '0' + v % 10;
		v /= 10;
	} while (v);
	puts_con(buf + i);
}

/**
 * quit - end QEMU through isa-debug-exit
 * @code: 0 (QEMU exits with status 1) or 1 (status 3)
 */
static void __attribute__((noreturn)) quit(uint8_t code)
{
	outb(0xf4, code);
	for (;;)
		asm volatile("hlt");
}

static void __attribute__((noreturn)) fail(const char *why)
{
	puts_con("stores: error: ");
	puts_con(why);
	puts_con("\n");
	quit(1);
}

static int streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/**
 * next_word - the next space-separated word of a command line
 * @p: the cursor, moved past the word
 * @buf: where the word goes (at most @len - 1 characters)
 * @len: size of @buf
 *
 * Return: 1 if there was a word, 0 at the end.
 */
static int next_word(const char **p, char *buf, size_t len)
{
	size_t n = 0;

	while (**p == ' ')
		(*p)++;
	if (!**p)
		return 0;
	while (**p && **p != ' ') {
		if (n + 1 < len)
			buf[n++] = **p;
		(*p)++;
	}
	buf[n] = '\0';
	return 1;
}

static int parse_ul(const char *s, unsigned long *v)
{
	*v = 0;
	if (!*s)
		return 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return 0;
		*v = *v * 10 + (*s - '0');
	}
	return 1;
}

/**
 * copy - call one variant with the kernel's register contract
 * @fn: the variant's entry point
 * @d: destination (%rdi)
 * @s: source (%rsi)
 * @len: number of bytes (%rcx)
 *
 * Return: the number of bytes not copied.
 */
static unsigned long copy(const char *fn, void *d, const void *s, unsigned long len)
{
	asm volatile("call *%[fn]"
		     : "+D" (d), "+S" (s), "+c" (len)
		     : [fn] "r" (fn)
		     : "rax", "memory", "cc");
	return len;
}

void stores_main(void)
{
	const uint32_t *info = (const uint32_t *)(uintptr_t)mb_info;
	unsigned long offset, copies, size, i;
	char variant[16], word[24];
	const char *fn, *p;

	/* Flag bit 2: the command line is at info[4]. */
	if (!(info[0] & 4))
		fail("no command line");
	p = (const char *)(uintptr_t)info[4];
	/* QEMU puts the kernel's file name first. */
	if (!next_word(&p, word, sizeof(word)) ||
	    !next_word(&p, variant, sizeof(variant)))
		fail("usage: VARIANT OFFSET COPIES SIZE");
	if (streq(variant, "patched"))
		fn = rep_movs_alternative_patched;
	else if (streq(variant, "unpatched"))
		fn = rep_movs_alternative_unpatched;
	else
		fail("VARIANT must be patched or unpatched");
	if (!next_word(&p, word, sizeof(word)) || !parse_ul(word, &offset) || offset >= PAGE)
		fail("OFFSET must be 0..4095");
	if (!next_word(&p, word, sizeof(word)) || !parse_ul(word, &copies) || !copies)
		fail("COPIES must be 1 or more");
	if (!next_word(&p, word, sizeof(word)) || !parse_ul(word, &size) || size > MAX_SIZE)
		fail("SIZE must be at most 1 MiB");

	for (i = 0; i < size; i++)
		src[i] = (unsigned char)(i * 131 + (i >> 9) + 1);
	for (i = 0; i < copies; i++) {
		unsigned long j;

		for (j = 0; j < size + 2 * PAGE; j += 8)
			*(volatile uint64_t *)(dst + j) = 0;
		if (copy(fn, dst + PAGE + offset, src, size))
			fail("the copy left bytes uncopied");
		for (j = 0; j < size; j++)
			if (dst[PAGE + offset + j] != src[j])
				fail("wrong bytes in the destination");
		if (dst[PAGE + offset - 1] || dst[PAGE + offset + size])
			fail("the copy wrote outside the destination");
	}
	puts_con("stores: ok ");
	puts_con(variant);
	puts_con(" offset ");
	putu_con(offset);
	puts_con(" copies ");
	putu_con(copies);
	puts_con(" size ");
	putu_con(size);
	puts_con("\n");
	quit(0);
}
