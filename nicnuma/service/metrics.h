/* SPDX-License-Identifier: GPL-2.0-or-later */
/* metrics.h - the host's placement as Prometheus metrics (textfile format)
 *
 * node_exporter's textfile collector reads *.prom files from a directory;
 * nicnuma metrics renders one from a host snapshot, a check run against a
 * plan, the irqbalance inspection, the NICs' PCIe links (discover/pcie.h)
 * and the watcher's state (service/persist.h). Every family
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
struct nn_obs_report;
struct nn_boot_assessed;

/* What the watcher's state says (service/persist.h's one reader). */
struct nn_metrics_watch {
	bool running;		/* a watcher holds /run/nicnuma/watch.lock */
	bool has_time;
	double last_time;	/* last action, seconds since the epoch */
	bool has_result;
	bool last_ok;		/* its result was applied, unchanged or skipped */
	long long events, applies, values_written;	/* -1 absent */
};

/* Where the plan the check ran against came from. */
enum nn_metrics_plan_source {
	NN_METRICS_PLAN_NONE,		/* no plan: no check families */
	NN_METRICS_PLAN_FILE,		/* --plan FILE */
	NN_METRICS_PLAN_DESIRED,	/* enabled: /etc/nicnuma/nicnuma.conf */
	NN_METRICS_PLAN_DEFAULT,	/* a fresh plan by the locality rule (plan options) */
	NN_METRICS_PLAN_APPLIED,	/* check: the newest apply's plan (state/applied_plan.h) */
};

/* Per NIC, what the families show (counts from the check run). */
struct nn_metrics_nic {
	const struct nn_nic *nic;	/* borrowed from the host */
	long queue_irqs;
	long unknown_role;	/* IRQs of no recognised role (placed like queues) */
	long off_node;		/* misplaced (irq_place.h); -1: the NIC's node is unknown */
	long spill;		/* planned spills to a near node; -1 likewise */
	long off_plan;		/* -1: no check ran (no plan) */
	long drift;		/* -1: no check ran */
};

/* A planned DPDK port as the check found it (check's one verdict). */
struct nn_metrics_port {
	char pci[16];
	int node;		/* -1 unknown: the label is "" */
	char driver[32];	/* now; "" none */
	char planned[32];
	bool bound;		/* on its planned driver (check: in_place) */
};

struct nn_metrics {
	const struct nn_host *host;	/* borrowed */
	struct nn_metrics_nic *nics;
	size_t nnics;
	bool checked;		/* a check ran against a plan */
	enum nn_metrics_plan_source plan_source;
	long drift_total;	/* all drifted values, irqbalance included */
	bool irqb_running;
	bool irqb_fenced;
	struct nn_metrics_watch watch;
	/* Run-time claims (discover/claims.h): live claims and their CPUs from
	 * the host; the plan's claim spills and the IRQs on claimed CPUs from
	 * the check (no samples without one). */
	long claims, claimed_cpus;
	long claim_spills, on_claimed;
	/* The desired state's NICs and how many the host has (the caller
	 * sets these after nn_metrics_collect(): no samples unless has_desired). */
	bool has_desired;
	long desired_nics, desired_nics_present;
	/* An observation of the packet work (metrics --traffic; the caller
	 * sets it, borrowed): the traffic families, none when NULL. Its NICs
	 * must be @host's (nn_obs_once over the same host). */
	const struct nn_obs_report *traffic;
	/* The kernel arguments nicnuma configured (the boot record) and each
	 * one's state (boot/boot_print.h): read by nn_metrics_collect; no
	 * samples when the boot facts could not be read (boot_known false). */
	bool boot_known;
	bool reboot_pending;
	long boot_drift;
	struct nn_boot_assessed *boot;
	size_t nboot;
	/* The plan's DPDK ports (the desired state's dpdk_port) from the check. */
	struct nn_metrics_port *ports;
	size_t nports;
};

/* Fills @m from @host (not virtual NICs: their queue and PCIe families)
 * and, when @plan is not NULL, a check run of @plan (from @source) through
 * ctx->root; the watcher from its lock and state file (nn_watch_state_read).
 * An unreadable or malformed state file is a warning (watch_running as the
 * lock says). Returns 0 or a negative errno (the check's). */
int nn_metrics_collect(struct nn_ctx *ctx, const struct nn_host *host, const struct nn_plan *plan,
		       enum nn_metrics_plan_source source, struct nn_metrics *m);
/* "file", "desired", "default", "none": the plan_source label. */
const char *nn_metrics_plan_source_name(enum nn_metrics_plan_source s);
/* The desired state's plan (source "desired"): 0, 1 when there is none to
 * check (a warning), or -errno (printed). @m gets the desired NICs and how
 * many are present. */
int nn_metrics_desired_plan(struct nn_ctx *ctx, struct nn_host *host, struct nn_plan *plan,
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
/* The metrics as text into @sb (unless only JSON is printed) and, with
 * @output, written there (nn_metrics_write_file). 0 or -errno (message
 * printed). */
int nn_metrics_output(struct nn_ctx *ctx, const struct nn_metrics *m, const char *output, struct nn_sb *sb);
/* The "metrics" object of ctx->out: "output" ("wrote FILE"), "plan_source",
 * and the samples in JSON, or without @output the text @text itself. */
void nn_metrics_print(struct nn_ctx *ctx, const struct nn_metrics *m, enum nn_metrics_plan_source source,
		      const char *output, const char *text);
/* Replaces the host file @path atomically (temp + rename in its directory,
 * mode 0644) so node_exporter never reads half a file. 0 or -errno. */
int nn_metrics_write_file(const char *path, const char *text, size_t len);

/* Label value escaping of the exposition format (and the \xNN rule above). */
void nn_metrics_escape_label(struct nn_sb *sb, const char *s);
/* The metrics view of a parsed state file (pure, unit-tested); running is
 * not set here. */
struct nn_watch_state;
void nn_metrics_watch_from_state(const struct nn_watch_state *st, struct nn_metrics_watch *w);

#endif
