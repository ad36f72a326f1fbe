/* SPDX-License-Identifier: GPL-2.0-or-later */
/* layout.h - one service instance per NUMA node (pure)
 *
 * Most NUMA trouble in production goes away when a service runs one instance
 * per node, each with its node's cores, memory, NIC queues and hugepages.
 * nn_layout_make() derives those instances from a host snapshot and the plan
 * (which cores take queue IRQs); nn_layout_render() writes them as a systemd
 * template unit plus one drop-in per instance. No I/O in either.
 */
#ifndef NICNUMA_LAYOUT_H
#define NICNUMA_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/core/cpuset.h"
#include "nicnuma/discover/host.h"
#include "nicnuma/plan/plan.h"

enum nn_layout_nodes {
	NN_LAYOUT_WITH_NICS = 0,	/* nodes that hold a NIC (default) */
	NN_LAYOUT_ALL,			/* every node with CPUs */
	NN_LAYOUT_LIST,			/* exactly opts->nodes */
};

struct nn_layout_opts {
	const char *service;		/* unit prefix: NAME@N.service */
	enum nn_layout_nodes nodes_mode;
	struct nn_cpuset nodes;		/* NN_LAYOUT_LIST */
	struct nn_cpuset housekeeping;	/* empty: nn_topo_default_housekeeping() */
	bool include_irq_cores;		/* keep the cores that take queue IRQs */
	bool dpdk;			/* build EAL arguments */
};

struct nn_layout_nic {
	char *name;
	char *pci;			/* NULL when not a PCI function */
	int rx_queues, tx_queues;	/* -1 unknown */
	struct nn_cpuset irq_cpus;	/* where the plan puts its queue IRQs */
	size_t queue_irqs;
	bool locality_assumed;		/* unknown locality on a one-node host */
	int node;			/* the NIC's own node; differs from the instance's
					 * when that one has no CPUs (memory-only) */
};

struct nn_layout_hugepages {
	unsigned long size_kb;
	long pages;			/* the plan's target, else what is reserved now */
};

struct nn_layout_instance {
	int node;
	char *unit;			/* "NAME@N.service" */
	struct nn_cpuset node_cpus;	/* the node's online CPUs */
	struct nn_cpuset cpus;		/* what the instance runs on */
	struct nn_cpuset housekeeping;	/* left out: housekeeping CPUs of the node */
	struct nn_cpuset irq_cores;	/* the node's queue-IRQ CPUs and their SMT siblings */
	struct nn_cpuset isolated;	/* the node's isolated CPUs (nn_topo_isolated_cpus):
					 * a DPDK instance runs on them first, another
					 * service leaves them out */
	bool irq_cores_included;
	struct nn_layout_nic *nics;
	size_t nnics;
	struct nn_layout_hugepages *hugepages;
	size_t nhugepages;
	unsigned long long hugepage_bytes;
	char **eal;			/* NULL-terminated; NULL without --dpdk */
	size_t neal;
};

struct nn_layout {
	char *service;
	struct nn_layout_instance *inst;
	size_t ninst;
	char **unplaced;		/* "eth0: unknown locality" - NICs no instance took */
	size_t nunplaced;
	char **warnings;
	size_t nwarnings;
	struct nn_cpuset housekeeping;
	bool dpdk;
};

/* @plan may be NULL (no queue IRQs known). Returns 0, -ENOMEM, or -EINVAL /
 * -ENOENT with @why naming the option or node at fault. */
int nn_layout_make(const struct nn_host *host, const struct nn_plan *plan,
		   const struct nn_layout_opts *opts, struct nn_layout *out,
		   char *why, size_t whylen);
void nn_layout_free(struct nn_layout *l);
/* The layout on @o (layout_print.c): a line on the service, one row per
 * instance (unit, node, CPUs, queue-IRQ cores, NICs, hugepages, isolated
 * CPUs, EAL arguments) and the NICs without an instance; JSON "layout". */
struct nn_out;
void nn_layout_print(struct nn_out *o, const struct nn_layout *l, bool numactl);
void nn_layout_opts_free(struct nn_layout_opts *o);

struct nn_layout_render_opts {
	char **exec;			/* the service's command, split (nn_exec_split) */
	size_t nexec;
	bool numactl;			/* ExecStart=numactl ... instead of NUMAPolicy= */
	const char *numactl_path;	/* "/usr/bin/numactl" */
	const char *cmdline;		/* the nicnuma command line, for the header */
};

struct nn_unit_file {
	char *path;			/* relative: "NAME@.service", "NAME@1.service.d/nicnuma.conf" */
	char *content;
};

int nn_layout_render(const struct nn_layout *l, const struct nn_layout_render_opts *ro,
		     struct nn_unit_file **files, size_t *nfiles);
void nn_unit_files_free(struct nn_unit_file *files, size_t n);

/* "-l 2-5 --file-prefix svc-1 ..." as one string (EAL words hold no spaces). */
char *nn_layout_eal_string(const struct nn_layout_instance *in);

#endif
