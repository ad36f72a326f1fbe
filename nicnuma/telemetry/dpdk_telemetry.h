/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dpdk_telemetry.h - "nicnuma check --dpdk": a running DPDK process's ports,
 * mempools and lcores as its telemetry v2 socket tells them, and whether they
 * sit on the same node.
 *
 * The commonest DPDK placement bug is a mempool on a socket other than its
 * port's (stock l2fwd creates its pool on the main lcore's socket); the
 * telemetry socket exposes each port's numa_node and each pool's socket_id,
 * so a running application can be checked without stopping it.
 *
 * Three layers: pure parsers of the JSON replies and the verdict
 * (dpdk_telemetry.c, unit-tested on canned replies), the socket exchange
 * bounded by poll() (dpdk_telemetry_io.c), and the gathering that runs the
 * commands and adds sysfs and /proc facts (dpdk_check.c).
 */
#ifndef NICNUMA_DPDK_TELEMETRY_H
#define NICNUMA_DPDK_TELEMETRY_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/core/cpuset.h"

struct nn_out;
struct nn_pm_snapshot;

#define NN_DT_NAME 64

struct nn_dt_port {
	int port_id;
	char name[NN_DT_NAME];		/* "net_ring0", "0000:03:00.0" */
	char pci[NN_DT_NAME];		/* the PCI address the name is; "" otherwise */
	char driver[NN_DT_NAME];	/* "" when telemetry does not say (22.11) */
	int tel_node;			/* /ethdev/info numa_node; -1 absent or unknown */
	int sysfs_node;			/* the PCI device's numa_node; -1 unknown */
	int node;			/* the node judged by; -1 unknown locality */
	const char *node_source;	/* "sysfs", "--vdev-node", NULL unknown */
	int rx_queues, tx_queues;	/* -1 absent */
	int started;			/* dev_started; -1 absent */
	unsigned int verdict;		/* NN_DTV_* */
	struct nn_cpuset pool_nodes;	/* sockets of the pools judged against it */
	struct nn_cpuset lcore_nodes;	/* nodes of the polling lcores */
};

struct nn_dt_pool {
	char name[NN_DT_NAME];
	int socket;			/* socket_id; -1 SOCKET_ID_ANY or absent */
	long long size, populated;	/* -1 absent */
	long long in_use;		/* -1: telemetry has no count (22.11) */
};

struct nn_dt_lcore {
	int lcore_id;
	struct nn_cpuset cpus;
	char role[16];			/* "RTE", "SERVICE", "NON_EAL"; "" unknown */
	int node;			/* node of all its CPUs; -1 unknown or several */
	bool main;			/* the main lcore: launches, usually does not poll */
	bool polling;			/* counted in the lcore check */
};

/* Fields or commands the telemetry lacks, and what that costs the check. */
struct nn_dt_note {
	char *what;			/* "/eal/lcore/info", "/mempool/info in_use" */
	char *effect;			/* "lcores taken from /eal/params" */
};

enum nn_dt_lcore_source {
	NN_DT_LCORES_NONE = 0,		/* lcore check skipped */
	NN_DT_LCORES_TELEMETRY,		/* /eal/lcore/info (DPDK 23.11+) */
	NN_DT_LCORES_PARAMS,		/* -l / -c / --lcores of /eal/params */
};

struct nn_dt_report {
	char *socket;			/* the socket path asked */
	char version[NN_DT_NAME];	/* "DPDK 22.11.11" */
	int pid;			/* -1 unknown */
	long max_output_len;		/* -1 unknown */
	struct nn_dt_port *ports;
	size_t nports;
	struct nn_dt_pool *pools;
	size_t npools;
	struct nn_dt_lcore *lcores;	/* ascending lcore id */
	size_t nlcores;
	enum nn_dt_lcore_source lcore_source;
	int main_lcore;			/* -1 unknown */
	char **params;			/* /eal/params, argv[0] first */
	size_t nparams;
	struct nn_dt_note *notes;
	size_t nnotes;
	size_t nflagged;		/* ports with a flagged verdict */
	bool skipped;			/* not this process's telemetry: nothing asked */
	/* the process's threads and memory per node (procmap_read.c), read by
	 * nn_dt_check after the telemetry; NULL without a pid */
	struct nn_pm_snapshot *process;
	bool process_unreadable;	/* its pid is not readable here (warned) */
};

enum nn_dt_verdict_flag {
	NN_DTV_OK = 1u << 0,
	NN_DTV_MEMPOOL_REMOTE = 1u << 1,	/* flagged: no pool on the port's node */
	NN_DTV_LCORE_REMOTE = 1u << 2,		/* flagged: no polling lcore on it */
	NN_DTV_UNKNOWN_LOCALITY = 1u << 3,	/* port node unknown: nothing judged */
	NN_DTV_NO_POOL = 1u << 4,		/* no pool with a known socket: pool check skipped */
	NN_DTV_NO_LCORE = 1u << 5,		/* no lcore of known node: lcore check skipped */
	/* flagged: pools on the port's node and on others, and the telemetry
	 * does not say which one the port draws from (22.11 never does) */
	NN_DTV_MEMPOOL_UNKNOWN = 1u << 6,
};

#define NN_DTV_LAST NN_DTV_MEMPOOL_UNKNOWN
#define NN_DTV_FLAGGED (NN_DTV_MEMPOOL_REMOTE | NN_DTV_LCORE_REMOTE | NN_DTV_MEMPOOL_UNKNOWN)

const char *nn_dt_verdict_key(unsigned int flag);	/* "mempool_remote" */
const char *nn_dt_verdict_text(unsigned int flag);	/* "mempool remote to its port" */

void nn_dt_report_init(struct nn_dt_report *r);
void nn_dt_report_free(struct nn_dt_report *r);
/* dpdk_print.c: the report of nn_dt_check (socket, ports with their
 * verdicts, mempools, lcores, the process, what the telemetry lacks). */
void nn_dt_report_print(struct nn_out *o, const struct nn_dt_report *r);
/* Forgets the lcores (before another source fills them). */
void nn_dt_lcores_clear(struct nn_dt_report *r);
/* Adds a note (copies); -ENOMEM. */
int nn_dt_note_add(struct nn_dt_report *r, const char *what, const char *effect);

/* ---- pure parsers of one reply each; -EINVAL on garbage, -ENOMEM ---- */

/* The greeting sent on connect: {"version","pid","max_output_len"}. */
int nn_dt_parse_greeting(const char *text, struct nn_dt_report *r);
/* A reply is {"<cmd>": value}; value null means "no such command" (or bad
 * parameter). Returns 0 with *@is_null, -EINVAL when not that shape. */
int nn_dt_reply_is_null(const char *text, const char *cmd, bool *is_null);
/* "/ethdev/list": [0,1] -> ids (malloc'd). */
int nn_dt_parse_id_list(const char *text, const char *cmd, int **ids, size_t *n);
/* "/mempool/list": ["a","b"] -> names (malloc'd vector of malloc'd strings). */
int nn_dt_parse_name_list(const char *text, const char *cmd, char ***names, size_t *n);
void nn_dt_names_free(char **names, size_t n);
/* "/ethdev/info,<id>": -ENOENT when the reply is null (port gone). */
int nn_dt_parse_port(const char *text, struct nn_dt_port *p);
/* "/mempool/info,<name>": -ENOENT when null. */
int nn_dt_parse_pool(const char *text, struct nn_dt_pool *p);
/* "/eal/lcore/info,<id>" (23.11+): lcore_id, socket, role, cpuset. */
int nn_dt_parse_lcore(const char *text, struct nn_dt_lcore *l);
/* "/eal/params": the EAL argv as a string array. */
int nn_dt_parse_params(const char *text, struct nn_dt_report *r);

/* The lcores the EAL arguments define (-l LIST, -c MASK, --lcores SPEC,
 * --main-lcore N; the last of -l/-c/--lcores wins, as in EAL). Returns 0
 * with r->lcores set (lcore_source PARAMS) or none when no option names
 * them, -EINVAL naming nothing when a value does not parse, -ERANGE when
 * it names an lcore id >= NN_DT_MAX_LCORES (no lcore kept). */
int nn_dt_lcores_from_params(struct nn_dt_report *r);

/* "0000:03:00.0" or "03:00.0" (domain 0 added): the canonical PCI address
 * into @out; false when @name is not one (a vdev). */
bool nn_dt_pci_name(const char *name, char *out, size_t size);

/* The verdict of every port, from the facts gathered (pure):
 * node: sysfs node of the PCI device, else @vdev_node for non-PCI ports when
 * >= 0, else unknown locality (nothing judged). Telemetry does not say which
 * pool serves which port, so every pool of known socket is judged: "mempool
 * remote" when none is on the port's node. The polling lcores are the lcores
 * of role RTE but the main one (all of them when there is only one): "lcore
 * remote" when none is on the port's node. @cpu_node[cpu] is the CPU's node
 * (-1 unknown) for cpu < @ncpus. */
void nn_dt_judge(struct nn_dt_report *r, const int *cpu_node, size_t ncpus, int vdev_node);

/* ---- socket (dpdk_telemetry_io.c) ---- */

/* Bounds on what a telemetry server can make nicnuma do (issue 22.6): ids
 * asked per list (a longer /ethdev/list, /mempool/list or /eal/lcore/list is
 * clipped with a warning), and lcore ids an EAL lcore list may name
 * (RTE_MAX_LCORE is 128 by default; beyond this the list is refused). */
#define NN_DT_MAX_IDS 1024
#define NN_DT_MAX_LCORES 1024
/* The default of --timeout: one deadline for the whole exchange. */
#define NN_DT_TIMEOUT_MS 10000

struct nn_dt_conn {
	int fd;
	int timeout_ms;			/* the whole exchange, from connect */
	long long deadline;		/* CLOCK_MONOTONIC ms: no wait goes past it */
	int peer_pid;			/* SO_PEERCRED of the server; -1 unknown */
	long long peer_uid;		/* -1 unknown */
	long long sock_uid;		/* the socket file's owner */
	char *path;
	char *buf;			/* the last reply, NUL-terminated */
	size_t cap;
	char err[256];			/* what went wrong, naming the socket */
};

/* The socket DPDK creates for @prefix: /var/run/dpdk/PREFIX for root, else
 * $XDG_RUNTIME_DIR/dpdk/PREFIX or /tmp/dpdk/PREFIX (eal_get_runtime_dir).
 * Malloc'd, NULL on ENOMEM. */
char *nn_dt_default_socket(const char *prefix, bool root);

/* Connects and reads the greeting into c->buf; @timeout_ms bounds this and
 * every later command together (c->deadline). The path's last component is
 * not followed: it must be a socket itself (lstat; a symlink is -ELOOP), and
 * is connected through an O_PATH|O_NOFOLLOW fd of it. The server's
 * SO_PEERCRED and the socket's owner are kept in @c. Errors: -ENOENT (no
 * socket), -ECONNREFUSED (stale), -ETIMEDOUT (past the deadline), others;
 * c->err says it in words. Close @c whatever it returns. */
int nn_dt_connect(struct nn_dt_conn *c, const char *path, int timeout_ms);
/* Sends @cmd, waits for one reply in c->buf. */
int nn_dt_command(struct nn_dt_conn *c, const char *cmd);
void nn_dt_close(struct nn_dt_conn *c);

/* ---- gathering (dpdk_check.c) ---- */

struct nn_ctx;

struct nn_dt_opts {
	const char *socket;		/* path; NULL: from prefix */
	const char *prefix;		/* NULL: "rte" */
	int timeout_ms;			/* the whole exchange (--timeout) */
	int vdev_node;			/* -1: vdev ports are of unknown locality */
};

/* Runs the commands, reads the PCI ports' numa_node and the CPU -> node map
 * through the fs root, and judges. Errors are reported here (nn_err) naming
 * the socket; returns 0 or negative errno. Free @r whatever it returns. */
int nn_dt_check(struct nn_ctx *ctx, const struct nn_dt_opts *o, struct nn_dt_report *r);

/* ---- observe --dpdk: counters and rates (dpdk_rates.c, pure) ---- */

/* Queues shown per port: /ethdev/stats has q_ipackets[]/q_opackets[] for the
 * first 16 (RTE_ETHDEV_QUEUE_STAT_CNTRS); rx_qN_packets/tx_qN_packets xstats
 * can name more. Queues past this are not shown. */
#define NN_DT_QMAX 128

struct nn_dt_pstats {
	int port_id;
	char name[NN_DT_NAME];
	int node;			/* /ethdev/info numa_node, else sysfs; -1 unknown */
	long long ipackets, opackets, imissed;	/* -1 absent */
	int nrxq, ntxq;			/* queues with a counter */
	long long rxq[NN_DT_QMAX], txq[NN_DT_QMAX];	/* -1 absent */
};

struct nn_dt_lusage {
	int lcore_id;
	long long total_cycles, busy_cycles;
};

/* One sample of a DPDK process's counters. */
struct nn_dt_sample {
	int pid;			/* -1 unknown */
	long long t_ms;			/* CLOCK_MONOTONIC when taken */
	struct nn_dt_pstats *ports;
	size_t nports;
	struct nn_dt_lusage *usage;	/* from /eal/lcore/usage or /eal/lcore/info cycles */
	size_t nusage;
	bool usage_available;
	char err[256];			/* why the sample failed, in words */
};

struct nn_dt_qrate {
	int queue;
	double rx_pps, tx_pps;		/* NAN: no counter, or it went backwards */
};

struct nn_dt_prate {
	int port_id;
	char name[NN_DT_NAME];
	int node;
	double rx_pps, tx_pps, rx_missed_pps;	/* NAN unknown */
	struct nn_dt_qrate *queues;
	size_t nqueues;
};

struct nn_dt_rates {
	struct nn_dt_prate *ports;
	size_t nports;
};

void nn_dt_sample_free(struct nn_dt_sample *s);
void nn_dt_rates_free(struct nn_dt_rates *r);
/* "/ethdev/stats,<id>": ipackets, opackets, imissed, q_ipackets[], q_opackets[]
 * into @p (its port_id, name and node are left alone). -ENOENT when null. */
int nn_dt_parse_stats(const char *text, struct nn_dt_pstats *p);
/* "/ethdev/xstats,<id>": rx_qN_packets / tx_qN_packets, where the PMD names
 * them, replace the per-queue counts of /ethdev/stats. -ENOENT when null. */
int nn_dt_parse_xstats(const char *text, struct nn_dt_pstats *p);
/* Lcore busy cycles in either shape: "/eal/lcore/usage" (23.03+:
 * {"lcore_ids":[],"total_cycles":[],"busy_cycles":[]}) or one
 * "/eal/lcore/info,<id>" reply with busy_cycles/total_cycles (23.11+).
 * Appends to s->usage and sets usage_available; -ENOENT when null or the
 * info has no cycles, -EINVAL on garbage. */
int nn_dt_parse_usage(const char *text, struct nn_dt_sample *s);
/* Rates from @prev to @cur over @secs: counters that went backwards or that
 * @prev lacks are NAN. Ports matched by id. */
int nn_dt_rates(const struct nn_dt_sample *prev, const struct nn_dt_sample *cur, double secs,
		struct nn_dt_rates *out);
/* The busy share (0-1) of @lcore from @prev to @cur; NAN when either lacks it
 * or the cycles did not move forward. */
double nn_dt_busy_share(const struct nn_dt_sample *prev, const struct nn_dt_sample *cur, int lcore);

/* ---- observe --dpdk: gathering (dpdk_check.c) ---- */

/* Connects to @o's socket, reads the greeting and checks whose telemetry it
 * is (SO_PEERCRED against the greeting, the socket's owner); r->skipped when
 * not that process's. Errors reported (nn_err) naming the socket, except
 * -ENOENT/-ECONNREFUSED when @quiet. r->socket must be set. */
int nn_dt_open(struct nn_ctx *ctx, struct nn_dt_conn *c, struct nn_dt_report *r, int timeout_ms,
	       bool quiet);
/* One sample: ports (/ethdev/list, info, stats, xstats), lcore cycles where
 * the telemetry has them; on the first sample (@r without ports yet) also
 * /eal/params for the lcores. -ENOENT/-ECONNREFUSED: the process is gone. */
int nn_dt_sample_take(struct nn_ctx *ctx, const struct nn_dt_opts *o, struct nn_dt_report *r,
		      struct nn_dt_sample *s, bool quiet);

#endif
