/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __VDSO_UNALIGNED_H
#define __VDSO_UNALIGNED_H

#include <linux/compiler_types.h>

/*
 * Both helpers access memory through a one-member struct that is:
 *
 * - __packed, so its alignment is 1 and the compiler emits what the target
 *   needs for an access at any address: a plain load or store where the
 *   hardware copes with misalignment, inline byte accesses where it does not
 *   (-mno-unaligned-access: ARMv5 and older).  Unlike __builtin_memcpy(),
 *   it is never lowered to an out-of-line call to memcpy().
 *
 * - __may_alias__, so the access may read or write an object of any other
 *   type, as a character type may.  The helpers are therefore correct when
 *   built with -fstrict-aliasing (tools, vDSO users), not only in the kernel,
 *   which builds with -fno-strict-aliasing.
 *
 * The member type may be const-qualified: get_unaligned() on a pointer to
 * const passes such a type, and reading a const member is fine.
 */

/**
 * __get_unaligned_t - read a value from a possibly misaligned address
 * @type: the type of the value, possibly const-qualified
 * @ptr: the address to read from
 *
 * Return: the @type value stored at @ptr.
 */
#define __get_unaligned_t(type, ptr) ({							\
	const struct { type x; } __packed __attribute__((__may_alias__)) * __get_pptr =	\
		(typeof(__get_pptr))(ptr);						\
	__get_pptr->x;									\
})

/**
 * __put_unaligned_t - write a value to a possibly misaligned address
 * @type: the type of the value
 * @val: the value to write
 * @ptr: the address to write to
 */
#define __put_unaligned_t(type, val, ptr) do {						\
	struct { type x; } __packed __attribute__((__may_alias__)) * __put_pptr =	\
		(typeof(__put_pptr))(ptr);						\
	__put_pptr->x = (val);								\
} while (0)

#endif /* __VDSO_UNALIGNED_H */
