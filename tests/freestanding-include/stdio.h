/* SPDX-License-Identifier: GPL-2.0 */
/* Freestanding stand-in: only what tools/include/linux/panic.h names. */
#ifndef UA_FREESTANDING_STDIO_H
#define UA_FREESTANDING_STDIO_H

#include <stdarg.h>

typedef struct ua_freestanding_file FILE;
extern FILE *stderr;
int vfprintf(FILE *stream, const char *fmt, va_list ap);

#endif
