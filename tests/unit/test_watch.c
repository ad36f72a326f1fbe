// SPDX-License-Identifier: GPL-2.0-or-later
/* test_watch.c - the watcher's pure parts: kernel uevent datagrams, and the
 * settle/coalesce/cap decisions under storms of link flaps */
#include <errno.h>
#include <linux/if.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "nicnuma/discover/uevent.h"
#include "nicnuma/plan/watch_decide.h"

#define UEV(s) s, sizeof(s)	/* with the final NUL, as the kernel sends */

static void test_uevent(void **state)
{
	struct nn_uevent ev;

	assert_int_equal(nn_uevent_parse(UEV("add@/devices/pci0000:00/0000:00:03.0/virtio2/net/eth1\0"
					     "ACTION=add\0DEVPATH=/devices/pci0000:00/0000:00:03.0/"
					     "virtio2/net/eth1\0SUBSYSTEM=net\0INTERFACE=eth1\0"
					     "IFINDEX=3\0SEQNUM=1\0"), &ev), 0);
	assert_string_equal(ev.action, "add");
	assert_string_equal(ev.subsystem, "net");
	assert_string_equal(ev.ifname, "eth1");
	assert_string_equal(ev.pci, "0000:00:03.0");

	assert_int_equal(nn_uevent_parse(UEV("unbind@/devices/pci0000:64/0000:64:00.0/0000:65:00.1\0"
					     "ACTION=unbind\0SUBSYSTEM=pci\0PCI_SLOT_NAME=0000:65:00.1\0"), &ev), 0);
	assert_string_equal(ev.action, "unbind");
	assert_string_equal(ev.pci, "0000:65:00.1");
	assert_string_equal(ev.ifname, "");

	/* ethtool -L: the new queue's kobject names its interface */
	assert_int_equal(nn_uevent_parse(UEV("add@/devices/pci0000:64/0000:65:00.0/net/ens1/queues/rx-7\0"
					     "SUBSYSTEM=queues\0"), &ev), 0);
	assert_string_equal(ev.subsystem, "queues");
	assert_string_equal(ev.ifname, "ens1");
	assert_string_equal(ev.pci, "0000:65:00.0");

	/* a virtual device: no PCI address */
	assert_int_equal(nn_uevent_parse(UEV("add@/devices/virtual/net/a\0SUBSYSTEM=net\0INTERFACE=a\0"), &ev), 0);
	assert_string_equal(ev.pci, "");

	assert_int_equal(nn_uevent_parse(UEV("libudev\0\xfe\xed\xca\xfe"), &ev), -EINVAL);
	assert_int_equal(nn_uevent_parse(UEV("no-at-sign\0"), &ev), -EINVAL);
	assert_int_equal(nn_uevent_parse("add@/x", 6, &ev), -EINVAL);	/* no NUL */
	assert_int_equal(nn_uevent_parse(UEV("averyveryverylongaction@/x\0"), &ev), -EINVAL);
	/* an unterminated last field and a bad interface name are ignored */
	assert_int_equal(nn_uevent_parse("add@/x\0INTERFACE=a/b\0SUBSYSTEM=n", 32, &ev), 0);
	assert_string_equal(ev.ifname, "");
	assert_null(ev.subsystem);
}

static struct nn_wev link(int ifindex, const char *name, unsigned int flags)
{
	struct nn_wev ev = { .type = NN_WEV_LINK, .ifindex = ifindex, .flags = flags };

	snprintf(ev.ifname, sizeof(ev.ifname), "%s", name);
	return ev;
}

/* Runs the loop's decision part on a timeline: returns the number of runs. */
static unsigned long drive(struct nn_wd *wd, uint64_t *t, uint64_t until)
{
	unsigned long n0 = wd->runs;

	for (; *t <= until; (*t)++)
		if (nn_wd_due(wd, *t))
			nn_wd_ran(wd, *t);
	return wd->runs - n0;
}

static void setup_wd(struct nn_wd *wd)
{
	char *pcis[] = { "0000:65:00.0" }, *names[] = { "eth1" };
	struct nn_wev ev = link(5, "eth1", IFF_UP | IFF_LOWER_UP);

	nn_wd_init(wd, 300);
	assert_int_equal(nn_wd_set_targets(wd, pcis, 1, names, 1), 0);
	/* the first sight of a link is relevant (new); then it is known */
	assert_int_equal(nn_wd_event(wd, &ev, 0), 1);
	nn_wd_ran(wd, 0);
}

static void test_flap_storm(void **state)
{
	struct nn_wd wd;
	uint64_t t = 2000;
	int i;

	setup_wd(&wd);
	/* 100 flaps 10 ms apart: one run, 300 ms after the last */
	for (i = 0; i < 100; i++) {
		struct nn_wev dn = link(5, "eth1", IFF_UP), up = link(5, "eth1", IFF_UP | IFF_LOWER_UP);

		assert_int_equal(nn_wd_event(&wd, &dn, t), 0);	/* carrier lost: nothing */
		drive(&wd, &t, t + 5);
		assert_int_equal(nn_wd_event(&wd, &up, t), 1);
		assert_int_equal(drive(&wd, &t, t + 4), 0);
	}
	assert_int_equal(wd.npending, 100);
	assert_string_equal(wd.trigger, "link up on eth1");
	assert_int_equal(drive(&wd, &t, t + 10000), 1);
	nn_wd_free(&wd);
}

static void test_storm_capped(void **state)
{
	struct nn_wd wd;
	uint64_t t = 2000;
	unsigned long runs = 0;
	int i;

	/* flaps every 400 ms (longer than settle) for 40 s: the 1 s gap caps it */
	setup_wd(&wd);
	for (i = 0; i < 100; i++) {
		struct nn_wev dn = link(5, "eth1", 0), up = link(5, "eth1", IFF_UP | IFF_LOWER_UP);

		nn_wd_event(&wd, &dn, t);
		nn_wd_event(&wd, &up, t);
		runs += drive(&wd, &t, t + 399);
	}
	runs += drive(&wd, &t, t + 10000);
	assert_true(runs <= 41);
	assert_true(runs >= 20);
	nn_wd_free(&wd);

	/* a flap every 100 ms, never settling: max_wait still runs it every 5 s */
	setup_wd(&wd);
	runs = 0;
	for (i = 0; i < 200; i++) {
		struct nn_wev dn = link(5, "eth1", 0), up = link(5, "eth1", IFF_UP | IFF_LOWER_UP);

		nn_wd_event(&wd, &dn, t);
		nn_wd_event(&wd, &up, t);
		runs += drive(&wd, &t, t + 99);
	}
	assert_true(runs >= 3 && runs <= 5);
	nn_wd_free(&wd);
}

static void test_relevance(void **state)
{
	struct nn_wd wd;
	struct nn_wev ev = link(9, "veth0", IFF_UP);
	struct nn_wev ue = { .type = NN_WEV_UEVENT };

	setup_wd(&wd);
	assert_int_equal(nn_wd_event(&wd, &ev, 10), 1);	/* new link: maybe a NIC back */
	nn_wd_ran(&wd, 10);
	ev.flags = IFF_UP | IFF_LOWER_UP;
	assert_int_equal(nn_wd_event(&wd, &ev, 20), 0);	/* not a desired NIC */
	snprintf(ue.action, sizeof(ue.action), "bind");
	snprintf(ue.subsystem, sizeof(ue.subsystem), "pci");
	snprintf(ue.pci, sizeof(ue.pci), "0000:65:00.0");
	assert_int_equal(nn_wd_event(&wd, &ue, 30), 1);
	assert_string_equal(wd.trigger, "pci bind 0000:65:00.0");
	nn_wd_ran(&wd, 400);
	snprintf(ue.pci, sizeof(ue.pci), "0000:66:00.0");
	assert_int_equal(nn_wd_event(&wd, &ue, 500), 0);
	snprintf(ue.subsystem, sizeof(ue.subsystem), "usb");
	snprintf(ue.pci, sizeof(ue.pci), "0000:65:00.0");
	assert_int_equal(nn_wd_event(&wd, &ue, 500), 0);
	ev = (struct nn_wev){ .type = NN_WEV_LINK_DEL, .ifindex = 5 };
	snprintf(ev.ifname, sizeof(ev.ifname), "eth1");
	assert_int_equal(nn_wd_event(&wd, &ev, 600), 1);
	assert_int_equal(wd.nlinks, 1);
	/* the gap: not before 400 + 1000 */
	assert_false(nn_wd_due(&wd, 1399));
	assert_true(nn_wd_due(&wd, 1400));
	nn_wd_free(&wd);
}

/* A cgroup event storm (a partition flapped every 50 ms, a mkdir loop)
 * starts at most one claims check per gap; the first of a quiet spell runs
 * at once, the last one of a burst is never dropped (trailing edge). */
static void test_cgroup_gate(void **state)
{
	struct nn_wd_gate g;
	uint64_t t, checks = 0;

	(void)state;
	nn_wd_gate_init(&g, NN_WD_CGROUP_GAP_MS);
	assert_int_equal(nn_wd_gate_deadline(&g), 0);
	assert_false(nn_wd_gate_take(&g, 1000));	/* nothing pending */
	nn_wd_gate_event(&g, 1000);
	assert_true(nn_wd_gate_take(&g, 1000));		/* leading edge: at once */
	nn_wd_gate_event(&g, 1010);
	assert_false(nn_wd_gate_take(&g, 1010));
	assert_int_equal(nn_wd_gate_deadline(&g), 1250);
	assert_false(nn_wd_gate_take(&g, 1249));
	assert_true(nn_wd_gate_take(&g, 1250));		/* trailing edge */
	assert_int_equal(nn_wd_gate_deadline(&g), 0);
	/* 10 s of events every 50 ms, the loop waking on each event and at
	 * each deadline: at most 10000 / 250 + 1 checks */
	for (t = 2000; t < 12000; t++) {
		if (t % 50 == 0)
			nn_wd_gate_event(&g, t);
		if ((t % 50 == 0 || t == nn_wd_gate_deadline(&g)) && nn_wd_gate_take(&g, t))
			checks++;
	}
	assert_true(checks <= 10000 / NN_WD_CGROUP_GAP_MS + 1);
	assert_true(checks >= 10000 / NN_WD_CGROUP_GAP_MS - 1);
	/* the burst's last event is checked after the storm ends */
	assert_true(nn_wd_gate_deadline(&g) == 0 || nn_wd_gate_take(&g, nn_wd_gate_deadline(&g)));
	assert_int_equal(nn_wd_gate_deadline(&g), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uevent),
		cmocka_unit_test(test_flap_storm),
		cmocka_unit_test(test_storm_capped),
		cmocka_unit_test(test_relevance),
		cmocka_unit_test(test_cgroup_gate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
