// SPDX-License-Identifier: GPL-2.0
/*
 * randwrite - the fio job of the i.MX25 UBIFS report: 4 KiB random writes
 * with an fsync() after each, 4 writers, 8 MiB files (patch 0001: the
 * unaligned accessors on the write path on ARMv5, those of UBIFS's
 * default compressor, zstd when built).
 *
 * The report's job, run on UBIFS over UBI over NAND:
 *
 *	fio --name=rw --filename=... --size=8M --rw=randwrite --bs=4k
 *	    --direct=0 --fsync=1 --numjobs=4 --group_reporting
 *
 * It measured 381 KiB/s on 6.19 and 297 KiB/s on 7.0.  Here each writer
 * has its own file, laid out first (sequential writes, fsync(); untimed,
 * as fio lays out its files), then writes every block of it once in a
 * random order, fsync() after each write, as fio's random map does.  The
 * order and the data come from a fixed generator, so every run issues
 * the same writes.  The timed part is from the first writer's start to
 * the last one's end.
 *
 * -u N makes DIR a fresh UBIFS first: procfs and sysfs are mounted if they
 * are not, a volume "bench" with all of /dev/ubiN's free space is made
 * (UBI_IOCMKVOL), and it is mounted on DIR as UBIFS, which formats an
 * empty volume; the kernel attaches UBI to the NAND itself (ubi.mtd=).
 * Where /proc/cpu/alignment exists (ARM), its counts before and after are
 * in the diagnostic: a reviewer of the report asked for them.
 *
 * Usage: randwrite [-i] [-d DIR] [-u N] [-j JOBS] [-s FILE_BYTES] [-b BLOCK]
 * Prints "randwrite_kibps RATE KiB/s" (1024 bytes/s).  Higher is better.
 * With -i, "randwrite_ns_per_write NS ns" (under QEMU -icount shift=0,
 * the guest instructions of one write and its fsync()).
 */
#include "bench.h"

#ifndef NOLIBC
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#endif
#include <mtd/ubi-user.h>

#define DEF_DIR		"/mnt/bench"
#define DEF_JOBS	4
#define DEF_SIZE	(8UL << 20)
#define DEF_BLOCK	4096
#define MAX_JOBS	64
#define MAX_SIZE	(1UL << 30)
#define MAX_BLOCK	(1UL << 20)
#define VOL_NAME	"bench"

static const char usage[] =
"Usage: randwrite [-i] [-d DIR] [-u N [-o OPTIONS]] [-j JOBS] [-s FILE_BYTES]\n"
"                 [-b BLOCK]\n"
"\n"
"The fio job of the i.MX25 UBIFS report: JOBS writers (default 4), each\n"
"writing every BLOCK (default 4096) of its own file of FILE_BYTES\n"
"(default 8388608) in DIR (default /mnt/bench) once, in a random order,\n"
"with fsync() after each write.  The files are laid out first, untimed.\n"
"-u N: first make DIR a fresh UBIFS on a new volume of /dev/ubiN, mounted\n"
"with OPTIONS (-o; compr=none, compr=zlib: UBIFS's compressor).\n"
"\n"
"Prints one line on stdout, \"randwrite_kibps RATE KiB/s\", and a\n"
"diagnostic on stderr (with /proc/cpu/alignment's counts, where there is\n"
"one).  Exit: 0 done, 1 a system call failed, 2 bad arguments.\n"
"\n"
BENCH_USAGE_PER_OP;

/* --- the rest of the system layer: -errno on failure ---------------------- */

static long do_open_rw(const char *path, int creat)
{
	return neg_errno(open(path, O_RDWR | O_CLOEXEC |
			      (creat ? O_CREAT | O_TRUNC : 0), 0644));
}

static long do_fsync(int fd)
{
	return neg_errno(fsync(fd));
}

static long do_mkdir(const char *path)
{
	long ret = neg_errno(mkdir(path, 0755));

	return ret == -EEXIST ? 0 : ret;
}

/* mkdir -p: a bare initramfs has no /mnt for the default DIR. */
static long do_mkdir_parents(const char *path)
{
	char part[256];
	size_t i;
	long ret;

	for (i = 0; path[i]; i++) {
		if (i >= sizeof(part) - 1)
			return -ENAMETOOLONG;
		if (path[i] == '/' && i > 0) {
			part[i] = '\0';
			ret = do_mkdir(part);
			if (ret < 0)
				return ret;
		}
		part[i] = path[i];
	}
	part[i] = '\0';
	return do_mkdir(part);
}

static long do_mount(const char *src, const char *dir, const char *type,
		     const char *data)
{
	return neg_errno(mount(src, dir, type, 0, data));
}

static long do_ioctl(int fd, unsigned long req, void *arg)
{
	return neg_errno(ioctl(fd, req, arg));
}

static long do_fork(void)
{
	return neg_errno(fork());
}

static long do_waitpid(long pid, int *status)
{
	return neg_errno(waitpid((int)pid, status, 0));
}

/* --- small helpers --------------------------------------------------------- */

/* The generator of the order and the data: xorshift32, never 0. */
static unsigned int next_rand(unsigned int *state)
{
	unsigned int x = *state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *state = x;
}

/*
 * "@a@n@b" (@n in decimal; @b may be "") into @buf, a string of at most
 * @len - 1 characters.
 */
static void strnum(char *buf, unsigned long len, const char *a,
		   unsigned long n, const char *b)
{
	struct linebuf l = { .len = 0 };
	unsigned int i;

	lb_str(&l, a);
	lb_uint(&l, n);
	lb_str(&l, b);
	for (i = 0; i < l.len && i + 1 < len; i++)
		buf[i] = l.buf[i];
	buf[i] = '\0';
}

/*
 * The first decimal number in the file @path (its first 511 bytes), after
 * the first occurrence of @after when @after is not NULL; or -errno.
 */
static long read_number(const char *path, const char *after)
{
	char buf[512];
	unsigned long v = 0;
	long fd = do_open_ro(path), n;
	const char *p = buf;
	int found = 0;

	if (fd < 0)
		return fd;
	n = do_read((int)fd, buf, sizeof(buf) - 1);
	do_close((int)fd);
	if (n < 0)
		return n;
	buf[n] = '\0';
	for (; after && *p; p++) {
		const char *a = after, *q = p;

		while (*a && *q == *a) {
			a++;
			q++;
		}
		if (!*a) {
			p = q;
			break;
		}
	}
	for (; *p && (*p < '0' || *p > '9'); p++)
		;
	for (; *p >= '0' && *p <= '9'; p++, found = 1)
		v = v * 10 + (unsigned long)(*p - '0');
	return found ? (long)v : -ENOENT;
}

/* --- the UBIFS set-up of -u ------------------------------------------------ */

/* Mount @type on @dir unless @probe, a file it would show, is readable. */
static void mount_if_missing(const char *probe, const char *dir,
			     const char *type)
{
	long ret;

	if (read_number(probe, NULL) >= 0)
		return;
	do_mkdir(dir);
	ret = do_mount(type, dir, type, NULL);
	if (ret < 0)
		bench_die_sys(type[0] == 'p' ? "mount proc" : "mount sysfs",
			      ret, 0);
}

static void make_ubifs(unsigned long ubi, const char *dir, const char *mopts)
{
	struct ubi_mkvol_req req = { .vol_id = UBI_VOL_NUM_AUTO };
	char path[96];
	long fd, ret, lebs, leb_size;
	unsigned int i;

	/* Nothing else mounts them in a bare initramfs. */
	mount_if_missing("/proc/self/stat", "/proc", "proc");
	mount_if_missing("/sys/kernel/uevent_seqnum", "/sys", "sysfs");

	strnum(path, sizeof(path), "/sys/class/ubi/ubi", ubi,
	       "/avail_eraseblocks");
	lebs = read_number(path, NULL);
	if (lebs <= 0)
		bench_die_sys(path, lebs < 0 ? lebs : -ENOSPC, 0);
	strnum(path, sizeof(path), "/sys/class/ubi/ubi", ubi,
	       "/eraseblock_size");
	leb_size = read_number(path, NULL);
	if (leb_size <= 0)
		bench_die_sys(path, leb_size < 0 ? leb_size : -EINVAL, 0);

	strnum(path, sizeof(path), "/dev/ubi", ubi, "");
	fd = do_open_ro(path);
	if (fd < 0)
		bench_die_sys(path, fd, 0);
	req.alignment = 1;
	req.bytes = (long long)lebs * leb_size;
	req.vol_type = UBI_DYNAMIC_VOLUME;
	for (i = 0; VOL_NAME[i]; i++)
		req.name[i] = VOL_NAME[i];
	req.name_len = (short)i;
	ret = do_ioctl((int)fd, UBI_IOCMKVOL, &req);
	do_close((int)fd);
	if (ret < 0)
		bench_die_sys("UBI_IOCMKVOL", ret, 0);

	ret = do_mkdir_parents(dir);
	if (ret < 0)
		bench_die_sys("mkdir", ret, 0);
	strnum(path, sizeof(path), "ubi", ubi, ":" VOL_NAME);
	ret = do_mount(path, dir, "ubifs", mopts[0] ? mopts : NULL);
	if (ret < 0)
		bench_die_sys("mount ubifs", ret, 0);
}

/* --- the writers ----------------------------------------------------------- */

/* DIR/randwrite.JOB */
static void file_name(char *buf, unsigned long len, const char *dir,
		      unsigned long job)
{
	struct linebuf l = { .len = 0 };
	unsigned int i;

	lb_str(&l, dir);
	lb_str(&l, "/randwrite.");
	lb_uint(&l, job);
	for (i = 0; i < l.len && i + 1 < len; i++)
		buf[i] = l.buf[i];
	buf[i] = '\0';
}

/* Lay a file out: @blocks blocks of zeros, then fsync(); untimed. */
static void lay_out(const char *path, unsigned char *buf, unsigned long bs,
		    unsigned long blocks)
{
	unsigned long b, i;
	long fd = do_open_rw(path, 1), ret;

	if (fd < 0)
		bench_die_sys(path, fd, 0);
	for (i = 0; i < bs; i++)
		buf[i] = 0;
	for (b = 0; b < blocks; b++) {
		ret = do_pwrite((int)fd, buf, bs, (long long)(b * bs));
		if (ret != (long)bs)
			bench_die_sys("pwrite (lay-out)", ret, bs);
	}
	ret = do_fsync((int)fd);
	if (ret < 0)
		bench_die_sys("fsync (lay-out)", ret, 0);
	do_close((int)fd);
}

/*
 * One writer: every block of its file once, in the order of a shuffle
 * (Fisher-Yates) seeded by the job number, fresh data in each, fsync()
 * after each write.  Runs in a child; exits with 0 or BENCH_EX_FAIL.
 */
static void __noreturn writer(const char *path, unsigned long job,
			      unsigned char *buf, unsigned int *order,
			      unsigned long bs, unsigned long blocks)
{
	unsigned int state = 0x9e3779b9u * (unsigned int)(job + 1);
	unsigned long b, i;
	long fd = do_open_rw(path, 0), ret;

	if (fd < 0)
		bench_die_sys(path, fd, 0);
	for (b = 0; b < blocks; b++)
		order[b] = (unsigned int)b;
	for (b = blocks; b > 1; b--) {
		unsigned long k = next_rand(&state) % b;
		unsigned int t = order[b - 1];

		order[b - 1] = order[k];
		order[k] = t;
	}
	for (b = 0; b < blocks; b++) {
		for (i = 0; i < bs; i += 4) {
			unsigned int r = next_rand(&state);

			buf[i] = (unsigned char)r;
			if (i + 1 < bs)
				buf[i + 1] = (unsigned char)(r >> 8);
			if (i + 2 < bs)
				buf[i + 2] = (unsigned char)(r >> 16);
			if (i + 3 < bs)
				buf[i + 3] = (unsigned char)(r >> 24);
		}
		ret = do_pwrite((int)fd, buf, bs, (long long)order[b] * (long long)bs);
		if (ret != (long)bs)
			bench_die_sys("pwrite", ret, bs);
		ret = do_fsync((int)fd);
		if (ret < 0)
			bench_die_sys("fsync", ret, 0);
	}
	do_close((int)fd);
	do_exit(0);
}

int main(int argc, char **argv)
{
	struct bench_opt opts[] = {
		{ .letter = 'd', .name = "directory", .str = DEF_DIR },
		{ .letter = 'u', .name = "UBI device", .min = 0, .max = 31 },
		{ .letter = 'j', .name = "job count", .min = 1, .max = MAX_JOBS,
		  .val = DEF_JOBS },
		{ .letter = 's', .name = "file size", .min = 1, .max = MAX_SIZE,
		  .val = DEF_SIZE },
		{ .letter = 'b', .name = "block size", .min = 1, .max = MAX_BLOCK,
		  .val = DEF_BLOCK },
		{ .letter = 'o', .name = "mount options", .str = "" },
	};
	long pids[MAX_JOBS];
	struct linebuf l = { .len = 0 };
	unsigned long jobs, size, bs, blocks, j, failed = 0;
	long align_sys0, align_user0, ret;
	char path[256];
	const char *dir;
	unsigned char *buf;
	unsigned int *order;
	long long t0, t1;
	double secs, rate;

	bench_prog = "randwrite";
	bench_parse_args(argc, argv, opts, 6, usage);
	dir = opts[0].str;
	jobs = opts[2].val;
	size = opts[3].val;
	bs = opts[4].val;
	if (size % bs)
		bench_die_usage("the file size is not a multiple of the block size",
				NULL);
	blocks = size / bs;

	if (opts[5].seen && !opts[1].seen)
		bench_die_usage("-o is for the UBIFS that -u makes", NULL);
	if (opts[1].seen)
		make_ubifs(opts[1].val, dir, opts[5].str);
	ret = do_mmap_anon(bs + blocks * sizeof(*order));
	if (mmap_failed(ret))
		bench_die_sys("mmap", ret, 0);
	buf = (unsigned char *)ret;
	order = (unsigned int *)(ret + (long)bs);
	for (j = 0; j < jobs; j++) {
		file_name(path, sizeof(path), dir, j);
		lay_out(path, buf, bs, blocks);
	}

	align_sys0 = read_number("/proc/cpu/alignment", "System:");
	align_user0 = read_number("/proc/cpu/alignment", "User:");
	bench_window();
	t0 = bench_now_ns();
	for (j = 0; j < jobs; j++) {
		pids[j] = do_fork();
		if (pids[j] < 0)
			bench_die_sys("fork", pids[j], 0);
		if (pids[j] == 0) {
			file_name(path, sizeof(path), dir, j);
			writer(path, j, buf, order, bs, blocks);
		}
	}
	for (j = 0; j < jobs; j++) {
		int status = 0;

		ret = do_waitpid(pids[j], &status);
		if (ret < 0)
			bench_die_sys("waitpid", ret, 0);
		failed += status != 0;
	}
	t1 = bench_now_ns();
	bench_window();
	if (failed) {
		lb_error(&l);
		lb_uint(&l, failed);
		lb_str(&l, " of ");
		lb_uint(&l, jobs);
		lb_str(&l, " writers failed");
		lb_flush(&l, 2);
		do_exit(BENCH_EX_FAIL);
	}

	secs = (double)(t1 - t0) / 1e9;
	rate = secs > 0 ? (double)(jobs * size) / 1024 / secs : 0;
	if (bench_per_op)
		bench_result_per_op("write", t1 - t0, jobs * blocks);
	else
		bench_result("randwrite_kibps", rate, 1, "KiB/s");

	lb_str(&l, "randwrite: ");
	lb_uint(&l, jobs);
	lb_str(&l, " writers x ");
	lb_uint(&l, blocks);
	lb_str(&l, " writes of ");
	lb_uint(&l, bs);
	lb_str(&l, " bytes with fsync() in ");
	lb_str(&l, dir);
	lb_str(&l, ", ");
	lb_fixed(&l, secs, 6);
	lb_str(&l, " s");
	if (align_sys0 >= 0 && align_user0 >= 0) {
		lb_str(&l, "; /proc/cpu/alignment System ");
		lb_uint(&l, (unsigned long)align_sys0);
		lb_str(&l, " -> ");
		lb_uint(&l, (unsigned long)read_number("/proc/cpu/alignment", "System:"));
		lb_str(&l, ", User ");
		lb_uint(&l, (unsigned long)align_user0);
		lb_str(&l, " -> ");
		lb_uint(&l, (unsigned long)read_number("/proc/cpu/alignment", "User:"));
	}
	lb_flush(&l, 2);
	return 0;
}
