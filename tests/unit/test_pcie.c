// SPDX-License-Identifier: GPL-2.0-or-later
/* test_pcie.c - PCIe link speed spellings, encoding math, verdicts, the
 * narrowest-link rule and the shared-link sum */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <linux/ethtool.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/discover/ethtool.h"
#include "nicnuma/discover/nic.h"
#include "nicnuma/discover/pcie.h"
#include "tmptree.h"

static void speed_spellings(void **state)
{
	static const struct { const char *text; int mts; } ok[] = {
		/* pci_speed_string(), 5.7 and later */
		{ "2.5 GT/s PCIe", 2500 }, { "5.0 GT/s PCIe", 5000 }, { "8.0 GT/s PCIe", 8000 },
		{ "16.0 GT/s PCIe", 16000 }, { "32.0 GT/s PCIe", 32000 }, { "64.0 GT/s PCIe", 64000 },
		{ "Unknown", -1 },
		/* PCIE_SPEED2STR and the switch before it (4.x-5.6) */
		{ "2.5 GT/s", 2500 }, { "5 GT/s", 5000 }, { "5.0 GT/s", 5000 }, { "8 GT/s", 8000 },
		{ "16 GT/s", 16000 }, { "32 GT/s", 32000 }, { "Unknown speed", -1 },
		{ "8.0 GT/s PCIe\n", 8000 },
	};
	static const char *const bad[] = {
		"", "fast", "8.0 GT", "8.0 GT/s PCI-X", "33 MHz PCI", "0 GT/s", "8. GT/s", "GT/s",
		"Unknown AGP", "99999 GT/s",
	};
	size_t i;
	int mts;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		mts = 0;
		assert_int_equal(nn_pcie_parse_speed(ok[i].text, &mts), 0);
		assert_int_equal(mts, ok[i].mts);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		mts = 0;
		assert_int_equal(nn_pcie_parse_speed(bad[i], &mts), -EINVAL);
		assert_int_equal(mts, -1);
	}
}

static void width_spellings(void **state)
{
	int w;

	(void)state;
	assert_int_equal(nn_pcie_parse_width("16", &w), 0);
	assert_int_equal(w, 16);
	assert_int_equal(nn_pcie_parse_width("1\n", &w), 0);
	assert_int_equal(w, 1);
	/* 0: no link trained; 255: the kernel's "unknown width" */
	assert_int_equal(nn_pcie_parse_width("0", &w), 0);
	assert_int_equal(w, -1);
	assert_int_equal(nn_pcie_parse_width("255", &w), 0);
	assert_int_equal(w, -1);
	assert_int_equal(nn_pcie_parse_width("x8", &w), -EINVAL);
	assert_int_equal(nn_pcie_parse_width("", &w), -EINVAL);
	assert_int_equal(nn_pcie_parse_width("256", &w), -EINVAL);
	assert_int_equal(nn_pcie_parse_width("-1", &w), -EINVAL);
}

static void encoding_math(void **state)
{
	(void)state;
	assert_int_equal(nn_pcie_usable_mbps(2500, 1), 2000);		/* 8b/10b */
	assert_int_equal(nn_pcie_usable_mbps(5000, 4), 16000);
	assert_int_equal(nn_pcie_usable_mbps(8000, 8), 63015);		/* 128b/130b */
	assert_int_equal(nn_pcie_usable_mbps(16000, 8), 126030);
	assert_int_equal(nn_pcie_usable_mbps(16000, 16), 252061);
	assert_int_equal(nn_pcie_usable_mbps(32000, 16), 504123);
	assert_int_equal(nn_pcie_usable_mbps(64000, 16), 968000);	/* FLIT 242/256 */
	assert_int_equal(nn_pcie_usable_mbps(-1, 16), -1);
	assert_int_equal(nn_pcie_usable_mbps(8000, -1), -1);
}

static struct nn_pcie_link mk(const char *dev, int cur, int w, int cap, int capw, long ports)
{
	struct nn_pcie_link l;

	memset(&l, 0, sizeof(l));
	snprintf(l.dev, sizeof(l.dev), "%s", dev);
	l.cur_mts = cur;
	l.cur_width = w;
	l.cap_mts = cap;
	l.cap_width = capw;
	l.mbps = nn_pcie_usable_mbps(cur, w);
	l.ports_mbps = ports > 0 ? ports : 0;
	l.ports_unknown = ports > 0 ? 0 : 1;
	return l;
}

static void verdict_ok_and_unknown(void **state)
{
	struct nn_pcie_link l[2];
	struct nn_pcie_verdict v;

	(void)state;
	l[0] = mk("0000:18:00.0", 16000, 16, 16000, 16, 100000);
	nn_pcie_judge(l, 1, &v);
	assert_int_equal(v.state, NN_PCIE_OK);
	assert_string_equal(v.text, "ok");
	assert_int_equal(v.narrowest, 0);

	/* no link files at all */
	l[0] = mk("0000:18:00.0", -1, -1, -1, -1, 100000);
	nn_pcie_judge(l, 1, &v);
	assert_int_equal(v.state, NN_PCIE_LINK_UNKNOWN);
	assert_string_equal(v.text, "link unknown");
	assert_int_equal(v.narrowest, -1);
	nn_pcie_judge(l, 0, &v);
	assert_int_equal(v.state, NN_PCIE_LINK_UNKNOWN);

	/* a link, but no port speed (link down under --root) */
	l[0] = mk("0000:18:00.0", 16000, 16, 16000, 16, -1);
	nn_pcie_judge(l, 1, &v);
	assert_int_equal(v.state, NN_PCIE_PORT_UNKNOWN);
	assert_string_equal(v.text, "port speed unknown");
}

static void verdict_down_trained(void **state)
{
	struct nn_pcie_link l[2];
	struct nn_pcie_verdict v;

	(void)state;
	/* 100G at 8 GT/s x8 of 16 GT/s x16: both causes named, and the shortfall */
	l[0] = mk("0000:18:00.0", 8000, 8, 16000, 16, 100000);
	nn_pcie_judge(l, 1, &v);
	assert_int_equal(v.state, NN_PCIE_BAD);
	assert_int_equal(v.down, 0);
	assert_int_equal(v.short_link, 0);
	assert_string_equal(v.text, "down-trained: 8 GT/s x8 of 16 GT/s x16; "
			    "link carries 63 Gb/s for 100 Gb/s of ports");

	/* width only, still enough for a 25G port: down-trained is still a fault */
	l[0] = mk("0000:18:00.0", 8000, 4, 8000, 8, 25000);
	nn_pcie_judge(l, 1, &v);
	assert_int_equal(v.state, NN_PCIE_BAD);
	assert_int_equal(v.short_link, -1);
	assert_string_equal(v.text, "down-trained: x4 of x8");

	/* speed only */
	l[0] = mk("0000:18:00.0", 2500, 8, 5000, 8, 1000);
	nn_pcie_judge(l, 1, &v);
	assert_string_equal(v.text, "down-trained: 2.5 GT/s of 5 GT/s");

	/* upstream of the NIC: named */
	l[0] = mk("0000:01:00.0", 8000, 4, 8000, 16, 10000);
	l[1] = mk("0000:03:00.0", 8000, 8, 8000, 8, 10000);
	nn_pcie_judge(l, 2, &v);
	assert_int_equal(v.down, 0);
	assert_string_equal(v.text, "down-trained at 0000:01:00.0: x4 of x16");

	/* trained at what both ends can (cap): not down-trained */
	l[0] = mk("0000:18:00.0", 16000, 8, 16000, 8, 100000);
	nn_pcie_judge(l, 1, &v);
	assert_int_equal(v.state, NN_PCIE_OK);
}

/* Two 100G ports on one 16 GT/s x8 link. */
static void verdict_shared_link(void **state)
{
	struct nn_pcie_link l[1];
	struct nn_pcie_verdict v;

	(void)state;
	l[0] = mk("0000:af:00.0", 16000, 8, 16000, 8, 200000);
	nn_pcie_judge(l, 1, &v);
	assert_int_equal(v.state, NN_PCIE_BAD);
	assert_int_equal(v.down, -1);
	assert_string_equal(v.text, "link carries 126 Gb/s for 200 Gb/s of ports");
	/* one port unknown, the other already beyond the link: still bad */
	l[0] = mk("0000:af:00.0", 8000, 8, 8000, 8, 100000);
	l[0].ports_unknown = 1;
	nn_pcie_judge(l, 1, &v);
	assert_int_equal(v.state, NN_PCIE_BAD);
	assert_string_equal(v.text, "link carries 63 Gb/s for 100 Gb/s of ports");
}

/* The narrowest link on the path decides, wherever it is. */
static void verdict_narrowest(void **state)
{
	struct nn_pcie_link l[3];
	struct nn_pcie_verdict v;

	(void)state;
	l[0] = mk("0000:01:00.0", 8000, 8, 8000, 8, 100000);	/* switch upstream */
	l[1] = mk("0000:03:00.0", 16000, 16, 16000, 16, 100000);	/* the NIC */
	nn_pcie_judge(l, 2, &v);
	assert_int_equal(v.narrowest, 0);
	assert_int_equal(v.short_link, 0);
	assert_string_equal(v.text, "link at 0000:01:00.0 carries 63 Gb/s for 100 Gb/s of ports");

	/* narrower upstream, but wide enough: ok, and still the narrowest */
	l[0].ports_mbps = l[1].ports_mbps = 25000;
	nn_pcie_judge(l, 2, &v);
	assert_int_equal(v.state, NN_PCIE_OK);
	assert_int_equal(v.narrowest, 0);

	/* ties go to the link nearest the NIC; unknown links are skipped */
	l[0] = mk("0000:00:01.0", -1, -1, -1, -1, 25000);
	l[1] = mk("0000:01:00.0", 16000, 8, 16000, 8, 25000);
	l[2] = mk("0000:03:00.0", 16000, 8, 16000, 8, 25000);
	nn_pcie_judge(l, 3, &v);
	assert_int_equal(v.narrowest, 2);
	assert_int_equal(v.state, NN_PCIE_OK);
}

static void formats(void **state)
{
	char b[32];

	(void)state;
	nn_pcie_fmt_gts(b, sizeof(b), 2500);
	assert_string_equal(b, "2.5");
	nn_pcie_fmt_gts(b, sizeof(b), 64000);
	assert_string_equal(b, "64");
	nn_pcie_fmt_gbps(b, sizeof(b), 7876);
	assert_string_equal(b, "7.8");		/* rounded down */
	nn_pcie_fmt_gbps(b, sizeof(b), 126030);
	assert_string_equal(b, "126");
}

/* A port with its link down is judged by its fastest supported mode. */
static void link_mode_speeds(void **state)
{
	(void)state;
	assert_int_equal(nn_link_mode_mbps(ETHTOOL_LINK_MODE_100000baseCR4_Full_BIT), 100000);
	assert_int_equal(nn_link_mode_mbps(ETHTOOL_LINK_MODE_25000baseSR_Full_BIT), 25000);
	assert_int_equal(nn_link_mode_mbps(ETHTOOL_LINK_MODE_400000baseCR4_Full_BIT), 400000);
	assert_int_equal(nn_link_mode_mbps(ETHTOOL_LINK_MODE_2500baseT_Full_BIT), 2500);
	assert_int_equal(nn_link_mode_mbps(ETHTOOL_LINK_MODE_Autoneg_BIT), -1);
	assert_int_equal(nn_link_mode_mbps(ETHTOOL_LINK_MODE_FEC_RS_BIT), -1);
	assert_int_equal(nn_link_mode_mbps(4000), -1);
}

/* ---- reading a tree: pairing along the path, caps, the shared sum */

static char tmp[PATH_MAX];

static void put(const char *rel, const char *content)
{
	assert_int_equal(tmptree_put(tmp, rel, content), 0);
}

static void link_files(const char *dev, const char *cur, const char *w, const char *max,
		       const char *maxw)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/current_link_speed", dev);
	put(p, cur);
	snprintf(p, sizeof(p), "%s/current_link_width", dev);
	put(p, w);
	snprintf(p, sizeof(p), "%s/max_link_speed", dev);
	put(p, max);
	snprintf(p, sizeof(p), "%s/max_link_width", dev);
	put(p, maxw);
}

static int setup(void **state)
{
	(void)state;
	return tmptree_make(tmp, sizeof(tmp), "pcie");
}

static int teardown(void **state)
{
	(void)state;
	return tmptree_remove(tmp);
}

#define RP "sys/devices/pci0000:00/0000:00:01.0"
#define SWU RP "/0000:01:00.0"
#define SWD SWU "/0000:02:08.0"

/* root port - switch (x8 upstream, x16 downstream) - dual-port NIC + a VF,
 * and a second NIC on another root port. */
static void read_and_assess(void **state)
{
	struct nn_nic nics[4];
	struct nn_ctx ctx;
	struct nn_pcie *p;
	size_t i;

	(void)state;
	link_files(RP, "8.0 GT/s PCIe\n", "8\n", "16.0 GT/s PCIe\n", "16\n");
	link_files(SWU, "8.0 GT/s PCIe\n", "8\n", "8.0 GT/s PCIe\n", "8\n");
	link_files(SWD, "16.0 GT/s PCIe\n", "16\n", "16.0 GT/s PCIe\n", "16\n");
	link_files(SWD "/0000:03:00.0", "16.0 GT/s PCIe\n", "16\n", "16.0 GT/s PCIe\n", "16\n");
	link_files(SWD "/0000:03:00.1", "16.0 GT/s PCIe\n", "16\n", "16.0 GT/s PCIe\n", "16\n");
	put(SWD "/0000:03:00.2/physfn", "");	/* a VF: a file stands in for the link */
	/* a card that could do x16 in an x8 slot, an old kernel's spelling */
	link_files("sys/devices/pci0000:80/0000:80:02.0", "8 GT/s\n", "8\n", "8 GT/s\n", "8\n");
	link_files("sys/devices/pci0000:80/0000:80:02.0/0000:81:00.0", "8 GT/s\n", "8\n", "8 GT/s\n", "16\n");
	assert_int_equal(nn_ctx_init(&ctx, tmp, false), 0);

	memset(nics, 0, sizeof(nics));
	nics[0].name = (char *)"a0";
	nics[1].name = (char *)"a1";
	nics[2].name = (char *)"a2v";
	nics[3].name = (char *)"b0";
	assert_int_equal(nn_pcie_read(&ctx, "/" SWD "/0000:03:00.0", &nics[0].pcie), 0);
	assert_int_equal(nn_pcie_read(&ctx, "/" SWD "/0000:03:00.1", &nics[1].pcie), 0);
	assert_int_equal(nn_pcie_read(&ctx, "/" SWD "/0000:03:00.2", &nics[2].pcie), 0);
	assert_int_equal(nn_pcie_read(&ctx, "/sys/devices/pci0000:80/0000:80:02.0/0000:81:00.0",
				      &nics[3].pcie), 0);
	assert_int_equal(nn_pcie_read(&ctx, "/sys/devices/pci0000:00", &p), -ENODEV);
	assert_int_equal(ctx.nwarns, 0);
	nics[0].speed_mbps = nics[1].speed_mbps = nics[2].speed_mbps = 25000;
	nics[3].speed_mbps = 40000;

	p = nics[0].pcie;
	assert_false(p->is_vf);
	assert_true(nics[2].pcie->is_vf);
	/* (root port, switch up), (switch down, NIC) */
	assert_int_equal(p->nlinks, 2);
	assert_string_equal(p->links[0].dev, "0000:01:00.0");
	assert_string_equal(p->links[0].port, "0000:00:01.0");
	assert_int_equal(p->links[0].cap_width, 8);	/* the switch's x8 caps the root port's x16 */
	assert_string_equal(p->links[1].dev, "0000:03:00.0");
	assert_string_equal(p->links[1].port, "0000:02:08.0");
	assert_int_equal(p->fn_max_mts, 16000);

	assert_int_equal(nn_pcie_assess(nics, 4), 0);
	/* the NIC's own link carries both ports, not the VF */
	assert_int_equal(p->links[1].ports_mbps, 50000);
	assert_int_equal(p->nshared, 2);
	assert_string_equal(p->shared[0], "a0");
	assert_string_equal(p->shared[1], "a1");
	assert_int_equal(p->port_mbps, 25000);
	/* the x8 upstream link is the narrowest: 63 Gb/s for 50 is enough */
	assert_int_equal(p->v.narrowest, 0);
	assert_int_equal(p->v.state, NN_PCIE_OK);

	/* x16 card in an x8 slot: not down-trained, 63 Gb/s for 40: ok */
	assert_int_equal(nics[3].pcie->nlinks, 1);
	assert_int_equal(nics[3].pcie->links[0].cap_width, 8);
	assert_int_equal(nics[3].pcie->v.state, NN_PCIE_OK);
	assert_int_equal(nics[3].pcie->links[0].ports_mbps, 40000);

	/* faster ports: the switch's upstream link is short */
	for (i = 0; i < 4; i++)
		nics[i].pcie->port_mbps = 100000;
	assert_int_equal(nn_pcie_assess(nics, 4), 0);	/* again: starts afresh */
	assert_int_equal(p->nshared, 2);
	assert_int_equal(p->v.state, NN_PCIE_BAD);
	assert_string_equal(p->v.text, "link at 0000:01:00.0 carries 63 Gb/s for 200 Gb/s of ports");
	assert_string_equal(nics[3].pcie->v.text, "link carries 63 Gb/s for 100 Gb/s of ports");

	for (i = 0; i < 4; i++)
		nn_pcie_free(nics[i].pcie);
	nn_ctx_free(&ctx);
}

/* No link files: unknown, no warning; garbage: a warning naming the file. */
static void read_unknown_and_malformed(void **state)
{
	struct nn_ctx ctx;
	struct nn_pcie *p;

	(void)state;
	put("sys/devices/pci0000:00/0000:00:02.0/0000:05:00.0/vendor", "0x8086\n");
	link_files("sys/devices/pci0000:00/0000:00:03.0/0000:06:00.0", "fast\n", "8\n",
		   "Unknown\n", "255\n");
	assert_int_equal(nn_ctx_init(&ctx, tmp, false), 0);
	assert_int_equal(nn_pcie_read(&ctx, "/sys/devices/pci0000:00/0000:00:02.0/0000:05:00.0", &p), 0);
	assert_int_equal(ctx.nwarns, 0);
	assert_int_equal(p->links[0].mbps, -1);
	nn_pcie_judge(p->links, p->nlinks, &p->v);
	assert_string_equal(p->v.text, "link unknown");
	nn_pcie_free(p);

	assert_int_equal(nn_pcie_read(&ctx, "/sys/devices/pci0000:00/0000:00:03.0/0000:06:00.0", &p), 0);
	assert_int_equal(ctx.nwarns, 1);
	assert_contains(ctx.warns[0].file, "0000:06:00.0/current_link_speed");
	assert_int_equal(p->fn_cur_mts, -1);
	assert_int_equal(p->fn_cur_width, 8);
	assert_int_equal(p->fn_max_width, -1);
	nn_pcie_free(p);
	nn_ctx_free(&ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(speed_spellings),
		cmocka_unit_test(width_spellings),
		cmocka_unit_test(encoding_math),
		cmocka_unit_test(verdict_ok_and_unknown),
		cmocka_unit_test(verdict_down_trained),
		cmocka_unit_test(verdict_shared_link),
		cmocka_unit_test(verdict_narrowest),
		cmocka_unit_test(formats),
		cmocka_unit_test(link_mode_speeds),
		cmocka_unit_test_setup_teardown(read_and_assess, setup, teardown),
		cmocka_unit_test_setup_teardown(read_unknown_and_malformed, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
