// SPDX-License-Identifier: GPL-2.0
/*
 * Correctness of rep_movs_alternative() from a kernel tree, with and
 * without patch 0003 (and its ERMS path), in user space.  TAP on stdout.
 *
 * For each variant (usercopy.h):
 *
 *  contract      registers other than %rax, %rcx, %rsi, %rdi come back
 *                unchanged, also through the fault fixups
 *  copies        every source offset 0..15, destination offset 0..15 and
 *                length 0..300: the same bytes as memcpy(), return 0, the
 *                canary bytes on both sides of the destination intact
 *  large copies  the same for 4095, 4096, 4097, 64 KiB + 7 and 1 MiB + 3
 *  source fault  the source ends at a PROT_NONE page k bytes into the
 *                copy, for every k in 0..len, every len in 0..300 and
 *                destination offsets 0..7: the return value is len - k
 *                (bytes not copied, exactly), the k bytes before the fault
 *                are copied, nothing after them is written
 *  dest fault    the same with the destination ending at the page, for
 *                source offsets 0..7
 *  large faults  both directions for the large lengths, at a sample of k
 *                (the first and last 72 bytes and about 128 in between)
 *
 * then that the patched and unpatched variants returned the same values
 * and left the same destination bytes in every fault case.
 *
 * Usage: usercopy-test [VARIANT...]   (default: all)
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "usercopy.h"

#define CANARY		0xa5
#define GUARD		64	/* canary bytes on each side of a destination */
#define MAX_SMALL	300
#define MAX_OFS		16
#define FAULT_OFS	8
#define EDGE		72	/* large faults: every k this close to either end */
#define SHOW		3	/* failures shown per TAP line */

static const unsigned long large_lens[] = {
	4095, 4096, 4097, 65536 + 7, (1UL << 20) + 3,
};
#define NR_LARGE	ARRAY_SIZE(large_lens)
#define MAX_LEN		((1UL << 20) + 3)
#define PAGE		4096UL
/* Room for the largest copy, its offsets and guards, in whole pages. */
#define AREA		((MAX_LEN + 2 * GUARD + 2 * MAX_OFS + 2 * PAGE) & ~(PAGE - 1))

static unsigned char *src_buf;	/* AREA bytes of pattern, read-only */
static unsigned char *dst_buf;	/* AREA bytes */
static unsigned char *canary_buf; /* AREA bytes of CANARY, read-only */
static unsigned char *src_edge;	/* read-only pattern, ends at a PROT_NONE page */
static unsigned char *dst_edge;	/* writable, ends at a PROT_NONE page */

static unsigned int tap_n, tap_failed;

static void tap(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %u - ", ok ? "ok" : "not ok", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (!ok)
		tap_failed++;
}

/* Failures of one TAP line: counted, the first SHOW of them shown. */
struct fails {
	unsigned long n;
};

static void fail(struct fails *f, const char *fmt, ...)
{
	va_list ap;

	if (f->n++ >= SHOW) {
		if (f->n == SHOW + 1)
			printf("#   ... (further failures not shown)\n");
		return;
	}
	printf("#   ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* first_diff - index of the first byte where @a and @b differ, or @n */
static size_t first_diff(const unsigned char *a, const unsigned char *b, size_t n)
{
	size_t i;

	if (!memcmp(a, b, n))
		return n;
	for (i = 0; i < n && a[i] == b[i]; i++)
		;
	return i;
}

/*
 * check_dst - @n bytes at @got must equal @want (NULL: all CANARY); on a
 * difference, record a failure naming @what and the case.  Returns 0 if
 * they are equal.
 */
static int check_dst(struct fails *f, const char *what, const unsigned char *got,
		     const unsigned char *want, size_t n, const char *ctx)
{
	size_t i = first_diff(got, want ? want : canary_buf, n);

	if (i == n)
		return 0;
	fail(f, "%s: %s: byte %zu is 0x%02x, want 0x%02x", ctx, what, i, got[i],
	     want ? want[i] : CANARY);
	return -1;
}

static void *map(size_t len, int prot)
{
	void *p = mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		printf("Bail out! mmap of %zu bytes failed\n", len);
		exit(1);
	}
	return p;
}

/* A pattern without CANARY bytes, so "not written" is always visible. */
static void fill_pattern(unsigned char *p, size_t n, uint64_t seed)
{
	size_t i;

	for (i = 0; i < n; i++) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		p[i] = (unsigned char)(seed >> 24);
		if (p[i] == CANARY)
			p[i] = 0x5a;
	}
}

/*
 * edge_area - AREA bytes followed by a PROT_NONE page; returns a pointer to
 * the first byte of that page.  Filled with the pattern and made
 * read-only if @pattern (a source), else left writable.
 */
static unsigned char *edge_area(int pattern, uint64_t seed)
{
	unsigned char *p = map(AREA + PAGE, PROT_READ | PROT_WRITE);

	if (pattern)
		fill_pattern(p, AREA, seed);
	if (mprotect(p + AREA, PAGE, PROT_NONE) ||
	    (pattern && mprotect(p, AREA, PROT_READ))) {
		printf("Bail out! mprotect failed\n");
		exit(1);
	}
	return p + AREA;
}

static void setup(void)
{
	src_buf = map(AREA, PROT_READ | PROT_WRITE);
	fill_pattern(src_buf, AREA, 0x9e3779b97f4a7c15ULL);
	dst_buf = map(AREA, PROT_READ | PROT_WRITE);
	canary_buf = map(AREA, PROT_READ | PROT_WRITE);
	memset(canary_buf, CANARY, AREA);
	if (mprotect(src_buf, AREA, PROT_READ) || mprotect(canary_buf, AREA, PROT_READ)) {
		printf("Bail out! mprotect failed\n");
		exit(1);
	}
	src_edge = edge_area(1, 0x2545f4914f6cdd1dULL);
	dst_edge = edge_area(0, 0);
}

/* --- register contract ------------------------------------------------ */

/*
 * contract_call - uc_copy() with every register the routine must preserve
 * (%rbx, %rdx, %rbp, %r8-%r15) set to a known value before the call and
 * checked after it.  Returns the bytes not copied; *@bad gets the OR of
 * the differences (0 if every register came back unchanged).
 */
static unsigned long contract_call(const struct uc_variant *v, void *dst,
				   const void *src, unsigned long len,
				   unsigned long *bad)
{
	unsigned long acc = (unsigned long)v->start;

	asm volatile("push %%rbp\n\t"
		     "mov $0x1b2c3d41, %%rbx\n\t"
		     "mov $-0x1b2c3d42, %%rdx\n\t"
		     "mov $0x1b2c3d43, %%rbp\n\t"
		     "mov $-0x1b2c3d44, %%r8\n\t"
		     "mov $0x1b2c3d45, %%r9\n\t"
		     "mov $-0x1b2c3d46, %%r10\n\t"
		     "mov $0x1b2c3d47, %%r11\n\t"
		     "mov $-0x1b2c3d48, %%r12\n\t"
		     "mov $0x1b2c3d49, %%r13\n\t"
		     "mov $-0x1b2c3d4a, %%r14\n\t"
		     "mov $0x1b2c3d4b, %%r15\n\t"
		     "call *%%rax\n\t"
		     "xor %%eax, %%eax\n\t"
		     "xor $0x1b2c3d41, %%rbx\n\t"
		     "or %%rbx, %%rax\n\t"
		     "xor $-0x1b2c3d42, %%rdx\n\t"
		     "or %%rdx, %%rax\n\t"
		     "xor $0x1b2c3d43, %%rbp\n\t"
		     "or %%rbp, %%rax\n\t"
		     "xor $-0x1b2c3d44, %%r8\n\t"
		     "or %%r8, %%rax\n\t"
		     "xor $0x1b2c3d45, %%r9\n\t"
		     "or %%r9, %%rax\n\t"
		     "xor $-0x1b2c3d46, %%r10\n\t"
		     "or %%r10, %%rax\n\t"
		     "xor $0x1b2c3d47, %%r11\n\t"
		     "or %%r11, %%rax\n\t"
		     "xor $-0x1b2c3d48, %%r12\n\t"
		     "or %%r12, %%rax\n\t"
		     "xor $0x1b2c3d49, %%r13\n\t"
		     "or %%r13, %%rax\n\t"
		     "xor $-0x1b2c3d4a, %%r14\n\t"
		     "or %%r14, %%rax\n\t"
		     "xor $0x1b2c3d4b, %%r15\n\t"
		     "or %%r15, %%rax\n\t"
		     "pop %%rbp"
		     : "+a" (acc), "+D" (dst), "+S" (src), "+c" (len)
		     :
		     : "rbx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13",
		       "r14", "r15", "memory", "cc");
	*bad = acc;
	return len;
}

static void test_contract(const struct uc_variant *v)
{
	static const unsigned long lens[] = { 0, 1, 7, 8, 9, 63, 64, 65, 100, 300, 4096 + 5 };
	struct fails f = { 0 };
	unsigned int i, ofs, calls = 0, faulting = 0;
	unsigned long ret, bad, want, k;
	char ctx[96];

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		for (ofs = 0; ofs < 4; ofs++) {
			unsigned long len = lens[i];

			/* ofs 0, 1: a plain copy; 2, 3: the source faults halfway. */
			k = ofs < 2 ? len : len / 2;
			snprintf(ctx, sizeof(ctx), "len %lu dst offset %u%s", len, ofs,
				 k < len ? " source fault" : "");
			uc_expect_faults(src_edge, src_edge + PAGE);
			ret = contract_call(v, dst_buf + GUARD + ofs,
					    k < len ? src_edge - k : src_buf, len, &bad);
			uc_expect_faults(NULL, NULL);
			want = len - k;
			calls++;
			faulting += k < len;
			if (bad)
				fail(&f, "%s: preserved registers changed (xor 0x%lx)", ctx, bad);
			if (ret != want)
				fail(&f, "%s: returned %lu, want %lu", ctx, ret, want);
		}
	}
	tap(!f.n, "%s: register contract: %%rbx %%rdx %%rbp %%r8-%%r15 preserved, %%rcx = bytes not copied, in %u calls (%u through a fault fixup)",
	    v->name, calls, faulting);
}

/* --- copies without faults -------------------------------------------- */

/* copy_case - one copy from src_buf + @so to dst_buf + @dofs; 0 if right */
static int copy_case(const struct uc_variant *v, struct fails *f, unsigned int so,
		     unsigned int dofs, unsigned long len)
{
	const unsigned char *s = src_buf + 64 + so;
	unsigned char *d = dst_buf + GUARD + dofs;
	unsigned long ret;
	char ctx[80];
	int bad = 0;

	memset(d - GUARD, CANARY, GUARD + len + GUARD);
	ret = uc_copy(v, d, s, len);
	snprintf(ctx, sizeof(ctx), "src offset %u dst offset %u len %lu", so, dofs, len);
	if (ret) {
		fail(f, "%s: returned %lu, want 0", ctx, ret);
		bad = -1;
	}
	bad |= check_dst(f, "data", d, s, len, ctx);
	bad |= check_dst(f, "canary before", d - GUARD, NULL, GUARD, ctx);
	bad |= check_dst(f, "canary after", d + len, NULL, GUARD, ctx);
	return bad;
}

static void test_copies(const struct uc_variant *v)
{
	struct fails f = { 0 };
	unsigned long n = 0, bad = 0, len;
	unsigned int so, dofs;

	for (so = 0; so < MAX_OFS; so++)
		for (dofs = 0; dofs < MAX_OFS; dofs++)
			for (len = 0; len <= MAX_SMALL; len++, n++)
				bad += !!copy_case(v, &f, so, dofs, len);
	tap(!f.n, "%s: %lu copies (src offset 0..%u x dst offset 0..%u x len 0..%u) equal memcpy(), return 0, canaries intact; %lu failed",
	    v->name, n, MAX_OFS - 1, MAX_OFS - 1, MAX_SMALL, bad);
}

static void test_large_copies(const struct uc_variant *v)
{
	struct fails f = { 0 };
	unsigned long n = 0, bad = 0;
	unsigned int i, so, dofs;

	for (i = 0; i < NR_LARGE; i++)
		for (so = 0; so < MAX_OFS; so++)
			for (dofs = 0; dofs < MAX_OFS; dofs++, n++)
				bad += !!copy_case(v, &f, so, dofs, large_lens[i]);
	tap(!f.n, "%s: %lu large copies (len 4095 4096 4097 65543 1048579 x src offset 0..%u x dst offset 0..%u) equal memcpy(), return 0, canaries intact; %lu failed",
	    v->name, n, MAX_OFS - 1, MAX_OFS - 1, bad);
}

/* --- copies that fault -------------------------------------------------- */

/* Results of one set of fault cases, to compare the variants. */
struct results {
	unsigned long n;
	unsigned long *ret;	/* per case: bytes not copied */
	uint64_t hash;		/* FNV-1a over every case's destination bytes */
};

static uint64_t fnv(uint64_t h, const unsigned char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

/*
 * fault_case - copy @len bytes where the source (@dst_faults == 0) or the
 * destination ends at a PROT_NONE page @k bytes into the copy; the other
 * buffer is at offset @ofs.  Returns 0 if right; records the result in @r.
 */
static int fault_case(const struct uc_variant *v, struct fails *f, struct results *r,
		      int dst_faults, unsigned long len, unsigned long k, unsigned int ofs)
{
	const unsigned char *s;
	unsigned char *d, *edge;
	unsigned long ret, want = len - k, fixups = uc_fixups;
	size_t after;
	char ctx[96];
	int bad = 0;

	if (dst_faults) {
		edge = dst_edge;
		d = dst_edge - k;
		s = src_buf + 64 + ofs;
		after = 0;	/* the rest is the PROT_NONE page */
	} else {
		edge = src_edge;
		s = src_edge - k;
		d = dst_buf + GUARD + ofs;
		after = len - k + GUARD;
	}
	memset(d - GUARD, CANARY, GUARD + k + after);
	uc_expect_faults(edge, edge + PAGE);
	ret = uc_copy(v, d, s, len);
	uc_expect_faults(NULL, NULL);

	snprintf(ctx, sizeof(ctx), "len %lu, %s faults after %lu bytes, %s offset %u",
		 len, dst_faults ? "destination" : "source", k,
		 dst_faults ? "src" : "dst", ofs);
	if (ret != want) {
		fail(f, "%s: returned %lu, want %lu", ctx, ret, want);
		bad = -1;
	}
	if (k < len && uc_fixups == fixups) {
		fail(f, "%s: no fault was taken", ctx);
		bad = -1;
	}
	bad |= check_dst(f, "copied part", d, s, k, ctx);
	bad |= check_dst(f, "canary before", d - GUARD, NULL, GUARD, ctx);
	if (after)
		bad |= check_dst(f, "past the fault", d + k, NULL, after, ctx);

	r->ret[r->n++] = ret;
	r->hash = fnv(r->hash, d - GUARD, GUARD + k + after);
	return bad;
}

static unsigned long nr_small_fault_cases(void)
{
	return (unsigned long)FAULT_OFS * (MAX_SMALL + 1) * (MAX_SMALL + 2) / 2;
}

static void test_faults(const struct uc_variant *v, int dst_faults, struct results *r)
{
	struct fails f = { 0 };
	unsigned long len, k, bad = 0, fixups = uc_fixups;
	unsigned int ofs;

	for (len = 0; len <= MAX_SMALL; len++)
		for (k = 0; k <= len; k++)
			for (ofs = 0; ofs < FAULT_OFS; ofs++)
				bad += !!fault_case(v, &f, r, dst_faults, len, k, ofs);
	tap(!f.n, "%s: %lu copies with the %s ending at a PROT_NONE page (len 0..%u x fault after k = 0..len bytes x %s offset 0..%u, %lu fixups): return len - k, first k bytes copied, nothing else written; %lu failed",
	    v->name, r->n, dst_faults ? "destination" : "source", MAX_SMALL,
	    dst_faults ? "src" : "dst", FAULT_OFS - 1, uc_fixups - fixups, bad);
}

/* large_k - the k of the large-length fault sample, in order; -1 at the end */
static long large_k(unsigned long len, long prev)
{
	unsigned long step = (len / 128) | 1, k;

	for (k = prev + 1; k <= len; k++)
		if (k <= EDGE || len - k <= EDGE || k % step == step / 2)
			return k;
	return -1;
}

static unsigned long nr_large_fault_cases(void)
{
	unsigned long n = 0;
	unsigned int i;
	long k;

	for (i = 0; i < NR_LARGE; i++)
		for (k = large_k(large_lens[i], -1); k >= 0; k = large_k(large_lens[i], k))
			n += 2;
	return n;
}

static void test_large_faults(const struct uc_variant *v, struct results *r)
{
	struct fails f = { 0 };
	unsigned long bad = 0, fixups = uc_fixups;
	unsigned int i;
	int dir;
	long k;

	for (i = 0; i < NR_LARGE; i++)
		for (k = large_k(large_lens[i], -1); k >= 0; k = large_k(large_lens[i], k))
			for (dir = 0; dir < 2; dir++)
				bad += !!fault_case(v, &f, r, dir, large_lens[i], k,
						    (r->n / 2) % FAULT_OFS);
	tap(!f.n, "%s: %lu large copies that fault (len 4095 4096 4097 65543 1048579, source and destination, k = 0..%u, len-%u..len and every ~len/128; %lu fixups): return len - k, first k bytes copied, nothing else written; %lu failed",
	    v->name, r->n, EDGE, EDGE, uc_fixups - fixups, bad);
}

/* --- main ----------------------------------------------------------------- */

#define NR_SETS	3	/* source faults, destination faults, large faults */

static const char *const set_names[NR_SETS] = {
	"source faults", "destination faults", "large faults",
};

/* compare - the first case where two variants' results differ, or -1 */
static long compare(const struct results *a, const struct results *b)
{
	unsigned long i;

	if (a->n != b->n)
		return 0;
	for (i = 0; i < a->n; i++)
		if (a->ret[i] != b->ret[i])
			return i;
	return a->hash == b->hash ? -1 : (long)a->n;
}

int main(int argc, char **argv)
{
	const struct uc_variant *run[8];
	static struct results res[8][NR_SETS];
	unsigned int nrun = 0, i, s;
	unsigned long sizes[NR_SETS];
	struct timespec t0, t1;
	int a = -1, b = -1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (uc_init()) {
		printf("Bail out! bad exception table\n");
		return 1;
	}
	for (i = 1; i < (unsigned int)argc && nrun < 8; i++) {
		run[nrun] = uc_find_variant(argv[i]);
		if (!run[nrun]) {
			fprintf(stderr, "usercopy-test: unknown variant %s\n", argv[i]);
			return 2;
		}
		nrun++;
	}
	if (!nrun)
		for (; nrun < uc_nr_variants; nrun++)
			run[nrun] = &uc_variants[nrun];
	for (i = 0; i < nrun; i++) {
		if (run[i] == uc_find_variant("patched"))
			a = i;
		if (run[i] == uc_find_variant("unpatched"))
			b = i;
	}

	sizes[0] = nr_small_fault_cases();
	sizes[1] = sizes[0];
	sizes[2] = nr_large_fault_cases();
	for (i = 0; i < nrun; i++)
		for (s = 0; s < NR_SETS; s++) {
			res[i][s].ret = calloc(sizes[s], sizeof(unsigned long));
			res[i][s].hash = 0xcbf29ce484222325ULL;
			if (!res[i][s].ret) {
				printf("Bail out! out of memory\n");
				return 1;
			}
		}
	setup();

	printf("1..%u\n", 1 + 6 * nrun + (a >= 0 && b >= 0));
	printf("# exception table entries:");
	for (i = 0; i < uc_nr_variants; i++)
		printf(" %s %u", uc_variants[i].name, uc_variants[i].extable);
	printf("\n");
	for (s = 0, i = 0; i < nrun; i++)
		s |= !run[i]->extable;
	tap(!s, "every variant has exception table entries, each inside the variant with its fixup");

	for (i = 0; i < nrun; i++) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		printf("# %s: %s\n", run[i]->name, run[i]->what);
		test_contract(run[i]);
		test_copies(run[i]);
		test_large_copies(run[i]);
		test_faults(run[i], 0, &res[i][0]);
		test_faults(run[i], 1, &res[i][1]);
		test_large_faults(run[i], &res[i][2]);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		printf("# %s: %.1f s\n", run[i]->name,
		       (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	}

	if (a >= 0 && b >= 0) {
		unsigned long total = 0;
		int same = 1;

		for (s = 0; s < NR_SETS; s++) {
			long at = compare(&res[a][s], &res[b][s]);

			total += res[a][s].n;
			if (at < 0)
				continue;
			same = 0;
			if ((unsigned long)at < res[a][s].n)
				printf("#   %s: case %ld: patched returned %lu, unpatched %lu\n",
				       set_names[s], at, res[a][s].ret[at], res[b][s].ret[at]);
			else
				printf("#   %s: same return values, different destination bytes\n",
				       set_names[s]);
		}
		tap(same, "patched and unpatched: the same return values and destination bytes in all %lu fault cases",
		    total);
	}
	for (i = 0; i < nrun; i++)
		for (s = 0; s < NR_SETS; s++)
			free(res[i][s].ret);
	return tap_failed ? 1 : 0;
}
