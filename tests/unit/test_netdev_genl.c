// SPDX-License-Identifier: GPL-2.0-or-later
/* test_netdev_genl.c - the netdev genl parser on reply bytes built the way
 * the kernel writes them (netdev-genl.c's fill functions: one message per
 * queue / NAPI, then NLMSG_DONE) */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "nicnuma/discover/netdev_genl.h"

#define FAMILY 29	/* what nlctrl gave on this machine; any >= NLMSG_MIN_TYPE */

struct msgbuf {
	char buf[8192] __attribute__((aligned(8)));
	size_t len;
};

static struct nlmsghdr *put_msg(struct msgbuf *m, uint16_t type, uint8_t cmd)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(m->buf + m->len);
	struct genlmsghdr *gh;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_MULTI;
	gh = mnl_nlmsg_put_extra_header(nlh, sizeof(*gh));
	gh->cmd = cmd;
	gh->version = 1;
	return nlh;
}

static void end_msg(struct msgbuf *m, struct nlmsghdr *nlh)
{
	m->len += MNL_ALIGN(nlh->nlmsg_len);
}

static void put_queue(struct msgbuf *m, int ifindex, int id, int type, long napi)
{
	struct nlmsghdr *nlh = put_msg(m, FAMILY, NN_NETDEV_CMD_QUEUE_GET);

	mnl_attr_put_u32(nlh, NN_NETDEV_A_QUEUE_ID, (uint32_t)id);
	mnl_attr_put_u32(nlh, NN_NETDEV_A_QUEUE_IFINDEX, (uint32_t)ifindex);
	mnl_attr_put_u32(nlh, NN_NETDEV_A_QUEUE_TYPE, (uint32_t)type);
	if (napi >= 0)
		mnl_attr_put_u32(nlh, NN_NETDEV_A_QUEUE_NAPI_ID, (uint32_t)napi);
	end_msg(m, nlh);
}

static void put_done(struct msgbuf *m, int err)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(m->buf + m->len);
	int *e = mnl_nlmsg_put_extra_header(nlh, sizeof(int));

	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_flags = NLM_F_MULTI;
	*e = err;
	end_msg(m, nlh);
}

/* This machine's eth0 (virtio_net, 6.18): rx-0 and tx-0 on NAPI 8193, whose
 * napi-get reply has no irq (virtio links none) and no pid (not threaded). */
static void virtio_eth0(void **state)
{
	struct msgbuf m = { .len = 0 };
	struct nn_genl g = { 0 };
	struct nlmsghdr *nlh;
	const struct nn_genl_napi *n;

	(void)state;
	put_queue(&m, 2, 0, NN_GENL_QUEUE_RX, 8193);
	put_queue(&m, 2, 0, NN_GENL_QUEUE_TX, 8193);
	put_done(&m, 0);
	assert_int_equal(nn_genl_parse(m.buf, m.len, FAMILY, &g), 0);
	assert_int_equal(g.nqueues, 2);
	assert_int_equal(g.queues[0].ifindex, 2);
	assert_int_equal(g.queues[0].type, NN_GENL_QUEUE_RX);
	assert_int_equal(g.queues[1].type, NN_GENL_QUEUE_TX);
	assert_int_equal(g.queues[1].napi_id, 8193);
	assert_int_equal(g.queues[0].dmabuf, -1);
	assert_false(g.queues[0].xsk);

	m.len = 0;
	nlh = put_msg(&m, FAMILY, NN_NETDEV_CMD_NAPI_GET);
	mnl_attr_put_u32(nlh, NN_NETDEV_A_NAPI_ID, 8193);
	mnl_attr_put_u32(nlh, NN_NETDEV_A_NAPI_IFINDEX, 2);
	mnl_attr_put_u32(nlh, NN_NETDEV_A_NAPI_DEFER_HARD_IRQS, 0);
	mnl_attr_put_u32(nlh, NN_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT, 0);	/* uint as 4 bytes */
	mnl_attr_put_u32(nlh, NN_NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT, 0);
	mnl_attr_put_u32(nlh, NN_NETDEV_A_NAPI_THREADED, 0);
	end_msg(&m, nlh);
	put_done(&m, 0);
	assert_int_equal(nn_genl_parse(m.buf, m.len, FAMILY, &g), 0);
	assert_int_equal(g.nnapis, 1);
	n = nn_genl_napi_find(&g, 8193);
	assert_non_null(n);
	assert_int_equal(n->irq, -1);
	assert_int_equal(n->pid, -1);
	assert_int_equal(n->threaded, 0);
	assert_int_equal(n->defer_hard_irqs, 0);
	assert_int_equal(n->gro_flush_timeout, 0);
	assert_null(nn_genl_napi_find(&g, 8194));
	assert_null(nn_genl_napi_find(&g, -1));
	assert_int_equal(g.nbad, 0);
	nn_genl_free(&g);
}

/* A threaded mlx5-like NAPI with an IRQ, 8-byte uints, an attribute from a
 * kernel newer than us (skipped), a queue with AF_XDP and devmem bindings. */
static void napi_irq_threaded(void **state)
{
	struct msgbuf m = { .len = 0 };
	struct nn_genl g = { 0 };
	struct nlmsghdr *nlh;
	struct nlattr *nest;

	(void)state;
	nlh = put_msg(&m, FAMILY, NN_NETDEV_CMD_NAPI_GET);
	mnl_attr_put_u32(nlh, NN_NETDEV_A_NAPI_IFINDEX, 4);
	mnl_attr_put_u32(nlh, NN_NETDEV_A_NAPI_ID, 8200);
	mnl_attr_put_u32(nlh, NN_NETDEV_A_NAPI_IRQ, 155);
	mnl_attr_put_u32(nlh, NN_NETDEV_A_NAPI_PID, 4321);
	mnl_attr_put_u64(nlh, NN_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT, 20000);
	mnl_attr_put_u64(nlh, NN_NETDEV_A_NAPI_THREADED, 1);
	mnl_attr_put_u32(nlh, 42, 7);	/* unknown: a later kernel's */
	end_msg(&m, nlh);
	nlh = put_msg(&m, FAMILY, NN_NETDEV_CMD_QUEUE_GET);
	mnl_attr_put_u32(nlh, NN_NETDEV_A_QUEUE_ID, 3);
	mnl_attr_put_u32(nlh, NN_NETDEV_A_QUEUE_IFINDEX, 4);
	mnl_attr_put_u32(nlh, NN_NETDEV_A_QUEUE_TYPE, NN_GENL_QUEUE_RX);
	mnl_attr_put_u32(nlh, NN_NETDEV_A_QUEUE_NAPI_ID, 8200);
	mnl_attr_put_u32(nlh, NN_NETDEV_A_QUEUE_DMABUF, 9);
	nest = mnl_attr_nest_start(nlh, NN_NETDEV_A_QUEUE_XSK);
	mnl_attr_nest_end(nlh, nest);
	nest = mnl_attr_nest_start(nlh, NN_NETDEV_A_QUEUE_IO_URING);
	mnl_attr_nest_end(nlh, nest);
	end_msg(&m, nlh);
	put_done(&m, 0);
	/* family 0: a capture from another boot, any generic type is taken */
	assert_int_equal(nn_genl_parse(m.buf, m.len, 0, &g), 0);
	assert_int_equal(g.nnapis, 1);
	assert_int_equal(g.napis[0].irq, 155);
	assert_int_equal(g.napis[0].pid, 4321);
	assert_int_equal(g.napis[0].threaded, 1);
	assert_int_equal(g.napis[0].gro_flush_timeout, 20000);
	assert_int_equal(g.napis[0].defer_hard_irqs, -1);	/* before 6.13: unknown */
	assert_int_equal(g.napis[0].irq_suspend_timeout, -1);
	assert_int_equal(g.nqueues, 1);
	assert_int_equal(g.queues[0].dmabuf, 9);
	assert_true(g.queues[0].xsk);
	assert_true(g.queues[0].io_uring);
	nn_genl_free(&g);
}

/* Replies of another family or command are skipped; one without its
 * required attributes is counted bad, not taken half-filled; a malformed
 * attribute (2 bytes for a u32) is treated as absent. */
static void skips_and_bad(void **state)
{
	struct msgbuf m = { .len = 0 };
	struct nn_genl g = { 0 };
	struct nlmsghdr *nlh;

	(void)state;
	put_queue(&m, 2, 0, NN_GENL_QUEUE_RX, 1);	/* counted */
	nlh = put_msg(&m, FAMILY + 1, NN_NETDEV_CMD_QUEUE_GET);	/* other family */
	mnl_attr_put_u32(nlh, NN_NETDEV_A_QUEUE_ID, 0);
	end_msg(&m, nlh);
	nlh = put_msg(&m, FAMILY, 1);	/* dev-get */
	mnl_attr_put_u32(nlh, 1, 2);
	end_msg(&m, nlh);
	nlh = put_msg(&m, FAMILY, NN_NETDEV_CMD_QUEUE_GET);	/* no type */
	mnl_attr_put_u32(nlh, NN_NETDEV_A_QUEUE_ID, 0);
	mnl_attr_put_u32(nlh, NN_NETDEV_A_QUEUE_IFINDEX, 2);
	end_msg(&m, nlh);
	nlh = put_msg(&m, FAMILY, NN_NETDEV_CMD_NAPI_GET);	/* id is 2 bytes: absent */
	mnl_attr_put_u16(nlh, NN_NETDEV_A_NAPI_ID, 5);
	mnl_attr_put_u32(nlh, NN_NETDEV_A_NAPI_IFINDEX, 2);
	end_msg(&m, nlh);
	nlh = put_msg(&m, FAMILY, NN_NETDEV_CMD_NAPI_GET);	/* ifindex beyond int */
	mnl_attr_put_u32(nlh, NN_NETDEV_A_NAPI_ID, 6);
	mnl_attr_put_u32(nlh, NN_NETDEV_A_NAPI_IFINDEX, 0x80000000u);
	end_msg(&m, nlh);
	put_done(&m, 0);
	assert_int_equal(nn_genl_parse(m.buf, m.len, FAMILY, &g), 0);
	assert_int_equal(g.nqueues, 1);
	assert_int_equal(g.nnapis, 0);
	assert_int_equal(g.nbad, 3);
	nn_genl_free(&g);
}

/* The kernel's errors: an NLMSG_ERROR (EOPNOTSUPP from a device) and a dump
 * that failed midway (negative NLMSG_DONE); truncated bytes. */
static void errors_and_truncation(void **state)
{
	struct msgbuf m = { .len = 0 };
	struct nn_genl g = { 0 };
	struct nlmsghdr *nlh;
	struct nlmsgerr *e;

	(void)state;
	put_queue(&m, 2, 0, NN_GENL_QUEUE_RX, 1);
	put_done(&m, -EMSGSIZE);
	assert_int_equal(nn_genl_parse(m.buf, m.len, FAMILY, &g), -EMSGSIZE);
	assert_int_equal(g.nqueues, 1);	/* what came before stays */
	nn_genl_free(&g);

	m.len = 0;
	nlh = mnl_nlmsg_put_header(m.buf);
	nlh->nlmsg_type = NLMSG_ERROR;
	e = mnl_nlmsg_put_extra_header(nlh, sizeof(*e));
	e->error = -EOPNOTSUPP;
	end_msg(&m, nlh);
	assert_int_equal(nn_genl_parse(m.buf, m.len, FAMILY, &g), -EOPNOTSUPP);
	e->error = -100000;	/* not an errno */
	assert_int_equal(nn_genl_parse(m.buf, m.len, FAMILY, &g), -EBADMSG);

	m.len = 0;
	put_queue(&m, 2, 0, NN_GENL_QUEUE_RX, 1);
	put_queue(&m, 2, 1, NN_GENL_QUEUE_RX, 2);
	assert_int_equal(nn_genl_parse(m.buf, m.len - 3, FAMILY, &g), -EBADMSG);
	assert_int_equal(g.nqueues, 1);
	nn_genl_free(&g);

	/* A length past INT_MAX (a bad file): refused, not followed (the fuzzer
	 * found libmnl's int comparison let it through) */
	m.len = 0;
	put_queue(&m, 2, 0, NN_GENL_QUEUE_RX, 1);
	put_queue(&m, 2, 1, NN_GENL_QUEUE_RX, 2);
	((struct nlmsghdr *)m.buf)->nlmsg_len = 0xfffffff0u;
	assert_int_equal(nn_genl_parse(m.buf, m.len, FAMILY, &g), -EBADMSG);
	nn_genl_free(&g);

	/* No replies at all: a namespace without up devices. */
	assert_int_equal(nn_genl_parse(m.buf, 0, FAMILY, &g), 0);
	assert_int_equal(g.nqueues + g.nnapis, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(virtio_eth0),
		cmocka_unit_test(napi_irq_threaded),
		cmocka_unit_test(skips_and_bad),
		cmocka_unit_test(errors_and_truncation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
