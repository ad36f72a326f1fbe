// SPDX-License-Identifier: GPL-2.0-or-later
/* nic.c - every netdev in /sys/class/net: bus device, locality, queues, IRQs
 *
 * sysfs and procfs through the fs root give the whole picture and work on a
 * captured tree. On the live host, rtnetlink and the ethtool ioctl are asked
 * too, and any disagreement with sysfs becomes a warning.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "irq/affinity.h"
#include "irq/rps.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/core/fileio.h"
#include "nicnuma/discover/ethtool.h"
#include "nicnuma/discover/napi_index.h"
#include "nicnuma/discover/netlink.h"
#include "nicnuma/discover/nic.h"
#include "nicnuma/core/parse.h"
#include "nicnuma/core/pathf.h"
#include "nicnuma/discover/pcie.h"
#include "nicnuma/discover/topo.h"

#define NET_DIR "/sys/class/net"

struct nic_scan {
	struct nn_ctx *ctx;
	const struct nn_topo *topo;
	struct nn_interrupt *intr;	/* parsed /proc/interrupts */
	size_t nintr;
	bool have_intr;
	unsigned int flags;		/* NN_NICS_* */
	unsigned int nthreads;		/* IRQ file readers besides the caller */
	struct nn_nic *nics;		/* the NICs being read */
	char **msi_dir;			/* per NIC: its msi_irqs dir, NULL without */
	struct nn_root irqs;		/* view of /proc/irq: two files per IRQ */
	bool no_proc_irq;		/* /proc/irq itself is missing: said once */
	struct nn_cpuset missing;	/* this NIC's IRQs without /proc/irq/N */
	char first_missing[32];
	char *const *only;		/* read only these netdevs; NULL: every one */
	size_t nonly;
};

/* Whether the scan reads netdev @name (every one without a name list). */
static bool wanted(const struct nic_scan *s, const char *name)
{
	size_t i;

	for (i = 0; s->only && i < s->nonly; i++)
		if (!strcmp(s->only[i], name))
			return true;
	return !s->only;
}

bool nn_is_pci_addr(const char *s)
{
	size_t i, dom = 0;

	while (isxdigit((unsigned char)s[dom]))
		dom++;
	if (dom < 4 || dom > 8 || s[dom] != ':')
		return false;
	s += dom + 1;
	for (i = 0; i < 2; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	if (s[2] != ':' || !isxdigit((unsigned char)s[3]) || !isxdigit((unsigned char)s[4]) ||
	    s[5] != '.' || s[6] < '0' || s[6] > '7' || s[7])
		return false;
	return true;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static int set_str(char **dst, const char *src)
{
	free(*dst);
	*dst = src ? strdup(src) : NULL;
	return (src && !*dst) ? -ENOMEM : 0;
}

static const char *errtext(int err)
{
	if (err == -ENOENT)
		return "missing";
	if (err == -EINVAL || err == -ERANGE)
		return "malformed";
	return strerror(-err);
}

/* The kernel makes queues/rx-0..rx-(n-1) and tx-0..tx-(m-1) and nothing
 * else below queues/ (net-sysfs), so a directory of 2n subdirectories whose
 * rx-(n-1) and tx-(n-1) exist and rx-n and tx-n do not holds n of each: four
 * lookups instead of listing 2n entries, for every NIC. Anything else (rx
 * and tx counts that differ, a filesystem without subdirectory counts, a
 * hand-made tree) is listed. */
static bool probe_queues(int dirfd, struct nn_nic *nic)
{
	long t = nn_dirfd_subdirs(dirfd), n;
	char name[32];
	bool ok = true;
	int k;

	if (t < 0 || t % 2 || t / 2 > INT_MAX)
		return false;
	n = t / 2;
	for (k = 0; k < 2 && ok; k++) {
		const char *dir = k ? "tx" : "rx";

		if (n > 0) {
			snprintf(name, sizeof(name), "%s-%ld", dir, n - 1);
			ok = nn_dirfd_has(dirfd, name);
		}
		snprintf(name, sizeof(name), "%s-%ld", dir, n);
		ok = ok && !nn_dirfd_has(dirfd, name);
	}
	if (ok)
		nic->rx_queues = nic->tx_queues = (int)n;
	return ok;
}

/* Counts queues/rx-N and queues/tx-N. */
static void count_queues(struct nic_scan *s, struct nn_nic *nic)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int err, fd;

	nic->rx_queues = nic->tx_queues = -1;
	if (nn_pathf(path, sizeof(path), NET_DIR "/%s/queues", nic->name))
		return;
	fd = nn_root_openat(&s->ctx->root, path, O_PATH | O_DIRECTORY, 0);
	if (fd >= 0) {
		bool done = probe_queues(fd, nic);

		close(fd);
		if (done)
			return;
	}
	err = nn_root_opendir(&s->ctx->root, path, &d);
	if (err) {
		nn_warn(s->ctx, path, "cannot list queues: %s; queue counts unknown", errtext(err));
		return;
	}
	nic->rx_queues = nic->tx_queues = 0;
	while ((de = readdir(d))) {
		if (!strncmp(de->d_name, "rx-", 3))
			nic->rx_queues++;
		else if (!strncmp(de->d_name, "tx-", 3))
			nic->tx_queues++;
	}
	closedir(d);
}

int nn_rps_cpus_read(struct nn_ctx *ctx, const char *nic, int queue, struct nn_cpuset *cpus)
{
	char path[PATH_MAX];
	int err;

	err = nn_rps_path(path, sizeof(path), nic, queue, NN_RPS_CPUS);
	return err ? err : nn_read_cpumask(&ctx->root, path, cpus);
}

int nn_nic_rps_read(struct nn_ctx *ctx, struct nn_nic *nic)
{
	int q, err;

	if (nic->rx_queues <= 0 || nic->rx_rps)
		return 0;
	nic->rx_rps = calloc((size_t)nic->rx_queues, sizeof(*nic->rx_rps));
	if (!nic->rx_rps)
		return -ENOMEM;
	nic->nrx_rps = (size_t)nic->rx_queues;
	for (q = 0; q < nic->rx_queues; q++) {
		struct nn_rx_rps *r = &nic->rx_rps[q];

		err = nn_rps_cpus_read(ctx, nic->name, q, &r->cpus);
		if (err == -ENOMEM)
			return err;
		r->known = !err;	/* missing, unreadable, malformed: unknown */
	}
	return 0;
}

const struct nn_cpuset *nn_nic_rps_found(const struct nn_nic *nic, int queue)
{
	if (queue < 0 || (size_t)queue >= nic->nrx_rps || !nic->rx_rps[queue].known)
		return NULL;
	return &nic->rx_rps[queue].cpus;
}

/* /sys/class/net/IF/speed: the kernel refuses the read (EINVAL) while the link
 * is down and prints -1 when the driver does not know; both are "unknown". */
static void read_speed(struct nic_scan *s, struct nn_nic *nic)
{
	char path[PATH_MAX], buf[64];
	long v;
	int err;

	nic->speed_mbps = -1;
	if (nn_pathf(path, sizeof(path), NET_DIR "/%s/speed", nic->name))
		return;
	err = nn_read_str(&s->ctx->root, path, buf, sizeof(buf));
	if (err)
		return;
	if (nn_parse_long(buf, &v)) {
		nn_warn(s->ctx, path, "malformed link speed '%s': speed unknown", buf);
		return;
	}
	nic->speed_mbps = (v <= 0 || v == 0xffffffffL) ? -1 : v;
}

/* IF/flags ("0x1003": the netdev's flags, IFF_UP = 0x1) says whether the
 * interface is open; a capture without it falls back to operstate, whose
 * "down" also covers an open port without carrier (then IRQs exist, and a
 * missing one is still only a note: the driver's choice, not nicnuma's). */
#define NN_IFF_UP 0x1ul

static void read_link_state(struct nic_scan *s, struct nn_nic *nic)
{
	char path[PATH_MAX], buf[32], *end;
	unsigned long flags;

	nic->link_down = false;
	if (!nn_pathf(path, sizeof(path), NET_DIR "/%s/flags", nic->name) &&
	    !nn_read_str(&s->ctx->root, path, buf, sizeof(buf))) {
		errno = 0;
		flags = strtoul(buf, &end, 16);
		if (!errno && end != buf && !strncmp(buf, "0x", 2) && !*end) {
			nic->link_down = !(flags & NN_IFF_UP);
			return;
		}
	}
	if (!nn_pathf(path, sizeof(path), NET_DIR "/%s/operstate", nic->name) &&
	    !nn_read_str(&s->ctx->root, path, buf, sizeof(buf)))
		nic->link_down = !strcmp(buf, "down");
}

/* What sysfs alone tells of a virtual device's kind. @sure is set when the
 * evidence is the kernel's own (type, tun_flags, bridge/, DEVTYPE), not a
 * guess from the name. */
static const char *sysfs_kind(struct nic_scan *s, const char *name, bool *sure, char *devtype, size_t size)
{
	static const char *const prefixes[][2] = {
		{ "veth", "veth" }, { "ifb", "ifb" }, { "dummy", "dummy" }, { "tap", "tun" },
		{ "tun", "tun" }, { "virbr", "bridge" }, { "docker", "bridge" }, { "br-", "bridge" },
	};
	char path[PATH_MAX], *text, *line, *save = NULL;
	long type;
	size_t i;

	*sure = true;
	if (!nn_pathf(path, sizeof(path), NET_DIR "/%s/type", name) &&
	    !nn_read_long(&s->ctx->root, path, &type) && type == 772)
		return "loopback";	/* ARPHRD_LOOPBACK */
	if (!nn_pathf(path, sizeof(path), NET_DIR "/%s/tun_flags", name) &&
	    !nn_root_access(&s->ctx->root, path, 0))
		return "tun";
	if (!nn_pathf(path, sizeof(path), NET_DIR "/%s/bridge", name) &&
	    !nn_root_access(&s->ctx->root, path, 0))
		return "bridge";
	if (!nn_pathf(path, sizeof(path), NET_DIR "/%s/bonding", name) &&
	    !nn_root_access(&s->ctx->root, path, 0))
		return "bond";
	if (!nn_pathf(path, sizeof(path), NET_DIR "/%s/uevent", name) &&
	    !nn_read_file(&s->ctx->root, path, &text, NULL)) {
		const char *found = NULL;

		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			if (!strncmp(line, "DEVTYPE=", 8) && line[8]) {
				snprintf(devtype, size, "%s", line + 8);
				found = devtype;
			}
		free(text);
		if (found)
			return found;
	}
	*sure = false;
	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(name, prefixes[i][0], strlen(prefixes[i][0])))
			return prefixes[i][1];
	return NULL;
}

/* The two affinity files of every NIC IRQ are read in one batch before
 * read_irq() looks at them: on a large host they are thousands of independent
 * opens, so a few threads share them (a read touches only the fs root's
 * directory fds, errno and malloc). One batch for all NICs, because a thread
 * takes longer to wake than one NIC's files take to read. Results land in
 * per-IRQ slots; every warning is still issued by read_irq(), in order. */
struct irq_pre {
	int aff, eff;		/* nn_read_cpulist() results */
};

struct prefetch {
	const struct nn_root *r;
	struct nn_irq **irqs;
	struct irq_pre *pre;
	size_t n;
	size_t next;		/* the next index to take, shared (atomic) */
	bool effective;
};

/* Below this many IRQs a thread costs more than it saves. */
#define PREFETCH_MIN 64
#define PREFETCH_THREADS 3	/* besides the caller */

static void *prefetch_worker(void *arg)
{
	struct prefetch *p = arg;
	char path[64];
	size_t i;

	while ((i = __atomic_fetch_add(&p->next, 1, __ATOMIC_RELAXED)) < p->n) {
		struct nn_irq *q = p->irqs[i];

		nn_irq_path(path, sizeof(path), q->irq, "smp_affinity_list");
		p->pre[i].aff = nn_read_cpulist(p->r, path, &q->affinity);
		p->pre[i].eff = -ENOENT;
		if (p->effective) {
			nn_irq_path(path, sizeof(path), q->irq, "effective_affinity_list");
			p->pre[i].eff = nn_read_cpulist(p->r, path, &q->effective);
		}
	}
	return NULL;
}

/* Reads the files of all @n IRQs in @irqs into @pre, over s->nthreads
 * threads and the caller. */
static void prefetch_run(struct nic_scan *s, struct nn_irq **irqs, struct irq_pre *pre, size_t n)
{
	struct prefetch p = { &s->irqs, irqs, pre, n, 0, !(s->flags & NN_NICS_NO_EFFECTIVE) };
	pthread_t tid[PREFETCH_THREADS];
	unsigned int k, started = 0;

	for (k = 0; n >= PREFETCH_MIN && k < s->nthreads; k++)
		if (!pthread_create(&tid[started], NULL, prefetch_worker, &p))
			started++;	/* one that fails to start leaves more for the rest */
	prefetch_worker(&p);
	while (started--)
		pthread_join(tid[started], NULL);
}

static const char *nic_name_at(void *arg, size_t i)
{
	return ((struct nn_nic *)arg)[i].name;
}

static struct nn_eth_conf *nic_eth_at(void *arg, size_t i)
{
	return &((struct nn_nic *)arg)[i].eth;
}

static int read_irq(struct nic_scan *s, const struct nn_nic *nic, const char *msi_dir,
		    struct nn_irq *q, const struct irq_pre *pre)
{
	const struct nn_interrupt *it;
	char path[PATH_MAX];
	int err;

	q->queue = -1;
	q->dir = NN_QDIR_NONE;
	q->role = NN_IRQ_ROLE_UNKNOWN;
	q->source = NN_IRQ_SRC_UNKNOWN;
	q->napi_id = -1;
	it = s->have_intr ? nn_interrupts_find(s->intr, s->nintr, q->irq) : NULL;
	if (it && it->name) {
		q->name = strdup(it->name);
		if (!q->name)
			return -ENOMEM;
		q->role = nn_irq_name_role(q->name, nic->driver, nic->name, nic->pci, &q->queue, &q->dir,
					   &q->name_flags);
		if (q->role != NN_IRQ_ROLE_UNKNOWN)
			q->source = NN_IRQ_SRC_NAME;
	}

	/* Read first (prefetch_run), ask why after: one open per file on the common path. */
	nn_irq_path(path, sizeof(path), q->irq, "smp_affinity_list");
	err = pre->aff;
	if (err == -ENOMEM)
		return err;
	if (err == -ENOENT) {
		char dir[32];
		int derr;

		nn_irq_path(dir, sizeof(dir), q->irq, NULL);
		derr = nn_root_access(&s->ctx->root, dir, 0);
		if (derr) {
			/* One warning per NIC (read_all_irqs), not one per IRQ:
			 * a capture without /proc/irq lacks them all. */
			if (derr == -ENOENT && !s->no_proc_irq && !nn_cpuset_set(&s->missing, (unsigned)q->irq)) {
				if (!s->first_missing[0])
					snprintf(s->first_missing, sizeof(s->first_missing), "%s", dir);
			} else if (derr != -ENOENT) {
				nn_warn(s->ctx, dir, "IRQ %d is listed in %s but has no %s (%s): its affinity is unknown",
					q->irq, msi_dir, dir, errtext(derr));
			}
			return 0;
		}
	}
	if (!err && nn_cpuset_empty(&q->affinity)) {
		/* The kernel never accepts an empty mask: this file is corrupt. */
		nn_warn(s->ctx, path, "empty cpulist: affinity of IRQ %d unknown", q->irq);
		err = -EINVAL;
	} else if (err) {
		nn_warn(s->ctx, path, "%s cpulist: affinity of IRQ %d unknown", errtext(err), q->irq);
	}
	q->has_affinity = !err;
	if (s->have_intr && !it) {
		if (nic->link_down)
			nn_note(s->ctx, "/proc/interrupts", "IRQ %d (listed in %s) is not in /proc/interrupts: "
				"%s is down, its driver may request it when the link is opened",
				q->irq, msi_dir, nic->name);
		else
			nn_warn(s->ctx, "/proc/interrupts", "IRQ %d (listed in %s) is not in /proc/interrupts: "
				"name unknown", q->irq, msi_dir);
	}

	if (s->flags & NN_NICS_NO_EFFECTIVE)
		return 0;
	/* effective_affinity_list appeared in 4.13 and not every irqchip fills it:
	 * absence is "unknown", not an error. */
	nn_irq_path(path, sizeof(path), q->irq, "effective_affinity_list");
	err = pre->eff;
	if (err == -ENOMEM)
		return err;
	if (err && err != -ENOENT)
		nn_warn(s->ctx, path, "%s cpulist: effective affinity of IRQ %d unknown",
			errtext(err), q->irq);
	q->has_effective = !err;
	return 0;
}

static int cmp_irq(const void *a, const void *b)
{
	const struct nn_irq *x = a, *y = b;

	return (x->irq > y->irq) - (x->irq < y->irq);
}

/* The PCI function's MSI/MSI-X vectors: msi_irqs/<irq>. */
static int read_irqs(struct nic_scan *s, struct nn_nic *nic, const char *fn_dir)
{
	char dir[PATH_MAX];
	struct dirent *de;
	size_t cap = 0;
	DIR *d;
	int err;

	if (nn_pathf(dir, sizeof(dir), "%s/msi_irqs", fn_dir))
		return 0;
	err = nn_root_opendir(&s->ctx->root, dir, &d);
	if (err) {
		nn_warn(s->ctx, dir, "%s: no MSI/MSI-X vectors listed (legacy INTx?); IRQs unknown",
			errtext(err));
		return 0;
	}
	while ((de = readdir(d))) {
		long irq;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		if (nn_parse_long(de->d_name, &irq) || irq < 0 || irq > INT_MAX) {
			nn_warn(s->ctx, dir, "entry '%s' is not an IRQ number", de->d_name);
			continue;
		}
		if (nic->nirqs == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			struct nn_irq *nv = realloc(nic->irqs, ncap * sizeof(*nv));

			if (!nv) {
				closedir(d);
				return -ENOMEM;
			}
			nic->irqs = nv;
			cap = ncap;
		}
		memset(&nic->irqs[nic->nirqs], 0, sizeof(*nic->irqs));
		nic->irqs[nic->nirqs++].irq = (int)irq;
	}
	closedir(d);
	if (nic->nirqs > 1)
		qsort(nic->irqs, nic->nirqs, sizeof(*nic->irqs), cmp_irq);
	/* Their files are read later, all NICs' in one batch (read_all_irqs). */
	return set_str(&s->msi_dir[nic - s->nics], dir);
}

/* Second pass over the NICs: the affinity files of every IRQ listed by the
 * first, read in one batch, then checked NIC by NIC, IRQ by IRQ. */
static int read_all_irqs(struct nic_scan *s, size_t nnics)
{
	struct nn_irq **all = NULL;
	struct irq_pre *pre = NULL;
	size_t total = 0, i, j, k;
	int err = 0;

	for (i = 0; i < nnics; i++)
		total += s->msi_dir[i] ? s->nics[i].nirqs : 0;
	if (!total)
		return 0;
	all = calloc(total, sizeof(*all));
	pre = calloc(total, sizeof(*pre));
	if (!all || !pre) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0, k = 0; i < nnics; i++)
		for (j = 0; s->msi_dir[i] && j < s->nics[i].nirqs; j++)
			all[k++] = &s->nics[i].irqs[j];
	prefetch_run(s, all, pre, total);
	s->no_proc_irq = nn_root_access(&s->ctx->root, "/proc/irq", 0) == -ENOENT;
	if (s->no_proc_irq)
		nn_warn(s->ctx, "/proc/irq", "missing: the affinity of every NIC IRQ (%zu) is unknown", total);
	for (i = 0, k = 0; i < nnics && !err; i++) {
		for (j = 0; s->msi_dir[i] && j < s->nics[i].nirqs && !err; j++, k++)
			err = read_irq(s, &s->nics[i], s->msi_dir[i], all[k], &pre[k]);
		if (!nn_cpuset_empty(&s->missing)) {
			char *list = nn_cpuset_format_list(&s->missing);
			unsigned int n = nn_cpuset_count(&s->missing);

			/* A down NIC whose driver requests IRQs on open (e1000e,
			 * vmxnet3...) has vectors but no IRQs yet: nothing wrong. */
			if (s->nics[i].link_down)
				nn_note(s->ctx, s->first_missing, "IRQ%s %s listed in %s but %s no /proc/irq/N: "
					"%s is down and its driver requests IRQs when the link is opened; "
					"nothing to place until then", n == 1 ? "" : "s", list ? list : "?",
					s->msi_dir[i], n == 1 ? "has" : "have", s->nics[i].name);
			else
				nn_warn(s->ctx, s->first_missing, "IRQ%s %s listed in %s but %s no /proc/irq/N "
					"(missing): %s affinity is unknown", n == 1 ? "" : "s", list ? list : "?",
					s->msi_dir[i], n == 1 ? "has" : "have", n == 1 ? "its" : "their");
			free(list);
			nn_cpuset_zero(&s->missing);
			s->first_missing[0] = '\0';
		}
	}
out:
	free(all);
	free(pre);
	return err;
}

int nn_device_numa_node(const struct nn_root *r, const char *dev_dir, long *node)
{
	char path[PATH_MAX];
	int err;

	*node = -1;
	if (nn_pathf(path, sizeof(path), "%s/numa_node", dev_dir))
		return -ENAMETOOLONG;
	err = nn_read_long(r, path, node);
	if (err) {
		*node = -1;
		return err;
	}
	return *node < -1 || *node > INT_MAX ? -ERANGE : 0;
}

/* numa_node and local_cpulist of the device (PCI function or other bus device). */
static int read_locality(struct nic_scan *s, struct nn_nic *nic, const char *fn_dir, bool is_pci)
{
	char path[PATH_MAX];
	long node;
	int err;

	if (nn_pathf(path, sizeof(path), "%s/numa_node", fn_dir))
		return 0;
	err = nn_device_numa_node(&s->ctx->root, fn_dir, &node);
	if (err == -ENOMEM)
		return err;
	if (err == -ERANGE) {
		nn_warn(s->ctx, path, "numa_node %ld is out of range: locality unknown", node);
	} else if (!err) {
		nic->numa_node = (int)node;
		if (node >= 0 && s->topo && s->topo->nnodes && !nn_topo_node(s->topo, (int)node))
			nn_warn(s->ctx, path, "numa_node %ld is not a node in %s", node,
				"/sys/devices/system/node");
	} else if (err != -ENOENT || is_pci) {
		nn_warn(s->ctx, path, "%s numa_node: %s's locality unknown", errtext(err), nic->name);
	}

	if (nn_pathf(path, sizeof(path), "%s/local_cpulist", fn_dir))
		return 0;
	err = nn_read_cpulist(&s->ctx->root, path, &nic->local_cpus);
	if (err == -ENOMEM)
		return err;
	if (!err && nn_cpuset_empty(&nic->local_cpus)) {
		const struct nn_node *nd = s->topo && nic->numa_node >= 0 ?
			nn_topo_node(s->topo, nic->numa_node) : NULL;

		/* Empty is right only for a device on a node without CPUs. */
		if (!nd || !nn_cpuset_empty(&nd->cpus)) {
			if (nd)
				nn_warn(s->ctx, path, "empty cpulist although node %d has CPUs: "
					"%s's local CPUs unknown", nic->numa_node, nic->name);
			else
				nn_warn(s->ctx, path, "empty cpulist: %s's local CPUs unknown", nic->name);
			err = -EINVAL;
		}
	}
	nic->local_cpus_read = !err;
	if (err) {
		nn_cpuset_zero(&nic->local_cpus);
		if (err != -ENOENT || is_pci)
			nn_warn(s->ctx, path, "%s cpulist: %s's local CPUs unknown", errtext(err), nic->name);
	}
	/* numa_node -1 with local_cpulist = every CPU really is unknown; a
	 * narrower local_cpulist still tells where the device sits. */
	nic->locality_known = nic->numa_node >= 0 ||
		(!nn_cpuset_empty(&nic->local_cpus) && s->topo &&
		 !nn_cpuset_subset(&s->topo->online, &nic->local_cpus));
	return 0;
}

static int read_physical(struct nic_scan *s, struct nn_nic *nic)
{
	char link[PATH_MAX], dev[PATH_MAX], fn[PATH_MAX], path[PATH_MAX];
	const char *fn_dir = dev;
	bool is_pci = false;
	int err;

	if (nn_pathf(link, sizeof(link), NET_DIR "/%s/device", nic->name))
		return 0;
	err = nn_root_realpath(&s->ctx->root, link, dev, sizeof(dev));
	if (err) {
		nn_warn(s->ctx, link, "cannot follow the device link: %s; bus device unknown", errtext(err));
		return 0;
	}
	/* Most NICs are the PCI function itself; virtio-net's device is the
	 * virtioN bus device whose parent is the PCI function. */
	if (nn_is_pci_addr(base_name(dev))) {
		is_pci = true;
	} else if (strncmp(base_name(dev), "virtio", 6) && strstr(dev, "/devices/pci")) {
		/* A sub-function (mlx5 SF, ice/idpf auxiliary device): a child of a
		 * PCI function with no msi_irqs of its own. */
		char *slash;

		snprintf(fn, sizeof(fn), "%s", dev);
		slash = strrchr(fn, '/');
		if (slash && slash != fn) {
			*slash = '\0';
			if (nn_is_pci_addr(base_name(fn))) {
				err = set_str(&nic->parent_fn, base_name(fn));
				if (err)
					return err;
				fn_dir = fn;
				/* Handled, not per sub-function: a note, not a warning. */
				nn_note(s->ctx, link, "%s is a sub-function (%s on PCI function %s) without MSI-X "
					"vectors of its own: its IRQs are in %s's msi_irqs, planned with that "
					"function's netdev on its node; nicnuma does not place them per "
					"sub-function", nic->name, base_name(dev), nic->parent_fn, nic->parent_fn);
			}
		}
	} else if (!strncmp(base_name(dev), "virtio", 6)) {
		char *slash;

		snprintf(fn, sizeof(fn), "%s", dev);
		slash = strrchr(fn, '/');
		if (slash && slash != fn) {
			*slash = '\0';
			if (nn_is_pci_addr(base_name(fn))) {
				is_pci = true;
				fn_dir = fn;
			}
		}
	}
	if (is_pci) {
		err = set_str(&nic->pci, base_name(fn_dir));
		if (err)
			return err;
	}
	/* An SR-IOV VF: physfn links to its PF (a function of its own has none). */
	if (is_pci && !nn_pathf(path, sizeof(path), "%s/physfn", fn_dir)) {
		char pf[PATH_MAX];

		err = nn_root_readlink(&s->ctx->root, path, pf, sizeof(pf));
		if (!err && nn_is_pci_addr(base_name(pf))) {
			err = set_str(&nic->parent_fn, base_name(pf));
			if (err)
				return err;
			nic->parent_is_pf = true;
		} else if (err == -ENOMEM) {
			return err;
		}
	}

	if (!nn_pathf(path, sizeof(path), NET_DIR "/%s/device/driver", nic->name)) {
		char drv[PATH_MAX];

		err = nn_root_readlink(&s->ctx->root, path, drv, sizeof(drv));
		if (!err)
			err = set_str(&nic->driver, base_name(drv));
		else if (err != -ENOMEM)
			nn_warn(s->ctx, path, "no driver link (%s): driver unknown", errtext(err));
		if (err == -ENOMEM)
			return err;
	}

	err = read_locality(s, nic, fn_dir, is_pci);
	if (err)
		return err;
	/* virtio-net's PCI link is the hypervisor's fiction: not judged. */
	if (is_pci && fn_dir == dev) {
		err = nn_pcie_read(s->ctx, dev, &nic->pcie);
		if (err)
			return err;
	}
	if (is_pci)
		return read_irqs(s, nic, fn_dir);
	return 0;
}

static int read_nic(struct nic_scan *s, struct nn_nic *nic)
{
	char path[PATH_MAX], canon[PATH_MAX], devtype[64];
	long ifindex;
	int err;

	nic->ifindex = -1;
	nic->numa_node = -1;
	nic->channels_combined = nic->channels_max = -1;
	nic->speed_mbps = -1;
	nic->rx_queues = nic->tx_queues = -1;

	if (nn_pathf(path, sizeof(path), NET_DIR "/%s/ifindex", nic->name))
		return 0;
	err = nn_read_long(&s->ctx->root, path, &ifindex);
	if (err || ifindex <= 0 || ifindex > INT_MAX)
		nn_warn(s->ctx, path, "%s ifindex: unknown", err ? errtext(err) : "out-of-range");
	else
		nic->ifindex = (int)ifindex;

	/* /sys/class/net/IF -> /sys/devices/virtual/net/IF for software devices. */
	snprintf(path, sizeof(path), NET_DIR "/%s", nic->name);
	err = nn_root_realpath(&s->ctx->root, path, canon, sizeof(canon));
	if (!err) {
		nic->is_virtual = !strncmp(canon, "/sys/devices/virtual/", 21);
	} else {
		char dev[PATH_MAX];

		nn_warn(s->ctx, path, "cannot resolve the class link (%s)", errtext(err));
		snprintf(path, sizeof(path), NET_DIR "/%s/device", nic->name);
		nic->is_virtual = nn_root_readlink(&s->ctx->root, path, dev, sizeof(dev)) != 0;
	}

	if (nic->is_virtual) {
		bool sure;
		const char *kind = sysfs_kind(s, nic->name, &sure, devtype, sizeof(devtype));

		err = set_str(&nic->kind, kind);
		if (err)
			return err;
	} else {
		read_link_state(s, nic);
		err = read_physical(s, nic);
		if (err)
			return err;
	}
	read_speed(s, nic);
	count_queues(s, nic);
	return 0;
}

static int cmp_nic(const void *a, const void *b)
{
	return strcmp(((const struct nn_nic *)a)->name, ((const struct nn_nic *)b)->name);
}

/* Live only: the kernel's link list and kinds from rtnetlink. */
static int netlink_check(struct nic_scan *s, struct nn_nic *nics, size_t n)
{
	struct nn_link *links;
	size_t nl, i, j;
	int err;

	err = nn_nl_links(s->ctx, &links, &nl);
	if (err == -ENOMEM)
		return err;
	if (err)
		return 0;	/* nn_nl_links warned */
	for (i = 0; i < nl; i++) {
		struct nn_link *l = &links[i];
		struct nn_nic *nic = NULL;

		for (j = 0; j < n && !nic; j++)
			if (!strcmp(nics[j].name, l->name))
				nic = &nics[j];
		if (!nic) {
			if (wanted(s, l->name))
				nn_warn(s->ctx, NET_DIR, "rtnetlink lists link %s (ifindex %d) that %s lacks",
					l->name, l->ifindex, NET_DIR);
			continue;
		}
		if (nic->ifindex >= 0 && nic->ifindex != l->ifindex)
			nn_warn(s->ctx, nic->name, "ifindex differs: sysfs %d, rtnetlink %d",
				nic->ifindex, l->ifindex);
		if (nic->ifindex < 0)
			nic->ifindex = l->ifindex;
		if (l->kind) {
			char devtype[64];
			bool sure = false;
			const char *sk = nic->is_virtual ?
				sysfs_kind(s, nic->name, &sure, devtype, sizeof(devtype)) : NULL;

			if (sure && sk && strcmp(sk, l->kind))
				nn_warn(s->ctx, nic->name, "kind differs: sysfs says %s, rtnetlink %s",
					sk, l->kind);
			if (nic->is_virtual) {
				err = set_str(&nic->kind, l->kind);
				if (err)
					goto out;
			}
		}
	}
	for (j = 0; j < n; j++) {
		bool found = false;

		for (i = 0; i < nl && !found; i++)
			found = !strcmp(nics[j].name, links[i].name);
		if (!found)
			nn_warn(s->ctx, nics[j].name, "in %s but not in the rtnetlink link dump", NET_DIR);
	}
out:
	nn_nl_links_free(links, nl);
	return err;
}

/* Live only: driver, bus-info, channels, speed and the RSS table from the
 * ethtool ioctl. */
static void ethtool_check(struct nic_scan *s, struct nn_nic *nics, size_t n)
{
	size_t i;
	int fd = nn_ethtool_open(s->ctx);

	if (fd < 0) {
		nn_warn(s->ctx, "SIOCETHTOOL", "no socket for the ethtool ioctl: %s", strerror(-fd));
		return;
	}
	for (i = 0; i < n; i++) {
		struct nn_nic *nic = &nics[i];
		struct nn_ethtool e;
		int err;

		if (nic->is_virtual)
			continue;
		err = nn_ethtool_query(s->ctx, fd, nic->name, &e);
		if (err) {
			nn_warn(s->ctx, nic->name, "ethtool ioctl: %s", strerror(-err));
			continue;
		}
		if (e.has_drvinfo) {
			if (nic->driver && e.driver[0] && strcmp(nic->driver, e.driver))
				nn_warn(s->ctx, nic->name, "driver differs: sysfs %s, ethtool %s",
					nic->driver, e.driver);
			if (nic->pci && e.bus_info[0] && strcmp(nic->pci, e.bus_info))
				nn_warn(s->ctx, nic->name, "bus address differs: sysfs %s, ethtool bus-info %s",
					nic->pci, e.bus_info);
			if (!nic->pci && nn_is_pci_addr(e.bus_info))
				nn_warn(s->ctx, nic->name, "ethtool bus-info %s is a PCI address sysfs did not show",
					e.bus_info);
		}
		nic->channels_combined = e.combined;
		nic->channels_max = e.max_combined;
		err = nn_rss_get(s->ctx, fd, nic->name, &nic->rss);
		if (err)
			nn_warn(s->ctx, nic->name, "RSS indirection table: %s", strerror(-err));
		if (e.speed_mbps > 0 && nic->speed_mbps > 0 && e.speed_mbps != nic->speed_mbps)
			nn_warn(s->ctx, nic->name, "link speed differs: sysfs %ld Mb/s, ethtool %ld Mb/s",
				nic->speed_mbps, e.speed_mbps);
		if (nic->speed_mbps < 0)
			nic->speed_mbps = e.speed_mbps;
		/* A port with its link down still needs its top speed carried. */
		if (nic->pcie)
			nic->pcie->port_mbps = e.speed_mbps > 0 ? e.speed_mbps : e.max_mode_mbps;
	}
	close(fd);
}

static int intr_line(void *arg, const char *p, const char *end)
{
	return nn_intr_parse_line(arg, p, end);
}

/* Streamed, not read whole: 6 MB on a 512-CPU host, where holding it cost
 * more in page faults and cache misses than parsing it. */
static int load_interrupts(struct nic_scan *s)
{
	const char *path = "/proc/interrupts";
	struct nn_intr_parse st;
	size_t bad = 0;
	int err;

	nn_intr_parse_init(&st);
	err = nn_read_lines(&s->ctx->root, path, intr_line, &st);
	if (err) {
		nn_intr_parse_abort(&st);
		if (err == -ENOMEM)
			return err;
		nn_warn(s->ctx, path, "cannot read (%s): IRQ names and queues unknown", errtext(err));
		return 0;
	}
	nn_intr_parse_finish(&st, &s->intr, &s->nintr, &bad);
	if (bad)
		nn_warn(s->ctx, path, "%zu unreadable line%s skipped", bad, bad == 1 ? "" : "s");
	s->have_intr = true;
	return 0;
}

static void free_dirs(char **v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

const char *nn_irq_source_name(enum nn_irq_source src)
{
	switch (src) {
	case NN_IRQ_SRC_NETLINK: return "netlink";
	case NN_IRQ_SRC_NAME: return "name";
	case NN_IRQ_SRC_UNKNOWN: break;
	}
	return "unknown";
}

/* gve numbers its notify blocks tx queues first, then rx (block i: tx queue
 * i; block n/2 + i: rx queue i), so the index in the name is not the queue. */
static void name_halves(struct nn_nic *nic)
{
	size_t i, k = 0;

	for (i = 0; i < nic->nirqs; i++)
		k += nic->irqs[i].role == NN_IRQ_ROLE_QUEUE && (nic->irqs[i].name_flags & NN_IRQ_ROW_HALVES);
	if (k < 2)
		return;
	for (i = 0; i < nic->nirqs; i++) {
		struct nn_irq *q = &nic->irqs[i];

		if (q->role != NN_IRQ_ROLE_QUEUE || !(q->name_flags & NN_IRQ_ROW_HALVES))
			continue;
		if ((size_t)q->queue < k / 2) {
			q->dir = NN_QDIR_TX;
		} else {
			q->queue -= (int)(k / 2);
			q->dir = NN_QDIR_RX;
		}
	}
}

/* The kernel's saved answers in a capture (scripts/capture-host): read back
 * under --root so a capture reproduces live discovery. Absent: not captured. */
#define GENL_CAPTURE_DIR "/nicnuma-capture/netdev-genl"

static int genl_load(struct nic_scan *s, struct nn_genl *g, bool *have)
{
	static const char *const files[] = { GENL_CAPTURE_DIR "/queue-get", GENL_CAPTURE_DIR "/napi-get" };
	size_t i;
	int err;

	*have = false;
	if (s->flags & NN_NICS_NO_GENL)
		return 0;
	if (nn_root_is_live(&s->ctx->root)) {
		err = nn_genl_read(s->ctx, g, NULL, (s->flags & NN_NICS_SHAPE) ? 0 : NN_GENL_NAPI_SET_CAPS);
		if (err == -ENOMEM)
			return err;
		if (err && err != -EOPNOTSUPP)
			nn_warn(s->ctx, "netdev genl", "queue-get/napi-get failed: %s; queue IRQs decided by name",
				strerror(-err));
		*have = !err;
		return 0;
	}
	for (i = 0; i < 2; i++) {
		char *buf;
		size_t len;

		err = nn_read_file(&s->ctx->root, files[i], &buf, &len);
		if (err == -ENOMEM)
			return err;
		if (err == -ENOENT && !i)
			return 0;	/* not in this capture */
		if (err) {
			nn_warn(s->ctx, files[i], "%s: the kernel's saved netdev genl answer unread; "
				"queue IRQs decided by name", errtext(err));
			nn_genl_free(g);
			return 0;
		}
		err = nn_genl_parse(buf, len, 0, g);
		free(buf);
		if (err == -ENOMEM)
			return err;
		if (err) {
			nn_warn(s->ctx, files[i], "not a netdev genl dump (%s): queue IRQs decided by name",
				strerror(-err));
			nn_genl_free(g);
			return 0;
		}
	}
	*have = true;
	return 0;
}

static int take_genl(struct nn_nic *nic, const struct nn_genl *g)
{
	size_t i;

	for (i = 0; i < g->nqueues; i++)
		if (g->queues[i].ifindex == nic->ifindex) {
			if (NN_GROW(nic->gqueues, nic->ngqueues, nic->gqcap))
				return -ENOMEM;
			nic->gqueues[nic->ngqueues++] = g->queues[i];
		}
	for (i = 0; i < g->nnapis; i++)
		if (g->napis[i].ifindex == nic->ifindex) {
			if (NN_GROW(nic->gnapis, nic->ngnapis, nic->gncap))
				return -ENOMEM;
			nic->gnapis[nic->ngnapis++] = g->napis[i];
		}
	return 0;
}

/* Queue <-> NAPI <-> IRQ from the kernel where the driver links NAPIs to
 * IRQs: such an IRQ serves the queues whose NAPI it is (rx queue index first,
 * the direction from which types it serves). Other IRQs keep the name table's
 * answer; when every NAPI names its IRQ, one the table does not know is a
 * non-queue vector (control, async) by the kernel's word. Sorted joins
 * (napi_index.h, irq_pos): a capture may hold 100k NAPIs and queues. */
static int cmp_irq_pos(const void *a, const void *b)
{
	const struct nn_irq *const *x = a, *const *y = b;

	return ((*x)->irq > (*y)->irq) - ((*x)->irq < (*y)->irq);
}

static int genl_decide(struct nn_nic *nic)
{
	struct nn_napi_index ix;
	struct nn_irq **byirq = NULL;
	int *rx = NULL, *tx = NULL, err;
	bool all_linked = nic->ngnapis > 0;
	size_t i, k;

	err = nn_napi_index_init(&ix, nic->gnapis, nic->ngnapis);
	if (err)
		return err;
	rx = malloc((nic->ngnapis + 1) * sizeof(*rx));
	tx = malloc((nic->ngnapis + 1) * sizeof(*tx));
	byirq = malloc((nic->nirqs + 1) * sizeof(*byirq));
	if (!rx || !tx || !byirq) {
		err = -ENOMEM;
		goto out;
	}
	nn_napi_queues(&ix, nic->gqueues, nic->ngqueues, rx, tx);
	for (k = 0; k < nic->nirqs; k++)
		byirq[k] = &nic->irqs[k];
	qsort(byirq, nic->nirqs, sizeof(*byirq), cmp_irq_pos);
	for (i = 0; i < nic->ngnapis; i++)
		all_linked &= nic->gnapis[i].irq >= 0;
	for (i = 0; i < nic->ngnapis; i++) {
		const struct nn_genl_napi *np = &nic->gnapis[i];
		size_t lo = 0, hi = nic->nirqs;

		if (np->irq < 0 || (rx[i] < 0 && tx[i] < 0))
			continue;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (byirq[mid]->irq < np->irq)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (k = lo; k < nic->nirqs && byirq[k]->irq == np->irq; k++) {
			struct nn_irq *q = byirq[k];

			q->queue = rx[i] >= 0 ? rx[i] : tx[i];
			q->dir = rx[i] >= 0 && tx[i] >= 0 ? NN_QDIR_RXTX : rx[i] >= 0 ? NN_QDIR_RX : NN_QDIR_TX;
			q->role = NN_IRQ_ROLE_QUEUE;
			q->source = NN_IRQ_SRC_NETLINK;
			q->napi_id = np->id;
		}
	}
	/* Every NAPI names its IRQ: a vector none names serves no queue. */
	for (k = 0; all_linked && k < nic->nirqs; k++) {
		struct nn_irq *q = &nic->irqs[k];

		if (q->source == NN_IRQ_SRC_UNKNOWN) {
			q->role = NN_IRQ_ROLE_MISC;
			q->source = NN_IRQ_SRC_NETLINK;
		}
	}
out:
	free(byirq);
	free(rx);
	free(tx);
	nn_napi_index_free(&ix);
	return err;
}

static int genl_pass(struct nic_scan *s, struct nn_nic *nics, size_t n)
{
	struct nn_genl g = { 0 };
	bool have;
	size_t i;
	int err;

	err = genl_load(s, &g, &have);
	for (i = 0; !err && have && i < n; i++) {
		if (nics[i].ifindex <= 0)
			continue;
		nics[i].genl_read = true;
		nics[i].napi_set_known = g.napi_set_known;
		nics[i].napi_set_attrs = g.napi_set_attrs;
		err = take_genl(&nics[i], &g);
		if (!err)
			err = genl_decide(&nics[i]);
	}
	nn_genl_free(&g);
	return err;
}

/* Whether the IRQ's name holds the interface name @ifname as a whole word
 * (not "eth1" inside "eth10"). */
static bool names_if(const char *irqname, const char *ifname)
{
	size_t l = strlen(ifname);
	const char *p = irqname;

	while (irqname && (p = strstr(p, ifname))) {
		if ((p == irqname || !isalnum((unsigned char)p[-1])) && !isalnum((unsigned char)p[l]))
			return true;
		p++;
	}
	return false;
}

/* Several netdevs on one PCI function (mlx4, cxgb4 and sfc ports, bonded
 * representors) list the same msi_irqs: each IRQ stays with the one netdev
 * the kernel (netlink) or its name ties it to; one naming none of them stays
 * with the first netdev, so no IRQ is planned twice. */
static void split_shared(struct nic_scan *s, struct nn_nic *nics, size_t n)
{
	size_t i, j, k, m;

	for (i = 0; i < n; i++) {
		bool shared = false;

		if (!nics[i].pci || !nics[i].nirqs)
			continue;
		for (j = 0; j < i && !shared; j++)
			shared = nics[j].pci && !strcmp(nics[j].pci, nics[i].pci) && nics[j].nirqs;
		if (shared)
			continue;	/* handled with the first of its function */
		for (j = i + 1; j < n; j++) {
			size_t moved = 0, kept = 0;

			if (!nics[j].pci || strcmp(nics[j].pci, nics[i].pci))
				continue;
			/* nics[i] is the first; decide each IRQ both list */
			for (k = 0; k < nics[j].nirqs; k++) {
				struct nn_irq *b = &nics[j].irqs[k];
				struct nn_irq *a = NULL;
				bool to_j;

				for (m = 0; m < nics[i].nirqs && !a; m++)
					if (nics[i].irqs[m].irq == b->irq)
						a = &nics[i].irqs[m];
				if (!a)
					continue;
				to_j = b->source == NN_IRQ_SRC_NETLINK ||
				       (a->source != NN_IRQ_SRC_NETLINK && b->name &&
					names_if(b->name, nics[j].name) && !names_if(b->name, nics[i].name));
				if (to_j) {
					a->irq = -1;	/* dropped below */
					moved++;
				} else {
					b->irq = -1;
					kept++;
				}
			}
			/* Every IRQ still planned once, on the function's node: a note. */
			nn_note(s->ctx, nics[i].pci, "%s and %s share PCI function %s: each of its IRQs goes to "
				"the netdev netlink or the interface name in the IRQ's name ties it to, else "
				"stays with %s, planned once (%zu to %s, %zu stay with %s)",
				nics[i].name, nics[j].name, nics[i].pci, nics[i].name, moved, nics[j].name, kept,
				nics[i].name);
		}
	}
	/* Drop the IRQs marked -1. */
	for (i = 0; i < n; i++) {
		for (j = 0, k = 0; j < nics[i].nirqs; j++) {
			if (nics[i].irqs[j].irq < 0) {
				free(nics[i].irqs[j].name);
				nn_cpuset_free(&nics[i].irqs[j].affinity);
				nn_cpuset_free(&nics[i].irqs[j].effective);
				continue;
			}
			nics[i].irqs[k++] = nics[i].irqs[j];
		}
		nics[i].nirqs = k;
	}
}

int nn_nics_discover(struct nn_ctx *ctx, const struct nn_topo *topo, unsigned int flags,
		     char *const *only, size_t nonly, struct nn_nic **out, size_t *nout)
{
	struct nic_scan s = { .ctx = ctx, .topo = topo, .flags = flags, .irqs = { .dirfd = -1 },
			      .only = only, .nonly = nonly };
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct nn_nic *nics = NULL;
	struct dirent *de;
	size_t n = 0, cap = 0, i;
	DIR *d;
	int err;

	/* This machine's parallelism, whatever root is read: it is about the reads. */
	s.nthreads = ncpu > PREFETCH_THREADS ? PREFETCH_THREADS : ncpu > 1 ? (unsigned int)ncpu - 1 : 0;
	*out = NULL;
	*nout = 0;
	err = nn_root_opendir(&ctx->root, NET_DIR, &d);
	if (err) {
		nn_warn(ctx, NET_DIR, "cannot list network devices: %s", strerror(-err));
		return err;
	}
	while ((de = readdir(d))) {
		char path[PATH_MAX], tgt[PATH_MAX];

		/* Only "." and ".." are not devices: the kernel allows ".foo". */
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") || !wanted(&s, de->d_name))
			continue;
		/* Entries are symlinks to the devices; "bonding_masters" is a file. */
		snprintf(path, sizeof(path), NET_DIR "/%s", de->d_name);
		if (nn_root_readlink(&ctx->root, path, tgt, sizeof(tgt))) {
			snprintf(path, sizeof(path), NET_DIR "/%s/ifindex", de->d_name);
			if (nn_root_access(&ctx->root, path, 0))
				continue;
		}
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			struct nn_nic *nv = realloc(nics, ncap * sizeof(*nv));

			if (!nv) {
				err = -ENOMEM;
				goto out;
			}
			nics = nv;
			cap = ncap;
		}
		memset(&nics[n], 0, sizeof(*nics));
		nics[n].name = strdup(de->d_name);
		if (!nics[n].name) {
			err = -ENOMEM;
			goto out;
		}
		n++;
	}
	closedir(d);
	d = NULL;
	if (n > 1)
		qsort(nics, n, sizeof(*nics), cmp_nic);

	err = load_interrupts(&s);
	if (err)
		goto out;
	nn_root_view_open(&ctx->root, NN_PROC_IRQ, &s.irqs);
	s.nics = nics;
	s.msi_dir = calloc(n ? n : 1, sizeof(*s.msi_dir));
	if (!s.msi_dir) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		err = read_nic(&s, &nics[i]);
		if (err)
			goto out;
	}
	err = read_all_irqs(&s, n);
	if (err)
		goto out;
	for (i = 0; i < n; i++)
		name_halves(&nics[i]);
	err = genl_pass(&s, nics, n);
	if (err)
		goto out;
	split_shared(&s, nics, n);
	/* unknown stays -1: a driver without the operation, a capture without it */
	if (!(flags & NN_NICS_SHAPE))
		nn_eth_conf_get_each(ctx, n, nic_name_at, nic_eth_at, nics);
	if (nn_root_is_live(&ctx->root) && !(flags & NN_NICS_SHAPE)) {
		err = netlink_check(&s, nics, n);
		if (err)
			goto out;
		ethtool_check(&s, nics, n);
	}
	err = nn_pcie_assess(nics, n);
	if (!err) {
		*out = nics;
		*nout = n;
	}
out:
	if (d)
		closedir(d);
	nn_root_view_close(&s.irqs);
	nn_interrupts_free(s.intr, s.nintr);
	free_dirs(s.msi_dir, n);
	nn_cpuset_free(&s.missing);
	if (err)
		nn_nics_free(nics, n);
	return err;
}

void nn_nics_free(struct nn_nic *nics, size_t n)
{
	size_t i, j;

	for (i = 0; nics && i < n; i++) {
		for (j = 0; j < nics[i].nirqs; j++) {
			free(nics[i].irqs[j].name);
			nn_cpuset_free(&nics[i].irqs[j].affinity);
			nn_cpuset_free(&nics[i].irqs[j].effective);
		}
		free(nics[i].irqs);
		for (j = 0; j < nics[i].nrx_rps; j++)
			nn_cpuset_free(&nics[i].rx_rps[j].cpus);
		free(nics[i].rx_rps);
		free(nics[i].gqueues);
		free(nics[i].txnapis);
		free(nics[i].gnapis);
		free(nics[i].parent_fn);
		free(nics[i].name);
		free(nics[i].kind);
		free(nics[i].pci);
		free(nics[i].driver);
		nn_pcie_free(nics[i].pcie);
		nn_rss_free(&nics[i].rss);
		nn_cpuset_free(&nics[i].local_cpus);
	}
	free(nics);
}

const struct nn_nic *nn_nic_find(const struct nn_nic *nics, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(nics[i].name, name))
			return &nics[i];
	return NULL;
}

size_t nn_nic_irqs_unknown_role(const struct nn_nic *nic)
{
	size_t i, n = 0;

	for (i = 0; i < nic->nirqs; i++)
		n += nic->irqs[i].queue < 0 && nic->irqs[i].role == NN_IRQ_ROLE_UNKNOWN;
	return n;
}

int nn_nic_home_node(const struct nn_topo *t, const struct nn_nic *nic, bool *assumed)
{
	size_t i;

	*assumed = false;
	if (nic->numa_node >= 0)
		return nic->numa_node;
	if (nic->locality_known && !nn_cpuset_empty(&nic->local_cpus))
		for (i = 0; i < t->nnodes; i++)
			if (!nn_cpuset_empty(&t->nodes[i].cpus) &&
			    nn_cpuset_subset(&nic->local_cpus, &t->nodes[i].cpus))
				return t->nodes[i].id;
	if (t->nnodes == 1) {
		*assumed = true;
		return t->nodes[0].id;
	}
	return -1;
}
