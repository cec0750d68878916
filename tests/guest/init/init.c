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
 * Then, for each --workload=PROG[:ARG...] argument, a second suite,
 * "workloads" (the only one with --workloads-only, for a quicker boot): PROG (from /bin/ of the initramfs, or a path with a '/') is
 * run with the ARGs, and every line it prints becomes a diagnostic
 * "# PROG: LINE" of its test, which passes when PROG exits with 0.  The
 * benchmarks of tests/guest/workloads/ print one "NAME VALUE UNITS" line:
 * under QEMU's -icount, with -i, the guest instructions per operation
 * (scripts/bench/bench-icount).
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
 * --hang stops after the KTAP header, for the harness's timeout test;
 * --workload=... works in both.
 *
 * One source, built against the kernel tree's nolibc for every target
 * (scripts/stages/build-init: -nostdlib -static -include nolibc.h, with
 * tests/guest/include/nolibc-extra.h for what nolibc lacks); a libc build
 * (glibc) works too.  The headers, the system calls every guest program
 * makes and whole-line output are tests/guest/include/guest.h's.  The
 * test logic below the system layer uses no libc.
 */

#include "../include/guest.h"

#ifndef NOLIBC
#include <poll.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/klog.h>
#include <stdlib.h>
#endif

/*
 * The rest of the system layer (guest.h has the calls every guest program
 * makes): a negative errno on failure, the value the diagnostics show.
 */
static long do_open(const char *path, int flags, unsigned int mode)
{
	return neg_errno(open(path, flags, mode));
}

static long do_pipe(int fds[2])
{
	return neg_errno(pipe2(fds, O_CLOEXEC));
}

static long do_fcntl(int fd, int cmd, long arg)
{
	return neg_errno(fcntl(fd, cmd, arg));
}

static long do_dup2(int oldfd, int newfd)
{
	return neg_errno(dup2(oldfd, newfd));
}

static long do_mkdir(const char *path, unsigned int mode)
{
	return neg_errno(mkdir(path, mode));
}

static long do_mknod(const char *path, unsigned int mode, unsigned int major,
		     unsigned int minor)
{
	return neg_errno(mknod(path, mode, makedev(major, minor)));
}

static long do_unlink(const char *path)
{
	return neg_errno(unlink(path));
}

static long do_mount(const char *source, const char *target, const char *type)
{
	return neg_errno(mount(source, target, type, 0, NULL));
}

static long do_reboot_restart(void)
{
	return neg_errno(reboot(RB_AUTOBOOT));	/* LINUX_REBOOT_CMD_RESTART */
}

/*
 * The console log level: 8 is SYSLOG_ACTION_CONSOLE_LEVEL of syslog(2)
 * (no <sys/klog.h> in nolibc).
 */
static long do_console_loglevel(int level)
{
#ifdef NOLIBC
	return my_syscall3(__NR_syslog, 8, NULL, level);
#else
	return neg_errno(klogctl(8, NULL, level));
#endif
}

static long do_fork(void)
{
	return neg_errno(fork());
}

/* Returns only on failure: -errno. */
static long do_execve(const char *path, char *const argv[])
{
	static char *const envp[] = { NULL };

	return neg_errno(execve(path, argv, envp));
}

static long do_waitpid(long pid, int *status)
{
	return neg_errno(waitpid((int)pid, status, 0));
}

/* poll() on no descriptors with no timeout: sleeps until a signal. */
static void do_pause(void)
{
	poll(NULL, 0, -1);
}

/* --- output: one write() per line, so console lines stay whole ---------- */

static int out_fd = 1;

static void lb_int(struct linebuf *sb, long v)
{
	if (v < 0) {
		lb_char(sb, '-');
		lb_uint(sb, -(unsigned long)v);
	} else {
		lb_uint(sb, (unsigned long)v);
	}
}

static void lb_hex(struct linebuf *sb, unsigned long v)
{
	static const char hex[] = "0123456789abcdef";
	char digits[20];
	unsigned int n = 0;

	do {
		digits[n++] = hex[v & 0xf];
		v >>= 4;
	} while (v);
	lb_str(sb, "0x");
	while (n)
		lb_char(sb, digits[--n]);
}

/* The buffer as a C string (there is always room for the NUL). */
static const char *lb_cstr(struct linebuf *sb)
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
	struct linebuf sb = { .len = 0 };

	while (indent--)
		lb_str(&sb, "  ");
	lb_str(&sb, s);
	lb_flush(&sb, out_fd);
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
	struct linebuf first;
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
/* --workloads-only: with --workload=, leave the guest_init suite out. */
static int workloads_only;

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
	struct linebuf *sb = &t->first;
	int byte = what[0] != 'r';	/* anything but "returned" */

	if (t->failures++)
		return;
	sb->len = 0;
	lb_str(sb, x->op);
	if (!x->zero) {
		lb_str(sb, " src+");
		lb_uint(sb, x->soff);
	}
	lb_str(sb, " dst+");
	lb_uint(sb, x->doff);
	if (x->pos >= 0) {
		lb_str(sb, " pos ");
		lb_int(sb, x->pos);
	}
	lb_str(sb, " len ");
	lb_uint(sb, x->len);
	lb_str(sb, ": ");
	lb_str(sb, what);
	if (byte) {
		lb_str(sb, " at dst");
		if (at >= 0)
			lb_char(sb, '+');
		lb_int(sb, at);
	}
	lb_str(sb, ": got ");
	if (byte)
		lb_hex(sb, (unsigned long)got);
	else
		lb_int(sb, got);
	lb_str(sb, ", want ");
	if (byte)
		lb_hex(sb, (unsigned long)want);
	else
		lb_int(sb, want);
	lb_cstr(sb);
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

	dst_check(t, &x, use_pread ? do_pread(fd, d, len, 0) :
				     do_read(fd, d, len));
}

/*
 * a. clear_user(): every destination offset below 64 with lengths 0..300,
 * then large lengths at a spread of offsets.
 */
static void test_clear_user(struct tcase *t)
{
	unsigned long doff, len, i;
	int fd = (int)do_open(zero_path, O_RDONLY | O_CLOEXEC, 0);
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
	do_close(fd);
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
		ret = do_write(fds[1], src_area + soff + wr, len - wr);
		if (ret <= 0 || (len <= 4096 && ret != (long)len)) {
			x.op = "write";
			dst_check(t, &x, ret);
			return;
		}
		wr += (unsigned long)ret;
		while (rd < wr) {
			ret = do_read(fds[0], d + rd, wr - rd);
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
	long ret = do_pipe(fds);

	if (ret < 0) {
		tcase_setup_fail(t, "pipe2", ret);
		return;
	}
	ret = do_fcntl(fds[1], F_SETFL, O_NONBLOCK);
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
	do_close(fds[0]);
	do_close(fds[1]);
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
	long ret = do_pwrite(fd, src_area + soff, len, (long long)pos);

	if (ret != (long)len) {
		dst_check(t, &x, ret);
		return;
	}
	x.op = "pwrite+pread";
	d = dst_prepare(&x);
	dst_check(t, &x, do_pread(fd, d, len, (long long)pos));
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
	int fd = (int)do_open(scratch_path,
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
			file_one(t, fd, file_pos[mod_u64_u32(j, ARRAY_SIZE(file_pos))] +
				 (j & 1) * 4096,
				 big_offs[j][0], big_offs[j][1], big_lens[i]);
	file_one(t, fd, 4099, 5, 3, 65536 + 3);
	do_close(fd);
	do_unlink(scratch_path);
}

#define TIMING_CALLS	2000
#define TIMING_LEN	(100 * 1024)

/*
 * d. The reproducer of the arm64 clear_user thread: 100 KiB pread()s of
 * /dev/zero, timed.  The time is reported, not judged; only the system
 * calls are checked.  Fills @diag with the KTAP diagnostic line.
 */
static void test_timing(struct tcase *t, struct linebuf *diag)
{
	long long t0 = 0, t1 = 0;
	unsigned long i, ms;
	int fd = (int)do_open(zero_path, O_RDONLY | O_CLOEXEC, 0);
	long ret;

	if (fd < 0) {
		tcase_setup_fail(t, "open /dev/zero", fd);
		return;
	}
	ret = do_monotonic_ns(&t0);
	for (i = 0; i < TIMING_CALLS && ret == 0; i++) {
		long n = do_pread(fd, big_buf, TIMING_LEN, 0);

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
		ret = do_monotonic_ns(&t1);
	do_close(fd);
	if (ret) {
		tcase_setup_fail(t, "clock_gettime", ret);
		return;
	}
	ms = (unsigned long)div_u64_u32((unsigned long long)(t1 - t0), 1000000);
	lb_str(diag, "# ");
	lb_str(diag, t->name);
	lb_str(diag, ": ");
	lb_uint(diag, i);
	lb_str(diag, " calls, ");
	lb_uint(diag, div_u64_u32(ms, 1000));
	lb_char(diag, '.');
	lb_char(diag, (char)('0' + mod_u64_u32(div_u64_u32(ms, 100), 10)));
	lb_char(diag, (char)('0' + mod_u64_u32(div_u64_u32(ms, 10), 10)));
	lb_char(diag, (char)('0' + mod_u64_u32(ms, 10)));
	lb_str(diag, " s");
}

/* --- workloads: other programs, run and reported ------------------------ */

#define MAX_WORKLOADS	8
#define WL_SPEC_MAX	200	/* "PROG:ARG:..." */
#define WL_ARGS_MAX	16

static const char *workloads[MAX_WORKLOADS];
static unsigned int nr_workloads;

/* Print each whole line of @buf[0, *len) as "# @prog: LINE"; keep the rest. */
static void wl_lines(const char *prog, char *buf, unsigned int *len, int all)
{
	unsigned int start = 0, i;

	for (i = 0; i < *len; i++) {
		struct linebuf l = { .len = 0 };
		unsigned int k;

		if (buf[i] != '\n' && !(all && i + 1 == *len))
			continue;
		lb_str(&l, "# ");
		lb_str(&l, prog);
		lb_str(&l, ": ");
		for (k = start; k < i + (buf[i] != '\n'); k++)
			lb_char(&l, buf[k]);
		put_line(1, lb_cstr(&l));
		start = i + 1;
	}
	for (i = start; i < *len; i++)
		buf[i - start] = buf[i];
	*len -= start;
}

/**
 * run_workload - run one --workload= program and report it as a KTAP test
 * @spec: "PROG[:ARG...]", as given
 * @nr: its KTAP test number
 *
 * Its stdout and stderr go through one pipe to the console, a diagnostic
 * per line.  Returns 1 if it could not be run or did not exit with 0.
 */
static int run_workload(const char *spec, unsigned int nr)
{
	char words[WL_SPEC_MAX + 1], path[WL_SPEC_MAX + 8], out[512];
	char *argv[WL_ARGS_MAX + 1];
	struct linebuf l = { .len = 0 };
	unsigned int argc = 0, i, n, len = 0;
	const char *why = NULL, *name;
	int fds[2], status = 0;
	long pid, ret;

	/* The words are the colon-separated parts of a copy of @spec. */
	for (n = 0; n < WL_SPEC_MAX && spec[n]; n++)
		words[n] = spec[n] == ':' ? '\0' : spec[n];
	words[n] = '\0';
	if (spec[n] || !words[0])
		why = "bad --workload (PROG[:ARG...], at most 200 characters)";
	for (i = 0; !why && i < n; i++) {
		if (argc == WL_ARGS_MAX) {
			why = "more than 16 words in --workload";
			break;
		}
		argv[argc++] = &words[i];
		while (words[i])
			i++;
	}
	argv[argc] = NULL;
	/* The test's name: PROG's last path component. */
	name = argc ? argv[0] : spec;
	for (i = 0; argc && argv[0][i]; i++)
		if (argv[0][i] == '/' && argv[0][i + 1])
			name = &argv[0][i + 1];
	if (!why) {
		const char *p = argv[0];

		for (i = 0; p[i] && p[i] != '/'; i++)
			;
		l.len = 0;
		if (!p[i])
			lb_str(&l, "/bin/");
		lb_str(&l, p);
		for (i = 0; i < l.len; i++)
			path[i] = l.buf[i];
		path[i] = '\0';
		l.len = 0;
		ret = do_pipe(fds);
		if (ret < 0)
			why = "pipe failed";
	}
	if (why) {
		lb_str(&l, "# ");
		lb_str(&l, spec);
		lb_str(&l, ": ");
		lb_str(&l, why);
		put_line(1, lb_cstr(&l));
		l.len = 0;
		lb_str(&l, "not ok ");
		lb_uint(&l, nr);
		lb_char(&l, ' ');
		lb_str(&l, argc ? name : "workload");
		put_line(1, lb_cstr(&l));
		return 1;
	}

	pid = do_fork();
	if (pid == 0) {
		do_dup2(fds[1], 1);
		do_dup2(fds[1], 2);
		ret = do_execve(path, argv);
		l.len = 0;
		lb_str(&l, "exec ");
		lb_str(&l, path);
		lb_str(&l, " failed: ");
		lb_int(&l, ret);
		lb_flush(&l, 2);
		exit(127);
	}
	do_close(fds[1]);
	if (pid > 0) {
		for (;;) {
			ret = do_read(fds[0], out + len, sizeof(out) - len);
			if (ret <= 0)
				break;
			len += (unsigned int)ret;
			wl_lines(name, out, &len, len == sizeof(out));
		}
		wl_lines(name, out, &len, 1);
		ret = do_waitpid(pid, &status);
	} else {
		ret = pid;
	}
	do_close(fds[0]);

	l.len = 0;
	lb_str(&l, "# ");
	lb_str(&l, name);
	if (ret < 0) {
		lb_str(&l, ": fork or wait failed: ");
		lb_int(&l, ret);
	} else if (status & 0x7f) {
		lb_str(&l, ": killed by signal ");
		lb_uint(&l, (unsigned int)status & 0x7f);
	} else {
		lb_str(&l, ": exit status ");
		lb_uint(&l, ((unsigned int)status >> 8) & 0xff);
	}
	put_line(1, lb_cstr(&l));
	ret = ret < 0 || status != 0;
	l.len = 0;
	lb_str(&l, ret ? "not ok " : "ok ");
	lb_uint(&l, nr);
	lb_char(&l, ' ');
	lb_str(&l, name);
	put_line(1, lb_cstr(&l));
	return (int)ret;
}

/* --- PID 1 ------------------------------------------------------------ */

/*
 * /dev from devtmpfs if the kernel has it, else the two nodes we need (the
 * initramfs normally has them already); then make sure that fds 0..2 are
 * the console, which the kernel opens only if /dev/console existed.
 */
static void guest_setup(struct linebuf *diag)
{
	long ret;

	do_mkdir("/dev", 0755);
	do_mkdir("/proc", 0555);
	do_mkdir("/tmp", 01777);
	ret = do_mount("devtmpfs", "/dev", "devtmpfs");
	if (ret == 0 || ret == -EBUSY) {
		lb_str(diag, "devtmpfs on /dev");
	} else {
		lb_str(diag, "no devtmpfs (");
		lb_int(diag, ret);
		lb_str(diag, "), mknod /dev/console, /dev/zero");
		do_mknod("/dev/console", S_IFCHR | 0600, 5, 1);
		do_mknod("/dev/zero", S_IFCHR | 0666, 1, 5);
	}
	/*
	 * Kernel messages come whenever they come (x86's switch to the TSC
	 * clocksource arrives a second into the boot, while the checks run)
	 * and could split a KTAP line on the shared console: from here on
	 * only errors and worse reach it (console_loglevel 4).
	 */
	ret = do_console_loglevel(4);
	if (ret < 0) {
		lb_str(diag, ", console log level not set (");
		lb_int(diag, ret);
		lb_str(diag, ")");
	}
	if (do_fcntl(1, F_GETFD, 0) < 0) {
		int fd = (int)do_open("/dev/console", O_RDWR, 0);

		lb_str(diag, ", console opened by init");
		if (fd >= 0) {
			do_dup2(fd, 0);
			do_dup2(fd, 1);
			do_dup2(fd, 2);
			if (fd > 2)
				do_close(fd);
		}
	}
}

/* Never return from init: that panics the kernel. */
static void __noreturn guest_end(void)
{
	sync();
	do_reboot_restart();	/* QEMU runs with -no-reboot: it exits */
	for (;;)
		do_pause();
}

static int str_eq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

static int starts_with(const char *s, const char *prefix)
{
	while (*prefix && *s == *prefix) {
		s++;
		prefix++;
	}
	return !*prefix;
}

/* Print a test's diagnostic and its KTAP result line; 1 if it failed. */
static int report(const struct tcase *t, unsigned int nr)
{
	struct linebuf sb = { .len = 0 };
	int failed = t->failures || !t->checks;

	lb_str(&sb, "# ");
	lb_str(&sb, t->name);
	lb_str(&sb, ": ");
	if (t->failures) {
		lb_uint(&sb, t->failures);
		lb_str(&sb, " of ");
		lb_uint(&sb, t->checks);
		lb_str(&sb, " transfers failed, first: ");
		lb_str(&sb, t->first.buf);
	} else {
		lb_uint(&sb, t->checks);
		lb_str(&sb, " transfers checked");
	}
	put_line(1, lb_cstr(&sb));
	sb.len = 0;
	lb_str(&sb, failed ? "not ok " : "ok ");
	lb_uint(&sb, nr);
	lb_char(&sb, ' ');
	lb_str(&sb, t->name);
	put_line(1, lb_cstr(&sb));
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
	struct linebuf setup = { .len = 0 }, path = { .len = 0 };
	struct linebuf timing = { .len = 0 };
	const char *dir = "/tmp";
	long pid = getpid();
	int guest = pid == 1, checks;
	unsigned int i, failed = 0;

	/* As PID 1 the arguments come from the kernel command line, after "--". */
	for (i = 1; i < (unsigned int)argc; i++) {
		if (str_eq(argv[i], "--inject-overrun"))
			inject_overrun = 1;
		else if (str_eq(argv[i], "--hang"))
			hang = 1;
		else if (str_eq(argv[i], "--workloads-only"))
			workloads_only = 1;
		else if (starts_with(argv[i], "--workload=") &&
			 nr_workloads < MAX_WORKLOADS)
			workloads[nr_workloads++] = argv[i] + 11;
		else if (!guest)
			dir = argv[i];
	}
	lb_str(&setup, "# setup: ");
	if (guest) {
		guest_setup(&setup);
		lb_str(&path, "/tmp/guest-init.dat");
	} else {
		lb_str(&setup, "user mode (pid ");
		lb_int(&setup, pid);
		lb_str(&setup, "), the host's /dev/zero");
		if (inject_overrun)
			lb_str(&setup, ", --inject-overrun");
		lb_str(&path, dir);
		lb_str(&path, "/guest-init.");
		lb_int(&path, pid);
	}
	lb_cstr(&path);
	for (i = 0; i < path.len && i < sizeof(scratch_path) - 1; i++)
		scratch_path[i] = path.buf[i];
	scratch_path[i] = '\0';
	for (i = 0; i < sizeof(src_area); i++)
		src_area[i] = pattern(i);

	/* Without a workload, --workloads-only would leave nothing to run. */
	checks = !(workloads_only && nr_workloads);
	put_line(0, "KTAP version 1");
	put_line(0, checks && nr_workloads ? "1..2" : "1..1");
	if (!checks)
		goto run_workloads;
	put_line(1, "KTAP version 1");
	put_line(1, "# Subtest: guest_init");
	put_line(1, "1..4");
	put_line(1, lb_cstr(&setup));

	/* --hang: a guest that never finishes, for the harness's timeout. */
	if (hang) {
		put_line(1, "# hanging on purpose (--hang)");
		for (;;)
			do_pause();
	}

	test_clear_user(&tests[0]);
	failed += report(&tests[0], 1);
	test_copy_pipe(&tests[1]);
	failed += report(&tests[1], 2);
	test_copy_file(&tests[2]);
	failed += report(&tests[2], 3);
	test_timing(&tests[3], &timing);
	if (timing.len)
		put_line(1, lb_cstr(&timing));
	failed += report(&tests[3], 4);

	put_line(0, failed ? "not ok 1 guest_init" : "ok 1 guest_init");

run_workloads:
	if (nr_workloads) {
		struct linebuf plan = { .len = 0 }, res = { .len = 0 };
		unsigned int wl_failed = 0;

		put_line(1, "KTAP version 1");
		put_line(1, "# Subtest: workloads");
		lb_str(&plan, "1..");
		lb_uint(&plan, nr_workloads);
		put_line(1, lb_cstr(&plan));
		if (!checks)
			put_line(1, lb_cstr(&setup));
		for (i = 0; i < nr_workloads; i++)
			wl_failed += run_workload(workloads[i], i + 1);
		lb_str(&res, wl_failed ? "not ok " : "ok ");
		lb_uint(&res, checks ? 2 : 1);
		lb_str(&res, " workloads");
		put_line(0, lb_cstr(&res));
		failed += wl_failed;
	}
	put_line(0, "GUEST-INIT-END");

	if (guest)
		guest_end();
	return failed ? 1 : 0;
}
