/* SPDX-License-Identifier: GPL-2.0 */
/* Freestanding stand-in: only what tools/include/linux/panic.h names. */
#ifndef UA_FREESTANDING_STDLIB_H
#define UA_FREESTANDING_STDLIB_H

void exit(int status) __attribute__((__noreturn__));

#endif
