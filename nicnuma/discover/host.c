// SPDX-License-Identifier: GPL-2.0-or-later
/* host.c - the whole host snapshot: topology, NICs, irqbalance
 *
 * irqbalance matters to every later stage: while it runs it rewrites the IRQ
 * affinities a plan sets. Which process is the system's irqbalance is the
 * inspector's answer (irqbalance_id.c: by identity, not by name), read
 * through the fs root so a captured tree shows it too.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/discover/host.h"
#include "nicnuma/core/pathf.h"
#include "irq/irqbalance_id.h"
#include "irq/rps.h"

/* argv joined by spaces, for reports. */
static char *join(char **argv, size_t argc)
{
	struct nn_sb sb = NN_SB_INIT;
	char *out;
	size_t i;

	for (i = 0; i < argc; i++)
		nn_sb_printf(&sb, "%s%s", i ? " " : "", argv[i]);
	return nn_sb_steal(&sb, &out) ? NULL : out;
}

int nn_host_find_irqbalance(struct nn_ctx *ctx, struct nn_irqbalance_state *st)
{
	struct nn_irqb_proc p;
	int err;

	st->running = false;
	st->pid = -1;
	st->cmdline = NULL;
	/* One inspector decides what the system's irqbalance is (irqbalance_id.h). */
	err = nn_irqb_inspect(ctx, &p);
	if (err)
		return err;
	st->systemd = p.systemd;
	if (p.pid > 0) {
		st->cmdline = join(p.argv, p.argc);
		if (!st->cmdline)
			err = -ENOMEM;
		st->running = !err;
		st->pid = err ? -1 : p.pid;
	}
	nn_irqb_proc_free(&p);
	return err;
}

/* @depth: everything (the planner's input) or the shape: CPUs, nodes and
 * their CPUs, which is all a NIC report and a plan file's check use (the
 * nodes' memory, pools, distances, knobs and isolation are topo's to show).
 * @nic_flags says how much of each NIC (NN_NICS_SHAPE for a plan file). */
static int host_discover(struct nn_ctx *ctx, struct nn_host *host, enum nn_topo_depth depth, struct nn_topo *topo,
			 unsigned int nic_flags, unsigned int claim_flags, char *const *only, size_t nonly)
{
	bool cpu_detail = depth == NN_TOPO_FULL;
	int err;

	memset(host, 0, sizeof(*host));
	host->irqbalance.pid = -1;
	host->rps_sock_flow_entries = -1;
	if (topo) {
		host->topo = *topo;
		memset(topo, 0, sizeof(*topo));
	} else {
		err = nn_topo_discover_depth(ctx, &host->topo, depth);
		if (err)
			return err;
	}
	err = nn_nics_discover(ctx, &host->topo, nic_flags, only, nonly, &host->nics, &host->nnics);
	if (err == -ENOMEM)
		goto fail;
	/* No /sys/class/net is a warning already; the topology still stands. */
	err = nn_host_find_irqbalance(ctx, &host->irqbalance);
	if (err)
		goto fail;
	/* TX-only NAPIs' kthreads, which napi-get never names: planned like
	 * the others (off claimed and isolated CPUs), observed */
	err = nn_napi_tx_find(ctx, host->nics, host->nnics);
	if (err)
		goto fail;
	/* The claims are a planner input: a report of the NICs alone
	 * (cpu_detail false) neither needs nor warns about them. */
	err = cpu_detail ? nn_claims_read(ctx, claim_flags, &host->claims) : 0;
	if (err)
		goto fail;
	/* RFS's table is the initial network namespace's alone: where the file
	 * is missing the planner cannot size it (unknown, not 0). */
	if (cpu_detail && nn_read_long(&ctx->root, NN_RPS_SOCK_FLOW_PATH, &host->rps_sock_flow_entries))
		host->rps_sock_flow_entries = -1;
	/* The rx queues' RPS masks as found: the planner keeps RPS off the CPUs
	 * that take no NIC work, whoever set the mask there. */
	for (size_t i = 0; cpu_detail && i < host->nnics; i++)
		if ((err = nn_nic_rps_read(ctx, &host->nics[i])))
			goto fail;
	return 0;
fail:
	nn_host_free(host);
	return err;
}

int nn_host_discover(struct nn_ctx *ctx, struct nn_host *host)
{
	return host_discover(ctx, host, NN_TOPO_FULL, NULL, 0, 0, NULL, 0);
}

int nn_host_discover_failed(struct nn_ctx *ctx, const char *what, int err)
{
	nn_err(ctx, "%s%scannot discover the host under %s: %s", what ? what : "", what ? ": " : "",
	       ctx->root.path, strerror(-err));
	return err;
}

int nn_host_discover_flags(struct nn_ctx *ctx, struct nn_host *host, unsigned int nic_flags,
			   unsigned int claim_flags)
{
	return host_discover(ctx, host, NN_TOPO_FULL, NULL, nic_flags, claim_flags, NULL, 0);
}

int nn_host_discover_topo(struct nn_ctx *ctx, struct nn_host *host, struct nn_topo *topo, unsigned int nic_flags,
			  unsigned int claim_flags)
{
	return host_discover(ctx, host, NN_TOPO_FULL, topo, nic_flags, claim_flags, NULL, 0);
}

int nn_host_discover_for_plan(struct nn_ctx *ctx, struct nn_host *host, unsigned int nic_flags,
			      char *const *only, size_t nonly)
{
	return host_discover(ctx, host, NN_TOPO_SHAPE, NULL, nic_flags | NN_NICS_SHAPE, 0, only, nonly);
}

int nn_host_discover_nics(struct nn_ctx *ctx, struct nn_host *host)
{
	return host_discover(ctx, host, NN_TOPO_SHAPE, NULL, 0, 0, NULL, 0);
}

int nn_host_claims_read(struct nn_ctx *ctx, struct nn_host *host, unsigned int flags)
{
	struct nn_claims cl;
	int err = nn_claims_read(ctx, flags, &cl);

	if (err)
		return err;
	nn_claims_free(&host->claims);
	host->claims = cl;
	return 0;
}

int nn_host_boot_read(struct nn_ctx *ctx, struct nn_host *host, bool loader)
{
	nn_boot_host_free(&host->boot);
	return nn_boot_host_read(ctx, &host->boot, loader);
}

/* Up or down as discovery found the netdev (link_down); -1 not found. */
static void netdevs_up(const struct nn_host *host, struct nn_port_fn *f)
{
	size_t i, j;

	for (i = 0; i < f->nnetdevs; i++)
		for (j = 0; j < host->nnics; j++)
			if (!strcmp(host->nics[j].name, f->netdevs[i].name))
				f->netdevs[i].up = !host->nics[j].link_down;
}

static void ports_free(struct nn_host *host)
{
	size_t i;

	for (i = 0; i < host->nports; i++)
		nn_port_free(&host->ports[i]);
	free(host->ports);
	host->ports = NULL;
	host->nports = 0;
}

int nn_host_ports_read(struct nn_ctx *ctx, struct nn_host *host, char *const *pci, size_t npci)
{
	size_t i, j;
	int err = 0;

	ports_free(host);
	host->ports = calloc(npci ? npci : 1, sizeof(*host->ports));
	if (!host->ports)
		return -ENOMEM;
	for (i = 0; !err && i < npci; i++) {
		struct nn_port *p = &host->ports[i];
		char dev[64];
		long node;

		err = nn_port_read(ctx, pci[i], p);
		if (err)
			break;
		host->nports++;
		if (!p->present)
			continue;
		snprintf(dev, sizeof(dev), "/sys/bus/pci/devices/%s", pci[i]);
		if (!nn_device_numa_node(&ctx->root, dev, &node) && node >= 0)
			p->node = (int)node;
		err = nn_port_uses_read(ctx, p);
		netdevs_up(host, &p->fn);
		for (j = 0; j < p->nmembers; j++)
			netdevs_up(host, &p->members[j]);
	}
	if (!err)
		err = nn_vfio_host_read(ctx, &host->vfio);
	if (err)
		ports_free(host);
	return err;
}

int nn_host_bound_ports_read(struct nn_ctx *ctx, struct nn_host *host)
{
	char **pci;
	size_t n, i;
	int err = nn_vfio_bound_list(ctx, &pci, &n);

	if (!err)
		err = nn_host_ports_read(ctx, host, pci, n);
	for (i = 0; i < n; i++)
		free(pci[i]);
	free(pci);
	return err;
}

void nn_host_free(struct nn_host *host)
{
	ports_free(host);
	nn_topo_free(&host->topo);
	nn_nics_free(host->nics, host->nnics);
	free(host->irqbalance.cmdline);
	nn_claims_free(&host->claims);
	nn_boot_host_free(&host->boot);
	memset(host, 0, sizeof(*host));
	host->irqbalance.pid = -1;
	host->rps_sock_flow_entries = -1;
}
