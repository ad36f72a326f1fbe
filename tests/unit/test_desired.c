// SPDX-License-Identifier: GPL-2.0-or-later
/* test_desired.c - the desired-state file: parse, format round trip, strict
 * errors naming the line, mapping onto plan options by PCI address, and the
 * atomic write inside a fake root */
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
#include <cmocka.h>

#include "nicnuma/core/strbuf.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/service/desired_io.h"
#include "tmptree.h"

static const char good[] =
	"# comment\n"
	"[nicnuma]\n"
	"nic = 0000:65:00.0 eth1\n"
	"nic = 0000:66:00.1\n"
	"nic = - veth0\n"
	"  policy =  spread  \n"
	"cpus = 2-7\n"
	"reserve = 0,1\n"
	"channels = yes\n"
	"xps = no\n"
	"hugepages = 2M:512\n"
	"irqbalance = ban\n"
	"interval = 30\n"
	"settle_ms = 500\n";

static void test_parse_good(void **state)
{
	struct nn_desired d;
	char why[256] = "";

	assert_int_equal(nn_desired_parse("t.conf", good, strlen(good), &d, why, sizeof(why)), 0);
	assert_int_equal(d.nnics, 3);
	assert_string_equal(d.nics[0].pci, "0000:65:00.0");
	assert_string_equal(d.nics[0].name, "eth1");
	assert_null(d.nics[1].name);
	assert_null(d.nics[2].pci);
	assert_string_equal(d.nics[2].name, "veth0");
	assert_int_equal(d.policy, NN_POLICY_SPREAD);
	assert_true(d.has_reserve);
	assert_true(d.channels);
	assert_false(d.xps);
	assert_int_equal(d.hugepage_size_kb, 2048);
	assert_int_equal(d.hugepage_count, 512);
	assert_int_equal(d.irqbalance, NN_DIRQB_BAN);
	assert_int_equal(d.interval_s, 30);
	assert_int_equal(d.settle_ms, 500);
	nn_desired_free(&d);
}

static void test_roundtrip(void **state)
{
	struct nn_desired d, e;
	struct nn_sb a = NN_SB_INIT, b = NN_SB_INIT;
	char why[256];

	assert_int_equal(nn_desired_parse("t", good, strlen(good), &d, why, sizeof(why)), 0);
	assert_int_equal(nn_desired_format(&d, &a), 0);
	assert_int_equal(nn_desired_parse("t", a.buf, a.len, &e, why, sizeof(why)), 0);
	assert_int_equal(nn_desired_format(&e, &b), 0);
	assert_string_equal(a.buf, b.buf);
	assert_contains(a.buf, "nic = 0000:65:00.0 eth1\n");
	assert_contains(a.buf, "hugepages = 2048kB:512\n");
	nn_desired_free(&d);
	nn_desired_free(&e);
	nn_sb_free(&a);
	nn_sb_free(&b);
}

/* A text through the round trip: parsed (d), formatted (a), the format
 * parsed again (e), and e's plan options (o) on a host whose one NIC is
 * eth0; trip_free releases all of it. */
struct trip {
	struct nn_desired d, e;
	struct nn_sb a;
	struct nn_plan_opts o;
	struct nn_nic nic;
	struct nn_host host;
	const char **missing;
	size_t nmissing;
};

static void trip_run(struct trip *t, const char *text)
{
	char why[256] = "";

	memset(t, 0, sizeof(*t));
	t->a = (struct nn_sb)NN_SB_INIT;
	if (nn_desired_parse("t", text, strlen(text), &t->d, why, sizeof(why)) != 0)
		fail_msg("parse: %s", why);
	assert_int_equal(nn_desired_format(&t->d, &t->a), 0);
	if (nn_desired_parse("t", t->a.buf, t->a.len, &t->e, why, sizeof(why)) != 0)
		fail_msg("parse of the format: %s", why);
	t->nic.name = "eth0";
	t->host.nics = &t->nic;
	t->host.nnics = 1;
	assert_int_equal(nn_desired_plan_opts(&t->e, &t->host, &t->o, &t->missing, &t->nmissing), 0);
}

static void trip_free(struct trip *t)
{
	nn_plan_opts_free(&t->o);
	free(t->missing);
	nn_desired_free(&t->d);
	nn_desired_free(&t->e);
	nn_sb_free(&t->a);
}

/* rps and the NAPI settings: parsed, into the plan options, written back
 * only when set (a file without them reads as before). */
static void test_rps_napi_keys(void **state)
{
	struct trip t;

	(void)state;
	trip_run(&t, "[nicnuma]\nnic = - eth0\nrps = auto\nnapi_defer_hard_irqs = 2\n"
		     "gro_flush_timeout = none\nirq_suspend_timeout = 2000000\nnapi_threaded = off\n"
		     "profile = latency\nbusy_poll = 50\n");
	assert_int_equal(t.d.rps, NN_RPS_AUTO);
	assert_int_equal(t.d.napi_set, (1u << NN_NAPI_DEFER_HARD_IRQS) | (1u << NN_NAPI_IRQ_SUSPEND_TIMEOUT) |
				       (1u << NN_NAPI_THREADED));
	assert_int_equal(t.d.napi_value[NN_NAPI_DEFER_HARD_IRQS], 2);
	assert_int_equal(t.d.napi_value[NN_NAPI_IRQ_SUSPEND_TIMEOUT], 2000000);
	assert_int_equal(t.d.napi_value[NN_NAPI_THREADED], 0);
	assert_contains(t.a.buf, "rps = auto\n");
	assert_contains(t.a.buf, "napi_defer_hard_irqs = 2\n");
	assert_contains(t.a.buf, "napi_threaded = off\n");
	assert_contains(t.a.buf, "busy_poll = 50\n");
	assert_null(strstr(t.a.buf, "gro_flush_timeout"));
	assert_int_equal(t.e.napi_set, t.d.napi_set);
	assert_int_equal(t.o.rps, NN_RPS_AUTO);
	assert_int_equal(t.o.napi_set, t.d.napi_set);
	assert_int_equal(t.o.napi_value[NN_NAPI_IRQ_SUSPEND_TIMEOUT], 2000000);
	assert_int_equal(t.o.profile, NN_PROFILE_LATENCY);
	assert_int_equal(t.o.busy_poll_us, 50);	/* enable's plan sets the sysctls again */
	trip_free(&t);
}

/* dpdk_port (enable --dpdk-ports): one a line, into the plan options with
 * noiommu and force_port, written back; a file without them reads as before. */
static void test_dpdk_ports(void **state)
{
	struct trip t;

	(void)state;
	trip_run(&t, "[nicnuma]\nnic = - eth0\ndpdk_port = 0000:af:00.0\n"
		     "dpdk_port = 0000:af:00.1\nforce_port = yes\n");
	assert_int_equal(t.d.nports, 2);
	assert_string_equal(t.d.ports[1], "0000:af:00.1");
	assert_true(t.d.force_port);
	assert_false(t.d.noiommu);
	assert_contains(t.a.buf, "dpdk_port = 0000:af:00.0\ndpdk_port = 0000:af:00.1\nforce_port = yes\n");
	assert_null(strstr(t.a.buf, "noiommu"));
	assert_int_equal(t.e.nports, 2);
	assert_int_equal(t.o.ndpdk_ports, 2);
	assert_string_equal(t.o.dpdk_ports[0], "0000:af:00.0");
	assert_true(t.o.force_port);
	assert_false(t.o.noiommu);
	trip_free(&t);
}

/* Each bad file: refused (-EINVAL) with a message naming the file, the
 * line and what is wrong. */
static const struct {
	const char *text, *why;
} bad_files[] = {
	{ "nic = 0000:65:00.0\n", "x.conf:1: 'nic = 0000:65:00.0': a key before the [nicnuma] header" },
	{ "[nicnuma]\nnic = 0000:65:00.0\nfoo = 1\n", "x.conf:3: 'foo': unknown key" },
	{ "[nicnuma]\nnic = 0000:65:00.0\npolicy = x\n", "x.conf:3: 'policy': expected local" },
	{ "[nicnuma]\nnic = 0000:65:00.0\npolicy = local\npolicy = spread\n", "given twice" },
	{ "[nicnuma]\nnic = eth0\n", "expected a PCI address" },
	{ "[nicnuma]\nnic = 0000:65:00.0 a/b\n", "'/'" },
	{ "[nicnuma]\nnic = -\n", "needs the NIC's name" },
	{ "[nicnuma]\nnic = 0000:65:00.0\nnic = 0000:65:00.0 x\n", "listed twice" },
	{ "[nicnuma]\nnic = 0000:65:00.0\ninterval = 0\n", "seconds from 1" },
	{ "[nicnuma]\nnic = 0000:65:00.0\nsettle_ms = 99999999999\n", "milliseconds" },
	{ "[nicnuma]\nnic = 0000:65:00.0\nhugepages = 3M:1\n", "SIZE:COUNT" },
	{ "[nicnuma]\nnic = 0000:65:00.0\ncpus = \n", "empty value" },
	{ "[nicnuma]\npolicy = local\n", "no 'nic =' line" },
	{ "[other]\n", "unknown section" },
	{ "", "no [nicnuma] section" },
	/* a control byte in a key reaches the message escaped */
	{ "[nicnuma]\n\x1b[2J = 1\n", "\\x1b" },
	{ "[nicnuma]\nnic = - eth0\nrps = on\n", "expected off or auto" },
	{ "[nicnuma]\nnic = - eth0\nnapi_threaded = 1\n", "expected none, on or off" },
	{ "[nicnuma]\nnic = - eth0\nnapi_defer_hard_irqs = 2147483648\n", "a number in range" },
	{ "[nicnuma]\nnic = - eth0\ngro_flush_timeout = -1\n", "a number in range" },
	{ "[nicnuma]\nnic = - eth0\nbusy_poll = 0\n", "microseconds from 1 to 1000000" },
	{ "[nicnuma]\nnic = - eth0\nbusy_poll = 1000001\n", "microseconds from 1 to 1000000" },
	{ "[nicnuma]\nnic = - eth0\ndpdk_port = ens5f0\n", "'dpdk_port': expected a PCI address" },
	{ "[nicnuma]\nnic = - eth0\ndpdk_port = 0000:af:00.0\ndpdk_port = 0000:af:00.0\n",
	  "x.conf:4: 'dpdk_port': this port is listed twice" },
	{ "[nicnuma]\nnic = - eth0\nnoiommu = yes\n", "'noiommu' without a 'dpdk_port =' line" },
	{ "[nicnuma]\nnic = - eth0\ndpdk_port = 0000:af:00.0\nforce_port = maybe\n", "expected yes or no" },
};

static void test_parse_bad(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad_files) / sizeof(bad_files[0]); i++) {
		struct nn_desired d;
		char why[256] = "";
		int rc = nn_desired_parse("x.conf", bad_files[i].text, strlen(bad_files[i].text), &d, why,
					  sizeof(why));

		if (rc != -EINVAL || !strstr(why, bad_files[i].why))
			fail_msg("bad_files[%zu]: %d '%s', want %d and '%s'", i, rc, why, -EINVAL, bad_files[i].why);
	}
}

static void test_plan_opts(void **state)
{
	struct nn_nic nics[2] = { { 0 } };
	struct nn_host host = { 0 };
	struct nn_desired d;
	struct nn_plan_opts o;
	const char **missing;
	size_t nmissing;
	char why[256];
	const char *t = "[nicnuma]\nnic = 0000:65:00.0 eth1\nnic = 0000:99:00.0 gone0\n"
			"irqbalance = leave\n";

	nics[0].name = "renamed1";
	nics[0].pci = "0000:65:00.0";
	nics[1].name = "eth0";
	nics[1].pci = "0000:00:03.0";
	host.nics = nics;
	host.nnics = 2;
	assert_int_equal(nn_desired_parse("t", t, strlen(t), &d, why, sizeof(why)), 0);
	assert_int_equal(nn_desired_plan_opts(&d, &host, &o, &missing, &nmissing), 0);
	assert_int_equal(o.nnics, 1);
	assert_string_equal(o.nics[0], "renamed1");	/* found by PCI, not the old name */
	assert_int_equal(nmissing, 1);
	assert_string_equal(missing[0], "0000:99:00.0");
	assert_int_equal(o.irqbalance, NN_IRQB_NONE);
	free(missing);
	nn_plan_opts_free(&o);
	host.nnics = 0;
	assert_int_equal(nn_desired_plan_opts(&d, &host, &o, &missing, &nmissing), -ENOENT);
	assert_int_equal(nmissing, 2);
	free(missing);
	nn_plan_opts_free(&o);
	nn_desired_free(&d);
}

/* The watcher's plan keeps another plan's values: each IRQ and XPS mask
 * the same, a subset fine, one CPU off or one value it does not set not. */
static void test_keeps(void **state)
{
	struct nn_plan_irq di[2] = { { .irq = 40 }, { .irq = 41 } }, pi[1] = { { .irq = 41 } };
	struct nn_plan_xps dx[1] = { { .nic = "eth1", .queue = 0 } }, px[1] = { { .nic = "eth1", .queue = 0 } };
	struct nn_plan_channels pc[1] = { { .nic = "eth1", .current = 4, .target = 2 } };
	struct nn_plan_eth de[2] = { { .nic = "eth1", .setting = NN_ETH_ADAPTIVE_RX, .value = 1 },
				     { .nic = "eth1", .setting = NN_ETH_RING_RX, .value = 1024 } };
	struct nn_plan_eth pe[2] = { { .nic = "eth1", .setting = NN_ETH_ADAPTIVE_RX, .value = 1 },
				     { .nic = "eth1", .setting = NN_ETH_RING_RX, .value = 512 } };
	struct nn_plan d = { .irqs = di, .nirqs = 2, .xps = dx, .nxps = 1 };
	struct nn_plan p = { .irqs = pi, .nirqs = 1, .xps = px, .nxps = 1 };
	struct nn_plan empty = { 0 };

	assert_int_equal(nn_cpuset_parse_list("2", &di[0].cpus), 0);
	assert_int_equal(nn_cpuset_parse_list("3", &di[1].cpus), 0);
	assert_int_equal(nn_cpuset_parse_list("3", &pi[0].cpus), 0);
	assert_int_equal(nn_cpuset_parse_list("2-3", &dx[0].cpus), 0);
	assert_int_equal(nn_cpuset_parse_list("2-3", &px[0].cpus), 0);
	assert_true(nn_desired_keeps(&d, &p));
	assert_false(nn_desired_keeps(&p, &d));		/* IRQ 40 is not in it */
	assert_false(nn_desired_keeps(&d, &empty));	/* nothing to keep */
	nn_cpuset_free(&px[0].cpus);
	assert_int_equal(nn_cpuset_parse_list("3", &px[0].cpus), 0);
	assert_false(nn_desired_keeps(&d, &p));		/* XPS on another CPU */
	nn_cpuset_free(&px[0].cpus);
	assert_int_equal(nn_cpuset_parse_list("2-3", &px[0].cpus), 0);
	p.channels = pc;
	p.nchannels = 1;
	assert_false(nn_desired_keeps(&d, &p));		/* channels it does not set */
	d.channels = pc;
	d.nchannels = 1;
	assert_true(nn_desired_keeps(&d, &p));
	px[0].nic = "eth2";
	assert_false(nn_desired_keeps(&d, &p));		/* another NIC's queue 0 */
	px[0].nic = "eth1";
	assert_true(nn_desired_keeps(&d, &p));
	/* a profile's coalescing and ring sizes: the same value kept, another
	 * value, setting or NIC not, one the watcher does not set not */
	p.eth = pe;
	p.neth = 1;
	assert_false(nn_desired_keeps(&d, &p));
	d.eth = de;
	d.neth = 2;
	assert_true(nn_desired_keeps(&d, &p));
	pe[0].value = 0;
	assert_false(nn_desired_keeps(&d, &p));		/* adaptive-rx 0, the watcher keeps 1 */
	pe[0].value = 1;
	pe[0].setting = NN_ETH_ADAPTIVE_TX;
	assert_false(nn_desired_keeps(&d, &p));		/* a setting it does not set */
	pe[0].setting = NN_ETH_ADAPTIVE_RX;
	pe[0].nic = "eth2";
	assert_false(nn_desired_keeps(&d, &p));		/* another NIC's adaptive-rx */
	pe[0].nic = "eth1";
	assert_true(nn_desired_keeps(&d, &p));
	{
		struct nn_plan only = { .eth = pe, .neth = 1 };

		assert_true(nn_desired_keeps(&d, &only));	/* ethtool values alone are something to keep */
		only.eth = pe + 1;
		assert_false(nn_desired_keeps(&d, &only));	/* rx ring 512, the watcher keeps 1024 */
	}
	{
		/* the busy-poll sysctls: the same value kept, another not */
		struct nn_plan_sysctl ds[1] = { { .which = NN_BUSY_POLL, .value = 50 } };
		struct nn_plan_sysctl ps[1] = { { .which = NN_BUSY_POLL, .value = 50 } };
		struct nn_plan only = { .sysctls = ps, .nsysctls = 1 };

		assert_false(nn_desired_keeps(&d, &only));	/* the watcher sets none */
		d.sysctls = ds;
		d.nsysctls = 1;
		assert_true(nn_desired_keeps(&d, &only));
		ps[0].value = 100;
		assert_false(nn_desired_keeps(&d, &only));
		ps[0].value = 50;
		ps[0].which = NN_BUSY_READ;
		assert_false(nn_desired_keeps(&d, &only));
	}
	nn_cpuset_free(&di[0].cpus);
	nn_cpuset_free(&di[1].cpus);
	nn_cpuset_free(&pi[0].cpus);
	nn_cpuset_free(&dx[0].cpus);
	nn_cpuset_free(&px[0].cpus);
}

static void test_write_read(void **state)
{
	char tmp[PATH_MAX], p[PATH_MAX + 64];
	struct nn_desired d, e;
	struct nn_ctx ctx;
	struct stat st;
	char why[256];

	assert_int_equal(tmptree_make(tmp, sizeof(tmp), "desired"), 0);
	assert_int_equal(nn_ctx_init(&ctx, tmp, false), 0);
	assert_int_equal(nn_desired_read(&ctx, NULL, &e), -ENOENT);
	assert_int_equal(nn_desired_parse("t", good, strlen(good), &d, why, sizeof(why)), 0);
	assert_int_equal(nn_desired_write(&ctx, NULL, &d), 0);
	snprintf(p, sizeof(p), "%s/etc/nicnuma/nicnuma.conf", tmp);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_int_equal(nn_desired_read(&ctx, NULL, &e), 0);
	assert_int_equal(e.nnics, 3);
	assert_int_equal(nn_desired_remove(&ctx, NULL), 0);
	assert_int_equal(stat(p, &st), -1);
	nn_desired_free(&d);
	nn_desired_free(&e);
	nn_ctx_free(&ctx);
	assert_int_equal(tmptree_remove(tmp), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_good),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_rps_napi_keys),
		cmocka_unit_test(test_dpdk_ports),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_plan_opts),
		cmocka_unit_test(test_keeps),
		cmocka_unit_test(test_write_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
