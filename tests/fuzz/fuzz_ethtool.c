// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_ethtool.c - the two parsers of a NIC's coalescing and ring sizes
 * (discover/ethtool_nl.c): the capture's saved text (nn_eth_conf_parse) and
 * the ethtool netlink answer (nn_eth_nl_parse). The first byte picks one:
 * 0 text, 1 a coalesce-get answer, 2 a rings-get answer (family id 0x14,
 * as the seeds are written), the rest is the input. Whatever it says, every
 * value kept is -1 or within what the setting takes, the half not asked
 * about stays unknown, and the errors are the documented ones. */
#include <errno.h>
#include <stdint.h>

#include "fuzz.h"
#include "nicnuma/discover/ethtool_nl.h"

#define SEED_FAMILY 0x14

static void unknown(struct nn_eth_conf *c)
{
	unsigned int i;

	for (i = 0; i < NN_ETH_NSET; i++)
		c->v[i] = -1;
	c->rx_max = c->tx_max = -1;
	c->coalesce_err = c->rings_err = -ENODATA;
}

static void check_values(const struct nn_eth_conf *c)
{
	unsigned int i;

	for (i = 0; i < NN_ETH_NSET; i++)
		FUZZ_ASSERT(c->v[i] >= -1 && c->v[i] <= nn_eth_setting_max((enum nn_eth_setting)i));
	FUZZ_ASSERT(c->rx_max >= -1 && c->rx_max <= UINT32_MAX);
	FUZZ_ASSERT(c->tx_max >= -1 && c->tx_max <= UINT32_MAX);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nn_eth_conf c;
	unsigned int i;
	void *buf;
	int r;

	if (!size)
		return 0;
	/* Netlink messages are read in place: give them a malloc'd buffer's
	 * alignment, as a recvfrom buffer has. */
	buf = malloc(size);
	if (!buf)
		abort();
	memcpy(buf, data + 1, size - 1);
	unknown(&c);
	switch (data[0] % 3) {
	case 0:
		r = nn_eth_conf_parse(buf, size - 1, &c);
		FUZZ_ASSERT(r == 0 || r == -EINVAL);
		if (r)
			break;
		check_values(&c);
		FUZZ_ASSERT(c.coalesce_err == 0 || c.coalesce_err == -ENODATA || c.coalesce_err == -EOPNOTSUPP);
		FUZZ_ASSERT(c.rings_err == 0 || c.rings_err == -ENODATA || c.rings_err == -EOPNOTSUPP);
		/* a half is known once one of its values was read */
		for (i = 0; i < NN_ETH_NSET; i++)
			if (c.v[i] >= 0)
				FUZZ_ASSERT(nn_eth_setting_is_ring((enum nn_eth_setting)i) ? !c.rings_err || c.rings_err == -EOPNOTSUPP :
					    !c.coalesce_err || c.coalesce_err == -EOPNOTSUPP);
		break;
	default: {
		bool rings = data[0] % 3 == 2;

		r = nn_eth_nl_parse(buf, size - 1, SEED_FAMILY, rings, &c);
		FUZZ_ASSERT(r == 0 || r == -EBADMSG);
		check_values(&c);
		/* only the half asked about is filled; errors are the caller's */
		for (i = 0; i < NN_ETH_NSET; i++)
			if (nn_eth_setting_is_ring((enum nn_eth_setting)i) != rings)
				FUZZ_ASSERT(c.v[i] == -1);
		if (!rings)
			FUZZ_ASSERT(c.rx_max == -1 && c.tx_max == -1);
		FUZZ_ASSERT(c.coalesce_err == -ENODATA && c.rings_err == -ENODATA);
		break;
	}
	}
	free(buf);
	return 0;
}
