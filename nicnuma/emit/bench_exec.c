// SPDX-License-Identifier: GPL-2.0-or-later
/* bench_exec.c - run nicnuma-fwd as a child, lend it hugepages reversibly,
 * and the host lookups the bench needs (its binary, the ports' node)
 *
 * The child is core's bounded run (cmd_exec.h) of an argument vector (never
 * a shell): an interrupt is forwarded to it as SIGTERM, which nicnuma-fwd
 * turns into stop traffic, drain, close ports.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nicnuma/emit/bench_exec.h"
#include "nicnuma/core/cmd_exec.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/discover/nic.h"
#include "nicnuma/core/pathf.h"
#include "nicnuma/core/print.h"
#include "nicnuma/state/tx.h"
#include "hugepages/hp_set.h"
#include "ports/port.h"

/* Free pages of one node's pool, -1 unknown (hugepages/hp_state.c reads and warns). */
static long pool_free(struct nn_ctx *ctx, int node, unsigned long size_kb)
{
	struct nn_hp_pool p;

	nn_hp_pool_read(ctx, true, node, size_kb, &p);
	return p.free;
}

long nn_bench_hugepages_free(struct nn_ctx *ctx, int node)
{
	return pool_free(ctx, node, NN_BENCH_PAGE_KB);
}

int nn_bench_hugepages_ensure(struct nn_ctx *ctx, struct nn_undo *undo, int node, long pages,
			      struct nn_bench_hp *hp)
{
	struct nn_hp_result res;
	char path[PATH_MAX];
	long free_now;
	int err;

	hp->node = node;
	hp->added = 0;
	if (nn_hp_pool_path(true, node, NN_BENCH_PAGE_KB, "free_hugepages", path, sizeof(path)))
		path[0] = '\0';
	free_now = nn_bench_hugepages_free(ctx, node);
	if (free_now < 0) {
		nn_warn(ctx, path, "cannot read node %d's free 2 MB hugepages", node);
		return -ENOENT;
	}
	if (free_now >= pages)
		return 0;
	err = nn_hugepages_reserve(ctx, undo, node, NN_BENCH_PAGE_KB, pages - free_now,
				   NN_HP_PARTIAL, &res);
	if (res.changed && res.after > res.before)
		hp->added = res.after - res.before;
	if (err && err != -ENOMEM) {
		nn_warn(ctx, path, "cannot reserve %ld hugepages on node %d: %s", pages - free_now, node,
			strerror(-err));
		return err;
	}
	if (err || nn_bench_hugepages_free(ctx, node) < pages) {
		nn_warn(ctx, path, "the kernel gave %ld of %ld hugepages on node %d (memory fragmented "
			"or short); rows using it may fail", hp->added, pages - free_now, node);
		return -ENOMEM;
	}
	return 0;
}

int nn_bench_find_fwd(struct nn_ctx *ctx, const char *opt, char *buf, size_t size)
{
	static const char *const rel[] = { "/nicnuma-fwd", "/../dpdk-app/nicnuma-fwd" };
	char self[PATH_MAX], *slash;
	size_t i;

	if (opt) {
		snprintf(buf, size, "%s", opt);
		if (access(buf, X_OK) == 0)
			return 0;
		nn_err(ctx, "bench: --fwd %s: not an executable: %s", buf, strerror(errno));
		return -ENOENT;
	}
	if (nn_root_readlink(&ctx->root, "/proc/self/exe", self, sizeof(self)) == 0 &&
	    (slash = strrchr(self, '/'))) {
		*slash = '\0';
		for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
			if (snprintf(buf, size, "%s%s", self, rel[i]) >= (int)size)
				continue;
			if (access(buf, X_OK) == 0)
				return 0;
		}
	}
	nn_err(ctx, "bench: cannot find nicnuma-fwd next to this nicnuma (built only when libdpdk-dev "
	       "is installed: apt-get install libdpdk-dev, then meson setup/ninja); or pass --fwd PATH");
	return -ENOENT;
}

/* A port bound to vfio-pci for DPDK has no netdev: its node comes from the
 * PCI function, through discovery's one numa_node reader. */
static int pci_numa_node(struct nn_ctx *ctx, const char *pci, long *node, char *path, size_t size)
{
	char dir[PATH_MAX];

	if (nn_pathf(dir, sizeof(dir), "/sys/bus/pci/devices/%s", pci) ||
	    nn_pathf(path, size, "/sys/bus/pci/devices/%s/numa_node", pci))
		return -ENAMETOOLONG;
	return nn_device_numa_node(&ctx->root, dir, node);
}

int nn_bench_port_node(struct nn_ctx *ctx, const struct nn_bench_cfg *cfg)
{
	char path[PATH_MAX];
	long v;
	int i, node = -1;

	for (i = 0; i < cfg->npci; i++) {
		if (pci_numa_node(ctx, cfg->pci[i], &v, path, sizeof(path)) < 0) {
			nn_err(ctx, "bench: --pci %s: no such PCI device (%s unreadable)", cfg->pci[i], path);
			return -ENODEV;
		}
		if (i == 0)
			node = v < 0 ? -1 : (int)v;
		else if ((v < 0 ? -1 : (int)v) != node)
			nn_warn(ctx, path, "%s is on node %ld but %s on node %d; 'local' follows %s",
				cfg->pci[i], v, cfg->pci[0], node, cfg->pci[0]);
	}
	return node;
}

int nn_bench_bound_port(struct nn_ctx *ctx, int prefer_node, char *pci, size_t len, int *node)
{
	char **bound = NULL, path[PATH_MAX];
	size_t n = 0, i;
	int *nodes = NULL, k, err = nn_vfio_bound_list(ctx, &bound, &n);

	if (!err && !n)
		err = -ENOENT;
	if (!err && !(nodes = calloc(n, sizeof(*nodes))))
		err = -ENOMEM;
	for (i = 0; !err && i < n; i++) {
		long v;

		nodes[i] = pci_numa_node(ctx, bound[i], &v, path, sizeof(path)) < 0 || v < 0 ? -1 : (int)v;
	}
	if (!err) {
		k = nn_bench_pick_port(nodes, n, prefer_node);
		snprintf(pci, len, "%s", bound[k]);
		*node = nodes[k];
	}
	for (i = 0; i < n; i++)
		free(bound[i]);
	free(bound);
	free(nodes);
	return err;
}

/* The last three lines of a child's stderr, for a warning. */
void nn_bench_err_tail(const char *err, char *buf, size_t size)
{
	size_t n = strlen(err), k = 0;
	const char *p;
	int lines = 0;

	while (n && (err[n - 1] == '\n' || err[n - 1] == ' '))
		n--;
	for (p = err + n; p > err; p--)
		if (p[-1] == '\n' && ++lines == 3)
			break;
	/* one line: a warning shows a raw newline as \x0a */
	for (; p < err + n && k + 3 < size; p++) {
		if (*p == '\n') {
			buf[k++] = ' ';
			buf[k++] = '|';
			buf[k++] = ' ';
		} else {
			buf[k++] = *p;
		}
	}
	if (size)
		buf[k < size ? k : size - 1] = '\0';
}

int nn_bench_run_row(struct nn_ctx *ctx, const struct nn_bench_cfg *cfg, struct nn_bench_row *r,
		     const sigset_t *child_mask, bool *interrupted)
{
	const struct nn_cmd_limits lim = { cfg->duration + 60, NN_BENCH_GRACE_S, NN_BENCH_CAPTURE_MAX,
					   NN_BENCH_CAPTURE_MAX, false, false };
	const struct nn_cmd_child c = { .argv = r->argv };
	unsigned int i;
	int ret;

	r->runs = calloc(cfg->repeat, sizeof(*r->runs));
	if (!r->runs)
		return -ENOMEM;
	for (i = 0; i < cfg->repeat && !*interrupted; i++) {
		struct nn_bench_run *res = &r->runs[r->nruns++];
		char *out = NULL, *err = NULL, tail[512];
		struct nn_cmd_result cres = { 0 };

		nn_bench_run_unknown(res);
		if (!ctx->out.json)
			nn_fprintf_text(stderr, "  run %u/%u: lcores %s (node %d, cpu %d), mbufs %s (node %d)\n",
				i + 1, cfg->repeat, r->lsel, r->lcore_node, r->fwd_cpu, r->msel, r->mbuf_node);
		ret = nn_cmd_run(&c, child_mask, &lim, &out, &err, &cres);
		*interrupted = *interrupted || cres.interrupted;
		res->status = cres.status;
		if (ret < 0) {
			nn_warn(ctx, r->argv[0], "cannot run: %s", strerror(-ret));
			continue;
		}
		if (res->status == 0 || res->status == 1)
			nn_bench_parse_report(out, res);
		if (!res->ok) {
			nn_bench_err_tail(err ? err : "", tail, sizeof(tail));
			nn_warn(ctx, r->argv[0], "lcores %s/mbufs %s run %u: exit %d: %s", r->lsel, r->msel,
				i + 1, res->status, tail);
		} else if (res->fwd_cpu_seen != r->fwd_cpu) {
			nn_warn(ctx, r->argv[0], "lcores %s/mbufs %s run %u: forwarder ran on CPU %d, not %d",
				r->lsel, r->msel, i + 1, res->fwd_cpu_seen, r->fwd_cpu);
		} else if (!res->verified) {
			nn_warn(ctx, r->argv[0], "lcores %s/mbufs %s run %u: pool pages not all on node %d",
				r->lsel, r->msel, i + 1, r->mbuf_node);
		}
		free(out);
		free(err);
	}
	return 0;
}

int nn_bench_hugepages_lend(struct nn_ctx *ctx, struct nn_bench_lend *l, struct nn_bench_result *b)
{
	struct nn_tx *tx = &l->tx;
	int i, j, err;

	if (b->in_memory)
		return 0;
	for (i = 0; i < 4; i++) {
		const struct nn_bench_row *r = &b->rows[0][i];	/* same nodes at every size */
		long free_now;
		bool seen = false;

		if (r->skipped[0])
			continue;
		for (j = 0; j < b->nhp; j++)
			seen = seen || b->hp[j].node == r->mbuf_node;
		if (seen)
			continue;
		free_now = nn_bench_hugepages_free(ctx, r->mbuf_node);
		if (free_now >= 0 && free_now < NN_BENCH_PAGES && !tx->begun) {
			err = nn_tx_lock(ctx, tx);
			if (err)
				return err;
			err = nn_tx_begin(ctx, tx, "bench mismatch");
			if (err) {
				nn_err(ctx, "bench: cannot start the undo log in %s: %s", ctx->state_dir,
				       strerror(-err));
				return err;
			}
		}
		nn_bench_hugepages_ensure(ctx, tx->begun ? &tx->log : NULL, r->mbuf_node,
					  NN_BENCH_PAGES, &b->hp[b->nhp]);
		b->nhp++;
	}
	return 0;
}

void nn_bench_hugepages_return(struct nn_ctx *ctx, struct nn_bench_lend *l)
{
	struct nn_tx *tx = &l->tx;

	if (l->returned) {
		nn_tx_end(tx);
		return;
	}
	l->returned = true;
	if (tx->begun && tx->log.nchanges) {
		nn_printf(&ctx->out, "\nhugepages added for the bench, given back:\n");
		nn_open_object(&ctx->out, "hugepages_given_back");
		if (nn_tx_abort(tx) && !tx->restored)
			nn_err(ctx, "bench: not every hugepage count could be put back: see above; "
			       "'nicnuma rollback --state-dir %s' retries", ctx->state_dir);
		nn_close_object(&ctx->out);
	} else {
		/* a stable key: null when the pools already had the pages */
		nn_print_null(&ctx->out, PRINT_JSON, "hugepages_given_back", NULL);
	}
	nn_tx_end(tx);
}
