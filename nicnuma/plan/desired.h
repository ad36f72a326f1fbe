/* SPDX-License-Identifier: GPL-2.0-or-later */
/* desired.h - the desired state `nicnuma enable` records and the watcher keeps
 *
 * /etc/nicnuma/nicnuma.conf (inside the fs root like every path), one
 * "key = value" a line under a [nicnuma] header, '#' comments:
 *   nic = 0000:65:00.0 eth1     PCI address, then the name for reading
 *   nic = - veth0               a NIC without a PCI address: by name
 *   policy = local|spread|remote
 *   cpus = all | CPULIST        reserve = auto | CPULIST
 *   channels = yes|no           xps = yes|no
 *   hugepages = none | SIZE:COUNT
 *   irqbalance = stop|ban|ignore   ("leave", the old word, is read too)
 *   rps = off|auto              (written only when auto)
 *   profile = throughput|latency|dpdk (written only when set: its coalescing and ring sizes)
 *   busy_poll = USECS           (latency --busy-poll; written only when set: the
 *                               busy-poll sysctls; its NAPI values are written as such)
 *   napi_defer_hard_irqs = N    gro_flush_timeout = NS    irq_suspend_timeout = NS
 *   napi_threaded = on|off      (each written only when set; "none" = unset)
 *   interval = SECONDS (1..86400)    settle_ms = MS (10..60000)
 *   claim_root_partitions = yes|no   `root` cpuset partitions claim their
 *                               exclusive CPUs too (docs/claims.md; default no)
 *   dpdk_port = PCI             one a line: a port the watcher binds to vfio-pci
 *                               at each start (docs/ports.md); noiommu = yes,
 *                               force_port = yes as enable --noiommu/--force-port
 * The parser is pure (fuzzed: tests/fuzz/fuzz_conf.c) and strict: an unknown
 * key, a repeated one or a bad value is an error naming the line.
 */
#ifndef NICNUMA_DESIRED_H
#define NICNUMA_DESIRED_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/core/cpuset.h"
#include "nicnuma/plan/plan.h"

struct nn_ctx;
struct nn_sb;

#define NN_DESIRED_PATH "/etc/nicnuma/nicnuma.conf"
/* The unit that keeps it (act/persist.h writes it); layout --dpdk's units
 * come After= it: the watcher binds the DPDK ports at boot. */
#define NN_WATCH_UNIT "nicnuma-watch.service"
/* A larger file is refused before it is parsed. */
#define NN_DESIRED_MAX_BYTES (256u << 10)
#define NN_DESIRED_MAX_NICS 4096
#define NN_DESIRED_MAX_PORTS 64		/* --dpdk-ports' own limit */

enum nn_desired_irqb { NN_DIRQB_STOP = 0, NN_DIRQB_BAN, NN_DIRQB_LEAVE };

struct nn_desired_nic {
	char *pci;		/* NULL: no PCI address, matched by name */
	char *name;		/* the name when it was written, or NULL */
};

struct nn_desired {
	struct nn_desired_nic *nics;
	size_t nnics, cap;
	enum nn_policy policy;
	struct nn_cpuset cpus;		/* empty: all online */
	struct nn_cpuset reserve;
	bool has_reserve;
	bool channels;
	bool xps;
	unsigned long hugepage_size_kb;	/* 0: none */
	long hugepage_count;
	enum nn_desired_irqb irqbalance;
	enum nn_rps_policy rps;
	enum nn_profile profile;		/* its coalescing and ring sizes; rps and the NAPI values it set are written as such */
	long long busy_poll_us;		/* --busy-poll: the sysctls' value; 0 not asked */
	long long napi_value[NN_NAPI_NATTR];	/* as nn_plan_opts: each set bit's value */
	unsigned int napi_set;
	unsigned int interval_s;
	unsigned int settle_ms;
	bool claim_root_partitions;	/* root cpuset partitions are claims too */
	char **ports;			/* dpdk_port: PCI addresses kept on vfio-pci */
	size_t nports;
	bool noiommu;			/* vfio's no-IOMMU mode allowed (enable --noiommu) */
	bool force_port;		/* a port in use is bound anyway (enable --force-port) */
};

/* Defaults: local, xps yes, irqbalance stop, interval 60, settle 300. */
void nn_desired_init(struct nn_desired *d);
void nn_desired_free(struct nn_desired *d);
int nn_desired_add_nic(struct nn_desired *d, const char *pci, const char *name);
/* A dpdk_port (a PCI address, not checked here): -EEXIST named already,
 * -E2BIG past NN_DESIRED_MAX_PORTS, -ENOMEM. */
int nn_desired_add_port(struct nn_desired *d, const char *pci);

/* Parses @len bytes of @text (file @name for messages). 0, or -EINVAL/-EFBIG
 * with @why "NAME:LINE: ...", or -ENOMEM. @d is initialised here. */
int nn_desired_parse(const char *name, const char *text, size_t len, struct nn_desired *d,
		     char *why, size_t whylen);
/* The file text; parses back to the same state. */
int nn_desired_format(const struct nn_desired *d, struct nn_sb *sb);

const char *nn_desired_irqb_name(enum nn_desired_irqb m);
int nn_desired_irqb_parse(const char *s, enum nn_desired_irqb *m);
enum nn_irqbalance_action nn_desired_irqb_action(enum nn_desired_irqb m);

/* Plan options for what @host has now: each desired NIC is found by PCI
 * address (by name when it has none); the ones absent are named in
 * @missing (malloc'd array of borrowed pci-or-name strings). -ENOENT when
 * none is present (nothing to plan). */
int nn_desired_plan_opts(const struct nn_desired *d, const struct nn_host *host,
			 struct nn_plan_opts *o, const char ***missing, size_t *nmissing);
/* The plan of @d for what @host has now: its plan options (above), the
 * planner (xps = no is its no_xps). -ENOENT when none of its NICs is
 * present (@plan empty); @missing as for nn_desired_plan_opts(). What status
 * and metrics compare the host against. */
int nn_desired_make_plan(const struct nn_desired *d, const struct nn_host *host,
			 struct nn_plan *plan, const char ***missing, size_t *nmissing);
/* Whether keeping @desired (the watcher's plan) keeps every value @plan
 * sets, each to the same value: its IRQ affinities, XPS masks, channel
 * counts, NAPI threads, RSS tables, RPS, NAPI settings and coalescing and
 * ring sizes (pure). A plan with nothing to keep is
 * kept by none. What `check` asks before it calls the running watcher
 * another owner of IRQ placement. */
bool nn_desired_keeps(const struct nn_plan *desired, const struct nn_plan *plan);
/* The desired state of a plan made from @o (NICs by the plan's PCI addresses). */
int nn_desired_from_plan(struct nn_desired *d, const struct nn_plan *plan,
			 const struct nn_plan_opts *o);

#endif
