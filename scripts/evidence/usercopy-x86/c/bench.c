// SPDX-License-Identifier: GPL-2.0
/*
 * Throughput of rep_movs_alternative() with and without patch 0003, by
 * destination misalignment (0..7) and size (64 B to 1 MiB, powers of 4),
 * cache-warm, in one run on the same buffers.  Also, for reference, the
 * ERMS variant (rep movsb from 64 bytes) and a bare inline "rep movsb",
 * which is what copy_user_generic() becomes on a CPU with FSRM (no call).
 *
 * Each measurement copies the same source (page aligned) to the same
 * destination (page aligned + DST_OFFSET + misalignment) repeatedly, about
 * BYTES bytes in all; the variants are measured in turn, in a rotating
 * order, REPS times; the median (and the minimum and maximum) is printed.
 *
 * DST_OFFSET is 2048 by default: with the destination at the source's page
 * offset plus a few bytes (--dst-offset 0), the loads of a copy alias the
 * stores just before them in the low 12 address bits ("4K aliasing"),
 * which on some CPUs costs far more than the misalignment itself and would
 * hide what the alignment changes.
 *
 * Output, one row per size, misalignment and variant, tab-separated after
 * a header line:
 *   size  misalign  variant  gbps  gbps_min  gbps_max
 * (gbps: 10^9 bytes per second).  Lines starting with '#' are comments.
 *
 * Usage: usercopy-bench [--quick] [--reps N] [--dst-offset N]
 *   --quick       sizes 64, 1024 and 16384 only, 3 repetitions, 1/8 the bytes
 *   --dst-offset  page offset of the destination before the misalignment:
 *                 a multiple of 64 below 4096 (default 2048)
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "usercopy.h"

#define MAX_SIZE	(1UL << 20)
#define NR_MIS		8
#define MAX_REPS	101

/* The variants of usercopy.h, then a bare "rep movsb" (fsrm). */
#define NR_BENCH	4

static unsigned long fsrm_copy(void *dst, const void *src, unsigned long len)
{
	asm volatile("rep movsb"
		     : "+D" (dst), "+S" (src), "+c" (len)
		     :
		     : "memory");
	return len;
}

static const char *bench_name(int i)
{
	return i < (int)uc_nr_variants ? uc_variants[i].name : "fsrm";
}

static unsigned long bench_copy(int i, void *dst, const void *src, unsigned long len)
{
	if (i < (int)uc_nr_variants)
		return uc_copy(&uc_variants[i], dst, src, len);
	return fsrm_copy(dst, src, len);
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* measure - GB/s of @iters copies of @size bytes with bench variant @v */
static double measure(int v, unsigned char *dst, const unsigned char *src,
		      unsigned long size, unsigned long iters)
{
	unsigned long i, left = 0;
	double t0, t1;

	t0 = now();
	for (i = 0; i < iters; i++)
		left |= bench_copy(v, dst, src, size);
	t1 = now();
	if (left) {
		fprintf(stderr, "usercopy-bench: %s copy of %lu bytes left %lu\n",
			bench_name(v), size, left);
		exit(1);
	}
	return (double)size * iters / (t1 - t0) / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	static const unsigned long full_sizes[] = {
		64, 256, 1024, 4096, 16384, 65536, 262144, 1048576,
	};
	static const unsigned long quick_sizes[] = { 64, 1024, 16384 };
	static double gbps[NR_BENCH][MAX_REPS];
	const unsigned long *sizes = full_sizes;
	unsigned int nsizes = ARRAY_SIZE(full_sizes);
	unsigned long bytes = 16UL << 20;
	unsigned char *src, *dst;
	unsigned int reps = 11, dofs = 2048, s, mis, r;
	int i, v;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick")) {
			sizes = quick_sizes;
			nsizes = ARRAY_SIZE(quick_sizes);
			reps = 3;
			bytes /= 8;
		} else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
			reps = strtoul(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--dst-offset") && i + 1 < argc) {
			dofs = strtoul(argv[++i], NULL, 10);
		} else {
			fprintf(stderr, "usage: usercopy-bench [--quick] [--reps N] [--dst-offset N]\n");
			return 2;
		}
	}
	if (dofs % 64 || dofs >= 4096) {
		fprintf(stderr, "usercopy-bench: --dst-offset must be a multiple of 64 below 4096\n");
		return 2;
	}
	if (reps < 1 || reps > MAX_REPS) {
		fprintf(stderr, "usercopy-bench: --reps must be 1..%d\n", MAX_REPS);
		return 2;
	}
	if (uc_init())
		return 1;

	src = mmap(NULL, MAX_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	dst = mmap(NULL, MAX_SIZE + 8192, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (src == MAP_FAILED || dst == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	for (s = 0; s < MAX_SIZE; s++)
		src[s] = (unsigned char)(s * 131 + (s >> 9));

	printf("# usercopy-bench: %u repetitions of about %lu bytes per size, misalignment and variant; destination at page offset %u + misalignment, source at 0\n",
	       reps, bytes, dofs);
	printf("size\tmisalign\tvariant\tgbps\tgbps_min\tgbps_max\n");
	for (s = 0; s < nsizes; s++) {
		unsigned long size = sizes[s];
		unsigned long iters = bytes / size ? bytes / size : 1;

		for (mis = 0; mis < NR_MIS; mis++) {
			unsigned char *d = dst + dofs + mis;

			/* Warm up, and check that each variant copies right. */
			for (v = 0; v < NR_BENCH; v++) {
				memset(dst, 0, dofs + size + NR_MIS);
				measure(v, d, src, size, iters / 8 + 1);
				if (memcmp(d, src, size)) {
					fprintf(stderr, "usercopy-bench: %s: wrong copy of %lu bytes to offset %u\n",
						bench_name(v), size, mis);
					return 1;
				}
			}
			for (r = 0; r < reps; r++)
				for (i = 0; i < NR_BENCH; i++) {
					v = (i + r) % NR_BENCH;
					gbps[v][r] = measure(v, d, src, size, iters);
				}
			for (v = 0; v < NR_BENCH; v++) {
				qsort(gbps[v], reps, sizeof(double), cmp_double);
				printf("%lu\t%u\t%s\t%.3f\t%.3f\t%.3f\n", size, mis, bench_name(v),
				       reps % 2 ? gbps[v][reps / 2] :
				       (gbps[v][reps / 2 - 1] + gbps[v][reps / 2]) / 2,
				       gbps[v][0], gbps[v][reps - 1]);
			}
		}
	}
	return 0;
}
