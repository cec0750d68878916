/* SPDX-License-Identifier: GPL-2.0 */
/* What nolibc (6.12) lacks: glibc's bswap_*() are the compiler builtins. */
#ifndef UA_NOLIBC_BYTESWAP_H
#define UA_NOLIBC_BYTESWAP_H

#define bswap_16(x)	__builtin_bswap16(x)
#define bswap_32(x)	__builtin_bswap32(x)
#define bswap_64(x)	__builtin_bswap64(x)

#endif
