/* SPDX-License-Identifier: GPL-2.0 */
/* Freestanding stand-in: tools/include/linux/kernel.h uses assert(). */
#ifndef UA_FREESTANDING_ASSERT_H
#define UA_FREESTANDING_ASSERT_H

#define assert(cond) do { if (!(cond)) __builtin_trap(); } while (0)

#endif
