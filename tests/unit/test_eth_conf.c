// SPDX-License-Identifier: GPL-2.0-or-later
/* test_eth_conf.c - coalescing and ring sizes (discover/ethtool_nl.c): the
 * settings' names and keys, a capture's saved answer, and the undo kinds
 * "coalesce" and "rings" refusing anything foreign */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicnuma/act/change_kinds.h"
#include "nicnuma/discover/ethtool_nl.h"

static void test_keys(void **state)
{
	enum nn_eth_setting s;
	char buf[48], nic[16];

	(void)state;
	for (unsigned int i = 0; i < NN_ETH_NSET; i++) {
		nn_eth_key(buf, sizeof(buf), "eth0", (enum nn_eth_setting)i);
		assert_int_equal(nn_eth_parse_key(buf, nic, sizeof(nic), &s), 0);
		assert_int_equal(s, i);
		assert_string_equal(nic, "eth0");
	}
	assert_true(nn_eth_setting_is_ring(NN_ETH_RING_RX));
	assert_false(nn_eth_setting_is_ring(NN_ETH_ADAPTIVE_RX));
	assert_int_equal(nn_eth_setting_max(NN_ETH_ADAPTIVE_TX), 1);
	static const char *const bad[] = {
		"eth0", "eth0/", "/rx", "../rx", "eth0/rx/x", "eth0/rx-usec", "averyveryverylongname/rx",
		"et h0/rx", "eth0/RX", "",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(nn_eth_parse_key(bad[i], nic, sizeof(nic), &s), -EINVAL);
	assert_int_equal(nn_eth_parse_key(NULL, nic, sizeof(nic), &s), -EINVAL);
}

static void test_capture(void **state)
{
	static const char ok[] = "rx-usecs 8\nadaptive-rx 1\nrx 256\ntx 256\nrx-max 4096\ntx-max 4096\n"
				 "some-future-setting 3\n\n";
	static const char virtio[] = "rx-usecs 0\ntx-usecs 0\nrings unsupported\n";
	static const char *const bad[] = {
		"rx-usecs -1\n", "rx-usecs 4294967296\n", "adaptive-rx 2\n", "rx-usecs\n", "rx-usecs 8x\n",
		"a-setting-name-longer-than-any-kernel-has 1\n", "bogus unsupported\n", " 1\n",
	};
	struct nn_eth_conf c;

	(void)state;
	assert_int_equal(nn_eth_conf_parse(ok, strlen(ok), &c), 0);
	assert_int_equal(c.v[NN_ETH_RX_USECS], 8);
	assert_int_equal(c.v[NN_ETH_ADAPTIVE_RX], 1);
	assert_int_equal(c.v[NN_ETH_TX_USECS], -1);	/* not saved: unknown, not 0 */
	assert_int_equal(c.v[NN_ETH_RING_RX], 256);
	assert_int_equal(c.rx_max, 4096);
	assert_int_equal(c.coalesce_err, 0);
	assert_int_equal(c.rings_err, 0);
	assert_int_equal(nn_eth_conf_parse(virtio, strlen(virtio), &c), 0);
	assert_int_equal(c.rings_err, -EOPNOTSUPP);
	assert_int_equal(c.v[NN_ETH_RING_RX], -1);
	assert_int_equal(c.rx_max, -1);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (nn_eth_conf_parse(bad[i], strlen(bad[i]), &c) != -EINVAL)
			fail_msg("bad capture %zu accepted", i);
}

static void test_undo_kinds(void **state)
{
#define HEAD "{\"version\":1,\"host\":{\"nics\":[\"eth0\"]},\"changes\":["
	static const char *const good[] = {
		HEAD "{\"kind\":\"coalesce\",\"path\":\"eth0/rx-usecs\",\"before\":\"8\",\"after\":\"0\"}]}",
		HEAD "{\"kind\":\"coalesce\",\"path\":\"eth0/adaptive-rx\",\"before\":\"1\"}]}",
		HEAD "{\"kind\":\"rings\",\"path\":\"eth0/rx\",\"before\":\"256\",\"after\":\"4096\"}]}",
	};
	static const char *const bad[] = {
		/* a NIC the log's host does not name */
		HEAD "{\"kind\":\"coalesce\",\"path\":\"eth1/rx-usecs\",\"before\":\"8\"}]}",
		/* a ring through coalesce, a coalescing value through rings */
		HEAD "{\"kind\":\"coalesce\",\"path\":\"eth0/rx\",\"before\":\"8\"}]}",
		HEAD "{\"kind\":\"rings\",\"path\":\"eth0/rx-usecs\",\"before\":\"8\"}]}",
		/* out of range or not a decimal */
		HEAD "{\"kind\":\"coalesce\",\"path\":\"eth0/adaptive-rx\",\"before\":\"2\"}]}",
		HEAD "{\"kind\":\"rings\",\"path\":\"eth0/rx\",\"before\":\"4294967296\"}]}",
		HEAD "{\"kind\":\"rings\",\"path\":\"eth0/rx\",\"before\":\"-1\"}]}",
		HEAD "{\"kind\":\"rings\",\"path\":\"eth0/rx\",\"before\":\"0x10\"}]}",
		HEAD "{\"kind\":\"rings\",\"path\":\"eth0/rx\"}]}",
		/* a file path */
		HEAD "{\"kind\":\"rings\",\"path\":\"/sys/class/net/eth0/mtu\",\"before\":\"1\"}]}",
		HEAD "{\"kind\":\"coalesce\",\"path\":\"../eth0/rx-usecs\",\"before\":\"1\"}]}",
	};
#undef HEAD
	struct nn_undo u;
	char why[256];

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		memset(&u, 0, sizeof(u));
		if (nn_undo_parse(good[i], strlen(good[i]), nn_change_kinds, &u, why, sizeof(why)))
			fail_msg("good log %zu refused: %s", i, why);
		nn_undo_free(&u);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&u, 0, sizeof(u));
		if (!nn_undo_parse(bad[i], strlen(bad[i]), nn_change_kinds, &u, why, sizeof(why)))
			fail_msg("bad log %zu accepted", i);
		nn_undo_free(&u);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_capture),
		cmocka_unit_test(test_undo_kinds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
