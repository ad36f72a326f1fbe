// SPDX-License-Identifier: GPL-2.0-or-later
/* test_discover.c - topology and NIC discovery on small trees built here:
 * the corners the hand-built host fixtures do not reach (no node directory,
 * a misaligned distance row, non-PCI and software devices, IRQs missing from
 * /proc/interrupts or /proc/irq), and the pure lookups over a snapshot. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/discover/host.h"
#include "nicnuma/discover/nic.h"
#include "nicnuma/discover/nic_print.h"
#include "nicnuma/discover/topo.h"
#include "tmptree.h"

static char tmp[PATH_MAX];

static void mkdirs(const char *rel)
{
	assert_int_equal(tmptree_mkdir(tmp, rel), 0);
}

static void put(const char *rel, const char *content)
{
	assert_int_equal(tmptree_put(tmp, rel, content), 0);
}

static void ln(const char *target, const char *rel)
{
	char p[PATH_MAX * 2], dir[PATH_MAX * 2], *slash;

	snprintf(dir, sizeof(dir), "%s", rel);
	slash = strrchr(dir, '/');
	*slash = '\0';
	mkdirs(dir);
	snprintf(p, sizeof(p), "%s/%s", tmp, rel);
	assert_int_equal(symlink(target, p), 0);
}

static void cpu(int n, int pkg, int core, const char *sib, bool with_core)
{
	char p[128], v[32];

	snprintf(p, sizeof(p), "sys/devices/system/cpu/cpu%d/topology/physical_package_id", n);
	snprintf(v, sizeof(v), "%d\n", pkg);
	put(p, v);
	if (with_core) {
		snprintf(p, sizeof(p), "sys/devices/system/cpu/cpu%d/topology/core_id", n);
		snprintf(v, sizeof(v), "%d\n", core);
		put(p, v);
	}
	snprintf(p, sizeof(p), "sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", n);
	put(p, sib);
}

static int setup(void **state)
{
	(void)state;
	return tmptree_make(tmp, sizeof(tmp), "discover");
}

static int teardown(void **state)
{
	(void)state;
	return tmptree_remove(tmp);
}

static bool warned(const struct nn_ctx *ctx, const char *file, const char *text)
{
	size_t i;

	for (i = 0; i < ctx->nwarns; i++)
		if (ctx->warns[i].file && !strcmp(ctx->warns[i].file, file) &&
		    (!text || strstr(ctx->warns[i].msg, text)))
			return true;
	return false;
}

static void knobs(void)
{
	put("proc/sys/kernel/numa_balancing", "1\n");
	put("proc/sys/vm/zone_reclaim_mode", "0\n");
	put("sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never\n");
	put("sys/kernel/mm/transparent_hugepage/defrag", "always defer [defer+madvise] madvise never\n");
	put("proc/cpuinfo", "processor\t: 0\nmodel name\t: Test CPU\nflags\t\t: fpu sse2\n\n"
			    "processor\t: 1\nmodel name\t: Other\nflags\t\t: fpu hypervisor\n");
}

/* CONFIG_NUMA=n: no node directory; missing core_id on every CPU is one warning. */
static void no_node_dir(void **state)
{
	struct nn_ctx ctx;
	struct nn_topo t;
	int i;

	(void)state;
	put("sys/devices/system/cpu/online", "0-3\n");
	for (i = 0; i < 4; i++)
		cpu(i, 0, i, i < 2 ? "0-1\n" : "2-3\n", false);
	knobs();
	assert_int_equal(nn_ctx_init(&ctx, tmp, false), 0);
	assert_int_equal(nn_topo_discover(&ctx, &t), 0);
	assert_int_equal(t.nnodes, 1);
	assert_int_equal(t.nodes[0].id, 0);
	assert_int_equal(nn_cpuset_count(&t.nodes[0].cpus), 4);
	assert_int_equal(t.nodes[0].mem_total_kb, -1);
	assert_int_equal(t.ncpus, 4);
	for (i = 0; i < 4; i++) {
		assert_int_equal(t.cpus[i].node, 0);
		assert_int_equal(t.cpus[i].core, -1);
		assert_int_equal(t.cpus[i].die, -1);
		assert_int_equal(t.cpus[i].l3, -1);
	}
	assert_true(nn_cpuset_test(&t.cpus[3].siblings, 2));
	assert_true(warned(&ctx, "/sys/devices/system/node", "one node 0"));
	assert_true(warned(&ctx, "/sys/devices/system/cpu/cpu0/topology/core_id",
			   "missing: core_id unknown (CPUs 0-3)"));
	assert_int_equal(ctx.nwarns, 2);	/* die_id and caches absent: no warning */
	assert_int_equal(t.knobs.numa_balancing, 1);
	assert_string_equal(t.knobs.thp_enabled, "always");
	assert_string_equal(t.knobs.thp_defrag, "defer+madvise");
	assert_string_equal(t.knobs.cpu_model, "Test CPU");
	assert_int_equal(t.knobs.hypervisor, 0);	/* first flags line only */
	nn_topo_free(&t);
	nn_ctx_free(&ctx);
}

/* No CPU list at all: nothing to report, an error. */
static void no_online(void **state)
{
	struct nn_ctx ctx;
	struct nn_topo t;

	(void)state;
	put("sys/devices/system/cpu/online", "\n");
	assert_int_equal(nn_ctx_init(&ctx, tmp, false), 0);
	assert_int_equal(nn_topo_discover(&ctx, &t), -EINVAL);
	assert_true(warned(&ctx, "/sys/devices/system/cpu/online", NULL));
	nn_ctx_free(&ctx);
}

static void three_nodes(void)
{
	int i;

	put("sys/devices/system/cpu/online", "0-3\n");
	for (i = 0; i < 4; i++)
		cpu(i, i / 2, i % 2, i == 0 ? "0\n" : i == 1 ? "1\n" : i == 2 ? "2\n" : "3\n", true);
	put("sys/devices/system/cpu/cpu0/cache/index0/level", "1\n");
	put("sys/devices/system/cpu/cpu0/cache/index0/shared_cpu_list", "0\n");
	put("sys/devices/system/cpu/cpu0/cache/index3/level", "3\n");
	put("sys/devices/system/cpu/cpu0/cache/index3/shared_cpu_list", "0-1\n");
	/* node ids with a hole: 0, 2, 5 */
	put("sys/devices/system/node/node0/cpulist", "0-1\n");
	put("sys/devices/system/node/node0/distance", "10 20 30\n");
	put("sys/devices/system/node/node0/meminfo",
	    "Node 0 MemTotal: 1000 kB\nNode 0 MemFree: 500 kB\n");
	put("sys/devices/system/node/node0/hugepages/hugepages-1048576kB/nr_hugepages", "1\n");
	put("sys/devices/system/node/node0/hugepages/hugepages-1048576kB/free_hugepages", "1\n");
	put("sys/devices/system/node/node0/hugepages/hugepages-1048576kB/surplus_hugepages", "0\n");
	put("sys/devices/system/node/node0/hugepages/hugepages-2048kB/nr_hugepages", "8\n");
	put("sys/devices/system/node/node0/hugepages/hugepages-2048kB/free_hugepages", "x\n");
	put("sys/devices/system/node/node0/hugepages/hugepages-2048kB/surplus_hugepages", "0\n");
	put("sys/devices/system/node/node2/cpulist", "2-3\n");
	put("sys/devices/system/node/node2/distance", "20 10\n");	/* one short */
	put("sys/devices/system/node/node2/meminfo",
	    "Node 2 MemTotal: 0 kB\nNode 2 MemFree: 0 kB\n");
	put("sys/devices/system/node/node5/cpulist", "\n");
	put("sys/devices/system/node/node5/distance", "30 30 10\n");
	put("sys/devices/system/node/node5/meminfo",
	    "Node 5 MemTotal: 4000 kB\nNode 5 MemFree: 4000 kB\n");
	put("sys/devices/system/node/possible", "0-7\n");	/* not a node dir */
	knobs();
}

static void nodes_and_distances(void **state)
{
	struct nn_ctx ctx;
	struct nn_topo t;
	int ids[8];

	(void)state;
	three_nodes();
	assert_int_equal(nn_ctx_init(&ctx, tmp, false), 0);
	assert_int_equal(nn_topo_discover(&ctx, &t), 0);
	assert_int_equal(t.nnodes, 3);
	assert_int_equal(t.nodes[1].id, 2);
	assert_int_equal(t.nodes[2].id, 5);
	/* memory-only node 5, CPU-only node 2 */
	assert_true(nn_cpuset_empty(&t.nodes[2].cpus));
	assert_false(t.nodes[2].cpus_unknown);
	assert_int_equal(t.nodes[2].mem_total_kb, 4000);
	assert_int_equal(t.nodes[1].mem_total_kb, 0);
	/* hugepages sorted by size; an unreadable count is -1 with a warning */
	assert_int_equal(t.nodes[0].nhugepages, 2);
	assert_int_equal(t.nodes[0].hugepages[0].size_kb, 2048);
	assert_int_equal(t.nodes[0].hugepages[0].total, 8);
	assert_int_equal(t.nodes[0].hugepages[0].free, -1);
	assert_int_equal(t.nodes[0].hugepages[1].size_kb, 1048576);
	assert_true(warned(&ctx, "/sys/devices/system/node/node0/hugepages/hugepages-2048kB/free_hugepages",
			   NULL));
	/* node 2's row cannot be aligned: unknown, with a warning */
	assert_int_equal(t.nodes[1].ndistances, 0);
	assert_true(warned(&ctx, "/sys/devices/system/node/node2/distance", "2 entries, no node list has as many (node/possible 8, node directories 3)"));
	assert_int_equal(nn_topo_distance(&t, 0, 5), 30);
	assert_int_equal(nn_topo_distance(&t, 5, 2), 30);
	assert_int_equal(nn_topo_distance(&t, 2, 0), -1);
	assert_int_equal(nn_topo_distance(&t, 0, 7), -1);
	assert_int_equal(nn_topo_node_index(&t, 5), 2);
	assert_int_equal(nn_topo_node_index(&t, 1), -1);
	assert_null(nn_topo_node(&t, 3));
	assert_int_equal(nn_topo_cpu_node(&t, 3), 2);
	assert_int_equal(nn_topo_cpu_node(&t, 9), -1);
	assert_int_equal(t.cpus[0].l3, 0);
	assert_true(nn_cpuset_test(&t.cpus[0].l3_cpus, 1));
	/* cpu1 has no cache dir, but cpu0's L3 list names it: one read per group */
	assert_int_equal(t.cpus[1].l3, 0);
	assert_true(nn_cpuset_equal(&t.cpus[1].l3_cpus, &t.cpus[0].l3_cpus));
	assert_int_equal(t.cpus[2].l3, -1);	/* no cache dir, in no list: unknown */
	assert_int_equal(t.cpus[2].package, 1);
	/* nearest first, self first, ties by id */
	assert_int_equal(nn_topo_nodes_by_distance(&t, 5, ids, 8), 3);
	assert_int_equal(ids[0], 5);
	assert_int_equal(ids[1], 0);
	assert_int_equal(ids[2], 2);
	assert_int_equal(nn_topo_nodes_by_distance(&t, 0, ids, 2), 2);
	assert_int_equal(ids[0], 0);
	assert_int_equal(ids[1], 2);
	/* from node 2 every distance is unknown: self, then by id */
	assert_int_equal(nn_topo_nodes_by_distance(&t, 2, ids, 8), 3);
	assert_int_equal(ids[0], 2);
	assert_int_equal(ids[1], 0);
	assert_int_equal(ids[2], 5);
	nn_topo_free(&t);
	nn_ctx_free(&ctx);

	/* The basic form: same nodes and CPU nodes, no per-CPU topology reads. */
	assert_int_equal(nn_ctx_init(&ctx, tmp, false), 0);
	assert_int_equal(nn_topo_discover_basic(&ctx, &t), 0);
	assert_int_equal(t.nnodes, 3);
	assert_int_equal(t.ncpus, 4);
	assert_int_equal(nn_topo_cpu_node(&t, 3), 2);
	assert_int_equal(t.cpus[2].package, -1);
	assert_int_equal(t.cpus[0].l3, -1);
	assert_true(nn_cpuset_empty(&t.cpus[0].siblings));
	assert_int_equal(nn_topo_distance(&t, 0, 5), 30);
	nn_topo_free(&t);
	nn_ctx_free(&ctx);
}

static void nic_tree(void)
{
	const char *pci = "sys/devices/pci0000:00/0000:00:05.0";
	char p[256];

	three_nodes();
	/* a PCI NIC with a driver, numa_node -1 but a narrower local_cpulist */
	snprintf(p, sizeof(p), "%s/net/ens5/ifindex", pci);
	put(p, "7\n");
	snprintf(p, sizeof(p), "%s/net/ens5/speed", pci);
	put(p, "25000\n");
	snprintf(p, sizeof(p), "%s/net/ens5/queues/rx-0/x", pci);
	put(p, "");
	snprintf(p, sizeof(p), "%s/net/ens5/queues/tx-0/xps_cpus", pci);
	put(p, "0\n");
	snprintf(p, sizeof(p), "%s/net/ens5/queues/tx-1/xps_cpus", pci);
	put(p, "0\n");
	snprintf(p, sizeof(p), "%s/numa_node", pci);
	put(p, "-1\n");
	snprintf(p, sizeof(p), "%s/local_cpulist", pci);
	put(p, "0-1\n");
	snprintf(p, sizeof(p), "%s/msi_irqs/50", pci);
	put(p, "msix\n");
	snprintf(p, sizeof(p), "%s/msi_irqs/51", pci);
	put(p, "msix\n");
	snprintf(p, sizeof(p), "%s/msi_irqs/52", pci);
	put(p, "msix\n");
	snprintf(p, sizeof(p), "%s/net/ens5/device", pci);
	ln("../../../0000:00:05.0", p);
	mkdirs("sys/bus/pci/drivers/ice");
	snprintf(p, sizeof(p), "%s/driver", pci);
	ln("../../../bus/pci/drivers/ice", p);
	ln("../../devices/pci0000:00/0000:00:05.0/net/ens5", "sys/class/net/ens5");
	put("proc/interrupts",
	    "      CPU0 CPU1 CPU2 CPU3\n"
	    " 50:  1 2 3 4  PCI-MSIX-0000:00:05.0  0-edge  ice-ens5-TxRx-0\n"
	    " 60:  1 2 3 4  PCI-MSIX-0000:00:06.0  0-edge  other\n");
	put("proc/irq/50/smp_affinity_list", "2\n");
	put("proc/irq/50/effective_affinity_list", "2\n");
	put("proc/irq/51/smp_affinity_list", "0-1\n");

	/* a NIC on a platform bus: not virtual, no PCI, no IRQ list expected */
	put("sys/devices/platform/soc/eth-mac.0/net/end0/ifindex", "8\n");
	put("sys/devices/platform/soc/eth-mac.0/net/end0/speed", "-1\n");
	ln("../../../eth-mac.0", "sys/devices/platform/soc/eth-mac.0/net/end0/device");
	ln("../../devices/platform/soc/eth-mac.0/net/end0", "sys/class/net/end0");

	/* software devices: the kernel's own evidence of their kind */
	put("sys/devices/virtual/net/t0/ifindex", "9\n");
	put("sys/devices/virtual/net/t0/tun_flags", "0x1002\n");
	ln("../../devices/virtual/net/t0", "sys/class/net/t0");
	put("sys/devices/virtual/net/br0/ifindex", "10\n");
	mkdirs("sys/devices/virtual/net/br0/bridge");
	ln("../../devices/virtual/net/br0", "sys/class/net/br0");
	put("sys/devices/virtual/net/v100/ifindex", "11\n");
	put("sys/devices/virtual/net/v100/uevent", "DEVTYPE=vlan\nINTERFACE=v100\nIFINDEX=11\n");
	ln("../../devices/virtual/net/v100", "sys/class/net/v100");
	put("sys/devices/virtual/net/lo/ifindex", "1\n");
	put("sys/devices/virtual/net/lo/type", "772\n");
	ln("../../devices/virtual/net/lo", "sys/class/net/lo");
	put("sys/devices/virtual/net/odd/ifindex", "garbage\n");
	ln("../../devices/virtual/net/odd", "sys/class/net/odd");
	/* not a device */
	put("sys/class/net/bonding_masters", "\n");
	put("proc/1/comm", "systemd\n");
	put("proc/77/comm", "irqbalance\n");
	{
		char p2[PATH_MAX * 2];
		FILE *f;

		snprintf(p2, sizeof(p2), "%s/proc/77/cmdline", tmp);
		f = fopen(p2, "w");
		assert_non_null(f);
		fwrite("/usr/sbin/irqbalance\0--foreground\0", 1, 34, f);
		fclose(f);
	}
	put("proc/12/comm", "bash\n");
}

static void nics(void **state)
{
	const struct nn_nic *n;
	struct nn_ctx ctx;
	struct nn_host h;

	(void)state;
	nic_tree();
	assert_int_equal(nn_ctx_init(&ctx, tmp, false), 0);
	assert_int_equal(nn_host_discover(&ctx, &h), 0);
	assert_int_equal(h.nnics, 7);
	assert_string_equal(h.nics[0].name, "br0");	/* sorted by name */

	n = nn_nic_find(h.nics, h.nnics, "ens5");
	assert_non_null(n);
	assert_false(n->is_virtual);
	assert_string_equal(n->pci, "0000:00:05.0");
	assert_string_equal(n->driver, "ice");
	assert_int_equal(n->ifindex, 7);
	assert_int_equal(n->numa_node, -1);
	assert_true(n->locality_known);		/* 0-1 of 0-3 */
	assert_true(n->local_cpus_read);
	assert_int_equal(n->speed_mbps, 25000);
	assert_int_equal(n->rx_queues, 1);
	assert_int_equal(n->tx_queues, 2);
	assert_int_equal(n->channels_combined, -1);	/* live only */
	assert_int_equal(n->nirqs, 3);
	assert_int_equal(n->irqs[0].irq, 50);
	assert_string_equal(n->irqs[0].name, "ice-ens5-TxRx-0");
	assert_int_equal(n->irqs[0].queue, 0);
	assert_int_equal(n->irqs[0].dir, NN_QDIR_RXTX);
	assert_true(n->irqs[0].has_effective);
	assert_true(nn_cpuset_test(&n->irqs[0].affinity, 2));
	/* 51: in /proc/irq, not in /proc/interrupts */
	assert_null(n->irqs[1].name);
	assert_int_equal(n->irqs[1].queue, -1);
	assert_true(n->irqs[1].has_affinity);
	assert_false(n->irqs[1].has_effective);
	assert_true(warned(&ctx, "/proc/interrupts", "IRQ 51"));
	/* 52: nowhere */
	assert_false(n->irqs[2].has_affinity);
	assert_true(warned(&ctx, "/proc/irq/52", "msi_irqs"));

	n = nn_nic_find(h.nics, h.nnics, "end0");
	assert_non_null(n);
	assert_false(n->is_virtual);
	assert_null(n->pci);
	assert_null(n->driver);
	assert_int_equal(n->speed_mbps, -1);
	assert_int_equal(n->nirqs, 0);
	assert_false(n->locality_known);
	assert_true(warned(&ctx, "/sys/class/net/end0/device/driver", NULL));

	n = nn_nic_find(h.nics, h.nnics, "t0");
	assert_true(n->is_virtual);
	assert_string_equal(n->kind, "tun");
	assert_null(n->pci);
	n = nn_nic_find(h.nics, h.nnics, "br0");
	assert_string_equal(n->kind, "bridge");
	n = nn_nic_find(h.nics, h.nnics, "v100");
	assert_string_equal(n->kind, "vlan");
	n = nn_nic_find(h.nics, h.nnics, "lo");
	assert_string_equal(n->kind, "loopback");
	assert_int_equal(n->ifindex, 1);
	n = nn_nic_find(h.nics, h.nnics, "odd");
	assert_int_equal(n->ifindex, -1);
	assert_null(n->kind);
	assert_true(warned(&ctx, "/sys/class/net/odd/ifindex", NULL));
	assert_null(nn_nic_find(h.nics, h.nnics, "bonding_masters"));
	assert_true(warned(&ctx, "/sys/class/net/ens5/queues", NULL) == false);

	assert_true(h.irqbalance.running);
	assert_int_equal(h.irqbalance.pid, 77);
	assert_string_equal(h.irqbalance.cmdline, "/usr/sbin/irqbalance --foreground");
	assert_true(h.irqbalance.systemd);
	nn_host_free(&h);
	nn_ctx_free(&ctx);
}

/* The nics table's NIC and DRIVER/KIND columns widen to their longest cell
 * (an out-of-tree driver's long name): every row's PCI column starts where
 * the header's does. */
static void nics_table_widths(void **state)
{
	struct nn_nic *n;
	struct nn_ctx ctx;
	struct nn_host h;
	struct nn_out o;
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	const char *hdr;
	long col;
	FILE *fp;
	int rows = 0;

	(void)state;
	nic_tree();
	assert_int_equal(nn_ctx_init(&ctx, tmp, false), 0);
	assert_int_equal(nn_host_discover(&ctx, &h), 0);
	n = (struct nn_nic *)nn_nic_find(h.nics, h.nnics, "ens5");
	assert_non_null(n);
	free(n->driver);
	n->driver = strdup("ice_vendor_oot_build_1.13");
	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	nn_out_init(&o, fp, false);
	nn_nics_print(&o, &h, NULL, 0, true, NULL, NULL);
	assert_int_equal(nn_out_flush(&o), 0);
	fclose(fp);
	hdr = strstr(buf, "PCI");
	assert_non_null(hdr);
	col = hdr - buf;
	assert_true(col > 16 + 1 + 22);	/* wider than the fixed 16 + 22 */
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "ens5 ", 5) && strncmp(line, "br0 ", 4))
			continue;
		rows++;
		assert_true((long)strlen(line) > col);
		assert_true(line[col - 1] == ' ' && line[col] != ' ');
	}
	assert_int_equal(rows, 2);
	free(buf);
	nn_host_free(&h);
	nn_ctx_free(&ctx);
}

static bool noted(const struct nn_ctx *ctx, const char *file, const char *text)
{
	for (size_t i = 0; i < ctx->nnotes; i++)
		if (ctx->notes[i].file && !strcmp(ctx->notes[i].file, file) &&
		    (!text || strstr(ctx->notes[i].msg, text)))
			return true;
	return false;
}

/* A NIC that is down (IFF_UP clear) and whose driver requests IRQs on open:
 * its vectors without /proc/irq or /proc/interrupts are notes, not warnings.
 * flags decides; without a readable flags file, operstate "down" does. */
static void down_nic_notes(void **state)
{
	static const struct {
		const char *flags, *operstate;
		bool down;
	} cases[] = {
		{ "0x1002\n", "down\n", true },
		{ NULL, "down\n", true },
		{ "garbage\n", "down\n", true },
		{ "0x1003\n", "down\n", false },	/* up without carrier: IRQs requested */
		{ NULL, "up\n", false },
		{ NULL, NULL, false },
	};
	const char *dir = "sys/devices/pci0000:00/0000:00:05.0/net/ens5";
	char path[PATH_MAX * 2], p[256];

	(void)state;
	nic_tree();
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct nn_nic *n;
		struct nn_ctx ctx;
		struct nn_host h;

		snprintf(p, sizeof(p), "%s/flags", dir);
		snprintf(path, sizeof(path), "%s/%s", tmp, p);
		unlink(path);
		if (cases[i].flags)
			put(p, cases[i].flags);
		snprintf(p, sizeof(p), "%s/operstate", dir);
		snprintf(path, sizeof(path), "%s/%s", tmp, p);
		unlink(path);
		if (cases[i].operstate)
			put(p, cases[i].operstate);
		assert_int_equal(nn_ctx_init(&ctx, tmp, false), 0);
		assert_int_equal(nn_host_discover(&ctx, &h), 0);
		n = nn_nic_find(h.nics, h.nnics, "ens5");
		assert_non_null(n);
		assert_int_equal(n->link_down, cases[i].down);
		/* 51 is not in /proc/interrupts, 52 has no /proc/irq/52 */
		assert_int_equal(warned(&ctx, "/proc/interrupts", "IRQ 51"), !cases[i].down);
		assert_int_equal(warned(&ctx, "/proc/irq/52", "msi_irqs"), !cases[i].down);
		assert_int_equal(noted(&ctx, "/proc/interrupts", "IRQ 51"), cases[i].down);
		assert_int_equal(noted(&ctx, "/proc/irq/52", "ens5 is down"), cases[i].down);
		nn_host_free(&h);
		nn_ctx_free(&ctx);
	}
}

/* SMT and L3 lists are read once per group: a CPU named by an earlier CPU's
 * good list takes that list (its own file is not read, so garbage there goes
 * unseen, as in hwloc); a bad first list makes the next member read its own. */
static void group_lists_read_once(void **state)
{
	struct nn_ctx ctx;
	struct nn_topo t;
	int i;

	(void)state;
	put("sys/devices/system/cpu/online", "0-3\n");
	put("sys/devices/system/node/node0/cpulist", "0-3\n");
	knobs();
	cpu(0, 0, 0, "0,2\n", true);
	cpu(1, 0, 1, "1-\n", true);		/* corrupt, and first of its group */
	cpu(2, 0, 0, "garbage\n", true);	/* covered by cpu0's list: unread */
	cpu(3, 0, 1, "1,3\n", true);		/* reads its own: cpu1's was bad */
	/* cpu2 is cpu0's sibling: same core, so its ids are not read either */
	put("sys/devices/system/cpu/cpu2/topology/physical_package_id", "junk\n");
	put("sys/devices/system/cpu/cpu2/topology/core_id", "junk\n");
	for (i = 0; i < 4; i++) {
		char p[96];

		snprintf(p, sizeof(p), "sys/devices/system/cpu/cpu%d/cache/index3/level", i);
		put(p, "3\n");
		snprintf(p, sizeof(p), "sys/devices/system/cpu/cpu%d/cache/index3/shared_cpu_list", i);
		put(p, i == 0 ? "0-1\n" : i == 1 ? "x\n" : "2-3\n");
	}
	assert_int_equal(nn_ctx_init(&ctx, tmp, false), 0);
	assert_int_equal(nn_topo_discover(&ctx, &t), 0);
	assert_int_equal(nn_cpuset_first(&t.cpus[2].siblings), 0);
	assert_int_equal(nn_cpuset_count(&t.cpus[2].siblings), 2);
	assert_false(warned(&ctx, "/sys/devices/system/cpu/cpu2/topology/thread_siblings_list", NULL));
	assert_true(warned(&ctx, "/sys/devices/system/cpu/cpu1/topology/thread_siblings_list", NULL));
	assert_true(nn_cpuset_empty(&t.cpus[1].siblings));
	assert_int_equal(nn_cpuset_count(&t.cpus[3].siblings), 2);
	assert_int_equal(t.cpus[2].package, 0);
	assert_int_equal(t.cpus[2].core, 0);
	assert_false(warned(&ctx, "/sys/devices/system/cpu/cpu2/topology/core_id", NULL));
	/* L3: cpu1 is covered by cpu0's list, so its garbage is unread */
	assert_int_equal(t.cpus[1].l3, 0);
	assert_false(warned(&ctx, "/sys/devices/system/cpu/cpu1/cache/index3/shared_cpu_list", NULL));
	assert_int_equal(t.cpus[2].l3, 2);
	assert_int_equal(t.cpus[3].l3, 2);
	nn_topo_free(&t);
	nn_ctx_free(&ctx);
}

/* Package and die ids by group, as hwloc takes them: a CPU named by an
 * earlier CPU's package_cpus_list / die_cpus_list shares its id unread; a
 * list without the CPU itself, or none, groups nothing (each reads its own). */
static void package_die_lists_read_once(void **state)
{
	struct nn_ctx ctx;
	struct nn_topo t;
	int i;

	(void)state;
	put("sys/devices/system/cpu/online", "0-5\n");
	put("sys/devices/system/node/node0/cpulist", "0-5\n");
	knobs();
	for (i = 0; i < 6; i++) {
		char p[96], sib[8];

		snprintf(sib, sizeof(sib), "%d\n", i);
		cpu(i, i < 4 ? 0 : 1, i, sib, true);
		snprintf(p, sizeof(p), "sys/devices/system/cpu/cpu%d/topology/die_id", i);
		put(p, "0\n");
	}
	put("sys/devices/system/cpu/cpu0/topology/package_cpus_list", "0-3\n");
	put("sys/devices/system/cpu/cpu0/topology/die_cpus_list", "0-1\n");
	/* covered by cpu0's lists: never read, so their junk cannot warn */
	put("sys/devices/system/cpu/cpu1/topology/physical_package_id", "junk\n");
	put("sys/devices/system/cpu/cpu1/topology/die_id", "junk\n");
	put("sys/devices/system/cpu/cpu3/topology/physical_package_id", "junk\n");
	/* not in cpu0's die list: reads its own die_id and warns */
	put("sys/devices/system/cpu/cpu2/topology/die_id", "junk\n");
	/* cpu4's package list leaves cpu4 out: groups nothing, cpu5 reads its own */
	put("sys/devices/system/cpu/cpu4/topology/package_cpus_list", "5\n");
	put("sys/devices/system/cpu/cpu5/topology/physical_package_id", "junk\n");
	assert_int_equal(nn_ctx_init(&ctx, tmp, false), 0);
	assert_int_equal(nn_topo_discover(&ctx, &t), 0);
	assert_int_equal(t.cpus[1].package, 0);
	assert_int_equal(t.cpus[1].die, 0);
	assert_int_equal(t.cpus[3].package, 0);
	assert_false(warned(&ctx, "/sys/devices/system/cpu/cpu1/topology/physical_package_id", NULL));
	assert_false(warned(&ctx, "/sys/devices/system/cpu/cpu1/topology/die_id", NULL));
	assert_false(warned(&ctx, "/sys/devices/system/cpu/cpu3/topology/physical_package_id", NULL));
	assert_int_equal(t.cpus[2].die, -1);
	assert_true(warned(&ctx, "/sys/devices/system/cpu/cpu2/topology/die_id", NULL));
	assert_int_equal(t.cpus[4].package, 1);
	assert_int_equal(t.cpus[5].package, -1);
	assert_true(warned(&ctx, "/sys/devices/system/cpu/cpu5/topology/physical_package_id", NULL));
	nn_topo_free(&t);
	nn_ctx_free(&ctx);
}

/* Rule 1: no cpu/online: the cpuN directories and their online files, said once. */
static void online_from_cpu_dirs(void **state)
{
	struct nn_ctx ctx;
	struct nn_topo t;
	int i;

	(void)state;
	for (i = 0; i < 4; i++)
		cpu(i, 0, i, i == 0 ? "0\n" : i == 1 ? "1\n" : i == 2 ? "2\n" : "3\n", true);
	/* cpu0 has no online file (cannot be offlined): online */
	put("sys/devices/system/cpu/cpu1/online", "1\n");
	put("sys/devices/system/cpu/cpu2/online", "0\n");
	put("sys/devices/system/cpu/cpu3/online", "1\n");
	mkdirs("sys/devices/system/cpu/cpufreq");
	put("sys/devices/system/node/node0/cpulist", "0-3\n");
	put("sys/devices/system/node/node0/distance", "10\n");
	put("sys/devices/system/node/node0/meminfo", "Node 0 MemTotal: 1000 kB\nNode 0 MemFree: 500 kB\n");
	knobs();
	assert_int_equal(nn_ctx_init(&ctx, tmp, false), 0);
	assert_int_equal(nn_topo_discover(&ctx, &t), 0);
	assert_int_equal(t.ncpus, 3);
	assert_false(nn_cpuset_test(&t.online, 2));
	assert_true(warned(&ctx, "/sys/devices/system/cpu/online", "4 cpuN directories"));
	assert_int_equal(ctx.nwarns, 1);
	/* Rule 2: the node's CPUs are its online ones; cpu2 is shown apart. */
	assert_int_equal(nn_cpuset_count(&t.nodes[0].cpus), 3);
	assert_true(nn_cpuset_test(&t.nodes[0].offline, 2));
	assert_int_equal(nn_cpuset_count(&t.nodes[0].offline), 1);
	nn_topo_free(&t);
	nn_ctx_free(&ctx);
}

/* Rule 3: rows are indexed by node/online, even with sparse ids and a node
 * that has no directory. */
static void sparse_nodes_rows(void **state)
{
	struct nn_ctx ctx;
	struct nn_topo t;

	(void)state;
	put("sys/devices/system/cpu/online", "0-1\n");
	cpu(0, 0, 0, "0\n", true);
	cpu(1, 1, 0, "1\n", true);
	put("sys/devices/system/node/online", "0,8,252-253\n");	/* 253: no directory */
	put("sys/devices/system/node/possible", "0-255\n");
	put("sys/devices/system/node/node0/cpulist", "0\n");
	put("sys/devices/system/node/node0/distance", "10 40 80 81\n");
	put("sys/devices/system/node/node8/cpulist", "1\n");
	put("sys/devices/system/node/node8/distance", "40 10 80 82\n");
	put("sys/devices/system/node/node252/cpulist", "\n");
	put("sys/devices/system/node/node252/distance", "80 80 10 80\n");
	knobs();
	assert_int_equal(nn_ctx_init(&ctx, tmp, false), 0);
	assert_int_equal(nn_topo_discover(&ctx, &t), 0);
	assert_int_equal(t.nnodes, 3);
	assert_int_equal(nn_topo_distance(&t, 0, 8), 40);
	assert_int_equal(nn_topo_distance(&t, 8, 252), 80);
	assert_int_equal(nn_topo_distance(&t, 252, 252), 10);
	assert_int_equal(nn_topo_distance(&t, 0, 253), -1);	/* no such node shown */
	assert_false(warned(&ctx, "/sys/devices/system/node/node0/distance", NULL));
	nn_topo_free(&t);
	nn_ctx_free(&ctx);
}

/* Queue counts: a queues/ directory as the kernel makes it is counted by
 * probing its last rx and tx names, anything else by listing it, and both
 * give the same counts. */
static void queue_counts(void **state)
{
	static const struct { const char *name, *dirs[8], *file; int rx, tx; } cases[] = {
		{ "q4", { "rx-0", "rx-1", "rx-2", "rx-3", "tx-0", "tx-1", "tx-2", "tx-3" }, NULL, 4, 4 },
		{ "q0", { NULL }, NULL, 0, 0 },
		{ "uneven", { "rx-0", "tx-0", "tx-1", "tx-2" }, NULL, 1, 3 },
		/* rx-1 missing: two of each by name, but not the kernel's numbering */
		{ "gap", { "rx-0", "rx-2", "tx-0", "tx-1" }, NULL, 2, 2 },
		/* rx-1 a file, not a directory: the probe sees it and lists */
		{ "file", { "rx-0", "tx-0" }, "rx-1", 2, 1 },
	};
	struct nn_ctx ctx;
	struct nn_host h;
	char p[256];
	size_t i, j;

	(void)state;
	three_nodes();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(p, sizeof(p), "sys/devices/virtual/net/%s/queues", cases[i].name);
		mkdirs(p);
		for (j = 0; j < 8 && cases[i].dirs[j]; j++) {
			snprintf(p, sizeof(p), "sys/devices/virtual/net/%s/queues/%s", cases[i].name, cases[i].dirs[j]);
			mkdirs(p);
		}
		if (cases[i].file) {
			snprintf(p, sizeof(p), "sys/devices/virtual/net/%s/queues/%s", cases[i].name, cases[i].file);
			put(p, "");
		}
		snprintf(p, sizeof(p), "../../devices/virtual/net/%s", cases[i].name);
		{
			char link[64];

			snprintf(link, sizeof(link), "sys/class/net/%s", cases[i].name);
			ln(p, link);
		}
	}
	assert_int_equal(nn_ctx_init(&ctx, tmp, false), 0);
	assert_int_equal(nn_host_discover_nics(&ctx, &h), 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct nn_nic *n = nn_nic_find(h.nics, h.nnics, cases[i].name);

		assert_non_null(n);
		if (n->rx_queues != cases[i].rx || n->tx_queues != cases[i].tx)
			fail_msg("%s: %d rx %d tx, want %d %d", cases[i].name, n->rx_queues, n->tx_queues,
				 cases[i].rx, cases[i].tx);
	}
	nn_host_free(&h);
	nn_ctx_free(&ctx);
}

/* Rule 4: one warning per fact, naming the CPUs; rule 5: knobs of features
 * the kernel lacks are not available, not faults. */
static void one_warning_per_fact(void **state)
{
	struct nn_ctx ctx;
	struct nn_topo t;
	char p[128];
	int i;

	(void)state;
	put("sys/devices/system/cpu/online", "0-5\n");
	for (i = 0; i < 6; i++) {
		cpu(i, 0, i, i == 0 ? "0\n" : i == 1 ? "1\n" : i == 2 ? "2\n" : i == 3 ? "3\n" :
		    i == 4 ? "4\n" : "5\n", true);
		/* an L3 index whose list does not name the CPU: corrupt on every CPU */
		snprintf(p, sizeof(p), "sys/devices/system/cpu/cpu%d/cache/index3/level", i);
		put(p, "3\n");
		snprintf(p, sizeof(p), "sys/devices/system/cpu/cpu%d/cache/index3/shared_cpu_list", i);
		put(p, i == 4 ? "0-3\n" : "9\n");
	}
	put("sys/devices/system/node/node0/cpulist", "0-5\n");
	put("sys/devices/system/node/node0/distance", "10\n");
	put("sys/devices/system/node/node0/meminfo", "Node 0 MemTotal: 1000 kB\nNode 0 MemFree: 500 kB\n");
	put("proc/cpuinfo", "processor\t: 0\nmodel name\t: Test CPU\nflags\t\t: fpu\n");
	mkdirs("proc/sys/kernel");
	mkdirs("proc/sys/vm");
	assert_int_equal(nn_ctx_init(&ctx, tmp, false), 0);
	assert_int_equal(nn_topo_discover(&ctx, &t), 0);
	assert_true(warned(&ctx, "/sys/devices/system/cpu/cpu0/cache/index3/shared_cpu_list",
			   "does not list the CPU itself: L3 group unknown (CPUs 0-5)"));
	/* zone_reclaim_mode is missing beside node directories: a fault */
	assert_true(warned(&ctx, "/proc/sys/vm/zone_reclaim_mode", "missing although"));
	assert_int_equal(ctx.nwarns, 2);
	assert_int_equal(t.knobs.absent, NN_KNOB_NUMA_BALANCING | NN_KNOB_THP);
	assert_int_equal(t.knobs.numa_balancing, -1);
	nn_topo_free(&t);
	nn_ctx_free(&ctx);
}

/* Rule 5: CONFIG_NUMA=n (no node directory, no zone_reclaim_mode) is not a fault. */
static void kernel_without_numa(void **state)
{
	struct nn_ctx ctx;
	struct nn_topo t;

	(void)state;
	put("sys/devices/system/cpu/online", "0-1\n");
	cpu(0, 0, 0, "0\n", true);
	cpu(1, 0, 1, "1\n", true);
	put("proc/cpuinfo", "processor\t: 0\nmodel name\t: Test CPU\nflags\t\t: fpu\n");
	assert_int_equal(nn_ctx_init(&ctx, tmp, false), 0);
	assert_int_equal(nn_topo_discover(&ctx, &t), 0);
	assert_int_equal(ctx.nwarns, 0);
	assert_int_equal(t.nnodes, 1);
	assert_int_equal(t.knobs.absent, NN_KNOB_NUMA_BALANCING | NN_KNOB_ZONE_RECLAIM | NN_KNOB_THP);
	nn_topo_free(&t);
	nn_ctx_free(&ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(no_node_dir, setup, teardown),
		cmocka_unit_test_setup_teardown(no_online, setup, teardown),
		cmocka_unit_test_setup_teardown(nodes_and_distances, setup, teardown),
		cmocka_unit_test_setup_teardown(group_lists_read_once, setup, teardown),
		cmocka_unit_test_setup_teardown(package_die_lists_read_once, setup, teardown),
		cmocka_unit_test_setup_teardown(nics, setup, teardown),
		cmocka_unit_test_setup_teardown(nics_table_widths, setup, teardown),
		cmocka_unit_test_setup_teardown(down_nic_notes, setup, teardown),
		cmocka_unit_test_setup_teardown(online_from_cpu_dirs, setup, teardown),
		cmocka_unit_test_setup_teardown(sparse_nodes_rows, setup, teardown),
		cmocka_unit_test_setup_teardown(one_warning_per_fact, setup, teardown),
		cmocka_unit_test_setup_teardown(queue_counts, setup, teardown),
		cmocka_unit_test_setup_teardown(kernel_without_numa, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
