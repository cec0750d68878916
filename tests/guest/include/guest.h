/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest programs (tests/guest/init/init.c and the benchmarks of
 * tests/guest/workloads/) share: the headers of the libc or of the kernel
 * tree's nolibc, the system calls they all make (a negative errno on
 * failure), and lines of output built by hand and written whole, one
 * write() each, so that other output on the same console cannot split
 * them (nolibc's printf() has no %f, and the test logic uses no libc).
 *
 * A program that needs longer lines than 240 characters defines
 * GUEST_LINE_MAX before including this header.
 */
#ifndef GUEST_H
#define GUEST_H

/* The kernel's names for the attributes used (include/linux/compiler*.h). */
#define __noreturn	__attribute__((__noreturn__))

#ifdef NOLIBC	/* -include nolibc.h */
#include "nolibc-extra.h"
#else
#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>
#endif

/* --- the system layer: the libc's functions, -errno on failure ----------- */

static inline long neg_errno(long ret)
{
	return ret < 0 ? -errno : ret;
}

static inline long do_read(int fd, void *buf, unsigned long len)
{
	return neg_errno(read(fd, buf, len));
}

static inline long do_write(int fd, const void *buf, unsigned long len)
{
	return neg_errno(write(fd, buf, len));
}

static inline long do_pread(int fd, void *buf, unsigned long len,
			    long long pos)
{
	return neg_errno(pread(fd, buf, len, pos));
}

static inline long do_pwrite(int fd, const void *buf, unsigned long len,
			     long long pos)
{
	return neg_errno(pwrite(fd, buf, len, pos));
}

static inline long do_close(int fd)
{
	return neg_errno(close(fd));
}

/* CLOCK_MONOTONIC in nanoseconds; with nolibc a system call (no vDSO). */
static inline long do_monotonic_ns(long long *ns)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts))
		return -errno;
	*ns = ts.tv_sec * 1000000000LL + ts.tv_nsec;
	return 0;
}

/* --- output: whole lines, one write() each -------------------------------- */

#ifndef GUEST_LINE_MAX
#define GUEST_LINE_MAX	240
#endif

/**
 * struct linebuf - a line of output being built
 * @buf: the characters, and room for the newline (or a NUL) after them
 * @len: characters in @buf; what does not fit in GUEST_LINE_MAX is dropped
 */
struct linebuf {
	char buf[GUEST_LINE_MAX + 1];
	unsigned int len;
};

static inline void lb_char(struct linebuf *lb, char c)
{
	if (lb->len < GUEST_LINE_MAX)
		lb->buf[lb->len++] = c;
}

static inline void lb_str(struct linebuf *lb, const char *s)
{
	while (*s)
		lb_char(lb, *s++);
}

/*
 * Append @v in decimal.  With nolibc, its u64toa_r(), which divides by
 * subtraction: a 32-bit guest program then needs no libgcc (the
 * big-endian ARM init links none: the cross compiler's libgcc is
 * little-endian).
 */
static inline void lb_uint(struct linebuf *lb, unsigned long long v)
{
	char digits[21];
#ifdef NOLIBC
	u64toa_r(v, digits);
	lb_str(lb, digits);
#else
	unsigned int n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		lb_char(lb, digits[--n]);
#endif
}

/*
 * div_u64_u32 - @n / @d by shift and subtract, for the same reason, and
 * for Alpha, which has no divide instruction (its GCC calls __divqu(),
 * which is glibc's).
 */
static inline unsigned long long div_u64_u32(unsigned long long n,
					     unsigned long d)
{
	unsigned long long q = 0, r = 0;
	int i;

	for (i = 63; i >= 0; i--) {
		r = (r << 1) | ((n >> i) & 1);
		if (r >= d) {
			r -= d;
			q |= 1ULL << i;
		}
	}
	return q;
}

/* mod_u64_u32 - @n % @d, the same way. */
static inline unsigned long mod_u64_u32(unsigned long long n, unsigned long d)
{
	return (unsigned long)(n - div_u64_u32(n, d) * d);
}

/* write() all of @buf, retried if short; output errors are ignored. */
static inline void write_all(int fd, const char *buf, unsigned long len)
{
	unsigned long done = 0;

	while (done < len) {
		long ret = do_write(fd, buf + done, len - done);

		if (ret <= 0)
			break;
		done += (unsigned long)ret;
	}
}

/* Write the line and its newline with one write(), and empty it. */
static inline void lb_flush(struct linebuf *lb, int fd)
{
	lb->buf[lb->len++] = '\n';	/* there is always room: see lb_char() */
	write_all(fd, lb->buf, lb->len);
	lb->len = 0;
}

#endif /* GUEST_H */
