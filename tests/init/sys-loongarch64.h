/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The system layer of tests/init/init.c for loongarch64, where Debian 12 has
 * no libc: raw system calls (asm-generic numbers, a7 = number, a0..a5 =
 * arguments, "syscall 0", -errno on failure), the few constants init uses,
 * the mem*() functions the compiler may emit calls to, and _start.
 *
 * It provides the same sys_*() functions as the libc layer in init.c, with
 * the same convention: a negative return value is -errno.
 *
 * init.c defines __noreturn and __used before including this file.
 *
 * Build: clang --target=loongarch64-linux-gnu -march=loongarch64 -mno-lsx
 * -ffreestanding -nostdlib -static -fno-pie -fuse-ld=lld.
 */
#ifndef INIT_SYS_LOONGARCH64_H
#define INIT_SYS_LOONGARCH64_H

#ifndef __loongarch64
#error "sys-loongarch64.h has system calls for loongarch64 only"
#endif

#define NULL ((void *)0)

/* include/uapi/asm-generic/unistd.h */
#define __NR_dup3		24
#define __NR_fcntl		25
#define __NR_mknodat		33
#define __NR_mkdirat		34
#define __NR_unlinkat		35
#define __NR_mount		40
#define __NR_openat		56
#define __NR_close		57
#define __NR_pipe2		59
#define __NR_read		63
#define __NR_write		64
#define __NR_pread64		67
#define __NR_pwrite64		68
#define __NR_ppoll		73
#define __NR_sync		81
#define __NR_exit_group		94
#define __NR_clock_gettime	113
#define __NR_reboot		142
#define __NR_getpid		172

/* include/uapi/asm-generic/fcntl.h, errno-base.h, linux/stat.h ... */
#define O_RDONLY	00000000
#define O_WRONLY	00000001
#define O_RDWR		00000002
#define O_CREAT		00000100
#define O_TRUNC		00001000
#define O_NONBLOCK	00004000
#define O_CLOEXEC	02000000
#define AT_FDCWD	(-100)
#define F_GETFD		1
#define F_GETFL		3
#define F_SETFL		4
#define S_IFCHR		0020000
#define CLOCK_MONOTONIC	1
#define EBADF		9
#define EAGAIN		11
#define EBUSY		16
#define EEXIST		17

/* include/uapi/linux/reboot.h */
#define LINUX_REBOOT_MAGIC1	0xfee1dead
#define LINUX_REBOOT_MAGIC2	672274793
#define LINUX_REBOOT_CMD_RESTART 0x01234567

/* include/uapi/linux/time_types.h: struct __kernel_timespec */
struct init_kernel_timespec {
	long long tv_sec;
	long long tv_nsec;
};

#include "rt-loongarch64.h"

static long sys_read(int fd, void *buf, unsigned long len)
{
	return lsys3(__NR_read, fd, buf, len);
}

static long sys_write(int fd, const void *buf, unsigned long len)
{
	return lsys3(__NR_write, fd, buf, len);
}

static long sys_pread(int fd, void *buf, unsigned long len, long long pos)
{
	return lsys6(__NR_pread64, fd, (long)buf, (long)len, (long)pos, 0, 0);
}

static long sys_pwrite(int fd, const void *buf, unsigned long len,
		       long long pos)
{
	return lsys6(__NR_pwrite64, fd, (long)buf, (long)len, (long)pos, 0, 0);
}

static long sys_open(const char *path, int flags, unsigned int mode)
{
	return lsys6(__NR_openat, AT_FDCWD, (long)path, flags, mode, 0, 0);
}

static long sys_close(int fd)
{
	return lsys3(__NR_close, fd, 0, 0);
}

static long sys_pipe(int fds[2])
{
	return lsys3(__NR_pipe2, fds, O_CLOEXEC, 0);
}

static long sys_fcntl(int fd, int cmd, long arg)
{
	return lsys3(__NR_fcntl, fd, cmd, arg);
}

static long sys_dup2(int oldfd, int newfd)
{
	/* dup3() refuses oldfd == newfd, which dup2() accepts. */
	if (oldfd == newfd)
		return sys_fcntl(oldfd, F_GETFD, 0) < 0 ? -EBADF : newfd;
	return lsys3(__NR_dup3, oldfd, newfd, 0);
}

static long sys_mkdir(const char *path, unsigned int mode)
{
	return lsys3(__NR_mkdirat, AT_FDCWD, path, mode);
}

/* new_encode_dev(): enough for the small major and minor numbers used. */
static long sys_mknod(const char *path, unsigned int mode, unsigned int major,
		      unsigned int minor)
{
	unsigned long dev = (minor & 0xff) | (major << 8) |
			    ((unsigned long)(minor & ~0xffu) << 12);

	return lsys6(__NR_mknodat, AT_FDCWD, (long)path, mode, (long)dev, 0, 0);
}

static long sys_unlink(const char *path)
{
	return lsys3(__NR_unlinkat, AT_FDCWD, path, 0);
}

static long sys_mount(const char *source, const char *target,
		      const char *type)
{
	return lsys6(__NR_mount, (long)source, (long)target, (long)type, 0, 0,
		     0);
}

static long sys_getpid(void)
{
	return lsys3(__NR_getpid, 0, 0, 0);
}

static void sys_sync(void)
{
	lsys3(__NR_sync, 0, 0, 0);
}

static long sys_reboot_restart(void)
{
	return lsys6(__NR_reboot, (long)LINUX_REBOOT_MAGIC1,
		     LINUX_REBOOT_MAGIC2, LINUX_REBOOT_CMD_RESTART, 0, 0, 0);
}

/* ppoll() on no descriptors with no timeout: sleeps until a signal. */
static void sys_pause(void)
{
	lsys6(__NR_ppoll, 0, 0, 0, 0, 0, 0);
}

static long sys_monotonic_ns(long long *ns)
{
	struct init_kernel_timespec ts;
	long ret = lsys3(__NR_clock_gettime, CLOCK_MONOTONIC, &ts, 0);

	if (ret == 0)
		*ns = ts.tv_sec * 1000000000LL + ts.tv_nsec;
	return ret;
}

static void __noreturn sys_exit(int status)
{
	for (;;)
		lsys3(__NR_exit_group, status, 0, 0);
}

void *memmove(void *dst, const void *src, unsigned long n);
void *memmove(void *dst, const void *src, unsigned long n)
{
	volatile unsigned char *d = dst;
	const unsigned char *s = src;

	if (d <= s) {
		while (n--)
			*d++ = *s++;
	} else {
		while (n--)
			d[n] = s[n];
	}
	return dst;
}

int main(int argc, char **argv);
void init_entry(long *sp);

/*
 * Entry point.  The kernel starts us with sp 16-byte aligned and pointing
 * at argc, followed by argv[] (and envp[], auxv): hand sp to C.
 */
__asm__(".text\n"
	".globl _start\n"
	".type _start, @function\n"
	"_start:\n"
	"	move $fp, $zero\n"
	"	move $a0, $sp\n"
	"	bl init_entry\n");

void __used __noreturn init_entry(long *sp)
{
	sys_exit(main((int)sp[0], (char **)(sp + 1)));
}

#endif /* INIT_SYS_LOONGARCH64_H */
