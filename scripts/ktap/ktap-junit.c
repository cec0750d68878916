// SPDX-License-Identifier: GPL-2.0
/*
 * ktap-junit.c - a parsed run as JUnit XML (kunit_junit.py's place): reads
 * the struct ktap_run of ktap.h and nothing else.  Every test, suite and
 * error is visited a bounded number of times: the output takes time in
 * proportion to the run.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ktap-junit.h"

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
	const struct ktap_run *r;
	long tests, failures, errors, skipped;
};

/*
 * Error messages and diagnostics of @t as the text of an element: its own
 * errors from its own list, not from a search of the run's (a run with
 * many errors is as many tests with errors).
 */
static void junit_body(struct junit *j, const struct ktap_test *t)
{
	size_t i;

	for (i = 0; i < t->errors.n; i++) {
		const struct ktap_error *e = t->errors.v[i];

		xml_str(j->f, e->msg);
		fputc('\n', j->f);
	}
	for (i = 0; i < t->diags.n; i++) {
		xml_str(j->f, t->diags.v[i]);
		fputc('\n', j->f);
	}
}

static void junit_case(struct junit *j, const char *suite, const char *name,
		       const struct ktap_test *t)
{
	const char *msg = t->reason ? t->reason : "";

	j->tests++;
	if (t->status == KTAP_FAIL)
		j->failures++;
	else if (t->status == KTAP_ERROR)
		j->errors++;
	else if (t->status == KTAP_SKIP)
		j->skipped++;
	if (!j->f)
		return;
	fputs("    <testcase classname=\"", j->f);
	xml_str(j->f, suite);
	fputs("\" name=\"", j->f);
	xml_str(j->f, name);
	fputs("\">", j->f);
	if (t->status == KTAP_FAIL || t->status == KTAP_ERROR) {
		fprintf(j->f, "<%s message=\"", t->status == KTAP_FAIL ? "failure" : "error");
		xml_str(j->f, t->status == KTAP_FAIL ? (*msg ? msg : "not ok") :
			t->crashed ? "crash" : "error");
		fputs("\">", j->f);
		junit_body(j, t);
		fputs(t->status == KTAP_FAIL ? "</failure>" : "</error>", j->f);
	} else if (t->status == KTAP_SKIP) {
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
static void junit_walk(struct junit *j, const struct ktap_test *suite,
		       const struct ktap_test *t)
{
	size_t i;
	char *path, *name;

	for (i = 0; i < t->subs.n; i++)
		junit_walk(j, suite, t->subs.v[i]);
	if (t->subs.n && !t->errors.n)
		return;
	path = ktap_test_path(t);
	name = path;
	if (t != suite && starts_with(path, suite->name ? suite->name : "") &&
	    path[strlen(suite->name ? suite->name : "")] == '.')
		name = path + strlen(suite->name) + 1;
	junit_case(j, suite->name ? suite->name : "", name, t);
	free(path);
}

static void junit_suite(struct junit *j, const struct ktap_test *s)
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
static int run_level(const struct ktap_error *e)
{
	return !e->test || e->test->is_main;
}

/* Run-level errors (missing suites, crashes outside tests, MISS). */
static void junit_run_errors(struct junit *j)
{
	size_t i, n = 0;
	const struct ktap_run *r = j->r;

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
		const struct ktap_error *e = r->errors.v[i];

		if (run_level(e)) {
			if (e->test) {
				char *path = ktap_test_path(e->test);

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
 * ktap_write_junit() - the results as JUnit XML
 * @r: the finished run
 * @f: where to write
 *
 * One <testsuite> per suite, one <testcase> per leaf test (nested ones
 * named by their dotted path), with <failure>, <error> or <skipped>; a
 * last <testsuite> named after the run carries run-level errors.
 */
void ktap_write_junit(const struct ktap_run *r, FILE *f)
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
			const struct ktap_test *d = r->docs.v[i];

			for (k = 0; k < d->subs.n; k++)
				junit_suite(&j, d->subs.v[k]);
		}
		junit_run_errors(&j);
	}
	fputs("</testsuites>\n", f);
}

