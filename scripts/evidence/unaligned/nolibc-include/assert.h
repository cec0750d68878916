/* SPDX-License-Identifier: GPL-2.0 */
/* What nolibc (6.12) lacks: tools/include/linux/kernel.h uses assert(). */
#ifndef UA_NOLIBC_ASSERT_H
#define UA_NOLIBC_ASSERT_H

#define assert(cond) do { if (!(cond)) __builtin_trap(); } while (0)

#endif
