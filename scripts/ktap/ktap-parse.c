// SPDX-License-Identifier: GPL-2.0
/*
 * ktap-parse: turn a boot console log into KTAP test results.
 *
 * This file is the command: its options, the log read line by line into
 * the parser (ktap.c), the summary, the JSON (ktap-json.c) and JUnit XML
 * (ktap-junit.c) outputs written all or none (atomic-write.c), and the
 * exit code.
 *
 * Build (scripts/ktap/ktap-parse does it):
 *	cc -std=gnu11 -O2 -Wall -Wextra -o ktap-parse ktap.c ktap-json.c ... (every .c here)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "atomic-write.h"
#include "ktap.h"
#include "ktap-json.h"
#include "ktap-junit.h"
#include "util.h"

static void usage(FILE *f)
{
	fprintf(f,
"Usage: ktap-parse [OPTIONS] CONSOLE_LOG\n"
"\n"
"Find the KTAP output in a boot console log (\"-\": stdin) and report one\n"
"status: PASS, FAIL (a test said not ok), SKIP (everything skipped),\n"
"ERROR (a crash, a document cut off, a plan that does not match the\n"
"results, an expected suite missing, no tests at all) or MISS (no KTAP,\n"
"no end marker, boot timed out).  MISS > ERROR > FAIL > PASS.\n"
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
"Exit codes: 0 PASS or SKIP; 1 FAIL, ERROR or MISS (the summary and the\n"
"JSON say which); 2 bad arguments, unreadable log or unwritable output.\n");
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

static void json_output(FILE *f, const void *r)
{
	ktap_write_json(r, f);
}

static void junit_output(FILE *f, const void *r)
{
	ktap_write_junit(r, f);
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
	struct ktap_options o = { 0 };
	const char *json = NULL, *junit = NULL, *path;
	char **expect = NULL, *name = NULL, *buf = NULL;
	struct output outs[2];
	struct ktap_parser *p;
	struct ktap_run *r;
	int c, nouts = 0, rc;
	size_t cap = 0;
	ssize_t len;
	FILE *in;

	opterr = 0;	/* one line of error, ours */
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'e':
			expect = xrealloc(expect, (o.nexpect + 1) * sizeof(*expect));
			expect[o.nexpect++] = optarg;
			break;
		case 'm':
			o.end_marker = optarg;
			break;
		case 't':
			o.timed_out = 1;
			break;
		case 'w':
			o.warn_error = 1;
			break;
		case 'j':
			json = optarg;
			break;
		case 'x':
			junit = optarg;
			break;
		case 'n':
			free(name);
			name = xstrdup(optarg);
			break;
		case 'h':
			usage(stdout);
			return KTAP_EXIT_PASS;
		default:
			fprintf(stderr, "%s: error: bad option '%s' (see --help)\n",
				prog, argv[optind - 1]);
			return KTAP_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "%s: error: expected one CONSOLE_LOG\n", prog);
		return KTAP_EXIT_USAGE;
	}
	path = argv[optind];
	in = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!in)
		fatal("%s: %s", path, strerror(errno));
	o.name = name ? name : (name = default_name(path));
	o.expect = expect;
	p = ktap_parser_new(&o);

	while ((len = getline(&buf, &cap, in)) >= 0) {
		if (len > 0 && buf[len - 1] == '\n')
			len--;
		ktap_parser_line(p, buf, (size_t)len);
	}
	if (ferror(in))
		fatal("%s: read error", path);
	if (in != stdin)
		fclose(in);
	free(buf);
	r = ktap_parser_finish(p);
	ktap_print_summary(r, stdout);
	fflush(stdout);

	if (json)
		outs[nouts++] = (struct output){ .path = json, .fn = json_output, .data = r };
	if (junit)
		outs[nouts++] = (struct output){ .path = junit, .fn = junit_output, .data = r };
	if (write_outputs(outs, nouts))
		rc = KTAP_EXIT_USAGE;
	else if (r->status == KTAP_PASS || r->status == KTAP_SKIP)
		rc = KTAP_EXIT_PASS;
	else
		rc = KTAP_EXIT_FAIL;

	ktap_run_free(r);
	free(name);
	free(expect);
	return rc;
}
