/* SPDX-License-Identifier: GPL-2.0 */
/* What nolibc (6.12) lacks: byte order as the compiler defines it. */
#ifndef UA_NOLIBC_ENDIAN_H
#define UA_NOLIBC_ENDIAN_H

#define __LITTLE_ENDIAN	__ORDER_LITTLE_ENDIAN__
#define __BIG_ENDIAN	__ORDER_BIG_ENDIAN__
#define __BYTE_ORDER	__BYTE_ORDER__

#endif
