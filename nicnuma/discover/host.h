/* SPDX-License-Identifier: GPL-2.0-or-later */
/* host.h - the host snapshot every pure stage (plan, check, layout) works on */
#ifndef NICNUMA_HOST_H
#define NICNUMA_HOST_H

#include <stdbool.h>

#include "boot/boot_read.h"
#include "ports/port.h"
#include "nicnuma/discover/claims.h"
#include "nicnuma/discover/nic.h"
#include "nicnuma/discover/topo.h"

/* What discovery saw of irqbalance (a process in /proc, irqbalance_id.h's
 * inspector; controlling it lives in irq/irqbalance.c). */
struct nn_irqbalance_state {
	bool running;
	int pid;		/* -1 when not running */
	char *cmdline;		/* argv joined by spaces, NULL when not running */
	bool systemd;		/* PID 1 is systemd: the unit is the way to control it */
};

struct nn_host {
	struct nn_topo topo;
	struct nn_nic *nics;
	size_t nnics;
	struct nn_irqbalance_state irqbalance;
	struct nn_claims claims;	/* run-time CPU claims (claims.h): planned like isolated CPUs */
	/* net.core.rps_sock_flow_entries, RFS's global flow table: -1 where the
	 * file is not (a network namespace other than the initial one has none) */
	long rps_sock_flow_entries;
	/* The running kernel and the bootloader (boot/boot_read.h): read only
	 * where boot arguments are planned or reported (nn_host_boot_read). */
	struct nn_boot_host boot;
	/* The ports named by --dpdk-ports (ports/port.h), their node and
	 * netdevs' state filled here, and the host's IOMMU and vfio: read only
	 * where ports are asked for (nn_host_ports_read). */
	struct nn_port *ports;
	size_t nports;
	struct nn_vfio_host vfio;
};

/* Topology, NICs and irqbalance, all through ctx->root. */
int nn_host_discover(struct nn_ctx *ctx, struct nn_host *host);
/* The same with NN_NICS_* flags for the NIC part (NN_NICS_NO_EFFECTIVE)
 * and NN_CLAIMS_* flags for the claims (nn_desired_claim_flags). */
int nn_host_discover_flags(struct nn_ctx *ctx, struct nn_host *host, unsigned int nic_flags,
			   unsigned int claim_flags);
/* The same over topology @topo (nn_topo_discover: everything) read already
 * by the caller for its own checks, taken over (*@topo left empty): a
 * request reads the topology once. */
int nn_host_discover_topo(struct nn_ctx *ctx, struct nn_host *host, struct nn_topo *topo, unsigned int nic_flags,
			  unsigned int claim_flags);
/* What applying a plan file needs, and no more: the CPUs, the nodes and
 * their CPUs (NN_TOPO_SHAPE: the shape check, a NIC's node), irqbalance,
 * and the shape (NN_NICS_SHAPE) of only the netdevs named in @only (a
 * plan's NICs, nn_plan_nic_names; NULL: every one). No claims, RPS masks,
 * RFS table, knobs or node memory: those are the planner's inputs, and the
 * plan is made. On a container host that skips every veth and the cgroup
 * walk. */
int nn_host_discover_for_plan(struct nn_ctx *ctx, struct nn_host *host, unsigned int nic_flags,
			      char *const *only, size_t nonly);
void nn_host_free(struct nn_host *host);
/* Says a discovery failed, as every command says it ("[@what: ]cannot
 * discover the host under ROOT: REASON"; @what NULL: no prefix), and
 * returns @err (negative errno). */
int nn_host_discover_failed(struct nn_ctx *ctx, const char *what, int err);
/* Re-reads host->claims with NN_CLAIMS_* @flags (the desired state's
 * claim_root_partitions, the watcher's pruning). 0 or -ENOMEM. */
int nn_host_claims_read(struct nn_ctx *ctx, struct nn_host *host, unsigned int flags);
/* Reads host->boot: the running kernel (release, configuration, command
 * line, boot id) always, the bootloader and nicnuma's boot record with
 * @loader. A discovery without it leaves the boot facts unread (read false):
 * nothing planned at boot, no file of /etc or /boot opened. 0 or -ENOMEM. */
int nn_host_boot_read(struct nn_ctx *ctx, struct nn_host *host, bool loader);
/* Reads host->ports for the PCI functions @pci (nn_port_read), each with
 * its node (nn_device_numa_node) and its and its group's netdevs' use
 * (routes, addresses; up or down as discovery found them), and host->vfio.
 * 0, -EINVAL for a name that is no PCI address, -ENOMEM, or the -errno of
 * /proc/net unreadable. */
int nn_host_ports_read(struct nn_ctx *ctx, struct nn_host *host, char *const *pci, size_t npci);
/* host->ports for the functions on vfio-pci now (nn_vfio_bound_list), as
 * nn_host_ports_read reads them: what nics shows of bound ports. */
int nn_host_bound_ports_read(struct nn_ctx *ctx, struct nn_host *host);
/* The one answer "which CPUs may no NIC work use now because a workload
 * claimed them" (beside nn_topo_isolated_cpus): the live claims' CPUs. */
static inline const struct nn_cpuset *nn_host_claimed_cpus(const struct nn_host *host)
{
	return &host->claims.cpus;
}
/* The pieces of nn_host_discover, for reports that need less (nics,
 * observe): the shape of the topology (CPUs, nodes and their CPUs, no
 * per-CPU topology, node memory, distances, knobs or isolation: topo's to
 * show and warn about) plus every NIC in full plus irqbalance. */
int nn_host_discover_nics(struct nn_ctx *ctx, struct nn_host *host);
/* Whether the system's irqbalance runs (nn_irqb_inspect: by identity, a
 * zombie is not running) and PID 1 is systemd. */
int nn_host_find_irqbalance(struct nn_ctx *ctx, struct nn_irqbalance_state *st);

#endif
