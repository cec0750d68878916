// SPDX-License-Identifier: GPL-2.0
/*
 * kselftest_harness.h driver for the unaligned accessor cases (glibc
 * targets).  One TEST() per entry of ua_cases[]: each looks itself up by
 * name, so a TEST() without a case fails rather than passing empty.
 *
 * Build: this file with -I<tree>/tools/testing/selftests, linked with
 * table.o, probe-check.o, and correctness.o and alias.o of one form and one
 * optimisation level.
 */
#include <linux/types.h>
#include <linux/kernel.h>

#include "kselftest_harness.h"

#include "cases.h"

/**
 * run_case - run the ua_cases[] entry named like the current test
 * @_metadata: the harness's test metadata (for its name and the asserts)
 */
static void run_case(struct __test_metadata *_metadata)
{
	struct ua_result res = { 0 };
	const struct ua_case *c = NULL;
	unsigned int i;

	for (i = 0; i < ua_nr_cases; i++)
		if (!strcmp(ua_cases[i].name, _metadata->name))
			c = &ua_cases[i];
	ASSERT_TRUE(c != NULL) TH_LOG("no case named %s in ua_cases[]", _metadata->name);

	c->run(&res);
	ASSERT_NE(0, res.checks) TH_LOG("no check was made");
	ksft_print_msg("%s: %u checks, %u failed\n", c->name, res.checks, res.failures);
	ASSERT_EQ(0, res.failures) {
		TH_LOG("first failure: %s at offset %u/%u: got 0x%llx, want 0x%llx",
		       res.what, res.offset, res.offset2,
		       (unsigned long long)res.got, (unsigned long long)res.want);
	}
}

TEST(correct_u8) { run_case(_metadata); }
TEST(correct_u16) { run_case(_metadata); }
TEST(correct_u32) { run_case(_metadata); }
TEST(correct_u64) { run_case(_metadata); }
TEST(correct_s8) { run_case(_metadata); }
TEST(correct_s16) { run_case(_metadata); }
TEST(correct_s32) { run_case(_metadata); }
TEST(correct_s64) { run_case(_metadata); }
TEST(correct_ptr) { run_case(_metadata); }
TEST(correct_rodata) { run_case(_metadata); }
TEST(correct_le16) { run_case(_metadata); }
TEST(correct_le32) { run_case(_metadata); }
TEST(correct_le64) { run_case(_metadata); }
TEST(correct_be16) { run_case(_metadata); }
TEST(correct_be32) { run_case(_metadata); }
TEST(correct_be64) { run_case(_metadata); }
TEST(alias_put16_get32) { run_case(_metadata); }
TEST(alias_put32_get16) { run_case(_metadata); }
TEST(alias_put32_get64) { run_case(_metadata); }
TEST(alias_put64_get32) { run_case(_metadata); }
TEST(alias_put16_load32) { run_case(_metadata); }
TEST(alias_store32_get16) { run_case(_metadata); }
TEST(alias_reload16) { run_case(_metadata); }
TEST(alias_ptr_ulong) { run_case(_metadata); }
TEST(alias_le32_be16) { run_case(_metadata); }

TEST_HARNESS_MAIN
