// SPDX-License-Identifier: GPL-2.0
/*
 * syscall_rate - the UnixBench "syscall" mix: LoongArch
 * syscall_get_arguments() (patch 0005, five assignments instead of a
 * memcpy() that -fno-builtin-memcpy makes an out-of-line call).
 *
 * One loop is close(dup(0)), getpid(), getuid(), umask(022): five cheap
 * system calls, so the entry and exit paths dominate.  The thread behind
 * the patch measured +4.9 to +5.3% on a 3A6000 with this mix.
 *
 * The patched code runs only when a system call entry does more than
 * the fast path.  syscall_get_arguments() is called from
 * syscall_enter_audit() -> audit_syscall_entry() only for a task with an
 * audit context, and a task gets one at fork once audit has ever been
 * enabled: boot with audit=1 on the kernel command line, or start auditd
 * (auditctl -e 1) before this program.  No rule is needed; a
 * "-a never,task" rule takes the context away.  Without audit the mix
 * measures the unchanged fast path: run it both ways.  (The syscall
 * tracepoints, seccomp filters and PTRACE_GET_SYSCALL_INFO call it too.)
 *
 * Every call goes through syscall(2) (glibc's or nolibc's), never the
 * libc function: a libc may cache getpid() or getuid() and skip the
 * kernel.  File descriptor 0 must be open, as in UnixBench.
 *
 * Usage: syscall_rate [-i] [-t SECONDS | -n LOOPS]
 * Prints "syscall_rate_lps LOOPS_PER_SECOND loops/s".  Higher is better.
 * With -i, "syscall_rate_ns_per_syscall NS ns" (under QEMU -icount
 * shift=0, the guest instructions of one system call of the mix).
 */
#include "bench.h"

#define DEF_SECONDS	10
#define MAX_SECONDS	86400UL
#define MAX_LOOPS	4000000000UL
/*
 * With -t, the clock is read once per this many loops: under 0.1% more
 * system calls where clock_gettime() has no vDSO (the nolibc build),
 * and an overrun of well under a millisecond.
 */
#define CLOCK_EVERY	256

static const char usage[] =
"Usage: syscall_rate [-i] [-t SECONDS | -n LOOPS]\n"
"\n"
"The UnixBench \"syscall\" mix: loops of close(dup(0)), getpid(), getuid(),\n"
"umask(022), for SECONDS (default 10) or for LOOPS loops.  Measures the\n"
"system call entry path; LoongArch's syscall_get_arguments() (patch 0005)\n"
"is on it only with audit enabled (audit=1 on the kernel command line, or\n"
"auditd started before this program).\n"
"\n"
"Prints one line on stdout, \"syscall_rate_lps RATE loops/s\", and a\n"
"diagnostic on stderr.  Exit: 0 done, 1 a system call failed, 2 bad\n"
"arguments.\n"
"\n"
BENCH_USAGE_PER_OP;

/* One loop of the mix; only dup() and close() can fail. */
static void mix_once(void)
{
	long fd = do_dup(0);
	long ret;

	if (fd < 0)
		bench_die_sys("dup(0) (file descriptor 0 must be open)", fd, 0);
	ret = do_close((int)fd);
	if (ret < 0)
		bench_die_sys("close", ret, 0);
	do_getpid();
	do_getuid();
	do_umask(022);
}

int main(int argc, char **argv)
{
	struct bench_opt opts[] = {
		{ .letter = 't', .name = "duration", .min = 1,
		  .max = MAX_SECONDS, .val = DEF_SECONDS },
		{ .letter = 'n', .name = "loop count", .min = 1,
		  .max = MAX_LOOPS, .val = 0 },
	};
	struct linebuf l = { .len = 0 };
	unsigned long long loops = 0;
	long long t0, t1;
	double secs, rate;

	bench_prog = "syscall_rate";
	bench_parse_args(argc, argv, opts, 2, usage);
	if (opts[0].seen && opts[1].seen)
		bench_die_usage("-t and -n exclude each other", NULL);

	mix_once();	/* untimed: fails early if fd 0 is closed */
	bench_window();
	t0 = bench_now_ns();
	if (opts[1].seen) {
		for (; loops < opts[1].val; loops++)
			mix_once();
		t1 = bench_now_ns();
	} else {
		long long end = t0 + (long long)opts[0].val * 1000000000LL;
		unsigned int i;

		do {
			for (i = 0; i < CLOCK_EVERY; i++)
				mix_once();
			loops += CLOCK_EVERY;
			t1 = bench_now_ns();
		} while (t1 < end);
	}
	bench_window();

	secs = (double)(t1 - t0) / 1e9;
	rate = secs > 0 ? (double)loops / secs : 0;
	if (bench_per_op)
		bench_result_per_op("syscall", t1 - t0, loops * 5);
	else
		bench_result("syscall_rate_lps", rate, 1, "loops/s");

	lb_str(&l, "syscall_rate: ");
	lb_uint(&l, loops);
	lb_str(&l, " loops (5 system calls each) in ");
	lb_fixed(&l, secs, 6);
	lb_str(&l, " s, ");
	lb_fixed(&l, rate * 5, 0);
	lb_str(&l, " system calls/s");
	lb_flush(&l, 2);
	return 0;
}
