/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-space harness for x86 rep_movs_alternative() (patch 0003).
 *
 * scripts/evidence/usercopy-x86/usercopy-x86 assembles a kernel tree's own
 * arch/x86/lib/copy_user_64.S against the stand-in headers of shim/ three
 * times, and renames each object's symbols (objcopy --redefine-sym):
 *
 *   rep_movs_alternative_patched    with patch 0003 (destination aligned
 *                                   before "rep movsq")
 *   rep_movs_alternative_unpatched  without it
 *   rep_movs_alternative_erms       with patch 0003 and -DHARNESS_ERMS: the
 *                                   ALTERNATIVE's replacement, so copies of
 *                                   64 bytes or more use "rep movsb" (what
 *                                   a CPU with ERMS runs; the same code with
 *                                   or without the patch)
 *
 * Each has a NAME_end label after its last instruction (shim/linux/linkage.h)
 * and its exception table entries in the section harness_extable
 * (shim/asm/asm.h).  Build every file that includes this header with
 * -mno-red-zone: uc_copy() calls the routine, which pushes on the stack.
 */
#ifndef _USERCOPY_H
#define _USERCOPY_H

#include <stddef.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Not C functions: the kernel's register contract, see uc_copy(). */
extern const char rep_movs_alternative_patched[], rep_movs_alternative_patched_end[];
extern const char rep_movs_alternative_unpatched[], rep_movs_alternative_unpatched_end[];
extern const char rep_movs_alternative_erms[], rep_movs_alternative_erms_end[];

/**
 * struct uc_variant - one assembled copy of rep_movs_alternative()
 * @name: short name: patched, unpatched, erms
 * @what: one line on what it is, for reports
 * @start: entry point
 * @end: just past the last instruction
 * @extable: number of exception table entries inside [@start, @end),
 *           counted by uc_init()
 */
struct uc_variant {
	const char *name;
	const char *what;
	const char *start;
	const char *end;
	unsigned int extable;
};

/**
 * struct uc_extable_entry - one _ASM_EXTABLE_UA(from, to) of shim/asm/asm.h
 * @from: address of an instruction that may fault on a user access
 * @to: where execution resumes if it does (the fixup)
 */
struct uc_extable_entry {
	unsigned long from;
	unsigned long to;
};

/* All the entries of the program, from the linker (shim/asm/asm.h). */
extern const struct uc_extable_entry __start_harness_extable[];
extern const struct uc_extable_entry __stop_harness_extable[];

extern struct uc_variant uc_variants[];
extern const unsigned int uc_nr_variants;

/*
 * Faults fixed up by the SIGSEGV handler since the program started
 * (volatile: written by the signal handler, read around uc_copy()).
 */
extern volatile unsigned long uc_fixups;

int uc_init(void);
const struct uc_variant *uc_find_variant(const char *name);
void uc_expect_faults(const void *lo, const void *hi);

/**
 * uc_copy - call one variant with the kernel's register contract
 * @v: the variant
 * @dst: destination (%rdi)
 * @src: source (%rsi)
 * @len: number of bytes (%rcx)
 *
 * rep_movs_alternative() takes its arguments in %rdi, %rsi and %rcx like
 * "rep movs", returns the number of bytes NOT copied in %rcx, and may
 * clobber %rax, %rsi, %rdi and the flags, nothing else.  The call itself
 * pushes the return address below %rsp: the caller must be built with
 * -mno-red-zone.  A fault inside the routine is fixed up by the SIGSEGV
 * handler of uc_init() through the exception table.
 *
 * Return: the number of bytes not copied (0 on success).
 */
static inline unsigned long uc_copy(const struct uc_variant *v, void *dst,
				    const void *src, unsigned long len)
{
	asm volatile("call *%[fn]"
		     : "+D" (dst), "+S" (src), "+c" (len)
		     : [fn] "r" (v->start)
		     : "rax", "memory", "cc");
	return len;
}

#endif /* _USERCOPY_H */
