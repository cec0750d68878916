/* SPDX-License-Identifier: GPL-2.0 */
/* Freestanding stand-in: byte order as the compiler defines it. */
#ifndef UA_FREESTANDING_ENDIAN_H
#define UA_FREESTANDING_ENDIAN_H

#define __LITTLE_ENDIAN	__ORDER_LITTLE_ENDIAN__
#define __BIG_ENDIAN	__ORDER_BIG_ENDIAN__
#define __BYTE_ORDER	__BYTE_ORDER__

#endif
