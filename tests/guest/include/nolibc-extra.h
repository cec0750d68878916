/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest programs (tests/guest/init/init.c, tests/guest/workloads/)
 * use and the kernel tree's nolibc (tools/include/nolibc of 6.12) lacks:
 * pread(), pwrite(), fcntl(), sync(), clock_gettime(), and two constants
 * of glibc's headers.  Each function is one system call, made with nolibc's
 * own my_syscallN() and __sysret() (so -1 and errno on failure, as in any
 * libc), under a name of its own to which the standard name is defined:
 * a nolibc that has the function too keeps its own, unused, and nothing is
 * defined twice.
 *
 * For builds with -include nolibc.h (which defines NOLIBC), on the
 * architectures of configs/targets.
 */
#ifndef GUEST_NOLIBC_EXTRA_H
#define GUEST_NOLIBC_EXTRA_H

#ifndef NOLIBC
#error "nolibc-extra.h is for builds with -include nolibc.h"
#endif

#include <linux/memfd.h>	/* MFD_CLOEXEC, which glibc has in <sys/mman.h> */

/* 7.x's nolibc renamed my_syscallN() to __nolibc_syscallN(). */
#if !defined(my_syscall0) && defined(__nolibc_syscall0)
#define my_syscall0	__nolibc_syscall0
#define my_syscall2	__nolibc_syscall2
#define my_syscall3	__nolibc_syscall3
#define my_syscall4	__nolibc_syscall4
#define my_syscall6	__nolibc_syscall6
#endif

/* glibc's <sys/reboot.h> name for the restart command of reboot(). */
#ifndef RB_AUTOBOOT
#define RB_AUTOBOOT	LINUX_REBOOT_CMD_RESTART
#endif

/*
 * pread64 and pwrite64 take a 64-bit file offset: one register on a 64-bit
 * architecture; on a 32-bit one two, in the order the halves have in
 * memory (the high half first on a big-endian CPU).  Where the ABI puts a
 * 64-bit argument in an even-odd register pair (ARM EABI, MIPS o32,
 * 32-bit PowerPC; SH's pread/pwrite wrappers too), a padding argument
 * comes first; i386, m68k, 32-bit SPARC, OpenRISC and 32-bit RISC-V take
 * the next two.
 */
#if defined(__ARM_EABI__) || (defined(__mips__) && _MIPS_SIM == _ABIO32) || \
	(defined(__powerpc__) && !defined(__powerpc64__)) || defined(__sh__)
#define NOLIBC_EXTRA_PAIR_PAD	1
#elif __SIZEOF_LONG__ != 8 && !defined(__i386__) && !defined(__m68k__) && \
	!defined(__sparc__) && !defined(__or1k__) && !defined(__riscv)
#error "nolibc-extra.h: pread()/pwrite() for an architecture it does not know"
#endif
#if !defined(my_syscall5) && defined(__nolibc_syscall5)
#define my_syscall5	__nolibc_syscall5
#endif

/**
 * nolibc_extra_syscall_pos - pread64 or pwrite64, the offset as above
 * @nr: __NR_pread64 or __NR_pwrite64
 * @fd: file descriptor
 * @buf: the buffer
 * @count: bytes to move
 * @pos: file offset
 *
 * Return: what the system call returns: the bytes moved, or -errno.
 */
static inline long nolibc_extra_syscall_pos(long nr, int fd, const void *buf,
					    size_t count, long long pos)
{
#if __SIZEOF_LONG__ == 8
	return my_syscall4(nr, fd, buf, count, pos);
#else
	/* The halves in memory order (nolibc's __NOLIBC_LLARGPART, 7.x). */
	union { long long ll; unsigned long l[2]; } p = { .ll = pos };

#if defined(NOLIBC_EXTRA_PAIR_PAD)
	return my_syscall6(nr, fd, buf, count, 0, p.l[0], p.l[1]);
#else
	return my_syscall5(nr, fd, buf, count, p.l[0], p.l[1]);
#endif
#endif
}

/**
 * nolibc_extra_pread - pread(): read from a file offset
 * @fd: file descriptor
 * @buf: destination
 * @count: bytes to read
 * @pos: file offset
 *
 * Return: the bytes read, or -1 with errno set.
 */
static inline ssize_t nolibc_extra_pread(int fd, void *buf, size_t count,
					 long long pos)
{
	return __sysret(nolibc_extra_syscall_pos(__NR_pread64, fd, buf, count,
						 pos));
}

#define pread	nolibc_extra_pread

/**
 * nolibc_extra_pwrite - pwrite(): write at a file offset
 * @fd: file descriptor
 * @buf: source
 * @count: bytes to write
 * @pos: file offset
 *
 * Return: the bytes written, or -1 with errno set.
 */
static inline ssize_t nolibc_extra_pwrite(int fd, const void *buf,
					  size_t count, long long pos)
{
	return __sysret(nolibc_extra_syscall_pos(__NR_pwrite64, fd, buf, count,
						 pos));
}

#define pwrite	nolibc_extra_pwrite

/**
 * nolibc_extra_fcntl - fcntl() with an integer argument
 * @fd: file descriptor
 * @cmd: F_GETFD, F_SETFL, ...
 * @arg: the command's argument (not optional here: pass 0 if unused)
 *
 * fcntl64 where the architecture has both (32-bit): the same for the
 * commands that take an integer.
 *
 * Return: what the command returns, or -1 with errno set.
 */
static inline int nolibc_extra_fcntl(int fd, int cmd, long arg)
{
#ifdef __NR_fcntl64
	return __sysret(my_syscall3(__NR_fcntl64, fd, cmd, arg));
#else
	return __sysret(my_syscall3(__NR_fcntl, fd, cmd, arg));
#endif
}

#define fcntl	nolibc_extra_fcntl

/**
 * nolibc_extra_sync - sync(): write back every file system
 */
static inline void nolibc_extra_sync(void)
{
	my_syscall0(__NR_sync);
}

#define sync	nolibc_extra_sync

/**
 * nolibc_extra_clock_gettime - clock_gettime(), by a system call (no vDSO)
 * @clk: CLOCK_MONOTONIC, ...
 * @ts: the time
 *
 * On a 32-bit architecture this is clock_gettime64 with the kernel's
 * 64-bit struct __kernel_timespec, as a libc makes it: the 32-bit
 * clock_gettime exists only with CONFIG_COMPAT_32BIT_TIME, which
 * tinyconfig leaves out (it returns -ENOSYS there).
 *
 * Return: 0, or -1 with errno set.
 */
static inline int nolibc_extra_clock_gettime(__kernel_clockid_t clk,
					     struct timespec *ts)
{
#if __SIZEOF_LONG__ == 4
	struct __kernel_timespec t64;
	int ret;

	ret = __sysret(my_syscall2(__NR_clock_gettime64, clk, &t64));
	if (!ret) {
		ts->tv_sec = t64.tv_sec;
		ts->tv_nsec = t64.tv_nsec;
	}
	return ret;
#else
	return __sysret(my_syscall2(__NR_clock_gettime, clk, ts));
#endif
}

#define clock_gettime	nolibc_extra_clock_gettime

#endif /* GUEST_NOLIBC_EXTRA_H */
