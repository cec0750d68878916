// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * store-align: a QEMU TCG plugin that counts the stores of "rep movsq"
 * instructions by their alignment.
 *
 * At translation, every instruction whose disassembly is a "rep movsq"
 * (capstone's AT&T "rep movsq (%rsi), %es:(%rdi)", its Intel
 * "rep movsq qword ptr [rdi], qword ptr [rsi]", or a bare "rep movsq") gets
 * a memory callback for its stores.  Each store is counted, and counted
 * again when it is misaligned (its address is not a multiple of its size)
 * and when it is split across two cache lines ((address % line) + size >
 * line).  The bytes stored are summed.
 *
 * This is a count of stores by address only: no pipeline, no store
 * buffer, no cache, no timing.  TCG runs each iteration of "rep movsq" as
 * one 8-byte store (the callback sees each), whatever a CPU's microcode
 * would merge or split.  Works in user and system emulation (Debian's
 * qemu-x86_64 is built without plugin support: qemu-system-x86_64 is).
 *
 * Arguments (-plugin libstore-align.so,ARG=VALUE,...):
 *   line=N       cache line size in bytes, a power of two (default 64)
 *   lo=ADDR      count only the instructions at guest virtual address
 *   hi=ADDR      ADDR or above, and below hi=ADDR (decimal, or hex with
 *                0x): one routine of a program linked at a fixed address
 *   out=PATH     write the result to PATH (default: QEMU's plugin log,
 *                stderr)
 *
 * The result is one line at exit:
 *   insns=I stores=S misaligned=M split=L bytes=B line=N
 * where insns is the number of "rep movsq" instructions instrumented
 * (translated; one instruction translated twice counts twice).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

/**
 * struct store_counts - what the plugin counts
 * @insns: "rep movsq" instructions instrumented at translation
 * @stores: stores made by them
 * @misaligned: stores whose address is not a multiple of their size
 * @split: stores that cross a cache line boundary
 * @bytes: bytes stored
 */
struct store_counts {
	uint64_t insns;
	uint64_t stores;
	uint64_t misaligned;
	uint64_t split;
	uint64_t bytes;
};

static struct store_counts counts;
static uint64_t line_size = 64;
static uint64_t range_lo;
static uint64_t range_hi = UINT64_MAX;
static char *out_path;

/**
 * is_rep_movsq - whether a disassembly is a "rep movsq"
 * @disas: the disassembly, as qemu_plugin_insn_disas() gives it
 *
 * The first two words, compared without case: "rep" (capstone also
 * writes "rep" for F3 before movs), then "movsq", or "movs" followed by a
 * "qword" operand (Intel syntax without the size suffix).
 *
 * Return: true for a "rep movsq".
 */
static bool is_rep_movsq(const char *disas)
{
	g_autofree char *lower = g_ascii_strdown(disas, -1);
	g_auto(GStrv) words = g_strsplit_set(g_strstrip(lower), " \t", -1);
	const char *w[2] = { NULL, NULL };
	unsigned int i, n = 0;

	for (i = 0; words[i] && n < 2; i++)
		if (words[i][0])
			w[n++] = words[i];
	if (n < 2 || strcmp(w[0], "rep"))
		return false;
	if (!strcmp(w[1], "movsq"))
		return true;
	return !strcmp(w[1], "movs") && strstr(disas, "qword");
}

/**
 * vcpu_store - the memory callback of a "rep movsq"'s stores
 * @vcpu_index: the vCPU (unused: the counts are global, added atomically)
 * @info: the access
 * @vaddr: its guest virtual address
 * @udata: unused
 */
static void vcpu_store(unsigned int vcpu_index, qemu_plugin_meminfo_t info,
		       uint64_t vaddr, void *udata)
{
	uint64_t size = 1ULL << qemu_plugin_mem_size_shift(info);

	(void)vcpu_index;
	(void)udata;
	if (!qemu_plugin_mem_is_store(info))
		return;
	__atomic_fetch_add(&counts.stores, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&counts.bytes, size, __ATOMIC_RELAXED);
	if (vaddr & (size - 1))
		__atomic_fetch_add(&counts.misaligned, 1, __ATOMIC_RELAXED);
	if ((vaddr & (line_size - 1)) + size > line_size)
		__atomic_fetch_add(&counts.split, 1, __ATOMIC_RELAXED);
}

/**
 * vcpu_tb_trans - instrument the "rep movsq" instructions of a block
 * @id: the plugin
 * @tb: the translation block
 *
 * Only the instructions inside lo=/hi= (when given) count.
 */
static void vcpu_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	(void)id;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t pc = qemu_plugin_insn_vaddr(insn);
		g_autofree char *disas = NULL;

		if (pc < range_lo || pc >= range_hi)
			continue;
		disas = qemu_plugin_insn_disas(insn);
		if (!disas || !is_rep_movsq(disas))
			continue;
		__atomic_fetch_add(&counts.insns, 1, __ATOMIC_RELAXED);
		qemu_plugin_register_vcpu_mem_cb(insn, vcpu_store,
						 QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_W, NULL);
	}
}

/**
 * plugin_exit - write the one line of counts
 * @id: the plugin
 * @p: unused
 *
 * To out= when given (a failure to write it is reported on QEMU's plugin
 * log), else to QEMU's plugin log.
 */
static void plugin_exit(qemu_plugin_id_t id, void *p)
{
	g_autofree char *line = NULL;
	FILE *f;

	(void)id;
	(void)p;
	line = g_strdup_printf("insns=%" PRIu64 " stores=%" PRIu64 " misaligned=%" PRIu64
			       " split=%" PRIu64 " bytes=%" PRIu64 " line=%" PRIu64 "\n",
			       counts.insns, counts.stores, counts.misaligned,
			       counts.split, counts.bytes, line_size);
	if (!out_path) {
		qemu_plugin_outs(line);
		return;
	}
	f = fopen(out_path, "w");
	if (!f || fputs(line, f) == EOF || fclose(f)) {
		g_autofree char *msg = g_strdup_printf("store-align: cannot write %s: %s\n",
						      out_path, strerror(errno));

		qemu_plugin_outs(msg);
	}
}

/**
 * parse_u64 - a number argument: decimal, or hexadecimal with 0x
 * @name: the argument's name, for the message
 * @val: its value
 * @ret: where the number goes
 *
 * Return: true when @val is a whole number, else false with a message on
 * stderr.
 */
static bool parse_u64(const char *name, const char *val, uint64_t *ret)
{
	char *end;

	errno = 0;
	*ret = g_ascii_strtoull(val, &end, 0);
	if (errno || !*val || *end) {
		fprintf(stderr, "store-align: %s=%s is not a number\n", name, val);
		return false;
	}
	return true;
}

/**
 * qemu_plugin_install - parse the arguments, register the callbacks
 * @id: the plugin
 * @info: about QEMU and the guest (unused)
 * @argc: number of arguments
 * @argv: the arguments, NAME=VALUE each
 *
 * Return: 0, or -1 on a bad argument (QEMU then refuses to start).
 */
QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		g_auto(GStrv) kv = g_strsplit(argv[i], "=", 2);
		bool ok = true;

		if (!kv[0] || !kv[1]) {
			fprintf(stderr, "store-align: argument %s is not NAME=VALUE\n", argv[i]);
			return -1;
		}
		if (!strcmp(kv[0], "line"))
			ok = parse_u64(kv[0], kv[1], &line_size) && line_size &&
			     !(line_size & (line_size - 1));
		else if (!strcmp(kv[0], "lo"))
			ok = parse_u64(kv[0], kv[1], &range_lo);
		else if (!strcmp(kv[0], "hi"))
			ok = parse_u64(kv[0], kv[1], &range_hi);
		else if (!strcmp(kv[0], "out"))
			out_path = g_strdup(kv[1]);
		else
			ok = false;
		if (!ok) {
			fprintf(stderr, "store-align: bad argument %s (line=N a power of two, lo=ADDR, hi=ADDR, out=PATH)\n",
				argv[i]);
			return -1;
		}
	}
	if (range_lo >= range_hi) {
		fprintf(stderr, "store-align: lo=%#" PRIx64 " is not below hi=%#" PRIx64 "\n",
			range_lo, range_hi);
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, vcpu_tb_trans);
	qemu_plugin_register_atexit_cb(id, plugin_exit, NULL);
	return 0;
}
