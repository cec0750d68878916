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
	res->checks++;
	if (!bad)
		return;
	if (!res->failures++) {
		res->what = what;
		res->offset = off;
		res->offset2 = off2;
		res->got = got;
		res->want = want;
	}
}

/*
 * The probes that use the accessors for both pointers run at every
 * misalignment of the first pointer (8 to 15: the buffer is 8-byte aligned)
 * and every position of the second pointer inside the first object.  The
 * probes with a plain access take an aligned pointer for it, and the other
 * pointer at every position inside the plain object.
 */

unsigned int ua_alias_put16_get32(struct ua_result *res)
{
	unsigned int base, in;

	for (base = 8; base < 16; base++) {
		for (in = 0; in <= 2; in++) {
			struct probe_mem pm;
			u64 got, want;

			probe_setup(&pm);
			got = ua_probe_put16_get32((u32 *)(pm.buf + base),
						   (u16 *)(pm.buf + base + in));
			model_put(pm.model, base, 0x11223344, 4, NATIVE_BIG);
			model_put(pm.model, base + in, 0xaabb, 2, NATIVE_BIG);
			want = model_get(pm.model, base, 4, NATIVE_BIG);
			probe_verdict(res, "put16_get32", base, base + in, got, want, &pm);
		}
	}
	return res->failures;
}

unsigned int ua_alias_put32_get16(struct ua_result *res)
{
	unsigned int base, in;

	for (base = 8; base < 16; base++) {
		for (in = 0; in <= 2; in++) {
			struct probe_mem pm;
			u64 got, want;

			probe_setup(&pm);
			got = ua_probe_put32_get16((u16 *)(pm.buf + base + in),
						   (u32 *)(pm.buf + base));
			model_put(pm.model, base + in, 0x5566, 2, NATIVE_BIG);
			model_put(pm.model, base, 0x8899aabb, 4, NATIVE_BIG);
			want = model_get(pm.model, base + in, 2, NATIVE_BIG);
			probe_verdict(res, "put32_get16", base + in, base, got, want, &pm);
		}
	}
	return res->failures;
}

unsigned int ua_alias_put32_get64(struct ua_result *res)
{
	unsigned int base, in;

	for (base = 8; base < 16; base++) {
		for (in = 0; in <= 4; in++) {
			struct probe_mem pm;
			u64 got, want;

			probe_setup(&pm);
			got = ua_probe_put32_get64((u64 *)(pm.buf + base),
						   (u32 *)(pm.buf + base + in));
			model_put(pm.model, base, 0x0102030405060708ULL, 8, NATIVE_BIG);
			model_put(pm.model, base + in, 0xf1f2f3f4, 4, NATIVE_BIG);
			want = model_get(pm.model, base, 8, NATIVE_BIG);
			probe_verdict(res, "put32_get64", base, base + in, got, want, &pm);
		}
	}
	return res->failures;
}

unsigned int ua_alias_put64_get32(struct ua_result *res)
{
	unsigned int base, in;

	for (base = 8; base < 16; base++) {
		for (in = 0; in <= 4; in++) {
			struct probe_mem pm;
			u64 got, want;

			probe_setup(&pm);
			got = ua_probe_put64_get32((u32 *)(pm.buf + base + in),
						   (u64 *)(pm.buf + base));
			model_put(pm.model, base + in, 0x31323334, 4, NATIVE_BIG);
			model_put(pm.model, base, 0xa1a2a3a4a5a6a7a8ULL, 8, NATIVE_BIG);
			want = model_get(pm.model, base + in, 4, NATIVE_BIG);
			probe_verdict(res, "put64_get32", base + in, base, got, want, &pm);
		}
	}
	return res->failures;
}

unsigned int ua_alias_put16_load32(struct ua_result *res)
{
	unsigned int in;

	for (in = 0; in <= 2; in++) {
		struct probe_mem pm;
		u64 got, want;

		probe_setup(&pm);
		got = ua_probe_put16_load32((u32 *)(pm.buf + 8), (u16 *)(pm.buf + 8 + in));
		model_put(pm.model, 8, 0xdeadbeef, 4, NATIVE_BIG);
		model_put(pm.model, 8 + in, 0x1234, 2, NATIVE_BIG);
		want = model_get(pm.model, 8, 4, NATIVE_BIG);
		probe_verdict(res, "put16_load32", 8, 8 + in, got, want, &pm);
	}
	return res->failures;
}

unsigned int ua_alias_store32_get16(struct ua_result *res)
{
	unsigned int in;

	for (in = 0; in <= 2; in++) {
		struct probe_mem pm;
		u64 got, want;

		probe_setup(&pm);
		got = ua_probe_store32_get16((u16 *)(pm.buf + 8 + in), (u32 *)(pm.buf + 8));
		model_put(pm.model, 8 + in, 0x4321, 2, NATIVE_BIG);
		model_put(pm.model, 8, 0xcafef00d, 4, NATIVE_BIG);
		want = model_get(pm.model, 8 + in, 2, NATIVE_BIG);
		probe_verdict(res, "store32_get16", 8 + in, 8, got, want, &pm);
	}
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

unsigned int ua_alias_ptr_ulong(struct ua_result *res)
{
	unsigned int size = sizeof(unsigned long);
	unsigned int in;

	for (in = 0; in < size; in++) {
		struct probe_mem pm;
		u64 got, want;

		probe_setup(&pm);
		got = ua_probe_ptr_ulong((unsigned long *)(pm.buf + 8),
					 (void **)(pm.buf + 8 + in));
		model_put(pm.model, 8, 0x5a5a5a5a, size, NATIVE_BIG);
		model_put(pm.model, 8 + in, 0x12345678, sizeof(void *), NATIVE_BIG);
		want = model_get(pm.model, 8, size, NATIVE_BIG);
		probe_verdict(res, "ptr_ulong", 8, 8 + in, got, want, &pm);
	}
	return res->failures;
}

unsigned int ua_alias_le32_be16(struct ua_result *res)
{
	unsigned int base, in;

	for (base = 8; base < 16; base++) {
		for (in = 0; in <= 2; in++) {
			struct probe_mem pm;
			u64 got, want;

			probe_setup(&pm);
			got = ua_probe_le32_be16(pm.buf + base, pm.buf + base + in);
			model_put(pm.model, base, 0x76543210, 4, false);
			model_put(pm.model, base + in, 0xfedc, 2, true);
			want = model_get(pm.model, base, 4, false);
			probe_verdict(res, "le32_be16", base, base + in, got, want, &pm);
		}
	}
	return res->failures;
}
