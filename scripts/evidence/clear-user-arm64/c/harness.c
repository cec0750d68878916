// SPDX-License-Identifier: GPL-2.0
/*
 * Behaviour harness for arm64 __arch_clear_user() (arch/arm64/lib/
 * clear_user.S) in user mode, natively on arm64 or under qemu-aarch64.
 *
 * scripts/evidence/clear-user-arm64/clear-user-arm64 assembles a kernel tree's clear_user.S twice,
 * without and with a patch, against the shims in include/ (USER() records
 * its exception-table entries in the section harness_extable), renames
 * the two copies clear_user_unpatched() and clear_user_patched() and links
 * them with this file into one static program.
 *
 * The SIGSEGV handler does what the kernel's exception table does on a
 * uaccess fault: it looks the faulting pc up in the table and resumes at
 * the fixup, which returns the number of bytes not cleared.  A fault at a
 * pc that is not in the table aborts the program with a message.
 *
 * Tests (plain TAP on stdout):
 *  - the table: every entry lies within one of the two routines, as many
 *    entries in each;
 *  - clear, per routine: every offset 0..15 in a buffer and every length
 *    0..300, and lengths 4095, 4096, 65536 + 7, 1 MiB + 3 at every
 *    offset: return 0, every byte in range zero, the guard bytes on both
 *    sides untouched, no fault;
 *  - faults, per routine: the buffer runs into a PROT_NONE page at k
 *    bytes, for every k in 0..len and every length 0..300, and for
 *    samples of k at the large lengths.  The buffer is placed k bytes
 *    before the page, so its offset modulo 16 is (-k) mod 16: covering
 *    every k covers every offset.  The return value r must satisfy:
 *    exactly one fault if k < len and none otherwise (then r == 0);
 *    r >= len - k; r - (len - k) < 8 (at most one store short: the stores
 *    are at most 8 bytes and the fixup reports from the faulting one);
 *    every byte of [addr, addr + len - r) zero; the guard bytes before
 *    addr untouched (nothing can be written at or after the PROT_NONE
 *    page);
 *  - patched and unpatched agree: the same r and the same memory, byte
 *    for byte, in every fault case.
 * A diagnostic gives, per routine, how many fault cases (k < len) had
 * r == len - k exactly and how many were short by 1..7 bytes, and how
 * many left zeroed bytes beyond addr + len - r (allowed, reported).
 *
 * Exit status: 0 if every test passed, 1 otherwise.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#ifndef __aarch64__
#error "the clear_user harness runs arm64 code: build it for aarch64"
#endif

/**
 * clear_user_unpatched - the tree's __arch_clear_user(), renamed
 * @addr: start of the memory to clear
 * @sz: number of bytes to clear
 *
 * Return: the number of bytes not cleared (0 on success).
 */
unsigned long clear_user_unpatched(void *addr, unsigned long sz);

/**
 * clear_user_patched - __arch_clear_user() with the patch applied, renamed
 * @addr: start of the memory to clear
 * @sz: number of bytes to clear
 *
 * Return: the number of bytes not cleared (0 on success).
 */
unsigned long clear_user_patched(void *addr, unsigned long sz);

/* One USER() annotation (include/asm/asm-uaccess.h): absolute addresses. */
struct harness_extable_entry {
	unsigned long insn;
	unsigned long fixup;
};

extern const struct harness_extable_entry __start_harness_extable[];
extern const struct harness_extable_entry __stop_harness_extable[];

typedef unsigned long (*clear_fn)(void *addr, unsigned long sz);

static const struct variant {
	const char *name;
	clear_fn clear;
} variants[] = {
	{ "unpatched", clear_user_unpatched },
	{ "patched", clear_user_patched },
};

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define __printf(a, b)	__attribute__((format(printf, a, b)))

#define NR_VARIANTS	2
#define GUARD		64	/* guard bytes checked on each side */
#define MAX_SMALL	300	/* every length 0..MAX_SMALL */
#define MAX_OFFSET	16	/* every offset 0..MAX_OFFSET - 1 */
#define MAX_DELTA	8	/* r - (len - k) must stay below this */
#define FN_SPAN		256	/* a routine is shorter than this */

static const unsigned long large_lens[] = {
	4095, 4096, 65536 + 7, (1UL << 20) + 3,
};
#define NR_LARGE	ARRAY_SIZE(large_lens)
#define MAX_LEN		((1UL << 20) + 3)

static unsigned long page_size;
static unsigned int tap_n, tap_failed;

/* Set by the SIGSEGV handler: volatile, as for a sig_atomic_t. */
static volatile unsigned int fault_count;
static volatile unsigned long fault_pc;

/* --- the exception table ------------------------------------------------ */

static void put_hex(char *buf, unsigned long v)
{
	static const char digits[] = "0123456789abcdef";
	int i;

	for (i = 15; i >= 0; i--, v >>= 4)
		buf[i] = digits[v & 0xf];
}

/*
 * SIGSEGV: resume at the fixup of the faulting instruction, as
 * fixup_exception() does in the kernel; anything else is a bug of the
 * harness or of the routine, and aborts loudly (async-signal-safe output).
 */
static void segv_handler(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	unsigned long pc = uc->uc_mcontext.pc;
	const struct harness_extable_entry *e;
	char msg[] = "clear_user harness: SIGSEGV at pc 0x0000000000000000, "
		     "address 0x0000000000000000: not in the exception table\n";

	/* One array between the linker's section bounds. */
	// cppcheck-suppress comparePointers
	for (e = __start_harness_extable; e < __stop_harness_extable; e++) {
		if (e->insn == pc) {
			fault_count = fault_count + 1;
			fault_pc = pc;
			uc->uc_mcontext.pc = e->fixup;
			return;
		}
	}
	put_hex(strstr(msg, "pc 0x") + 5, pc);
	put_hex(strstr(msg, "address 0x") + 10, (unsigned long)si->si_addr);
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0)
		(void)sig;
	abort();
}

/* --- TAP ------------------------------------------------------------------ */

/*
 * A test's result: cases run, cases failed (a case counts once, whatever
 * number of its checks failed), and the first failure in words.  Each
 * case increments cases before its checks.
 */
struct result {
	unsigned long cases;
	unsigned long failures;
	unsigned long failed_case;	/* the value of cases at the last failure */
	char first[256];
};

static __printf(2, 3) void fail(struct result *res, const char *fmt, ...)
{
	va_list ap;

	if (res->failures && res->failed_case == res->cases)
		return;
	res->failed_case = res->cases;
	if (!res->failures++) {
		va_start(ap, fmt);
		vsnprintf(res->first, sizeof(res->first), fmt, ap);
		va_end(ap);
	}
}

static __printf(2, 3) void report(const struct result *res, const char *fmt, ...)
{
	va_list ap;
	int ok = res->cases && !res->failures;

	tap_n++;
	if (!ok)
		tap_failed++;
	printf("%s %u - ", ok ? "ok" : "not ok", tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(": %lu cases", res->cases);
	if (res->failures)
		printf(", %lu failed", res->failures);
	printf("\n");
	if (res->failures)
		printf("# first failure: %s\n", res->first);
	fflush(stdout);
}

/* --- memory ----------------------------------------------------------------- */

/* A recognisable non-zero byte for position i. */
static inline unsigned char pattern(unsigned long i)
{
	return (unsigned char)(0x80 | ((i * 7) & 0x7f));
}

static void fill(unsigned char *p, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		p[i] = pattern((unsigned long)(p + i));
}

/* Index of the first byte of p[0..n) that is not zero, or n. */
static unsigned long first_nonzero(const unsigned char *p, unsigned long n)
{
	unsigned long i = 0;

	while (i < n && ((uintptr_t)(p + i) & 7))
		if (p[i++])
			return i - 1;
	for (; i + 8 <= n; i += 8)
		if (*(const uint64_t *)(p + i))
			break;
	for (; i < n; i++)
		if (p[i])
			return i;
	return n;
}

/* Index of the first byte of p[0..n) that lost its pattern, or n. */
static unsigned long first_changed(const unsigned char *p, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		if (p[i] != pattern((unsigned long)(p + i)))
			return i;
	return n;
}

/* Index of the first byte where a[0..n) and b[0..n) differ, or n. */
static unsigned long first_differ(const unsigned char *a,
				  const unsigned char *b, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return i;
	return n;
}

static void *map(unsigned long size, int prot)
{
	void *p = mmap(NULL, size, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("clear_user harness: mmap");
		exit(2);
	}
	return p;
}

/* --- tests ------------------------------------------------------------------ */

static void test_extable(void)
{
	const struct harness_extable_entry *e;
	unsigned long per[NR_VARIANTS] = { 0 };
	struct result res = { 0 };
	unsigned int v;

	/* One array between the linker's section bounds. */
	// cppcheck-suppress comparePointers
	for (e = __start_harness_extable; e < __stop_harness_extable; e++) {
		unsigned int best = NR_VARIANTS;
		unsigned long fn;

		res.cases++;
		/* The routine that starts closest before the instruction. */
		for (v = 0; v < NR_VARIANTS; v++) {
			fn = (unsigned long)variants[v].clear;
			if (e->insn >= fn && (best == NR_VARIANTS ||
			    fn > (unsigned long)variants[best].clear))
				best = v;
		}
		fn = best < NR_VARIANTS ? (unsigned long)variants[best].clear : 0;
		if (best == NR_VARIANTS || e->insn - fn >= FN_SPAN ||
		    e->fixup < fn || e->fixup - fn >= FN_SPAN)
			fail(&res, "entry insn %#lx fixup %#lx is in neither routine",
			     e->insn, e->fixup);
		else
			per[best]++;
	}
	if (!per[0] || per[0] != per[1])
		fail(&res, "%lu entries in unpatched, %lu in patched", per[0], per[1]);
	for (v = 0; v < NR_VARIANTS; v++)
		printf("# %s at %#lx (address mod 64 = %lu), %lu extable entries\n",
		       variants[v].name, (unsigned long)variants[v].clear,
		       (unsigned long)variants[v].clear % 64, per[v]);
	report(&res, "exception table: %lu entries per routine", per[0]);
}

/*
 * Clear at buf + GUARD + off, length len, in a buffer of at least
 * GUARD + off + len + GUARD bytes.
 */
static void clear_case(const struct variant *v, unsigned char *buf,
		       unsigned long off, unsigned long len, struct result *res)
{
	unsigned char *p = buf + GUARD + off;
	unsigned long r, i;

	fill(buf, GUARD + off + len + GUARD);
	fault_count = 0;
	r = v->clear(p, len);
	res->cases++;
	if (fault_count) {
		fail(res, "offset %lu length %lu: %u faults (pc %#lx)", off, len,
		     fault_count, fault_pc);
		return;
	}
	if (r) {
		fail(res, "offset %lu length %lu: returned %lu, want 0", off, len, r);
		return;
	}
	i = first_nonzero(p, len);
	if (i != len)
		fail(res, "offset %lu length %lu: byte %lu not cleared (%#x)", off,
		     len, i, p[i]);
	i = first_changed(buf, GUARD + off);
	if (i != GUARD + off)
		fail(res, "offset %lu length %lu: guard byte changed at addr-%lu",
		     off, len, GUARD + off - i);
	i = first_changed(p + len, GUARD);
	if (i != GUARD)
		fail(res, "offset %lu length %lu: guard byte changed at addr+len+%lu",
		     off, len, i);
}

static void test_clear(const struct variant *v, unsigned char *buf)
{
	struct result res = { 0 };
	unsigned long off, len;
	unsigned int i;

	for (off = 0; off < MAX_OFFSET; off++) {
		for (len = 0; len <= MAX_SMALL; len++)
			clear_case(v, buf, off, len, &res);
		for (i = 0; i < NR_LARGE; i++)
			clear_case(v, buf, off, large_lens[i], &res);
	}
	report(&res, "%s: clear, offsets 0..%d x lengths 0..%d, 4095, 4096, 65543, 1048579",
	       v->name, MAX_OFFSET - 1, MAX_SMALL);
}

/* Per routine: fault cases by r - (len - k), and over-cleared ones. */
static unsigned long histo[NR_VARIANTS][MAX_DELTA];
static unsigned long histo_other[NR_VARIANTS];
static unsigned long over_cleared[NR_VARIANTS];

/*
 * One fault case for one routine: the buffer addr = guard - k, length len,
 * the PROT_NONE page at guard.  Leaves r in *ret; the bytes from
 * addr - GUARD to guard are what the routine left.
 */
static void fault_case(unsigned int vi, unsigned char *guard, unsigned long k,
		       unsigned long len, unsigned long *ret,
		       struct result *res)
{
	unsigned char *addr = guard - k;
	unsigned long r, i, want_faults = k < len, d;

	fill(addr - GUARD, GUARD + k);
	fault_count = 0;
	r = variants[vi].clear(addr, len);
	*ret = r;
	res->cases++;
	if (fault_count != want_faults) {
		fail(res, "length %lu k %lu: %u faults, want %lu", len, k,
		     fault_count, want_faults);
		return;
	}
	if (!want_faults && r) {
		fail(res, "length %lu k %lu (no fault): returned %lu, want 0",
		     len, k, r);
		return;
	}
	if (want_faults && (r > len || r < len - k)) {
		fail(res, "length %lu k %lu: returned %lu, want %lu..%lu", len, k,
		     r, len - k, len - k + MAX_DELTA - 1);
		histo_other[vi]++;
		return;
	}
	if (want_faults) {
		d = r - (len - k);
		if (d < MAX_DELTA) {
			histo[vi][d]++;
		} else {
			histo_other[vi]++;
			fail(res, "length %lu k %lu: returned %lu, %lu more than len-k",
			     len, k, r, d);
		}
	}
	i = first_nonzero(addr, len - r);
	if (i != len - r)
		fail(res, "length %lu k %lu r %lu: byte %lu not cleared (%#x)",
		     len, k, r, i, addr[i]);
	i = first_changed(addr - GUARD, GUARD);
	if (i != GUARD)
		fail(res, "length %lu k %lu: guard byte changed at addr-%lu", len,
		     k, GUARD - i);
	if (len - r < k && first_changed(addr + len - r, k - (len - r)) !=
	    k - (len - r))
		over_cleared[vi]++;
}

/* Samples of k for a large length, into ks[0..MAX_SMALL]. */
static unsigned long large_ks(unsigned long len, unsigned long *ks)
{
	static const unsigned long near[] = { 0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17 };
	unsigned long n = 0, i, j, k;

	for (i = 0; i < ARRAY_SIZE(near); i++) {
		ks[n++] = near[i];
		ks[n++] = len - near[i];
	}
	for (i = 0; i < 16; i++)
		ks[n++] = len / 2 - 8 + i;
	for (k = 4096; k < len; k += 4096 * 61) {
		ks[n++] = k - 1;
		ks[n++] = k;
		ks[n++] = k + 3;
	}
	/* Drop duplicates and anything above len (tiny lists: quadratic). */
	for (i = j = 0; i < n; i++) {
		unsigned long m;

		if (ks[i] > len)
			continue;
		for (m = 0; m < j && ks[m] != ks[i]; m++)
			;
		if (m == j)
			ks[j++] = ks[i];
	}
	return j;
}

static void test_faults(unsigned char *guard)
{
	struct result res[NR_VARIANTS] = { 0 }, agree = { 0 };
	unsigned char *snap = map(MAX_LEN + GUARD, PROT_READ | PROT_WRITE);
	unsigned long ks[MAX_SMALL + 1], nk, len, k, i, j, r[NR_VARIANTS];
	unsigned int v;

	for (len = 0; len <= MAX_SMALL + NR_LARGE; len++) {
		unsigned long l = len <= MAX_SMALL ? len : large_lens[len - MAX_SMALL - 1];

		if (l <= MAX_SMALL) {
			nk = l + 1;
			for (k = 0; k <= l; k++)
				ks[k] = k;
		} else {
			nk = large_ks(l, ks);
		}
		for (j = 0; j < nk; j++) {
			k = ks[j];
			for (v = 0; v < NR_VARIANTS; v++) {
				fault_case(v, guard, k, l, &r[v], &res[v]);
				if (!v)
					memcpy(snap, guard - k - GUARD, GUARD + k);
			}
			agree.cases++;
			i = first_differ(snap, guard - k - GUARD, GUARD + k);
			if (r[0] != r[1])
				fail(&agree, "length %lu k %lu: unpatched returned %lu, patched %lu",
				     l, k, r[0], r[1]);
			else if (i != GUARD + k)
				fail(&agree, "length %lu k %lu: memory differs at addr%+ld",
				     l, k, (long)i - GUARD);
		}
	}
	for (v = 0; v < NR_VARIANTS; v++) {
		report(&res[v],
		       "%s: faults at every k in 0..len for lengths 0..%d, sampled k for 4095, 4096, 65543, 1048579",
		       variants[v].name, MAX_SMALL);
		printf("# %s: fault cases (k < len) by r - (len - k): exact %lu",
		       variants[v].name, histo[v][0]);
		for (i = 1; i < MAX_DELTA; i++)
			printf(", short by %lu: %lu", i, histo[v][i]);
		if (histo_other[v])
			printf(", out of range: %lu", histo_other[v]);
		printf("\n# %s: cases that zeroed bytes beyond addr+len-r: %lu\n",
		       variants[v].name, over_cleared[v]);
	}
	report(&agree, "patched and unpatched agree: same return value and memory");
	munmap(snap, MAX_LEN + GUARD);
}

int main(void)
{
	struct sigaction sa = { 0 };
	unsigned long clear_size, fault_size;
	unsigned char *clear_buf, *fault_area;
	unsigned int v;

	page_size = (unsigned long)sysconf(_SC_PAGESIZE);
	sa.sa_sigaction = segv_handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, NULL)) {
		perror("clear_user harness: sigaction");
		return 2;
	}
	clear_size = GUARD + MAX_OFFSET + MAX_LEN + GUARD;
	clear_buf = map(clear_size, PROT_READ | PROT_WRITE);
	/* Room for the largest k and the guard bytes, then a PROT_NONE page. */
	fault_size = (GUARD + MAX_LEN + page_size - 1) / page_size * page_size;
	fault_area = map(fault_size + page_size, PROT_READ | PROT_WRITE);
	if (mprotect(fault_area + fault_size, page_size, PROT_NONE)) {
		perror("clear_user harness: mprotect");
		return 2;
	}

	printf("TAP version 13\n1..%d\n", 2 + 2 * NR_VARIANTS);
	fflush(stdout);
	test_extable();
	for (v = 0; v < NR_VARIANTS; v++)
		test_clear(&variants[v], clear_buf);
	test_faults(fault_area + fault_size);
	printf("# Totals: pass:%u fail:%u\n", tap_n - tap_failed, tap_failed);
	return tap_failed ? 1 : 0;
}
