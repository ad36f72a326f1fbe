// SPDX-License-Identifier: GPL-2.0-or-later
/* procmap_print.c - a process's placement report ("check --pid"): table, JSON and the --watch line */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/print.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/discover/procmap.h"

static void fmt_bytes(char *buf, size_t size, unsigned long long b)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)b;
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	if (!u)
		snprintf(buf, size, "%llu B", b);
	else
		snprintf(buf, size, "%.1f %s", v, units[u]);
}

static void print_verdicts(struct nn_out *o, const struct nn_pm_verdict *v, bool text)
{
	unsigned int f;
	bool first = true;

	nn_open_array(o, "verdicts");
	for (f = 1; f <= NN_PMV_LAST; f <<= 1) {
		if (!(v->flags & f))
			continue;
		nn_print_string(o, PRINT_JSON, NULL, NULL, nn_pm_verdict_key(f));
		if (text)
			nn_printf(o, "%s%s%s", first ? "" : ", ", nn_pm_verdict_text(f),
				  (f & NN_PMV_FLAGGED) ? " [flagged]" : "");
		first = false;
	}
	nn_close_array(o);
}

/* "bind 1 (99%), default (1%)": the policies that hold private memory. */
static void policy_summary(const struct nn_pm_snapshot *r, const unsigned long long *by,
			   struct nn_sb *sb)
{
	int p;

	for (p = 0; p < NN_MPOL_COUNT; p++) {
		const struct nn_cpuset *nodes = NULL;
		char *list = NULL;

		if (!by[p])
			continue;
		if (p == NN_MPOL_BIND || p == NN_MPOL_PREFER || p == NN_MPOL_PREFER_MANY)
			nodes = &r->maps.bind_nodes;
		else if (p == NN_MPOL_INTERLEAVE || p == NN_MPOL_WEIGHTED_INTERLEAVE)
			nodes = &r->maps.interleave_nodes;
		if (nodes)
			list = nn_cpuset_format_list(nodes);
		nn_sb_printf(sb, "%s%s%s%s (%.0f%%)", sb->len ? ", " : "",
			     nn_mpol_name((enum nn_mpol)p), list ? " " : "", list ? list : "",
			     nn_pm_percent(by[p], r->v.private_bytes));
		free(list);
	}
	if (!sb->len)
		nn_sb_puts(sb, "-");
}

/* JSON keys of the private bytes under each policy. */
static const char *const policy_keys[NN_MPOL_COUNT] = {
	[NN_MPOL_DEFAULT] = "default_bytes",
	[NN_MPOL_LOCAL] = "local_bytes",
	[NN_MPOL_PREFER] = "prefer_bytes",
	[NN_MPOL_PREFER_MANY] = "prefer_many_bytes",
	[NN_MPOL_BIND] = "bind_bytes",
	[NN_MPOL_INTERLEAVE] = "interleave_bytes",
	[NN_MPOL_WEIGHTED_INTERLEAVE] = "weighted_interleave_bytes",
	[NN_MPOL_UNKNOWN] = "unknown_bytes",
};

void nn_pm_report_print(struct nn_out *o, const struct nn_pm_snapshot *r)
{
	unsigned long long by[NN_MPOL_COUNT];
	struct nn_sb pol = NN_SB_INIT;
	char sz[3][32];
	size_t i;
	int c, p;

	nn_open_object(o, NULL);
	nn_print_int(o, PRINT_ANY, "pid", "pid %lld", r->pid);
	nn_print_string(o, PRINT_ANY, "name", " (%s):", r->st.name[0] ? r->st.name : NULL);
	nn_print_uint(o, PRINT_ANY, "threads", " %llu thread(s)", r->nthreads);
	nn_print_cpuset(o, PRINT_ANY, "thread_nodes", " last ran on node(s) %s",
			&r->thread_nodes);
	if (nn_cpuset_empty(&r->thread_nodes))
		nn_printf(o, "unknown");
	nn_print_uint(o, PRINT_ANY, "threads_unknown_node", r->unknown_threads ?
		      " (%llu on a CPU of unknown node)" : NULL, r->unknown_threads);
	nn_printf(o, "\n");
	nn_print_cpuset(o, PRINT_ANY, "cpus_allowed", "  allowed: CPUs %s",
			r->st.has_cpus_allowed ? &r->st.cpus_allowed : NULL);
	nn_print_cpuset(o, PRINT_ANY, "mems_allowed", ", memory nodes %s\n",
			r->st.has_mems_allowed ? &r->st.mems_allowed : NULL);

	nn_open_array(o, "thread_cpus");
	for (i = 0; i < r->nthreads; i++) {
		nn_open_object(o, NULL);
		nn_print_int(o, PRINT_JSON, "tid", NULL, r->threads[i].tid);
		nn_print_opt_int(o, PRINT_JSON, "cpu", NULL, r->threads[i].cpu, NULL);
		nn_print_opt_int(o, PRINT_JSON, "node", NULL, r->threads[i].node, NULL);
		nn_close_object(o);
	}
	nn_close_array(o);

	nn_printf(o, "  %-6s %12s %12s %12s\n", "node", "anon", "file", "huge");
	nn_open_array(o, "memory");
	for (i = 0; i < r->maps.nnodes; i++) {
		const struct nn_pm_node *n = &r->maps.nodes[i];

		for (c = 0; c < NN_MEM_COUNT; c++)
			fmt_bytes(sz[c], sizeof(sz[c]), n->bytes[c]);
		nn_open_object(o, NULL);
		nn_print_int(o, PRINT_ANY, "node", "  %-6lld", n->node);
		nn_print_uint(o, PRINT_JSON, "anon_bytes", NULL, n->bytes[NN_MEM_ANON]);
		nn_print_uint(o, PRINT_JSON, "file_bytes", NULL, n->bytes[NN_MEM_FILE]);
		nn_print_uint(o, PRINT_JSON, "huge_bytes", NULL, n->bytes[NN_MEM_HUGE]);
		nn_printf(o, " %12s %12s %12s%s\n", sz[0], sz[1], sz[2],
			  nn_cpuset_test(&r->thread_nodes, (unsigned int)n->node) ?
			  "   <- threads here" : "");
		nn_close_object(o);
	}
	nn_close_array(o);
	if (!r->maps.nnodes)
		nn_printf(o, "  (nothing resident)\n");

	nn_pm_policy_bytes(&r->maps, by);
	nn_open_object(o, "policy");
	for (p = 0; p < NN_MPOL_COUNT; p++)
		if (by[p])
			nn_print_uint(o, PRINT_JSON, policy_keys[p], NULL, by[p]);
	nn_print_cpuset(o, PRINT_JSON, "bind_nodes", NULL, &r->maps.bind_nodes);
	nn_print_cpuset(o, PRINT_JSON, "interleave_nodes", NULL, &r->maps.interleave_nodes);
	nn_close_object(o);
	policy_summary(r, by, &pol);
	nn_printf(o, "  policy (private memory): %s\n", nn_sb_str(&pol) ? nn_sb_str(&pol) : "?");
	nn_sb_free(&pol);

	fmt_bytes(sz[0], sizeof(sz[0]), r->v.private_bytes);
	nn_print_uint(o, PRINT_JSON, "private_bytes", NULL, r->v.private_bytes);
	nn_print_uint(o, PRINT_JSON, "local_bytes", NULL, r->v.local_bytes);
	nn_print_uint(o, PRINT_JSON, "remote_bytes", NULL, r->v.remote_bytes);
	nn_print_uint(o, PRINT_JSON, "interleaved_bytes", NULL, r->v.interleaved_bytes);
	nn_print_uint(o, PRINT_JSON, "outside_bind_bytes", NULL, r->v.outside_bind_bytes);
	if (r->v.remote_fraction >= 0) {
		nn_print_double(o, PRINT_JSON, "remote_fraction", NULL, r->v.remote_fraction);
		nn_printf(o, "  private memory %s, %.1f%% off the threads' node(s)\n", sz[0],
			  100.0 * r->v.remote_fraction);
	} else {
		nn_print_null(o, PRINT_JSON, "remote_fraction", NULL);
		nn_printf(o, "  private memory %s\n", sz[0]);
	}
	nn_printf(o, "  verdict: ");
	print_verdicts(o, &r->v, true);
	nn_print_bool(o, PRINT_JSON, "flagged", NULL, (r->v.flags & NN_PMV_FLAGGED) != 0);
	nn_printf(o, "\n");
	nn_close_object(o);
}

/* One line per process per sample: "12:00:01 pid 42 (w) node 0 | 0:1.2G 1:3.0G | 71% remote | ...". */
void nn_pm_line_print(struct nn_out *o, const struct nn_pm_snapshot *r, const char *stamp)
{
	char *tn = nn_cpuset_format_list(&r->thread_nodes);
	char sz[32];
	size_t i;

	nn_printf(o, "%s pid %d (%s) threads on node %s |", stamp, r->pid, r->st.name,
		  tn && *tn ? tn : "unknown");
	free(tn);
	for (i = 0; i < r->maps.nnodes; i++) {
		const struct nn_pm_node *n = &r->maps.nodes[i];

		fmt_bytes(sz, sizeof(sz), n->bytes[NN_MEM_ANON] + n->bytes[NN_MEM_HUGE]);
		nn_printf(o, " N%d %s", n->node, sz);
	}
	if (r->v.remote_fraction >= 0)
		nn_printf(o, " | %.1f%% remote | ", 100.0 * r->v.remote_fraction);
	else
		nn_printf(o, " | ");
	print_verdicts(o, &r->v, true);
	nn_printf(o, "\n");
}

void nn_pm_error_print(struct nn_out *o, int pid, int err)
{
	nn_open_object(o, NULL);
	nn_print_int(o, PRINT_JSON, "pid", NULL, pid);
	nn_print_string(o, PRINT_JSON, "error", NULL,
			err == -ENOENT || err == -ESRCH ? "no such process" :
			strerror(-err));
	nn_close_object(o);
}
