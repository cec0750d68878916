// SPDX-License-Identifier: GPL-2.0
/*
 * Strict-aliasing probes for the unaligned accessors.
 *
 * Each probe stores through one type and reads through another, with at
 * least one of the accesses made by the accessors of <linux/unaligned.h>.
 * The caller (probe-check.c, another translation unit) passes pointers that
 * overlap, which the compiler cannot see from here.  Built with
 * -fstrict-aliasing at -O2, -O3 and -Os, once per form of the header: when
 * an accessor's access is not allowed to alias the other type (the plain
 * packed form), the compiler may forward a stale value or reuse an earlier
 * load, and the probe returns the wrong answer.
 *
 * Nothing here calls libc; the probes are noinline so that each one is a
 * function of its own in the object.
 */
#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/unaligned.h>

#include "cases.h"

/* put_unaligned() of a u16 into a u32, then get_unaligned() of the u32 */
noinline u32 ua_probe_put16_get32(u32 *word, u16 *half)
{
	put_unaligned(0x11223344U, word);
	put_unaligned((u16)0xaabb, half);
	return get_unaligned(word);
}

/* put_unaligned() of a u32 over a u16, then get_unaligned() of the u16 */
noinline u16 ua_probe_put32_get16(u16 *half, u32 *word)
{
	put_unaligned((u16)0x5566, half);
	put_unaligned(0x8899aabbU, word);
	return get_unaligned(half);
}

/* put_unaligned() of a u32 into a u64, then get_unaligned() of the u64 */
noinline u64 ua_probe_put32_get64(u64 *dword, u32 *word)
{
	put_unaligned(0x0102030405060708ULL, dword);
	put_unaligned(0xf1f2f3f4U, word);
	return get_unaligned(dword);
}

/* put_unaligned() of a u64 over a u32, then get_unaligned() of the u32 */
noinline u32 ua_probe_put64_get32(u32 *word, u64 *dword)
{
	put_unaligned(0x31323334U, word);
	put_unaligned(0xa1a2a3a4a5a6a7a8ULL, dword);
	return get_unaligned(word);
}

/* a plain u32 store, put_unaligned() of a u16 into it, a plain u32 load */
noinline u32 ua_probe_put16_load32(u32 *word, u16 *half)
{
	*word = 0xdeadbeefU;
	put_unaligned((u16)0x1234, half);
	return *word;
}

/*
 * put_unaligned() of a u16, a plain u32 store over it, get_unaligned() of
 * the u16.  (Each pair of overlapping accesses has an accessor on one side:
 * two plain accesses of different types would be undefined whatever the
 * accessors do.)
 */
noinline u16 ua_probe_store32_get16(u16 *half, u32 *word)
{
	put_unaligned((u16)0x4321, half);
	*word = 0xcafef00dU;
	return get_unaligned(half);
}

/*
 * get_unaligned() of a u16, a plain u32 store over it, get_unaligned() of
 * the u16 again: the second read must not reuse the first.
 */
noinline u32 ua_probe_reload16(u16 *half, u32 *word)
{
	u16 before = get_unaligned(half);

	*word = 0x600df00dU;
	return (u32)before << 16 | get_unaligned(half);
}

/* a plain unsigned long store, put_unaligned() of a pointer over it */
noinline unsigned long ua_probe_ptr_ulong(unsigned long *ulong, void **ptr)
{
	*ulong = 0x5a5a5a5aUL;
	put_unaligned((void *)0x12345678UL, ptr);
	return *ulong;
}

/*
 * put_unaligned_le32(), put_unaligned_be16() inside it, then
 * get_unaligned_le32(): __le32 and __be16 are distinct integer types, as a
 * chksum_digest()-style caller filling a byte buffer would mix them.
 */
noinline u32 ua_probe_le32_be16(void *word, void *half)
{
	put_unaligned_le32(0x76543210U, word);
	put_unaligned_be16(0xfedc, half);
	return get_unaligned_le32(word);
}
