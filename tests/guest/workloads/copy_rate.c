// SPDX-License-Identifier: GPL-2.0
/*
 * copy_rate - copy_to_user() throughput into a misaligned destination:
 * x86 rep_movs_alternative (patch 0003, which aligns the destination of
 * copies of 64 bytes and more, in .Llarge_movsq).
 *
 * The source is a memfd (shmem) filled once; each pread() of it copies
 * its page-cache pages to the user buffer with copy_to_user(), one call
 * per page (filemap_read() -> copy_page_to_iter()).  On x86_64 that is
 * copy_user_generic(): "rep movsb" on a CPU with FSRM, otherwise a call to
 * rep_movs_alternative, whose >= 64-byte path is "rep movsb" with ERMS
 * and .Llarge_movsq, the patched code, without.  So the patch is measured
 * only where the kernel sees neither erms nor fsrm (QEMU's qemu64, older
 * or virtual CPUs, or a kernel booted with clearcpuid=erms,fsrm); the
 * stderr diagnostic says which path the kernel's CPU flags select.
 *
 * The source pages are page-aligned, the destination is OFFSET bytes past
 * a page boundary: a misaligned destination is the case the patch changes
 * (OFFSET 0 is the control).
 *
 * Usage: copy_rate [-i] [-s SIZE] [-o OFFSET] [-n COUNT]
 * Prints "copy_rate_mbps MB_PER_SECOND MB/s" (10^6 bytes), after one
 * untimed pread() whose data is checked.  Higher is better.  With -i,
 * "copy_rate_ns_per_pread NS ns" (under QEMU -icount shift=0, the guest
 * instructions of one pread()).
 */
#include "bench.h"

#define DEF_SIZE	65536
#define DEF_OFFSET	1
#define DEF_COUNT	100000
#define MAX_SIZE	(64UL << 20)
#define MAX_OFFSET	4095
#define MAX_COUNT	1000000000UL

static const char usage[] =
"Usage: copy_rate [-i] [-s SIZE] [-o OFFSET] [-n COUNT]\n"
"\n"
"Time COUNT pread()s of SIZE bytes (default 65536) from a memfd into a\n"
"buffer OFFSET bytes (default 1) past a page boundary: copy_to_user() of\n"
"page-cache pages into a misaligned destination (x86 rep_movs_alternative,\n"
"patch 0003, on a CPU without erms and fsrm).  Default COUNT: 100000.\n"
"\n"
"Prints one line on stdout, \"copy_rate_mbps RATE MB/s\" (10^6 bytes/s),\n"
"and a diagnostic on stderr.  Exit: 0 done, 1 a system call failed, 2 bad\n"
"arguments.\n"
"\n"
BENCH_USAGE_PER_OP;

/* Depends on the position without a short period: a shifted copy shows. */
static unsigned char pattern(unsigned long pos)
{
	unsigned int v = (unsigned int)pos * 0x9e3779b1u;

	return (unsigned char)((v ^ v >> 15) >> 24);
}

#ifdef __x86_64__
/* @flag is one of the space-separated words of @line, up to its newline. */
static int has_flag(const char *line, const char *flag)
{
	const char *p = line;

	while (*p && *p != '\n') {
		const char *f = flag;

		while (*f && *p == *f) {
			p++;
			f++;
		}
		if (!*f && (*p == ' ' || *p == '\n' || !*p))
			return 1;
		while (*p && *p != ' ' && *p != '\n')
			p++;
		while (*p == ' ')
			p++;
	}
	return 0;
}

/*
 * The copy path the kernel chose, from the flags it shows in
 * /proc/cpuinfo (clearcpuid= removes them there too; CPUID would not):
 * the first "flags" line, in the first CPUINFO_MAX bytes (the first
 * processor's block).
 */
#define CPUINFO_MAX	16384

static const char *x86_copy_path(void)
{
	static char buf[CPUINFO_MAX + 1];
	const char *path = "unknown (no flags in /proc/cpuinfo)";
	unsigned long len = 0;
	long fd = do_open_ro("/proc/cpuinfo");
	const char *line;

	if (fd < 0)
		return path;
	while (len < CPUINFO_MAX) {
		long ret = do_read((int)fd, buf + len, CPUINFO_MAX - len);

		if (ret <= 0)
			break;
		len += (unsigned long)ret;
	}
	do_close((int)fd);
	buf[len] = '\0';
	for (line = buf; *line; line++) {
		if (line != buf && line[-1] != '\n')
			continue;
		if (line[0] != 'f' || line[1] != 'l' || line[2] != 'a' ||
		    line[3] != 'g' || line[4] != 's' || line[5] != '\t')
			continue;
		if (has_flag(line, "fsrm"))
			path = "fsrm: rep movsb inline, not the patched code";
		else if (has_flag(line, "erms"))
			path = "erms: rep_movs_alternative's rep movsb, not the patched code";
		else
			path = "no erms/fsrm: rep_movs_alternative .Llarge_movsq, the patched code";
		break;
	}
	return path;
}
#else
static const char *x86_copy_path(void)
{
	return NULL;
}
#endif

int main(int argc, char **argv)
{
	struct bench_opt opts[] = {
		{ .letter = 's', .name = "size", .min = 1, .max = MAX_SIZE,
		  .val = DEF_SIZE },
		{ .letter = 'o', .name = "offset", .min = 0, .max = MAX_OFFSET,
		  .val = DEF_OFFSET },
		{ .letter = 'n', .name = "count", .min = 1, .max = MAX_COUNT,
		  .val = DEF_COUNT },
	};
	struct linebuf l = { .len = 0 };
	unsigned long size, off, count, i;
	unsigned char *src, *dst;
	const char *path;
	long long t0, t1;
	double secs, rate;
	long fd, ret;

	bench_prog = "copy_rate";
	bench_parse_args(argc, argv, opts, 3, usage);
	size = opts[0].val;
	off = opts[1].val;
	count = opts[2].val;

	/* Source and destination: page-aligned mappings (mmap). */
	ret = do_mmap_anon(size);
	if (mmap_failed(ret))
		bench_die_sys("mmap", ret, 0);
	src = (unsigned char *)ret;
	ret = do_mmap_anon(size + off);
	if (mmap_failed(ret))
		bench_die_sys("mmap", ret, 0);
	dst = (unsigned char *)(ret + (long)off);

	for (i = 0; i < size; i++)
		src[i] = pattern(i);
	fd = do_memfd("copy_rate");
	if (fd < 0)
		bench_die_sys("memfd_create", fd, 0);
	ret = do_pwrite((int)fd, src, size, 0);
	if (ret != (long)size)
		bench_die_sys("pwrite memfd", ret, size);

	/* Untimed: fault the destination in, and check the data. */
	for (i = 0; i < size; i++)
		dst[i] = (unsigned char)~src[i];
	ret = do_pread((int)fd, dst, size, 0);
	if (ret != (long)size)
		bench_die_sys("pread memfd", ret, size);
	for (i = 0; i < size; i++)
		if (dst[i] != src[i])
			bench_die_data("pread memfd", i, dst[i], src[i]);

	bench_window();
	t0 = bench_now_ns();
	for (i = 0; i < count; i++) {
		ret = do_pread((int)fd, dst, size, 0);
		if (ret != (long)size)
			bench_die_sys("pread memfd", ret, size);
	}
	t1 = bench_now_ns();
	bench_window();
	do_close((int)fd);

	secs = (double)(t1 - t0) / 1e9;
	rate = secs > 0 ? (double)size * (double)count / secs / 1e6 : 0;
	if (bench_per_op)
		bench_result_per_op("pread", t1 - t0, count);
	else
		bench_result("copy_rate_mbps", rate, 1, "MB/s");

	lb_str(&l, "copy_rate: ");
	lb_uint(&l, count);
	lb_str(&l, " pread()s of ");
	lb_uint(&l, size);
	lb_str(&l, " bytes, destination at page+");
	lb_uint(&l, off);
	lb_str(&l, ", in ");
	lb_fixed(&l, secs, 6);
	lb_str(&l, " s");
	path = x86_copy_path();
	if (path) {
		lb_str(&l, "; x86 copy path: ");
		lb_str(&l, path);
	}
	lb_flush(&l, 2);
	return 0;
}
