// SPDX-License-Identifier: GPL-2.0
/*
 * ktap-parse: turn a boot console log into KTAP test results.
 *
 * Follows Documentation/dev-tools/ktap.rst (KTAP version 1) and the
 * extraction and nesting rules of tools/testing/kunit/kunit_parser.py, with
 * what a boot harness needs on top: several KTAP documents in one log
 * (KUnit's at boot, then the guest init's own), crash detection, an overall
 * status with a precedence (MISS > ERROR > FAIL > PASS, SKIP only when
 * everything was skipped) and JSON and JUnit XML output.
 *
 * Build: cc -std=gnu11 -O2 -Wall -Wextra -o ktap-parse ktap-parse.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define EXIT_PASS	0	/* PASS or SKIP */
#define EXIT_FAILED	1	/* a test reported not ok */
#define EXIT_ERRORED	2	/* crash, cut-off, bad plan, missing suite */
#define EXIT_MISSED	3	/* no KTAP, no end marker, boot timed out */
#define EXIT_USAGE	4	/* bad arguments or I/O error */

/* Console lines longer than this are kept truncated: no KTAP line is. */
#define MAX_LINE	4096
/* Deeper nesting than this is treated as diagnostics, to bound recursion. */
#define MAX_DEPTH	32
/* Failing tests and suites listed on stdout before "... and N more". */
#define MAX_LISTED	20

enum status { ST_NONE, ST_PASS, ST_SKIP, ST_FAIL, ST_ERROR, ST_MISS };

static const char *const status_name[] = {
	[ST_NONE] = "NONE", [ST_PASS] = "PASS", [ST_SKIP] = "SKIP",
	[ST_FAIL] = "FAIL", [ST_ERROR] = "ERROR", [ST_MISS] = "MISS",
};

/* What a KTAP line is, once the console prefix and indentation are gone. */
enum kind { K_OTHER, K_VERSION, K_SUBTEST, K_PLAN, K_RESULT };

#define LF_CRASH	0x1	/* Oops, BUG:, panic...: the run is an ERROR */
#define LF_ERRLINE	0x2	/* "kunit executor: ..." or "Bail out!" */
#define LF_WARN		0x4	/* "WARNING:": reported, an error with --warn-error */

struct vec {
	void **v;
	size_t n, cap;
};

/**
 * struct kline - one console line that belongs to a KTAP document
 * @text: the line without the document's prefix and without indentation
 *	(for a line without that prefix: without its timestamp)
 * @msg: the message without timestamp, for crash and error reports
 * @indent: leading spaces after the prefix
 * @kind: what the line is
 * @flags: LF_* flags
 */
struct kline {
	char *text;
	char *msg;
	unsigned int indent;
	enum kind kind;
	unsigned int flags;
};

/**
 * struct ktest - a test, a suite, or a whole KTAP document (@is_main)
 * @name: from "# Subtest:" or the result line; NULL for a document
 * @number: number on its result line, -1 when there is none
 * @own: status its result line reports, ST_NONE when missing
 * @status: final status, subtests and errors included
 * @reason: directive or diagnostic data after '#' on the result line
 * @plan: N of its "1..N" line, -1 without one
 * @is_parent: it had a version or "# Subtest:" header
 * @is_main: it is a KTAP document
 * @doc: 1-based index of its document
 * @nerrors: errors recorded against this test itself
 * @crashed: a crash line was seen among its diagnostics
 * @diags: diagnostic lines (char *)
 * @subs: subtests (struct ktest *)
 * @parent: enclosing test, NULL for a document
 */
struct ktest {
	char *name;
	long number;
	enum status own;
	enum status status;
	char *reason;
	long plan;
	int is_parent;
	int is_main;
	int doc;
	int nerrors;
	int crashed;
	struct vec diags;
	struct vec subs;
	struct ktest *parent;
};

struct run_error {
	struct ktest *test;	/* NULL: the run as a whole */
	char *msg;
};

struct counts {
	long passed, failed, skipped, errors;
};

/**
 * struct run - everything known about one console log
 * @name: run name for the summary, JSON and JUnit
 * @docs: one main struct ktest per KTAP document
 * @errors: struct run_error, in the order found
 * @warnings: "WARNING:" lines (char *)
 * @missing: expected suites that never appeared (char *)
 * @miss: harness-level reasons for MISS (char *)
 * @crash: first crash line of the log, NULL when none
 * @counts: leaf test counts and number of errors
 * @status: overall status
 */
struct run {
	const char *name;
	struct vec docs;
	struct vec errors;
	struct vec warnings;
	struct vec missing;
	struct vec miss;
	char *crash;
	struct counts counts;
	enum status status;
};

/**
 * struct extractor - finds KTAP documents in the console stream
 * @in_doc: inside a document
 * @prefix: what precedes "KTAP version" on the document's first line
 *	(a printk timestamp matches any timestamp)
 * @lines: the document's lines (struct kline *)
 * @plan: top-level plan, -1 until seen
 * @top_results: top-level result lines seen so far
 * @seen_result: a top-level result or subtest was seen (a plan after it
 *	is not the document's plan)
 * @gap_crash: a crash outside any document was recorded since the last one
 */
struct extractor {
	int in_doc;
	char *prefix;
	struct vec lines;
	long plan;
	long top_results;
	int seen_result;
	int gap_crash;
};

static const char *prog = "ktap-parse";
static int warn_is_error;

/* ------------------------------------------------------------------ */
/* Small helpers                                                        */

static void __attribute__((noreturn, format(printf, 1, 2)))
fatal(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: error: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(EXIT_USAGE);
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		fatal("out of memory");
	return p;
}

static void *xrealloc(void *old, size_t n)
{
	void *p = realloc(old, n ? n : 1);

	if (!p)
		fatal("out of memory");
	return p;
}

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;

	return memcpy(xmalloc(n), s, n);
}

static char *__attribute__((format(printf, 1, 2))) xasprintf(const char *fmt, ...)
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

static void vec_push(struct vec *v, void *p)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 8;
		v->v = xrealloc(v->v, v->cap * sizeof(*v->v));
	}
	v->v[v->n++] = p;
}

static void vec_free(struct vec *v, void (*fn)(void *))
{
	size_t i;

	for (i = 0; fn && i < v->n; i++)
		fn(v->v[i]);
	free(v->v);
	v->v = NULL;
	v->n = v->cap = 0;
}

static int starts_with(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

static const char *skip_spaces(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/*
 * Parse a decimal number, saturating: a KTAP number that does not fit is
 * garbage anyway, and must not overflow.
 */
static const char *parse_num(const char *s, long *out)
{
	long v = 0;

	if (*s < '0' || *s > '9')
		return NULL;
	while (*s >= '0' && *s <= '9') {
		if (v < 100000000L)
			v = v * 10 + (*s - '0');
		else
			v = 1000000000L;
		s++;
	}
	*out = v;
	return s;
}

/* ------------------------------------------------------------------ */
/* Input: bytes to clean lines                                          */

/*
 * Length of the valid UTF-8 sequence at @s (at most @n bytes), 0 if
 * invalid.  Surrogates, overlong forms and U+FFFE/U+FFFF are refused:
 * neither JSON nor XML 1.0 may carry them.
 */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t len, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if (c == 0xe0 && s[1] < 0xa0)
		return 0;
	if (c == 0xed && s[1] > 0x9f)
		return 0;
	if (c == 0xef && s[1] == 0xbf && s[2] >= 0xbe)
		return 0;
	if (c == 0xf0 && s[1] < 0x90)
		return 0;
	if (c == 0xf4 && s[1] > 0x8f)
		return 0;
	return len;
}

/**
 * clean_line() - make a raw console line safe to parse and to report
 * @buf: the line, without its '\n'; rewritten in place
 * @n: its length (it may contain NUL bytes)
 *
 * Serial consoles end lines with "\r\n" (or "\r\r\n"): every CR is
 * dropped.  Control characters other than tab and invalid UTF-8 become
 * '?', so that the JSON and XML written later are always well-formed.
 * The result is cut to MAX_LINE bytes on a character boundary.
 */
static void clean_line(char *buf, size_t n)
{
	unsigned char *s = (unsigned char *)buf;
	size_t i = 0, o = 0, len;

	while (i < n) {
		if (s[i] == '\r') {
			i++;
			continue;
		}
		if (s[i] < 0x20 && s[i] != '\t') {
			s[o++] = '?';
			i++;
			continue;
		}
		if (s[i] == 0x7f) {
			s[o++] = '?';
			i++;
			continue;
		}
		len = utf8_len(s + i, n - i);
		if (!len) {
			s[o++] = '?';
			i++;
			continue;
		}
		memmove(s + o, s + i, len);
		o += len;
		i += len;
	}
	if (o > MAX_LINE) {
		o = MAX_LINE;
		while (o > 0 && (s[o] & 0xc0) == 0x80)
			o--;
	}
	s[o] = '\0';
}

/*
 * A printk timestamp "[    1.234567]" or caller id "[    T1]" at @s:
 * returns its length, 0 if there is none.
 */
static size_t timestamp_len(const char *s)
{
	const char *p = s;

	if (*p++ != '[')
		return 0;
	while (*p == ' ')
		p++;
	if (*p == 'T' || *p == 'C') {
		p++;
		if (*p < '0' || *p > '9')
			return 0;
		while (*p >= '0' && *p <= '9')
			p++;
	} else {
		if (*p < '0' || *p > '9')
			return 0;
		while (*p >= '0' && *p <= '9')
			p++;
		if (*p++ != '.')
			return 0;
		if (*p < '0' || *p > '9')
			return 0;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p++ != ']')
		return 0;
	return p - s;
}

/*
 * The message of a console line: without "<6>" log levels, timestamps,
 * caller ids and leading blanks, as dmesg would show it.
 */
static const char *msg_start(const char *s)
{
	size_t n;

	for (;;) {
		s = skip_spaces(s);
		if (s[0] == '<' && s[1] >= '0' && s[1] <= '9' && s[2] == '>') {
			s += 3;
			continue;
		}
		n = timestamp_len(s);
		if (!n)
			return s;
		s += n;
	}
}

static const char *const crash_patterns[] = {
	"Kernel panic",
	"BUG:",
	"kernel BUG at",
	"Unable to handle kernel",
	"Internal error:",
	"general protection fault",
	"watchdog: BUG:",
	"kernel tried to execute NX-protected page",
	NULL,
};

/**
 * line_flags() - classify a console message as crash, error or warning
 * @msg: the message, from msg_start()
 *
 * Only the start of the message is looked at: a KUnit diagnostic that
 * mentions "BUG:" starts with '#' and is not a crash.
 *
 * Return: LF_* flags, 0 for an ordinary line.
 */
static unsigned int line_flags(const char *msg)
{
	int i;

	if (msg[0] == '#')
		return 0;
	for (i = 0; crash_patterns[i]; i++)
		if (starts_with(msg, crash_patterns[i]))
			return LF_CRASH;
	/* "Oops: ..." (x86), "Oops - BUG" (arm), not "Oopsie". */
	if (starts_with(msg, "Oops") && (msg[4] == ':' || msg[4] == ' ' ||
					 msg[4] == '\0' || msg[4] == '['))
		return LF_CRASH;
	if (starts_with(msg, "kunit executor:") || starts_with(msg, "Bail out!"))
		return LF_ERRLINE;
	if (starts_with(msg, "WARNING:"))
		return warn_is_error ? LF_WARN | LF_CRASH : LF_WARN;
	return 0;
}

/* Lines after which the kernel prints no more test output (kunit_parser.py). */
static int is_ktap_end(const char *msg)
{
	return starts_with(msg, "List of all partitions:") ||
	       starts_with(msg, "Kernel panic - not syncing: VFS:") ||
	       starts_with(msg, "reboot: ");
}

/* ------------------------------------------------------------------ */
/* KTAP line shapes                                                     */

/*
 * "KTAP version N" or "TAP version N" ending the line, anywhere in it:
 * returns the offset where it starts, -1 if the line is not one.  Like
 * kunit_parser.py, what comes before it is the console prefix.
 */
static long find_version(const char *s)
{
	const char *p = s, *q, *end;
	long v = 0;

	while ((p = strstr(p, "TAP version ")) != NULL) {
		q = parse_num(p + strlen("TAP version "), &v);
		if (q) {
			end = skip_spaces(q);
			if (!*end) {
				if (p > s && p[-1] == 'K')
					return p - 1 - s;
				return p - s;
			}
		}
		p++;
	}
	return -1;
}

static enum kind classify(const char *t)
{
	long v = 0;
	const char *q;

	if (starts_with(t, "KTAP version ") || starts_with(t, "TAP version ")) {
		q = parse_num(t + (t[0] == 'K' ? 13 : 12), &v);
		if (q && !*skip_spaces(q))
			return K_VERSION;
	}
	if (starts_with(t, "# Subtest: "))
		return K_SUBTEST;
	if (starts_with(t, "1..") && t[3] >= '0' && t[3] <= '9')
		return K_PLAN;
	if (starts_with(t, "not ok ") || starts_with(t, "ok ")) {
		q = t + (t[0] == 'n' ? 7 : 3);
		q = parse_num(q, &v);
		if (q && (*q == '\0' || *q == ' ' || *q == '#'))
			return K_RESULT;
	}
	return K_OTHER;
}

/**
 * parse_result() - split a test result line
 * @t: the line, of kind K_RESULT
 * @status: set to ST_PASS, ST_FAIL, ST_SKIP or ST_ERROR
 * @number: set to the test number
 * @reason: set to a new string with the directive's text, or NULL
 *
 * "<ok|not ok> <number> [- ]<description>[ # [<directive>] [<data>]]":
 * SKIP makes it skipped whether ok or not ok (ktap.rst), "not ok ... #
 * ERROR" an error; other directives (TODO, XFAIL, TIMEOUT) fall back to
 * ok / not ok.
 *
 * Return: the description, a new string.
 */
static char *parse_result(const char *t, enum status *status, long *number,
			  char **reason)
{
	int ok = t[0] == 'o';
	const char *p = t + (ok ? 3 : 7), *hash, *d;
	size_t n;
	char *name;

	p = parse_num(p, number);
	p = skip_spaces(p);
	if (p[0] == '-' && (p[1] == ' ' || p[1] == '\0'))
		p = skip_spaces(p + 1);
	hash = strchr(p, '#');
	n = hash ? (size_t)(hash - p) : strlen(p);
	while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
		n--;
	name = xmalloc(n + 1);
	memcpy(name, p, n);
	name[n] = '\0';

	*status = ok ? ST_PASS : ST_FAIL;
	*reason = NULL;
	if (!hash)
		return name;
	d = skip_spaces(hash + 1);
	if (!strncasecmp(d, "SKIP", 4) && (d[4] == '\0' || d[4] == ' ')) {
		*status = ST_SKIP;
		d = skip_spaces(d + 4);
	} else if (!ok && !strncasecmp(d, "ERROR", 5) &&
		   (d[5] == '\0' || d[5] == ' ')) {
		*status = ST_ERROR;
		d = skip_spaces(d + 5);
	}
	if (*d)
		*reason = xstrdup(d);
	return name;
}

/* ------------------------------------------------------------------ */
/* Tests and errors                                                     */

static struct ktest *test_new(struct ktest *parent, int doc)
{
	struct ktest *t = xmalloc(sizeof(*t));

	memset(t, 0, sizeof(*t));
	t->number = -1;
	t->plan = -1;
	t->parent = parent;
	t->doc = doc;
	return t;
}

static void test_free(void *p)
{
	struct ktest *t = p;

	vec_free(&t->subs, test_free);
	vec_free(&t->diags, free);
	free(t->name);
	free(t->reason);
	free(t);
}

/* Dotted path of @t below its document ("memcpy.memcpy_test"), new string. */
static char *test_path(const struct ktest *t)
{
	const struct ktest *u;
	size_t len = 1;
	char *s, *p;
	char num[32];

	if (!t || t->is_main)
		return xasprintf("KTAP document %d", t ? t->doc : 0);
	for (u = t; u && !u->is_main; u = u->parent)
		len += (u->name && *u->name ? strlen(u->name) : sizeof(num)) + 1;
	s = xmalloc(len);
	p = s + len - 1;
	*p = '\0';
	for (u = t; u && !u->is_main; u = u->parent) {
		const char *n = u->name;
		size_t l;

		if (!n || !*n) {
			snprintf(num, sizeof(num), "#%ld", u->number);
			n = num;
		}
		l = strlen(n);
		if (p != s + len - 1)
			*--p = '.';
		p -= l;
		memcpy(p, n, l);
	}
	memmove(s, p, strlen(p) + 1);
	return s;
}

static void __attribute__((format(printf, 3, 4)))
add_error(struct run *r, struct ktest *t, const char *fmt, ...)
{
	struct run_error *e = xmalloc(sizeof(*e));
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&e->msg, fmt, ap) < 0)
		fatal("out of memory");
	va_end(ap);
	e->test = t;
	if (t)
		t->nerrors++;
	vec_push(&r->errors, e);
}

static void error_free(void *p)
{
	struct run_error *e = p;

	free(e->msg);
	free(e);
}

static void kline_free(void *p)
{
	struct kline *l = p;

	free(l->text);
	free(l->msg);
	free(l);
}

/* ------------------------------------------------------------------ */
/* The recursive descent over one document                              */

struct parser {
	struct run *r;
	struct kline **l;
	size_t n, i;
};

/*
 * Diagnostic lines [from, to) belong to @t: keep them, and charge @t with
 * the first crash and each error line among them.
 */
static void attach(struct parser *p, struct ktest *t, size_t from, size_t to)
{
	const char *s;
	size_t i;

	for (i = from; i < to; i++) {
		const struct kline *l = p->l[i];

		s = l->text;
		if (s[0] == '#' && (s[1] == ' ' || s[1] == '\0'))
			s = skip_spaces(s + 1);
		vec_push(&t->diags, xstrdup(s));
		if ((l->flags & LF_CRASH) && !t->crashed) {
			t->crashed = 1;
			add_error(p->r, t, "crash: %s", l->msg);
		} else if (l->flags & LF_ERRLINE) {
			add_error(p->r, t, "%s", l->msg);
		}
		if (l->flags & LF_WARN)
			vec_push(&p->r->warnings, xstrdup(l->msg));
	}
}

/* Skip diagnostic lines; structural lines that are out of place become ones. */
static void skip_diag(struct parser *p)
{
	while (p->i < p->n && p->l[p->i]->kind == K_OTHER)
		p->i++;
}

static enum status worse(enum status a, enum status b)
{
	static const int rank[] = {
		[ST_NONE] = 0, [ST_SKIP] = 1, [ST_PASS] = 2,
		[ST_FAIL] = 3, [ST_ERROR] = 4, [ST_MISS] = 5,
	};

	return rank[a] >= rank[b] ? a : b;
}

/*
 * Final status of @t: its own result, made worse by its subtests and by
 * the errors recorded against it.  A parent without any subtest and
 * without a skip or failure of its own ran nothing: an error, as in
 * kunit_parser.py ("0 tests run!").
 */
static void finish_status(struct parser *p, struct ktest *t)
{
	enum status st = t->own, sub = ST_NONE;
	size_t i;

	for (i = 0; i < t->subs.n; i++)
		sub = worse(sub, ((struct ktest *)t->subs.v[i])->status);

	if (t->is_parent && !t->is_main && !t->subs.n &&
	    (t->own == ST_PASS || t->own == ST_NONE) && !t->nerrors)
		add_error(p->r, t, "0 tests run");

	if (t->nerrors) {
		st = ST_ERROR;
	} else if (sub == ST_ERROR || sub == ST_FAIL) {
		/* A parent reported ok while a subtest failed: not ok. */
		st = worse(st == ST_SKIP ? ST_PASS : st, sub);
	} else if (st == ST_NONE) {
		st = sub;
	}
	t->status = st;
}

/*
 * The header of a test at p->i: "KTAP version N" and/or "# Subtest: NAME",
 * diagnostics, then an optional "1..N".  Returns the header's indentation,
 * which is also that of the test's own result lines; KUnit indents a
 * suite's header like its test cases, and prints the suite's result one
 * level out.
 */
static unsigned int parse_header(struct parser *p, struct ktest *t)
{
	struct kline *l = p->l[p->i];
	unsigned int indent = l->indent;
	size_t d0;
	long v = 0;

	if (l->kind == K_VERSION) {
		const char *s = l->text;
		int ktap = s[0] == 'K';

		parse_num(s + (ktap ? 13 : 12), &v);
		if ((ktap && v != 1) || (!ktap && (v < 13 || v > 14)))
			add_error(p->r, t, "unsupported version: %s", s);
		t->is_parent = 1;
		p->i++;
		if (p->i < p->n && p->l[p->i]->kind == K_SUBTEST)
			l = p->l[p->i];
	}
	if (p->i < p->n && l == p->l[p->i] && l->kind == K_SUBTEST) {
		t->name = xstrdup(skip_spaces(l->text + strlen("# Subtest:")));
		t->is_parent = 1;
		p->i++;
	}
	d0 = p->i;
	skip_diag(p);
	attach(p, t, d0, p->i);
	if (p->i < p->n && p->l[p->i]->kind == K_PLAN &&
	    p->l[p->i]->indent >= indent) {
		parse_num(p->l[p->i]->text + 3, &t->plan);
		p->i++;
	}
	return indent;
}

/**
 * parse_test() - parse a test with subtests (or a whole document)
 * @p: parser, at the test's header
 * @t: the test; for a document, @t->is_main is set
 * @outer: indentation of @t's result line (its parent's test lines)
 * @num: the number @t must have in its parent
 * @depth: nesting depth, bounded by MAX_DEPTH
 *
 * Follows kunit_parser.py's parse_test(), with indentation to tell where
 * a test ends when it was cut off: a line indented less than the test's
 * own lines belongs to an ancestor.  Subtests are parsed until then (or
 * the end of the document), and the plan is checked afterwards, so a
 * document cut off before its last result is an error, not a pass.
 */
static void parse_test(struct parser *p, struct ktest *t, unsigned int outer,
		       long num, int depth)
{
	unsigned int ind = 0;
	long count = 0;
	size_t d0;

	if (p->i < p->n && (p->l[p->i]->kind == K_VERSION ||
			    p->l[p->i]->kind == K_SUBTEST) &&
	    (!t->is_main || p->l[p->i]->indent == 0))
		ind = parse_header(p, t);

	for (;;) {
		struct kline *l;
		struct ktest *c;

		d0 = p->i;
		for (;;) {
			skip_diag(p);
			if (p->i >= p->n)
				break;
			l = p->l[p->i];
			/* Stray plans and headers at this level are diagnostics. */
			if (l->indent >= ind &&
			    (l->kind == K_PLAN ||
			     (l->kind == K_VERSION && l->indent == ind && t->is_main) ||
			     (l->kind == K_SUBTEST && l->indent == ind) ||
			     (l->kind != K_RESULT && depth >= MAX_DEPTH))) {
				l->kind = K_OTHER;
				continue;
			}
			break;
		}
		if (p->i >= p->n || p->l[p->i]->indent < ind) {
			attach(p, t, d0, p->i);
			break;
		}
		l = p->l[p->i];
		if (l->kind == K_VERSION && l->indent == ind) {
			/* A sibling's header: this test was cut off. */
			attach(p, t, d0, p->i);
			break;
		}
		c = test_new(t, t->doc);
		attach(p, c, d0, p->i);
		count++;
		vec_push(&t->subs, c);
		if (l->kind == K_RESULT) {
			c->name = parse_result(l->text, &c->own, &c->number,
					       &c->reason);
			p->i++;
			if (c->number != count)
				add_error(p->r, c, "expected test number %ld, found %ld",
					  count, c->number);
			if (c->own == ST_ERROR)
				add_error(p->r, c, "reported ERROR%s%s",
					  c->reason ? ": " : "",
					  c->reason ? c->reason : "");
			finish_status(p, c);
		} else {
			parse_test(p, c, ind, count, depth + 1);
		}
	}

	if (t->plan >= 0 && count > t->plan)
		add_error(p->r, t, "%ld tests reported, plan was 1..%ld",
			  count, t->plan);
	if (t->is_main && t->plan >= 0 && count < t->plan)
		add_error(p->r, t, "cut off: %ld of %ld planned tests reported",
			  count, t->plan);

	if (!t->is_main) {
		struct kline *l = p->i < p->n ? p->l[p->i] : NULL;
		char *name = NULL, *reason = NULL;
		enum status st = ST_NONE;
		long n = -1;

		/* kunit_parser.py: a result with another name is not ours. */
		if (l && l->kind == K_RESULT && l->indent >= outer &&
		    (l->indent < ind || ind == outer)) {
			name = parse_result(l->text, &st, &n, &reason);
			if (t->name && strcmp(name, t->name)) {
				free(name);
				free(reason);
				name = NULL;
			}
		}
		if (name) {
			p->i++;
			free(t->name);
			t->name = name;
			t->reason = reason;
			t->own = st;
			t->number = n;
			if (n != num)
				add_error(p->r, t, "expected test number %ld, found %ld",
					  num, n);
			if (st == ST_ERROR)
				add_error(p->r, t, "reported ERROR%s%s",
					  reason ? ": " : "", reason ? reason : "");
		}
		/* One error for one cut-off test, however it shows. */
		if (t->plan >= 0 && count < t->plan)
			add_error(p->r, t, "%s%ld of %ld planned tests reported%s",
				  name ? "" : "cut off: ", count, t->plan,
				  name ? "" : ", no result line");
		else if (!name)
			add_error(p->r, t, "cut off: no result line");
	}
	finish_status(p, t);
}

/**
 * parse_doc() - parse the lines of one KTAP document
 * @r: the run, which gets the document
 * @lines: its lines (struct kline *); they are consumed
 */
static void parse_doc(struct run *r, struct vec *lines)
{
	struct parser p = { .r = r, .l = (struct kline **)lines->v,
			    .n = lines->n, .i = 0 };
	struct ktest *t = test_new(NULL, (int)r->docs.n + 1);

	t->is_main = 1;
	vec_push(&r->docs, t);
	parse_test(&p, t, 0, 0, 0);
	vec_free(lines, kline_free);
}

/* ------------------------------------------------------------------ */
/* Extraction: console lines to KTAP documents                          */

/*
 * Does @line start with the document prefix @prefix?  A timestamp in the
 * prefix matches any timestamp, the rest must be equal.  Returns what
 * follows the prefix, NULL if the line does not carry it (then it is not
 * part of the document's KTAP, e.g. init's output without timestamps).
 */
static const char *prefix_strip(const char *prefix, const char *line)
{
	size_t a, b;

	while (*prefix) {
		a = timestamp_len(prefix);
		b = timestamp_len(line);
		if (a && b) {
			prefix += a;
			line += b;
			continue;
		}
		if (*prefix != *line)
			return NULL;
		prefix++;
		line++;
	}
	return line;
}

static void add_kline(struct extractor *x, const char *text, const char *msg,
		      unsigned int indent, enum kind kind, unsigned int flags)
{
	struct kline *l = xmalloc(sizeof(*l));

	l->text = xstrdup(text);
	l->msg = xstrdup(msg);
	l->indent = indent;
	l->kind = kind;
	l->flags = flags;
	vec_push(&x->lines, l);
}

static void end_doc(struct run *r, struct extractor *x)
{
	if (!x->in_doc)
		return;
	parse_doc(r, &x->lines);
	free(x->prefix);
	x->prefix = NULL;
	x->in_doc = 0;
	x->gap_crash = 0;
}

static void doc_line(struct run *r, struct extractor *x, const char *rest,
		     const char *msg, unsigned int flags);

/*
 * A document starts at @line, whose version line starts at offset @pos.
 * The prefix is what precedes it (kunit_parser.py); after a timestamp the
 * first blank belongs to the prefix and the others are indentation.
 */
static void start_doc(struct run *r, struct extractor *x, const char *line,
		      long pos)
{
	long end = pos;

	while (end > 0 && line[end - 1] == ' ')
		end--;
	if (end > 0 && line[end - 1] == ']' && end < pos)
		end++;
	else if (end > 0)
		end = pos;
	x->prefix = xmalloc(end + 1);
	memcpy(x->prefix, line, end);
	x->prefix[end] = '\0';
	x->in_doc = 1;
	x->plan = -1;
	x->top_results = 0;
	x->seen_result = 0;
	x->gap_crash = 0;
	doc_line(r, x, line + end, msg_start(line + end), 0);
}

/* A line of the current document, after its prefix. */
static void doc_line(struct run *r, struct extractor *x, const char *rest,
		     const char *msg, unsigned int flags)
{
	const char *body = rest;
	unsigned int indent = 0;
	enum kind kind;

	while (*body == ' ') {
		body++;
		indent++;
	}
	kind = classify(body);
	add_kline(x, body, msg, indent, kind, flags);
	if (indent)
		return;
	/* The top-level plan says when the document is complete. */
	if (kind == K_PLAN && x->plan < 0 && !x->seen_result) {
		parse_num(body + 3, &x->plan);
	} else if (kind == K_RESULT) {
		x->seen_result = 1;
		x->top_results++;
	} else if (kind == K_SUBTEST) {
		x->seen_result = 1;
	}
	if (x->plan >= 0 && x->top_results >= x->plan)
		end_doc(r, x);
}

/* A crash, error or warning line outside any KTAP document. */
static void outside_line(struct run *r, struct extractor *x, const char *msg,
			 unsigned int flags)
{
	if ((flags & LF_CRASH) && !x->gap_crash) {
		x->gap_crash = 1;
		add_error(r, NULL, "crash outside KTAP output: %s", msg);
	} else if (flags & LF_ERRLINE) {
		add_error(r, NULL, "%s", msg);
	}
	if (flags & LF_WARN)
		vec_push(&r->warnings, xstrdup(msg));
}

/**
 * feed_line() - take one clean console line
 * @r: the run
 * @x: extraction state
 * @line: the line, from clean_line()
 *
 * Outside a document, a line ending in "KTAP version N" (or "TAP version
 * N") starts one.  Inside, lines carrying the document's prefix are KTAP;
 * others (say, the guest's output between kernel lines) are kept as
 * diagnostics.  A document ends when its top-level plan is complete, at a
 * new top-level version line, at the lines after which the kernel prints
 * no more tests, or at the end of the log.
 */
static void feed_line(struct run *r, struct extractor *x, const char *line)
{
	const char *rest, *msg;
	unsigned int flags;
	long pos;

	if (!x->in_doc) {
		pos = find_version(line);
		if (pos >= 0) {
			start_doc(r, x, line, pos);
			return;
		}
		msg = msg_start(line);
		flags = line_flags(msg);
		if (flags & LF_CRASH && !r->crash)
			r->crash = xstrdup(msg);
		outside_line(r, x, msg, flags);
		return;
	}

	rest = prefix_strip(x->prefix, line);
	msg = msg_start(rest ? rest : line);
	flags = line_flags(msg);
	if (flags & LF_CRASH && !r->crash)
		r->crash = xstrdup(msg);

	if (!rest) {
		pos = find_version(line);
		if (pos >= 0 && (pos == 0 || line[pos - 1] != ' ')) {
			/* Another source's top-level KTAP: a new document. */
			end_doc(r, x);
			start_doc(r, x, line, pos);
			return;
		}
		add_kline(x, msg, msg, 0, K_OTHER, flags);
		return;
	}
	if (is_ktap_end(msg)) {
		end_doc(r, x);
		outside_line(r, x, msg, flags);
		return;
	}
	if (rest[0] != ' ' && classify(rest) == K_VERSION) {
		end_doc(r, x);
		start_doc(r, x, line, rest - line);
		return;
	}
	doc_line(r, x, rest, msg, flags);
}

/* ------------------------------------------------------------------ */
/* Results                                                              */

static void count_tests(struct run *r, const struct ktest *t)
{
	size_t i;

	for (i = 0; i < t->subs.n; i++)
		count_tests(r, t->subs.v[i]);
	if (t->is_main || t->subs.n)
		return;
	if (t->status == ST_PASS)
		r->counts.passed++;
	else if (t->status == ST_FAIL)
		r->counts.failed++;
	else if (t->status == ST_SKIP)
		r->counts.skipped++;
}

static int find_test(const struct ktest *t, const char *name)
{
	size_t i;

	if (!t->is_main && t->name && !strcmp(t->name, name))
		return 1;
	for (i = 0; i < t->subs.n; i++)
		if (find_test(t->subs.v[i], name))
			return 1;
	return 0;
}

/**
 * finish_run() - counts, missing suites and the overall status
 * @r: the run
 * @expect: expected suite names
 * @nexpect: how many
 * @ktap_found: at least one KTAP document was seen
 *
 * MISS (set by the caller's reasons) > ERROR (any error: crash, cut-off,
 * bad plan, missing suite, no tests at all) > FAIL > PASS; SKIP only when
 * every test was skipped.
 */
static void finish_run(struct run *r, char **expect, int nexpect, int ktap_found)
{
	size_t i;
	int j;

	for (i = 0; i < r->docs.n; i++)
		count_tests(r, r->docs.v[i]);
	for (j = 0; j < nexpect; j++) {
		int found = 0;

		for (i = 0; i < r->docs.n && !found; i++)
			found = find_test(r->docs.v[i], expect[j]);
		if (!found) {
			vec_push(&r->missing, xstrdup(expect[j]));
			add_error(r, NULL, "expected suite %s not found", expect[j]);
		}
	}
	if (ktap_found && !r->counts.passed && !r->counts.failed &&
	    !r->counts.skipped)
		add_error(r, NULL, "no test results: a run with zero tests is not a pass");
	if (!ktap_found)
		vec_push(&r->miss, xstrdup("no KTAP output found"));
	r->counts.errors = (long)r->errors.n;

	if (r->miss.n)
		r->status = ST_MISS;
	else if (r->counts.errors)
		r->status = ST_ERROR;
	else if (r->counts.failed)
		r->status = ST_FAIL;
	else if (r->counts.passed)
		r->status = ST_PASS;
	else
		r->status = ST_SKIP;
}

static void list_failed(const struct ktest *t, int *listed)
{
	size_t i;
	char *path;

	for (i = 0; i < t->subs.n; i++)
		list_failed(t->subs.v[i], listed);
	if (t->is_main || t->subs.n || t->status != ST_FAIL)
		return;
	if (++*listed <= MAX_LISTED) {
		path = test_path(t);
		printf("  FAIL %s\n", path);
		free(path);
	}
}

/**
 * print_summary() - the one-line summary, then what went wrong
 * @r: the finished run
 *
 * "NAME: STATUS: P passed, F failed, S skipped, E errors (suites: ...)";
 * unless the run passed: one line per failed test, per error, per reason
 * for MISS, and the first crash line.
 */
static void print_summary(const struct run *r)
{
	size_t i, j;
	int listed = 0, nsuites = 0;

	printf("%s: %s: %ld passed, %ld failed, %ld skipped, %ld errors (suites:",
	       r->name, status_name[r->status], r->counts.passed,
	       r->counts.failed, r->counts.skipped, r->counts.errors);
	for (i = 0; i < r->docs.n; i++) {
		const struct ktest *d = r->docs.v[i];

		for (j = 0; j < d->subs.n; j++) {
			const struct ktest *s = d->subs.v[j];

			if (++nsuites <= MAX_LISTED)
				printf(" %s", s->name && *s->name ? s->name : "?");
		}
	}
	if (nsuites > MAX_LISTED)
		printf(" ... %d in all", nsuites);
	printf("%s)\n", nsuites ? "" : " none");
	if (r->status == ST_PASS || r->status == ST_SKIP)
		return;

	for (i = 0; i < r->docs.n; i++)
		list_failed(r->docs.v[i], &listed);
	for (i = 0; i < r->errors.n; i++) {
		const struct run_error *e = r->errors.v[i];

		if (++listed > MAX_LISTED)
			continue;
		if (e->test) {
			char *path = test_path(e->test);

			printf("  ERROR %s: %s\n", path, e->msg);
			free(path);
		} else {
			printf("  ERROR %s\n", e->msg);
		}
	}
	if (listed > MAX_LISTED)
		printf("  ... and %d more\n", listed - MAX_LISTED);
	for (i = 0; i < r->miss.n; i++)
		printf("  MISS %s\n", (const char *)r->miss.v[i]);
	if (r->crash)
		printf("  crash: %s\n", r->crash);
}

/* ------------------------------------------------------------------ */
/* JSON                                                                 */

static void json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void json_strs(FILE *f, const struct vec *v)
{
	size_t i;

	fputc('[', f);
	for (i = 0; i < v->n; i++) {
		if (i)
			fputc(',', f);
		json_str(f, v->v[i]);
	}
	fputc(']', f);
}

static void json_test(FILE *f, const struct ktest *t, int is_suite)
{
	size_t i;

	fputs("{\"name\":", f);
	json_str(f, t->name);
	fprintf(f, ",\"status\":\"%s\"", status_name[t->status]);
	if (t->number >= 0)
		fprintf(f, ",\"number\":%ld", t->number);
	else
		fputs(",\"number\":null", f);
	if (is_suite)
		fprintf(f, ",\"document\":%d", t->doc);
	fputs(",\"reason\":", f);
	json_str(f, t->reason);
	fputs(",\"diagnostics\":", f);
	json_strs(f, &t->diags);
	fputs(",\"tests\":[", f);
	for (i = 0; i < t->subs.n; i++) {
		if (i)
			fputc(',', f);
		json_test(f, t->subs.v[i], 0);
	}
	fputs("]}", f);
}

/**
 * write_json() - the results as one JSON object
 * @r: the finished run
 * @f: where to write
 *
 * {name, status, counts:{passed,failed,skipped,errors}, suites:[test...],
 * crash, missing_suites, miss, errors:[{test,message}], warnings,
 * documents}; a test is {name, status, number, reason, diagnostics,
 * tests:[test...]}, a suite (a document's top-level test) adds document.
 */
static void write_json(const struct run *r, FILE *f)
{
	size_t i, j;
	int first = 1;

	fputs("{\"name\":", f);
	json_str(f, r->name);
	fprintf(f, ",\"status\":\"%s\",\"counts\":{\"passed\":%ld,\"failed\":%ld,"
		"\"skipped\":%ld,\"errors\":%ld},\"suites\":[",
		status_name[r->status], r->counts.passed, r->counts.failed,
		r->counts.skipped, r->counts.errors);
	for (i = 0; i < r->docs.n; i++) {
		const struct ktest *d = r->docs.v[i];

		for (j = 0; j < d->subs.n; j++) {
			if (!first)
				fputc(',', f);
			first = 0;
			fputc('\n', f);
			json_test(f, d->subs.v[j], 1);
		}
	}
	fputs("],\n\"crash\":", f);
	json_str(f, r->crash);
	fputs(",\"missing_suites\":", f);
	json_strs(f, &r->missing);
	fputs(",\"miss\":", f);
	json_strs(f, &r->miss);
	fputs(",\"errors\":[", f);
	for (i = 0; i < r->errors.n; i++) {
		const struct run_error *e = r->errors.v[i];
		char *path = e->test ? test_path(e->test) : NULL;

		fputs(i ? ",{\"test\":" : "{\"test\":", f);
		json_str(f, path);
		fputs(",\"message\":", f);
		json_str(f, e->msg);
		fputc('}', f);
		free(path);
	}
	fputs("],\"warnings\":", f);
	json_strs(f, &r->warnings);
	fprintf(f, ",\"documents\":%zu}\n", r->docs.n);
}

/* ------------------------------------------------------------------ */
/* JUnit XML                                                            */

static void xml_str(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&apos;", f);
			break;
		case '\t':
			fputs("&#9;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

struct junit {
	FILE *f;		/* NULL: only count */
	const struct run *r;
	long tests, failures, errors, skipped;
};

/* Diagnostics and error messages of @t as the text of an element. */
static void junit_body(struct junit *j, const struct ktest *t)
{
	size_t i;

	for (i = 0; i < j->r->errors.n; i++) {
		const struct run_error *e = j->r->errors.v[i];

		if (e->test == t) {
			xml_str(j->f, e->msg);
			fputc('\n', j->f);
		}
	}
	for (i = 0; i < t->diags.n; i++) {
		xml_str(j->f, t->diags.v[i]);
		fputc('\n', j->f);
	}
}

static void junit_case(struct junit *j, const char *suite, const char *name,
		       const struct ktest *t)
{
	const char *msg = t->reason ? t->reason : "";

	j->tests++;
	if (t->status == ST_FAIL)
		j->failures++;
	else if (t->status == ST_ERROR)
		j->errors++;
	else if (t->status == ST_SKIP)
		j->skipped++;
	if (!j->f)
		return;
	fputs("    <testcase classname=\"", j->f);
	xml_str(j->f, suite);
	fputs("\" name=\"", j->f);
	xml_str(j->f, name);
	fputs("\">", j->f);
	if (t->status == ST_FAIL || t->status == ST_ERROR) {
		fprintf(j->f, "<%s message=\"", t->status == ST_FAIL ? "failure" : "error");
		xml_str(j->f, t->status == ST_FAIL ? (*msg ? msg : "not ok") :
			t->crashed ? "crash" : "error");
		fputs("\">", j->f);
		junit_body(j, t);
		fputs(t->status == ST_FAIL ? "</failure>" : "</error>", j->f);
	} else if (t->status == ST_SKIP) {
		fputs("<skipped message=\"", j->f);
		xml_str(j->f, msg);
		fputs("\"/>", j->f);
	}
	fputs("</testcase>\n", j->f);
}

/*
 * Leaves become test cases named by their path below the suite; a parent
 * that has errors of its own (cut off, crash) gets a test case too.
 */
static void junit_walk(struct junit *j, const struct ktest *suite,
		       const struct ktest *t)
{
	size_t i;
	char *path, *name;

	for (i = 0; i < t->subs.n; i++)
		junit_walk(j, suite, t->subs.v[i]);
	if (t->subs.n && !t->nerrors)
		return;
	path = test_path(t);
	name = path;
	if (t != suite && starts_with(path, suite->name ? suite->name : "") &&
	    path[strlen(suite->name ? suite->name : "")] == '.')
		name = path + strlen(suite->name) + 1;
	junit_case(j, suite->name ? suite->name : "", name, t);
	free(path);
}

static void junit_suite(struct junit *j, const struct ktest *s)
{
	struct junit c = { .f = NULL, .r = j->r };

	junit_walk(&c, s, s);
	j->tests += c.tests;
	j->failures += c.failures;
	j->errors += c.errors;
	j->skipped += c.skipped;
	if (!j->f)
		return;
	fputs("  <testsuite name=\"", j->f);
	xml_str(j->f, s->name ? s->name : "");
	fprintf(j->f, "\" tests=\"%ld\" failures=\"%ld\" errors=\"%ld\" skipped=\"%ld\">\n",
		c.tests, c.failures, c.errors, c.skipped);
	c.f = j->f;
	junit_walk(&c, s, s);
	fputs("  </testsuite>\n", j->f);
}

/* Errors of no suite: of the run, or of a whole document (cut off). */
static int run_level(const struct run_error *e)
{
	return !e->test || e->test->is_main;
}

/* Run-level errors (missing suites, crashes outside tests, MISS). */
static void junit_run_errors(struct junit *j)
{
	size_t i, n = 0;
	const struct run *r = j->r;

	for (i = 0; i < r->errors.n; i++)
		n += run_level(r->errors.v[i]);
	n += r->miss.n;
	if (!n)
		return;
	j->tests++;
	j->errors++;
	if (!j->f)
		return;
	fputs("  <testsuite name=\"", j->f);
	xml_str(j->f, r->name);
	fputs("\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\">\n", j->f);
	fputs("    <testcase classname=\"", j->f);
	xml_str(j->f, r->name);
	fprintf(j->f, "\" name=\"boot\"><error message=\"%s\">",
		r->miss.n ? "MISS" : "ERROR");
	for (i = 0; i < r->miss.n; i++) {
		xml_str(j->f, r->miss.v[i]);
		fputc('\n', j->f);
	}
	for (i = 0; i < r->errors.n; i++) {
		const struct run_error *e = r->errors.v[i];

		if (run_level(e)) {
			if (e->test) {
				char *path = test_path(e->test);

				xml_str(j->f, path);
				fputs(": ", j->f);
				free(path);
			}
			xml_str(j->f, e->msg);
			fputc('\n', j->f);
		}
	}
	if (r->crash) {
		fputs("crash: ", j->f);
		xml_str(j->f, r->crash);
		fputc('\n', j->f);
	}
	fputs("</error></testcase>\n  </testsuite>\n", j->f);
}

/**
 * write_junit() - the results as JUnit XML
 * @r: the finished run
 * @f: where to write
 *
 * One <testsuite> per suite, one <testcase> per leaf test (nested ones
 * named by their dotted path), with <failure>, <error> or <skipped>; a
 * last <testsuite> named after the run carries run-level errors.
 */
static void write_junit(const struct run *r, FILE *f)
{
	struct junit j = { .f = NULL, .r = r };
	size_t i, k;
	int pass;

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	for (pass = 0; pass < 2; pass++) {
		if (pass) {
			fputs("<testsuites name=\"", f);
			xml_str(f, r->name);
			fprintf(f, "\" tests=\"%ld\" failures=\"%ld\" errors=\"%ld\" skipped=\"%ld\">\n",
				j.tests, j.failures, j.errors, j.skipped);
			j.f = f;
		}
		for (i = 0; i < r->docs.n; i++) {
			const struct ktest *d = r->docs.v[i];

			for (k = 0; k < d->subs.n; k++)
				junit_suite(&j, d->subs.v[k]);
		}
		junit_run_errors(&j);
	}
	fputs("</testsuites>\n", f);
}

/*
 * An output is written to a temporary file created exclusively beside it
 * (same directory, so the rename is atomic), checked, fsync'ed and renamed
 * over the target only when every output is complete: on a full disk or a
 * failed write the old files stay as they were and nothing is left behind.
 */
struct output {
	const char *path;
	char *tmp;
	void (*fn)(const struct run *r, FILE *f);
};

/* out_fail() - one error line for @o, its temporary file removed. */
static int out_fail(struct output *o, const char *why)
{
	fprintf(stderr, "%s: error: %s: cannot write it (%s); the old one is kept\n",
		prog, o->path, why);
	if (o->tmp) {
		unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
	}
	return -1;
}

static int out_prepare(struct output *o, const struct run *r)
{
	const char *slash = strrchr(o->path, '/');
	struct stat st;
	mode_t mask;
	FILE *f;
	int fd, err;

	if (!lstat(o->path, &st) && S_ISLNK(st.st_mode)) {
		fprintf(stderr, "%s: error: %s: a symlink: refusing to write through it\n",
			prog, o->path);
		return -1;
	}
	if (slash)
		o->tmp = xasprintf("%.*s/.%s.tmp.XXXXXX", (int)(slash - o->path),
				   o->path, slash + 1);
	else
		o->tmp = xasprintf(".%s.tmp.XXXXXX", o->path);
	fd = mkstemp(o->tmp);	/* O_CREAT | O_EXCL */
	if (fd < 0) {
		free(o->tmp);
		o->tmp = NULL;
		return out_fail(o, strerror(errno));
	}
	/* The mode a plain fopen() would have given, not mkstemp's 0600. */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask)) {
		err = errno;
		close(fd);
		return out_fail(o, strerror(err));
	}
	f = fdopen(fd, "w");
	if (!f) {
		err = errno;
		close(fd);
		return out_fail(o, strerror(err));
	}
	errno = 0;
	o->fn(r, f);
	if (fflush(f) || ferror(f)) {
		err = errno ? errno : EIO;
		fclose(f);
		return out_fail(o, strerror(err));
	}
	if (fsync(fileno(f))) {
		err = errno;
		fclose(f);
		return out_fail(o, strerror(err));
	}
	if (fclose(f))
		return out_fail(o, strerror(errno));
	return 0;
}

static int out_commit(struct output *o)
{
	if (rename(o->tmp, o->path))
		return out_fail(o, strerror(errno));
	free(o->tmp);
	o->tmp = NULL;
	return 0;
}

/*
 * write_outputs() - the @n outputs of @outs, all or none: each is prepared
 * in full before any is renamed into place.
 */
static int write_outputs(struct output *outs, int n, const struct run *r)
{
	int i, rc = 0;

	for (i = 0; i < n && !rc; i++)
		rc = out_prepare(&outs[i], r);
	for (i = 0; i < n; i++) {
		if (rc) {
			if (outs[i].tmp) {
				unlink(outs[i].tmp);
				free(outs[i].tmp);
				outs[i].tmp = NULL;
			}
		} else if (out_commit(&outs[i])) {
			rc = -1;
		}
	}
	return rc;
}

/* ------------------------------------------------------------------ */

static void usage(FILE *f)
{
	fprintf(f,
"Usage: ktap-parse [OPTIONS] CONSOLE_LOG\n"
"\n"
"Find the KTAP output in a boot console log (\"-\": stdin) and report one\n"
"status: PASS, FAIL (a test said not ok), SKIP (everything skipped),\n"
"ERROR (a crash, a document cut off, a plan that does not match, an\n"
"expected suite missing, no tests at all) or MISS (no KTAP, no end marker,\n"
"boot timed out).  MISS > ERROR > FAIL > PASS.\n"
"\n"
"Options:\n"
"  --expect SUITE      SUITE must appear (repeatable)\n"
"  --end-marker STR    a line must contain STR, else MISS\n"
"  --timed-out         the boot timed out: MISS\n"
"  --warn-error        a \"WARNING:\" line is an error, like a crash\n"
"  --json FILE         write the results as JSON\n"
"  --junit FILE        write the results as JUnit XML\n"
"  --name RUNNAME      name of the run (default: the log's file name)\n"
"  -h, --help          this text\n"
"\n"
"Exit codes: 0 PASS or SKIP, 1 FAIL, 2 ERROR, 3 MISS, 4 usage or I/O error.\n");
}

static char *default_name(const char *path)
{
	const char *b = strrchr(path, '/');
	char *s, *dot;

	s = xstrdup(b ? b + 1 : path);
	dot = strrchr(s, '.');
	if (dot && dot != s)
		*dot = '\0';
	return s;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "expect", required_argument, NULL, 'e' },
		{ "end-marker", required_argument, NULL, 'm' },
		{ "timed-out", no_argument, NULL, 't' },
		{ "warn-error", no_argument, NULL, 'w' },
		{ "json", required_argument, NULL, 'j' },
		{ "junit", required_argument, NULL, 'x' },
		{ "name", required_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *json = NULL, *junit = NULL, *path;
	char *marker = NULL;
	char **expect = NULL, *name = NULL, *buf = NULL;
	int nexpect = 0, timed_out = 0, marker_seen = 0, ktap_found = 0;
	int c, rc = 0;
	struct extractor x = { 0 };
	struct run r = { 0 };
	struct output outs[2];
	int nouts = 0;
	size_t cap = 0;
	ssize_t len;
	FILE *in;

	opterr = 0;	/* one line of error, ours */
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'e':
			expect = xrealloc(expect, (nexpect + 1) * sizeof(*expect));
			expect[nexpect++] = optarg;
			break;
		case 'm':
			marker = optarg;
			break;
		case 't':
			timed_out = 1;
			break;
		case 'w':
			warn_is_error = 1;
			break;
		case 'j':
			json = optarg;
			break;
		case 'x':
			junit = optarg;
			break;
		case 'n':
			name = xstrdup(optarg);
			break;
		case 'h':
			usage(stdout);
			return EXIT_PASS;
		default:
			fprintf(stderr, "%s: error: bad option '%s' (see --help)\n",
				prog, argv[optind - 1]);
			return EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "%s: error: expected one CONSOLE_LOG\n", prog);
		return EXIT_USAGE;
	}
	path = argv[optind];
	in = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!in)
		fatal("%s: %s", path, strerror(errno));
	r.name = name ? name : (name = default_name(path));
	/*
	 * The run's name, the marker and the expected suites reach the JSON
	 * and the XML (and are matched against cleaned lines): cleaned alike,
	 * invalid UTF-8 and control characters made '?'.
	 */
	clean_line(name, strlen(name));
	if (marker)
		clean_line(marker, strlen(marker));
	for (c = 0; c < nexpect; c++)
		clean_line(expect[c], strlen(expect[c]));

	while ((len = getline(&buf, &cap, in)) >= 0) {
		if (len > 0 && buf[len - 1] == '\n')
			len--;
		clean_line(buf, (size_t)len);
		if (marker && !marker_seen && strstr(buf, marker))
			marker_seen = 1;
		if (!x.in_doc && find_version(buf) >= 0)
			ktap_found = 1;
		feed_line(&r, &x, buf);
	}
	if (ferror(in))
		fatal("%s: read error", path);
	if (in != stdin)
		fclose(in);
	free(buf);
	end_doc(&r, &x);

	if (marker && !marker_seen)
		vec_push(&r.miss, xasprintf("end marker '%s' not found", marker));
	if (timed_out)
		vec_push(&r.miss, xstrdup("boot timed out"));
	finish_run(&r, expect, nexpect, ktap_found);
	print_summary(&r);
	fflush(stdout);

	if (json)
		outs[nouts++] = (struct output){ .path = json, .fn = write_json };
	if (junit)
		outs[nouts++] = (struct output){ .path = junit, .fn = write_junit };
	if (write_outputs(outs, nouts, &r))
		rc = EXIT_USAGE;
	if (!rc) {
		switch (r.status) {
		case ST_MISS:
			rc = EXIT_MISSED;
			break;
		case ST_ERROR:
			rc = EXIT_ERRORED;
			break;
		case ST_FAIL:
			rc = EXIT_FAILED;
			break;
		default:
			rc = EXIT_PASS;
		}
	}

	vec_free(&r.docs, test_free);
	vec_free(&r.errors, error_free);
	vec_free(&r.warnings, free);
	vec_free(&r.missing, free);
	vec_free(&r.miss, free);
	free(r.crash);
	free(name);
	free(expect);
	return rc;
}
