// SPDX-License-Identifier: GPL-2.0
/*
 * Static /init for the series' boot tests: user-space checks that go
 * through the patched user-copy paths by real system calls, reported as
 * KTAP on the console, then "GUEST-INIT-END" and a reboot (QEMU runs with
 * -no-reboot, so the guest ends).
 *
 *  clear_user_dev_zero   read()/pread() of /dev/zero: clear_user()
 *                        (arm64 __arch_clear_user(), patch 0004)
 *  copy_user_pipe        write()/read() through a pipe: copy_from_user()
 *                        and copy_to_user() (x86 rep_movs_alternative,
 *                        patch 0003, and every other architecture's)
 *  copy_user_file        pwrite()/pread() of a file on the root file
 *                        system, at misaligned file offsets
 *  pread_dev_zero_100k   a timing, reported and not judged: the
 *                        reproducer of the arm64 clear_user thread
 *
 * Every buffer is prefilled with GUARD_BYTE and has guard bytes on both
 * sides: the data must be exactly what was sent, the guards untouched, and
 * each call must return the full length.
 *
 * Run as PID 1 it sets up /dev and the console, and never returns.  Run as
 * any other process ("user mode", e.g. under qemu-user) it uses the host's
 * /dev/zero, puts its scratch file in the directory given as argument
 * (default /tmp), and exits with 0 if every test passed, 1 otherwise;
 * --inject-overrun fakes a one-byte overrun to show that the checks fail;
 * --hang stops after the KTAP header, for the harness's timeout test.
 *
 * One source, two builds: with a static libc (x86_64, arm64, armv5), or
 * freestanding with raw system calls (loongarch64, sys-loongarch64.h).
 * The test logic below the system layer uses no libc at all.
 */

/* The kernel's names for the attributes used (include/linux/compiler*.h). */
#define __noreturn	__attribute__((__noreturn__))
#define __used		__attribute__((__used__))

#ifdef __loongarch64
#include "sys-loongarch64.h"
#else
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/* The libc layer: same functions as sys-loongarch64.h, -errno on failure. */
static long sys_ret(long ret)
{
	return ret < 0 ? -errno : ret;
}

static long sys_read(int fd, void *buf, unsigned long len)
{
	return sys_ret(read(fd, buf, len));
}

static long sys_write(int fd, const void *buf, unsigned long len)
{
	return sys_ret(write(fd, buf, len));
}

static long sys_pread(int fd, void *buf, unsigned long len, long long pos)
{
	return sys_ret(pread(fd, buf, len, pos));
}

static long sys_pwrite(int fd, const void *buf, unsigned long len,
		       long long pos)
{
	return sys_ret(pwrite(fd, buf, len, pos));
}

static long sys_open(const char *path, int flags, unsigned int mode)
{
	return sys_ret(open(path, flags, mode));
}

static long sys_close(int fd)
{
	return sys_ret(close(fd));
}

static long sys_pipe(int fds[2])
{
	return sys_ret(pipe2(fds, O_CLOEXEC));
}

static long sys_fcntl(int fd, int cmd, long arg)
{
	return sys_ret(fcntl(fd, cmd, arg));
}

static long sys_dup2(int oldfd, int newfd)
{
	return sys_ret(dup2(oldfd, newfd));
}

static long sys_mkdir(const char *path, unsigned int mode)
{
	return sys_ret(mkdir(path, mode));
}

static long sys_mknod(const char *path, unsigned int mode, unsigned int major,
		      unsigned int minor)
{
	return sys_ret(mknod(path, mode, makedev(major, minor)));
}

static long sys_unlink(const char *path)
{
	return sys_ret(unlink(path));
}

static long sys_mount(const char *source, const char *target,
		      const char *type)
{
	return sys_ret(mount(source, target, type, 0, NULL));
}

static long sys_getpid(void)
{
	return getpid();
}

static void sys_sync(void)
{
	sync();
}

static long sys_reboot_restart(void)
{
	return sys_ret(reboot(RB_AUTOBOOT));	/* LINUX_REBOOT_CMD_RESTART */
}

static void sys_pause(void)
{
	pause();
}

static long sys_monotonic_ns(long long *ns)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		return -errno;
	*ns = ts.tv_sec * 1000000000LL + ts.tv_nsec;
	return 0;
}

static void __noreturn sys_exit(int status)
{
	_exit(status);
}
#endif /* !__loongarch64 */

/* --- output: one write() per line, so console lines stay whole ---------- */

#define LINE_MAX_LEN	240

struct strbuf {
	char buf[LINE_MAX_LEN + 1];
	unsigned int len;
};

static int out_fd = 1;

static void sb_char(struct strbuf *sb, char c)
{
	if (sb->len < LINE_MAX_LEN)
		sb->buf[sb->len++] = c;
}

static void sb_str(struct strbuf *sb, const char *s)
{
	while (*s)
		sb_char(sb, *s++);
}

static void sb_uint(struct strbuf *sb, unsigned long v)
{
	char digits[24];
	unsigned int n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		sb_char(sb, digits[--n]);
}

static void sb_int(struct strbuf *sb, long v)
{
	if (v < 0) {
		sb_char(sb, '-');
		sb_uint(sb, -(unsigned long)v);
	} else {
		sb_uint(sb, (unsigned long)v);
	}
}

static void sb_hex(struct strbuf *sb, unsigned long v)
{
	static const char hex[] = "0123456789abcdef";
	char digits[20];
	unsigned int n = 0;

	do {
		digits[n++] = hex[v & 0xf];
		v >>= 4;
	} while (v);
	sb_str(sb, "0x");
	while (n)
		sb_char(sb, digits[--n]);
}

/* The buffer as a C string (there is always room for the NUL). */
static const char *sb_cstr(struct strbuf *sb)
{
	sb->buf[sb->len] = '\0';
	return sb->buf;
}

/**
 * put_line - write a line of output
 * @indent: nesting level (KTAP: two spaces per level)
 * @s: the line, without its newline
 *
 * Builds the whole line first and writes it with one write() (retried if
 * short), so that kernel messages on the same console cannot split it.
 */
static void put_line(unsigned int indent, const char *s)
{
	struct strbuf sb = { .len = 0 };
	unsigned int done = 0;

	while (indent--)
		sb_str(&sb, "  ");
	sb_str(&sb, s);
	sb.buf[sb.len++] = '\n';
	while (done < sb.len) {
		long ret = sys_write(out_fd, sb.buf + done, sb.len - done);

		if (ret <= 0)
			break;
		done += (unsigned int)ret;
	}
}

/* --- test cases ------------------------------------------------------- */

#define GUARD		64	/* guard bytes on each side of a destination */
#define MAX_OFF		64	/* destination offsets are below this */
#define BIG		(65536 + 64)	/* largest single transfer, rounded up */
#define GUARD_BYTE	0xa5

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/**
 * struct tcase - the result of one KTAP test
 * @name: KTAP test name
 * @checks: transfers checked
 * @failures: transfers that failed a check
 * @first: diagnostic for the first failure
 */
struct tcase {
	const char *name;
	unsigned long checks;
	unsigned long failures;
	struct strbuf first;
};

/**
 * struct xfer - one transfer, as named in a diagnostic
 * @op: the system call(s), e.g. "pread"
 * @soff: source offset in src_area (unused when @zero)
 * @doff: destination offset, below MAX_OFF
 * @len: length asked for
 * @pos: file offset, or -1
 * @zero: the data must be zeros (from /dev/zero), not the pattern
 */
struct xfer {
	const char *op;
	unsigned long soff;
	unsigned long doff;
	unsigned long len;
	long pos;
	int zero;
};

/* Destination area: guard, up to MAX_OFF bytes of offset, data, guard. */
static unsigned char dst_area[GUARD + MAX_OFF + BIG + GUARD];
/* Source: the pattern, at offsets up to MAX_OFF. */
static unsigned char src_area[MAX_OFF + BIG];
static unsigned char big_buf[100 * 1024];
/* --inject-overrun: fake a one-byte overrun, to show that the checks fail. */
static int inject_overrun;
/* --hang: stop after the KTAP header and never end (harness tests). */
static int hang;

/**
 * pattern - the test byte for a position in the source
 * @pos: offset in src_area
 *
 * Depends on the position without a short period, so that a copy from the
 * wrong offset shows; never GUARD_BYTE, so that a byte left uncopied shows.
 */
static unsigned char pattern(unsigned long pos)
{
	unsigned int v = (unsigned int)pos * 0x9e3779b1u;
	unsigned char b;

	v ^= v >> 15;
	b = (unsigned char)(v >> 24);
	return b == GUARD_BYTE ? 0x5a : b;
}

static void fill_bytes(unsigned char *p, unsigned long len, unsigned char c)
{
	while (len--)
		*p++ = c;
}

/**
 * tcase_fail - record a failed check
 * @t: the test
 * @x: the transfer
 * @what: what went wrong
 * @at: offset of the wrong byte from the destination, or 0
 * @got: the value found (a byte is shown in hex, a return value in decimal)
 * @want: the value expected
 *
 * Only the first failure is kept for the diagnostic; the rest are counted.
 */
static void tcase_fail(struct tcase *t, const struct xfer *x, const char *what,
		       long at, long got, long want)
{
	struct strbuf *sb = &t->first;
	int byte = what[0] != 'r';	/* anything but "returned" */

	if (t->failures++)
		return;
	sb->len = 0;
	sb_str(sb, x->op);
	if (!x->zero) {
		sb_str(sb, " src+");
		sb_uint(sb, x->soff);
	}
	sb_str(sb, " dst+");
	sb_uint(sb, x->doff);
	if (x->pos >= 0) {
		sb_str(sb, " pos ");
		sb_int(sb, x->pos);
	}
	sb_str(sb, " len ");
	sb_uint(sb, x->len);
	sb_str(sb, ": ");
	sb_str(sb, what);
	if (byte) {
		sb_str(sb, " at dst");
		if (at >= 0)
			sb_char(sb, '+');
		sb_int(sb, at);
	}
	sb_str(sb, ": got ");
	if (byte)
		sb_hex(sb, (unsigned long)got);
	else
		sb_int(sb, got);
	sb_str(sb, ", want ");
	if (byte)
		sb_hex(sb, (unsigned long)want);
	else
		sb_int(sb, want);
	sb_cstr(sb);
}

/* A failure before any transfer (open, pipe2, ...): @ret is -errno. */
static void tcase_setup_fail(struct tcase *t, const char *op, long ret)
{
	struct xfer x = { .op = op, .pos = -1, .zero = 1 };

	t->checks++;
	tcase_fail(t, &x, "returned", 0, ret, 0);
}

/**
 * dst_prepare - fill the destination and its guards with GUARD_BYTE
 * @x: the transfer (destination offset and length)
 *
 * Return: the destination, dst_area + GUARD + @x->doff.
 */
static unsigned char *dst_prepare(const struct xfer *x)
{
	fill_bytes(dst_area, GUARD + x->doff + x->len + GUARD, GUARD_BYTE);
	return dst_area + GUARD + x->doff;
}

/**
 * dst_check - check a destination and its guards after a transfer
 * @t: the test
 * @x: the transfer given to dst_prepare(); the data must be zeros or
 *     pattern(@x->soff + i)
 * @ret: what the system call returned; must be @x->len
 */
static void dst_check(struct tcase *t, const struct xfer *x, long ret)
{
	const unsigned char *d = dst_area + GUARD + x->doff;
	unsigned long i;

	t->checks++;
	if (ret != (long)x->len) {
		tcase_fail(t, x, "returned", 0, ret, (long)x->len);
		return;
	}
	if (inject_overrun && t->checks == 1000)
		dst_area[GUARD + x->doff + x->len] ^= 0xff;
	for (i = 0; i < GUARD + x->doff; i++) {
		if (dst_area[i] != GUARD_BYTE) {
			tcase_fail(t, x, "guard changed", (long)i - GUARD - (long)x->doff,
				   dst_area[i], GUARD_BYTE);
			return;
		}
	}
	for (i = 0; i < x->len; i++) {
		unsigned char want = x->zero ? 0 : pattern(x->soff + i);

		if (d[i] != want) {
			tcase_fail(t, x, "wrong byte", (long)i, d[i], want);
			return;
		}
	}
	for (i = x->len; i < x->len + GUARD; i++) {
		if (d[i] != GUARD_BYTE) {
			tcase_fail(t, x, "guard changed", (long)i, d[i],
				   GUARD_BYTE);
			return;
		}
	}
}

/* Large lengths: around a page, and a whole default pipe. */
static const unsigned long big_lens[] = { 4095, 4096, 4097, 16384 + 5, 65536 };
/* Offset pairs (source or file, destination) for the large lengths. */
static const unsigned char big_offs[][2] = {
	{ 0, 0 }, { 1, 0 }, { 0, 1 }, { 3, 5 }, { 8, 8 }, { 15, 1 }, { 7, 15 },
	{ 0, 63 }, { 33, 17 },
};

static const char zero_path[] = "/dev/zero";

/* One read() or pread() of /dev/zero into dst_area + GUARD + @doff. */
static void zero_one(struct tcase *t, int fd, int use_pread,
		     unsigned long doff, unsigned long len)
{
	struct xfer x = {
		.op = use_pread ? "pread" : "read",
		.doff = doff, .len = len, .pos = -1, .zero = 1,
	};
	unsigned char *d = dst_prepare(&x);

	dst_check(t, &x, use_pread ? sys_pread(fd, d, len, 0) :
				     sys_read(fd, d, len));
}

/*
 * a. clear_user(): every destination offset below 64 with lengths 0..300,
 * then large lengths at a spread of offsets.
 */
static void test_clear_user(struct tcase *t)
{
	unsigned long doff, len, i;
	int fd = (int)sys_open(zero_path, O_RDONLY | O_CLOEXEC, 0);
	int p;

	if (fd < 0) {
		tcase_setup_fail(t, "open /dev/zero", fd);
		return;
	}
	for (p = 0; p < 2; p++) {
		for (doff = 0; doff < MAX_OFF; doff++)
			for (len = 0; len <= 300; len++)
				zero_one(t, fd, p, doff, len);
		for (i = 0; i < ARRAY_SIZE(big_lens); i++) {
			for (doff = 0; doff < MAX_OFF; doff += 7)
				zero_one(t, fd, p, doff, big_lens[i]);
			zero_one(t, fd, p, MAX_OFF - 1, big_lens[i]);
		}
		zero_one(t, fd, p, 0, 65536 + 3);
		zero_one(t, fd, p, 3, 65536 + 3);
		zero_one(t, fd, p, 61, 65536 + 3);
	}
	sys_close(fd);
}

/**
 * pipe_one - send bytes through a pipe and check what comes out
 * @t: the test
 * @fds: the pipe; its write end is non-blocking
 * @soff: source offset in src_area
 * @doff: destination offset
 * @len: length
 *
 * Writes what the pipe takes, reads all of it back, and repeats, so that a
 * length above the pipe's capacity cannot block.  Up to a page, a length
 * must go in with one write() and come out with one read().
 */
static void pipe_one(struct tcase *t, const int fds[2], unsigned long soff,
		     unsigned long doff, unsigned long len)
{
	struct xfer x = {
		.op = "write+read", .soff = soff, .doff = doff, .len = len,
		.pos = -1,
	};
	unsigned char *d = dst_prepare(&x);
	unsigned long wr = 0, rd = 0;
	long ret;

	while (rd < len) {
		ret = sys_write(fds[1], src_area + soff + wr, len - wr);
		if (ret <= 0 || (len <= 4096 && ret != (long)len)) {
			x.op = "write";
			dst_check(t, &x, ret);
			return;
		}
		wr += (unsigned long)ret;
		while (rd < wr) {
			ret = sys_read(fds[0], d + rd, wr - rd);
			if (ret <= 0 || (len <= 4096 && ret != (long)len)) {
				x.op = "read";
				dst_check(t, &x, ret);
				return;
			}
			rd += (unsigned long)ret;
		}
	}
	dst_check(t, &x, (long)rd);
}

/*
 * b. copy_from_user() and copy_to_user() through a pipe: every source and
 * destination offset below 16 with lengths 1..300, then large lengths.
 */
static void test_copy_pipe(struct tcase *t)
{
	unsigned long soff, doff, len, i, j;
	int fds[2];
	long ret = sys_pipe(fds);

	if (ret < 0) {
		tcase_setup_fail(t, "pipe2", ret);
		return;
	}
	ret = sys_fcntl(fds[1], F_SETFL, O_NONBLOCK);
	if (ret < 0) {
		tcase_setup_fail(t, "fcntl O_NONBLOCK", ret);
	} else {
		for (len = 1; len <= 300; len++)
			for (soff = 0; soff < 16; soff++)
				for (doff = 0; doff < 16; doff++)
					pipe_one(t, fds, soff, doff, len);
		for (i = 0; i < ARRAY_SIZE(big_lens); i++)
			for (j = 0; j < ARRAY_SIZE(big_offs); j++)
				pipe_one(t, fds, big_offs[j][0], big_offs[j][1],
					 big_lens[i]);
	}
	sys_close(fds[0]);
	sys_close(fds[1]);
}

/**
 * file_one - pwrite() bytes at a file offset and pread() them back
 * @t: the test
 * @fd: the scratch file, open read-write
 * @pos: file offset
 * @soff: source offset in src_area
 * @doff: destination offset
 * @len: length
 */
static void file_one(struct tcase *t, int fd, unsigned long pos,
		     unsigned long soff, unsigned long doff, unsigned long len)
{
	struct xfer x = {
		.op = "pwrite", .soff = soff, .doff = doff, .len = len,
		.pos = (long)pos,
	};
	unsigned char *d;
	long ret = sys_pwrite(fd, src_area + soff, len, (long long)pos);

	if (ret != (long)len) {
		dst_check(t, &x, ret);
		return;
	}
	x.op = "pwrite+pread";
	d = dst_prepare(&x);
	dst_check(t, &x, sys_pread(fd, d, len, (long long)pos));
}

/* File offsets: aligned, misaligned, and just before a page boundary. */
static const unsigned long file_pos[] = { 0, 1, 2, 3, 5, 7, 8, 15, 4093 };

static char scratch_path[200];

/*
 * c. The same through a regular file on the root file system: every
 * source offset below 16 at each file offset with lengths 1..300 (the
 * destination offset cycles through 0..15), then large lengths.
 */
static void test_copy_file(struct tcase *t)
{
	unsigned long i, j, soff, len;
	int fd = (int)sys_open(scratch_path,
			       O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0) {
		tcase_setup_fail(t, "open scratch file", fd);
		return;
	}
	for (len = 1; len <= 300; len++)
		for (i = 0; i < ARRAY_SIZE(file_pos); i++)
			for (soff = 0; soff < 16; soff++)
				file_one(t, fd, file_pos[i], soff,
					 (soff * 5 + len + i) & 15, len);
	for (i = 0; i < ARRAY_SIZE(big_lens); i++)
		for (j = 0; j < ARRAY_SIZE(big_offs); j++)
			file_one(t, fd, file_pos[j % ARRAY_SIZE(file_pos)] +
				 (j & 1) * 4096,
				 big_offs[j][0], big_offs[j][1], big_lens[i]);
	file_one(t, fd, 4099, 5, 3, 65536 + 3);
	sys_close(fd);
	sys_unlink(scratch_path);
}

#define TIMING_CALLS	2000
#define TIMING_LEN	(100 * 1024)

/*
 * d. The reproducer of the arm64 clear_user thread: 100 KiB pread()s of
 * /dev/zero, timed.  The time is reported, not judged; only the system
 * calls are checked.  Fills @diag with the KTAP diagnostic line.
 */
static void test_timing(struct tcase *t, struct strbuf *diag)
{
	long long t0 = 0, t1 = 0;
	unsigned long i, ms;
	int fd = (int)sys_open(zero_path, O_RDONLY | O_CLOEXEC, 0);
	long ret;

	if (fd < 0) {
		tcase_setup_fail(t, "open /dev/zero", fd);
		return;
	}
	ret = sys_monotonic_ns(&t0);
	for (i = 0; i < TIMING_CALLS && ret == 0; i++) {
		long n = sys_pread(fd, big_buf, TIMING_LEN, 0);

		t->checks++;
		if (n != TIMING_LEN) {
			struct xfer x = {
				.op = "pread", .len = TIMING_LEN, .pos = -1,
				.zero = 1,
			};

			tcase_fail(t, &x, "returned", 0, n, TIMING_LEN);
			break;
		}
	}
	if (ret == 0)
		ret = sys_monotonic_ns(&t1);
	sys_close(fd);
	if (ret) {
		tcase_setup_fail(t, "clock_gettime", ret);
		return;
	}
	ms = (unsigned long)((t1 - t0) / 1000000);
	sb_str(diag, "# ");
	sb_str(diag, t->name);
	sb_str(diag, ": ");
	sb_uint(diag, i);
	sb_str(diag, " calls, ");
	sb_uint(diag, ms / 1000);
	sb_char(diag, '.');
	sb_char(diag, (char)('0' + ms / 100 % 10));
	sb_char(diag, (char)('0' + ms / 10 % 10));
	sb_char(diag, (char)('0' + ms % 10));
	sb_str(diag, " s");
}

/* --- PID 1 ------------------------------------------------------------ */

/*
 * /dev from devtmpfs if the kernel has it, else the two nodes we need (the
 * initramfs normally has them already); then make sure that fds 0..2 are
 * the console, which the kernel opens only if /dev/console existed.
 */
static void guest_setup(struct strbuf *diag)
{
	long ret;

	sys_mkdir("/dev", 0755);
	sys_mkdir("/proc", 0555);
	sys_mkdir("/tmp", 01777);
	ret = sys_mount("devtmpfs", "/dev", "devtmpfs");
	if (ret == 0 || ret == -EBUSY) {
		sb_str(diag, "devtmpfs on /dev");
	} else {
		sb_str(diag, "no devtmpfs (");
		sb_int(diag, ret);
		sb_str(diag, "), mknod /dev/console, /dev/zero");
		sys_mknod("/dev/console", S_IFCHR | 0600, 5, 1);
		sys_mknod("/dev/zero", S_IFCHR | 0666, 1, 5);
	}
	if (sys_fcntl(1, F_GETFD, 0) < 0) {
		int fd = (int)sys_open("/dev/console", O_RDWR, 0);

		sb_str(diag, ", console opened by init");
		if (fd >= 0) {
			sys_dup2(fd, 0);
			sys_dup2(fd, 1);
			sys_dup2(fd, 2);
			if (fd > 2)
				sys_close(fd);
		}
	}
}

/* Never return from init: that panics the kernel. */
static void __noreturn guest_end(void)
{
	sys_sync();
	sys_reboot_restart();	/* QEMU runs with -no-reboot: it exits */
	for (;;)
		sys_pause();
}

static int str_eq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

/* Print a test's diagnostic and its KTAP result line; 1 if it failed. */
static int report(const struct tcase *t, unsigned int nr)
{
	struct strbuf sb = { .len = 0 };
	int failed = t->failures || !t->checks;

	sb_str(&sb, "# ");
	sb_str(&sb, t->name);
	sb_str(&sb, ": ");
	if (t->failures) {
		sb_uint(&sb, t->failures);
		sb_str(&sb, " of ");
		sb_uint(&sb, t->checks);
		sb_str(&sb, " transfers failed, first: ");
		sb_str(&sb, t->first.buf);
	} else {
		sb_uint(&sb, t->checks);
		sb_str(&sb, " transfers checked");
	}
	put_line(1, sb_cstr(&sb));
	sb.len = 0;
	sb_str(&sb, failed ? "not ok " : "ok ");
	sb_uint(&sb, nr);
	sb_char(&sb, ' ');
	sb_str(&sb, t->name);
	put_line(1, sb_cstr(&sb));
	return failed;
}

int main(int argc, char **argv)
{
	static struct tcase tests[] = {
		{ .name = "clear_user_dev_zero" },
		{ .name = "copy_user_pipe" },
		{ .name = "copy_user_file" },
		{ .name = "pread_dev_zero_100k" },
	};
	struct strbuf setup = { .len = 0 }, path = { .len = 0 };
	struct strbuf timing = { .len = 0 };
	const char *dir = "/tmp";
	long pid = sys_getpid();
	int guest = pid == 1;
	unsigned int i, failed = 0;

	/* As PID 1 the arguments come from the kernel command line, after "--". */
	for (i = 1; i < (unsigned int)argc; i++) {
		if (str_eq(argv[i], "--inject-overrun"))
			inject_overrun = 1;
		else if (str_eq(argv[i], "--hang"))
			hang = 1;
		else if (!guest)
			dir = argv[i];
	}
	sb_str(&setup, "# setup: ");
	if (guest) {
		guest_setup(&setup);
		sb_str(&path, "/tmp/guest-init.dat");
	} else {
		sb_str(&setup, "user mode (pid ");
		sb_int(&setup, pid);
		sb_str(&setup, "), the host's /dev/zero");
		if (inject_overrun)
			sb_str(&setup, ", --inject-overrun");
		sb_str(&path, dir);
		sb_str(&path, "/guest-init.");
		sb_int(&path, pid);
	}
	sb_cstr(&path);
	for (i = 0; i < path.len && i < sizeof(scratch_path) - 1; i++)
		scratch_path[i] = path.buf[i];
	scratch_path[i] = '\0';
	for (i = 0; i < sizeof(src_area); i++)
		src_area[i] = pattern(i);

	put_line(0, "KTAP version 1");
	put_line(0, "1..1");
	put_line(1, "KTAP version 1");
	put_line(1, "# Subtest: guest_init");
	put_line(1, "1..4");
	put_line(1, sb_cstr(&setup));

	/* --hang: a guest that never finishes, for the harness's timeout. */
	if (hang) {
		put_line(1, "# hanging on purpose (--hang)");
		for (;;)
			sys_pause();
	}

	test_clear_user(&tests[0]);
	failed += report(&tests[0], 1);
	test_copy_pipe(&tests[1]);
	failed += report(&tests[1], 2);
	test_copy_file(&tests[2]);
	failed += report(&tests[2], 3);
	test_timing(&tests[3], &timing);
	if (timing.len)
		put_line(1, sb_cstr(&timing));
	failed += report(&tests[3], 4);

	put_line(0, failed ? "not ok 1 guest_init" : "ok 1 guest_init");
	put_line(0, "GUEST-INIT-END");

	if (guest)
		guest_end();
	sys_exit(failed ? 1 : 0);
}
