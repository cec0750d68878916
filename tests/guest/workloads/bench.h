/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the on-target benchmarks of tests/guest/workloads/ (pread_zero.c,
 * syscall_rate.c, copy_rate.c), on top of tests/guest/include/guest.h (the
 * headers, the common system calls, whole lines of output): the rest of
 * the system layer, option parsing, messages and the one result line.
 *
 * One source, built against the kernel tree's nolibc for every target
 * (scripts/stages/build-workloads: -nostdlib -static -include nolibc.h,
 * with tests/guest/include/nolibc-extra.h for what nolibc lacks); a libc
 * build (glibc) works too.  Every do_*() returns -errno on failure.  Above
 * the system layer nothing uses libc: output is formatted here, and
 * written with one write() per line.
 *
 * Output contract (LAVA: set -- $(./prog); lava-test-case "$1"
 * --measurement "$2" --units "$3"): one line on stdout, "NAME VALUE
 * UNITS"; at most one diagnostic line on stderr.  Exit 0 on success, 1
 * when a system call fails or returns something wrong (one line naming
 * it), 2 for bad arguments (one line); -h prints the usage, exit 0.
 */
#ifndef BENCH_H
#define BENCH_H

#define BENCH_EX_FAIL	1
#define BENCH_EX_USAGE	2

/* Lines of up to 400 characters (guest.h's default is 240). */
#define GUEST_LINE_MAX	400

#include "../include/guest.h"

#ifndef NOLIBC
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#endif

/* The rest of the system layer (guest.h has the calls all programs make). */
static inline long do_open_ro(const char *path)
{
	return neg_errno(open(path, O_RDONLY | O_CLOEXEC));
}

static inline long do_memfd(const char *name)
{
	return neg_errno(syscall(__NR_memfd_create, name, MFD_CLOEXEC));
}

/*
 * The syscall-rate mix goes through syscall(2), never the libc functions:
 * a libc may cache getpid() or getuid() and never enter the kernel.
 */
static inline long do_dup(int fd)
{
	return neg_errno(syscall(__NR_dup, fd));
}

static inline long do_getpid(void)
{
	return syscall(__NR_getpid);
}

static inline long do_getuid(void)
{
	return syscall(__NR_getuid);
}

static inline long do_umask(unsigned int mask)
{
	return syscall(__NR_umask, mask);
}

/*
 * Anonymous private memory, page-aligned: the address, or -errno.  On a
 * 32-bit guest an address above 2 GiB is a negative long: test the result
 * with mmap_failed(), as the kernel's IS_ERR_VALUE() does, not with < 0.
 */
static inline long do_mmap_anon(unsigned long len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? -errno : (long)p;
}

static inline int mmap_failed(long ret)
{
	return (unsigned long)ret >= -4095UL;
}

static inline void __noreturn do_exit(int status)
{
	exit(status);
}

/* --- output: numbers and messages, on guest.h's lines --------------------- */

/* Set by each program: the name its messages start with. */
static const char *bench_prog;

/*
 * Set by -i (bench_parse_args): print the virtual nanoseconds per
 * operation instead of the program's usual figure.  Under QEMU's
 * "-icount shift=0" the guest clock advances one nanosecond per guest
 * instruction, so that figure is the instructions the guest ran per
 * operation, the same on every run and every host.
 */
static int bench_per_op;

/* The line of -i for a usage text. */
#define BENCH_USAGE_PER_OP \
"  -i  print \"PROG_ns_per_OP NS ns\" instead: the nanoseconds per operation\n" \
"      (under QEMU -icount shift=0: guest instructions per operation)\n"

/**
 * lb_fixed - append a non-negative number with a fixed number of decimals
 * @l: the line
 * @v: the value; a negative one is shown as 0
 * @decimals: digits after the point, 0..9
 *
 * Rounded to nearest.  Done by hand: nolibc's printf() has no %f.
 */
static inline void lb_fixed(struct linebuf *l, double v,
			    unsigned int decimals)
{
	unsigned long long scale = 1, scaled;
	unsigned int i;

	for (i = 0; i < decimals; i++)
		scale *= 10;
	if (!(v > 0))
		v = 0;
	scaled = (unsigned long long)(v * (double)scale + 0.5);
	lb_uint(l, scaled / scale);
	if (!decimals)
		return;
	lb_char(l, '.');
	scaled %= scale;
	for (scale /= 10; scale; scale /= 10)
		lb_char(l, (char)('0' + scaled / scale % 10));
}

/* "PROG: error: " to start an error line. */
static inline void lb_error(struct linebuf *l)
{
	l->len = 0;
	lb_str(l, bench_prog);
	lb_str(l, ": error: ");
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
	struct linebuf l = { .len = 0 };

	lb_error(&l);
	lb_str(&l, what);
	if (arg) {
		lb_str(&l, " '");
		lb_str(&l, arg);
		lb_char(&l, '\'');
	}
	lb_str(&l, " (see -h)");
	lb_flush(&l, 2);
	do_exit(BENCH_EX_USAGE);
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
	struct linebuf l = { .len = 0 };

	lb_error(&l);
	lb_str(&l, call);
	if (ret < 0) {
		lb_str(&l, " failed: ");
		lb_str(&l, errno_name(-ret));
		lb_str(&l, " (errno ");
		lb_uint(&l, (unsigned long long)-ret);
		lb_char(&l, ')');
	} else {
		lb_str(&l, " returned ");
		lb_uint(&l, (unsigned long)ret);
		lb_str(&l, ", want ");
		lb_uint(&l, want);
	}
	lb_flush(&l, 2);
	do_exit(BENCH_EX_FAIL);
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
	struct linebuf l = { .len = 0 };

	lb_error(&l);
	lb_str(&l, what);
	lb_str(&l, ": wrong byte at offset ");
	lb_uint(&l, at);
	lb_str(&l, ": got 0x");
	lb_char(&l, hex[got >> 4 & 0xf]);
	lb_char(&l, hex[got & 0xf]);
	lb_str(&l, ", want 0x");
	lb_char(&l, hex[want >> 4 & 0xf]);
	lb_char(&l, hex[want & 0xf]);
	lb_flush(&l, 2);
	do_exit(BENCH_EX_FAIL);
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
	struct linebuf l = { .len = 0 };

	lb_str(&l, name);
	lb_char(&l, ' ');
	lb_fixed(&l, value, decimals);
	lb_char(&l, ' ');
	lb_str(&l, units);
	lb_flush(&l, 1);
}

/**
 * bench_result_per_op - print the -i result line, "PROG_ns_per_OP NS ns"
 * @op: what one operation is (no spaces), e.g. "pread"
 * @ns: nanoseconds the @ops operations took
 * @ops: operations done, at least 1
 *
 * Three decimals: a workload of a few hundred operations still gives a
 * figure to well under 0.1%.
 */
static inline void bench_result_per_op(const char *op, long long ns,
				       unsigned long long ops)
{
	struct linebuf l = { .len = 0 };

	lb_str(&l, bench_prog);
	lb_str(&l, "_ns_per_");
	lb_str(&l, op);
	lb_char(&l, ' ');
	lb_fixed(&l, ops ? (double)ns / (double)ops : 0, 3);
	lb_str(&l, " ns");
	lb_flush(&l, 1);
}

/* --- time ----------------------------------------------------------------- */

static inline long long bench_now_ns(void)
{
	long long ns = 0;
	long ret = do_monotonic_ns(&ns);

	if (ret)
		bench_die_sys("clock_gettime CLOCK_MONOTONIC", ret, 0);
	return ns;
}

/**
 * bench_window() - mark an edge of the timed window for a profiler outside
 * the guest: one getppid() system call, which nothing else of the guest's
 * makes.  bench-icount's QEMU plugins count between two entries to it
 * (window=); made outside the clock reads, it is not in the figure.
 */
static inline void bench_window(void)
{
	(void)getppid();
}

/* --- options -------------------------------------------------------------- */

/**
 * struct bench_opt - one option with a value
 * @letter: the option letter, as in -s
 * @name: what the value is, for messages (e.g. "size")
 * @min: smallest value accepted
 * @max: largest value accepted
 * @val: the value: the default, replaced by the argument
 * @seen: the option was given
 * @str: for an option whose value is a string (a path): the value, the
 *	 default replaced by the argument; NULL for a numeric option
 */
struct bench_opt {
	char letter;
	const char *name;
	unsigned long min;
	unsigned long max;
	unsigned long val;
	int seen;
	const char *str;
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
	struct linebuf l = { .len = 0 };

	lb_error(&l);
	lb_str(&l, "bad ");
	lb_str(&l, o->name);
	lb_str(&l, " '");
	lb_str(&l, arg);
	lb_str(&l, "' for -");
	lb_char(&l, o->letter);
	lb_str(&l, ": want an integer ");
	lb_uint(&l, o->min);
	lb_str(&l, "..");
	lb_uint(&l, o->max);
	lb_str(&l, " (see -h)");
	lb_flush(&l, 2);
	do_exit(BENCH_EX_USAGE);
}

/**
 * bench_parse_args - parse "-X VALUE" / "-XVALUE" options, -i and -h
 * @argc: from main()
 * @argv: from main()
 * @opts: the options; each @val (or @str) holds its default
 * @nopts: entries in @opts
 * @usage: the usage text, printed to stdout for -h (then exit 0)
 *
 * -i sets bench_per_op.  Anything else (an unknown option, a missing or
 * bad value, an operand)
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
			write_all(1, usage, len);
			do_exit(0);
		}
		if (a[1] == 'i' && !a[2]) {
			bench_per_op = 1;
			continue;
		}
		for (k = 0; k < nopts; k++)
			if (opts[k].letter == a[1])
				o = &opts[k];
		if (!o)
			bench_die_usage("unknown option", a);
		v = a[2] ? a + 2 : argv[++i];
		if (!v || (o->str && !*v))
			bench_die_usage("missing value for", a);
		if (o->str)
			o->str = v;
		else if (bench_parse_ulong(v, o->min, o->max, &o->val))
			bench_die_range(o, v);
		o->seen = 1;
	}
}

#endif /* BENCH_H */
