// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for get_unaligned()/put_unaligned() and the endian helpers
 * built on them, at every offset 0..63 of a 64-byte aligned buffer: every
 * misalignment of a 2-, 4- and 8-byte access, and accesses that cross a
 * 64-byte boundary.
 *
 * The little- and big-endian cases compare the bytes in memory with bytes
 * composed here, never through the helpers under test; every case checks
 * that the bytes around the value keep their canary, so a helper that
 * touches a byte outside its value fails.
 *
 * This file is built with -fstrict-aliasing (lib/tests/Makefile), unlike
 * the rest of the kernel: the alias case then fails if the helpers' accesses
 * are not allowed to alias other types, as a packed struct without
 * __may_alias__ is not.
 */
#include <kunit/test.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/unaligned.h>

#define BUF_SIZE	96
#define MAX_OFFSET	63
#define CANARY		0xa5

/* The buffer every case works in: 64-byte aligned, so offset == misalignment. */
static u8 buf[BUF_SIZE] __aligned(64);

static const u64 patterns[] = {
	0, ~0ULL, 1, 1ULL << 63, 0x0123456789abcdefULL, 0xfedcba9876543210ULL,
	0x8000000080000000ULL, 0x5555aaaa5555aaaaULL, 0x00ff00ff00ff00ffULL,
};

/* Byte i of v in little-endian order. */
static u8 le_byte(u64 v, unsigned int i)
{
	return v >> (8 * i);
}

/* The value of the @size bytes at @p, read in little-endian order. */
static u64 le_value(const u8 *p, unsigned int size)
{
	u64 v = 0;
	unsigned int i;

	for (i = 0; i < size; i++)
		v |= (u64)p[i] << (8 * i);
	return v;
}

/* The value of the @size bytes at @p, read in big-endian order. */
static u64 be_value(const u8 *p, unsigned int size)
{
	u64 v = 0;
	unsigned int i;

	for (i = 0; i < size; i++)
		v = v << 8 | p[i];
	return v;
}

/* Every byte of @mem outside [@off, @off + @size) still holds the canary. */
static void expect_canaries(struct kunit *test, const u8 *mem,
			    unsigned int off, unsigned int size)
{
	unsigned int i;

	for (i = 0; i < BUF_SIZE; i++) {
		if (i >= off && i < off + size)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, mem[i], CANARY,
				    "byte %u changed (value at %u, size %u)", i, off, size);
	}
}

/* The helpers' value, truncated to @size bytes. */
static u64 mask(u64 v, unsigned int size)
{
	return size == 8 ? v : v & ((1ULL << (8 * size)) - 1);
}

/* Native-endian get_unaligned()/put_unaligned() of 16, 32 and 64 bits. */
static void unaligned_native_test(struct kunit *test)
{
	unsigned int off, i, p;

	for (p = 0; p < ARRAY_SIZE(patterns); p++) {
		for (off = 0; off <= MAX_OFFSET; off++) {
			u64 v = patterns[p];

			memset(buf, CANARY, sizeof(buf));
			put_unaligned((u16)v, (u16 *)(buf + off));
			KUNIT_EXPECT_EQ(test, get_unaligned((u16 *)(buf + off)), (u16)v);
			expect_canaries(test, buf, off, 2);

			memset(buf, CANARY, sizeof(buf));
			put_unaligned((u32)v, (u32 *)(buf + off));
			KUNIT_EXPECT_EQ(test, get_unaligned((u32 *)(buf + off)), (u32)v);
			expect_canaries(test, buf, off, 4);

			memset(buf, CANARY, sizeof(buf));
			put_unaligned(v, (u64 *)(buf + off));
			KUNIT_EXPECT_EQ(test, get_unaligned((u64 *)(buf + off)), v);
			expect_canaries(test, buf, off, 8);

			/* The bytes in memory, in the CPU's order. */
			for (i = 0; i < 8; i++) {
				unsigned int b = IS_ENABLED(CONFIG_CPU_BIG_ENDIAN) ? 7 - i : i;

				KUNIT_EXPECT_EQ(test, buf[off + i], le_byte(v, b));
			}
		}
	}
}

/* Reading through a pointer to const, as get_unaligned() users often do. */
static void unaligned_const_test(struct kunit *test)
{
	unsigned int off;

	for (off = 0; off <= MAX_OFFSET; off++) {
		const u32 *p32 = (const u32 *)(buf + off);
		const u64 *p64 = (const u64 *)(buf + off);

		memset(buf, CANARY, sizeof(buf));
		put_unaligned(0x0123456789abcdefULL, (u64 *)(buf + off));
		KUNIT_EXPECT_EQ(test, get_unaligned(p64), 0x0123456789abcdefULL);
		KUNIT_EXPECT_EQ(test, get_unaligned(p32),
				IS_ENABLED(CONFIG_CPU_BIG_ENDIAN) ? 0x01234567U : 0x89abcdefU);
	}
}

/* get/put_unaligned_le16/32/64 against the little-endian byte order. */
static void unaligned_le_test(struct kunit *test)
{
	unsigned int off, p;

	for (p = 0; p < ARRAY_SIZE(patterns); p++) {
		u64 v = patterns[p];

		for (off = 0; off <= MAX_OFFSET; off++) {
			memset(buf, CANARY, sizeof(buf));
			put_unaligned_le16(v, buf + off);
			KUNIT_EXPECT_EQ(test, le_value(buf + off, 2), mask(v, 2));
			KUNIT_EXPECT_EQ(test, get_unaligned_le16(buf + off), (u16)v);
			expect_canaries(test, buf, off, 2);

			memset(buf, CANARY, sizeof(buf));
			put_unaligned_le32(v, buf + off);
			KUNIT_EXPECT_EQ(test, le_value(buf + off, 4), mask(v, 4));
			KUNIT_EXPECT_EQ(test, get_unaligned_le32(buf + off), (u32)v);
			expect_canaries(test, buf, off, 4);

			memset(buf, CANARY, sizeof(buf));
			put_unaligned_le64(v, buf + off);
			KUNIT_EXPECT_EQ(test, le_value(buf + off, 8), v);
			KUNIT_EXPECT_EQ(test, get_unaligned_le64(buf + off), v);
			expect_canaries(test, buf, off, 8);
		}
	}
}

/* get/put_unaligned_be16/32/64 against the big-endian byte order. */
static void unaligned_be_test(struct kunit *test)
{
	unsigned int off, p;

	for (p = 0; p < ARRAY_SIZE(patterns); p++) {
		u64 v = patterns[p];

		for (off = 0; off <= MAX_OFFSET; off++) {
			memset(buf, CANARY, sizeof(buf));
			put_unaligned_be16(v, buf + off);
			KUNIT_EXPECT_EQ(test, be_value(buf + off, 2), mask(v, 2));
			KUNIT_EXPECT_EQ(test, get_unaligned_be16(buf + off), (u16)v);
			expect_canaries(test, buf, off, 2);

			memset(buf, CANARY, sizeof(buf));
			put_unaligned_be32(v, buf + off);
			KUNIT_EXPECT_EQ(test, be_value(buf + off, 4), mask(v, 4));
			KUNIT_EXPECT_EQ(test, get_unaligned_be32(buf + off), (u32)v);
			expect_canaries(test, buf, off, 4);

			memset(buf, CANARY, sizeof(buf));
			put_unaligned_be64(v, buf + off);
			KUNIT_EXPECT_EQ(test, be_value(buf + off, 8), v);
			KUNIT_EXPECT_EQ(test, get_unaligned_be64(buf + off), v);
			expect_canaries(test, buf, off, 8);
		}
	}
}

/*
 * A store through one type, then one through another type that overlaps it,
 * then a load through the first.  Out of line and called with pointers into
 * one buffer, so the compiler cannot see that they overlap: under strict
 * aliasing it may return the first store's value unless the accesses may
 * alias.  The expected values are the same on either byte order.
 */
static noinline u32 store32_store16_load32(void *p32, void *p16)
{
	put_unaligned(0x11223344U, (u32 *)p32);
	put_unaligned((u16)0xaabb, (u16 *)p16);
	return get_unaligned((u32 *)p32);
}

static noinline u16 store16_store32_load16(void *p16, void *p32)
{
	put_unaligned((u16)0xaabb, (u16 *)p16);
	put_unaligned(0x11223344U, (u32 *)p32);
	return get_unaligned((u16 *)p16);
}

/* Stores and loads through overlapping types see each other. */
static void unaligned_alias_test(struct kunit *test)
{
	unsigned int off;

	for (off = 0; off <= MAX_OFFSET - 8; off++) {
		memset(buf, CANARY, sizeof(buf));
		KUNIT_EXPECT_EQ_MSG(test, store32_store16_load32(buf + off, buf + off + 1),
				    0x11aabb44U, "offset %u", off);
		expect_canaries(test, buf, off, 4);

		memset(buf, CANARY, sizeof(buf));
		KUNIT_EXPECT_EQ_MSG(test, store16_store32_load16(buf + off + 1, buf + off),
				    0x2233, "offset %u", off);
		expect_canaries(test, buf, off, 4);
	}
}

static struct kunit_case unaligned_test_cases[] = {
	KUNIT_CASE(unaligned_native_test),
	KUNIT_CASE(unaligned_const_test),
	KUNIT_CASE(unaligned_le_test),
	KUNIT_CASE(unaligned_be_test),
	KUNIT_CASE(unaligned_alias_test),
	{}
};

static struct kunit_suite unaligned_test_suite = {
	.name = "unaligned",
	.test_cases = unaligned_test_cases,
};

kunit_test_suite(unaligned_test_suite);

MODULE_DESCRIPTION("KUnit tests for the unaligned access helpers");
MODULE_LICENSE("GPL");
