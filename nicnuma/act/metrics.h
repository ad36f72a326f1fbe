/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metrics.h - the host's placement as Prometheus metrics (textfile format)
 *
 * node_exporter's textfile collector reads *.prom files from a directory;
 * nicnuma metrics renders one from a host snapshot, a check run against a
 * plan, the irqbalance inspection and the watcher's state file. Every family
 * is one row of a table (metrics.c): name, HELP, TYPE, what it is per (host,
 * NIC, node pool) and a getter that says whether a sample exists.
 *
 * Unknown values are left out, never written as -1: a NIC whose NUMA node the
 * kernel does not know has no nicnuma_nic_numa_node sample and
 * nicnuma_nic_numa_node_known 0, so "node != 1" alerts never fire on a -1.
 */
#ifndef NICNUMA_METRICS_H
#define NICNUMA_METRICS_H

#include <stdbool.h>
#include <stddef.h>

struct nn_ctx;
struct nn_host;
struct nn_plan;
struct nn_nic;
struct nn_sb;
struct nn_check_report;

/* The watcher's state file (issue 13 contract); absent: not running. */
#define NN_WATCH_STATE_FILE "/run/nicnuma/watch.json"

/* What the watcher's state file says. */
struct nn_metrics_watch {
	bool running;		/* the file names a live nicnuma process */
	bool has_time;
	double last_time;	/* last action, seconds since the epoch */
	bool has_result;
	bool last_ok;		/* its result was "ok" */
	long long events, applies, values_written;	/* -1 absent */
};

/* Per NIC, what the families show (counts from the check run). */
struct nn_metrics_nic {
	const struct nn_nic *nic;	/* borrowed from the host */
	long queue_irqs;
	long off_node;		/* -1: the NIC's node is unknown */
	long off_plan;		/* -1: no check ran (no plan) */
	long drift;		/* -1: no check ran */
};

struct nn_metrics {
	const struct nn_host *host;	/* borrowed */
	struct nn_metrics_nic *nics;
	size_t nnics;
	bool checked;		/* a check ran against a plan */
	long drift_total;	/* all drifted values, irqbalance included */
	bool irqb_running;
	bool irqb_fenced;
	struct nn_metrics_watch watch;
};

/* Fills @m from @host (not virtual NICs) and, when @plan is not NULL, a check
 * run of @plan through ctx->root; reads NN_WATCH_STATE_FILE through the root.
 * An unreadable or malformed state file is a warning (watch_running 0).
 * Returns 0 or a negative errno (the check's). */
int nn_metrics_collect(struct nn_ctx *ctx, const struct nn_host *host, const struct nn_plan *plan,
		       struct nn_metrics *m);
void nn_metrics_free(struct nn_metrics *m);

/* The exposition text: # HELP, # TYPE and the samples of every family that
 * has one; label values escaped (\\, \", \n) and every other byte that is not
 * printable ASCII written as the text \xNN, as nicnuma prints names
 * everywhere. Returns 0 or the builder's negative errno. */
int nn_metrics_render(const struct nn_metrics *m, struct nn_sb *sb);
/* The same samples through the print layer (JSON: "samples":[{name, labels,
 * value}]). */
void nn_metrics_print_json(struct nn_ctx *ctx, const struct nn_metrics *m);
/* Replaces the host file @path atomically (temp + rename in its directory,
 * mode 0644) so node_exporter never reads half a file. 0 or -errno. */
int nn_metrics_write_file(const char *path, const char *text, size_t len);

/* Label value escaping of the exposition format (and the \xNN rule above). */
void nn_metrics_escape_label(struct nn_sb *sb, const char *s);
/* Parses the watcher's state file text (pure, unit-tested). -EINVAL when it is
 * not a JSON object; fields it lacks stay absent. running is not set here. */
int nn_metrics_parse_watch(const char *text, struct nn_metrics_watch *w, int *pid);

#endif
