// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_check_pid.c - "nicnuma check --pid PID[,PID]": where a running process's
 * threads and memory sit, node by node, and whether that is a problem.
 *
 * Options and the sampling loop only: the snapshot (status, numa_maps,
 * threads' CPUs, read through the fs root) is nicnuma/discover/procmap_read.c's,
 * the verdict nicnuma/discover/procmap.c's, its printing procmap_print.c's.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "opts.h"
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
	{ "interval", 'i', NN_ARG_REQUIRED, "SECONDS", "repeat every SECONDS (fractions allowed), one line per "
	  "process per sample; Ctrl-C stops. With --json, one JSON document per sample", 'i' },
	{ "watch", 'w', NN_ARG_REQUIRED, "SECONDS", "old spelling of --interval", 'w',
	  .deprecated = "interval" },
	{ "count", 'c', NN_ARG_REQUIRED, "N", "with --interval: stop after N samples", 'c' },
	{ "threshold", 't', NN_ARG_REQUIRED, "PERCENT", "remote share that counts as mostly remote "
	  "(default 50)", 't' },
	{ "min-memory", 'm', NN_ARG_REQUIRED, "MIB", "judge remote only from this much private memory "
	  "(default 0: any)", 'm' },
	{ 0 },
};

const struct nn_cmd_desc nn_desc_check_pid = {
	.name = "check --pid",
	.usage = "nicnuma check --pid PID[,PID...] [--interval SECONDS] [--count N]\n"
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
"Example: nicnuma check --pid $(pidof testpmd) --interval 2\n",
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
		case 'i':
		case 'w':
			errno = 0;
			o->watch = strtod(arg, &end);
			if (errno || end == arg || *end || !(o->watch >= 0.05 && o->watch <= 86400)) {
				nn_err(ctx, "--interval: '%s' is not a number of seconds between 0.05 and 86400",
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
		nn_err(ctx, "--count only makes sense with --interval");
		return -EINVAL;
	}
	return 0;
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
			nn_pm_error_print(&ctx->out, o->pids[i], err);
			nn_pm_snapshot_free(&r);
			continue;
		}
		if (r.v.flags & NN_PMV_FLAGGED)
			flagged = true;
		if (live_line && !ctx->out.json)
			nn_pm_line_print(&ctx->out, &r, stamp);
		else
			nn_pm_report_print(&ctx->out, &r);
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
