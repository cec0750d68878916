// SPDX-License-Identifier: GPL-2.0
/*
 * Runs the strict-aliasing probes of alias.c and checks each answer against
 * a byte-by-byte model of the same stores, in program order.
 *
 * This file does not include <linux/unaligned.h>: the expected values come
 * from the model alone, never from the accessors under test.  The probes are
 * in another translation unit, so the compiler building this one cannot
 * tell that the two pointers passed to a probe overlap, nor the other way
 * round.  A probe is right when its return value and the whole buffer (the
 * bytes it wrote and every byte around them) match the model.
 */
#include <linux/types.h>

#include "cases.h"

#define PROBE_BUF_SIZE	32

/* Native byte order, from the compiler, as the model needs it. */
#define NATIVE_BIG	(__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)

/**
 * struct probe_mem - the buffer a probe works on, and its model
 * @buf:   the memory passed to the probe; 8-byte aligned by @align
 * @model: what @buf must hold after the probe, built byte by byte
 * @align: only there to align @buf
 */
struct probe_mem {
	union {
		u8 buf[PROBE_BUF_SIZE];
		u64 align;
	};
	u8 model[PROBE_BUF_SIZE];
};

/* Fill the buffer and the model with the same recognisable bytes. */
static void probe_setup(struct probe_mem *pm)
{
	unsigned int i;

	for (i = 0; i < PROBE_BUF_SIZE; i++) {
		pm->buf[i] = (u8)(0x5b + 0x1d * i);
		pm->model[i] = pm->buf[i];
	}
}

/**
 * model_put - store @size bytes of @val into the model
 * @m:    the model bytes
 * @off:  offset of the store
 * @val:  the value; its low @size bytes are stored
 * @size: 1 to 8
 * @big:  big-endian byte order if true, little-endian otherwise
 */
static void model_put(u8 *m, unsigned int off, u64 val, unsigned int size, bool big)
{
	unsigned int i;

	for (i = 0; i < size; i++) {
		unsigned int shift = big ? 8 * (size - 1 - i) : 8 * i;

		m[off + i] = (u8)(val >> shift);
	}
}

/**
 * model_get - load @size bytes from the model
 * @m:    the model bytes
 * @off:  offset of the load
 * @size: 1 to 8
 * @big:  big-endian byte order if true, little-endian otherwise
 *
 * Return: the value, zero-extended.
 */
static u64 model_get(const u8 *m, unsigned int off, unsigned int size, bool big)
{
	u64 val = 0;
	unsigned int i;

	for (i = 0; i < size; i++) {
		unsigned int shift = big ? 8 * (size - 1 - i) : 8 * i;

		val |= (u64)m[off + i] << shift;
	}
	return val;
}

/**
 * probe_verdict - compare one probe call with the model
 * @res:  the result to update
 * @what: the probe's name
 * @off:  offset of the probe's first pointer
 * @off2: offset of the probe's second pointer
 * @got:  what the probe returned
 * @want: what the model says it must return
 * @pm:   the buffer and the model, compared in full
 */
static void probe_verdict(struct ua_result *res, const char *what,
			  unsigned int off, unsigned int off2, u64 got, u64 want,
			  const struct probe_mem *pm)
{
	unsigned int i;
	bool bad = got != want;

	for (i = 0; i < PROBE_BUF_SIZE; i++) {
		if (pm->buf[i] != pm->model[i] && !bad) {
			bad = true;
			what = "memory after the probe";
			got = pm->buf[i];
			want = pm->model[i];
		}
	}
	ua_record(res, !bad, what, off, off2, got, want);
}

/**
 * struct alias_store - a store a probe makes through one of its pointers
 * @size: bytes stored, 1 to 8
 * @val:  the value; its low @size bytes are stored
 * @big:  big-endian byte order if true, little-endian otherwise
 */
struct alias_store {
	unsigned int size;
	u64 val;
	bool big;
};

/**
 * alias_check - run a store-store-load probe at one placement, and judge it
 * @res:    the result to update
 * @what:   the probe's name
 * @probe:  calls the probe with its first and second pointers
 * @off:    offset of the first pointer in the buffer
 * @off2:   offset of the second pointer
 * @first:  the store through the first pointer, which the probe then
 *          loads back through it
 * @second: the store through the second pointer, made in between
 *
 * The model makes the two stores in program order, byte by byte, and the
 * load from the bytes they leave.
 */
static void alias_check(struct ua_result *res, const char *what,
			u64 (*probe)(u8 *p, u8 *p2), unsigned int off,
			unsigned int off2, const struct alias_store *first,
			const struct alias_store *second)
{
	struct probe_mem pm;
	u64 got, want;

	probe_setup(&pm);
	got = probe(pm.buf + off, pm.buf + off2);
	model_put(pm.model, off, first->val, first->size, first->big);
	model_put(pm.model, off2, second->val, second->size, second->big);
	want = model_get(pm.model, off, first->size, first->big);
	probe_verdict(res, what, off, off2, got, want, &pm);
}

/*
 * The probes that use the accessors for both pointers run at every
 * misalignment of the first pointer (8 to 15: the buffer is 8-byte aligned)
 * and every position of the second pointer inside the first object.  The
 * probes with a plain access take an aligned pointer for it, and the other
 * pointer at every position inside the plain object.  Each is called
 * through a function that gives its pointers their types.
 */

static u64 put16_get32(u8 *word, u8 *half)
{
	return ua_probe_put16_get32((u32 *)word, (u16 *)half);
}

unsigned int ua_alias_put16_get32(struct ua_result *res)
{
	static const struct alias_store word = { 4, 0x11223344, NATIVE_BIG };
	static const struct alias_store half = { 2, 0xaabb, NATIVE_BIG };
	unsigned int base, in;

	for (base = 8; base < 16; base++)
		for (in = 0; in <= 2; in++)
			alias_check(res, "put16_get32", put16_get32, base,
				    base + in, &word, &half);
	return res->failures;
}

static u64 put32_get16(u8 *half, u8 *word)
{
	return ua_probe_put32_get16((u16 *)half, (u32 *)word);
}

unsigned int ua_alias_put32_get16(struct ua_result *res)
{
	static const struct alias_store half = { 2, 0x5566, NATIVE_BIG };
	static const struct alias_store word = { 4, 0x8899aabb, NATIVE_BIG };
	unsigned int base, in;

	for (base = 8; base < 16; base++)
		for (in = 0; in <= 2; in++)
			alias_check(res, "put32_get16", put32_get16, base + in,
				    base, &half, &word);
	return res->failures;
}

static u64 put32_get64(u8 *dword, u8 *word)
{
	return ua_probe_put32_get64((u64 *)dword, (u32 *)word);
}

unsigned int ua_alias_put32_get64(struct ua_result *res)
{
	static const struct alias_store dword = {
		8, 0x0102030405060708ULL, NATIVE_BIG
	};
	static const struct alias_store word = { 4, 0xf1f2f3f4, NATIVE_BIG };
	unsigned int base, in;

	for (base = 8; base < 16; base++)
		for (in = 0; in <= 4; in++)
			alias_check(res, "put32_get64", put32_get64, base,
				    base + in, &dword, &word);
	return res->failures;
}

static u64 put64_get32(u8 *word, u8 *dword)
{
	return ua_probe_put64_get32((u32 *)word, (u64 *)dword);
}

unsigned int ua_alias_put64_get32(struct ua_result *res)
{
	static const struct alias_store word = { 4, 0x31323334, NATIVE_BIG };
	static const struct alias_store dword = {
		8, 0xa1a2a3a4a5a6a7a8ULL, NATIVE_BIG
	};
	unsigned int base, in;

	for (base = 8; base < 16; base++)
		for (in = 0; in <= 4; in++)
			alias_check(res, "put64_get32", put64_get32, base + in,
				    base, &word, &dword);
	return res->failures;
}

static u64 put16_load32(u8 *word, u8 *half)
{
	return ua_probe_put16_load32((u32 *)word, (u16 *)half);
}

unsigned int ua_alias_put16_load32(struct ua_result *res)
{
	static const struct alias_store word = { 4, 0xdeadbeef, NATIVE_BIG };
	static const struct alias_store half = { 2, 0x1234, NATIVE_BIG };
	unsigned int in;

	for (in = 0; in <= 2; in++)
		alias_check(res, "put16_load32", put16_load32, 8, 8 + in,
			    &word, &half);
	return res->failures;
}

static u64 store32_get16(u8 *half, u8 *word)
{
	return ua_probe_store32_get16((u16 *)half, (u32 *)word);
}

unsigned int ua_alias_store32_get16(struct ua_result *res)
{
	static const struct alias_store half = { 2, 0x4321, NATIVE_BIG };
	static const struct alias_store word = { 4, 0xcafef00d, NATIVE_BIG };
	unsigned int in;

	for (in = 0; in <= 2; in++)
		alias_check(res, "store32_get16", store32_get16, 8 + in, 8,
			    &half, &word);
	return res->failures;
}

unsigned int ua_alias_reload16(struct ua_result *res)
{
	unsigned int in;

	for (in = 0; in <= 2; in++) {
		struct probe_mem pm;
		u64 got, want;

		probe_setup(&pm);
		got = ua_probe_reload16((u16 *)(pm.buf + 8 + in), (u32 *)(pm.buf + 8));
		want = model_get(pm.model, 8 + in, 2, NATIVE_BIG) << 16;
		model_put(pm.model, 8, 0x600df00d, 4, NATIVE_BIG);
		want |= model_get(pm.model, 8 + in, 2, NATIVE_BIG);
		probe_verdict(res, "reload16", 8 + in, 8, got, want, &pm);
	}
	return res->failures;
}

static u64 ptr_ulong(u8 *ulong, u8 *ptr)
{
	return ua_probe_ptr_ulong((unsigned long *)ulong, (void **)ptr);
}

unsigned int ua_alias_ptr_ulong(struct ua_result *res)
{
	static const struct alias_store ulong = {
		sizeof(unsigned long), 0x5a5a5a5a, NATIVE_BIG
	};
	static const struct alias_store ptr = {
		sizeof(void *), 0x12345678, NATIVE_BIG
	};
	unsigned int in;

	for (in = 0; in < sizeof(unsigned long); in++)
		alias_check(res, "ptr_ulong", ptr_ulong, 8, 8 + in, &ulong,
			    &ptr);
	return res->failures;
}

static u64 le32_be16(u8 *word, u8 *half)
{
	return ua_probe_le32_be16(word, half);
}

unsigned int ua_alias_le32_be16(struct ua_result *res)
{
	static const struct alias_store le32 = { 4, 0x76543210, false };
	static const struct alias_store be16 = { 2, 0xfedc, true };
	unsigned int base, in;

	for (base = 8; base < 16; base++)
		for (in = 0; in <= 2; in++)
			alias_check(res, "le32_be16", le32_be16, base,
				    base + in, &le32, &be16);
	return res->failures;
}
