// SPDX-License-Identifier: GPL-2.0
/*
 * fetch-lines: a QEMU TCG plugin that counts, for each iteration of a
 * loop, the instructions it executes and the distinct instruction-fetch
 * lines (aligned blocks of 16, 64, ... bytes) those instructions lie in.
 *
 * QEMU's instruction count sees the alignment NOPs a loop runs, never
 * the line boundaries it crosses: this plugin counts both.  Only the
 * instructions in [lo, hi) get an exec callback; an iteration starts
 * when the instruction at head executes and ends when it executes again
 * (the last one at exit).  In-range instructions that execute before the
 * first head are counted apart (insns_before_head=).  The lines are the
 * ones the executed instructions occupy: no I-cache, no fetch width, no
 * prefetch is modelled.
 *
 * Arguments (comma-separated after the plugin's path):
 *   lo=ADDR, hi=ADDR  the range of the loop, hi exclusive (at least one
 *                     of lo= and head=, and hi=)
 *   head=ADDR         the loop's first instruction (default: lo)
 *   line=BYTES        a line size, a power of two from 4 to 4096; given
 *                     up to 4 times (default: 16 and 64)
 *   out=PATH          where the results go (default: QEMU's plugin log)
 *
 * Output, key=value lines: the arguments (lo=, hi=, head=), iterations=,
 * insns_before_head=, insns= (total) and insns_per_iter= (average), and
 * for each line size N: linesN= (total), linesN_per_iter= (average),
 * linesN_min= and linesN_max= (per iteration), linesN_iters_K= (how many
 * iterations touched K lines, for each K seen).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_SIZES	4
/* Distinct lines remembered per iteration and size; more are counted as new. */
#define MAX_LINES	64
/* linesN_iters_K= for K in 1..MAX_HIST; more lines than that go in the last. */
#define MAX_HIST	16

/**
 * struct iter_state - the loop as one vCPU runs it
 * @open: an iteration is under way (the head has executed)
 * @insns: instructions of the current iteration
 * @n_lines: distinct lines of the current iteration, per line size
 * @lines: those lines (address / size), per line size
 * @iterations: finished iterations
 * @before_head: in-range instructions executed before the first head
 * @total_insns: instructions of the finished iterations
 * @total_lines: lines of the finished iterations, per line size
 * @min_lines: fewest lines in one iteration, per line size
 * @max_lines: most lines in one iteration, per line size
 * @hist: iterations by their number of lines (index K-1), per line size
 */
struct iter_state {
	bool open;
	uint64_t insns;
	unsigned int n_lines[MAX_SIZES];
	uint64_t lines[MAX_SIZES][MAX_LINES];
	uint64_t iterations;
	uint64_t before_head;
	uint64_t total_insns;
	uint64_t total_lines[MAX_SIZES];
	uint64_t min_lines[MAX_SIZES];
	uint64_t max_lines[MAX_SIZES];
	uint64_t hist[MAX_SIZES][MAX_HIST];
};

static uint64_t range_lo, range_hi, head;
static bool have_lo, have_hi, have_head;
static unsigned int sizes[MAX_SIZES];
static unsigned int shifts[MAX_SIZES];
static int n_sizes;
static char *out_path;
static struct qemu_plugin_scoreboard *state;

/**
 * iter_close - end the current iteration of @s and add it to the totals
 * @s: the vCPU's state
 */
static void iter_close(struct iter_state *s)
{
	int i;

	if (!s->open)
		return;
	s->iterations++;
	s->total_insns += s->insns;
	for (i = 0; i < n_sizes; i++) {
		uint64_t n = s->n_lines[i];

		s->total_lines[i] += n;
		if (s->iterations == 1 || n < s->min_lines[i])
			s->min_lines[i] = n;
		if (n > s->max_lines[i])
			s->max_lines[i] = n;
		if (n > 0)
			s->hist[i][MIN(n, MAX_HIST) - 1]++;
	}
	s->open = false;
}

/**
 * iter_open - start an iteration of @s
 * @s: the vCPU's state
 */
static void iter_open(struct iter_state *s)
{
	s->open = true;
	s->insns = 0;
	memset(s->n_lines, 0, sizeof(s->n_lines));
}

/**
 * insn_exec - one execution of an instruction in the range
 * @vcpu_index: the vCPU that runs it
 * @udata: the instruction's address
 */
static void insn_exec(unsigned int vcpu_index, void *udata)
{
	struct iter_state *s = qemu_plugin_scoreboard_find(state, vcpu_index);
	uint64_t vaddr = (uint64_t)(uintptr_t)udata;
	unsigned int j;
	int i;

	if (vaddr == head) {
		iter_close(s);
		iter_open(s);
	}
	if (!s->open) {
		s->before_head++;
		return;
	}
	s->insns++;
	for (i = 0; i < n_sizes; i++) {
		uint64_t line = vaddr >> shifts[i];

		for (j = 0; j < s->n_lines[i] && j < MAX_LINES; j++)
			if (s->lines[i][j] == line)
				break;
		if (j < s->n_lines[i] && j < MAX_LINES)
			continue;
		if (s->n_lines[i] < MAX_LINES)
			s->lines[i][s->n_lines[i]] = line;
		s->n_lines[i]++;
	}
}

/**
 * tb_trans - a block is translated: a callback on each instruction of it
 * that lies in the range
 * @id: this plugin
 * @tb: the block
 */
static void tb_trans(qemu_plugin_id_t id G_GNUC_UNUSED, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	size_t i;

	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t vaddr = qemu_plugin_insn_vaddr(insn);

		if (vaddr < range_lo || vaddr >= range_hi)
			continue;
		qemu_plugin_register_vcpu_insn_exec_cb(insn, insn_exec, QEMU_PLUGIN_CB_NO_REGS,
						       (void *)(uintptr_t)vaddr);
	}
}

/**
 * average - @total / @n with three decimals, as a string to free
 * @total: the sum
 * @n: how many
 */
static char *average(uint64_t total, uint64_t n)
{
	if (!n)
		return g_strdup("0");
	return g_strdup_printf("%.3f", (double)total / (double)n);
}

/**
 * plugin_exit - sum the vCPUs' counts and write the results
 * @id: this plugin
 * @p: unused
 */
static void plugin_exit(qemu_plugin_id_t id G_GNUC_UNUSED, void *p G_GNUC_UNUSED)
{
	struct iter_state sum = { 0 };
	GString *rep = g_string_new(NULL);
	int n_vcpus = qemu_plugin_num_vcpus();
	FILE *f = NULL;
	char *avg;
	int v, i, k;

	for (v = 0; v < n_vcpus; v++) {
		struct iter_state *s = qemu_plugin_scoreboard_find(state, v);
		uint64_t before = sum.iterations;

		iter_close(s);
		if (!s->iterations) {
			sum.before_head += s->before_head;
			continue;
		}
		sum.iterations += s->iterations;
		sum.before_head += s->before_head;
		sum.total_insns += s->total_insns;
		for (i = 0; i < n_sizes; i++) {
			sum.total_lines[i] += s->total_lines[i];
			if (!before || s->min_lines[i] < sum.min_lines[i])
				sum.min_lines[i] = s->min_lines[i];
			sum.max_lines[i] = MAX(sum.max_lines[i], s->max_lines[i]);
			for (k = 0; k < MAX_HIST; k++)
				sum.hist[i][k] += s->hist[i][k];
		}
	}

	g_string_append_printf(rep, "lo=0x%" PRIx64 "\nhi=0x%" PRIx64 "\nhead=0x%" PRIx64 "\n",
			       range_lo, range_hi, head);
	g_string_append_printf(rep, "iterations=%" PRIu64 "\n", sum.iterations);
	g_string_append_printf(rep, "insns_before_head=%" PRIu64 "\n", sum.before_head);
	avg = average(sum.total_insns, sum.iterations);
	g_string_append_printf(rep, "insns=%" PRIu64 "\ninsns_per_iter=%s\n", sum.total_insns, avg);
	g_free(avg);
	for (i = 0; i < n_sizes; i++) {
		unsigned int sz = sizes[i];

		avg = average(sum.total_lines[i], sum.iterations);
		g_string_append_printf(rep, "lines%u=%" PRIu64 "\nlines%u_per_iter=%s\n",
				       sz, sum.total_lines[i], sz, avg);
		g_free(avg);
		g_string_append_printf(rep, "lines%u_min=%" PRIu64 "\nlines%u_max=%" PRIu64 "\n",
				       sz, sum.min_lines[i], sz, sum.max_lines[i]);
		for (k = 0; k < MAX_HIST; k++)
			if (sum.hist[i][k])
				g_string_append_printf(rep, "lines%u_iters_%d=%" PRIu64 "\n",
						       sz, k + 1, sum.hist[i][k]);
	}

	if (out_path)
		f = fopen(out_path, "w");
	if (f) {
		fputs(rep->str, f);
		if (fclose(f))
			qemu_plugin_outs("fetch-lines: error writing out=\n");
	} else {
		if (out_path)
			qemu_plugin_outs("fetch-lines: cannot write out=, writing here\n");
		qemu_plugin_outs(rep->str);
	}
	g_string_free(rep, TRUE);
	qemu_plugin_scoreboard_free(state);
}

/**
 * parse_addr - an address argument
 * @opt: the whole argument, for the message
 * @val: its value
 * @addr: where the address goes
 *
 * Return: true when @val is a number and nothing else.
 */
static bool parse_addr(const char *opt, const char *val, uint64_t *addr)
{
	char *end;

	*addr = g_ascii_strtoull(val, &end, 0);
	if (!*val || *end) {
		fprintf(stderr, "fetch-lines: not an address: %s\n", opt);
		return false;
	}
	return true;
}

/**
 * parse_line - a line= argument, added to sizes[]
 * @opt: the whole argument, for the message
 * @val: its value
 *
 * Return: true when @val is a power of two from 4 to 4096, new, and
 * there is room for it.
 */
static bool parse_line(const char *opt, const char *val)
{
	char *end;
	uint64_t sz = g_ascii_strtoull(val, &end, 10);
	int i;

	if (!*val || *end || sz < 4 || sz > 4096 || (sz & (sz - 1))) {
		fprintf(stderr, "fetch-lines: line= takes a power of two from 4 to 4096: %s\n", opt);
		return false;
	}
	for (i = 0; i < n_sizes; i++)
		if (sizes[i] == sz)
			return true;
	if (n_sizes == MAX_SIZES) {
		fprintf(stderr, "fetch-lines: at most %d line= sizes: %s\n", MAX_SIZES, opt);
		return false;
	}
	sizes[n_sizes] = sz;
	shifts[n_sizes] = __builtin_ctzll(sz);
	n_sizes++;
	return true;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info G_GNUC_UNUSED,
					   int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		char *opt = argv[i];
		char *val = strchr(opt, '=');
		bool ok;

		if (!val) {
			fprintf(stderr, "fetch-lines: not KEY=VALUE: %s\n", opt);
			return -1;
		}
		val++;
		if (g_str_has_prefix(opt, "lo=")) {
			ok = parse_addr(opt, val, &range_lo);
			have_lo = true;
		} else if (g_str_has_prefix(opt, "hi=")) {
			ok = parse_addr(opt, val, &range_hi);
			have_hi = true;
		} else if (g_str_has_prefix(opt, "head=")) {
			ok = parse_addr(opt, val, &head);
			have_head = true;
		} else if (g_str_has_prefix(opt, "line=")) {
			ok = parse_line(opt, val);
		} else if (g_str_has_prefix(opt, "out=")) {
			g_free(out_path);
			out_path = g_strdup(val);
			ok = *val != '\0';
			if (!ok)
				fprintf(stderr, "fetch-lines: out= needs a path\n");
		} else {
			fprintf(stderr, "fetch-lines: unknown argument %s\n", opt);
			ok = false;
		}
		if (!ok)
			return -1;
	}
	if (!have_hi || (!have_lo && !have_head)) {
		fprintf(stderr, "fetch-lines: needs hi= and lo= or head=\n");
		return -1;
	}
	if (!have_lo)
		range_lo = head;
	if (!have_head)
		head = range_lo;
	if (range_lo >= range_hi || head < range_lo || head >= range_hi) {
		fprintf(stderr, "fetch-lines: needs lo <= head < hi\n");
		return -1;
	}
	if (!n_sizes) {
		parse_line("line=16", "16");
		parse_line("line=64", "64");
	}
	state = qemu_plugin_scoreboard_new(sizeof(struct iter_state));
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, plugin_exit, NULL);
	return 0;
}
