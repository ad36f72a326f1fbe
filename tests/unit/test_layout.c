// SPDX-License-Identifier: GPL-2.0-or-later
/* test_layout.c - per-node instances and their systemd units on in-memory
 * hosts, and the systemd quoting they rely on. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicnuma/plan/layout.h"
#include "nicnuma/core/unitfile.h"
#include "tmptree.h"

/* A host of @nnodes nodes with @per CPUs each, hyperthread pairs (2k, 2k+1),
 * node 1 (or 0) holding 512 x 2 MB hugepages. */
struct fake {
	struct nn_host host;
	struct nn_plan plan;
};

static void set_of(struct nn_cpuset *s, const char *list)
{
	assert_int_equal(nn_cpuset_parse_list(list, s), 0);
}

static void fake_host(struct fake *f, int nnodes, int per)
{
	struct nn_topo *t = &f->host.topo;
	int n, c;

	memset(f, 0, sizeof(*f));
	t->nnodes = (size_t)nnodes;
	t->nodes = calloc((size_t)nnodes, sizeof(*t->nodes));
	t->ncpus = (size_t)(nnodes * per);
	t->cpus = calloc(t->ncpus, sizeof(*t->cpus));
	assert_non_null(t->nodes);
	assert_non_null(t->cpus);
	for (n = 0; n < nnodes; n++) {
		t->nodes[n].id = n;
		t->nodes[n].hugepages = calloc(1, sizeof(*t->nodes[n].hugepages));
		t->nodes[n].nhugepages = 1;
		t->nodes[n].hugepages[0].size_kb = 2048;
		t->nodes[n].hugepages[0].total = n == nnodes - 1 ? 512 : 0;
	}
	for (c = 0; c < nnodes * per; c++) {
		struct nn_cpu *cpu = &t->cpus[c];

		cpu->id = c;
		cpu->node = c / per;
		cpu->core = c / 2;
		assert_int_equal(nn_cpuset_set(&cpu->siblings, (unsigned int)(c & ~1)), 0);
		assert_int_equal(nn_cpuset_set(&cpu->siblings, (unsigned int)(c | 1)), 0);
		assert_int_equal(nn_cpuset_set(&t->nodes[c / per].cpus, (unsigned int)c), 0);
		assert_int_equal(nn_cpuset_set(&t->online, (unsigned int)c), 0);
	}
}

static void fake_nic(struct fake *f, const char *name, const char *pci, int node, int queues)
{
	struct nn_nic *nic;

	f->host.nics = realloc(f->host.nics, (f->host.nnics + 1) * sizeof(*nic));
	assert_non_null(f->host.nics);
	nic = &f->host.nics[f->host.nnics++];
	memset(nic, 0, sizeof(*nic));
	nic->name = strdup(name);
	nic->pci = pci ? strdup(pci) : NULL;
	nic->numa_node = node;
	nic->locality_known = node >= 0;
	nic->rx_queues = nic->tx_queues = queues;
	nic->is_virtual = !pci;
}

static void fake_irq(struct fake *f, const char *nic, int queue, const char *cpus)
{
	struct nn_plan_irq *pi;

	f->plan.irqs = realloc(f->plan.irqs, (f->plan.nirqs + 1) * sizeof(*pi));
	assert_non_null(f->plan.irqs);
	pi = &f->plan.irqs[f->plan.nirqs++];
	memset(pi, 0, sizeof(*pi));
	pi->irq = 30 + (int)f->plan.nirqs;
	pi->nic = strdup(nic);
	pi->queue = queue;
	/* as plan_json reads a plan without roles: an index is a queue */
	pi->role = queue >= 0 ? NN_IRQ_ROLE_QUEUE : NN_IRQ_ROLE_MISC;
	set_of(&pi->cpus, cpus);
}

static void fake_free(struct fake *f)
{
	struct nn_topo *t = &f->host.topo;
	size_t i;

	for (i = 0; i < t->nnodes; i++) {
		nn_cpuset_free(&t->nodes[i].cpus);
		free(t->nodes[i].hugepages);
	}
	for (i = 0; i < t->ncpus; i++)
		nn_cpuset_free(&t->cpus[i].siblings);
	free(t->nodes);
	free(t->cpus);
	nn_cpuset_free(&t->online);
	nn_cpuset_free(&t->isol.isolated);
	nn_cpuset_free(&t->isol.nohz_full);
	nn_cpuset_free(&t->isol.isolcpus);
	for (i = 0; i < f->host.nnics; i++) {
		free(f->host.nics[i].name);
		free(f->host.nics[i].pci);
	}
	free(f->host.nics);
	for (i = 0; i < f->plan.nirqs; i++) {
		free(f->plan.irqs[i].nic);
		nn_cpuset_free(&f->plan.irqs[i].cpus);
	}
	free(f->plan.irqs);
}

/* 2 nodes x 8 CPUs; eth2 on node 1 with 2 queues whose IRQs go to 10 and 13,
 * its misc IRQ to housekeeping 8. */
static void two_node_host(struct fake *f)
{
	fake_host(f, 2, 8);
	fake_nic(f, "eth2", "0000:3b:00.0", 1, 2);
	fake_nic(f, "veth0", NULL, -1, 1);
	fake_irq(f, "eth2", 0, "10");
	fake_irq(f, "eth2", 1, "13");
	fake_irq(f, "eth2", -1, "8");
}

static char *cpus_of(const struct nn_cpuset *s)
{
	char *r = nn_cpuset_format_list(s);

	assert_non_null(r);
	return r;
}

static void assert_cpus(const struct nn_cpuset *s, const char *want)
{
	char *got = cpus_of(s);

	assert_string_equal(got, want);
	free(got);
}

static void test_default_with_nics(void **state)
{
	struct nn_layout_opts o = { .service = "fwd", .dpdk = true };
	struct nn_layout l;
	struct fake f;
	char why[256] = "", *eal;

	(void)state;
	two_node_host(&f);
	assert_int_equal(nn_layout_make(&f.host, &f.plan, &o, &l, why, sizeof(why)), 0);
	assert_int_equal(l.ninst, 1);
	assert_int_equal(l.inst[0].node, 1);
	assert_string_equal(l.inst[0].unit, "fwd@1.service");
	assert_cpus(&l.housekeeping, "0-1,8-9");
	/* IRQs on 10 and 13 take their whole cores: 10-11 and 12-13 */
	assert_cpus(&l.inst[0].cpus, "14-15");
	assert_cpus(&l.inst[0].irq_cores, "10-13");
	assert_false(l.inst[0].irq_cores_included);
	assert_int_equal(l.inst[0].nnics, 1);
	assert_string_equal(l.inst[0].nics[0].name, "eth2");
	assert_int_equal(l.inst[0].nics[0].queue_irqs, 2);
	assert_cpus(&l.inst[0].nics[0].irq_cpus, "10,13");
	assert_int_equal(l.inst[0].hugepage_bytes, 1024ULL << 20);
	eal = nn_layout_eal_string(&l.inst[0]);
	assert_string_equal(eal, "-l 14-15 --file-prefix fwd-1 --socket-mem 0,1024 -a 0000:3b:00.0");
	free(eal);
	assert_int_equal(l.nunplaced, 0);	/* veth0 is virtual: not a data-plane NIC */
	assert_int_equal(l.nwarnings, 0);
	nn_layout_free(&l);
	fake_free(&f);
}

/* Isolated CPUs of a node: a --dpdk instance runs on them alone; another
 * service leaves them out, unless they are all that is left. */
static void test_isolated_to_dpdk_first(void **state)
{
	struct nn_layout_opts o = { .service = "fwd", .dpdk = true };
	struct nn_layout l;
	struct fake f;
	char why[256] = "", *eal;

	(void)state;
	two_node_host(&f);
	set_of(&f.host.topo.isol.isolcpus, "14-15");
	set_of(&f.host.topo.isol.nohz_full, "6-7");	/* node 0: no instance there */
	assert_int_equal(nn_layout_make(&f.host, &f.plan, &o, &l, why, sizeof(why)), 0);
	assert_int_equal(l.ninst, 1);
	assert_cpus(&l.inst[0].isolated, "14-15");
	assert_cpus(&l.inst[0].cpus, "14-15");
	eal = nn_layout_eal_string(&l.inst[0]);
	assert_string_equal(eal, "-l 14-15 --file-prefix fwd-1 --socket-mem 0,1024 -a 0000:3b:00.0");
	free(eal);
	nn_layout_free(&l);

	/* Not DPDK, IRQ cores kept: 10-15 without the isolated 14-15. */
	o.dpdk = false;
	o.include_irq_cores = true;
	assert_int_equal(nn_layout_make(&f.host, &f.plan, &o, &l, why, sizeof(why)), 0);
	assert_cpus(&l.inst[0].cpus, "10-13");
	assert_cpus(&l.inst[0].isolated, "14-15");
	nn_layout_free(&l);

	/* Not DPDK, IRQ cores left out: the isolated CPUs are all that is left. */
	o.include_irq_cores = false;
	assert_int_equal(nn_layout_make(&f.host, &f.plan, &o, &l, why, sizeof(why)), 0);
	assert_cpus(&l.inst[0].cpus, "14-15");
	nn_layout_free(&l);

	/* A DPDK instance on a node with isolated CPUs among others: only them. */
	nn_cpuset_zero(&f.host.topo.isol.isolcpus);
	set_of(&f.host.topo.isol.isolated, "15");
	o.dpdk = true;
	o.include_irq_cores = true;
	assert_int_equal(nn_layout_make(&f.host, &f.plan, &o, &l, why, sizeof(why)), 0);
	assert_cpus(&l.inst[0].cpus, "15");
	nn_layout_free(&l);
	fake_free(&f);
}

static bool has_warning(const struct nn_layout *l, const char *sub)
{
	for (size_t i = 0; i < l->nwarnings; i++)
		if (strstr(l->warnings[i], sub))
			return true;
	return false;
}

/* A claimed CPU is never handed to an instance (issue 27), DPDK or not; a
 * node whose every CPU outside housekeeping is claimed gets none. */
static void test_claimed_never_handed_out(void **state)
{
	struct nn_layout_opts o = { .service = "fwd", .dpdk = true };
	struct nn_layout l;
	struct fake f;
	char why[256] = "";

	(void)state;
	two_node_host(&f);	/* node 1: housekeeping 8-9, IRQ cores 10-13, free 14-15 */
	set_of(&f.host.claims.cpus, "15");
	assert_int_equal(nn_layout_make(&f.host, &f.plan, &o, &l, why, sizeof(why)), 0);
	assert_cpus(&l.inst[0].cpus, "14");
	assert_true(has_warning(&l, "claimed CPUs 15 left out"));
	nn_layout_free(&l);
	o.dpdk = false;
	assert_int_equal(nn_layout_make(&f.host, &f.plan, &o, &l, why, sizeof(why)), 0);
	assert_cpus(&l.inst[0].cpus, "14");
	nn_layout_free(&l);
	/* only IRQ cores left: their siblings free of IRQs (11-12, the IRQs
	 * are on 10 and 13), still without the claim */
	o.dpdk = true;
	set_of(&f.host.claims.cpus, "14-15");
	assert_int_equal(nn_layout_make(&f.host, &f.plan, &o, &l, why, sizeof(why)), 0);
	assert_cpus(&l.inst[0].cpus, "11-12");
	assert_true(l.inst[0].irq_cores_included);
	assert_true(has_warning(&l, "SMT siblings free of IRQs (11-12)"));
	nn_layout_free(&l);
	set_of(&f.host.claims.cpus, "10-15");
	assert_int_equal(nn_layout_make(&f.host, &f.plan, &o, &l, why, sizeof(why)), -ENOENT);
	nn_cpuset_free(&f.host.claims.cpus);
	fake_free(&f);
}

static void test_include_irq_cores_and_all(void **state)
{
	struct nn_layout_opts o = { .service = "fwd", .dpdk = true, .include_irq_cores = true,
				    .nodes_mode = NN_LAYOUT_ALL };
	struct nn_layout l;
	struct fake f;
	char why[256] = "", *eal;

	(void)state;
	two_node_host(&f);
	assert_int_equal(nn_layout_make(&f.host, &f.plan, &o, &l, why, sizeof(why)), 0);
	assert_int_equal(l.ninst, 2);
	assert_cpus(&l.inst[0].cpus, "2-7");
	assert_cpus(&l.inst[1].cpus, "10-15");
	assert_true(l.inst[1].irq_cores_included);
	/* node 0: no NIC, no hugepages: --no-pci keeps it off node 1's NIC */
	eal = nn_layout_eal_string(&l.inst[0]);
	assert_string_equal(eal, "-l 2-7 --file-prefix fwd-0 --no-pci");
	free(eal);
	assert_int_equal(l.nwarnings, 1);
	assert_contains(l.warnings[0], "node 0: no hugepages");
	nn_layout_free(&l);
	fake_free(&f);
}

static void test_irq_cores_fill_the_node(void **state)
{
	struct nn_layout_opts o = { .service = "svc" };
	struct nn_layout l;
	struct fake f;
	char why[256] = "";

	(void)state;
	/* 2 nodes x 4 CPUs: housekeeping 4-5, queue IRQs on 6-7: nothing left */
	fake_host(&f, 2, 4);
	fake_nic(&f, "ens1", "0000:81:00.0", 1, 2);
	fake_irq(&f, "ens1", 0, "6");
	fake_irq(&f, "ens1", 1, "7");
	assert_int_equal(nn_layout_make(&f.host, &f.plan, &o, &l, why, sizeof(why)), 0);
	assert_int_equal(l.ninst, 1);
	assert_cpus(&l.inst[0].cpus, "6-7");
	assert_true(l.inst[0].irq_cores_included);
	assert_int_equal(l.nwarnings, 1);
	assert_contains(l.warnings[0], "takes queue IRQs");
	assert_null(l.inst[0].eal);	/* no --dpdk */
	nn_layout_free(&l);
	fake_free(&f);
}

static void test_node_list(void **state)
{
	struct nn_layout_opts o = { .service = "svc", .nodes_mode = NN_LAYOUT_LIST };
	struct nn_layout l;
	struct fake f;
	char why[256] = "";

	(void)state;
	two_node_host(&f);
	set_of(&o.nodes, "0");
	assert_int_equal(nn_layout_make(&f.host, &f.plan, &o, &l, why, sizeof(why)), 0);
	assert_int_equal(l.ninst, 1);
	assert_int_equal(l.inst[0].node, 0);
	assert_int_equal(l.nunplaced, 1);
	assert_string_equal(l.unplaced[0], "eth2: on node 1, which has no instance");
	nn_layout_free(&l);
	set_of(&o.nodes, "0,7");
	assert_int_equal(nn_layout_make(&f.host, &f.plan, &o, &l, why, sizeof(why)), -EINVAL);
	assert_string_equal(why, "--nodes: node 7 does not exist on this host");
	nn_layout_opts_free(&o);
	fake_free(&f);
}

static void test_unknown_locality(void **state)
{
	struct nn_layout_opts o = { .service = "svc", .dpdk = true };
	struct nn_layout l;
	struct fake f;
	char why[256] = "";

	(void)state;
	/* two nodes, the only NIC of unknown locality: no guessing node 0 */
	fake_host(&f, 2, 4);
	fake_nic(&f, "eth0", "0000:00:03.0", -1, 1);
	assert_int_equal(nn_layout_make(&f.host, NULL, &o, &l, why, sizeof(why)), -ENOENT);
	assert_contains(why, "--nodes all");
	o.nodes_mode = NN_LAYOUT_ALL;
	assert_int_equal(nn_layout_make(&f.host, NULL, &o, &l, why, sizeof(why)), 0);
	assert_int_equal(l.ninst, 2);
	assert_int_equal(l.inst[0].nnics + l.inst[1].nnics, 0);
	assert_int_equal(l.nunplaced, 1);
	assert_contains(l.unplaced[0], "eth0: unknown locality");
	nn_layout_free(&l);
	fake_free(&f);

	/* one node (this machine's shape): the NIC can only be on it */
	fake_host(&f, 1, 6);
	fake_nic(&f, "eth0", "0000:00:03.0", -1, 1);
	fake_irq(&f, "eth0", 0, "3");
	o.nodes_mode = NN_LAYOUT_WITH_NICS;
	assert_int_equal(nn_layout_make(&f.host, &f.plan, &o, &l, why, sizeof(why)), 0);
	assert_int_equal(l.ninst, 1);
	assert_true(l.inst[0].nics[0].locality_assumed);
	assert_cpus(&l.inst[0].cpus, "4-5");
	nn_layout_free(&l);
	fake_free(&f);
}

static void test_all_housekeeping(void **state)
{
	struct nn_layout_opts o = { .service = "svc" };
	struct nn_layout l;
	struct fake f;
	char why[256] = "";

	(void)state;
	fake_host(&f, 1, 2);	/* CPUs 0-1 are siblings: the housekeeping core */
	fake_nic(&f, "eth0", "0000:00:03.0", 0, 1);
	assert_int_equal(nn_layout_make(&f.host, NULL, &o, &l, why, sizeof(why)), -ENOENT);
	assert_contains(why, "no node has CPUs left");
	/* an explicit housekeeping set frees CPU 1 */
	set_of(&o.housekeeping, "0");
	assert_int_equal(nn_layout_make(&f.host, NULL, &o, &l, why, sizeof(why)), 0);
	assert_cpus(&l.inst[0].cpus, "1");
	nn_layout_free(&l);
	nn_layout_opts_free(&o);
	fake_free(&f);
}

static const char *file_of(struct nn_unit_file *files, size_t n, const char *path)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(files[i].path, path))
			return files[i].content;
	fail_msg("no file %s", path);
	return NULL;
}

static void test_render(void **state)
{
	struct nn_layout_opts o = { .service = "fwd", .dpdk = true };
	char *exec[] = { "/usr/bin/fwd", "--name", "a b", "100%", "$HOME", "x\"y\\z", ";", NULL };
	struct nn_layout_render_opts ro = { .exec = exec, .nexec = 7 };
	struct nn_unit_file *files;
	struct nn_layout l;
	struct fake f;
	const char *t, *d;
	char why[256] = "";
	size_t n;

	(void)state;
	two_node_host(&f);
	assert_int_equal(nn_layout_make(&f.host, &f.plan, &o, &l, why, sizeof(why)), 0);
	assert_int_equal(nn_layout_render(&l, &ro, &files, &n), 0);
	assert_int_equal(n, 2);
	t = file_of(files, n, "fwd@.service");
	assert_contains(t, "\nExecStart=/usr/bin/fwd $NICNUMA_EAL_ARGS --name \"a b\" "
			       "\"100%%\" \"$$HOME\" \"x\\\"y\\\\z\" \";\"\n");
	assert_contains(t, "Description=fwd on NUMA node %i\n");
	d = file_of(files, n, "fwd@1.service.d/nicnuma.conf");
	assert_contains(d, "\n[Service]\nCPUAffinity=14-15\nNUMAPolicy=bind\nNUMAMask=1\n");
	assert_contains(d, "Environment=\"NICNUMA_EAL_ARGS=-l 14-15 --file-prefix fwd-1 "
			       "--socket-mem 0,1024 -a 0000:3b:00.0\"\n");
	assert_contains(d, "Environment=\"NICNUMA_NICS=eth2\"\n");
	assert_not_contains(d, "ExecStart");
	nn_unit_files_free(files, n);

	ro.numactl = true;
	ro.numactl_path = "/usr/bin/numactl";
	assert_int_equal(nn_layout_render(&l, &ro, &files, &n), 0);
	t = file_of(files, n, "fwd@.service");
	assert_contains(t, "ExecStart=/usr/bin/numactl --cpunodebind=%i --membind=%i -- "
			       "/usr/bin/fwd $NICNUMA_EAL_ARGS");
	d = file_of(files, n, "fwd@1.service.d/nicnuma.conf");
	assert_contains(d, "ExecStart=\nExecStart=/usr/bin/numactl --physcpubind=14-15 "
			       "--membind=1 -- /usr/bin/fwd $NICNUMA_EAL_ARGS --name");
	assert_not_contains(d, "NUMAPolicy");
	nn_unit_files_free(files, n);
	nn_layout_free(&l);
	fake_free(&f);
}

static void test_unit_names(void **state)
{
	char why[256];

	(void)state;
	assert_int_equal(nn_unit_prefix_check("fwd", 3, why, sizeof(why)), 0);
	assert_int_equal(nn_unit_prefix_check("my-app_2:x.y", 3, why, sizeof(why)), 0);
	assert_int_equal(nn_unit_prefix_check("a\\x2db", 3, why, sizeof(why)), 0);
	assert_int_equal(nn_unit_prefix_check("", 0, why, sizeof(why)), -EINVAL);
	assert_int_equal(nn_unit_prefix_check("a b", 0, why, sizeof(why)), -EINVAL);
	assert_contains(why, "' '");
	assert_int_equal(nn_unit_prefix_check("a/b", 0, why, sizeof(why)), -EINVAL);
	assert_int_equal(nn_unit_prefix_check("a$b", 0, why, sizeof(why)), -EINVAL);
	assert_int_equal(nn_unit_prefix_check("fwd@", 0, why, sizeof(why)), -EINVAL);
	assert_contains(why, "without '@'");
	assert_int_equal(nn_unit_prefix_check("fwd.service", 0, why, sizeof(why)), -EINVAL);
	assert_int_equal(nn_unit_prefix_check("-fwd", 0, why, sizeof(why)), -EINVAL);
	assert_int_equal(nn_unit_prefix_check("caf\xc3\xa9", 0, why, sizeof(why)), -EINVAL);
	{
		char longname[300];

		memset(longname, 'a', sizeof(longname));
		longname[246] = '\0';	/* 246 + "@1.service" = 256: one too many */
		assert_int_equal(nn_unit_prefix_check(longname, 1, why, sizeof(why)), -EINVAL);
		longname[245] = '\0';
		assert_int_equal(nn_unit_prefix_check(longname, 9, why, sizeof(why)), 0);
		assert_int_equal(nn_unit_prefix_check(longname, 10, why, sizeof(why)), -EINVAL);
	}
}

static void test_exec_split(void **state)
{
	char why[256], **argv;
	size_t argc;

	(void)state;
	assert_int_equal(nn_exec_split("/usr/bin/app -x 'a b' \"c \\\"d\\\"\" e\\ f '' x'$'y",
				       &argv, &argc, why, sizeof(why)), 0);
	assert_int_equal(argc, 7);
	assert_string_equal(argv[0], "/usr/bin/app");
	assert_string_equal(argv[2], "a b");
	assert_string_equal(argv[3], "c \"d\"");
	assert_string_equal(argv[4], "e f");
	assert_string_equal(argv[5], "");
	assert_string_equal(argv[6], "x$y");
	assert_null(argv[7]);
	nn_exec_free(argv);
	assert_int_equal(nn_exec_split("app | tee x", &argv, &argc, why, sizeof(why)), -EINVAL);
	assert_contains(why, "'|'");
	assert_int_equal(nn_exec_split("app $HOME", &argv, &argc, why, sizeof(why)), -EINVAL);
	assert_int_equal(nn_exec_split("app \"$HOME\"", &argv, &argc, why, sizeof(why)), -EINVAL);
	assert_int_equal(nn_exec_split("app 'unterminated", &argv, &argc, why, sizeof(why)), -EINVAL);
	assert_int_equal(nn_exec_split("   ", &argv, &argc, why, sizeof(why)), -EINVAL);
	assert_int_equal(nn_exec_split("app; rm -rf /", &argv, &argc, why, sizeof(why)), -EINVAL);
	assert_int_equal(nn_exec_check_path("/usr/bin/app", why, sizeof(why)), 0);
	assert_int_equal(nn_exec_check_path("app", why, sizeof(why)), 0);
	assert_int_equal(nn_exec_check_path("./app", why, sizeof(why)), -EINVAL);
	assert_int_equal(nn_exec_check_path("-/usr/bin/app", why, sizeof(why)), -EINVAL);
	assert_int_equal(nn_exec_check_path("/opt/%i/app", why, sizeof(why)), -EINVAL);
}

static void test_sd_quote(void **state)
{
	static const struct { const char *in, *exec, *env; } cases[] = {
		{ "plain-word_1.0:/x=y,z@+", "plain-word_1.0:/x=y,z@+", "plain-word_1.0:/x=y,z@+" },
		{ "", "\"\"", "\"\"" },
		{ "a b", "\"a b\"", "\"a b\"" },
		{ "100%", "\"100%%\"", "\"100%%\"" },
		{ "$X", "\"$$X\"", "\"$X\"" },
		{ "q\"b\\", "\"q\\\"b\\\\\"", "\"q\\\"b\\\\\"" },
		{ "l1\nl2\tx\x01", "\"l1\\nl2\\tx\\x01\"", "\"l1\\nl2\\tx\\x01\"" },
		{ ";", "\";\"", "\";\"" },
		{ "'", "\"'\"", "\"'\"" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *e = nn_sd_quote(cases[i].in, NN_SD_EXEC), *v = nn_sd_quote(cases[i].in, NN_SD_ENV);

		assert_string_equal(e, cases[i].exec);
		assert_string_equal(v, cases[i].env);
		free(e);
		free(v);
	}
}
/* Only the exact first line layout writes marks a file as layout's own. */
static void test_header_is_ours(void **state)
{
	static const char tmpl[] = "# fwd@.service - generated by nicnuma layout: one instance per NUMA node.\n[Unit]\n";
	static const char drop[] = "# fwd@12.service - NUMA node 12, generated by nicnuma layout.\n# CPUs 1\n";
	static const char *const foreign[] = {
		"[Unit]\n# fwd@.service - generated by nicnuma layout: one instance per NUMA node.\n",
		"# my unit; generated by nicnuma layout: one instance per NUMA node.\n",
		"# fwd@.service - generated by nicnuma layout: one instance per NUMA node. (edited)\n",
		"# fwd@.service - generated by nicnuma layout: one instance per NUMA node.",
		"# fwd@12.service - NUMA node 012, generated by nicnuma layout.\n",
		"# fwd@12.service - NUMA node , generated by nicnuma layout.\n",
		"# fwd@12.service - NUMA node 1x, generated by nicnuma layout.\n",
		"",
	};
	size_t i;

	(void)state;
	assert_true(nn_unit_header_is_ours(tmpl, strlen(tmpl), "fwd@.service"));
	assert_true(nn_unit_header_is_ours(drop, strlen(drop), "fwd@12.service"));
	/* Another unit's header is not this unit's. */
	assert_false(nn_unit_header_is_ours(tmpl, strlen(tmpl), "other@.service"));
	assert_false(nn_unit_header_is_ours(drop, strlen(drop), "fwd@1.service"));
	/* Cut before the newline: a header must be a whole line. */
	assert_false(nn_unit_header_is_ours(tmpl, 20, "fwd@.service"));
	for (i = 0; i < sizeof(foreign) / sizeof(foreign[0]); i++)
		assert_false(nn_unit_header_is_ours(foreign[i], strlen(foreign[i]),
						    i < 4 ? "fwd@.service" : "fwd@12.service"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_with_nics),
		cmocka_unit_test(test_isolated_to_dpdk_first),
		cmocka_unit_test(test_claimed_never_handed_out),
		cmocka_unit_test(test_include_irq_cores_and_all),
		cmocka_unit_test(test_irq_cores_fill_the_node),
		cmocka_unit_test(test_node_list),
		cmocka_unit_test(test_unknown_locality),
		cmocka_unit_test(test_all_housekeeping),
		cmocka_unit_test(test_render),
		cmocka_unit_test(test_unit_names),
		cmocka_unit_test(test_exec_split),
		cmocka_unit_test(test_sd_quote),
		cmocka_unit_test(test_header_is_ours),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
