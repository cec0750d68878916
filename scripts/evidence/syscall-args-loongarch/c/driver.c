// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of LoongArch's syscall_get_arguments() and the other helpers
 * of arch/loongarch/include/asm/syscall.h, unpatched and patched (patch
 * 0005: five assignments instead of a 40-byte memcpy()), as a static
 * program for qemu-loongarch64.  The two forms of the header are built
 * into variant.c twice (sa_ops_unpatched, sa_ops_patched); see
 * scripts/evidence/syscall-args-loongarch/syscall-args-loongarch.
 *
 * For each form:
 *  - syscall_get_arguments() on struct pt_regs filled with distinct values
 *    (every register and orig_a0 distinct, so regs[4] != orig_a0 and a
 *    mix-up shows which register was read), for several patterns: args[0]
 *    is orig_a0, args[1..5] are regs[5..9]; the two canary words on each
 *    side of args[] and the whole of pt_regs are unchanged;
 *  - syscall_get_nr() (regs[11]), syscall_get_return_value() (regs[4]),
 *    syscall_get_error() (-1..-4095 are errors, -4096 and 5 are not),
 *    syscall_set_return_value() (error, else value), syscall_rollback()
 *    (regs[4] = orig_a0) and syscall_get_arch() (AUDIT_ARCH_LOONGARCH64).
 *
 * TAP on stdout, with write(); exit status 0 if every test passed.  Built
 * against a kernel tree's nolibc (-include nolibc.h), which also provides
 * the memcpy() that the unpatched form calls.  struct pt_regs is the
 * shim's, named by its path: <asm/ptrace.h> is the UAPI one here, and
 * the shims (include/, searched after nolibc and the UAPI headers) only
 * fill in <linux/compiler.h>.
 */
#include "include/asm/ptrace.h"
#include "syscall_args.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define NR_PATTERNS	8
#define NR_CANARY	2
#define AUDIT_ARCH_LOONGARCH64_VALUE	0xc0000102L	/* EM_LOONGARCH | 64BIT | LE */

static const struct sa_ops *const variants[] = {
	&sa_ops_unpatched,
	&sa_ops_patched,
};

static unsigned int tap_n, tap_failed;

/* --- output --------------------------------------------------------------- */

static void put_str(const char *s)
{
	unsigned long n = 0;

	while (s[n])
		n++;
	write(1, s, n);
}

static void put_uint(unsigned long v)
{
	char buf[24];
	unsigned int i = sizeof(buf) - 1;

	buf[i] = '\0';
	do {
		buf[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	put_str(buf + i);
}

static void put_hex(unsigned long v)
{
	static const char digits[] = "0123456789abcdef";
	char buf[20];
	unsigned int i = sizeof(buf) - 1;

	buf[i] = '\0';
	do {
		buf[--i] = digits[v & 0xf];
		v >>= 4;
	} while (v);
	buf[--i] = 'x';
	buf[--i] = '0';
	put_str(buf + i);
}

/* A test's result: checks made, checks failed, and the first failure. */
struct result {
	unsigned long checks;
	unsigned long failures;
	const char *what;	/* first failure: what was checked */
	unsigned long pattern;
	unsigned long got, want;
	const char *got_name;	/* the pt_regs field the wrong value is from */
};

static void check(struct result *res, const char *what, unsigned long pattern,
		  unsigned long got, unsigned long want, const char *got_name)
{
	res->checks++;
	if (got == want)
		return;
	if (!res->failures++) {
		res->what = what;
		res->pattern = pattern;
		res->got = got;
		res->want = want;
		res->got_name = got_name;
	}
}

static void report(const struct result *res, const char *name,
		   const char *desc)
{
	int ok = res->checks && !res->failures;

	tap_n++;
	if (!ok)
		tap_failed++;
	put_str(ok ? "ok " : "not ok ");
	put_uint(tap_n);
	put_str(" - ");
	put_str(name);
	put_str(": ");
	put_str(desc);
	put_str(": ");
	put_uint(res->checks);
	put_str(" checks");
	if (res->failures) {
		put_str(", ");
		put_uint(res->failures);
		put_str(" failed\n# first failure: pattern ");
		put_uint(res->pattern);
		put_str(": ");
		put_str(res->what);
		put_str(" is ");
		put_hex(res->got);
		if (res->got_name) {
			put_str(" (");
			put_str(res->got_name);
			put_str(")");
		}
		put_str(", want ");
		put_hex(res->want);
	}
	put_str("\n");
}

/* --- pt_regs ---------------------------------------------------------------- */

/*
 * Pattern p: every field distinct within one struct.  Registers i:
 * 0xa0 + i in the top byte, p in the next, i and p in the low bytes;
 * orig_a0 0x4f in the top byte; CSRs 0x3c.  Odd patterns are inverted,
 * for values with the top bit clear.
 */
static void fill_regs(struct pt_regs *regs, unsigned long p)
{
	unsigned long inv = p & 1 ? ~0UL : 0;
	unsigned long i;

	for (i = 0; i < 32; i++)
		regs->regs[i] = inv ^ ((0xa0UL + i) << 56 | p << 48 |
				       0xc0ffee000000UL | i << 8 | p);
	regs->orig_a0 = inv ^ (0x4fUL << 56 | p << 48 | 0x0a0a0a0a00UL | p);
	regs->csr_era = inv ^ (0x3c01UL << 48 | p);
	regs->csr_badvaddr = inv ^ (0x3c02UL << 48 | p);
	regs->csr_crmd = inv ^ (0x3c03UL << 48 | p);
	regs->csr_prmd = inv ^ (0x3c04UL << 48 | p);
	regs->csr_euen = inv ^ (0x3c05UL << 48 | p);
	regs->csr_ecfg = inv ^ (0x3c06UL << 48 | p);
	regs->csr_estat = inv ^ (0x3c07UL << 48 | p);
}

static const char *const reg_names[32] = {
	"regs[0]", "regs[1]", "regs[2]", "regs[3]", "regs[4]", "regs[5]",
	"regs[6]", "regs[7]", "regs[8]", "regs[9]", "regs[10]", "regs[11]",
	"regs[12]", "regs[13]", "regs[14]", "regs[15]", "regs[16]", "regs[17]",
	"regs[18]", "regs[19]", "regs[20]", "regs[21]", "regs[22]", "regs[23]",
	"regs[24]", "regs[25]", "regs[26]", "regs[27]", "regs[28]", "regs[29]",
	"regs[30]", "regs[31]",
};

/* The field of regs that holds v, for a diagnostic, or NULL. */
static const char *field_of(const struct pt_regs *regs, unsigned long v)
{
	unsigned int i;

	if (v == regs->orig_a0)
		return "orig_a0";
	for (i = 0; i < 32; i++)
		if (v == regs->regs[i])
			return reg_names[i];
	return 0;
}

/*
 * a and b compared as arrays of unsigned long: the index of the first
 * word that differs, or -1.
 */
static long regs_differ(const struct pt_regs *a, const struct pt_regs *b)
{
	const unsigned long *x = (const unsigned long *)a;
	const unsigned long *y = (const unsigned long *)b;
	unsigned long i;

	for (i = 0; i < sizeof(*a) / sizeof(long); i++)
		if (x[i] != y[i])
			return (long)i;
	return -1;
}

/* --- tests ------------------------------------------------------------------ */

static void test_arguments(const struct sa_ops *ops)
{
	static const char *const arg_names[6] = {
		"args[0]", "args[1]", "args[2]", "args[3]", "args[4]", "args[5]",
	};
	struct result res = { 0 };
	struct pt_regs regs, copy;
	unsigned long p, i;

	for (p = 0; p < NR_PATTERNS; p++) {
		unsigned long buf[NR_CANARY + 6 + NR_CANARY];
		unsigned long *args = buf + NR_CANARY;
		long d;

		for (i = 0; i < ARRAY_SIZE(buf); i++)
			buf[i] = 0x5a5a5a5a00000000UL | p << 8 | i;
		fill_regs(&regs, p);
		copy = regs;
		ops->get_arguments(&regs, args);
		check(&res, "args[0]", p, args[0], regs.orig_a0,
		      field_of(&regs, args[0]));
		for (i = 1; i < 6; i++)
			check(&res, arg_names[i], p, args[i], regs.regs[4 + i],
			      field_of(&regs, args[i]));
		for (i = 0; i < NR_CANARY; i++) {
			check(&res, "canary before args[]", p, buf[i],
			      0x5a5a5a5a00000000UL | p << 8 | i, 0);
			check(&res, "canary after args[]", p, buf[NR_CANARY + 6 + i],
			      0x5a5a5a5a00000000UL | p << 8 | (NR_CANARY + 6 + i), 0);
		}
		d = regs_differ(&regs, &copy);
		check(&res, "index of the first pt_regs word changed", p,
		      (unsigned long)d, -1UL, 0);
	}
	report(&res, ops->name,
	       "syscall_get_arguments(): args[0] = orig_a0, args[1..5] = regs[5..9], canaries and pt_regs unchanged, 8 patterns");
}

static void test_helpers(const struct sa_ops *ops)
{
	static const long errors[] = { -1, -4, -14, -4095 };
	static const long not_errors[] = { 0, 5, -4096, 0x7fffffffL };
	struct result res = { 0 };
	struct pt_regs regs, copy;
	unsigned long p, i;

	for (p = 0; p < NR_PATTERNS; p++) {
		fill_regs(&regs, p);
		check(&res, "syscall_get_nr()", p, (unsigned long)ops->get_nr(&regs),
		      regs.regs[11], field_of(&regs, (unsigned long)ops->get_nr(&regs)));
		check(&res, "syscall_get_return_value()", p,
		      (unsigned long)ops->get_return_value(&regs), regs.regs[4],
		      field_of(&regs, (unsigned long)ops->get_return_value(&regs)));

		copy = regs;
		ops->rollback(&regs);
		check(&res, "regs[4] after syscall_rollback()", p, regs.regs[4],
		      copy.orig_a0, 0);
		regs.regs[4] = copy.regs[4];
		check(&res, "first other pt_regs word changed by syscall_rollback()",
		      p, (unsigned long)regs_differ(&regs, &copy), -1UL, 0);

		ops->set_return_value(&regs, -14, 0x1234);
		check(&res, "regs[4] after syscall_set_return_value(-EFAULT, 0x1234)",
		      p, regs.regs[4], (unsigned long)-14L, 0);
		ops->set_return_value(&regs, 0, (long)(0x1234 + p));
		check(&res, "regs[4] after syscall_set_return_value(0, 0x1234 + p)",
		      p, regs.regs[4], 0x1234 + p, 0);
		regs.regs[4] = copy.regs[4];
		check(&res, "first other pt_regs word changed by syscall_set_return_value()",
		      p, (unsigned long)regs_differ(&regs, &copy), -1UL, 0);
	}
	for (i = 0; i < ARRAY_SIZE(errors); i++) {
		regs.regs[4] = (unsigned long)errors[i];
		check(&res, "syscall_get_error() of an error", i,
		      (unsigned long)ops->get_error(&regs), (unsigned long)errors[i], 0);
	}
	for (i = 0; i < ARRAY_SIZE(not_errors); i++) {
		regs.regs[4] = (unsigned long)not_errors[i];
		check(&res, "syscall_get_error() of a non-error", i,
		      (unsigned long)ops->get_error(&regs), 0, 0);
	}
	check(&res, "syscall_get_arch()", 0, (unsigned long)(long)ops->get_arch(),
	      (unsigned long)(long)(int)AUDIT_ARCH_LOONGARCH64_VALUE, 0);
	report(&res, ops->name,
	       "syscall_get_nr(), get/set_return_value(), get_error(), rollback(), get_arch()");
}

int main(int argc, char **argv)
{
	unsigned int v;

	(void)argc;
	(void)argv;
	put_str("TAP version 13\n1..4\n");
	for (v = 0; v < 2; v++) {
		test_arguments(variants[v]);
		test_helpers(variants[v]);
	}
	put_str("# Totals: pass:");
	put_uint(tap_n - tap_failed);
	put_str(" fail:");
	put_uint(tap_failed);
	put_str("\n");
	return tap_failed ? 1 : 0;
}
