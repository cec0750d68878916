/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the on-target benchmarks of tests/bench/ (pread_zero.c,
 * syscall_rate.c, copy_rate.c): the system layer, option parsing, and the
 * one result line.
 *
 * One source, two builds, as tests/init/init.c: with a static libc
 * (x86_64, arm64, armv5), or freestanding with raw system calls where
 * there is no libc (loongarch64: Debian 12 has none; -ffreestanding makes
 * __STDC_HOSTED__ 0).  Every sys_*() returns -errno on failure in both.
 * Above the system layer nothing uses libc: output is formatted here,
 * and written with one write() per line.
 *
 * Output contract (LAVA: set -- $(./prog); lava-test-case "$1"
 * --measurement "$2" --units "$3"): one line on stdout, "NAME VALUE
 * UNITS"; at most one diagnostic line on stderr.  Exit 0 on success, 1
 * when a system call fails or returns something wrong (one line naming
 * it), 2 for bad arguments (one line); -h prints the usage, exit 0.
 */
#ifndef BENCH_H
#define BENCH_H

#define __noreturn	__attribute__((__noreturn__))
#define __used		__attribute__((__used__))

#define BENCH_EX_FAIL	1
#define BENCH_EX_USAGE	2

#if __STDC_HOSTED__

#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>

/* The libc layer: -errno on failure, as the raw layer below. */
static inline long sys_ret(long ret)
{
	return ret < 0 ? -errno : ret;
}

static inline long sys_write(int fd, const void *buf, unsigned long len)
{
	return sys_ret(write(fd, buf, len));
}

static inline long sys_open_ro(const char *path)
{
	return sys_ret(open(path, O_RDONLY | O_CLOEXEC));
}

static inline long sys_close(int fd)
{
	return sys_ret(close(fd));
}

static inline long sys_pread(int fd, void *buf, unsigned long len,
			     long long pos)
{
	return sys_ret(pread(fd, buf, len, pos));
}

static inline long sys_pwrite(int fd, const void *buf, unsigned long len,
			      long long pos)
{
	return sys_ret(pwrite(fd, buf, len, pos));
}

static inline long sys_memfd(const char *name)
{
	return sys_ret(syscall(SYS_memfd_create, name, 1 /* MFD_CLOEXEC */));
}

/*
 * The syscall-rate mix goes through syscall(2), never the libc functions:
 * a libc may cache getpid() or getuid() and never enter the kernel.
 */
static inline long sys_dup(int fd)
{
	return sys_ret(syscall(SYS_dup, fd));
}

static inline long sys_getpid(void)
{
	return syscall(SYS_getpid);
}

static inline long sys_getuid(void)
{
	return syscall(SYS_getuid);
}

static inline long sys_umask(unsigned int mask)
{
	return syscall(SYS_umask, mask);
}

/* Anonymous private memory, page-aligned: the address, or -errno. */
static inline long sys_mmap_anon(unsigned long len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? -errno : (long)p;
}

static inline long sys_monotonic_ns(long long *ns)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		return -errno;
	*ns = ts.tv_sec * 1000000000LL + ts.tv_nsec;
	return 0;
}

static inline void __noreturn sys_exit(int status)
{
	_exit(status);
}

#else /* !__STDC_HOSTED__: raw system calls */

#ifndef __loongarch64
#error "bench.h: the freestanding build has system calls for loongarch64 only"
#endif

#define NULL ((void *)0)

/* include/uapi/asm-generic/unistd.h (64-bit) */
#define __NR_dup		23
#define __NR_openat		56
#define __NR_close		57
#define __NR_write		64
#define __NR_pread64		67
#define __NR_pwrite64		68
#define __NR_exit_group		94
#define __NR_clock_gettime	113
#define __NR_umask		166
#define __NR_getpid		172
#define __NR_getuid		174
#define __NR_mmap		222
#define __NR_memfd_create	279

/* include/uapi/asm-generic/fcntl.h, mman-common.h, errno-base.h, ... */
#define O_RDONLY	00000000
#define O_CLOEXEC	02000000
#define AT_FDCWD	(-100)
#define PROT_READ	0x1
#define PROT_WRITE	0x2
#define MAP_PRIVATE	0x02
#define MAP_ANONYMOUS	0x20
#define MFD_CLOEXEC	0x0001U
#define CLOCK_MONOTONIC	1
#define EPERM		1
#define ENOENT		2
#define EINTR		4
#define EIO		5
#define ENXIO		6
#define EBADF		9
#define EAGAIN		11
#define ENOMEM		12
#define EACCES		13
#define EFAULT		14
#define EINVAL		22
#define EMFILE		24
#define ENOSPC		28
#define ENOSYS		38

/* include/uapi/linux/time_types.h: struct __kernel_timespec */
struct bench_kernel_timespec {
	long long tv_sec;
	long long tv_nsec;
};

/* The raw system call and mem*(), shared with the guest init. */
#include "../init/rt-loongarch64.h"

static inline long sys_write(int fd, const void *buf, unsigned long len)
{
	return lsys3(__NR_write, fd, buf, len);
}

static inline long sys_open_ro(const char *path)
{
	return lsys6(__NR_openat, AT_FDCWD, (long)path, O_RDONLY | O_CLOEXEC,
		     0, 0, 0);
}

static inline long sys_close(int fd)
{
	return lsys3(__NR_close, fd, 0, 0);
}

static inline long sys_pread(int fd, void *buf, unsigned long len,
			     long long pos)
{
	return lsys6(__NR_pread64, fd, (long)buf, (long)len, (long)pos, 0, 0);
}

static inline long sys_pwrite(int fd, const void *buf, unsigned long len,
			      long long pos)
{
	return lsys6(__NR_pwrite64, fd, (long)buf, (long)len, (long)pos, 0, 0);
}

static inline long sys_memfd(const char *name)
{
	return lsys3(__NR_memfd_create, name, MFD_CLOEXEC, 0);
}

static inline long sys_dup(int fd)
{
	return lsys3(__NR_dup, fd, 0, 0);
}

static inline long sys_getpid(void)
{
	return lsys3(__NR_getpid, 0, 0, 0);
}

static inline long sys_getuid(void)
{
	return lsys3(__NR_getuid, 0, 0, 0);
}

static inline long sys_umask(unsigned int mask)
{
	return lsys3(__NR_umask, mask, 0, 0);
}

static inline long sys_mmap_anon(unsigned long len)
{
	return lsys6(__NR_mmap, 0, (long)len, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
}

/* No vDSO here: a real system call (syscall_rate reads it rarely). */
static inline long sys_monotonic_ns(long long *ns)
{
	struct bench_kernel_timespec ts;
	long ret = lsys3(__NR_clock_gettime, CLOCK_MONOTONIC, &ts, 0);

	if (ret == 0)
		*ns = ts.tv_sec * 1000000000LL + ts.tv_nsec;
	return ret;
}

static inline void __noreturn sys_exit(int status)
{
	for (;;)
		lsys3(__NR_exit_group, status, 0, 0);
}

int main(int argc, char **argv);
void bench_entry(long *sp);

/* The kernel starts us with sp pointing at argc, then argv[]: pass sp on. */
__asm__(".text\n"
	".globl _start\n"
	".type _start, @function\n"
	"_start:\n"
	"	move $fp, $zero\n"
	"	move $a0, $sp\n"
	"	bl bench_entry\n");

/**
 * bench_entry - C entry point of the freestanding build
 * @sp: the initial stack pointer: argc, then argv[]
 */
void __used __noreturn bench_entry(long *sp)
{
	sys_exit(main((int)sp[0], (char **)(sp + 1)));
}

#endif /* __STDC_HOSTED__ */

/* --- output: whole lines, one write() each ------------------------------ */

#define BENCH_LINE_MAX	400

struct bench_line {
	char buf[BENCH_LINE_MAX + 1];
	unsigned int len;
};

/* Set by each program: the name its messages start with. */
static const char *bench_prog;

static inline void bl_char(struct bench_line *l, char c)
{
	if (l->len < BENCH_LINE_MAX)
		l->buf[l->len++] = c;
}

static inline void bl_str(struct bench_line *l, const char *s)
{
	while (*s)
		bl_char(l, *s++);
}

static inline void bl_uint(struct bench_line *l, unsigned long long v)
{
	char digits[24];
	unsigned int n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		bl_char(l, digits[--n]);
}

/**
 * bl_fixed - append a non-negative number with a fixed number of decimals
 * @l: the line
 * @v: the value; a negative one is shown as 0
 * @decimals: digits after the point, 0..9
 *
 * Rounded to nearest.  Done by hand: the freestanding build has no printf.
 */
static inline void bl_fixed(struct bench_line *l, double v,
			    unsigned int decimals)
{
	unsigned long long scale = 1, scaled;
	unsigned int i;

	for (i = 0; i < decimals; i++)
		scale *= 10;
	if (!(v > 0))
		v = 0;
	scaled = (unsigned long long)(v * (double)scale + 0.5);
	bl_uint(l, scaled / scale);
	if (!decimals)
		return;
	bl_char(l, '.');
	scaled %= scale;
	for (scale /= 10; scale; scale /= 10)
		bl_char(l, (char)('0' + scaled / scale % 10));
}

/* write() all of @buf, retried if short; output errors are ignored. */
static inline void bench_write_all(int fd, const char *buf, unsigned long len)
{
	unsigned long done = 0;

	while (done < len) {
		long ret = sys_write(fd, buf + done, len - done);

		if (ret <= 0)
			break;
		done += (unsigned long)ret;
	}
}

/* Write the line and its newline with one write(), so lines stay whole. */
static inline void bl_flush(struct bench_line *l, int fd)
{
	l->buf[l->len++] = '\n';	/* there is always room: see bl_char() */
	bench_write_all(fd, l->buf, l->len);
	l->len = 0;
}

/* "PROG: error: " to start an error line. */
static inline void bl_error(struct bench_line *l)
{
	l->len = 0;
	bl_str(l, bench_prog);
	bl_str(l, ": error: ");
}

static inline const char *errno_name(long err)
{
	switch (err) {
	case EPERM:	return "EPERM";
	case ENOENT:	return "ENOENT";
	case EINTR:	return "EINTR";
	case EIO:	return "EIO";
	case ENXIO:	return "ENXIO";
	case EBADF:	return "EBADF";
	case EAGAIN:	return "EAGAIN";
	case ENOMEM:	return "ENOMEM";
	case EACCES:	return "EACCES";
	case EFAULT:	return "EFAULT";
	case EINVAL:	return "EINVAL";
	case EMFILE:	return "EMFILE";
	case ENOSPC:	return "ENOSPC";
	case ENOSYS:	return "ENOSYS";
	default:	return "errno";
	}
}

/**
 * bench_die_usage - report bad arguments and exit with BENCH_EX_USAGE
 * @what: the complaint
 * @arg: the argument it is about, quoted after @what; or NULL
 */
static inline void __noreturn bench_die_usage(const char *what,
					      const char *arg)
{
	struct bench_line l = { .len = 0 };

	bl_error(&l);
	bl_str(&l, what);
	if (arg) {
		bl_str(&l, " '");
		bl_str(&l, arg);
		bl_char(&l, '\'');
	}
	bl_str(&l, " (see -h)");
	bl_flush(&l, 2);
	sys_exit(BENCH_EX_USAGE);
}

/**
 * bench_die_sys - report a failed system call and exit with BENCH_EX_FAIL
 * @call: the call and its object, e.g. "pread /dev/zero"
 * @ret: what it returned: -errno, or a wrong non-negative value (e.g. a
 *       short read), shown as such
 * @want: for a wrong non-negative @ret, the value expected
 */
static inline void __noreturn bench_die_sys(const char *call, long ret,
					    unsigned long want)
{
	struct bench_line l = { .len = 0 };

	bl_error(&l);
	bl_str(&l, call);
	if (ret < 0) {
		bl_str(&l, " failed: ");
		bl_str(&l, errno_name(-ret));
		bl_str(&l, " (errno ");
		bl_uint(&l, (unsigned long long)-ret);
		bl_char(&l, ')');
	} else {
		bl_str(&l, " returned ");
		bl_uint(&l, (unsigned long)ret);
		bl_str(&l, ", want ");
		bl_uint(&l, want);
	}
	bl_flush(&l, 2);
	sys_exit(BENCH_EX_FAIL);
}

/**
 * bench_die_data - report wrong data from the kernel, exit BENCH_EX_FAIL
 * @what: the transfer, e.g. "pread /dev/zero"
 * @at: offset of the first wrong byte in the buffer
 * @got: the byte found
 * @want: the byte expected
 */
static inline void __noreturn bench_die_data(const char *what,
					     unsigned long at,
					     unsigned int got,
					     unsigned int want)
{
	static const char hex[] = "0123456789abcdef";
	struct bench_line l = { .len = 0 };

	bl_error(&l);
	bl_str(&l, what);
	bl_str(&l, ": wrong byte at offset ");
	bl_uint(&l, at);
	bl_str(&l, ": got 0x");
	bl_char(&l, hex[got >> 4 & 0xf]);
	bl_char(&l, hex[got & 0xf]);
	bl_str(&l, ", want 0x");
	bl_char(&l, hex[want >> 4 & 0xf]);
	bl_char(&l, hex[want & 0xf]);
	bl_flush(&l, 2);
	sys_exit(BENCH_EX_FAIL);
}

/**
 * bench_result - print the one result line, "NAME VALUE UNITS"
 * @name: metric name (no spaces)
 * @value: the measurement
 * @decimals: digits after the point
 * @units: units (no spaces)
 */
static inline void bench_result(const char *name, double value,
				unsigned int decimals, const char *units)
{
	struct bench_line l = { .len = 0 };

	bl_str(&l, name);
	bl_char(&l, ' ');
	bl_fixed(&l, value, decimals);
	bl_char(&l, ' ');
	bl_str(&l, units);
	bl_flush(&l, 1);
}

/* --- time ----------------------------------------------------------------- */

static inline long long bench_now_ns(void)
{
	long long ns = 0;
	long ret = sys_monotonic_ns(&ns);

	if (ret)
		bench_die_sys("clock_gettime CLOCK_MONOTONIC", ret, 0);
	return ns;
}

/* --- options -------------------------------------------------------------- */

/**
 * struct bench_opt - one numeric option
 * @letter: the option letter, as in -s
 * @name: what the value is, for messages (e.g. "size")
 * @min: smallest value accepted
 * @max: largest value accepted
 * @val: the value: the default, replaced by the argument
 * @seen: the option was given
 */
struct bench_opt {
	char letter;
	const char *name;
	unsigned long min;
	unsigned long max;
	unsigned long val;
	int seen;
};

/* A decimal number in [min, max], or -1: no sign, no suffix, no overflow. */
static inline int bench_parse_ulong(const char *s, unsigned long min,
				    unsigned long max, unsigned long *val)
{
	unsigned long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		unsigned int d = (unsigned int)(*s - '0');

		if (*s < '0' || *s > '9' || d > max || v > (max - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (v < min)
		return -1;
	*val = v;
	return 0;
}

static inline void __noreturn bench_die_range(const struct bench_opt *o,
					      const char *arg)
{
	struct bench_line l = { .len = 0 };

	bl_error(&l);
	bl_str(&l, "bad ");
	bl_str(&l, o->name);
	bl_str(&l, " '");
	bl_str(&l, arg);
	bl_str(&l, "' for -");
	bl_char(&l, o->letter);
	bl_str(&l, ": want an integer ");
	bl_uint(&l, o->min);
	bl_str(&l, "..");
	bl_uint(&l, o->max);
	bl_str(&l, " (see -h)");
	bl_flush(&l, 2);
	sys_exit(BENCH_EX_USAGE);
}

/**
 * bench_parse_args - parse "-X VALUE" / "-XVALUE" options, and -h
 * @argc: from main()
 * @argv: from main()
 * @opts: the numeric options; each @val holds its default
 * @nopts: entries in @opts
 * @usage: the usage text, printed to stdout for -h (then exit 0)
 *
 * Anything else (an unknown option, a missing or bad value, an operand)
 * is reported on one stderr line, and the program exits with
 * BENCH_EX_USAGE.  A repeated option takes its last value.
 */
static inline void bench_parse_args(int argc, char **argv,
				    struct bench_opt *opts, unsigned int nopts,
				    const char *usage)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v;
		struct bench_opt *o = NULL;
		unsigned int k;

		if (a[0] != '-' || !a[1])
			bench_die_usage("unexpected argument", a);
		if (a[1] == 'h' && !a[2]) {
			unsigned long len = 0;

			while (usage[len])
				len++;
			bench_write_all(1, usage, len);
			sys_exit(0);
		}
		for (k = 0; k < nopts; k++)
			if (opts[k].letter == a[1])
				o = &opts[k];
		if (!o)
			bench_die_usage("unknown option", a);
		v = a[2] ? a + 2 : argv[++i];
		if (!v)
			bench_die_usage("missing value for", a);
		if (bench_parse_ulong(v, o->min, o->max, &o->val))
			bench_die_range(o, v);
		o->seen = 1;
	}
}

#endif /* BENCH_H */
