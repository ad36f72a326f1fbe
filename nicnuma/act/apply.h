/* SPDX-License-Identifier: GPL-2.0-or-later */
/* apply.h - carry out a plan value by value, reversibly; compare live with it
 *
 * nn_apply_run() reads every value the plan touches before writing any (an
 * IRQ's affinity may come from the same run's discovery, opts->host; an
 * unreadable value aborts with nothing changed), saves the undo log once,
 * then handles irqbalance, channels, IRQ affinities, XPS masks, NAPI
 * threads, RPS/RFS values and NAPI settings (irq/ values), then RSS tables. A fatal write error rolls back everything changed so far unless
 * keep_going. nn_check_run() is the read-only twin: live vs plan.
 */
#ifndef NICNUMA_ACT_APPLY_H
#define NICNUMA_ACT_APPLY_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/core/cpuset.h"
#include "nicnuma/discover/host.h"
#include "nicnuma/discover/irq_place.h"
#include "nicnuma/plan/plan.h"
#include "irq/irqbalance.h"
#include "boot/boot_write.h"

struct nn_hp_result;

struct nn_ctx;
struct json_object;
struct nn_undo;
struct nn_tx;

/* NN_VAL_NAPI: a threaded NAPI's kthread (irq/napi_thread.h), path = its pid.
 * NN_VAL_RPS: rps_cpus, rps_flow_cnt or rps_sock_flow_entries (irq/rps.h),
 * path = the file. NN_VAL_NAPI_CONF: one per-NAPI setting (napi-set), path =
 * IF/NAPI_ID/SETTING; NN_VAL_NAPI_DEV: a device-wide NAPI file, path = it
 * (irq/napi_conf.h). NN_VAL_ETH: a coalescing value or ring size (ethtool
 * netlink, discover/ethtool_nl.h), path = IF/SETTING, logged as "coalesce"
 * or "rings"; a driver's refusal is a warning, the rest of the plan still
 * applies. NN_VAL_SYSCTL: a busy-poll sysctl (irq/busy_poll.h), path = its
 * /proc/sys file, logged as "busy_poll". */
enum nn_val_kind { NN_VAL_IRQ, NN_VAL_XPS, NN_VAL_CHANNELS, NN_VAL_RSS, NN_VAL_NAPI,
		   NN_VAL_RPS, NN_VAL_NAPI_CONF, NN_VAL_NAPI_DEV, NN_VAL_ETH, NN_VAL_SYSCTL };

/* Why an apply's values were put back: its own failure, or --verify
 * judged the host worse (JSON "failure", "verify"; NONE: not rolled back). */
enum nn_rollback_cause { NN_ROLLBACK_NONE, NN_ROLLBACK_FAILURE, NN_ROLLBACK_VERIFY };

enum nn_val_status {
	NN_VAL_PENDING = 0,	/* read, not yet written */
	NN_VAL_PLANNED,		/* dry run: would change */
	NN_VAL_UNCHANGED,	/* already as planned */
	NN_VAL_CHANGED,
	NN_VAL_MANAGED,		/* kernel-managed IRQ, left to the kernel */
	NN_VAL_FAILED,
	NN_VAL_ROLLED_BACK,
	NN_VAL_SKIPPED,		/* not applicable here (fake root, no xps_cpus) */
	NN_VAL_ALIGNED,		/* check: live equals plan */
	NN_VAL_DRIFT,		/* check: live differs */
};

struct nn_apply_val {
	enum nn_val_kind kind;
	int irq;			/* NN_VAL_IRQ */
	const char *nic;		/* borrowed from the plan */
	int queue;
	char *path;			/* file, or the ifname for channels and rss */
	char *before;			/* as read */
	char *planned;			/* kernel text of what we want */
	struct nn_cpuset want;		/* planned AND online */
	int want_n;			/* channels */
	unsigned int *rss_want;		/* rss: the planned table (rss_n entries) */
	unsigned int rss_n, rss_rings;	/* rss: the driver's table size, rx rings (0 unknown) */
	int pid;			/* napi: the kthread */
	long long napi_id;		/* napi, napi_conf */
	int ifindex;			/* napi_conf */
	enum nn_napi_attr napi_attr;	/* NN_VAL_NAPI_CONF, NN_VAL_NAPI_DEV */
	enum nn_eth_setting eth_setting;	/* NN_VAL_ETH */
	long long want_ll;		/* napi_conf, eth: the value */
	bool at_least;			/* rps_sock_flow_entries: a larger value is kept */
	char *after;			/* read back */
	char *effective;		/* effective_affinity_list after the write */
	enum nn_val_status status;
	bool written;			/* a write reached the kernel: undo it on failure */
	char note[192];
};

struct nn_apply_opts {
	bool dry_run;
	bool keep_going;
	enum nn_irqbalance_action irqbalance;
	struct json_object *shape;	/* host shape for the log (borrowed) */
	/* The discovery this run made (borrowed, may be NULL): an IRQ whose
	 * smp_affinity_list it read takes that as its value before, instead of
	 * a second read of the same file milliseconds later. */
	const struct nn_host *host;
	/* The caller's transaction (nicnuma/state/tx.h; borrowed, may be NULL:
	 * then the run takes the lock and keeps its log itself). Its lock,
	 * when held, was taken before the discovery whose values become the
	 * log's before-values. A log not begun yet gets this run's "apply"
	 * log, left in @tx for the caller to end. A log begun already is
	 * extended instead of starting a new one (the watcher's
	 * one "before enable" snapshot): a value it already records keeps its
	 * first before; only values new to it are added, and it is saved only
	 * when something was added. Values already as planned are added too
	 * (before = after): else one right at enable and rewritten later by
	 * someone else would enter the log with that one's value as its
	 * before. A failed run puts back what it wrote but does not mark the
	 * log rolled back. */
	struct nn_tx *tx;
	/* Write the plan's boot arguments (apply only: the watcher and enable
	 * never touch the bootloader). Their facts are @host's boot. */
	bool boot;
	/* Bind the plan's ports (--dpdk-ports) to their driver (apply only,
	 * as the boot arguments): driver_override, unbind, drivers_probe. */
	bool ports;
};

/* One plan port as apply found and left it (ports/port_bind.h). */
struct nn_apply_port {
	char pci[16];
	char before[32];		/* the driver it was on, "" none */
	char override[32];		/* its driver_override before, "" none */
	char driver[32];		/* planned: "vfio-pci" */
	const char *status;		/* "unchanged", "would_bind", "bound", "failed", "rolled_back" */
	bool written;
	char note[256];
};

struct nn_apply_report {
	struct nn_apply_val *vals;
	size_t nvals;
	struct nn_irqb_op irqb;
	bool irqb_done;
	char *snapshot;			/* log path, NULL when nothing was written */
	bool dry_run;
	bool rolled_back;		/* every value written was put back (rolled_back_by says why) */
	enum nn_rollback_cause rolled_back_by;
	size_t counts[NN_VAL_DRIFT + 1];
	int fatal;			/* negative errno that stopped the apply, or 0 */
	struct nn_hp_result *hp;	/* one per plan hugepage entry */
	size_t nhp;
	/* the boot arguments (opts->boot and a plan with some) */
	bool boot;
	bool boot_skipped;		/* planned by a profile's default, not written: why in the warnings */
	const struct nn_boot_host *boot_host;	/* borrowed: the discovery's */
	const struct nn_plan *boot_plan;	/* borrowed */
	struct nn_boot_prep boot_prep;
	struct nn_boot_result boot_res;
	struct nn_apply_port *ports;	/* one per plan port (opts->ports) */
	size_t nports;
};

/* Returns 0 clean, 1 finished with failed values, negative errno on a fatal
 * error (after rolling back unless keep_going). The report is filled either way. */
int nn_apply_run(struct nn_ctx *ctx, const struct nn_plan *plan,
		 const struct nn_apply_opts *opts, struct nn_apply_report *rep);
void nn_apply_print(struct nn_ctx *ctx, const struct nn_apply_report *rep);
/* After the caller put back everything @rep's run wrote (apply --verify's
 * nn_pipeline_abort, which replays the log): the report says so truthfully -
 * every changed value, hugepage pool and irqbalance action "rolled_back",
 * the counts again, rolled_back true with @by (NN_ROLLBACK_VERIFY). */
void nn_apply_report_rolled_back(struct nn_apply_report *rep, enum nn_rollback_cause by);
void nn_apply_report_free(struct nn_apply_report *rep);

/* check: the same values, read only. Returns the number of drifted values
 * (irqbalance running unfenced counts as one, unless the plan leaves it
 * alone: irqb_left), or a negative errno. */
struct nn_check_report {
	struct nn_apply_val *vals;
	size_t nvals;
	struct nn_apply_port *ports;	/* one per plan->ports: its driver now (before), planned (driver) */
	size_t nports;
	size_t ports_drift;		/* ports off their planned driver, counted in ndrift too */
	struct nn_irqb_proc irqb;
	bool irqb_fenced;
	bool irqb_drift;
	bool irqb_left;		/* runs unfenced, and the plan leaves it alone: not drift */
	size_t ndrift;
	size_t on_claimed;	/* IRQs whose current CPUs touch the plan's claimed CPUs (drift) */
	int *claimed_irqs;	/* those IRQs' numbers (on_claimed of them) */
	struct nn_place_count places;	/* the queue IRQs' verdicts against the plan (irq_place.h) */
};

int nn_check_run(struct nn_ctx *ctx, const struct nn_plan *plan, struct nn_check_report *rep);
void nn_check_print(struct nn_ctx *ctx, const struct nn_check_report *rep);
/* The ports' part of it (check, status): a table "ports (driver now,
 * planned)" and JSON "ports":[{"pci","driver","planned","status":
 * "in_place|drift"}] (always; [] without ports), "ports_drift". */
void nn_check_print_ports(struct nn_out *o, const struct nn_check_report *rep);
void nn_check_report_free(struct nn_check_report *rep);

const char *nn_val_status_name(enum nn_val_status s);
/* "failure", "verify"; NULL for NN_ROLLBACK_NONE. */
const char *nn_rollback_cause_name(enum nn_rollback_cause c);

#endif
