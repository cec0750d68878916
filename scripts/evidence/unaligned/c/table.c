// SPDX-License-Identifier: GPL-2.0
/*
 * Every test case, in the order the drivers run them.  harness.c has one
 * TEST() per entry, and checks at start-up that it has as many as this table.
 */
#include <linux/types.h>
#include <linux/kernel.h>

#include "cases.h"

const struct ua_case ua_cases[] = {
	{ "correct_u8", ua_correct_u8 },
	{ "correct_u16", ua_correct_u16 },
	{ "correct_u32", ua_correct_u32 },
	{ "correct_u64", ua_correct_u64 },
	{ "correct_s8", ua_correct_s8 },
	{ "correct_s16", ua_correct_s16 },
	{ "correct_s32", ua_correct_s32 },
	{ "correct_s64", ua_correct_s64 },
	{ "correct_ptr", ua_correct_ptr },
	{ "correct_rodata", ua_correct_rodata },
	{ "correct_le16", ua_correct_le16 },
	{ "correct_le32", ua_correct_le32 },
	{ "correct_le64", ua_correct_le64 },
	{ "correct_be16", ua_correct_be16 },
	{ "correct_be32", ua_correct_be32 },
	{ "correct_be64", ua_correct_be64 },
	{ "alias_put16_get32", ua_alias_put16_get32 },
	{ "alias_put32_get16", ua_alias_put32_get16 },
	{ "alias_put32_get64", ua_alias_put32_get64 },
	{ "alias_put64_get32", ua_alias_put64_get32 },
	{ "alias_put16_load32", ua_alias_put16_load32 },
	{ "alias_store32_get16", ua_alias_store32_get16 },
	{ "alias_reload16", ua_alias_reload16 },
	{ "alias_ptr_ulong", ua_alias_ptr_ulong },
	{ "alias_le32_be16", ua_alias_le32_be16 },
};

const unsigned int ua_nr_cases = ARRAY_SIZE(ua_cases);
