// SPDX-License-Identifier: GPL-2.0-or-later
/* plan_get.c - the plan a command works on: read from --plan FILE, or made from the planning options */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/act/plan_file.h"
#include "nicnuma/act/plan_get.h"
#include "nicnuma/act/ports_gate.h"

int nn_plan_load(struct nn_ctx *ctx, const char *path, struct nn_plan *plan)
{
	char why[640];
	int ret = nn_plan_read_file(path, plan, why, sizeof(why));

	if (ret)
		nn_err(ctx, "--plan: %s", why);
	return ret;
}

/* A plan file's ports, checked again on the host as it is now: no
 * --force-port here (a port in use is refused), no-IOMMU mode where the
 * plan chose it. */
static int plan_ports_check(struct nn_ctx *ctx, struct nn_host *host, const struct nn_plan *plan)
{
	char **pci = calloc(plan->nports, sizeof(*pci));
	bool noiommu = false;
	size_t i;
	int ret;

	if (!pci)
		return -ENOMEM;
	for (i = 0; i < plan->nports; i++) {
		pci[i] = (char *)plan->ports[i].pci;
		noiommu |= plan->ports[i].noiommu;
	}
	ret = nn_ports_check(ctx, host, pci, plan->nports, noiommu, false, "--dpdk-ports", NULL);
	free(pci);
	return ret;
}

int nn_plan_check_host(struct nn_ctx *ctx, struct nn_host *host, const char *planfile,
		       struct nn_plan *plan)
{
	char why[256];
	int ret = nn_plan_check_shape(plan, host, why, sizeof(why));

	if (ret) {
		nn_err(ctx, "--plan: %s: made for another host shape: %s", planfile, why);
		nn_plan_free(plan);
	} else if (plan->nports && (ret = plan_ports_check(ctx, host, plan))) {
		nn_plan_free(plan);
	}
	return ret;
}

/* The running kernel and the bootloader, where a plan has boot arguments. */
static int boot_facts(struct nn_ctx *ctx, struct nn_host *host)
{
	int ret = host->boot.read ? 0 : nn_host_boot_read(ctx, host, true);

	if (ret)
		nn_err(ctx, "cannot read the kernel's boot facts under %s: %s", ctx->root.path, strerror(-ret));
	return ret;
}

int nn_plan_get(struct nn_ctx *ctx, struct nn_host *host, const char *planfile,
		struct nn_plan_opts *o, struct nn_plan *plan)
{
	int ret;

	if (planfile) {
		ret = nn_plan_load(ctx, planfile, plan);
		if (!ret)
			ret = nn_plan_check_host(ctx, host, planfile, plan);
		if (!ret && plan->boot_mode != NN_BOOT_NONE && (ret = boot_facts(ctx, host)))
			nn_plan_free(plan);
		return ret;
	}
	ret = nn_plan_opts_check(ctx, host, o);
	if (!ret && o->ndpdk_ports)
		ret = nn_ports_check(ctx, host, o->dpdk_ports, o->ndpdk_ports, o->noiommu, o->force_port,
				     "--dpdk-ports", NULL);
	if (!ret && o->boot_mode != NN_BOOT_NONE)
		ret = boot_facts(ctx, host);
	if (ret)
		return ret;
	ret = nn_plan_make(host, o, plan);
	if (ret)
		nn_plan_errmsg(ctx, ret);
	return ret;
}

int nn_plan_get_applied(struct nn_ctx *ctx, struct nn_host *host, struct nn_plan *plan, char **path)
{
	char why[640];
	int ret = nn_plan_read_applied(ctx, plan, path, why, sizeof(why));

	if (ret == -ENODATA)
		return 0;
	if (ret) {
		nn_warn(ctx, NULL, "the last apply's plan cannot be read: %s; checked against a fresh plan", why);
		return 0;
	}
	ret = nn_plan_check_shape(plan, host, why, sizeof(why));
	if (ret) {
		nn_warn(ctx, *path, "the last apply's plan was made for another host shape (%s); checked "
			"against a fresh plan", why);
	} else if (plan->boot_mode == NN_BOOT_NONE || !(ret = boot_facts(ctx, host))) {
		return 1;
	}
	nn_plan_free(plan);
	memset(plan, 0, sizeof(*plan));
	free(*path);
	*path = NULL;
	return ret == -ENOMEM ? ret : 0;
}
