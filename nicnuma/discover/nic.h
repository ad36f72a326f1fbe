/* SPDX-License-Identifier: GPL-2.0-or-later */
/* nic.h - network devices, their locality, queues and queue IRQs */
#ifndef NICNUMA_NIC_H
#define NICNUMA_NIC_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/core/cpuset.h"
#include "irq/irq_names.h"
#include "nicnuma/core/parse.h"
#include "nicnuma/discover/ethtool.h"
#include "nicnuma/discover/netdev_genl.h"

struct nn_ctx;
struct nn_pcie;
struct nn_topo;

/* What decided an IRQ's queue: the kernel's netdev genl (napi-get's irq),
 * the drivers' name table, or nothing (role unknown). */
enum nn_irq_source {
	NN_IRQ_SRC_UNKNOWN = 0,
	NN_IRQ_SRC_NAME,
	NN_IRQ_SRC_NETLINK,
};
const char *nn_irq_source_name(enum nn_irq_source s);

struct nn_irq {
	int irq;
	char *name;			/* action name in /proc/interrupts; NULL unknown */
	int queue;			/* queue index, -1 for non-queue IRQs */
	enum nn_qdir dir;
	enum nn_irq_role role;		/* queue / misc / unknown (neither netlink nor a name said) */
	enum nn_irq_source source;
	int name_flags;			/* the name table row's NN_IRQ_ROW_* */
	long long napi_id;		/* from netlink; -1 unknown */
	struct nn_cpuset affinity;	/* smp_affinity_list */
	struct nn_cpuset effective;	/* effective_affinity_list */
	bool has_affinity, has_effective;
};

/* One rx queue's Receive Packet Steering mask as found. */
struct nn_rx_rps {
	bool known;
	struct nn_cpuset cpus;		/* empty: RPS off for the queue */
};

struct nn_nic {
	char *name;
	int ifindex;			/* -1 unknown */
	bool is_virtual;		/* no bus device: lo, veth, bridge, dummy, tun, ifb */
	char *kind;			/* "veth", "bridge"... for virtual devices; may be NULL */
	char *pci;			/* "0000:00:03.0"; NULL when virtual or not PCI */
	char *driver;			/* NULL when virtual */
	int numa_node;			/* as the kernel says; -1 unknown */
	struct nn_cpuset local_cpus;	/* PCI local_cpulist; empty when unknown */
	bool local_cpus_read;		/* local_cpulist was read; empty then means a CPU-less node */
	bool locality_known;		/* numa_node >= 0 or local_cpus narrower than all CPUs */
	long speed_mbps;		/* -1 unknown */
	int rx_queues, tx_queues;	/* /sys/class/net/X/queues; -1 unknown */
	/* Each rx queue's rps_cpus as found (nn_nic_rps_read; the host snapshot
	 * reads them, a NIC listing does not): rx_rps[q] for rx-q, q <
	 * nrx_rps. known false where the file is missing (no CONFIG_RPS) or
	 * unreadable or malformed: unknown, never taken as "off". */
	struct nn_rx_rps *rx_rps;
	size_t nrx_rps;
	int channels_combined;		/* ETHTOOL_GCHANNELS, live only; -1 unknown */
	int channels_max;
	struct nn_rss rss;		/* RSS indirection table, live only (NN_RSS_NOT_READ under --root) */
	/* Coalescing and ring sizes (discover/ethtool_nl.h): live, or a
	 * capture's saved answer under --root; -1 values where unknown. */
	struct nn_eth_conf eth;
	struct nn_irq *irqs;		/* ascending irq number */
	size_t nirqs;
	/* The kernel's netdev genl answers for this device (live, or a capture's
	 * saved answers under --root); genl_read false: none (no kernel support,
	 * a fake root without them). */
	bool genl_read;
	struct nn_genl_queue *gqueues;	/* queue-get: rx then tx, as the kernel lists them */
	size_t ngqueues, gqcap;
	struct nn_genl_napi *gnapis;	/* napi-get */
	size_t ngnapis, gncap;
	/* What the kernel's napi-set takes (struct nn_genl: live only):
	 * known false when it could not be asked. */
	bool napi_set_known;
	uint32_t napi_set_attrs;	/* bit N: NN_NETDEV_A_NAPI_* N */
	/* The PCI function this netdev's function hangs off: a sub-function's
	 * (auxiliary device's) parent, an SR-IOV VF's PF (physfn); NULL for a
	 * function of its own. */
	char *parent_fn;
	bool parent_is_pf;		/* parent_fn is a VF's physfn (else a sub-function's parent) */
	/* Administratively down: IFF_UP clear in IF/flags (without that file,
	 * operstate "down"). Many drivers (e1000e, vmxnet3, igb...) request their
	 * IRQs in ndo_open: such a NIC's msi_irqs have no /proc/irq/N yet. */
	bool link_down;
	struct nn_pcie *pcie;		/* links to the root port (pcie.h); NULL: not a PCIe function */
	/* Threaded-NAPI kthreads of NAPIs without an id (TX only: napi-get
	 * never names them; irq/napi_thread.h, nn_napi_tx_find), by pid. */
	int *txnapis;
	size_t ntxnapis;
};

/* Discovery flags. NN_NICS_NO_EFFECTIVE: leave effective_affinity_list
 * unread (has_effective false), for callers that never show it (plan, apply):
 * one open fewer per IRQ, a thousand on a large host. */
#define NN_NICS_NO_EFFECTIVE 0x1u
/* NN_NICS_SHAPE: a NIC's shape alone, for applying a plan file, which reads
 * each value it writes itself: sysfs (PCI address, node, IRQs, queues) and
 * netdev genl's queues and NAPIs. No ethtool (coalescing, rings, channels,
 * RSS table, driver and speed cross-checks), no rtnetlink link dump, no
 * napi-set policy: those stay unknown (-1), as without the operation. */
#define NN_NICS_SHAPE 0x2u
/* NN_NICS_NO_GENL: no netdev genl dump either (queues and NAPIs from sysfs
 * alone), for a caller that needs only a NIC's identity (ifindex, PCI
 * address: rollback's device check), so that a rollback's one napi-get dump,
 * the one its NAPI threads share, stays the only one. */
#define NN_NICS_NO_GENL 0x4u

/* Every netdev in /sys/class/net (sorted by name), or those named in @only
 * alone (NULL: every one; a plan's NICs: apply of a plan file need not read
 * the container veths beside them; a name not there is simply not in the
 * answer). Live root: cross-checks with rtnetlink and the ethtool ioctl and
 * warns on disagreement (not with NN_NICS_SHAPE). */
int nn_nics_discover(struct nn_ctx *ctx, const struct nn_topo *topo, unsigned int flags,
		     char *const *only, size_t nonly, struct nn_nic **nics, size_t *nnics);
void nn_nics_free(struct nn_nic *nics, size_t nnics);
/* The one reader of an rx queue's current rps_cpus (through ctx->root):
 * 0 with *@cpus, or -errno (-ENOENT without CONFIG_RPS, -EINVAL for a
 * malformed mask or name). Discovery and observe's RPS spread both use it. */
int nn_rps_cpus_read(struct nn_ctx *ctx, const char *nic, int queue, struct nn_cpuset *cpus);
/* Every rx queue's current rps_cpus (nn_rps_cpus_read):
 * fills @nic->rx_rps for rx-0 .. rx-(rx_queues - 1); a queue whose file is
 * missing or unreadable stays unknown (no warning: a kernel without
 * CONFIG_RPS has none). 0 or -ENOMEM. */
int nn_nic_rps_read(struct nn_ctx *ctx, struct nn_nic *nic);
/* The rps_cpus found for @nic's rx queue @queue; NULL when unknown. Pure. */
const struct nn_cpuset *nn_nic_rps_found(const struct nn_nic *nic, int queue);
/* The NUMA node a device directory's numa_node names ("/sys/bus/pci/devices/
 * 0000:03:00.0", a NIC's device link): 0 with *@node (-1: the kernel does not
 * know), -ERANGE with the value in *@node when it is out of range, or the
 * read's -errno (then *@node is -1). The one reader of numa_node: NIC
 * discovery and the bench (a vfio-bound port has no netdev) both use it. */
struct nn_root;
int nn_device_numa_node(const struct nn_root *r, const char *dev_dir, long *node);
/* "0000:3b:00.0", also wider domains ("10000:00:00.0" behind Intel VMD). */
bool nn_is_pci_addr(const char *s);
/* IRQs of @nic that neither netdev genl nor the name table gives a role
 * (the planner places them like queue IRQs: docs/discovery.md). */
size_t nn_nic_irqs_unknown_role(const struct nn_nic *nic);
/* The node a NIC belongs to (pure): the kernel's numa_node, else the one node
 * that holds all its local CPUs, else - on a host with a single node - that
 * node (*@assumed set). -1 unknown locality. layout and report ask here. */
int nn_nic_home_node(const struct nn_topo *t, const struct nn_nic *nic, bool *assumed);
const struct nn_nic *nn_nic_find(const struct nn_nic *nics, size_t n, const char *name);
/* The pid the kernel's netdev napi-get names as the thread of @nic's NAPI
 * @napi_id (napi_pid.c): from @nics' answers when @nic is among them with
 * answers read (a live discovery, or a capture's saved ones), else, live
 * only, asked afresh in this network namespace. 0 with *@pid; -ENOENT: no
 * such device or NAPI here, or it is not threaded; -EOPNOTSUPP: a fake root
 * without saved answers, or a kernel without napi-get; other -errno. */
int nn_napi_kernel_pid(struct nn_ctx *ctx, const struct nn_nic *nics, size_t nnics, const char *nic,
		       long long napi_id, int *pid);

/* Finds the threaded-NAPI kthreads of NAPIs without an id of @nics (the
 * rule of irq/napi_thread.h, nn_napi_tx_verify): kthreadd's children named
 * "napi/IF-0" for a device IF of @nics, into each one's txnapis. A thread
 * "napi/IF-N" with N > 0 that napi-get does not name is left alone: the
 * thread of a same-named device in another network namespace. 0 or
 * -ENOMEM. */
int nn_napi_tx_find(struct nn_ctx *ctx, struct nn_nic *nics, size_t nnics);

/* One napi-get dump for a whole run (apply, rollback) instead of one per
 * threaded NAPI: nn_napi_kernel_pid asks it once and answers every later
 * question of the run from it (nicnuma's own network namespace, every
 * interface), until a write marks it stale. The per-thread half of the
 * trust rule (/proc, the pidfd) stays right before each write. A stack
 * object of the run: nn_napi_answers_begin hangs it on @ctx unless an outer
 * run's hangs there already (then that one serves), nn_napi_answers_end
 * takes it off again and frees the dump. A failed dump is not kept (asked
 * again). ctx->napi_answers is napi_pid.c's alone (tests/arch). */
struct nn_napi_answers {
	struct nn_genl g;
	bool read;			/* g holds the answers (err 0 or -EOPNOTSUPP) */
	bool owner;			/* hung on the ctx by its begin */
	int err;			/* the kept dump's result: 0 or -EOPNOTSUPP */
	unsigned int ndumps;		/* times the kernel was asked */
	/* The dump; NULL: nn_genl_read (live only). A test's stand-in. */
	int (*dump)(struct nn_ctx *ctx, struct nn_genl *g, void *arg);
	void *arg;
};
void nn_napi_answers_begin(struct nn_ctx *ctx, struct nn_napi_answers *a);
void nn_napi_answers_end(struct nn_ctx *ctx, struct nn_napi_answers *a);
/* A write may have added, removed or renumbered NAPI threads (channels,
 * rings, coalescing, threaded): the run's answers, if any, are asked again
 * at the next question. Called where such a value is written: discover's
 * own setters (nn_channels_set, nn_eth_set, nn_genl_napi_set: every kernel
 * request, whatever it answers) and the device-wide NAPI files (the
 * napi_dev kind's restore in act/napi_dev_change.c, apply's write and
 * undo of them). */
void nn_napi_answers_stale(struct nn_ctx *ctx);

#endif
