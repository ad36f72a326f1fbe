// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_check_pid.c - "nicnuma check --pid PID[,PID]": where a running process's
 * threads and memory sit, node by node, and whether that is a problem.
 *
 * Options and output only: the snapshot (status, numa_maps, threads' CPUs,
 * read through the fs root) is nicnuma/discover/procmap_read.c's, the verdict
 * nicnuma/discover/procmap.c's.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "opts.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/core/cpuset.h"
#include "nicnuma/discover/procmap.h"

struct check_opts {
	int *pids;
	size_t npids;
	double watch;			/* seconds; 0: one report */
	long count;			/* samples with --watch; 0: until SIGINT/SIGTERM */
	struct nn_pm_thresholds th;
};

static const struct nn_opt opts[] = {
	{ "pid", 'p', NN_ARG_REQUIRED, "PID[,PID...]", "processes to check (required)", 'p' },
	{ "watch", 'w', NN_ARG_REQUIRED, "SECONDS", "repeat every SECONDS (fractions allowed), one line per "
	  "process per sample; Ctrl-C stops. With --json, one JSON document per sample", 'w' },
	{ "count", 'c', NN_ARG_REQUIRED, "N", "with --watch: stop after N samples", 'c' },
	{ "threshold", 't', NN_ARG_REQUIRED, "PERCENT", "remote share that counts as mostly remote "
	  "(default 50)", 't' },
	{ "min-memory", 'm', NN_ARG_REQUIRED, "MIB", "judge remote only from this much private memory "
	  "(default 0: any)", 'm' },
	{ 0 },
};

const struct nn_cmd_desc nn_desc_check_pid = {
	.name = "check --pid",
	.usage = "nicnuma check --pid PID[,PID...] [--watch SECONDS] [--count N]\n"
		 "                     [--threshold PERCENT] [--min-memory MIB]",
	.intro =
"Show where a running process's threads and memory sit on the NUMA nodes, and\n"
"flag the placements that cost remote memory accesses. For each PID it reads\n"
"/proc/PID/status (Cpus_allowed_list, Mems_allowed_list), /proc/PID/numa_maps\n"
"(pages per node of every mapping, and its memory policy) and the CPU each\n"
"thread last ran on (/proc/PID/task/TID/stat), through --root when given.\n"
"\n"
"Memory is counted per node in three classes: anon (heap, stacks, private\n"
"copies of file pages), file (page cache, shmem) and huge (hugetlbfs pages).\n"
"Anonymous and hugetlb memory is the process's own and decides the verdict;\n"
"file pages land where any process first read them and are only reported.\n"
"\n"
"Verdicts:\n"
"  memory mostly remote          more than PERCENT of the private memory is\n"
"                                on nodes none of the threads last ran on\n"
"                                (first touch happened on the wrong node)  [flagged]\n"
"  threads span nodes without a memory policy\n"
"                                threads on several nodes, every mapping on\n"
"                                the default first-touch policy            [flagged]\n"
"  memory outside its bind nodes pages of a bind mapping on another node\n"
"                                (allocated before the policy was set)     [flagged]\n"
"  bound                         policy bind, memory where bound\n"
"  interleaved                   most private memory interleaved on purpose\n"
"  local                         most private memory on the threads' nodes\n"
"  exited (zombie)               it exited and waits to be reaped\n"
"  no resident memory, unknown locality: nothing to judge\n"
,
	.opts = opts,
	.outro =
"Exit status: 0 nothing flagged, 1 some process flagged (or warnings),\n"
"2 error (no such process, unreadable numa_maps, bad option).\n"
"\n"
"Example: nicnuma check --pid $(pidof testpmd) --watch 2\n",
};

static int parse_pids(struct nn_ctx *ctx, const char *arg, struct check_opts *o)
{
	char *copy = strdup(arg), *tok, *save = NULL;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		long v;
		int *np;

		if (nn_parse_long(tok, &v) || v <= 0 || v > 0x3fffffff) {
			nn_err(ctx, "--pid: '%s' is not a process id", tok);
			err = -EINVAL;
			break;
		}
		np = realloc(o->pids, (o->npids + 1) * sizeof(*np));
		if (!np) {
			err = -ENOMEM;
			break;
		}
		o->pids = np;
		o->pids[o->npids++] = (int)v;
	}
	if (!err && !o->npids) {
		nn_err(ctx, "--pid: no process id in '%s'", arg);
		err = -EINVAL;
	}
	free(copy);
	return err;
}

static int parse_opts(struct nn_ctx *ctx, int argc, char **argv, struct check_opts *o)
{
	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	const char *arg;
	bool has_count = false;
	char *end;
	long v;
	int c, err;

	memset(o, 0, sizeof(*o));
	nn_pm_thresholds_default(&o->th);
	while ((c = nn_opt_next(ctx, &nn_desc_check_pid, &st)) > 0) {
		arg = st.arg;
		switch (c) {
		case 'p':
			err = parse_pids(ctx, arg, o);
			if (err)
				return err;
			break;
		case 'w':
			errno = 0;
			o->watch = strtod(arg, &end);
			if (errno || end == arg || *end || !(o->watch >= 0.05 && o->watch <= 86400)) {
				nn_err(ctx, "--watch: '%s' is not a number of seconds between 0.05 and 86400",
				       arg);
				return -EINVAL;
			}
			break;
		case 'c':
			if (nn_parse_long(arg, &v) || v <= 0) {
				nn_err(ctx, "--count: '%s' is not a positive number", arg);
				return -EINVAL;
			}
			o->count = v;
			has_count = true;
			break;
		case 't':
			if (nn_parse_long(arg, &v) || v < 0 || v > 100) {
				nn_err(ctx, "--threshold: '%s' is not a percentage (0-100)", arg);
				return -EINVAL;
			}
			o->th.remote_fraction = (double)v / 100.0;
			break;
		case 'm':
			if (nn_parse_long(arg, &v) || v < 0 || v > (1L << 30)) {
				nn_err(ctx, "--min-memory: '%s' is not a size in MiB", arg);
				return -EINVAL;
			}
			o->th.min_bytes = (unsigned long long)v << 20;
			break;
		}
	}
	if (c < 0)
		return c == NN_OPT_HELP ? 1 : -EINVAL;
	if (!o->npids) {
		nn_err(ctx, "check --pid: give --pid PID[,PID...]");
		return -EINVAL;
	}
	if (has_count && !o->watch) {
		nn_err(ctx, "--count only makes sense with --watch");
		return -EINVAL;
	}
	return 0;
}

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

static void print_report(struct nn_ctx *ctx, const struct nn_pm_snapshot *r)
{
	struct nn_out *o = &ctx->out;
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
static void print_live(struct nn_ctx *ctx, const struct nn_pm_snapshot *r, const char *stamp)
{
	struct nn_out *o = &ctx->out;
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

static int sample(struct nn_ctx *ctx, const struct check_opts *o, bool live_line)
{
	struct nn_pm_cpu_nodes cn;
	char stamp[32] = "";
	time_t now = time(NULL);
	struct tm tm;
	bool flagged = false, failed = false;
	size_t i;
	int err;

	if (localtime_r(&now, &tm))
		strftime(stamp, sizeof(stamp), "%H:%M:%S", &tm);
	err = nn_pm_cpu_nodes_read(ctx, &cn);
	if (err) {
		nn_err(ctx, "cannot read the node CPU lists: %s", strerror(-err));
		return NN_EXIT_ERROR;
	}
	nn_open_object(&ctx->out, NULL);
	if (o->watch)
		nn_print_string(&ctx->out, PRINT_JSON, "time", NULL, stamp);
	nn_open_array(&ctx->out, "processes");
	for (i = 0; i < o->npids; i++) {
		struct nn_pm_snapshot r;

		err = nn_pm_snapshot_read(ctx, &cn, &o->th, o->pids[i], &r);
		if (err) {
			failed = true;
			nn_open_object(&ctx->out, NULL);
			nn_print_int(&ctx->out, PRINT_JSON, "pid", NULL, o->pids[i]);
			nn_print_string(&ctx->out, PRINT_JSON, "error", NULL,
					err == -ENOENT || err == -ESRCH ? "no such process" :
					strerror(-err));
			nn_close_object(&ctx->out);
			nn_pm_snapshot_free(&r);
			continue;
		}
		if (r.v.flags & NN_PMV_FLAGGED)
			flagged = true;
		if (live_line && !ctx->out.json)
			print_live(ctx, &r, stamp);
		else
			print_report(ctx, &r);
		if (!live_line && i + 1 < o->npids)
			nn_printf(&ctx->out, "\n");
		nn_pm_snapshot_free(&r);
	}
	nn_close_array(&ctx->out);
	nn_pm_cpu_nodes_free(&cn);
	nn_print_warnings(ctx);
	nn_close_object(&ctx->out);
	if (failed)
		return NN_EXIT_ERROR;
	return flagged || ctx->nwarns ? NN_EXIT_WARN : NN_EXIT_OK;
}

/* Waits @secs or until SIGINT/SIGTERM (blocked, so no handler and no global
 * flag are needed). Returns true when a signal asked us to stop. */
static bool wait_or_signal(const sigset_t *set, double secs)
{
	struct timespec ts = { .tv_sec = (time_t)secs,
			       .tv_nsec = (long)((secs - (double)(time_t)secs) * 1e9) };

	for (;;) {
		int s = sigtimedwait(set, NULL, &ts);

		if (s > 0)
			return true;
		if (errno == EAGAIN)
			return false;
		/* EINTR from another signal: wait again (a short extra wait is fine) */
	}
}

int cmd_check_pid(struct nn_ctx *ctx, int argc, char **argv)
{
	struct check_opts o;
	sigset_t set, old;
	int err, ret, worst = NN_EXIT_OK;
	long n;

	err = parse_opts(ctx, argc, argv, &o);
	if (err) {
		free(o.pids);
		return err > 0 ? NN_EXIT_OK : NN_EXIT_ERROR;
	}
	if (!o.watch) {
		ret = sample(ctx, &o, false);
		free(o.pids);
		return ret;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, &old);
	for (n = 0; !o.count || n < o.count; n++) {
		ret = sample(ctx, &o, true);
		if (ret > worst)
			worst = ret;
		/* Each sample is its own report: its warnings were printed with it. */
		nn_warnings_clear(ctx);
		if (nn_out_flush(&ctx->out) < 0) {
			worst = NN_EXIT_ERROR;
			break;
		}
		if (ret == NN_EXIT_ERROR && o.npids == 1)
			break;	/* the only process is gone: nothing left to watch */
		if ((o.count && n + 1 >= o.count) || wait_or_signal(&set, o.watch))
			break;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	free(o.pids);
	return worst;
}
