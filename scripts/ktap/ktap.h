/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktap.h - the KTAP parser of ktap-parse and the tree it makes.
 *
 * A console log goes in line by line (ktap_parser_line()); the KTAP
 * documents found in it are parsed as Documentation/dev-tools/ktap.rst and
 * tools/testing/kunit/kunit_parser.py read them, and ktap_parser_finish()
 * gives the result: a struct ktap_run, which is all the writers (JSON,
 * JUnit, the summary) read.  The parser's own state stays in ktap.c.
 */
#ifndef KTAP_H
#define KTAP_H

#include <stdio.h>

#include "util.h"

/**
 * enum ktap_status - the status of a test, a suite or the whole run
 * @KTAP_NONE: not known (a test without a result line, before it is finished)
 * @KTAP_PASS: passed
 * @KTAP_SKIP: skipped
 * @KTAP_FAIL: reported "not ok"
 * @KTAP_ERROR: a crash, a cut-off, a plan that does not match, a missing suite
 * @KTAP_MISS: no KTAP, no end marker, the boot timed out (a run only)
 *
 * Worse to better: MISS > ERROR > FAIL > PASS > SKIP > NONE.
 */
enum ktap_status {
	KTAP_NONE,
	KTAP_PASS,
	KTAP_SKIP,
	KTAP_FAIL,
	KTAP_ERROR,
	KTAP_MISS,
};

/**
 * struct ktap_test - a test, a suite, or a whole KTAP document (@is_main)
 * @name: from "# Subtest:" or the result line; NULL for a document
 * @number: number on its result line, -1 when there is none
 * @own: status its result line reports, KTAP_NONE when missing
 * @status: final status, subtests and errors included
 * @reason: directive or diagnostic data after '#' on the result line
 * @plan: N of its "1..N" line, -1 without one
 * @is_parent: it had a version or "# Subtest:" header
 * @is_main: it is a KTAP document
 * @doc: 1-based index of its document
 * @crashed: a crash line was seen among its diagnostics
 * @diags: diagnostic lines (char *)
 * @subs: subtests (struct ktap_test *)
 * @errors: the errors recorded against this test itself, in the order
 *	found (struct ktap_error *, owned by the run's @errors)
 * @parent: enclosing test, NULL for a document
 */
struct ktap_test {
	char *name;
	long number;
	enum ktap_status own;
	enum ktap_status status;
	char *reason;
	long plan;
	int is_parent;
	int is_main;
	int doc;
	int crashed;
	struct vec diags;
	struct vec subs;
	struct vec errors;
	struct ktap_test *parent;
};

/**
 * struct ktap_error - one error of the run
 * @test: the test it is recorded against, NULL for the run as a whole
 * @msg: what went wrong
 */
struct ktap_error {
	struct ktap_test *test;
	char *msg;
};

/**
 * struct ktap_counts - leaf tests by status, and the errors
 * @passed: leaf tests that passed
 * @failed: leaf tests that failed
 * @skipped: leaf tests that were skipped
 * @errors: errors of the run, of any kind
 */
struct ktap_counts {
	long passed, failed, skipped, errors;
};

/**
 * struct ktap_run - everything known about one console log
 * @name: run name for the summary, JSON and JUnit
 * @docs: one main struct ktap_test per KTAP document
 * @errors: struct ktap_error, in the order found
 * @warnings: "WARNING:" lines (char *)
 * @missing: expected suites that never appeared (char *)
 * @miss: harness-level reasons for MISS (char *)
 * @crash: first crash line of the log, NULL when none
 * @counts: leaf test counts and number of errors
 * @status: overall status
 */
struct ktap_run {
	char *name;
	struct vec docs;
	struct vec errors;
	struct vec warnings;
	struct vec missing;
	struct vec miss;
	char *crash;
	struct ktap_counts counts;
	enum ktap_status status;
};

/**
 * struct ktap_options - what the parser is told besides the log
 * @name: the run's name
 * @expect: suites that must appear
 * @nexpect: how many
 * @end_marker: a line must contain it, else MISS; NULL for none
 * @timed_out: the boot timed out: MISS
 * @warn_error: a "WARNING:" line is an error, like a crash
 */
struct ktap_options {
	const char *name;
	char *const *expect;
	int nexpect;
	const char *end_marker;
	int timed_out;
	int warn_error;
};

struct ktap_parser;

const char *ktap_status_name(enum ktap_status st);
struct ktap_parser *ktap_parser_new(const struct ktap_options *opts);
void ktap_parser_line(struct ktap_parser *p, char *line, size_t len);
struct ktap_run *ktap_parser_finish(struct ktap_parser *p);
void ktap_run_free(struct ktap_run *r);
char *ktap_test_path(const struct ktap_test *t);
void ktap_print_summary(const struct ktap_run *r, FILE *f);

#endif /* KTAP_H */
