// SPDX-License-Identifier: GPL-2.0
/*
 * What the kernel around rep_movs_alternative() provides, in user space:
 * the list of variants, and the exception table handling of
 * ex_handler_uaccess().  A SIGSEGV at an instruction that has an
 * _ASM_EXTABLE_UA() entry, on an address the test declared as a place
 * where faults are expected (uc_expect_faults()), resumes at the entry's
 * fixup with every other register as the fault left it.  Any other
 * SIGSEGV is a bug in the routine or in the harness: the handler prints a
 * TAP "Bail out!" line and aborts.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <ucontext.h>
#include <unistd.h>

#include "usercopy.h"

struct uc_variant uc_variants[] = {
	{ "patched", "with patch 0003, no ERMS: rep movsq on an aligned destination",
	  rep_movs_alternative_patched, rep_movs_alternative_patched_end, 0 },
	{ "unpatched", "without patch 0003, no ERMS: rep movsq wherever the destination starts",
	  rep_movs_alternative_unpatched, rep_movs_alternative_unpatched_end, 0 },
	{ "erms", "ERMS alternative: rep movsb from 64 bytes (same with or without 0003)",
	  rep_movs_alternative_erms, rep_movs_alternative_erms_end, 0 },
};
const unsigned int uc_nr_variants = ARRAY_SIZE(uc_variants);

volatile unsigned long uc_fixups;
static const char *fault_lo, *fault_hi;

/**
 * uc_expect_faults - declare where the next copies may fault
 * @lo: first address of the region (NULL: no fault is expected)
 * @hi: one past the last address
 *
 * The SIGSEGV handler fixes up only faults whose address is inside the
 * region, as the kernel fixes up only faults on user addresses.
 */
void uc_expect_faults(const void *lo, const void *hi)
{
	fault_lo = lo;
	fault_hi = hi;
}

static const char *variant_at(unsigned long ip)
{
	unsigned int i;

	for (i = 0; i < uc_nr_variants; i++)
		if (ip >= (unsigned long)uc_variants[i].start &&
		    ip < (unsigned long)uc_variants[i].end)
			return uc_variants[i].name;
	return NULL;
}

static void bail_out(const char *why, unsigned long ip, const void *addr)
{
	static const struct rlimit no_core = { 0, 0 };
	const char *v = variant_at(ip);
	char buf[256];
	int n;

	n = snprintf(buf, sizeof(buf),
		     "Bail out! SIGSEGV at ip %#lx (%s%s), address %p: %s\n",
		     ip, v ? "rep_movs_alternative_" : "outside the copy routines",
		     v ? v : "", addr, why);
	if (n > 0 && write(STDOUT_FILENO, buf, n) < 0)
		_exit(2);
	/* Loudly, but without leaving a core file in the current directory. */
	setrlimit(RLIMIT_CORE, &no_core);
	signal(SIGABRT, SIG_DFL);
	abort();
}

static void segv_handler(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	unsigned long ip = uc->uc_mcontext.gregs[REG_RIP];
	const char *addr = si->si_addr;
	const struct uc_extable_entry *e;

	(void)sig;
	/* One array between the linker's section bounds. */
	// cppcheck-suppress comparePointers
	for (e = __start_harness_extable; e < __stop_harness_extable; e++) {
		if (e->from != ip)
			continue;
		if (!fault_lo || addr < fault_lo || addr >= fault_hi)
			bail_out("fault on an address where none was expected", ip, addr);
		uc->uc_mcontext.gregs[REG_RIP] = e->to;
		uc_fixups++;
		return;
	}
	bail_out("no exception table entry for this instruction", ip, addr);
}

/**
 * uc_find_variant - look a variant up by name
 * @name: patched, unpatched or erms
 *
 * Return: the variant, or NULL.
 */
const struct uc_variant *uc_find_variant(const char *name)
{
	unsigned int i;

	for (i = 0; i < uc_nr_variants; i++)
		if (!strcmp(uc_variants[i].name, name))
			return &uc_variants[i];
	return NULL;
}

/**
 * uc_init - count each variant's exception table entries, install the
 * SIGSEGV handler
 *
 * Every entry must lie inside one variant, its fixup inside the same one
 * (or at its end).
 *
 * Return: 0, or -1 with a message on stderr.
 */
int uc_init(void)
{
	const struct uc_extable_entry *e;
	struct sigaction sa;
	unsigned int i;

	/* One array between the linker's section bounds. */
	// cppcheck-suppress comparePointers
	for (e = __start_harness_extable; e < __stop_harness_extable; e++) {
		for (i = 0; i < uc_nr_variants; i++) {
			unsigned long s = (unsigned long)uc_variants[i].start;
			unsigned long end = (unsigned long)uc_variants[i].end;

			if (e->from >= s && e->from < end && e->to >= s && e->to <= end)
				break;
		}
		if (i == uc_nr_variants) {
			fprintf(stderr, "exception table entry %#lx -> %#lx is not inside one variant\n",
				e->from, e->to);
			return -1;
		}
		uc_variants[i].extable++;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = segv_handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, NULL)) {
		perror("sigaction");
		return -1;
	}
	return 0;
}
