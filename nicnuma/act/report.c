// SPDX-License-Identifier: GPL-2.0-or-later
/* report.c - what apply and check found and did, as text or JSON; their free */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/act/apply.h"
#include "boot/boot_print.h"
#include "nicnuma/act/apply_internal.h"
#include "nicnuma/discover/ethtool_nl.h"
#include "hugepages/hp_set.h"

static const char *const status_names[] = {
	[NN_VAL_PENDING] = "pending",
	[NN_VAL_PLANNED] = "would_change",
	[NN_VAL_UNCHANGED] = "unchanged",
	[NN_VAL_CHANGED] = "changed",
	[NN_VAL_MANAGED] = "managed",
	[NN_VAL_FAILED] = "failed",
	[NN_VAL_ROLLED_BACK] = "rolled_back",
	[NN_VAL_SKIPPED] = "skipped",
	[NN_VAL_ALIGNED] = "aligned",
	[NN_VAL_DRIFT] = "drift",
};

const char *nn_val_status_name(enum nn_val_status s)
{
	return (unsigned int)s <= NN_VAL_DRIFT ? status_names[s] : "unknown";
}

const char *nn_rollback_cause_name(enum nn_rollback_cause c)
{
	switch (c) {
	case NN_ROLLBACK_FAILURE: return "failure";
	case NN_ROLLBACK_VERIFY: return "verify";
	case NN_ROLLBACK_NONE: break;
	}
	return NULL;
}

static void val_free(struct nn_apply_val *v)
{
	free(v->path);
	free(v->rss_want);
	free(v->before);
	free(v->planned);
	free(v->after);
	free(v->effective);
	nn_cpuset_free(&v->want);
}

void nn_apply_vals_free(struct nn_apply_val *vals, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		val_free(&vals[i]);
	free(vals);
}

/* An XPS or RPS mask as the CPU list it means, for the text columns (the
 * JSON keeps the kernel's value): one way to write CPUs on a terminal. */
static const char *shown(const struct nn_apply_val *v, const char *val, char *buf, size_t len)
{
	struct nn_cpuset s = { 0 };
	char *list;

	if (!val || !(v->kind == NN_VAL_XPS || (v->kind == NN_VAL_RPS && strstr(v->path, "rps_cpus"))))
		return val;
	if (nn_cpuset_parse_mask(val, &s)) {
		nn_cpuset_free(&s);
		return val;
	}
	list = nn_cpuset_format_list(&s);
	nn_cpuset_free(&s);
	if (!list)
		return val;
	snprintf(buf, len, "%s", list[0] ? list : "none");
	free(list);
	return buf;
}

/* One value column: the kernel's value in JSON, the CPU list in text. */
static void print_cpus_col(struct nn_out *o, const struct nn_apply_val *v, const char *key,
			   const struct nn_cols *c, size_t col, const char *val)
{
	char buf[256];

	nn_print_string(o, PRINT_JSON, key, NULL, val);
	nn_print_cell(o, PRINT_FP, NULL, c, col, shown(v, val, buf, sizeof(buf)));
}

/* Each kind's target column (text) and its own JSON keys. */
static void irq_target(const struct nn_apply_val *v, char *buf, size_t len)
{
	if (v->queue < 0)
		snprintf(buf, len, "%d %s", v->irq, v->nic ? v->nic : "-");
	else
		snprintf(buf, len, "%d %s q%d", v->irq, v->nic ? v->nic : "-", v->queue);
}

static void irq_keys(struct nn_out *o, const struct nn_apply_val *v)
{
	nn_print_int(o, PRINT_JSON, "irq", NULL, v->irq);
}

static void xps_target(const struct nn_apply_val *v, char *buf, size_t len)
{
	snprintf(buf, len, "%s tx-%d", v->nic, v->queue);
}

static void nic_target(const struct nn_apply_val *v, char *buf, size_t len)
{
	snprintf(buf, len, "%s", v->nic);
}

static void napi_target(const struct nn_apply_val *v, char *buf, size_t len)
{
	snprintf(buf, len, "%s napi %lld", v->nic, v->napi_id);
}

static void napi_keys(struct nn_out *o, const struct nn_apply_val *v)
{
	nn_print_int(o, PRINT_JSON, "pid", NULL, v->pid);
	nn_print_int(o, PRINT_JSON, "napi_id", NULL, v->napi_id);
}

static void rps_target(const struct nn_apply_val *v, char *buf, size_t len)
{
	if (!v->nic)
		snprintf(buf, len, "rps_sock_flow_entries");
	else
		snprintf(buf, len, "%s rx-%d %s", v->nic, v->queue, strstr(v->path, "flow_cnt") ? "flow_cnt" : "cpus");
}

static void path_target(const struct nn_apply_val *v, char *buf, size_t len)
{
	snprintf(buf, len, "%s", v->path);
}

static void napi_conf_keys(struct nn_out *o, const struct nn_apply_val *v)
{
	nn_print_int(o, PRINT_JSON, "napi_id", NULL, v->napi_id);
	nn_print_int(o, PRINT_JSON, "ifindex", NULL, v->ifindex);
	nn_print_string(o, PRINT_JSON, "attr", NULL, nn_napi_attr_name(v->napi_attr));
}

static void napi_dev_target(const struct nn_apply_val *v, char *buf, size_t len)
{
	snprintf(buf, len, "%s %s", v->nic, strrchr(v->path, '/') + 1);
}

static void napi_dev_keys(struct nn_out *o, const struct nn_apply_val *v)
{
	nn_print_string(o, PRINT_JSON, "attr", NULL, nn_napi_attr_name(v->napi_attr));
}

static void eth_keys(struct nn_out *o, const struct nn_apply_val *v)
{
	nn_print_string(o, PRINT_JSON, "setting", NULL, nn_eth_setting_name(v->eth_setting));
}

static void sysctl_target(const struct nn_apply_val *v, char *buf, size_t len)
{
	snprintf(buf, len, "net.core.%s", strrchr(v->path, '/') + 1);
}

/* How each kind of value is reported: its JSON "kind", its target column,
 * the keys only it has (NULL: none). */
static const struct {
	const char *name;
	void (*target)(const struct nn_apply_val *v, char *buf, size_t len);
	void (*keys)(struct nn_out *o, const struct nn_apply_val *v);
} report_kinds[] = {
	[NN_VAL_IRQ] = { "irq", irq_target, irq_keys },
	[NN_VAL_XPS] = { "xps", xps_target, NULL },
	[NN_VAL_CHANNELS] = { "channels", nic_target, NULL },
	[NN_VAL_RSS] = { "rss", nic_target, NULL },
	[NN_VAL_NAPI] = { "napi", napi_target, napi_keys },
	[NN_VAL_RPS] = { "rps", rps_target, NULL },
	[NN_VAL_NAPI_CONF] = { "napi_conf", path_target, napi_conf_keys },
	[NN_VAL_NAPI_DEV] = { "napi_dev", napi_dev_target, napi_dev_keys },
	[NN_VAL_ETH] = { "ethtool", path_target, eth_keys },
	[NN_VAL_SYSCTL] = { "sysctl", sysctl_target, NULL },
};
_Static_assert(sizeof(report_kinds) / sizeof(report_kinds[0]) == NN_VAL_SYSCTL + 1, "a row per enum nn_val_kind");

/* The value table's columns: check's and apply's (hugepages rows share
 * apply's), at least as wide as they always were, wider for long names
 * and CPU lists. */
enum { COL_KIND, COL_TARGET, COL_A, COL_B, COL_C, COL_EFFECTIVE, COL_STATUS };
enum { CHECK_STATUS = COL_C, CHECK_NCOLS = COL_C + 1, APPLY_NCOLS = COL_STATUS + 1 };
static const int check_min[CHECK_NCOLS] = { 8, 20, 12, 12, 12 };
static const int apply_min[APPLY_NCOLS] = { 8, 20, 12, 12, 12, 10, 12 };

/* Widens @c to one value's row as print_val prints it. */
static void fit_val(struct nn_cols *c, const struct nn_apply_val *v, bool check)
{
	const char *vals[3] = { v->before, v->planned, check ? NULL : v->after };
	char target[96], buf[256];
	size_t i;

	report_kinds[v->kind].target(v, target, sizeof(target));
	nn_cols_fit(c, COL_KIND, report_kinds[v->kind].name);
	nn_cols_fit(c, COL_TARGET, target);
	for (i = 0; i < (check ? 2u : 3u); i++)
		nn_cols_fit(c, COL_A + i, shown(v, vals[i], buf, sizeof(buf)));
	if (!check)
		nn_cols_fit(c, COL_EFFECTIVE, v->effective);
	nn_cols_fit(c, check ? CHECK_STATUS : COL_STATUS, nn_val_status_name(v->status));
}

static void print_val(struct nn_ctx *ctx, const struct nn_cols *c, const struct nn_apply_val *v, bool check)
{
	struct nn_out *o = &ctx->out;
	char target[96];

	report_kinds[v->kind].target(v, target, sizeof(target));
	nn_open_object(o, NULL);
	nn_print_cell(o, PRINT_ANY, "kind", c, COL_KIND, report_kinds[v->kind].name);
	nn_print_cell(o, PRINT_FP, NULL, c, COL_TARGET, target);
	if (report_kinds[v->kind].keys)
		report_kinds[v->kind].keys(o, v);
	if (v->nic)
		nn_print_string(o, PRINT_JSON, "nic", NULL, v->nic);
	else
		nn_print_null(o, PRINT_JSON, "nic", NULL);
	if (v->queue >= 0)
		nn_print_int(o, PRINT_JSON, "queue", NULL, v->queue);
	else
		nn_print_null(o, PRINT_JSON, "queue", NULL);
	nn_print_string(o, PRINT_JSON, "path", NULL, v->path);
	if (check) {
		print_cpus_col(o, v, "current", c, COL_A, v->before);
		print_cpus_col(o, v, "expected", c, COL_B, v->planned);
		/* apply's word for the plan's value (docs/cli.md); "expected"
		 * stays for one release */
		nn_print_string(o, PRINT_JSON, "planned", NULL, v->planned);
	} else {
		print_cpus_col(o, v, "before", c, COL_A, v->before);
		print_cpus_col(o, v, "planned", c, COL_B, v->planned);
		print_cpus_col(o, v, "after", c, COL_C, v->after);
		nn_print_cell(o, PRINT_ANY, "effective", c, COL_EFFECTIVE, v->effective);
	}
	nn_print_cell(o, PRINT_ANY, "status", c, check ? CHECK_STATUS : COL_STATUS, nn_val_status_name(v->status));
	nn_print_string(o, PRINT_ANY, "note", v->note[0] ? " %s" : NULL, v->note[0] ? v->note : NULL);
	nn_printf(o, "\n");
	nn_close_object(o);
}

static const char *hp_status(const struct nn_apply_report *rep, const struct nn_hp_result *r)
{
	if (r->before == r->target)
		return "unchanged";
	if (rep->dry_run)
		return "planned";
	if (r->restored)
		return "restored";	/* shortfall: the warning says what the kernel gave */
	if (r->after != r->target)
		return "partial";
	return r->changed ? "changed" : "skipped";
}

/* A pool's row: its cells as text (before, planned, after; "?" unknown). */
static void hp_cells(const struct nn_apply_report *rep, const struct nn_hp_result *r, char path[96],
		     char num[3][24])
{
	const long long v[3] = { r->before, r->target, rep->dry_run ? -2 : r->after };
	size_t i;

	snprintf(path, 96, "node%d %lukB", r->node, r->size_kb);
	for (i = 0; i < 3; i++)
		snprintf(num[i], 24, v[i] == -2 ? "-" : v[i] < 0 ? "?" : "%lld", v[i]);
}

static void fit_hugepages(struct nn_cols *c, const struct nn_apply_report *rep)
{
	char path[96], num[3][24];
	size_t i, k;

	for (i = 0; i < rep->nhp; i++) {
		hp_cells(rep, &rep->hp[i], path, num);
		nn_cols_fit(c, COL_TARGET, path);
		for (k = 0; k < 3; k++)
			nn_cols_fit(c, COL_A + k, num[k]);
	}
}

static void print_hugepages(struct nn_ctx *ctx, const struct nn_cols *c, const struct nn_apply_report *rep)
{
	struct nn_out *o = &ctx->out;
	size_t i;

	if (!rep->nhp)
		return;
	nn_open_array(o, "hugepages");
	for (i = 0; i < rep->nhp; i++) {
		const struct nn_hp_result *r = &rep->hp[i];
		char path[96], num[3][24];

		hp_cells(rep, r, path, num);
		nn_open_object(o, NULL);
		nn_print_cell(o, PRINT_FP, NULL, c, COL_KIND, "hugepg");
		nn_print_cell(o, PRINT_FP, NULL, c, COL_TARGET, path);
		nn_print_int(o, PRINT_JSON, "node", NULL, r->node);
		nn_print_uint(o, PRINT_JSON, "size_kb", NULL, r->size_kb);
		nn_print_opt_int(o, PRINT_JSON, "before", NULL, r->before, NULL);
		nn_print_cell(o, PRINT_FP, NULL, c, COL_A, num[0]);
		nn_print_opt_int(o, PRINT_JSON, "planned", NULL, r->target, NULL);
		nn_print_cell(o, PRINT_FP, NULL, c, COL_B, num[1]);
		if (rep->dry_run)
			nn_print_null(o, PRINT_JSON, "after", NULL);
		else
			nn_print_opt_int(o, PRINT_JSON, "after", NULL, r->after, NULL);
		nn_print_cell(o, PRINT_FP, NULL, c, COL_C, num[2]);
		nn_print_cell(o, PRINT_FP, NULL, c, COL_EFFECTIVE, "");
		nn_print_string(o, PRINT_ANY, "status", "%s\n", hp_status(rep, r));
		nn_close_object(o);
	}
	nn_close_array(o);
}

/* The boot arguments: the three columns as found, then what the run did
 * ("boot" in the report: rows, and "result"). */
static void print_boot(struct nn_ctx *ctx, const struct nn_apply_report *rep)
{
	struct nn_out *o = &ctx->out;
	const struct nn_plan *p = rep->boot_plan;
	const struct nn_boot_result *r = &rep->boot_res;
	struct nn_boot_report br;
	char mode[160];
	bool write = rep->boot_prep.write && !rep->boot_skipped;

	if (!rep->boot) {
		nn_print_null(o, PRINT_JSON, "boot", NULL);
		return;
	}
	nn_plan_boot_mode_text(p->boot_mode, p->boot_names, mode, sizeof(mode));
	if (nn_boot_print(o, rep->boot_host, mode, p->boot_args, p->nboot_args, p->boot_left, p->nboot_left,
			  0, &br) == -ENOMEM)
		nn_err(ctx, "out of memory");
	nn_open_object(o, "boot_result");
	nn_print_bool(o, PRINT_ANY, "written", "boot arguments: written %s", r->written);
	nn_print_bool(o, PRINT_ANY, "regenerated", ", regenerated %s", r->regenerated);
	nn_print_bool(o, PRINT_ANY, "verified", ", read back %s", r->verified);
	nn_print_bool(o, PRINT_JSON, "skipped", NULL, rep->boot_skipped);
	if (rep->boot_skipped)
		nn_printf(o, ", skipped (see the warnings)");
	/* this run's change asks for the reboot; one asked for before stays pending */
	nn_print_bool(o, PRINT_ANY, "reboot_required", "; reboot required: %s\n",
		      write && !rep->dry_run && r->written && rep->boot_prep.reboot);
	nn_print_bool(o, PRINT_JSON, "would_write", NULL, rep->dry_run && write);
	nn_print_bool(o, PRINT_JSON, "reboot_pending", NULL, !write && rep->boot_prep.reboot && !rep->boot_skipped);
	if (!write && rep->boot_prep.reboot && !rep->boot_skipped)
		nn_printf(o, "  reboot pending: the configuration holds the plan, the running kernel does not yet\n");
	nn_print_string(o, PRINT_ANY, "note", r->note[0] ? "  %s\n" : NULL, r->note[0] ? r->note : NULL);
	nn_close_object(o);
}

/* --dpdk-ports: each port's driver before -> planned, and what the run did. */
static void print_ports(struct nn_ctx *ctx, const struct nn_apply_report *rep)
{
	struct nn_out *o = &ctx->out;
	size_t i;

	nn_open_array(o, "ports");
	for (i = 0; i < rep->nports; i++) {
		const struct nn_apply_port *p = &rep->ports[i];

		nn_open_object(o, NULL);
		nn_print_string(o, PRINT_ANY, "pci", "port %s", p->pci);
		nn_print_string(o, PRINT_ANY, "before", ": %s", p->before[0] ? p->before : NULL);
		if (!p->before[0])
			nn_printf(o, ": (no driver)");
		nn_print_string(o, PRINT_ANY, "driver", " -> %s", p->driver);
		nn_print_string(o, PRINT_ANY, "status", " %s", p->status);
		nn_print_string(o, PRINT_ANY, "note", p->note[0] ? " (%s)" : NULL, p->note[0] ? p->note : NULL);
		nn_printf(o, "\n");
		nn_close_object(o);
	}
	nn_close_array(o);
}

void nn_apply_print(struct nn_ctx *ctx, const struct nn_apply_report *rep)
{
	struct nn_out *o = &ctx->out;
	size_t i;

	nn_print_bool(o, PRINT_JSON, "dry_run", NULL, rep->dry_run);
	static const char *const titles[APPLY_NCOLS] = { "KIND", "TARGET", "BEFORE", "PLANNED", "AFTER",
							  "EFFECTIVE", "STATUS" };
	struct nn_cols c;

	nn_cols_init(&c, APPLY_NCOLS, apply_min);
	for (i = 0; i < rep->nvals; i++)
		fit_val(&c, &rep->vals[i], false);
	fit_hugepages(&c, rep);
	nn_print_cols_header(o, &c, titles);
	nn_open_array(o, "values");
	for (i = 0; i < rep->nvals; i++)
		print_val(ctx, &c, &rep->vals[i], false);
	nn_close_array(o);
	print_hugepages(ctx, &c, rep);
	print_boot(ctx, rep);
	print_ports(ctx, rep);
	nn_open_object(o, "irqbalance");
	nn_print_string(o, PRINT_JSON, "before", NULL, rep->irqb.before[0] ? rep->irqb.before : NULL);
	nn_printf(o, "irqbalance: %s", !strcmp(rep->irqb.before, "running") ? "running" : "not running");
	nn_print_string(o, PRINT_JSON, "action", NULL, nn_irqbalance_action_name(rep->irqb.action));
	/* the option's own word: "none" is the JSON value, --irqbalance takes "ignore" */
	nn_printf(o, " (--irqbalance %s)", rep->irqb.action == NN_IRQB_NONE ? "ignore"
		  : nn_irqbalance_action_name(rep->irqb.action));
	nn_print_string(o, PRINT_ANY, "status", ": %s\n", rep->irqb.status[0] ? rep->irqb.status
			: "nothing to do");
	nn_close_object(o);
	nn_open_object(o, "summary");
	for (i = 0; i <= NN_VAL_DRIFT; i++) {
		if (i == NN_VAL_PENDING || i == NN_VAL_ALIGNED || i == NN_VAL_DRIFT)
			continue;
		nn_print_uint(o, PRINT_JSON, status_names[i], NULL, rep->counts[i]);
	}
	nn_close_object(o);
	nn_printf(o, "%zu values: %zu changed, %zu unchanged, %zu managed, %zu failed, "
		  "%zu rolled back, %zu skipped%s\n", rep->nvals, rep->counts[NN_VAL_CHANGED],
		  rep->counts[NN_VAL_UNCHANGED], rep->counts[NN_VAL_MANAGED],
		  rep->counts[NN_VAL_FAILED], rep->counts[NN_VAL_ROLLED_BACK],
		  rep->counts[NN_VAL_SKIPPED], rep->dry_run ? " (dry run: nothing written)" : "");
	if (rep->dry_run)
		nn_printf(o, "%zu values would change\n", rep->counts[NN_VAL_PLANNED]);
	nn_print_bool(o, PRINT_JSON, "rolled_back", NULL, rep->rolled_back);
	nn_print_string(o, PRINT_ANY, "rolled_back_by", rep->rolled_back_by ? "rolled back by: %s\n" : NULL,
			rep->rolled_back ? nn_rollback_cause_name(rep->rolled_back_by) : NULL);
	nn_print_string(o, PRINT_ANY, "snapshot", rep->snapshot ? "snapshot: %s" : NULL,
			rep->snapshot);
	/* under --root the snapshot is a file of the tree: name it there too */
	if (rep->snapshot && !nn_root_is_live(&ctx->root))
		nn_printf(o, " (%s%s)", ctx->root.path, rep->snapshot);
	if (rep->snapshot)
		nn_printf(o, "\n");
}

void nn_apply_report_free(struct nn_apply_report *rep)
{
	nn_boot_prep_free(&rep->boot_prep);
	free(rep->ports);
	nn_apply_vals_free(rep->vals, rep->nvals);
	free(rep->hp);
	nn_irqb_op_free(&rep->irqb);
	free(rep->snapshot);
	memset(rep, 0, sizeof(*rep));
}

/* The planned ports' drivers: "ports" always in JSON ([] without ports). */
void nn_check_print_ports(struct nn_out *o, const struct nn_check_report *rep)
{
	size_t i;

	if (rep->nports)
		nn_printf(o, "ports (driver now, planned)\n");
	nn_open_array(o, "ports");
	for (i = 0; i < rep->nports; i++) {
		const struct nn_apply_port *c = &rep->ports[i];

		nn_open_object(o, NULL);
		nn_print_string(o, PRINT_ANY, "pci", "  %-14s", c->pci);
		if (c->before[0])
			nn_print_string(o, PRINT_ANY, "driver", " %-12s", c->before);
		else
			nn_print_null(o, PRINT_ANY, "driver", " %-12s");
		nn_print_string(o, PRINT_ANY, "planned", " %-12s", c->driver);
		nn_print_string(o, PRINT_ANY, "status", " %s\n",
				strcmp(c->status, "unchanged") ? "drift" : "in_place");
		nn_close_object(o);
	}
	nn_close_array(o);
	nn_print_uint(o, PRINT_JSON, "ports_drift", NULL, rep->ports_drift);
}

void nn_check_print(struct nn_ctx *ctx, const struct nn_check_report *rep)
{
	struct nn_out *o = &ctx->out;
	size_t i;

	static const char *const titles[CHECK_NCOLS] = { "KIND", "TARGET", "CURRENT", "PLANNED", "STATUS" };
	struct nn_cols c;

	/* Text shows what needs attention; JSON has every value. */
	nn_cols_init(&c, CHECK_NCOLS, check_min);
	for (i = 0; i < rep->nvals; i++)
		if (ctx->out.json || rep->vals[i].status != NN_VAL_ALIGNED || ctx->verbose)
			fit_val(&c, &rep->vals[i], true);
	nn_print_cols_header(o, &c, titles);
	nn_open_array(o, "values");
	for (i = 0; i < rep->nvals; i++) {
		if (!ctx->out.json && rep->vals[i].status == NN_VAL_ALIGNED && !ctx->verbose)
			continue;
		print_val(ctx, &c, &rep->vals[i], true);
	}
	nn_close_array(o);
	nn_check_print_ports(o, rep);
	nn_open_object(o, "irqbalance");
	nn_print_bool(o, PRINT_JSON, "running", NULL, rep->irqb.pid > 0);
	if (rep->irqb.pid > 0)
		nn_print_int(o, PRINT_ANY, "pid", "irqbalance: running (pid %lld)", rep->irqb.pid);
	else
		nn_print_string(o, PRINT_FP, NULL, "irqbalance: %s", "not running");
	nn_print_bool(o, PRINT_JSON, "fenced", NULL, rep->irqb_fenced);
	nn_print_bool(o, PRINT_JSON, "drift", NULL, rep->irqb_drift);
	nn_print_bool(o, PRINT_JSON, "left", NULL, rep->irqb_left);
	nn_printf(o, "%s\n", rep->irqb_drift ? ", not fenced: its next pass rewrites the planned "
		  "affinities (apply --irqbalance=stop|ban)" : rep->irqb_fenced ?
		  ", planned IRQs banned (policy script or --banirq)" : rep->irqb_left ?
		  ", left alone as planned (irqbalance ignore): it may move the planned IRQs" : "");
	nn_close_object(o);
	nn_print_uint(o, PRINT_JSON, "drift_count", NULL, rep->ndrift);
	nn_print_uint(o, PRINT_JSON, "on_claimed", NULL, rep->on_claimed);
	if (rep->on_claimed)
		nn_print_uint(o, PRINT_FP, NULL, "%llu IRQs sit on claimed CPUs:", rep->on_claimed);
	nn_open_array(o, "on_claimed_irqs");
	for (i = 0; i < rep->on_claimed; i++)
		nn_print_int(o, PRINT_ANY, NULL, " %lld", rep->claimed_irqs[i]);
	nn_close_array(o);
	if (rep->on_claimed)
		nn_printf(o, " (see nicnuma claims)\n");
	nn_open_object(o, "placements");
	nn_print_int(o, PRINT_ANY, "local", "queue IRQs: %lld on their NIC's node", rep->places.local);
	nn_print_int(o, PRINT_ANY, "spill", ", %lld spilled to a near node as planned", rep->places.spill);
	nn_print_int(o, PRINT_ANY, "off", ", %lld off the node against the plan", rep->places.off);
	nn_print_int(o, PRINT_ANY, "unknown", ", %lld unknown\n", rep->places.unknown);
	nn_close_object(o);
	nn_printf(o, "%zu values checked, %zu drifted%s\n", rep->nvals,
		  rep->ndrift - rep->ports_drift - (rep->irqb_drift ? 1 : 0),
		  rep->ndrift ? "" : ": aligned with the plan");
}

void nn_check_report_free(struct nn_check_report *rep)
{
	nn_apply_vals_free(rep->vals, rep->nvals);
	free(rep->claimed_irqs);
	free(rep->ports);
	nn_irqb_proc_free(&rep->irqb);
	memset(rep, 0, sizeof(*rep));
}
