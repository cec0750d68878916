// SPDX-License-Identifier: GPL-2.0
/*
 * TAP driver for the unaligned accessor cases on a kernel tree's nolibc,
 * for the targets with no libc here (loongarch64: Debian 12 has no loong64
 * libc).  Runs every entry of ua_cases[] and prints TAP in the kselftest
 * harness's format ("ok N name", "# Totals: ..."); harness.c, which needs
 * a full libc (fork(), waitpid(), signals), does the same on the others.
 *
 * Build: with -include nolibc.h and the tree's nolibc and UAPI headers
 * (scripts/lib/nolibc.sh), -nostdlib -static, linked with table.o,
 * probe-check.o, correctness.o and alias.o.
 */
#include <linux/types.h>
#include <linux/kernel.h>

#include "cases.h"

int main(void)
{
	unsigned int i, passed = 0;

	printf("TAP version 13\n1..%u\n", ua_nr_cases);
	for (i = 0; i < ua_nr_cases; i++) {
		struct ua_result res = { 0 };
		const struct ua_case *c = &ua_cases[i];
		int ok;

		c->run(&res);
		printf("# %s: %u checks, %u failed\n", c->name, res.checks,
		       res.failures);
		/* 0x%llx: nolibc's printf() has no # flag. */
		if (res.failures)
			printf("# %s: first failure: %s at offset %u/%u: got 0x%llx, want 0x%llx\n",
			       c->name, res.what, res.offset, res.offset2,
			       (unsigned long long)res.got,
			       (unsigned long long)res.want);
		ok = res.checks && !res.failures;
		passed += ok;
		printf("%s %u nolibc.%s\n", ok ? "ok" : "not ok", i + 1, c->name);
	}
	printf("# Totals: pass:%u fail:%u xfail:0 xpass:0 skip:0 error:0\n",
	       passed, ua_nr_cases - passed);
	return passed == ua_nr_cases ? 0 : 1;
}
