// SPDX-License-Identifier: GPL-2.0
/*
 * insn-profile: a QEMU TCG plugin that counts how often each guest
 * instruction runs, and who calls chosen functions.
 *
 * Every translation block gets an execution counter; at exit each of its
 * instructions is charged the block's count, so a profile by function
 * (the addresses symbolized with the kernel's System.map) sums to the
 * instructions the guest executed.  For each callee= address, every
 * execution of the block that starts there is charged to the last
 * instruction of the block that ran before it on the same vCPU: the call
 * site, for a call that ends its block.
 *
 * With end=0xADDR, QEMU exits (and every plugin writes its figures) when
 * the guest first runs the block holding ADDR: a board that cannot power
 * off or reset would otherwise run on, idle or in mdelay(), until a
 * signal ends it at a moment the host's clock decides, and what it ran
 * meanwhile would count.
 *
 * With window=0xADDR, only the stretches between the guest's entries to
 * ADDR count (on at the first, off at the second, ...): a program that
 * enters ADDR (a system call of its own) just outside its timed window
 * gets the profile of that window alone, what its figure counts.
 *
 * Arguments: out=PATH (default: QEMU's plugin log), callee=0xADDR (any
 * number of times), end=0xADDR, window=0xADDR.  Output, one record a
 * line:
 *   total INSNS            instructions executed (counted)
 *   window TOGGLES         with window=: the entries to its address
 *   insn ADDR COUNT        an instruction and how often it ran
 *   call CALLEE SITE COUNT calls of CALLEE from the instruction at SITE
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>
#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MAX_VCPUS	256
#define MAX_CALLEES	16

struct block {
	uint64_t vaddr;
	size_t n_insns;
	uint64_t *insn_vaddr;
	uint64_t count;
	int callee;		/* index in callees[], or -1 */
	bool end;		/* holds end= */
	bool window;		/* holds window= */
};

static GMutex lock;
static GHashTable *blocks;		/* (vaddr ^ n_insns) -> struct block */
static struct block *last_block[MAX_VCPUS];
static uint64_t callees[MAX_CALLEES];
static int n_callees;
static GHashTable *calls[MAX_CALLEES];	/* call site -> count */
static char *out_path;
static uint64_t end_addr;
static bool have_end;
static uint64_t window_addr;
static bool have_window;
static bool counting = true;	/* false until window= is first entered */
static unsigned int window_toggles;

static guint block_hash(gconstpointer key)
{
	const struct block *b = key;

	return g_int64_hash(&b->vaddr) ^ (guint)b->n_insns;
}

static gboolean block_equal(gconstpointer a, gconstpointer b)
{
	const struct block *x = a, *y = b;

	return x->vaddr == y->vaddr && x->n_insns == y->n_insns;
}

/*
 * block_exec - one execution of a block: its counter, and the call it
 * makes when it starts a callee.
 */
static void block_exec(unsigned int vcpu, void *udata)
{
	struct block *b = udata;
	struct block *prev = vcpu < MAX_VCPUS ? last_block[vcpu] : NULL;

	if (b->window) {
		__atomic_fetch_add(&window_toggles, 1, __ATOMIC_RELAXED);
		counting = !counting;
	}
	if (!counting)
		goto done;
	__atomic_fetch_add(&b->count, 1, __ATOMIC_RELAXED);
	if (b->callee >= 0 && prev) {
		uint64_t site = prev->insn_vaddr[prev->n_insns - 1];
		gpointer key = (gpointer)(uintptr_t)site;
		uintptr_t n;

		g_mutex_lock(&lock);
		n = (uintptr_t)g_hash_table_lookup(calls[b->callee], key);
		g_hash_table_insert(calls[b->callee], key, (gpointer)(n + 1));
		g_mutex_unlock(&lock);
	}
done:
	if (vcpu < MAX_VCPUS)
		last_block[vcpu] = b;
	if (b->end) {
		/* exit() runs QEMU's atexit handler, which runs every plugin's. */
		qemu_plugin_outs("insn-profile: the guest reached end=, QEMU exits\n");
		exit(EXIT_SUCCESS);
	}
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	struct block key, *b;
	size_t i;
	int c;

	key.vaddr = qemu_plugin_tb_vaddr(tb);
	key.n_insns = qemu_plugin_tb_n_insns(tb);
	if (!key.n_insns)
		return;
	g_mutex_lock(&lock);
	b = g_hash_table_lookup(blocks, &key);
	if (!b) {
		b = g_new0(struct block, 1);
		b->vaddr = key.vaddr;
		b->n_insns = key.n_insns;
		b->insn_vaddr = g_new(uint64_t, b->n_insns);
		for (i = 0; i < b->n_insns; i++)
			b->insn_vaddr[i] = qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, i));
		b->callee = -1;
		for (i = 0; i < b->n_insns; i++) {
			if (have_end && b->insn_vaddr[i] == end_addr)
				b->end = true;
			if (have_window && b->insn_vaddr[i] == window_addr)
				b->window = true;
		}
		for (c = 0; c < n_callees; c++)
			if (callees[c] == b->vaddr)
				b->callee = c;
		g_hash_table_insert(blocks, b, b);
	}
	g_mutex_unlock(&lock);
	qemu_plugin_register_vcpu_tb_exec_cb(tb, block_exec, QEMU_PLUGIN_CB_NO_REGS, b);
}

static void plugin_exit(qemu_plugin_id_t id, void *p)
{
	GHashTable *insns = g_hash_table_new(g_int64_hash, g_int64_equal);
	GString *rep = g_string_new(NULL);
	GHashTableIter it;
	gpointer k, v;
	uint64_t total = 0;
	FILE *f = NULL;
	size_t i;
	int c;

	g_mutex_lock(&lock);
	g_hash_table_iter_init(&it, blocks);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		struct block *b = v;

		if (!b->count)
			continue;
		for (i = 0; i < b->n_insns; i++) {
			uint64_t *n = g_hash_table_lookup(insns, &b->insn_vaddr[i]);

			if (!n) {
				n = g_new0(uint64_t, 2);
				n[0] = b->insn_vaddr[i];
				g_hash_table_insert(insns, &n[0], n);
			}
			n[1] += b->count;
			total += b->count;
		}
	}
	g_string_append_printf(rep, "total %" PRIu64 "\n", total);
	if (have_window)
		g_string_append_printf(rep, "window %u\n", window_toggles);
	g_hash_table_iter_init(&it, insns);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		uint64_t *n = v;

		g_string_append_printf(rep, "insn 0x%" PRIx64 " %" PRIu64 "\n", n[0], n[1]);
	}
	for (c = 0; c < n_callees; c++) {
		g_hash_table_iter_init(&it, calls[c]);
		while (g_hash_table_iter_next(&it, &k, &v))
			g_string_append_printf(rep, "call 0x%" PRIx64 " 0x%" PRIx64 " %" PRIuPTR "\n",
					       callees[c], (uint64_t)(uintptr_t)k, (uintptr_t)v);
	}
	g_mutex_unlock(&lock);

	if (out_path)
		f = fopen(out_path, "w");
	if (f) {
		fputs(rep->str, f);
		fclose(f);
	} else {
		if (out_path)
			qemu_plugin_outs("insn-profile: cannot write out=, writing here\n");
		qemu_plugin_outs(rep->str);
	}
	g_string_free(rep, TRUE);
}

/*
 * parse_addr - the address after NAME= in @opt, when @opt is NAME=ADDR:
 * true with *@addr set; false otherwise, with a message when the address
 * is not one.  *@bad tells the two apart.
 */
static bool parse_addr(const char *opt, const char *name, uint64_t *addr, bool *bad)
{
	size_t n = strlen(name);
	char *end;

	if (strncmp(opt, name, n) || opt[n] != '=')
		return false;
	*addr = g_ascii_strtoull(opt + n + 1, &end, 0);
	if (*end || end == opt + n + 1) {
		fprintf(stderr, "insn-profile: bad %s=: %s\n", name, opt);
		*bad = true;
		return false;
	}
	return true;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	bool bad = false;
	uint64_t a;
	int i;

	for (i = 0; i < argc && !bad; i++) {
		char *opt = argv[i];

		if (g_str_has_prefix(opt, "out=")) {
			out_path = g_strdup(opt + 4);
		} else if (parse_addr(opt, "callee", &a, &bad)) {
			if (n_callees == MAX_CALLEES) {
				fprintf(stderr, "insn-profile: too many callee= (at most %d): %s\n",
					MAX_CALLEES, opt);
				return -1;
			}
			calls[n_callees] = g_hash_table_new(g_direct_hash, g_direct_equal);
			callees[n_callees++] = a;
		} else if (parse_addr(opt, "end", &end_addr, &bad)) {
			have_end = true;
		} else if (parse_addr(opt, "window", &window_addr, &bad)) {
			have_window = true;
			counting = false;
		} else if (!bad) {
			fprintf(stderr, "insn-profile: unknown argument %s\n", opt);
			return -1;
		}
	}
	if (bad)
		return -1;
	blocks = g_hash_table_new(block_hash, block_equal);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, plugin_exit, NULL);
	return 0;
}
