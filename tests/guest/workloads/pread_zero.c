// SPDX-License-Identifier: GPL-2.0
/*
 * pread_zero - time pread()s of /dev/zero: arm64 __arch_clear_user()
 * (patch 0004, the 64-byte alignment of its store loop).
 *
 * pread() of /dev/zero is read_zero() (drivers/char/mem.c), which clears
 * the user buffer a page at a time with clear_user(): on arm64 that is
 * __arch_clear_user(), so nearly all of the time measured is its 16-byte
 * store loop.  The arm64 clear_user thread measured 10^6 pread()s of
 * 100 KiB: 9.0 s when the loop straddles an I-cache line, 6.9 s when it
 * does not.  These are the defaults here.
 *
 * Usage: pread_zero [-i] [-s SIZE_BYTES] [-n COUNT]
 * Prints "pread_zero_seconds SECONDS s": the wall time of the COUNT calls
 * (CLOCK_MONOTONIC), after one untimed call that faults the buffer in and
 * is checked to have returned zeros.  Lower is better.  With -i,
 * "pread_zero_ns_per_pread NS ns" (under QEMU -icount shift=0, the guest
 * instructions of one pread()).
 */
#include "bench.h"

#define DEF_SIZE	(100 * 1024)
#define DEF_COUNT	1000000
#define MAX_SIZE	(64UL << 20)
#define MAX_COUNT	1000000000UL
#define FILL_BYTE	0xa5

static const char usage[] =
"Usage: pread_zero [-i] [-s SIZE_BYTES] [-n COUNT]\n"
"\n"
"Time COUNT pread()s of SIZE_BYTES from /dev/zero into one buffer: the\n"
"kernel's clear_user() (on arm64 __arch_clear_user(), patch 0004).\n"
"Defaults: -s 102400 -n 1000000 (the arm64 clear_user thread's figures).\n"
"\n"
"Prints one line on stdout, \"pread_zero_seconds SECONDS s\", and a\n"
"diagnostic on stderr.  Exit: 0 done, 1 a system call failed, 2 bad\n"
"arguments.\n"
"\n"
BENCH_USAGE_PER_OP;

int main(int argc, char **argv)
{
	struct bench_opt opts[] = {
		{ .letter = 's', .name = "size", .min = 1, .max = MAX_SIZE,
		  .val = DEF_SIZE },
		{ .letter = 'n', .name = "count", .min = 1, .max = MAX_COUNT,
		  .val = DEF_COUNT },
	};
	struct linebuf l = { .len = 0 };
	unsigned long size, count, i;
	unsigned char *buf;
	long long t0, t1;
	double secs;
	long fd, ret;

	bench_prog = "pread_zero";
	bench_parse_args(argc, argv, opts, 2, usage);
	size = opts[0].val;
	count = opts[1].val;

	ret = do_mmap_anon(size);
	if (mmap_failed(ret))
		bench_die_sys("mmap", ret, 0);
	buf = (unsigned char *)ret;
	fd = do_open_ro("/dev/zero");
	if (fd < 0)
		bench_die_sys("open /dev/zero", fd, 0);

	/* Untimed: fault the buffer in, and check that it was cleared. */
	for (i = 0; i < size; i++)
		buf[i] = FILL_BYTE;
	ret = do_pread((int)fd, buf, size, 0);
	if (ret != (long)size)
		bench_die_sys("pread /dev/zero", ret, size);
	for (i = 0; i < size; i++)
		if (buf[i])
			bench_die_data("pread /dev/zero", i, buf[i], 0);

	bench_window();
	t0 = bench_now_ns();
	for (i = 0; i < count; i++) {
		ret = do_pread((int)fd, buf, size, 0);
		if (ret != (long)size)
			bench_die_sys("pread /dev/zero", ret, size);
	}
	t1 = bench_now_ns();
	bench_window();
	do_close((int)fd);

	secs = (double)(t1 - t0) / 1e9;
	if (bench_per_op)
		bench_result_per_op("pread", t1 - t0, count);
	else
		bench_result("pread_zero_seconds", secs, 6, "s");

	lb_str(&l, "pread_zero: ");
	lb_uint(&l, count);
	lb_str(&l, " pread()s of ");
	lb_uint(&l, size);
	lb_str(&l, " bytes from /dev/zero in ");
	lb_fixed(&l, secs, 6);
	lb_str(&l, " s, ");
	lb_fixed(&l, secs > 0 ? (double)size * (double)count / secs / 1e6 : 0,
		 1);
	lb_str(&l, " MB/s cleared");
	lb_flush(&l, 2);
	return 0;
}
