// SPDX-License-Identifier: GPL-2.0-or-later
/* dpdk_check.c - "nicnuma check --dpdk": ask a running DPDK process's
 * telemetry for its ports, mempools and lcores, add the PCI devices' nodes
 * from sysfs and the CPU -> node map, and judge (dpdk_verdict.c).
 *
 * A command the telemetry does not know answers null: that is a note (what
 * this release lacks and what the check does instead), not an error. A reply
 * that is not the JSON the command gives is an error: something else listens
 * on the socket.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/telemetry/dpdk_telemetry.h"
#include "nicnuma/discover/nic.h"
#include "nicnuma/core/pathf.h"
#include "nicnuma/discover/procmap.h"

#define PCI_DEVICES "/sys/bus/pci/devices"

/* A reply that does not parse: names the command and shows its start. */
static int garbage(struct nn_ctx *ctx, const struct nn_dt_conn *c, const char *cmd, int err)
{
	if (err == -ENOMEM)
		return err;
	nn_err(ctx, "%s: garbage reply to %s (not DPDK telemetry?): '%.80s%s'", c->path, cmd,
	       c->buf, strlen(c->buf) > 80 ? "..." : "");
	return -EPROTO;
}

/* A list reply longer than NN_DT_MAX_IDS: only its start is asked. */
static void clip(struct nn_ctx *ctx, const struct nn_dt_conn *c, const char *cmd, size_t *n)
{
	if (*n <= NN_DT_MAX_IDS)
		return;
	nn_warn(ctx, c->path, "%s lists %zu entries: only the first %d are asked", cmd, *n,
		NN_DT_MAX_IDS);
	*n = NN_DT_MAX_IDS;
}

/* Sends @cmd; *@is_null when this telemetry does not know it. */
static int ask(struct nn_ctx *ctx, struct nn_dt_conn *c, const char *cmd, const char *key,
	       bool *is_null)
{
	int err = nn_dt_command(c, cmd);

	if (err) {
		nn_err(ctx, "%s", c->err);
		return err;
	}
	err = nn_dt_reply_is_null(c->buf, key, is_null);
	return err ? garbage(ctx, c, cmd, err) : 0;
}

static int read_ports(struct nn_ctx *ctx, struct nn_dt_conn *c, struct nn_dt_report *r)
{
	char cmd[64];
	int *ids = NULL, err;
	size_t i, n = 0;
	bool null;

	err = ask(ctx, c, "/ethdev/list", "/ethdev/list", &null);
	if (err || null)
		return err ? err : nn_dt_note_add(r, "/ethdev/list", "no ethdev telemetry: no port judged");
	err = nn_dt_parse_id_list(c->buf, "/ethdev/list", &ids, &n);
	if (err)
		return garbage(ctx, c, "/ethdev/list", err);
	clip(ctx, c, "/ethdev/list", &n);
	r->ports = calloc(n ? n : 1, sizeof(*r->ports));
	if (!r->ports) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		struct nn_dt_port *p = &r->ports[r->nports];

		snprintf(cmd, sizeof(cmd), "/ethdev/info,%d", ids[i]);
		err = nn_dt_command(c, cmd);
		if (err) {
			nn_err(ctx, "%s", c->err);
			goto out;
		}
		memset(p, 0, sizeof(*p));
		err = nn_dt_parse_port(c->buf, p);
		if (err == -ENOENT) {
			err = 0;	/* detached between list and info */
			continue;
		}
		if (err) {
			err = garbage(ctx, c, cmd, err);
			goto out;
		}
		r->nports++;
	}
	if (r->nports && !r->ports[0].driver[0])
		err = nn_dt_note_add(r, "/ethdev/info driver_name",
				     "driver not reported (DPDK 22.11): shown as unknown");
out:
	free(ids);
	return err;
}

static int read_pools(struct nn_ctx *ctx, struct nn_dt_conn *c, struct nn_dt_report *r)
{
	char **names = NULL, cmd[160];
	size_t i, n = 0, nall = 0;
	bool null, no_in_use = false;
	int err;

	err = ask(ctx, c, "/mempool/list", "/mempool/list", &null);
	if (err || null)
		return err ? err : nn_dt_note_add(r, "/mempool/list",
						  "no mempool telemetry: mempool check skipped");
	err = nn_dt_parse_name_list(c->buf, "/mempool/list", &names, &n);
	if (err)
		return garbage(ctx, c, "/mempool/list", err);
	nall = n;
	clip(ctx, c, "/mempool/list", &n);
	r->pools = calloc(n ? n : 1, sizeof(*r->pools));
	if (!r->pools) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		struct nn_dt_pool *p = &r->pools[r->npools];

		snprintf(cmd, sizeof(cmd), "/mempool/info,%s", names[i]);
		err = nn_dt_command(c, cmd);
		if (err) {
			nn_err(ctx, "%s", c->err);
			goto out;
		}
		memset(p, 0, sizeof(*p));
		err = nn_dt_parse_pool(c->buf, p);
		if (err == -ENOENT) {
			err = 0;	/* freed between list and info */
			continue;
		}
		if (err) {
			err = garbage(ctx, c, cmd, err);
			goto out;
		}
		no_in_use |= p->in_use < 0;
		r->npools++;
	}
	if (no_in_use)
		err = nn_dt_note_add(r, "/mempool/info in_use",
				     "objects in use not reported (DPDK 22.11): populated_size shown");
out:
	nn_dt_names_free(names, nall);
	return err;
}

/* /eal/params for the lcores (and the main lcore), then /eal/lcore/info
 * where the release has it (23.11+), which replaces them. */
static int read_lcores(struct nn_ctx *ctx, struct nn_dt_conn *c, struct nn_dt_report *r)
{
	int *ids = NULL, err;
	size_t i, n = 0;
	char cmd[64];
	bool null;

	err = ask(ctx, c, "/eal/params", "/eal/params", &null);
	if (err)
		return err;
	if (null) {
		err = nn_dt_note_add(r, "/eal/params", "EAL arguments unknown");
	} else {
		err = nn_dt_parse_params(c->buf, r);
		if (err)
			return garbage(ctx, c, "/eal/params", err);
		err = nn_dt_lcores_from_params(r);
		if (err == -EINVAL)
			err = nn_dt_note_add(r, "/eal/params",
					     "its -l/-c/--lcores/--main-lcore value does not parse");
		else if (err == -ERANGE)
			err = nn_dt_note_add(r, "/eal/params", "its lcore list names lcore ids of "
					     "1024 or more (not EAL's): lcores taken from it refused");
	}
	if (err)
		return err;
	err = ask(ctx, c, "/eal/lcore/list", "/eal/lcore/list", &null);
	if (err)
		return err;
	if (null)
		return nn_dt_note_add(r, "/eal/lcore/info", r->lcore_source == NN_DT_LCORES_PARAMS ?
				      "telemetry has no /eal/lcore/info (before DPDK 23.11): lcores "
				      "and roles taken from /eal/params (-l/-c/--lcores)" :
				      "telemetry has no /eal/lcore/info and /eal/params names no "
				      "lcores: lcore check skipped");
	err = nn_dt_parse_id_list(c->buf, "/eal/lcore/list", &ids, &n);
	if (err)
		return garbage(ctx, c, "/eal/lcore/list", err);
	clip(ctx, c, "/eal/lcore/list", &n);
	nn_dt_lcores_clear(r);
	r->lcores = calloc(n ? n : 1, sizeof(*r->lcores));
	if (!r->lcores) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		struct nn_dt_lcore *l = &r->lcores[r->nlcores];

		snprintf(cmd, sizeof(cmd), "/eal/lcore/info,%d", ids[i]);
		err = nn_dt_command(c, cmd);
		if (err) {
			nn_err(ctx, "%s", c->err);
			goto out;
		}
		memset(l, 0, sizeof(*l));
		err = nn_dt_parse_lcore(c->buf, l);
		if (err) {
			nn_cpuset_free(&l->cpus);
			if (err == -ENOENT) {
				err = 0;
				continue;
			}
			err = garbage(ctx, c, cmd, err);
			goto out;
		}
		r->nlcores++;
	}
	r->lcore_source = NN_DT_LCORES_TELEMETRY;
out:
	free(ids);
	return err;
}

/* The PCI ports' numa_node from sysfs: the hardware's word, not the PMD's. */
static int read_sysfs_nodes(struct nn_ctx *ctx, struct nn_dt_report *r)
{
	char dir[PATH_MAX], what[160];
	size_t i;
	long node;
	int err;

	for (i = 0; i < r->nports; i++) {
		struct nn_dt_port *p = &r->ports[i];

		p->sysfs_node = -1;
		if (!p->pci[0])
			continue;
		if (nn_pathf(dir, sizeof(dir), "%s/%s", PCI_DEVICES, p->pci))
			continue;
		err = nn_device_numa_node(&ctx->root, dir, &node);
		if (err == -ENOMEM)
			return err;
		if (err) {
			nn_warn(ctx, dir, "numa_node unreadable (%s): port %d of unknown locality",
				strerror(-err), p->port_id);
			continue;
		}
		p->sysfs_node = (int)node;
		if (node >= 0 && p->tel_node >= 0 && node != p->tel_node) {
			snprintf(what, sizeof(what), "/ethdev/info,%d numa_node", p->port_id);
			err = nn_dt_note_add(r, what, "differs from sysfs: the sysfs node is used");
			if (err)
				return err;
		}
	}
	return 0;
}

int nn_dt_open(struct nn_ctx *ctx, struct nn_dt_conn *c, struct nn_dt_report *r, int timeout_ms,
	       bool quiet)
{
	int err = nn_dt_connect(c, r->socket, timeout_ms);

	if (err) {
		if (!quiet || (err != -ENOENT && err != -ECONNREFUSED))
			nn_err(ctx, "%s", c->err[0] ? c->err : strerror(-err));
		return err;
	}
	err = nn_dt_parse_greeting(c->buf, r);
	if (err) {
		nn_err(ctx, "%s: not a DPDK telemetry v2 server: its greeting is '%.80s%s'", r->socket,
		       c->buf, strlen(c->buf) > 80 ? "..." : "");
		return -EPROTO;
	}
	/* Whose telemetry is it? The kernel's word (SO_PEERCRED) against the
	 * greeting's, and the socket's owner: root, or the server's user. A
	 * user's socket cannot make the report describe another process. */
	if (c->peer_pid > 0 && r->pid >= 0 && r->pid != c->peer_pid) {
		nn_warn(ctx, r->socket, "the greeting says pid %d but the process serving the socket "
			"is pid %d (uid %lld): not that process's telemetry; skipped", r->pid,
			c->peer_pid, c->peer_uid);
		r->skipped = true;
	} else if (c->sock_uid != 0 && c->peer_uid >= 0 && c->sock_uid != c->peer_uid) {
		nn_warn(ctx, r->socket, "owned by uid %lld, neither root nor the serving process's "
			"uid %lld: skipped", c->sock_uid, c->peer_uid);
		r->skipped = true;
	}
	if (r->skipped) {
		r->pid = -1;
		return 0;
	}
	if (r->pid < 0 && c->peer_pid > 0)
		r->pid = c->peer_pid;
	return 0;
}

/* The process's threads and hugepage memory per node, as check --pid reads
 * them: what the kernel says beside what the telemetry says. An unreadable
 * pid (another pid namespace) is a warning. 0 or -ENOMEM. */
static int read_process(struct nn_ctx *ctx, const struct nn_pm_cpu_nodes *cn, struct nn_dt_report *r)
{
	struct nn_pm_thresholds th;

	if (r->pid < 0)
		return 0;
	r->process = calloc(1, sizeof(*r->process));
	if (!r->process)
		return -ENOMEM;
	nn_pm_thresholds_default(&th);
	if (nn_pm_snapshot_read(ctx, cn, &th, r->pid, r->process)) {
		nn_warn(ctx, NULL, "pid %d of the telemetry greeting is not readable here "
			"(another pid namespace?): its threads and memory not shown", r->pid);
		r->process_unreadable = true;
	}
	return 0;
}

int nn_dt_check(struct nn_ctx *ctx, const struct nn_dt_opts *o, struct nn_dt_report *r)
{
	struct nn_dt_conn c = { .fd = -1 };
	struct nn_pm_cpu_nodes cn;
	int err;

	nn_dt_report_init(r);
	memset(&cn, 0, sizeof(cn));
	r->socket = o->socket ? strdup(o->socket) : nn_dt_default_socket(o->prefix, geteuid() == 0);
	if (!r->socket)
		return -ENOMEM;
	err = nn_require_live(ctx, "check --dpdk");
	if (err)
		return err;
	err = nn_dt_open(ctx, &c, r, o->timeout_ms, false);
	if (err || r->skipped)
		goto out;
	err = read_ports(ctx, &c, r);
	if (!err)
		err = read_pools(ctx, &c, r);
	if (!err)
		err = read_lcores(ctx, &c, r);
	if (!err)
		err = nn_dt_note_add(r, "port -> mempool", "telemetry does not say which pool serves "
				     "which port: with populated pools on several nodes, a port "
				     "with one of them on its node is 'mempool_unknown'");
	if (!err)
		err = read_sysfs_nodes(ctx, r);
	if (!err)
		err = nn_pm_cpu_nodes_read(ctx, &cn);
	if (err)
		goto out;
	nn_dt_judge(r, cn.node, cn.ncpus, o->vdev_node);
	err = read_process(ctx, &cn, r);
out:
	nn_pm_cpu_nodes_free(&cn);
	nn_dt_close(&c);
	return err;
}

/* A command of a sample: errors into s->err (reported by the caller). */
static int sample_ask(struct nn_dt_conn *c, struct nn_dt_sample *s, const char *cmd)
{
	int err = nn_dt_command(c, cmd);

	if (err)
		snprintf(s->err, sizeof(s->err), "%s", c->err[0] ? c->err : strerror(-err));
	return err;
}

static int sample_garbage(const struct nn_dt_conn *c, struct nn_dt_sample *s, const char *cmd,
			  int err)
{
	if (err == -ENOMEM)
		return err;
	snprintf(s->err, sizeof(s->err), "%s: garbage reply to %s: '%.60s'", c->path, cmd, c->buf);
	return -EPROTO;
}

/* The lcores' nodes: the node of all their CPUs, -1 unknown or several. */
static int lcore_nodes(struct nn_ctx *ctx, struct nn_dt_report *r)
{
	struct nn_pm_cpu_nodes cn;
	int err;

	memset(&cn, 0, sizeof(cn));
	err = nn_pm_cpu_nodes_read(ctx, &cn);
	if (err) {
		nn_pm_cpu_nodes_free(&cn);
		return err;
	}
	for (size_t i = 0; i < r->nlcores; i++) {
		struct nn_dt_lcore *l = &r->lcores[i];
		int cpu, node = -2;

		for (cpu = nn_cpuset_first(&l->cpus); cpu >= 0; cpu = nn_cpuset_next(&l->cpus, cpu)) {
			int n = (size_t)cpu < cn.ncpus ? cn.node[cpu] : -1;

			node = node == -2 || node == n ? n : -1;
		}
		l->node = node < 0 ? -1 : node;
	}
	nn_pm_cpu_nodes_free(&cn);
	return 0;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int nn_dt_sample_take(struct nn_ctx *ctx, const struct nn_dt_opts *o, struct nn_dt_report *r,
		      struct nn_dt_sample *s, bool quiet)
{
	struct nn_dt_conn c = { .fd = -1 };
	bool first = !r->ports, null = false;
	char cmd[64];
	size_t i;
	int err;

	memset(s, 0, sizeof(*s));
	s->pid = -1;
	if (!r->socket) {
		r->socket = o->socket ? strdup(o->socket) :
			    nn_dt_default_socket(o->prefix, geteuid() == 0);
		if (!r->socket)
			return -ENOMEM;
	}
	err = nn_require_live(ctx, "observe --dpdk");
	if (err)
		return err;
	if (first) {
		err = nn_dt_open(ctx, &c, r, o->timeout_ms, quiet);
		if (!err && r->skipped)
			err = -EPERM;
		if (!err)
			err = read_ports(ctx, &c, r);
		if (!err)
			err = read_lcores(ctx, &c, r);
		if (!err)
			err = read_sysfs_nodes(ctx, r);
		if (!err)
			err = lcore_nodes(ctx, r);
		nn_dt_close(&c);
		if (err)
			return err;
		if (!r->ports) {
			r->ports = calloc(1, sizeof(*r->ports));	/* asked, none */
			if (!r->ports)
				return -ENOMEM;
		}
		c = (struct nn_dt_conn){ .fd = -1 };
	}
	/* each sample is its own exchange, under its own deadline */
	{
		struct nn_dt_report g;
		int pid = r->pid;

		nn_dt_report_init(&g);
		g.socket = r->socket;
		err = nn_dt_connect(&c, r->socket, o->timeout_ms);
		if (err)
			snprintf(s->err, sizeof(s->err), "%s", c.err[0] ? c.err : strerror(-err));
		else if (nn_dt_parse_greeting(c.buf, &g) || g.pid != pid ||
			 (c.peer_pid > 0 && c.peer_pid != pid))
			err = -ESRCH;	/* another process took the prefix */
		if (err == -ESRCH)
			snprintf(s->err, sizeof(s->err), "%s: no longer served by pid %d", r->socket, pid);
		g.socket = NULL;
		nn_dt_report_free(&g);
		if (err)
			goto out;
		s->pid = pid;
	}
	s->t_ms = now_ms();
	s->ports = calloc(r->nports ? r->nports : 1, sizeof(*s->ports));
	if (!s->ports) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < r->nports; i++) {
		const struct nn_dt_port *p = &r->ports[i];
		struct nn_dt_pstats *ps = &s->ports[s->nports];

		ps->port_id = p->port_id;
		snprintf(ps->name, sizeof(ps->name), "%s", p->name);
		ps->node = p->sysfs_node >= 0 ? p->sysfs_node : p->tel_node;
		snprintf(cmd, sizeof(cmd), "/ethdev/stats,%d", p->port_id);
		err = sample_ask(&c, s, cmd);
		if (err)
			goto out;
		err = nn_dt_parse_stats(c.buf, ps);
		if (err == -ENOENT) {
			err = 0;	/* detached */
			continue;
		}
		if (err) {
			err = sample_garbage(&c, s, cmd, err);
			goto out;
		}
		snprintf(cmd, sizeof(cmd), "/ethdev/xstats,%d", p->port_id);
		err = sample_ask(&c, s, cmd);
		if (err)
			goto out;
		err = nn_dt_parse_xstats(c.buf, ps);
		if (err && err != -ENOENT) {
			err = sample_garbage(&c, s, cmd, err);
			goto out;
		}
		err = 0;
		/* q_ipackets[] always has 16 slots: only the configured queues */
		if (p->rx_queues >= 0 && ps->nrxq > p->rx_queues)
			ps->nrxq = p->rx_queues;
		if (p->tx_queues >= 0 && ps->ntxq > p->tx_queues)
			ps->ntxq = p->tx_queues;
		s->nports++;
	}
	/* lcore busy cycles: /eal/lcore/usage (23.03+), else the cycles of
	 * /eal/lcore/info (where that release has them) */
	err = sample_ask(&c, s, "/eal/lcore/usage");
	if (!err) {
		err = nn_dt_reply_is_null(c.buf, "/eal/lcore/usage", &null);
		if (!err && !null)
			err = nn_dt_parse_usage(c.buf, s);
		if (err)
			err = sample_garbage(&c, s, "/eal/lcore/usage", err);
	}
	for (i = 0; !err && null && r->lcore_source == NN_DT_LCORES_TELEMETRY && i < r->nlcores; i++) {
		snprintf(cmd, sizeof(cmd), "/eal/lcore/info,%d", r->lcores[i].lcore_id);
		err = sample_ask(&c, s, cmd);
		if (!err) {
			err = nn_dt_parse_usage(c.buf, s);
			if (err == -ENOENT)
				err = 0;
			else if (err)
				err = sample_garbage(&c, s, cmd, err);
		}
	}
out:
	nn_dt_close(&c);
	if (err && !quiet && s->err[0])
		nn_err(ctx, "%s", s->err);
	return err;
}
