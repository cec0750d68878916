/* SPDX-License-Identifier: GPL-2.0 */
/*
 * util.h - what every unit of ktap-parse uses: the program's name, the
 * fatal error, allocation that cannot fail, and a growable array.
 */
#ifndef KTAP_UTIL_H
#define KTAP_UTIL_H

#include <stddef.h>
#include <string.h>

/* The exit codes of ktap-parse, the project's one scheme (scripts/lib/common.sh). */
#define KTAP_EXIT_PASS	0	/* PASS or SKIP */
#define KTAP_EXIT_FAIL	1	/* FAIL, ERROR or MISS: the JSON and summary say which */
#define KTAP_EXIT_USAGE	2	/* bad arguments, unreadable log, unwritable output */

extern const char *prog;

/**
 * struct vec - a growable array of pointers
 * @v: the elements
 * @n: how many there are
 * @cap: how many fit before the next realloc()
 */
struct vec {
	void **v;
	size_t n, cap;
};

void __attribute__((noreturn, format(printf, 1, 2))) fatal(const char *fmt, ...);
void *xmalloc(size_t n);
void *xrealloc(void *old, size_t n);
char *xstrdup(const char *s);
char *__attribute__((format(printf, 1, 2))) xasprintf(const char *fmt, ...);
void vec_push(struct vec *v, void *p);
void vec_free(struct vec *v, void (*fn)(void *));

static inline int starts_with(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

#endif /* KTAP_UTIL_H */
