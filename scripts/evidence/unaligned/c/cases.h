/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test cases for the unaligned accessors of tools/include/linux/unaligned.h.
 *
 * The cases are pure functions: no libc call, no output.  Each one runs its
 * checks and fills a struct ua_result; a driver prints the results as TAP.
 * Two drivers share them: harness.c (kselftest_harness.h, glibc targets) and
 * nolibc.c (a kernel tree's nolibc, loongarch64).
 */
#ifndef UA_CASES_H
#define UA_CASES_H

#include <linux/types.h>

/**
 * struct ua_result - outcome of one test case
 * @checks:   number of comparisons made
 * @failures: number of comparisons that failed
 * @what:     description of the first failure, or NULL
 * @offset:   misalignment of the first failure (for a probe: offset of its
 *            first pointer in the buffer)
 * @offset2:  for a probe: offset of its second pointer; otherwise 0
 * @got:      value seen at the first failure
 * @want:     value expected at the first failure
 */
struct ua_result {
	unsigned int checks;
	unsigned int failures;
	const char *what;
	unsigned int offset;
	unsigned int offset2;
	u64 got;
	u64 want;
};

/**
 * ua_record - count one check of a case, and keep the first failure
 * @res:  the result to update
 * @ok:   the check passed
 * @what: what was checked
 * @off:  where (struct ua_result's @offset)
 * @off2: for a probe, its second pointer (@offset2); otherwise 0
 * @got:  value seen
 * @want: value expected
 */
static inline void ua_record(struct ua_result *res, bool ok, const char *what,
			     unsigned int off, unsigned int off2, u64 got,
			     u64 want)
{
	res->checks++;
	if (ok)
		return;
	if (res->failures++)
		return;
	res->what = what;
	res->offset = off;
	res->offset2 = off2;
	res->got = got;
	res->want = want;
}

/**
 * struct ua_case - one test case, as listed in ua_cases[]
 * @name: test name: "correct_*" for correctness, "alias_*" for probes
 * @run:  the case; returns the number of failed checks
 */
struct ua_case {
	const char *name;
	unsigned int (*run)(struct ua_result *res);
};

extern const struct ua_case ua_cases[];
extern const unsigned int ua_nr_cases;

/* correctness.c: get/put_unaligned() and the le/be helpers */
unsigned int ua_correct_u8(struct ua_result *res);
unsigned int ua_correct_u16(struct ua_result *res);
unsigned int ua_correct_u32(struct ua_result *res);
unsigned int ua_correct_u64(struct ua_result *res);
unsigned int ua_correct_s8(struct ua_result *res);
unsigned int ua_correct_s16(struct ua_result *res);
unsigned int ua_correct_s32(struct ua_result *res);
unsigned int ua_correct_s64(struct ua_result *res);
unsigned int ua_correct_ptr(struct ua_result *res);
unsigned int ua_correct_rodata(struct ua_result *res);
unsigned int ua_correct_le16(struct ua_result *res);
unsigned int ua_correct_le32(struct ua_result *res);
unsigned int ua_correct_le64(struct ua_result *res);
unsigned int ua_correct_be16(struct ua_result *res);
unsigned int ua_correct_be32(struct ua_result *res);
unsigned int ua_correct_be64(struct ua_result *res);

/* probe-check.c: the strict-aliasing probes of alias.c, checked */
unsigned int ua_alias_put16_get32(struct ua_result *res);
unsigned int ua_alias_put32_get16(struct ua_result *res);
unsigned int ua_alias_put32_get64(struct ua_result *res);
unsigned int ua_alias_put64_get32(struct ua_result *res);
unsigned int ua_alias_put16_load32(struct ua_result *res);
unsigned int ua_alias_store32_get16(struct ua_result *res);
unsigned int ua_alias_reload16(struct ua_result *res);
unsigned int ua_alias_ptr_ulong(struct ua_result *res);
unsigned int ua_alias_le32_be16(struct ua_result *res);

/* alias.c: the probes themselves, built at -O2, -O3 and -Os */
u32 ua_probe_put16_get32(u32 *word, u16 *half);
u16 ua_probe_put32_get16(u16 *half, u32 *word);
u64 ua_probe_put32_get64(u64 *dword, u32 *word);
u32 ua_probe_put64_get32(u32 *word, u64 *dword);
u32 ua_probe_put16_load32(u32 *word, u16 *half);
u16 ua_probe_store32_get16(u16 *half, u32 *word);
u32 ua_probe_reload16(u16 *half, u32 *word);
unsigned long ua_probe_ptr_ulong(unsigned long *ulong, void **ptr);
u32 ua_probe_le32_be16(void *word, void *half);

#endif /* UA_CASES_H */
