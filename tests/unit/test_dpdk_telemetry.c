// SPDX-License-Identifier: GPL-2.0-or-later
/* test_dpdk_telemetry.c - the telemetry reply parsers and the check --dpdk
 * verdict on canned replies: 22.11's, as a live dpdk-testpmd 22.11.11 gave
 * them, a 23.11-style /eal/lcore/info, and garbage. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicnuma/telemetry/dpdk_telemetry.h"

static const char greeting[] = "{\"version\":\"DPDK 22.11.11\",\"pid\":29838,\"max_output_len\":16384}";
static const char port0[] =
	"{\"/ethdev/info\":{\"name\":\"net_null0\",\"state\":1,\"nb_rx_queues\":1,\"nb_tx_queues\":1,"
	"\"port_id\":0,\"mtu\":1500,\"rx_mbuf_size_min\":2176,\"mac_addr\":\"5E:14:DE:30:F4:5F\","
	"\"promiscuous\":1,\"scattered_rx\":0,\"all_multicast\":1,\"dev_started\":1,\"lro\":0,"
	"\"dev_configured\":1,\"rxq_state\":[1],\"txq_state\":[1],\"numa_node\":0,\"dev_flags\":64,"
	"\"rx_offloads\":0,\"tx_offloads\":0,\"ethdev_rss_hf\":0}}";
static const char port_pci[] =
	"{\"/ethdev/info\":{\"name\":\"0000:3b:00.1\",\"nb_rx_queues\":4,\"nb_tx_queues\":4,"
	"\"port_id\":1,\"dev_started\":0,\"numa_node\":-1}}";
static const char pool0[] =
	"{\"/mempool/info\":{\"name\":\"mb_pool_0\",\"pool_id\":4554603264,\"flags\":16,"
	"\"socket_id\":0,\"size\":2048,\"cache_size\":250,\"elt_size\":2304,\"header_size\":64,"
	"\"trailer_size\":0,\"private_data_size\":64,\"ops_index\":3,\"populated_size\":2048,"
	"\"mz_name\":\"MP_mb_pool_0\",\"mz_len\":1057024,\"mz_hugepage_sz\":4096,"
	"\"mz_socket_id\":0,\"mz_flags\":0}}";
static const char params[] =
	"{\"/eal/params\":[\"dpdk-testpmd\",\"--no-pci\",\"--no-huge\",\"-m\",\"256\","
	"\"--file-prefix\",\"nn15probe\",\"--vdev\",\"net_null0\",\"-l\",\"0-1\"]}";

static void test_greeting(void **state)
{
	struct nn_dt_report r;

	(void)state;
	nn_dt_report_init(&r);
	assert_int_equal(nn_dt_parse_greeting(greeting, &r), 0);
	assert_string_equal(r.version, "DPDK 22.11.11");
	assert_int_equal(r.pid, 29838);
	assert_int_equal(r.max_output_len, 16384);
	/* garbage, another server, a v1 banner */
	assert_int_equal(nn_dt_parse_greeting("hello", &r), -EINVAL);
	assert_int_equal(nn_dt_parse_greeting("{\"pid\":1}", &r), -EINVAL);
	assert_int_equal(nn_dt_parse_greeting("[1,2]", &r), -EINVAL);
	assert_int_equal(nn_dt_parse_greeting("{\"version\":\"x\",\"pid\":\"z\"}", &r), -EINVAL);
	nn_dt_report_free(&r);
}

static void test_lists(void **state)
{
	char **names;
	int *ids;
	size_t n;
	bool null;

	(void)state;
	assert_int_equal(nn_dt_parse_id_list("{\"/ethdev/list\":[0,1]}", "/ethdev/list", &ids, &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(ids[1], 1);
	free(ids);
	assert_int_equal(nn_dt_parse_id_list("{\"/ethdev/list\":[]}", "/ethdev/list", &ids, &n), 0);
	assert_int_equal(n, 0);
	free(ids);
	assert_int_equal(nn_dt_parse_id_list("{\"/ethdev/list\":[\"a\"]}", "/ethdev/list", &ids, &n),
			 -EINVAL);
	assert_int_equal(nn_dt_parse_id_list("{\"/other\":[0]}", "/ethdev/list", &ids, &n), -EINVAL);
	assert_int_equal(nn_dt_parse_id_list("{\"/ethdev/list\":[-1]}", "/ethdev/list", &ids, &n),
			 -EINVAL);
	assert_int_equal(nn_dt_parse_name_list("{\"/mempool/list\":[\"mb_pool_0\",\"x\"]}",
					       "/mempool/list", &names, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(names[0], "mb_pool_0");
	nn_dt_names_free(names, n);
	/* 22.11 answers an unknown command with null */
	assert_int_equal(nn_dt_reply_is_null("{\"/eal/lcore/list\":null}", "/eal/lcore/list", &null), 0);
	assert_true(null);
	assert_int_equal(nn_dt_reply_is_null("{\"/eal/params\":[]}", "/eal/params", &null), 0);
	assert_false(null);
	assert_int_equal(nn_dt_reply_is_null("\x01\x02garbage", "/eal/params", &null), -EINVAL);
}

static void test_port_pool(void **state)
{
	struct nn_dt_port p;
	struct nn_dt_pool pool;

	(void)state;
	memset(&p, 0, sizeof(p));
	assert_int_equal(nn_dt_parse_port(port0, &p), 0);
	assert_int_equal(p.port_id, 0);
	assert_string_equal(p.name, "net_null0");
	assert_string_equal(p.pci, "");
	assert_string_equal(p.driver, "");		/* 22.11 has none */
	assert_int_equal(p.tel_node, 0);
	assert_int_equal(p.rx_queues, 1);
	assert_int_equal(p.started, 1);
	memset(&p, 0, sizeof(p));
	assert_int_equal(nn_dt_parse_port(port_pci, &p), 0);
	assert_string_equal(p.pci, "0000:3b:00.1");
	assert_int_equal(p.tel_node, -1);
	assert_int_equal(p.rx_queues, 4);
	assert_int_equal(nn_dt_parse_port("{\"/ethdev/info\":null}", &p), -ENOENT);
	assert_int_equal(nn_dt_parse_port("{\"/ethdev/info\":{\"port_id\":\"x\"}}", &p), -EINVAL);
	assert_int_equal(nn_dt_parse_port("{\"/ethdev/info\":[1]}", &p), -EINVAL);

	memset(&pool, 0, sizeof(pool));
	assert_int_equal(nn_dt_parse_pool(pool0, &pool), 0);
	assert_string_equal(pool.name, "mb_pool_0");
	assert_int_equal(pool.socket, 0);
	assert_int_equal(pool.size, 2048);
	assert_int_equal(pool.populated, 2048);
	assert_int_equal(pool.in_use, -1);		/* 22.11 has no count */
	/* SOCKET_ID_ANY */
	assert_int_equal(nn_dt_parse_pool("{\"/mempool/info\":{\"name\":\"a\",\"socket_id\":-1,"
					  "\"size\":1,\"in_use\":0}}", &pool), 0);
	assert_int_equal(pool.socket, -1);
	assert_int_equal(pool.in_use, 0);
	assert_int_equal(nn_dt_parse_pool("{\"/mempool/info\":null}", &pool), -ENOENT);
	assert_int_equal(nn_dt_parse_pool("{\"/mempool/info\":{\"socket_id\":0}}", &pool), -EINVAL);
}

static void test_pci_name(void **state)
{
	char b[32];

	(void)state;
	assert_true(nn_dt_pci_name("0000:03:00.0", b, sizeof(b)));
	assert_string_equal(b, "0000:03:00.0");
	assert_true(nn_dt_pci_name("3b:00.1", b, sizeof(b)));
	assert_string_equal(b, "0000:3b:00.1");
	assert_false(nn_dt_pci_name("net_ring0", b, sizeof(b)));
	assert_false(nn_dt_pci_name("0000:03:00.0_representor", b, sizeof(b)));
	assert_false(nn_dt_pci_name("0000:03:20.0", b, sizeof(b)));	/* device > 0x1f */
}

/* A report with @nparams EAL words after argv[0]. */
static void with_params(struct nn_dt_report *r, const char *const *words, size_t n)
{
	nn_dt_report_init(r);
	r->params = calloc(n + 1, sizeof(char *));
	assert_non_null(r->params);
	r->params[0] = strdup("app");
	for (size_t i = 0; i < n; i++)
		r->params[i + 1] = strdup(words[i]);
	r->nparams = n + 1;
}

static void test_lcores_params(void **state)
{
	static const char *const l[] = { "-l", "0-1" };
	static const char *const c[] = { "-c0x6", "--main-lcore", "2" };
	static const char *const lc[] = { "--lcores=0@4,(1,2)@(5,6),7", "-l", "0" };
	static const char *const bad[] = { "--lcores", "(1,2@3" };
	static const char *const none[] = { "--no-pci" };
	static const char *const huge[] = { "--lcores=(0-65535)@(0-65535)" };
	static const char *const huge_l[] = { "-l", "0-65535" };
	static const char *const edge[] = { "-l", "0,1023" };
	struct nn_dt_report r;

	(void)state;
	nn_dt_report_init(&r);
	assert_int_equal(nn_dt_parse_params(params, &r), 0);	/* from the live reply */
	assert_int_equal(r.nparams, 11);
	assert_int_equal(nn_dt_lcores_from_params(&r), 0);
	assert_int_equal(r.nlcores, 2);
	nn_dt_report_free(&r);

	with_params(&r, l, 2);
	assert_int_equal(nn_dt_lcores_from_params(&r), 0);
	assert_int_equal(r.lcore_source, NN_DT_LCORES_PARAMS);
	assert_int_equal(r.nlcores, 2);
	assert_true(nn_cpuset_test(&r.lcores[1].cpus, 1));
	nn_dt_report_free(&r);

	with_params(&r, c, 3);
	assert_int_equal(nn_dt_lcores_from_params(&r), 0);
	assert_int_equal(r.nlcores, 2);
	assert_int_equal(r.lcores[0].lcore_id, 1);
	assert_int_equal(r.main_lcore, 2);
	nn_dt_report_free(&r);

	/* the last of -l/-c/--lcores wins, as in EAL: here -l 0 */
	with_params(&r, lc, 3);
	assert_int_equal(nn_dt_lcores_from_params(&r), 0);
	assert_int_equal(r.nlcores, 1);
	nn_dt_report_free(&r);
	with_params(&r, lc, 1);
	assert_int_equal(nn_dt_lcores_from_params(&r), 0);
	assert_int_equal(r.nlcores, 4);
	assert_true(nn_cpuset_test(&r.lcores[0].cpus, 4));
	assert_int_equal(r.lcores[2].lcore_id, 2);
	assert_true(nn_cpuset_test(&r.lcores[2].cpus, 5) && nn_cpuset_test(&r.lcores[2].cpus, 6));
	assert_true(nn_cpuset_test(&r.lcores[3].cpus, 7));
	nn_dt_report_free(&r);

	with_params(&r, bad, 2);
	assert_int_equal(nn_dt_lcores_from_params(&r), -EINVAL);
	assert_int_equal(r.nlcores, 0);
	nn_dt_report_free(&r);
	with_params(&r, none, 1);
	assert_int_equal(nn_dt_lcores_from_params(&r), 0);
	assert_int_equal(r.lcore_source, NN_DT_LCORES_NONE);
	nn_dt_report_free(&r);

	/* Issue 22.6: a hostile lcore list makes no CPU set per lcore id (it
	 * was 65536 sets of 8 KiB); ids up to NN_DT_MAX_LCORES - 1 still pass. */
	with_params(&r, huge, 1);
	assert_int_equal(nn_dt_lcores_from_params(&r), -ERANGE);
	assert_int_equal(r.nlcores, 0);
	nn_dt_report_free(&r);
	with_params(&r, huge_l, 2);
	assert_int_equal(nn_dt_lcores_from_params(&r), -ERANGE);
	assert_int_equal(r.nlcores, 0);
	nn_dt_report_free(&r);
	with_params(&r, edge, 2);
	assert_int_equal(nn_dt_lcores_from_params(&r), 0);
	assert_int_equal(r.nlcores, 2);
	nn_dt_report_free(&r);
}

static void test_lcore_info(void **state)
{
	struct nn_dt_lcore l;

	(void)state;
	memset(&l, 0, sizeof(l));
	assert_int_equal(nn_dt_parse_lcore("{\"/eal/lcore/info\":{\"lcore_id\":3,\"socket\":1,"
					   "\"role\":\"RTE\",\"cpuset\":[6,7]}}", &l), 0);
	assert_int_equal(l.lcore_id, 3);
	assert_string_equal(l.role, "RTE");
	assert_int_equal(nn_cpuset_count(&l.cpus), 2);
	nn_cpuset_free(&l.cpus);
	assert_int_equal(nn_dt_parse_lcore("{\"/eal/lcore/info\":null}", &l), -ENOENT);
	assert_int_equal(nn_dt_parse_lcore("{\"/eal/lcore/info\":{\"lcore_id\":1,\"cpuset\":[\"x\"]}}",
					   &l), -EINVAL);
	nn_cpuset_free(&l.cpus);
}

/* Two nodes: CPUs 0-1 node 0, 2-3 node 1. */
static const int cpu_node[] = { 0, 0, 1, 1 };

/* One port named @name (tel node @tel, sysfs @sysfs), pools on @pool_sockets
 * (-1 ends), lcores 0 (main) and 1.. on CPUs @cpus (-1 ends). */
static void make(struct nn_dt_report *r, const char *name, int sysfs, const int *pool_sockets,
		 const int *cpus)
{
	size_t i;

	nn_dt_report_init(r);
	r->ports = calloc(1, sizeof(*r->ports));
	r->nports = 1;
	snprintf(r->ports[0].name, sizeof(r->ports[0].name), "%s", name);
	if (!nn_dt_pci_name(name, r->ports[0].pci, sizeof(r->ports[0].pci)))
		r->ports[0].pci[0] = '\0';
	r->ports[0].sysfs_node = sysfs;
	r->ports[0].tel_node = 0;
	r->pools = calloc(4, sizeof(*r->pools));
	for (i = 0; pool_sockets[i] >= 0 || pool_sockets[i] == -2; i++) {
		r->pools[i].socket = pool_sockets[i] == -2 ? -1 : pool_sockets[i];
		r->pools[i].populated = 100;
		r->npools++;
	}
	r->lcores = calloc(4, sizeof(*r->lcores));
	for (i = 0; cpus[i] >= 0; i++) {
		r->lcores[i].lcore_id = (int)i;
		assert_int_equal(nn_cpuset_set(&r->lcores[i].cpus, (unsigned int)cpus[i]), 0);
		r->nlcores++;
	}
}

static void test_verdicts(void **state)
{
	static const int s0[] = { 0, -1 }, s1[] = { 1, -1 }, s01[] = { 0, 1, -1 };
	static const int sany[] = { -2, -1 }, snone[] = { -1 };
	static const int c01[] = { 0, 1, -1 }, c02[] = { 0, 2, -1 }, c2[] = { 2, -1 };
	static const int c20[] = { 2, 0, -1 }, cnone[] = { -1 }, c9[] = { 0, 9, -1 };
	static const int c23[] = { 2, 3, -1 };
	struct nn_dt_report r;

	(void)state;
	/* PCI port on node 0, pool and worker there */
	make(&r, "0000:03:00.0", 0, s0, c01);
	nn_dt_judge(&r, cpu_node, 4, -1);
	assert_int_equal(r.ports[0].verdict, NN_DTV_OK);
	assert_int_equal(r.nflagged, 0);
	assert_true(r.lcores[0].main && !r.lcores[0].polling && r.lcores[1].polling);
	assert_int_equal(r.main_lcore, 0);
	nn_dt_report_free(&r);
	/* stock l2fwd on the wrong socket: pool on node 1 */
	make(&r, "0000:03:00.0", 0, s1, c01);
	nn_dt_judge(&r, cpu_node, 4, -1);
	assert_int_equal(r.ports[0].verdict, NN_DTV_MEMPOOL_REMOTE);
	assert_int_equal(r.nflagged, 1);
	nn_dt_report_free(&r);
	/* a pool per node (testpmd --port-numa-config): one is local, but which
	 * one this port draws from is unknown, so it is flagged, not ok */
	make(&r, "0000:03:00.0", 1, s01, c02);
	nn_dt_judge(&r, cpu_node, 4, -1);
	assert_int_equal(r.ports[0].verdict, NN_DTV_MEMPOOL_UNKNOWN);
	assert_int_equal(r.nflagged, 1);
	assert_int_equal(nn_cpuset_count(&r.ports[0].pool_nodes), 2);
	assert_string_equal(nn_dt_verdict_key(NN_DTV_MEMPOOL_UNKNOWN), "mempool_unknown");
	nn_dt_report_free(&r);
	/* the remote pool holds no objects: only the local one counts */
	make(&r, "0000:03:00.0", 1, s01, c02);
	r.pools[0].populated = 0;
	nn_dt_judge(&r, cpu_node, 4, -1);
	assert_int_equal(r.ports[0].verdict, NN_DTV_OK);
	nn_dt_report_free(&r);
	/* pools on several nodes, none on the port's: remote for certain */
	make(&r, "0000:03:00.0", 1, s0, c02);
	r.pools[1].socket = 2;
	r.pools[1].populated = 100;
	r.npools = 2;
	nn_dt_judge(&r, cpu_node, 4, -1);
	assert_int_equal(r.ports[0].verdict, NN_DTV_MEMPOOL_REMOTE);
	nn_dt_report_free(&r);
	/* worker on node 1, main on node 0 does not count */
	make(&r, "0000:03:00.0", 0, s0, c02);
	nn_dt_judge(&r, cpu_node, 4, -1);
	assert_int_equal(r.ports[0].verdict, NN_DTV_LCORE_REMOTE);
	nn_dt_report_free(&r);
	/* both wrong */
	make(&r, "0000:03:00.0", 0, s1, c02);
	nn_dt_judge(&r, cpu_node, 4, -1);
	assert_int_equal(r.ports[0].verdict, NN_DTV_MEMPOOL_REMOTE | NN_DTV_LCORE_REMOTE);
	nn_dt_report_free(&r);
	/* the main lcore on the remote node does not matter: its worker is local */
	make(&r, "0000:03:00.0", 0, s0, c20);
	nn_dt_judge(&r, cpu_node, 4, -1);
	assert_int_equal(r.ports[0].verdict, NN_DTV_OK);
	nn_dt_report_free(&r);
	make(&r, "0000:03:00.0", 0, s0, c23);
	nn_dt_judge(&r, cpu_node, 4, -1);
	assert_int_equal(r.ports[0].verdict, NN_DTV_LCORE_REMOTE);
	nn_dt_report_free(&r);
	/* a single lcore polls itself */
	make(&r, "0000:03:00.0", 1, s1, c2);
	nn_dt_judge(&r, cpu_node, 4, -1);
	assert_int_equal(r.ports[0].verdict, NN_DTV_OK);
	assert_true(r.lcores[0].main && r.lcores[0].polling);
	nn_dt_report_free(&r);
	/* vdev: unknown locality, unless --vdev-node */
	make(&r, "net_ring0", -1, s1, c01);
	nn_dt_judge(&r, cpu_node, 4, -1);
	assert_int_equal(r.ports[0].verdict, NN_DTV_UNKNOWN_LOCALITY);
	assert_int_equal(r.nflagged, 0);
	nn_dt_judge(&r, cpu_node, 4, 0);
	assert_int_equal(r.ports[0].verdict, NN_DTV_MEMPOOL_REMOTE);
	assert_string_equal(r.ports[0].node_source, "--vdev-node");
	nn_dt_report_free(&r);
	/* PCI port whose sysfs numa_node is -1: --vdev-node does not apply */
	make(&r, "0000:03:00.0", -1, s0, c01);
	nn_dt_judge(&r, cpu_node, 4, 0);
	assert_int_equal(r.ports[0].verdict, NN_DTV_UNKNOWN_LOCALITY);
	nn_dt_report_free(&r);
	/* no pool of known socket, no lcore: checks skipped, not flagged */
	make(&r, "0000:03:00.0", 0, sany, cnone);
	nn_dt_judge(&r, cpu_node, 4, -1);
	assert_int_equal(r.ports[0].verdict, NN_DTV_NO_POOL | NN_DTV_NO_LCORE | NN_DTV_OK);
	nn_dt_report_free(&r);
	make(&r, "0000:03:00.0", 0, snone, c9);	/* worker on a CPU of unknown node */
	nn_dt_judge(&r, cpu_node, 4, -1);
	assert_int_equal(r.ports[0].verdict, NN_DTV_NO_POOL | NN_DTV_NO_LCORE | NN_DTV_OK);
	nn_dt_report_free(&r);
	/* service lcores do not poll ports */
	make(&r, "0000:03:00.0", 0, s0, c02);
	strcpy(r.lcores[1].role, "SERVICE");
	nn_dt_judge(&r, cpu_node, 4, -1);
	assert_int_equal(r.ports[0].verdict, NN_DTV_OK);	/* the main one alone is RTE */
	nn_dt_report_free(&r);
}

static void test_names(void **state)
{
	char *s = nn_dt_default_socket(NULL, true);

	(void)state;
	assert_string_equal(s, "/var/run/dpdk/rte/dpdk_telemetry.v2");
	free(s);
	s = nn_dt_default_socket("nn", true);
	assert_string_equal(s, "/var/run/dpdk/nn/dpdk_telemetry.v2");
	free(s);
	assert_string_equal(nn_dt_verdict_text(NN_DTV_MEMPOOL_REMOTE), "mempool remote to its port");
	assert_string_equal(nn_dt_verdict_text(NN_DTV_UNKNOWN_LOCALITY), "unknown locality");
	assert_string_equal(nn_dt_verdict_key(NN_DTV_LCORE_REMOTE), "lcore_remote");
	assert_string_equal(nn_dt_verdict_key(NN_DTV_OK), "ok");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_greeting),
		cmocka_unit_test(test_lists),
		cmocka_unit_test(test_port_pool),
		cmocka_unit_test(test_pci_name),
		cmocka_unit_test(test_lcores_params),
		cmocka_unit_test(test_lcore_info),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
