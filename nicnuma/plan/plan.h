/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plan.h - where every queue IRQ, XPS mask and hugepage should go
 *
 * nn_plan_make() is a pure function of a host snapshot and options: no I/O, so
 * every fixture can be planned and every rule unit-tested. apply, check,
 * script and layout all consume a struct nn_plan (in memory or from JSON).
 */
#ifndef NICNUMA_PLAN_H
#define NICNUMA_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/core/cpuset.h"
#include "nicnuma/discover/host.h"
#include "boot/boot.h"
#include "hugepages/hugepages.h"
#include "irq/irqbalance.h"
#include "irq/napi_thread.h"
#include "irq/napi_conf.h"
#include "irq/busy_poll.h"
#include "nicnuma/discover/ethtool_nl.h"

struct json_object;

enum nn_policy {
	NN_POLICY_LOCAL = 0,	/* the NIC's node, spill by distance */
	NN_POLICY_SPREAD,	/* all nodes */
	NN_POLICY_REMOTE,	/* farthest node: for mismatch experiments */
};

/* --rss: how the RSS indirection table is planned (issue 12 item 4). */
enum nn_rss_policy {
	NN_RSSP_NONE = 0,	/* the table is left alone (default) */
	NN_RSSP_LOCAL,		/* "local": equal weights over the queues on the NIC's node */
	NN_RSSP_LOCAL_CPU,	/* "local:cpu": weighted by each queue's share of its CPUs */
};

/* --rps: Receive Packet/Flow Steering where a NIC has fewer rx queues than
 * usable CPUs on its node (plan_rps.c). */
enum nn_rps_policy {
	NN_RPS_OFF = 0,		/* left alone (default: today's placement) */
	NN_RPS_AUTO,		/* "auto": rps_cpus, rps_flow_cnt, rps_sock_flow_entries */
};

/* --profile: what the host is for (plan/profile.c: one table per profile
 * of what it sets and why). NONE is today's placement alone. */
enum nn_profile {
	NN_PROFILE_NONE = 0,
	NN_PROFILE_THROUGHPUT,
	NN_PROFILE_LATENCY,
	NN_PROFILE_DPDK,
};

struct nn_plan_opts {
	char **nics;			/* NULL: every non-virtual NIC */
	size_t nnics;
	struct nn_cpuset cpus;		/* restrict to these; empty: all online */
	struct nn_cpuset reserve;	/* housekeeping; empty: first core of each node */
	bool has_reserve;
	enum nn_policy policy;
	bool channels;			/* also set combined channels to the planned cores */
	bool no_xps;			/* plan no XPS masks (--no-xps, xps = no) */
	enum nn_irqbalance_action irqbalance;
	unsigned long hugepage_size_kb;	/* --hugepages SIZE:COUNT; 0 none */
	long hugepage_count;		/* per NIC node */
	enum nn_rss_policy rss;		/* --rss */
	enum nn_rps_policy rps;		/* --rps */
	/* --napi-defer-hard-irqs, --gro-flush-timeout, --irq-suspend-timeout,
	 * --napi-threaded: the value of each NN_NAPI_* whose bit is in napi_set. */
	long long napi_value[NN_NAPI_NATTR];
	unsigned int napi_set;
	unsigned int napi_profile;	/* the napi_set bits the profile set (not an option) */
	enum nn_profile profile;	/* --profile */
	bool rps_given;			/* --rps was given: the profile's leaves it */
	bool profile_list;		/* --profile list: plan prints the profiles, plans nothing */
	long long busy_poll_us;		/* --busy-poll USECS (latency); 0 not asked */
	/* --boot-args auto|none|NAME,..: the kernel arguments planned
	 * (plan_boot.c). Without the option a command that writes boot
	 * arguments (boot_cmd: plan, apply, check) takes auto under --profile
	 * dpdk or latency, none otherwise; the others never plan them. */
	enum nn_boot_mode boot_mode;
	unsigned int boot_names;	/* NN_BARG_* named (NN_BOOT_NAMED) */
	bool boot_given;		/* --boot-args was given */
	bool boot_cmd;			/* the command plans boot arguments by default */
	struct nn_cpuset isolate;	/* --isolate CPUS (latency): the application's CPUs */
	/* --dpdk-ports PCI|NIC,..: the functions planned for vfio-pci (NIC
	 * names resolved to their PCI address by nn_plan_opts_check), with
	 * --noiommu (vfio's no-IOMMU mode) and --force-port (a netdev in use
	 * may go); checked against host->ports (ports/port.h) before planning. */
	char **dpdk_ports;
	size_t ndpdk_ports;
	bool noiommu;
	bool force_port;
};

struct nn_plan_irq {
	int irq;
	char *nic;
	int queue;			/* -1 non-queue IRQ (goes to housekeeping) */
	enum nn_qdir dir;
	enum nn_irq_role role;		/* unknown: placed like a queue IRQ, never on housekeeping */
	int node;			/* node of @cpus; -1 several or unknown */
	struct nn_cpuset cpus;		/* target smp_affinity_list */
	char *reason;			/* "local node 1, core 5", "housekeeping", "spill to node 2 (distance 12)" */
};

/* Per planned NIC: where its queues went and why (the table's summary line). */
struct nn_plan_nic {
	char *nic;
	char *pci;			/* NULL when virtual or not PCI */
	int numa_node;			/* as discovered; -1 unknown */
	int node;			/* node its queues went to; -1 several or unknown */
	int queues;			/* queue slots planned (distinct queue indices) */
	struct nn_cpuset cpus;		/* CPUs its queue IRQs (or XPS) use */
	char *reason;			/* "local node 1", "spill to node 2 (distance 12)"... */
};

struct nn_plan_xps {
	char *nic;
	int queue;			/* tx queue index: /sys/class/net/NIC/queues/tx-N/xps_cpus */
	struct nn_cpuset cpus;
};

/* A threaded NAPI's kernel thread (napi/IF-ID), placed with its IRQ: the
 * CPUs the plan gives that IRQ (napi.rst: the IRQ's CPU); an IRQ-less NAPI
 * takes its queue's planned CPU, else the NIC's planned CPUs. */
struct nn_plan_napi {
	char *nic;
	long long napi_id;
	int pid;			/* when planned; apply checks it is still that thread */
	char *name;			/* "napi/IF-ID", the thread's full comm */
	struct nn_cpuset cpus;
};

struct nn_plan_channels {
	char *nic;
	int current;			/* -1 unknown */
	int target;
};

/* The RSS indirection table of one NIC (context 0), as the queues it spreads
 * over: apply and check build the table with nn_plan_rss_table(). */
#define NN_RSS_PLAN_MAX_QUEUES 65536	/* queues in one entry (JSON bound) */
#define NN_RSS_PLAN_MAX_WEIGHT 1000000	/* one queue's weight (JSON bound) */
/* What the kernel reports bound to an rx queue (netdev genl queue-get):
 * RSS must steer no flow there - the consumer owns the queue. */
enum {
	NN_QBIND_XSK = 1u << 0,		/* an AF_XDP socket (queue-get "xsk", 6.15) */
	NN_QBIND_IO_URING = 1u << 1,	/* io_uring zero-copy rx ("io-uring", 6.15) */
	NN_QBIND_DMABUF = 1u << 2,	/* devmem TCP ("dmabuf", 6.12) */
};
#define NN_QBIND_ALL (NN_QBIND_XSK | NN_QBIND_IO_URING | NN_QBIND_DMABUF)

struct nn_plan_rss_reserved {
	int queue;
	unsigned int bound;		/* NN_QBIND_*, not 0 */
};

struct nn_plan_rss {
	char *nic;
	int table_size;			/* entries; -1 unknown when planned (--root): the live size */
	int *queues;			/* ascending, distinct */
	int *weights;			/* one per queue, >= 1; NULL: equal */
	size_t nqueues;
	struct nn_plan_rss_reserved *reserved;	/* rx queues left out as bound (a note) */
	size_t nreserved;
};

/* One rx queue's RPS/RFS values (irq/rps.h): rps_cpus and rps_flow_cnt. */
struct nn_plan_rps {
	char *nic;
	int queue;			/* rx queue: /sys/class/net/NIC/queues/rx-N/ */
	struct nn_cpuset cpus;		/* rps_cpus; empty: RPS off (a keep-off entry only) */
	long flow_cnt;			/* rps_flow_cnt (a power of two); -1: left as it is
					 * (a keep-off entry: a mask found loses CPUs that
					 * take no NIC work, plan_rps.c) */
	char *reason;
};

/* One NAPI setting (irq/napi_conf.h): per NAPI through napi-set, or
 * (napi_id -1) the device-wide sysfs file. A profile can emit these as the
 * options do: one entry per NAPI and attribute, each with its reason. */
struct nn_plan_napi_conf {
	char *nic;
	int ifindex;			/* -1 unknown (device-wide entries need none) */
	long long napi_id;		/* -1: the device-wide file */
	enum nn_napi_attr attr;
	long long value;
	char *reason;
};

/* One live claim the plan left out (discover/claims.h): its owner for reports. */
struct nn_plan_claim {
	char *name;
	char *owner;			/* claim, hook, cpuset */
	char *source;			/* record, partition, cgroup_isolated */
	struct nn_cpuset cpus;
};

/* One coalescing value or ring size of a NIC (discover/ethtool_nl.h), set
 * by a profile with its reason. */
struct nn_plan_eth {
	char *nic;
	enum nn_eth_setting setting;
	long long value;
	char *reason;
};

/* One busy-poll sysctl (irq/busy_poll.h) a profile sets, with its reason:
 * latency with --busy-poll USECS. */
struct nn_plan_sysctl {
	enum nn_busy_sysctl which;
	long long value;		/* microseconds */
	char *reason;
};

/* Identifies the host a plan was made for; apply refuses another shape. */
struct nn_plan_shape {
	int ncpus;
	int nnodes;
	char **pci;			/* PCI addresses of the planned NICs, sorted */
	size_t npci;
};

/* A port planned for a userspace driver (plan --dpdk-ports, issue 38): the
 * PCI function, the driver it is on and the one the plan binds it to. The
 * boot arguments' planner reads it too (the IOMMU is planned where a port
 * goes to vfio-pci with an IOMMU). */
struct nn_plan_port {
	char pci[16];		/* "0000:af:00.0" */
	char ifname[16];	/* its netdev while on a kernel driver, "" otherwise */
	int node;		/* -1: unknown */
	int iommu_group;	/* -1: none */
	char driver_now[32];	/* "" when no driver is bound */
	char driver[32];	/* planned: "vfio-pci" */
	bool noiommu;		/* --noiommu: vfio-pci's unsafe no-IOMMU mode */
	char *reason;		/* why this driver, what was checked; NULL in older plans */
};

struct nn_plan {
	struct nn_plan_shape shape;
	enum nn_policy policy;
	struct nn_cpuset housekeeping;	/* kept free of queue IRQs */
	struct nn_cpuset isolated;	/* isolated CPUs left out (not named by --cpus):
					 * no queue IRQ, XPS or housekeeping there */
	struct nn_cpuset claimed;	/* run-time claims (nn_host_claimed_cpus) left out, --cpus or
					 * not: no queue IRQ, XPS, NAPI thread or housekeeping there */
	struct nn_cpuset dpdk_lcores;	/* --profile dpdk: the lcores layout --dpdk hands out
					 * (plan_dpdk.c): no queue IRQ, XPS, NAPI thread or RPS there */
	char *dpdk_reason;		/* why, per node; NULL without them */
	struct nn_plan_claim *claims;	/* who claims them, as discovered */
	size_t nclaims;
	int claim_spills;		/* NICs whose node the claims left without a CPU (spilled) */
	struct nn_plan_nic *nics;	/* sorted by name */
	size_t nnics;
	struct nn_plan_irq *irqs;
	size_t nirqs;
	struct nn_plan_xps *xps;
	size_t nxps;
	struct nn_plan_channels *channels;
	size_t nchannels;
	struct nn_plan_napi *napi_threads;
	size_t nnapi_threads;
	struct nn_plan_hugepages *hugepages;
	size_t nhugepages;
	struct nn_plan_rss *rss;
	size_t nrss;
	struct nn_plan_rps *rps;
	size_t nrps;
	long rps_sock_flow_entries;	/* RFS's table, at least this many; 0: not planned */
	struct nn_plan_napi_conf *napi_conf;
	size_t nnapi_conf;
	enum nn_profile profile;	/* what the plan was made for */
	struct nn_plan_eth *eth;	/* the profile's coalescing and ring sizes */
	size_t neth;
	struct nn_plan_sysctl *sysctls;	/* the busy-poll sysctls (latency --busy-poll) */
	size_t nsysctls;
	struct nn_plan_port *ports;	/* --dpdk-ports: ports planned for a userspace driver */
	size_t nports;
	struct nn_cpuset isolate;	/* --profile latency --isolate: the application's CPUs, kept
					 * free of NIC work like the dpdk lcores */
	/* The kernel arguments (plan_boot.c, boot/boot.h): what boot_mode
	 * asked for, each with its reason, and the ones left out with theirs. */
	enum nn_boot_mode boot_mode;
	unsigned int boot_names;	/* NN_BARG_* (NAMED) */
	bool boot_given;		/* asked for by --boot-args, not a profile's default: apply
					 * refuses rather than warns when it cannot write them */
	struct nn_boot_arg *boot_args;
	size_t nboot_args;
	struct nn_boot_skip *boot_left;
	size_t nboot_left;
	struct {
		bool running;
		enum nn_irqbalance_action action;
	} irqbalance;
	char **warnings;		/* what the user can change: "eth0: 4 queues on 3 CPUs: ..." */
	size_t nwarnings;
	char **notes;			/* host facts no option changes: "eth0: unknown locality: ..." */
	size_t nnotes;
};

/* The planner's one answer to "which CPUs may take NIC work" (pure): @t's
 * online CPUs (every CPU it lists when it says none is online), within
 * @cpus (NULL or empty: all), less the isolated CPUs @cpus does not name,
 * less @claimed (NULL: none; --cpus never hands a claimed CPU back).
 * @isolated, when not NULL, gets the isolated CPUs left out. What the plan
 * places on and what the claim door judges a new claim against. 0 or
 * -ENOMEM. */
int nn_plan_usable_cpus(const struct nn_topo *t, const struct nn_cpuset *cpus,
			const struct nn_cpuset *claimed, struct nn_cpuset *out,
			struct nn_cpuset *isolated);
/* Fills @plan (zeroed first). -EINVAL when no online CPU is left to plan on
 * (--cpus and the isolated CPUs; claims that hold every usable CPU share
 * the housekeeping CPUs with a warning instead),
 * -ENODEV when opts->nics names a NIC the host does not have, -ENOMEM. */
int nn_plan_make(const struct nn_host *host, const struct nn_plan_opts *opts, struct nn_plan *plan);
void nn_plan_free(struct nn_plan *plan);
/* The plan's entry for IRQ @irq; NULL when @plan is NULL or leaves it alone. */
const struct nn_plan_irq *nn_plan_irq_find(const struct nn_plan *plan, int irq);
/* Its CPUs, as irq_place.h's nn_planned_cpus_fn (@plan: a struct nn_plan). */
const struct nn_cpuset *nn_plan_irq_cpus(const void *plan, int irq);
/* Every NIC name @plan's entries use (a port's netdev too), once each: an array the caller frees
 * (free(*@out)) of pointers into @plan. 0 or -ENOMEM. Pure. */
int nn_plan_nic_names(const struct nn_plan *plan, char ***out, size_t *nout);
void nn_plan_opts_free(struct nn_plan_opts *opts);

/* {"plan":{"shape":{..},"housekeeping","isolated","claimed","claims":[..],"claim_spills","irqs":[..],"xps":[..],
 *  "channels":[..],"napi_threads":[..],"rss":[..],"rps":[..],"rps_sock_flow_entries","napi_config":[..],"profile",
 *  "ethtool":[..],"sysctls":[..],"dpdk_lcores","dpdk_lcores_reason","hugepages":[..],
 *  "irqbalance":{"running","action"},"warnings":[..]}} - stable keys. */
struct json_object *nn_plan_to_json(const struct nn_plan *plan);
/* Just its "shape" object (what an undo log keeps), without the whole plan. */
struct json_object *nn_plan_shape_to_json(const struct nn_plan *plan);
/* Parses what nn_plan_to_json() wrote; -EINVAL with @why filled on bad input. */
int nn_plan_from_json(struct json_object *doc, struct nn_plan *plan, char *why, size_t whylen);
/* The same from the text of plan @name (for messages): at most
 * NN_DOC_MAX_BYTES, one JSON document. Pure, for the fuzzer too. @why reads
 * "plan NAME: plan.nics[0].nic: '../x' is not an interface name: ...". */
int nn_plan_parse(const char *name, const char *buf, size_t len, struct nn_plan *plan,
		  char *why, size_t whylen);
/* 0 when @plan fits @host; -EXDEV with @why ("plan is for 112 CPUs, host has 2") otherwise. */
int nn_plan_check_shape(const struct nn_plan *plan, const struct nn_host *host, char *why, size_t whylen);

/* DPDK EAL arguments matching @plan for a service on @node (pure):
 * "-l <lcores> [--socket-mem a,b,..] [-a PCI]..". The lcores are
 * nn_layout_make's (layout --dpdk with the plan's housekeeping and queue
 * IRQs: the one lcore rule): the node's isolated CPUs when it has some, else
 * its CPUs outside housekeeping; never a claimed CPU; without the queue-IRQ
 * cores and their SMT siblings unless nothing else is left (then *@shared).
 * --socket-mem (MB per node, this node's planned hugepages, 0 elsewhere) only
 * when the plan reserves hugepages. -a: the plan's --dpdk-ports on @node
 * where it has ports (the application's), else its NICs on @node. A node without lcores of its own
 * (memory-only, CXL, all housekeeping or claimed) borrows those of the
 * nearest node that has some (nn_plan_eal_lcore_node()) and keeps its memory
 * and NICs. Malloc'd in *@out. -ENOENT when no node has lcores. */
int nn_plan_eal_args(const struct nn_plan *plan, const struct nn_host *host, int node,
		     char **out, bool *shared);

/* The node whose CPUs serve as EAL lcores for @node: @node itself, or the
 * nearest node the layout gives lcores; -1 when there is none. */
int nn_plan_eal_lcore_node(const struct nn_plan *plan, const struct nn_host *host, int node);

/* Fills @table (@size entries) from @r: equal weights round-robin (entry i is
 * queue i % n, the kernel's default over those queues: shares differ by at
 * most one entry when @size is no multiple), or with weights in contiguous
 * blocks as `ethtool -X weight` does (entry j goes to the first queue whose
 * cumulative weight exceeds j * sum / size). -EINVAL without queues or size. */
int nn_plan_rss_table(const struct nn_plan_rss *r, unsigned int size, unsigned int *table);
/* "xsk", "io_uring", "dmabuf" for one NN_QBIND_* bit (NULL for others);
 * parse -EINVAL on others. */
const char *nn_qbind_name(unsigned int bit);
int nn_qbind_parse(const char *s, unsigned int *bit);
/* "throughput", "latency", "dpdk" ("none" for NONE); parse -EINVAL on others. */
const char *nn_profile_name(enum nn_profile p);
int nn_profile_parse(const char *s, enum nn_profile *p);
/* One row of a profile's table: what it sets, to what, and why. */
struct nn_profile_row {
	const char *what;		/* "adaptive-rx", "rx ring", "napi defer-hard-irqs", "rps" */
	const char *value;		/* "1", "driver max", "auto" */
	const char *why;
};
/* The rows of @p (NULL-terminated by a row with what NULL); pure, for the
 * man page's table and plan --json's reasons alike. */
const struct nn_profile_row *nn_profile_table(enum nn_profile p);
/* The reason of the row of @p that sets @what ("" when none). */
const char *nn_profile_why(enum nn_profile p, const char *what);
/* The per-value options a profile stands for (--rps, the NAPI settings),
 * filled into @o where the user did not give them (@given: bit per
 * NN_RPS/NAPI option, nn_plan_opts's napi_set for the NAPI ones, @rps_given
 * for --rps). */
void nn_profile_opts(struct nn_plan_opts *o, bool rps_given);
/* The kernel arguments of @plan again, from its hugepages, ports
 * (plan->ports, filled before this) and CPUs kept for the application:
 * nn_plan_make's last step, for a caller that changed those after it.
 * @host's boot facts are read (nn_host_boot_read) or unknown. 0 or -ENOMEM. */
int nn_plan_boot(const struct nn_host *host, const struct nn_plan_opts *opts, struct nn_plan *plan);
/* "auto", "none", or the names ("hugepages,isolcpus") into @buf. */
void nn_plan_boot_mode_text(enum nn_boot_mode m, unsigned int names, char *buf, size_t len);
/* "auto", "off"; parse -EINVAL on others. */
const char *nn_rps_policy_name(enum nn_rps_policy p);
int nn_rps_policy_parse(const char *s, enum nn_rps_policy *p);
/* "local", "local:cpu" (and "none"); parse -EINVAL on others. */
const char *nn_rss_policy_name(enum nn_rss_policy p);
int nn_rss_policy_parse(const char *s, enum nn_rss_policy *p);

/* The report of "nicnuma plan" on ctx->out (plan_print.c): with JSON the
 * plan object, else the tables (NICs, IRQs current -> planned, XPS, NAPI
 * threads, channels, RSS, hugepages); then the EAL arguments per NIC node
 * (a warning for a node without them), the boot arguments' three columns
 * (boot/boot_print.h) when the plan has a boot mode, and in text
 * irqbalance's fate and the plan's warnings. 0, -ENOMEM, or -EINVAL when a
 * kernel line holds an argument nicnuma cannot parse (printed, named). */
int nn_plan_print(struct nn_ctx *ctx, const struct nn_plan *plan, const struct nn_host *host);
/* For "nicnuma check": the planned NICs' IRQs nicnuma could not place by role
 * (placed like queue IRQs) and those the plan has no entry for at all. */
struct nn_out;
/* plan --profile list: each profile, each value it sets and why
 * (nn_profile_table), text or {"profiles":[{"name","default","sets":
 * [{"setting","value","why"}]}]}. */
void nn_profile_list_print(struct nn_out *o);
void nn_plan_print_roles(struct nn_out *o, const struct nn_host *host, const struct nn_plan *plan);

/* Names as on the command line and in JSON; parse returns -EINVAL on others. */
const char *nn_policy_name(enum nn_policy p);
int nn_policy_parse(const char *s, enum nn_policy *p);
const char *nn_qdir_name(enum nn_qdir d);	/* rxtx|rx|tx, NULL for NN_QDIR_NONE */

#endif
