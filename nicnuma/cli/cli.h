/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli.h - the nicnuma command table and helpers shared by the commands */
#ifndef NICNUMA_CLI_H
#define NICNUMA_CLI_H

#include "nicnuma/core/ctx.h"
#include "opts.h"

/* Each command parses its options with its table (opts.h; global
 * --root/--json/-v were already taken out of argv by main) and returns an exit
 * status: NN_EXIT_OK, NN_EXIT_WARN or NN_EXIT_ERROR. argv[0] is the command. */
typedef int (*nn_cmd_fn)(struct nn_ctx *ctx, int argc, char **argv);

struct nn_cmd {
	const char *name;
	nn_cmd_fn fn;
	const char *summary;
	/* its option tables: the command's, then modes with their own --help */
	const struct nn_cmd_desc *descs[5];
};

/* Discovery commands (cmd_topo.c, cmd_nics.c). */
int nn_cmd_topo(struct nn_ctx *ctx, int argc, char **argv);
int nn_cmd_nics(struct nn_ctx *ctx, int argc, char **argv);
int nn_cmd_hugepages(struct nn_ctx *ctx, int argc, char **argv);
/* Its subcommands (cmd_hugepages.c, cmd_hugepages_reserve.c, cmd_hugepages_release.c). */
int nn_cmd_hugepages_show(struct nn_ctx *ctx, int argc, char **argv);
int nn_cmd_hugepages_reserve(struct nn_ctx *ctx, int argc, char **argv);
int nn_cmd_hugepages_release(struct nn_ctx *ctx, int argc, char **argv);
int nn_cmd_bench(struct nn_ctx *ctx, int argc, char **argv);

/* Planning commands (cmd_plan.c, cmd_script.c). */
int nn_cmd_plan(struct nn_ctx *ctx, int argc, char **argv);
int nn_cmd_script(struct nn_ctx *ctx, int argc, char **argv);

/* Carrying a plan out (cmd_apply.c, cmd_check.c, cmd_rollback.c). */
int nn_cmd_apply(struct nn_ctx *ctx, int argc, char **argv);
int nn_cmd_check(struct nn_ctx *ctx, int argc, char **argv);
int nn_cmd_rollback(struct nn_ctx *ctx, int argc, char **argv);

/* Status for a finished report: error beats warnings beats clean. */
int nn_cli_status(const struct nn_ctx *ctx, int err);

/* "nicnuma report": the host drawn as one HTML page or SVG (cmd_report.c). */
int nn_cmd_report(struct nn_ctx *ctx, int argc, char **argv);

/* "nicnuma layout": per-node service instances as systemd units (cmd_layout.c). */
int nn_cmd_layout(struct nn_ctx *ctx, int argc, char **argv);

/* Tuning that lasts (cmd_enable.c, cmd_disable.c, cmd_status.c, cmd_watch.c). */
int nn_cmd_enable(struct nn_ctx *ctx, int argc, char **argv);
int nn_cmd_disable(struct nn_ctx *ctx, int argc, char **argv);
int nn_cmd_status(struct nn_ctx *ctx, int argc, char **argv);
int nn_cmd_watch(struct nn_ctx *ctx, int argc, char **argv);
/* "nicnuma observe": where the packet work really runs (cmd_observe.c). */
int nn_cmd_observe(struct nn_ctx *ctx, int argc, char **argv);
/* "nicnuma metrics": Prometheus textfile metrics (cmd_metrics.c). */
int nn_cmd_metrics(struct nn_ctx *ctx, int argc, char **argv);

/* "nicnuma check --pid PID[,PID] [--watch S] [--count N]": process placement
 * (cmd_check_pid.c); cmd_check.c hands it "check --pid" with the same argv. */
int cmd_check_pid(struct nn_ctx *ctx, int argc, char **argv);

/* "nicnuma check --dpdk": a running DPDK process's placement through its
 * telemetry socket (cmd_check_dpdk.c). */
int cmd_check_dpdk(struct nn_ctx *ctx, int argc, char **argv);

#endif
