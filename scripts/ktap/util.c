// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - the fatal error, allocation that cannot fail, growable arrays.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "util.h"

const char *prog = "ktap-parse";

/**
 * fatal() - one error line on stderr, then exit with KTAP_EXIT_USAGE
 * @fmt: printf format of the message
 *
 * For what stops ktap-parse before it can judge the run: an unreadable
 * log, no memory.  Never a test result.
 */
void fatal(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: error: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(KTAP_EXIT_USAGE);
}

/**
 * xmalloc() - malloc() that dies on failure
 * @n: size; 0 is allowed
 *
 * Return: the new block.
 */
void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		fatal("out of memory");
	return p;
}

/**
 * xrealloc() - realloc() that dies on failure
 * @old: the block, or NULL
 * @n: new size; 0 is allowed
 *
 * Return: the block.
 */
void *xrealloc(void *old, size_t n)
{
	void *p = realloc(old, n ? n : 1);

	if (!p)
		fatal("out of memory");
	return p;
}

/**
 * xstrdup() - strdup() that dies on failure
 * @s: the string
 *
 * Return: a new copy of @s.
 */
char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

/**
 * xasprintf() - asprintf() that dies on failure
 * @fmt: printf format
 *
 * Return: the new string.
 */
char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		fatal("out of memory");
	return s;
}

/**
 * vec_push() - append to a growable array
 * @v: the array
 * @p: the element
 */
void vec_push(struct vec *v, void *p)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 8;
		v->v = xrealloc(v->v, v->cap * sizeof(*v->v));
	}
	v->v[v->n++] = p;
}

/**
 * vec_free() - empty a growable array
 * @v: the array
 * @fn: called on each element first, or NULL
 */
void vec_free(struct vec *v, void (*fn)(void *))
{
	size_t i;

	for (i = 0; fn && i < v->n; i++)
		fn(v->v[i]);
	free(v->v);
	v->v = NULL;
	v->n = v->cap = 0;
}
