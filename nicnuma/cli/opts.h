/* SPDX-License-Identifier: GPL-2.0-or-later */
/* opts.h - the commands' option descriptors; the parser is nicnuma/core/opts.h */
#ifndef NICNUMA_CLI_OPTS_H
#define NICNUMA_CLI_OPTS_H

#include "nicnuma/core/opts.h"
#include "nicnuma/plan/plan_opts.h"

/* Every descriptor, for "nicnuma --json --help" (main.c, the command table). */
extern const struct nn_cmd_desc nn_desc_topo, nn_desc_nics, nn_desc_plan, nn_desc_apply,
	nn_desc_check, nn_desc_check_pid, nn_desc_check_dpdk, nn_desc_rollback, nn_desc_script,
	nn_desc_hugepages, nn_desc_hugepages_show, nn_desc_hugepages_reserve,
	nn_desc_hugepages_release, nn_desc_bench, nn_desc_layout, nn_desc_enable, nn_desc_disable,
	nn_desc_status, nn_desc_watch, nn_desc_metrics, nn_desc_observe, nn_desc_report,
	nn_desc_claim, nn_desc_release, nn_desc_claims, nn_desc_hook;

#endif
