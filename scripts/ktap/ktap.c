// SPDX-License-Identifier: GPL-2.0
/*
 * ktap.c - the KTAP parser of ktap-parse: console lines in, a struct
 * ktap_run out.
 *
 * Follows Documentation/dev-tools/ktap.rst (KTAP version 1) and the
 * extraction and nesting rules of tools/testing/kunit/kunit_parser.py, with
 * what a boot harness needs on top: several KTAP documents in one log
 * (KUnit's at boot, then the guest init's own), crash detection, and an
 * overall status with a precedence (MISS > ERROR > FAIL > PASS, SKIP only
 * when everything was skipped).  The JSON and JUnit writers read the
 * struct ktap_run this makes, nothing else of this file.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ktap.h"

/* Console lines longer than this are kept truncated: no KTAP line is. */
#define MAX_LINE	4096
/* Deeper nesting than this is treated as diagnostics, to bound recursion. */
#define MAX_DEPTH	32
/* Failing tests and suites listed in the summary before "... and N more". */
#define MAX_LISTED	20

static const char *const status_names[] = {
	[KTAP_NONE] = "NONE", [KTAP_PASS] = "PASS", [KTAP_SKIP] = "SKIP",
	[KTAP_FAIL] = "FAIL", [KTAP_ERROR] = "ERROR", [KTAP_MISS] = "MISS",
};

/**
 * ktap_status_name() - the name of a status, as the summary and JSON show it
 * @st: the status
 *
 * Return: "PASS", "FAIL"... (a static string).
 */
const char *ktap_status_name(enum ktap_status st)
{
	return status_names[st];
}

/* What a KTAP line is, once the console prefix and indentation are gone. */
enum kind { K_OTHER, K_VERSION, K_SUBTEST, K_PLAN, K_RESULT };

#define LF_CRASH	0x1	/* Oops, BUG:, panic...: the run is an ERROR */
#define LF_ERRLINE	0x2	/* "kunit executor: ..." or "Bail out!" */
#define LF_WARN		0x4	/* "WARNING:": reported, an error with --warn-error */

/**
 * struct kline - one console line that belongs to a KTAP document
 * @text: the line without the document's prefix and without indentation
 *	(for a line without that prefix: without its timestamp)
 * @msg: the message without timestamp, for crash and error reports
 * @raw: the whole console line while it is pending (see after_plan_line()),
 *	else NULL
 * @indent: leading spaces after the prefix
 * @kind: what the line is
 * @flags: LF_* flags
 */
struct kline {
	char *text;
	char *msg;
	char *raw;
	unsigned int indent;
	enum kind kind;
	unsigned int flags;
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
 * @complete: the top-level plan is complete (after_plan_line())
 * @npending: lines at the end of @lines that came after the plan was
 *	complete and that no result of the document followed yet
 * @gap_crash: a crash outside any document was recorded since the last one
 */
struct extractor {
	int in_doc;
	char *prefix;
	struct vec lines;
	long plan;
	long top_results;
	int seen_result;
	int complete;
	size_t npending;
	int gap_crash;
};

/**
 * struct ktap_parser - the state of one log's parse
 * @r: the run being made
 * @x: the extractor
 * @expect: expected suites, cleaned
 * @nexpect: how many
 * @marker: the end marker, cleaned, or NULL
 * @marker_seen: a line contained it
 * @timed_out: the boot timed out
 * @warn_error: "WARNING:" is an error
 * @ktap_found: a KTAP document was seen
 */
struct ktap_parser {
	struct ktap_run *r;
	struct extractor x;
	char **expect;
	int nexpect;
	char *marker;
	int marker_seen;
	int timed_out;
	int warn_error;
	int ktap_found;
};

/* ------------------------------------------------------------------ */
/* Small helpers                                                        */

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
 * @p: the parser (--warn-error)
 * @msg: the message, from msg_start()
 *
 * Only the start of the message is looked at: a KUnit diagnostic that
 * mentions "BUG:" starts with '#' and is not a crash.
 *
 * Return: LF_* flags, 0 for an ordinary line.
 */
static unsigned int line_flags(const struct ktap_parser *p, const char *msg)
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
		return p->warn_error ? LF_WARN | LF_CRASH : LF_WARN;
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
 * @status: set to KTAP_PASS, KTAP_FAIL, KTAP_SKIP or KTAP_ERROR
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
static char *parse_result(const char *t, enum ktap_status *status, long *number,
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

	*status = ok ? KTAP_PASS : KTAP_FAIL;
	*reason = NULL;
	if (!hash)
		return name;
	d = skip_spaces(hash + 1);
	if (!strncasecmp(d, "SKIP", 4) && (d[4] == '\0' || d[4] == ' ')) {
		*status = KTAP_SKIP;
		d = skip_spaces(d + 4);
	} else if (!ok && !strncasecmp(d, "ERROR", 5) &&
		   (d[5] == '\0' || d[5] == ' ')) {
		*status = KTAP_ERROR;
		d = skip_spaces(d + 5);
	}
	if (*d)
		*reason = xstrdup(d);
	return name;
}

/* ------------------------------------------------------------------ */
/* Tests and errors                                                     */

static struct ktap_test *test_new(struct ktap_test *parent, int doc)
{
	struct ktap_test *t = xmalloc(sizeof(*t));

	memset(t, 0, sizeof(*t));
	t->number = -1;
	t->plan = -1;
	t->parent = parent;
	t->doc = doc;
	return t;
}

static void test_free(void *p)
{
	struct ktap_test *t = p;

	vec_free(&t->subs, test_free);
	vec_free(&t->diags, free);
	vec_free(&t->errors, NULL);
	free(t->name);
	free(t->reason);
	free(t);
}

/**
 * ktap_test_path() - the name of a test for a report
 * @t: the test, or NULL
 *
 * Return: a new string, the dotted path of @t below its document
 * ("memcpy.memcpy_test"), "KTAP document N" for a document itself.
 */
char *ktap_test_path(const struct ktap_test *t)
{
	const struct ktap_test *u;
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
add_error(struct ktap_run *r, struct ktap_test *t, const char *fmt, ...)
{
	struct ktap_error *e = xmalloc(sizeof(*e));
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&e->msg, fmt, ap) < 0)
		fatal("out of memory");
	va_end(ap);
	e->test = t;
	if (t)
		vec_push(&t->errors, e);
	vec_push(&r->errors, e);
}

static void error_free(void *p)
{
	struct ktap_error *e = p;

	free(e->msg);
	free(e);
}

static void kline_free(void *p)
{
	struct kline *l = p;

	free(l->text);
	free(l->msg);
	free(l->raw);
	free(l);
}

/* ------------------------------------------------------------------ */
/* The recursive descent over one document                              */

struct descent {
	struct ktap_run *r;
	struct kline **l;
	size_t n, i;
};

/*
 * Diagnostic lines [from, to) belong to @t: keep them, and charge @t with
 * the first crash and each error line among them.
 */
static void attach(struct descent *p, struct ktap_test *t, size_t from, size_t to)
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
static void skip_diag(struct descent *p)
{
	while (p->i < p->n && p->l[p->i]->kind == K_OTHER)
		p->i++;
}

static enum ktap_status worse(enum ktap_status a, enum ktap_status b)
{
	static const int rank[] = {
		[KTAP_NONE] = 0, [KTAP_SKIP] = 1, [KTAP_PASS] = 2,
		[KTAP_FAIL] = 3, [KTAP_ERROR] = 4, [KTAP_MISS] = 5,
	};

	return rank[a] >= rank[b] ? a : b;
}

/*
 * Final status of @t: its own result, made worse by its subtests and by
 * the errors recorded against it.  A parent without any subtest and
 * without a skip or failure of its own ran nothing: an error, as in
 * kunit_parser.py ("0 tests run!").
 */
static void finish_status(struct descent *p, struct ktap_test *t)
{
	enum ktap_status st = t->own, sub = KTAP_NONE;
	size_t i;

	for (i = 0; i < t->subs.n; i++)
		sub = worse(sub, ((struct ktap_test *)t->subs.v[i])->status);

	if (t->is_parent && !t->is_main && !t->subs.n &&
	    (t->own == KTAP_PASS || t->own == KTAP_NONE) && !t->errors.n)
		add_error(p->r, t, "0 tests run");

	if (t->errors.n) {
		st = KTAP_ERROR;
	} else if (sub == KTAP_ERROR || sub == KTAP_FAIL) {
		/* A parent reported ok while a subtest failed: not ok. */
		st = worse(st == KTAP_SKIP ? KTAP_PASS : st, sub);
	} else if (st == KTAP_NONE) {
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
static unsigned int parse_header(struct descent *p, struct ktap_test *t)
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
 * document cut off before its last result is an error, not a pass, and
 * so is one with more results than its plan.  A plan at the test's level
 * after its header is its plan when it had none (TAP's plan after the
 * results), else an error unless it repeats the plan.
 */
static void parse_test(struct descent *p, struct ktap_test *t, unsigned int outer,
		       long num, int depth)
{
	unsigned int ind = 0;
	long count = 0, late_plan = 0;
	int late = 0;
	size_t d0;

	if (p->i < p->n && (p->l[p->i]->kind == K_VERSION ||
			    p->l[p->i]->kind == K_SUBTEST) &&
	    (!t->is_main || p->l[p->i]->indent == 0))
		ind = parse_header(p, t);

	for (;;) {
		struct kline *l;
		struct ktap_test *c;

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
				/* ... but a plan at this level is still checked. */
				if (l->kind == K_PLAN && l->indent == ind) {
					parse_num(l->text + 3, &late_plan);
					if (t->plan < 0) {
						t->plan = late_plan;
						late = 1;
					} else if (late_plan != t->plan) {
						add_error(p->r, t, "a second plan 1..%ld, the plan was 1..%ld",
							  late_plan, t->plan);
					}
				}
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
			if (c->own == KTAP_ERROR)
				add_error(p->r, c, "reported ERROR%s%s",
					  c->reason ? ": " : "",
					  c->reason ? c->reason : "");
			finish_status(p, c);
		} else {
			parse_test(p, c, ind, count, depth + 1);
		}
	}

	if (t->plan >= 0 && (count > t->plan || (late && count < t->plan)))
		add_error(p->r, t, "%ld tests reported, plan was 1..%ld",
			  count, t->plan);
	if (t->is_main && !late && t->plan >= 0 && count < t->plan)
		add_error(p->r, t, "cut off: %ld of %ld planned tests reported",
			  count, t->plan);

	if (!t->is_main) {
		struct kline *l = p->i < p->n ? p->l[p->i] : NULL;
		char *name = NULL, *reason = NULL;
		enum ktap_status st = KTAP_NONE;
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
			if (st == KTAP_ERROR)
				add_error(p->r, t, "reported ERROR%s%s",
					  reason ? ": " : "", reason ? reason : "");
		}
		/* One error for one cut-off test, however it shows. */
		if (!late && t->plan >= 0 && count < t->plan)
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
static void parse_doc(struct ktap_run *r, struct vec *lines)
{
	struct descent p = { .r = r, .l = (struct kline **)lines->v,
			    .n = lines->n, .i = 0 };
	struct ktap_test *t = test_new(NULL, (int)r->docs.n + 1);

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

static struct kline *add_kline(struct extractor *x, const char *text,
			       const char *msg, unsigned int indent,
			       enum kind kind, unsigned int flags)
{
	struct kline *l = xmalloc(sizeof(*l));

	l->text = xstrdup(text);
	l->msg = xstrdup(msg);
	l->raw = NULL;
	l->indent = indent;
	l->kind = kind;
	l->flags = flags;
	vec_push(&x->lines, l);
	return l;
}

/* The first crash line of the log is the run's. */
static void note_crash(struct ktap_run *r, const char *msg, unsigned int flags)
{
	if (flags & LF_CRASH && !r->crash)
		r->crash = xstrdup(msg);
}

/* A crash, error or warning line outside any KTAP document. */
static void outside_line(struct ktap_parser *p, const char *msg,
			 unsigned int flags)
{
	struct extractor *x = &p->x;

	if ((flags & LF_CRASH) && !x->gap_crash) {
		x->gap_crash = 1;
		add_error(p->r, NULL, "crash outside KTAP output: %s", msg);
	} else if (flags & LF_ERRLINE) {
		add_error(p->r, NULL, "%s", msg);
	}
	if (flags & LF_WARN)
		vec_push(&p->r->warnings, xstrdup(msg));
}

/* A console line outside any document that starts none. */
static void outside(struct ktap_parser *p, const char *line)
{
	const char *msg = msg_start(line);
	unsigned int flags = line_flags(p, msg);

	note_crash(p->r, msg, flags);
	outside_line(p, msg, flags);
}

/*
 * The document ends: its lines are parsed.  Lines still pending after its
 * plan was complete are not the document's: they are read again as the
 * lines outside any document they are.
 */
static void end_doc(struct ktap_parser *p)
{
	struct extractor *x = &p->x;
	struct vec pending = { 0 };
	size_t i;

	if (!x->in_doc)
		return;
	x->lines.n -= x->npending;
	for (i = 0; i < x->npending; i++)
		vec_push(&pending, x->lines.v[x->lines.n + i]);
	parse_doc(p->r, &x->lines);
	free(x->prefix);
	x->prefix = NULL;
	x->in_doc = 0;
	x->complete = 0;
	x->npending = 0;
	x->gap_crash = 0;
	for (i = 0; i < pending.n; i++)
		outside(p, ((struct kline *)pending.v[i])->raw);
	vec_free(&pending, kline_free);
}

static void doc_line(struct ktap_parser *p, const char *rest, const char *msg,
		     unsigned int flags);

/*
 * A document starts at @line, whose version line starts at offset @pos.
 * The prefix is what precedes it (kunit_parser.py); after a timestamp the
 * first blank belongs to the prefix and the others are indentation.
 */
static void start_doc(struct ktap_parser *p, const char *line, long pos)
{
	struct extractor *x = &p->x;
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
	x->complete = 0;
	x->npending = 0;
	x->gap_crash = 0;
	p->ktap_found = 1;
	doc_line(p, line + end, msg_start(line + end), 0);
}

/* A line of the current document, after its prefix. */
static void doc_line(struct ktap_parser *p, const char *rest, const char *msg,
		     unsigned int flags)
{
	struct extractor *x = &p->x;
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
		x->complete = 1;
}

/**
 * after_plan_line() - a console line once the document's plan is complete
 * @p: the parser
 * @line: the line, from clean_line()
 *
 * The document is complete, but it is not over: a test result, a subtest
 * header or a plan that carries the document's prefix is still its own
 * (its plan was wrong, which the parse reports as an error), and so are
 * the lines between.  Any version line starts a new document, and the
 * lines after which the kernel prints no more tests end this one.  Any
 * other line is kept pending: the document's if a result of it follows,
 * else, when the document ends, read as a line outside any document, as
 * though the document had ended at its plan.
 */
static void after_plan_line(struct ktap_parser *p, const char *line)
{
	struct extractor *x = &p->x;
	const char *rest = prefix_strip(x->prefix, line), *msg;
	enum kind kind = K_OTHER;
	unsigned int flags;
	struct kline *l;
	long pos;
	size_t i;

	pos = find_version(line);
	if (pos >= 0) {
		end_doc(p);
		start_doc(p, line, pos);
		return;
	}
	if (rest)
		kind = classify(rest + strspn(rest, " "));
	msg = msg_start(rest ? rest : line);
	flags = line_flags(p, msg);
	if (kind == K_RESULT || kind == K_SUBTEST || kind == K_PLAN) {
		/* The pending lines are the document's after all. */
		for (i = x->lines.n - x->npending; i < x->lines.n; i++) {
			l = x->lines.v[i];
			note_crash(p->r, l->msg, l->flags);
			free(l->raw);
			l->raw = NULL;
		}
		x->npending = 0;
		note_crash(p->r, msg, flags);
		doc_line(p, rest, msg, flags);
		return;
	}
	if (rest && is_ktap_end(msg)) {
		end_doc(p);
		outside(p, line);
		return;
	}
	if (rest)
		doc_line(p, rest, msg, flags);
	else
		add_kline(x, msg, msg, 0, K_OTHER, flags);
	l = x->lines.v[x->lines.n - 1];
	l->raw = xstrdup(line);
	x->npending++;
}

/**
 * feed_line() - take one clean console line
 * @p: the parser
 * @line: the line, from clean_line()
 *
 * Outside a document, a line ending in "KTAP version N" (or "TAP version
 * N") starts one.  Inside, lines carrying the document's prefix are KTAP;
 * others (say, the guest's output between kernel lines) are kept as
 * diagnostics.  A document ends at a new top-level version line, at the
 * lines after which the kernel prints no more tests, or at the end of the
 * log; once its top-level plan is complete, at any line that is not its
 * own (after_plan_line()).
 */
static void feed_line(struct ktap_parser *p, const char *line)
{
	struct extractor *x = &p->x;
	const char *rest, *msg;
	unsigned int flags;
	long pos;

	if (!x->in_doc) {
		pos = find_version(line);
		if (pos >= 0)
			start_doc(p, line, pos);
		else
			outside(p, line);
		return;
	}
	if (x->complete) {
		after_plan_line(p, line);
		return;
	}

	rest = prefix_strip(x->prefix, line);
	msg = msg_start(rest ? rest : line);
	flags = line_flags(p, msg);
	note_crash(p->r, msg, flags);

	if (!rest) {
		pos = find_version(line);
		if (pos >= 0 && (pos == 0 || line[pos - 1] != ' ')) {
			/* Another source's top-level KTAP: a new document. */
			end_doc(p);
			start_doc(p, line, pos);
			return;
		}
		add_kline(x, msg, msg, 0, K_OTHER, flags);
		return;
	}
	if (is_ktap_end(msg)) {
		end_doc(p);
		outside_line(p, msg, flags);
		return;
	}
	if (rest[0] != ' ' && classify(rest) == K_VERSION) {
		end_doc(p);
		start_doc(p, line, rest - line);
		return;
	}
	doc_line(p, rest, msg, flags);
}

/* ------------------------------------------------------------------ */
/* Results                                                              */

static void count_tests(struct ktap_run *r, const struct ktap_test *t)
{
	size_t i;

	for (i = 0; i < t->subs.n; i++)
		count_tests(r, t->subs.v[i]);
	if (t->is_main || t->subs.n)
		return;
	if (t->status == KTAP_PASS)
		r->counts.passed++;
	else if (t->status == KTAP_FAIL)
		r->counts.failed++;
	else if (t->status == KTAP_SKIP)
		r->counts.skipped++;
}

static int find_test(const struct ktap_test *t, const char *name)
{
	size_t i;

	if (!t->is_main && t->name && !strcmp(t->name, name))
		return 1;
	for (i = 0; i < t->subs.n; i++)
		if (find_test(t->subs.v[i], name))
			return 1;
	return 0;
}

/*
 * finish_run() - counts, missing suites and the overall status
 *
 * MISS (no end marker, timed out, no KTAP) > ERROR (any error: crash,
 * cut-off, bad plan, missing suite, no tests at all) > FAIL > PASS; SKIP
 * only when every test was skipped.
 */
static void finish_run(struct ktap_parser *p)
{
	struct ktap_run *r = p->r;
	size_t i;
	int j;

	if (p->marker && !p->marker_seen)
		vec_push(&r->miss, xasprintf("end marker '%s' not found", p->marker));
	if (p->timed_out)
		vec_push(&r->miss, xstrdup("boot timed out"));
	for (i = 0; i < r->docs.n; i++)
		count_tests(r, r->docs.v[i]);
	for (j = 0; j < p->nexpect; j++) {
		int found = 0;

		for (i = 0; i < r->docs.n && !found; i++)
			found = find_test(r->docs.v[i], p->expect[j]);
		if (!found) {
			vec_push(&r->missing, xstrdup(p->expect[j]));
			add_error(r, NULL, "expected suite %s not found", p->expect[j]);
		}
	}
	if (p->ktap_found && !r->counts.passed && !r->counts.failed &&
	    !r->counts.skipped)
		add_error(r, NULL, "no test results: a run with zero tests is not a pass");
	if (!p->ktap_found)
		vec_push(&r->miss, xstrdup("no KTAP output found"));
	r->counts.errors = (long)r->errors.n;

	if (r->miss.n)
		r->status = KTAP_MISS;
	else if (r->counts.errors)
		r->status = KTAP_ERROR;
	else if (r->counts.failed)
		r->status = KTAP_FAIL;
	else if (r->counts.passed)
		r->status = KTAP_PASS;
	else
		r->status = KTAP_SKIP;
}

static void list_failed(FILE *f, const struct ktap_test *t, int *listed)
{
	size_t i;
	char *path;

	for (i = 0; i < t->subs.n; i++)
		list_failed(f, t->subs.v[i], listed);
	if (t->is_main || t->subs.n || t->status != KTAP_FAIL)
		return;
	if (++*listed <= MAX_LISTED) {
		path = ktap_test_path(t);
		fprintf(f, "  FAIL %s\n", path);
		free(path);
	}
}

/**
 * ktap_print_summary() - the one-line summary, then what went wrong
 * @r: the finished run
 * @f: where to print it
 *
 * "NAME: STATUS: P passed, F failed, S skipped, E errors (suites: ...)";
 * unless the run passed: one line per failed test, per error, per reason
 * for MISS, and the first crash line.
 */
void ktap_print_summary(const struct ktap_run *r, FILE *f)
{
	size_t i, j;
	int listed = 0, nsuites = 0;

	fprintf(f, "%s: %s: %ld passed, %ld failed, %ld skipped, %ld errors (suites:",
	       r->name, ktap_status_name(r->status), r->counts.passed,
	       r->counts.failed, r->counts.skipped, r->counts.errors);
	for (i = 0; i < r->docs.n; i++) {
		const struct ktap_test *d = r->docs.v[i];

		for (j = 0; j < d->subs.n; j++) {
			const struct ktap_test *s = d->subs.v[j];

			if (++nsuites <= MAX_LISTED)
				fprintf(f, " %s", s->name && *s->name ? s->name : "?");
		}
	}
	if (nsuites > MAX_LISTED)
		fprintf(f, " ... %d in all", nsuites);
	fprintf(f, "%s)\n", nsuites ? "" : " none");
	if (r->status == KTAP_PASS || r->status == KTAP_SKIP)
		return;

	for (i = 0; i < r->docs.n; i++)
		list_failed(f, r->docs.v[i], &listed);
	for (i = 0; i < r->errors.n; i++) {
		const struct ktap_error *e = r->errors.v[i];

		if (++listed > MAX_LISTED)
			continue;
		if (e->test) {
			char *path = ktap_test_path(e->test);

			fprintf(f, "  ERROR %s: %s\n", path, e->msg);
			free(path);
		} else {
			fprintf(f, "  ERROR %s\n", e->msg);
		}
	}
	if (listed > MAX_LISTED)
		fprintf(f, "  ... and %d more\n", listed - MAX_LISTED);
	for (i = 0; i < r->miss.n; i++)
		fprintf(f, "  MISS %s\n", (const char *)r->miss.v[i]);
	if (r->crash)
		fprintf(f, "  crash: %s\n", r->crash);
}

/* ------------------------------------------------------------------ */
/* The parser's interface                                               */

/**
 * ktap_parser_new() - a parser for one console log
 * @opts: the run's name, expected suites, end marker...; copied
 *
 * The name, the marker and the expected suites reach the JSON and the XML
 * and are matched against cleaned lines: they are cleaned alike, invalid
 * UTF-8 and control characters made '?'.
 *
 * Return: the parser, to feed with ktap_parser_line().
 */
struct ktap_parser *ktap_parser_new(const struct ktap_options *opts)
{
	struct ktap_parser *p = xmalloc(sizeof(*p));
	int i;

	memset(p, 0, sizeof(*p));
	p->r = xmalloc(sizeof(*p->r));
	memset(p->r, 0, sizeof(*p->r));
	p->r->name = xstrdup(opts->name);
	clean_line(p->r->name, strlen(p->r->name));
	if (opts->end_marker) {
		p->marker = xstrdup(opts->end_marker);
		clean_line(p->marker, strlen(p->marker));
	}
	p->nexpect = opts->nexpect;
	p->expect = xmalloc(opts->nexpect * sizeof(*p->expect));
	for (i = 0; i < opts->nexpect; i++) {
		p->expect[i] = xstrdup(opts->expect[i]);
		clean_line(p->expect[i], strlen(p->expect[i]));
	}
	p->timed_out = opts->timed_out;
	p->warn_error = opts->warn_error;
	return p;
}

/**
 * ktap_parser_line() - take one line of the console log
 * @p: the parser
 * @line: the line, without its '\n'; it may contain NUL bytes and is
 *	rewritten in place (clean_line())
 * @len: its length
 */
void ktap_parser_line(struct ktap_parser *p, char *line, size_t len)
{
	clean_line(line, len);
	if (p->marker && !p->marker_seen && strstr(line, p->marker))
		p->marker_seen = 1;
	feed_line(p, line);
}

/**
 * ktap_parser_finish() - the end of the log: the results
 * @p: the parser, freed
 *
 * Return: the finished run, for ktap_run_free().
 */
struct ktap_run *ktap_parser_finish(struct ktap_parser *p)
{
	struct ktap_run *r = p->r;
	int i;

	end_doc(p);
	finish_run(p);
	for (i = 0; i < p->nexpect; i++)
		free(p->expect[i]);
	free(p->expect);
	free(p->marker);
	free(p);
	return r;
}

/**
 * ktap_run_free() - free a run and its tree
 * @r: the run
 */
void ktap_run_free(struct ktap_run *r)
{
	vec_free(&r->docs, test_free);
	vec_free(&r->errors, error_free);
	vec_free(&r->warnings, free);
	vec_free(&r->missing, free);
	vec_free(&r->miss, free);
	free(r->crash);
	free(r->name);
	free(r);
}
