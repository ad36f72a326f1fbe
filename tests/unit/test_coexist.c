// SPDX-License-Identifier: GPL-2.0-or-later
/* test_coexist.c - other owners of IRQ placement: tuned sections and
 * include=, .link Match subset and systemd's first-match rule, irqbalance
 * ban lists and policyscripts, the watcher lock; pure scanners and a fake tree */
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

#include "nicnuma/discover/coexist.h"
#include "nicnuma/service/watch.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/discover/host.h"
#include "tmptree.h"

static void test_tuned_scan(void **state)
{
	char inc[128];
	const char *t = "[main]\nsummary=x\ninclude = network-latency\n[cpu]\nforce_latency=1\n"
			"[irqbalance]\nbanned_cpus=1\n[scheduler]\nisolated_cores=2\n";

	assert_int_equal(nn_tuned_conf_scan(t, strlen(t), inc, sizeof(inc)),
			 NN_TUNED_IRQBALANCE | NN_TUNED_SCHEDULER);
	assert_string_equal(inc, "network-latency");
	t = "[main]\n[sysctl]\nnet.core.busy_read=50\n# [irq]\n";
	assert_int_equal(nn_tuned_conf_scan(t, strlen(t), inc, sizeof(inc)), 0);
	assert_string_equal(inc, "");
	/* the kernel's command line: an owner where nicnuma writes boot arguments */
	t = "[main]\n[bootloader]\ncmdline=isolcpus=${isolated_cores}\n";
	assert_int_equal(nn_tuned_conf_scan(t, strlen(t), inc, sizeof(inc)), NN_TUNED_BOOTLOADER);
}

static void test_link_scan(void **state)
{
	struct nn_link_nic nic = { "eth1", "52:54:00:aa:bb:cc", "pci-0000:65:00.0", "mlx5_core" };
	char keys[128];
	bool m;
	const char *t = "[Match]\nOriginalName=eth* en*\nDriver=mlx5_core\n"
			"[Link]\nIRQAffinityPolicy=spread\nReceivePacketSteeringCPUMask=0-3\n";

	assert_int_equal(nn_link_file_scan(t, strlen(t), &nic, &m, keys, sizeof(keys)), 0);
	assert_true(m);
	assert_string_equal(keys, "IRQAffinityPolicy=,ReceivePacketSteeringCPUMask=");
	t = "[Match]\nMACAddress=52:54:00:AA:BB:CC\n[Link]\nName=x\n";
	assert_int_equal(nn_link_file_scan(t, strlen(t), &nic, &m, keys, sizeof(keys)), 0);
	assert_true(m);
	assert_string_equal(keys, "");
	t = "[Match]\nPath=pci-0000:66:*\n[Link]\nIRQAffinity=1\n";
	assert_int_equal(nn_link_file_scan(t, strlen(t), &nic, &m, keys, sizeof(keys)), 0);
	assert_false(m);
	t = "[Match]\nDriver=!virtio_net\n[Link]\nIRQAffinity=1\n";
	assert_int_equal(nn_link_file_scan(t, strlen(t), &nic, &m, keys, sizeof(keys)), 0);
	assert_true(m);
	t = "[Link]\nIRQAffinity=1\n";
	assert_int_equal(nn_link_file_scan(t, strlen(t), &nic, &m, keys, sizeof(keys)), -ENOENT);
	assert_false(m);
}

static void test_irqb_scan(void **state)
{
	char what[256];
	const char *t;

	t = "#IRQBALANCE_BANNED_CPUS=\nIRQBALANCE_ONESHOT=\nIRQBALANCE_ARGS=\"\"\n";
	assert_int_equal(nn_irqb_conf_scan(t, strlen(t), what, sizeof(what)), 0);
	t = "IRQBALANCE_BANNED_CPULIST=\"2-3\"\n";
	assert_int_equal(nn_irqb_conf_scan(t, strlen(t), what, sizeof(what)), 1);
	assert_string_equal(what, "sets IRQBALANCE_BANNED_CPULIST=2-3");
	t = "IRQBALANCE_ARGS=\"--policyscript=/usr/local/bin/pol.sh\"\n";
	assert_int_equal(nn_irqb_conf_scan(t, strlen(t), what, sizeof(what)), 1);
	assert_string_equal(what, "runs policyscript /usr/local/bin/pol.sh");
	t = "OPTIONS='--banirq=42'\n";
	assert_int_equal(nn_irqb_conf_scan(t, strlen(t), what, sizeof(what)), 1);
	assert_int_equal(nn_irqb_args_scan("/usr/sbin/irqbalance --foreground "
					   "--policyscript=/var/lib/nicnuma/irqbalance-ban.sh",
					   what, sizeof(what)), 0);
	assert_int_equal(nn_irqb_args_scan("irqbalance -l /x.sh", what, sizeof(what)), 1);
}

static char tmp[PATH_MAX];

static void put(const char *rel, const char *content)
{
	assert_int_equal(tmptree_put(tmp, rel, content), 0);
}

static void test_scan_tree(void **state)
{
	struct nn_nic nics[1] = { { 0 } };
	struct nn_host host = { 0 };
	struct nn_coexist c;
	struct nn_ctx ctx;
	char *s;
	int fd, holder;

	nics[0].name = "eth1";
	nics[0].pci = "0000:65:00.0";
	nics[0].driver = "ice";
	host.nics = nics;
	host.nnics = 1;
	assert_int_equal(tmptree_make(tmp, sizeof(tmp), "coexist"), 0);
	assert_int_equal(nn_ctx_init(&ctx, tmp, false), 0);
	assert_int_equal(nn_coexist_scan(&ctx, &host, NULL, 0, 0, &c), 0);
	assert_int_equal(c.n, 0);

	put("etc/tuned/active_profile", "my-prof\n");
	put("etc/tuned/my-prof/tuned.conf", "[main]\ninclude=network-latency\n");
	put("usr/lib/tuned/network-latency/tuned.conf", "[main]\n[irqbalance]\nbanned_cpus=0\n");
	/* 10-a.link in /etc masks /usr/lib's and matches first: no IRQ keys */
	put("usr/lib/systemd/network/10-a.link", "[Match]\nOriginalName=*\n[Link]\nIRQAffinity=1\n");
	put("etc/systemd/network/10-a.link", "[Match]\nDriver=virtio_net\n[Link]\nIRQAffinity=1\n");
	put("usr/lib/systemd/network/20-b.link",
	    "[Match]\nPath=pci-0000:65:*\n[Link]\nIRQAffinityPolicy=single\n");
	put("usr/lib/systemd/network/30-c.link", "[Match]\nOriginalName=*\n[Link]\nIRQAffinity=2\n");
	put("etc/default/irqbalance", "IRQBALANCE_BANNED_CPUS=f\n");
	assert_int_equal(nn_coexist_scan(&ctx, &host, NULL, 0, 0, &c), 0);
	assert_int_equal(c.n, 3);
	assert_int_equal(nn_owner_text(&c.v[0], &s), 0);
	assert_string_equal(s, "tuned profile 'my-prof' (/usr/lib/tuned/network-latency/tuned.conf) "
			       "sets [irqbalance]");
	free(s);
	assert_int_equal(c.v[1].kind, NN_OWNER_LINK);
	assert_string_equal(c.v[1].file, "/usr/lib/systemd/network/20-b.link");
	assert_string_equal(c.v[1].what, "sets IRQAffinityPolicy=");
	assert_int_equal(c.v[2].kind, NN_OWNER_IRQBALANCE);
	nn_coexist_free(&c);

	/* cpu-partitioning by name, and a watcher holding the lock */
	put("etc/tuned/active_profile", "cpu-partitioning\n");
	fd = nn_watch_lock(&ctx, &holder);
	assert_true(fd >= 0);
	assert_int_equal(nn_watch_lock(&ctx, &holder), -EBUSY);
	assert_int_equal(holder, getpid());
	assert_int_equal(nn_coexist_scan(&ctx, &host, NULL, 0, 0, &c), 0);
	assert_int_equal(c.n, 4);
	assert_string_equal(c.v[0].what, "is cpu-partitioning");
	assert_int_equal(c.v[3].kind, NN_OWNER_WATCHER);
	nn_coexist_free(&c);
	assert_int_equal(nn_coexist_scan(&ctx, &host, NULL, 0, NN_COEXIST_NO_WATCHER, &c), 0);
	assert_int_equal(c.n, 3);
	nn_coexist_free(&c);
	close(fd);
	assert_int_equal(nn_watch_lock_held(&ctx, &holder), 0);
	nn_ctx_free(&ctx);
	assert_int_equal(tmptree_remove(tmp), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tuned_scan),
		cmocka_unit_test(test_link_scan),
		cmocka_unit_test(test_irqb_scan),
		cmocka_unit_test(test_scan_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
