/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Byte order under glibc's names, which the tools headers test
 * (__BYTE_ORDER == __BIG_ENDIAN): 7.x's nolibc has an <endian.h> of its
 * own, used instead of ours, that defines none of them, so that the test
 * would read 0 == 0 and byte-swap on a little-endian machine.  Built with
 * -include after nolibc.h; a name already defined is kept.
 */
#ifndef UA_NOLIBC_ENDIAN_NAMES_H
#define UA_NOLIBC_ENDIAN_NAMES_H

#ifndef __LITTLE_ENDIAN
#define __LITTLE_ENDIAN	__ORDER_LITTLE_ENDIAN__
#endif
#ifndef __BIG_ENDIAN
#define __BIG_ENDIAN	__ORDER_BIG_ENDIAN__
#endif
#ifndef __BYTE_ORDER
#define __BYTE_ORDER	__BYTE_ORDER__
#endif

#endif
