// SPDX-License-Identifier: GPL-2.0
/*
 * ktap-json.c - a parsed run as JSON (kunit_json.py's place): reads the
 * struct ktap_run of ktap.h and nothing else.
 */
#include <stdio.h>
#include <stdlib.h>

#include "ktap-json.h"

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

static void json_test(FILE *f, const struct ktap_test *t, int is_suite)
{
	size_t i;

	fputs("{\"name\":", f);
	json_str(f, t->name);
	fprintf(f, ",\"status\":\"%s\"", ktap_status_name(t->status));
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
 * ktap_write_json() - the results as one JSON object
 * @r: the finished run
 * @f: where to write
 *
 * {name, status, counts:{passed,failed,skipped,errors}, suites:[test...],
 * crash, missing_suites, miss, errors:[{test,message}], warnings,
 * documents}; a test is {name, status, number, reason, diagnostics,
 * tests:[test...]}, a suite (a document's top-level test) adds document.
 */
void ktap_write_json(const struct ktap_run *r, FILE *f)
{
	size_t i, j;
	int first = 1;

	fputs("{\"name\":", f);
	json_str(f, r->name);
	fprintf(f, ",\"status\":\"%s\",\"counts\":{\"passed\":%ld,\"failed\":%ld,"
		"\"skipped\":%ld,\"errors\":%ld},\"suites\":[",
		ktap_status_name(r->status), r->counts.passed, r->counts.failed,
		r->counts.skipped, r->counts.errors);
	for (i = 0; i < r->docs.n; i++) {
		const struct ktap_test *d = r->docs.v[i];

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
		const struct ktap_error *e = r->errors.v[i];
		char *path = e->test ? ktap_test_path(e->test) : NULL;

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

