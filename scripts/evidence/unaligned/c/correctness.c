// SPDX-License-Identifier: GPL-2.0
/*
 * Correctness of get_unaligned(), put_unaligned() and the
 * get/put_unaligned_{le,be}{16,32,64}() helpers of <linux/unaligned.h>.
 *
 * Every access is made at each misalignment 0..15 of a guard buffer, with
 * edge bit patterns (0, all ones, every single bit, alternating bits, sign
 * bits, distinct bytes) and deterministic pseudo-random values.  After a
 * store, the bytes written are compared with a byte-by-byte expectation
 * computed with shifts (native, little- or big-endian order), never with the
 * accessors themselves, and every other byte of the buffer (the canaries)
 * must be intact.  Reads are checked on what a store left and on bytes
 * written one at a time, through plain and const-qualified pointers, for
 * unsigned, signed and pointer types.
 *
 * No libc call: the drivers (harness.c, nolibc.c) print the results.
 */
#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/unaligned.h>

#include "cases.h"

#define GUARD		16	/* canary bytes on each side of the area */
#define AREA		32	/* room for an 8-byte access at offset 15 */
#define NR_RANDOM	16	/* pseudo-random patterns per type */

#define NATIVE_BIG	(__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)

enum ua_order { ORDER_NATIVE, ORDER_LE, ORDER_BE };

/**
 * struct ua_type - how to access one type through the accessors
 * @size:      size of the type in bytes
 * @is_signed: reads sign-extend
 * @order:     byte order of the stored value
 * @put:       store the low @size bytes of a value at a given address
 * @get:       read the value at a given address, converted to u64 as C
 *             converts the type (sign-extended for signed types)
 * @get_const: the same read through a pointer to const, or NULL when @get
 *             already takes one (the le/be helpers)
 */
struct ua_type {
	unsigned int size;
	bool is_signed;
	enum ua_order order;
	void (*put)(u64 val, void *p);
	u64 (*get)(void *p);
	u64 (*get_const)(const void *p);
};

/* Native order: get_unaligned()/put_unaligned() on each type. */

static void put_u8(u64 val, void *p) { put_unaligned((u8)val, (u8 *)p); }
static u64 get_u8(void *p) { return get_unaligned((u8 *)p); }
static u64 get_const_u8(const void *p) { return get_unaligned((const u8 *)p); }

static void put_u16(u64 val, void *p) { put_unaligned((u16)val, (u16 *)p); }
static u64 get_u16(void *p) { return get_unaligned((u16 *)p); }
static u64 get_const_u16(const void *p) { return get_unaligned((const u16 *)p); }

static void put_u32(u64 val, void *p) { put_unaligned((u32)val, (u32 *)p); }
static u64 get_u32(void *p) { return get_unaligned((u32 *)p); }
static u64 get_const_u32(const void *p) { return get_unaligned((const u32 *)p); }

static void put_u64(u64 val, void *p) { put_unaligned(val, (u64 *)p); }
static u64 get_u64(void *p) { return get_unaligned((u64 *)p); }
static u64 get_const_u64(const void *p) { return get_unaligned((const u64 *)p); }

static void put_s8(u64 val, void *p) { put_unaligned((s8)val, (s8 *)p); }
static u64 get_s8(void *p) { return (u64)(s64)get_unaligned((s8 *)p); }
static u64 get_const_s8(const void *p) { return (u64)(s64)get_unaligned((const s8 *)p); }

static void put_s16(u64 val, void *p) { put_unaligned((s16)val, (s16 *)p); }
static u64 get_s16(void *p) { return (u64)(s64)get_unaligned((s16 *)p); }
static u64 get_const_s16(const void *p) { return (u64)(s64)get_unaligned((const s16 *)p); }

static void put_s32(u64 val, void *p) { put_unaligned((s32)val, (s32 *)p); }
static u64 get_s32(void *p) { return (u64)(s64)get_unaligned((s32 *)p); }
static u64 get_const_s32(const void *p) { return (u64)(s64)get_unaligned((const s32 *)p); }

static void put_s64(u64 val, void *p) { put_unaligned((s64)val, (s64 *)p); }
static u64 get_s64(void *p) { return (u64)get_unaligned((s64 *)p); }
static u64 get_const_s64(const void *p) { return (u64)get_unaligned((const s64 *)p); }

/* Pointer types: a void * stored, read back as void * and as const u8 *. */
static void put_ptr(u64 val, void *p)
{
	put_unaligned((void *)(uintptr_t)val, (void **)p);
}

static u64 get_ptr(void *p) { return (uintptr_t)get_unaligned((void **)p); }

static u64 get_const_ptr(const void *p)
{
	return (uintptr_t)get_unaligned((const u8 * const *)p);
}

/* The fixed-order helpers. */

static void put_le16(u64 val, void *p) { put_unaligned_le16((u16)val, p); }
static u64 get_le16(void *p) { return get_unaligned_le16(p); }
static void put_le32(u64 val, void *p) { put_unaligned_le32((u32)val, p); }
static u64 get_le32(void *p) { return get_unaligned_le32(p); }
static void put_le64(u64 val, void *p) { put_unaligned_le64(val, p); }
static u64 get_le64(void *p) { return get_unaligned_le64(p); }
static void put_be16(u64 val, void *p) { put_unaligned_be16((u16)val, p); }
static u64 get_be16(void *p) { return get_unaligned_be16(p); }
static void put_be32(u64 val, void *p) { put_unaligned_be32((u32)val, p); }
static u64 get_be32(void *p) { return get_unaligned_be32(p); }
static void put_be64(u64 val, void *p) { put_unaligned_be64(val, p); }
static u64 get_be64(void *p) { return get_unaligned_be64(p); }

/**
 * record - count one check, and keep the first failure
 * @res:  the result to update
 * @what: what was checked
 * @off:  misalignment of the access
 * @got:  value seen
 * @want: value expected
 */
static void record(struct ua_result *res, const char *what, unsigned int off,
		   u64 got, u64 want)
{
	ua_record(res, got == want, what, off, 0, got, want);
}

/**
 * expected_byte - byte @i of the @size-byte stored form of @val
 * @val:  the value
 * @size: its size in bytes
 * @i:    index of the byte, from the lowest address
 * @big:  big-endian order if true, little-endian otherwise
 */
static u8 expected_byte(u64 val, unsigned int size, unsigned int i, bool big)
{
	return (u8)(val >> (big ? 8 * (size - 1 - i) : 8 * i));
}

/* The value a read of the @size-byte @val must give, converted to u64. */
static u64 expected_read(u64 val, unsigned int size, bool is_signed)
{
	u64 mask = size == 8 ? ~0ULL : (1ULL << (8 * size)) - 1;

	val &= mask;
	if (is_signed && (val >> (8 * size - 1)) & 1)
		val |= ~mask;
	return val;
}

static u8 canary(unsigned int i)
{
	return (u8)(0xc3 ^ (i * 0x3b));
}

/**
 * check_one - store, check the bytes and the canaries, read back
 * @res: the result to update
 * @t:   the type
 * @off: misalignment, 0 to 15
 * @val: the value to store
 */
static void check_one(struct ua_result *res, const struct ua_type *t,
		      unsigned int off, u64 val)
{
	union {
		u8 b[GUARD + AREA + GUARD];
		u64 align;
	} mem;
	bool big = t->order == ORDER_BE || (t->order == ORDER_NATIVE && NATIVE_BIG);
	u64 other = ~(val << 13 | val >> 51) ^ 0x0123456789abcdefULL;
	u8 *p = mem.b + GUARD + off;
	unsigned int i;

	for (i = 0; i < sizeof(mem.b); i++)
		mem.b[i] = canary(i);

	t->put(val, p);
	for (i = 0; i < sizeof(mem.b); i++) {
		unsigned int at = i - GUARD - off;

		if (i >= GUARD + off && at < t->size)
			record(res, "put: stored byte", off, mem.b[i],
			       expected_byte(val, t->size, at, big));
		else
			record(res, "put: canary byte", off, mem.b[i], canary(i));
	}

	record(res, "get after put", off, t->get(p),
	       expected_read(val, t->size, t->is_signed));
	if (t->get_const)
		record(res, "get through a const pointer", off, t->get_const(p),
		       expected_read(val, t->size, t->is_signed));

	/* Bytes written one at a time, read through the accessor. */
	for (i = 0; i < t->size; i++)
		p[i] = expected_byte(other, t->size, i, big);
	record(res, "get of bytes stored one by one", off, t->get(p),
	       expected_read(other, t->size, t->is_signed));
	if (t->get_const)
		record(res, "get through a const pointer of bytes stored one by one",
		       off, t->get_const(p),
		       expected_read(other, t->size, t->is_signed));
	for (i = 0; i < GUARD + off; i++)
		record(res, "get: canary byte", off, mem.b[i], canary(i));
	for (i = GUARD + off + t->size; i < sizeof(mem.b); i++)
		record(res, "get: canary byte", off, mem.b[i], canary(i));
}

/* One pattern at every misalignment. */
static void check_all_offsets(struct ua_result *res, const struct ua_type *t, u64 val)
{
	unsigned int off;

	for (off = 0; off < 16; off++)
		check_one(res, t, off, val);
}

/* xorshift64: deterministic pseudo-random values, the same on every target. */
static u64 next_random(u64 *state)
{
	u64 x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

/**
 * check_type - every pattern at every misalignment, for one type
 * @res: the result to fill
 * @t:   the type
 *
 * Return: the number of failed checks.
 */
static unsigned int check_type(struct ua_result *res, const struct ua_type *t)
{
	static const u64 edges[] = {
		0, ~0ULL,
		0x5555555555555555ULL, 0xaaaaaaaaaaaaaaaaULL,
		0x0102030405060708ULL, 0xf8f7f6f5f4f3f2f1ULL,
		0x8000000000000080ULL, 0x7f7f7f7f7f7f7f7fULL,
	};
	unsigned int bits = 8 * t->size;
	u64 state = 0x9e3779b97f4a7c15ULL;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(edges); i++)
		check_all_offsets(res, t, edges[i]);
	for (i = 0; i < bits; i++) {
		check_all_offsets(res, t, 1ULL << i);
		check_all_offsets(res, t, ~(1ULL << i));
	}
	/* Sign bit alone, largest positive, smallest negative plus one. */
	check_all_offsets(res, t, 1ULL << (bits - 1));
	check_all_offsets(res, t, (1ULL << (bits - 1)) - 1);
	check_all_offsets(res, t, (1ULL << (bits - 1)) + 1);
	for (i = 0; i < NR_RANDOM; i++)
		check_all_offsets(res, t, next_random(&state));
	return res->failures;
}

unsigned int ua_correct_u8(struct ua_result *res)
{
	static const struct ua_type t = {
		1, false, ORDER_NATIVE, put_u8, get_u8, get_const_u8,
	};

	return check_type(res, &t);
}

unsigned int ua_correct_u16(struct ua_result *res)
{
	static const struct ua_type t = {
		2, false, ORDER_NATIVE, put_u16, get_u16, get_const_u16,
	};

	return check_type(res, &t);
}

unsigned int ua_correct_u32(struct ua_result *res)
{
	static const struct ua_type t = {
		4, false, ORDER_NATIVE, put_u32, get_u32, get_const_u32,
	};

	return check_type(res, &t);
}

unsigned int ua_correct_u64(struct ua_result *res)
{
	static const struct ua_type t = {
		8, false, ORDER_NATIVE, put_u64, get_u64, get_const_u64,
	};

	return check_type(res, &t);
}

unsigned int ua_correct_s8(struct ua_result *res)
{
	static const struct ua_type t = {
		1, true, ORDER_NATIVE, put_s8, get_s8, get_const_s8,
	};

	return check_type(res, &t);
}

unsigned int ua_correct_s16(struct ua_result *res)
{
	static const struct ua_type t = {
		2, true, ORDER_NATIVE, put_s16, get_s16, get_const_s16,
	};

	return check_type(res, &t);
}

unsigned int ua_correct_s32(struct ua_result *res)
{
	static const struct ua_type t = {
		4, true, ORDER_NATIVE, put_s32, get_s32, get_const_s32,
	};

	return check_type(res, &t);
}

unsigned int ua_correct_s64(struct ua_result *res)
{
	static const struct ua_type t = {
		8, true, ORDER_NATIVE, put_s64, get_s64, get_const_s64,
	};

	return check_type(res, &t);
}

unsigned int ua_correct_ptr(struct ua_result *res)
{
	static const struct ua_type t = {
		sizeof(void *), false, ORDER_NATIVE, put_ptr, get_ptr, get_const_ptr,
	};

	return check_type(res, &t);
}

unsigned int ua_correct_le16(struct ua_result *res)
{
	static const struct ua_type t = { 2, false, ORDER_LE, put_le16, get_le16, NULL };

	return check_type(res, &t);
}

unsigned int ua_correct_le32(struct ua_result *res)
{
	static const struct ua_type t = { 4, false, ORDER_LE, put_le32, get_le32, NULL };

	return check_type(res, &t);
}

unsigned int ua_correct_le64(struct ua_result *res)
{
	static const struct ua_type t = { 8, false, ORDER_LE, put_le64, get_le64, NULL };

	return check_type(res, &t);
}

unsigned int ua_correct_be16(struct ua_result *res)
{
	static const struct ua_type t = { 2, false, ORDER_BE, put_be16, get_be16, NULL };

	return check_type(res, &t);
}

unsigned int ua_correct_be32(struct ua_result *res)
{
	static const struct ua_type t = { 4, false, ORDER_BE, put_be32, get_be32, NULL };

	return check_type(res, &t);
}

unsigned int ua_correct_be64(struct ua_result *res)
{
	static const struct ua_type t = { 8, false, ORDER_BE, put_be64, get_be64, NULL };

	return check_type(res, &t);
}

/* Read-only data: reads through const pointers must work on .rodata. */
static const u8 rodata[GUARD + 8] = {
	0x00, 0x81, 0x42, 0xc3, 0x24, 0xa5, 0x66, 0xe7,
	0x18, 0x99, 0x5a, 0xdb, 0x3c, 0xbd, 0x7e, 0xff,
	0x80, 0x01, 0xfe, 0x7f, 0x10, 0xef, 0x55, 0xaa,
};

/* The value of @size bytes of rodata at @off, in order @big. */
static u64 rodata_value(unsigned int off, unsigned int size, bool big)
{
	u64 val = 0;
	unsigned int i;

	for (i = 0; i < size; i++)
		val |= (u64)rodata[off + i] << (big ? 8 * (size - 1 - i) : 8 * i);
	return val;
}

unsigned int ua_correct_rodata(struct ua_result *res)
{
	unsigned int off;

	for (off = 0; off < 16; off++) {
		const u8 *p = rodata + off;

		record(res, "const u16", off, get_unaligned((const u16 *)p),
		       rodata_value(off, 2, NATIVE_BIG));
		record(res, "const u32", off, get_unaligned((const u32 *)p),
		       rodata_value(off, 4, NATIVE_BIG));
		record(res, "const u64", off, get_unaligned((const u64 *)p),
		       rodata_value(off, 8, NATIVE_BIG));
		record(res, "const s16", off, (u64)(s64)get_unaligned((const s16 *)p),
		       expected_read(rodata_value(off, 2, NATIVE_BIG), 2, true));
		record(res, "const s32", off, (u64)(s64)get_unaligned((const s32 *)p),
		       expected_read(rodata_value(off, 4, NATIVE_BIG), 4, true));
		record(res, "const s64", off, (u64)get_unaligned((const s64 *)p),
		       rodata_value(off, 8, NATIVE_BIG));
		record(res, "const void *", off,
		       (uintptr_t)get_unaligned((const void * const *)p),
		       rodata_value(off, sizeof(void *), NATIVE_BIG));
		record(res, "get_unaligned_le16", off, get_unaligned_le16(p),
		       rodata_value(off, 2, false));
		record(res, "get_unaligned_le32", off, get_unaligned_le32(p),
		       rodata_value(off, 4, false));
		record(res, "get_unaligned_le64", off, get_unaligned_le64(p),
		       rodata_value(off, 8, false));
		record(res, "get_unaligned_be16", off, get_unaligned_be16(p),
		       rodata_value(off, 2, true));
		record(res, "get_unaligned_be32", off, get_unaligned_be32(p),
		       rodata_value(off, 4, true));
		record(res, "get_unaligned_be64", off, get_unaligned_be64(p),
		       rodata_value(off, 8, true));
	}
	return res->failures;
}
