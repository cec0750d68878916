// SPDX-License-Identifier: GPL-2.0
/*
 * Code generation probes for the unaligned accessors, compiled by
 * scripts/evidence/unaligned/codegen-table once per form (packed, memcpy, rework), compiler,
 * target and optimisation level.  Each probe is one access, in a function
 * of its own, so that the table can count out-of-line memcpy() calls and
 * instructions per access.
 *
 * The headers are the tree's tools/include ones, which a tools build
 * includes in this order: <linux/unaligned.h> uses u16..u64 and the
 * le/be conversions without including their headers.
 *
 * Every probe is an external function taking its address and value as
 * arguments, so nothing is known about alignment and nothing folds.
 */
#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/unaligned.h>

/* The raw accessors, as the le/be helpers and get/put_unaligned() use them. */
u16 probe_get_t16(const void *p)
{
	return __get_unaligned_t(u16, p);
}

u32 probe_get_t32(const void *p)
{
	return __get_unaligned_t(u32, p);
}

u64 probe_get_t64(const void *p)
{
	return __get_unaligned_t(u64, p);
}

void probe_put_t16(void *p, u16 v)
{
	__put_unaligned_t(u16, v, p);
}

void probe_put_t32(void *p, u32 v)
{
	__put_unaligned_t(u32, v, p);
}

void probe_put_t64(void *p, u64 v)
{
	__put_unaligned_t(u64, v, p);
}

/* The endian helpers: the forms most callers use. */
u16 probe_get_le16(const void *p)
{
	return get_unaligned_le16(p);
}

u32 probe_get_le32(const void *p)
{
	return get_unaligned_le32(p);
}

u64 probe_get_le64(const void *p)
{
	return get_unaligned_le64(p);
}

u16 probe_get_be16(const void *p)
{
	return get_unaligned_be16(p);
}

u32 probe_get_be32(const void *p)
{
	return get_unaligned_be32(p);
}

u64 probe_get_be64(const void *p)
{
	return get_unaligned_be64(p);
}

void probe_put_le16(void *p, u16 v)
{
	put_unaligned_le16(v, p);
}

void probe_put_le32(void *p, u32 v)
{
	put_unaligned_le32(v, p);
}

void probe_put_le64(void *p, u64 v)
{
	put_unaligned_le64(v, p);
}

void probe_put_be16(void *p, u16 v)
{
	put_unaligned_be16(v, p);
}

void probe_put_be32(void *p, u32 v)
{
	put_unaligned_be32(v, p);
}

void probe_put_be64(void *p, u64 v)
{
	put_unaligned_be64(v, p);
}

/*
 * crypto/crc32c_generic.c's chksum_digest() (via __chksum_finup()): a
 * computed local stored to an unaligned output buffer, the case in the
 * ARMv5 regression report.  crc32c() is external so that the value is
 * not known at compile time.
 */
u32 crc32c(u32 crc, const void *address, unsigned int length);

int probe_chksum_digest(u32 crc, const u8 *data, unsigned int length, u8 *out)
{
	put_unaligned_le32(~crc32c(crc, data, length), out);
	return 0;
}
