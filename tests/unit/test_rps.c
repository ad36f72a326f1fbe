// SPDX-License-Identifier: GPL-2.0-or-later
/* test_rps.c - RPS/RFS paths and forms (irq/rps.c), NAPI settings' keys,
 * owner rule and restore (irq/napi_conf.c, through a fake io), and the undo
 * kinds "rps", "napi_conf", "napi_dev" refusing anything foreign */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/act/change_kinds.h"
#include "nicnuma/act/dev_ident.h"
#include "nicnuma/discover/nic.h"
#include "irq/napi_conf.h"
#include "irq/rps.h"
#include "tmptree.h"

static void test_rps_paths(void **state)
{
	char p[128];

	(void)state;
	assert_int_equal(nn_rps_path(p, sizeof(p), "eth0", 3, NN_RPS_CPUS), 0);
	assert_string_equal(p, "/sys/class/net/eth0/queues/rx-3/rps_cpus");
	assert_true(nn_rps_path_valid(p));
	assert_int_equal(nn_rps_path(p, sizeof(p), "eth0", 0, NN_RPS_FLOW_CNT), 0);
	assert_true(nn_rps_path_valid(p));
	assert_true(nn_rps_path_valid(NN_RPS_SOCK_FLOW_PATH));
	assert_int_equal(nn_rps_path(p, sizeof(p), "../x", 0, NN_RPS_CPUS), -EINVAL);
	assert_int_equal(nn_rps_path(p, sizeof(p), "eth0", 0, "xps_cpus"), -EINVAL);
	assert_int_equal(nn_rps_path(p, 10, "eth0", 0, NN_RPS_CPUS), -ENAMETOOLONG);

	static const char *const bad[] = {
		"/sys/class/net/eth0/queues/tx-0/rps_cpus",
		"/sys/class/net/eth0/queues/rx-0/xps_cpus",
		"/sys/class/net/eth0/queues/rx-01/rps_cpus",
		"/sys/class/net/eth0/queues/rx-/rps_cpus",
		"/sys/class/net/../queues/rx-0/rps_cpus",
		"/sys/class/net/eth0/queues/rx-0/../rx-0/rps_cpus",
		"/sys/class/net/eth0/queues/rx-0/rps_cpus/",
		"/sys/class/net/eth0//queues/rx-0/rps_cpus",
		"/sys/class/net/averyveryverylongname/queues/rx-0/rps_cpus",
		"/proc/sys/net/core/rps_sock_flow_entries/x",
		"/proc/sys/net/core/../core/rps_sock_flow_entries",
		"/etc/passwd",
		"",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_false(nn_rps_path_valid(bad[i]));
	assert_false(nn_rps_path_valid(NULL));
}

static void test_rps_values(void **state)
{
	const char *cpus = "/sys/class/net/eth0/queues/rx-0/rps_cpus";
	const char *cnt = "/sys/class/net/eth0/queues/rx-0/rps_flow_cnt";

	(void)state;
	assert_true(nn_rps_value_valid(cpus, "0"));
	assert_true(nn_rps_value_valid(cpus, "ffffffff,00000003"));
	assert_false(nn_rps_value_valid(cpus, ""));
	assert_false(nn_rps_value_valid(cpus, "0-3"));
	assert_false(nn_rps_value_valid(cpus, "1;reboot"));
	assert_true(nn_rps_value_valid(cnt, "0"));
	assert_true(nn_rps_value_valid(cnt, "32768"));
	assert_true(nn_rps_value_valid(NN_RPS_SOCK_FLOW_PATH, "536870912"));
	assert_false(nn_rps_value_valid(NN_RPS_SOCK_FLOW_PATH, "536870913"));
	assert_false(nn_rps_value_valid(cnt, "-1"));
	assert_false(nn_rps_value_valid(cnt, "0x10"));
	assert_false(nn_rps_value_valid(cnt, "010"));
	assert_false(nn_rps_value_valid(cnt, "1 2"));
	assert_false(nn_rps_value_valid("/etc/x", "1"));

	assert_int_equal(nn_rfs_round(0), 0);
	assert_int_equal(nn_rfs_round(1), 1);
	assert_int_equal(nn_rfs_round(3), 4);
	assert_int_equal(nn_rfs_round(32768), 32768);
	assert_int_equal(nn_rfs_round(32769), 65536);
	assert_int_equal(nn_rfs_round(NN_RFS_MAX * 2), NN_RFS_MAX);
}

static void test_napi_names(void **state)
{
	enum nn_napi_attr a;
	char k[64], nic[16], p[128];
	long long id;

	(void)state;
	for (unsigned int i = 0; i < NN_NAPI_NATTR; i++) {
		assert_int_equal(nn_napi_attr_parse(nn_napi_attr_name((enum nn_napi_attr)i), &a), 0);
		assert_int_equal(a, i);
	}
	assert_int_equal(nn_napi_attr_parse("busy-poll", &a), -EINVAL);
	assert_null(nn_napi_attr_sysfs(NN_NAPI_IRQ_SUSPEND_TIMEOUT));
	assert_string_equal(nn_napi_attr_sysfs(NN_NAPI_THREADED), "threaded");
	assert_int_equal(nn_napi_attr_max(NN_NAPI_THREADED), 1);
	assert_int_equal(nn_napi_attr_max(NN_NAPI_DEFER_HARD_IRQS), INT32_MAX);

	nn_napi_conf_key(k, sizeof(k), "eth0", 257, NN_NAPI_GRO_FLUSH_TIMEOUT);
	assert_string_equal(k, "eth0/257/gro-flush-timeout");
	assert_int_equal(nn_napi_conf_parse_key(k, nic, sizeof(nic), &id, &a), 0);
	assert_string_equal(nic, "eth0");
	assert_int_equal(id, 257);
	assert_int_equal(a, NN_NAPI_GRO_FLUSH_TIMEOUT);
	static const char *const badkeys[] = {
		"eth0/257", "eth0/0/threaded", "eth0/0257/threaded", "eth0/-1/threaded",
		"eth0/4294967296/threaded", "../257/threaded", "eth0/257/threaded/x", "/257/threaded",
		"eth0/25x/threaded", "eth0//threaded", "averyveryverylongname/1/threaded",
	};
	for (size_t i = 0; i < sizeof(badkeys) / sizeof(badkeys[0]); i++)
		assert_int_equal(nn_napi_conf_parse_key(badkeys[i], nic, sizeof(nic), &id, &a), -EINVAL);

	assert_int_equal(nn_napi_dev_path(p, sizeof(p), "eth0", NN_NAPI_DEFER_HARD_IRQS), 0);
	assert_string_equal(p, "/sys/class/net/eth0/napi_defer_hard_irqs");
	assert_true(nn_napi_dev_path_valid(p));
	assert_true(nn_napi_dev_value_valid(p, "2"));
	assert_false(nn_napi_dev_value_valid(p, "2147483648"));
	/* 19 digits past LLONG_MAX: refused, no signed overflow (fuzz_rps) */
	assert_false(nn_napi_dev_value_valid("/sys/class/net/eth0/gro_flush_timeout", "9999999999999999990"));
	assert_false(nn_napi_dev_value_valid("/sys/class/net/eth0/gro_flush_timeout", "9223372036854775808"));
	assert_int_equal(nn_napi_dev_path(p, sizeof(p), "eth0", NN_NAPI_IRQ_SUSPEND_TIMEOUT), -EINVAL);
	assert_true(nn_napi_dev_value_valid("/sys/class/net/eth0/threaded", "1"));
	assert_false(nn_napi_dev_value_valid("/sys/class/net/eth0/threaded", "2"));
	assert_false(nn_napi_dev_path_valid("/sys/class/net/eth0/mtu"));
	assert_false(nn_napi_dev_path_valid("/sys/class/net/../threaded"));
	assert_false(nn_napi_dev_path_valid("/sys/class/net/eth0/queues/threaded"));
}

/* nn_undo_parse with the kind table: each kind's validate() decides. */
static void test_undo_kinds(void **state)
{
#define HEAD "{\"version\":1,\"host\":{\"nics\":[\"eth0\"]},\"changes\":["
	static const char *const good[] = {
		HEAD "{\"kind\":\"rps\",\"path\":\"/sys/class/net/eth0/queues/rx-0/rps_cpus\",\"before\":\"0\"}]}",
		HEAD "{\"kind\":\"rps\",\"path\":\"/proc/sys/net/core/rps_sock_flow_entries\",\"before\":\"0\"}]}",
		HEAD "{\"kind\":\"napi_conf\",\"path\":\"eth0/257/defer-hard-irqs\",\"before\":\"0\","
		     "\"detail\":{\"ifindex\":2}}]}",
		HEAD "{\"kind\":\"napi_dev\",\"path\":\"/sys/class/net/eth0/gro_flush_timeout\",\"before\":\"0\"}]}",
		HEAD "{\"kind\":\"busy_poll\",\"path\":\"/proc/sys/net/core/busy_poll\",\"before\":\"0\"}]}",
		HEAD "{\"kind\":\"busy_poll\",\"path\":\"/proc/sys/net/core/busy_read\",\"before\":\"2147483647\"}]}",
	};
	static const char *const bad[] = {
		/* a NIC the log's host does not name */
		HEAD "{\"kind\":\"rps\",\"path\":\"/sys/class/net/eth1/queues/rx-0/rps_cpus\",\"before\":\"0\"}]}",
		/* a path rps does not write, through rps or napi_dev */
		HEAD "{\"kind\":\"rps\",\"path\":\"/proc/irq/3/smp_affinity_list\",\"before\":\"0\"}]}",
		HEAD "{\"kind\":\"rps\",\"path\":\"/etc/passwd\",\"before\":\"0\"}]}",
		HEAD "{\"kind\":\"napi_dev\",\"path\":\"/sys/class/net/eth0/mtu\",\"before\":\"0\"}]}",
		/* busy_poll: only its two sysctls, a decimal in an int's range */
		HEAD "{\"kind\":\"busy_poll\",\"path\":\"/proc/sys/net/core/rps_sock_flow_entries\",\"before\":\"0\"}]}",
		HEAD "{\"kind\":\"busy_poll\",\"path\":\"/proc/sys/net/core/../core/busy_poll\",\"before\":\"0\"}]}",
		HEAD "{\"kind\":\"busy_poll\",\"path\":\"/proc/sys/net/ipv4/ip_forward\",\"before\":\"0\"}]}",
		HEAD "{\"kind\":\"busy_poll\",\"path\":\"/proc/sys/net/core/busy_poll\",\"before\":\"-1\"}]}",
		HEAD "{\"kind\":\"busy_poll\",\"path\":\"/proc/sys/net/core/busy_poll\",\"before\":\"2147483648\"}]}",
		HEAD "{\"kind\":\"busy_poll\",\"path\":\"/proc/sys/net/core/busy_read\",\"before\":\"050\"}]}",
		HEAD "{\"kind\":\"busy_poll\",\"path\":\"/proc/sys/net/core/busy_read\"}]}",
		HEAD "{\"kind\":\"rps\",\"path\":\"/proc/sys/net/core/busy_poll\",\"before\":\"0\"}]}",
		/* a value not of the file's form */
		HEAD "{\"kind\":\"rps\",\"path\":\"/sys/class/net/eth0/queues/rx-0/rps_cpus\",\"before\":\"0-3\"}]}",
		HEAD "{\"kind\":\"rps\",\"path\":\"/proc/sys/net/core/rps_sock_flow_entries\",\"before\":\"x\"}]}",
		HEAD "{\"kind\":\"napi_dev\",\"path\":\"/sys/class/net/eth0/threaded\",\"before\":\"7\"}]}",
		/* napi_conf: no ifindex, another NIC, a bad NAPI id, a setting out of range */
		HEAD "{\"kind\":\"napi_conf\",\"path\":\"eth0/257/threaded\",\"before\":\"0\"}]}",
		HEAD "{\"kind\":\"napi_conf\",\"path\":\"eth1/257/threaded\",\"before\":\"0\","
		     "\"detail\":{\"ifindex\":2}}]}",
		HEAD "{\"kind\":\"napi_conf\",\"path\":\"eth0/0/threaded\",\"before\":\"0\","
		     "\"detail\":{\"ifindex\":2}}]}",
		HEAD "{\"kind\":\"napi_conf\",\"path\":\"eth0/257/threaded\",\"before\":\"2\","
		     "\"detail\":{\"ifindex\":2}}]}",
		HEAD "{\"kind\":\"napi_conf\",\"path\":\"eth0/257/defer-hard-irqs\",\"before\":\"0\","
		     "\"detail\":{\"ifindex\":0}}]}",
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

/* A fake kernel behind struct nn_napi_io: one NAPI 257 of ifindex @owner. */
struct fake {
	int owner;		/* ifindex napi-get answers; 0: the NAPI is gone */
	long long v[NN_NAPI_NATTR];
	int nset;
};
static struct fake fk;

static int fake_get(struct nn_ctx *c, long long id, struct nn_napi_vals *v, char *why, size_t whylen)
{
	(void)c;
	if (id != 257 || !fk.owner) {
		snprintf(why, whylen, "NAPI %lld is gone", id);
		return -ENOENT;
	}
	v->ifindex = fk.owner;
	memcpy(v->v, fk.v, sizeof(v->v));
	return 0;
}

static int fake_set(struct nn_ctx *c, long long id, enum nn_napi_attr a, long long value, char *why,
		    size_t whylen)
{
	(void)c;
	(void)why;
	(void)whylen;
	if (id != 257)
		return -ENOENT;
	fk.v[a] = value;
	fk.nset++;
	return 0;
}

static const struct nn_napi_io fake_io = { .get = fake_get, .set = fake_set };

static void test_napi_owner(void **state)
{
	struct nn_napi_vals v;
	struct nn_ctx ctx;
	char tmp[PATH_MAX], why[256];
	long long after;

	(void)state;
	assert_int_equal(tmptree_make(tmp, sizeof(tmp), "napiconf"), 0);
	assert_int_equal(tmptree_put(tmp, "sys/class/net/eth0/ifindex", "2\n"), 0);
	assert_int_equal(nn_ctx_init(&ctx, tmp, false), 0);
	memset(&fk, 0, sizeof(fk));
	fk.owner = 2;
	fk.v[NN_NAPI_THREADED] = 0;
	fk.v[NN_NAPI_IRQ_SUSPEND_TIMEOUT] = -1;	/* a kernel that does not report it */

	assert_int_equal(nn_napi_conf_owner(&ctx, &fake_io, "eth0", 2, 257, &v, why, sizeof(why)), 0);
	assert_int_equal(nn_napi_conf_set(&ctx, &fake_io, "eth0", 2, 257, NN_NAPI_DEFER_HARD_IRQS, 2, &after,
					  why, sizeof(why)), 0);
	assert_int_equal(after, 2);
	assert_int_equal(fk.v[NN_NAPI_DEFER_HARD_IRQS], 2);
	/* out of range, and a setting the kernel does not report: nothing sent */
	fk.nset = 0;
	assert_int_equal(nn_napi_conf_set(&ctx, &fake_io, "eth0", 2, 257, NN_NAPI_THREADED, 2, &after,
					  why, sizeof(why)), -EINVAL);
	assert_int_equal(nn_napi_conf_set(&ctx, &fake_io, "eth0", 2, 257, NN_NAPI_IRQ_SUSPEND_TIMEOUT, 5, &after,
					  why, sizeof(why)), -EOPNOTSUPP);
	assert_int_equal(fk.nset, 0);
	/* the id now counts for another device (another netns took the number) */
	fk.owner = 7;
	assert_int_equal(nn_napi_conf_owner(&ctx, &fake_io, "eth0", 2, 257, &v, why, sizeof(why)), -EPERM);
	assert_int_equal(nn_napi_conf_set(&ctx, &fake_io, "eth0", 2, 257, NN_NAPI_DEFER_HARD_IRQS, 0, &after,
					  why, sizeof(why)), -EPERM);
	assert_int_equal(fk.nset, 0);
	/* eth0 is another ifindex now (the device went and came back) */
	fk.owner = 2;
	assert_int_equal(nn_napi_conf_owner(&ctx, &fake_io, "eth0", 3, 257, &v, why, sizeof(why)), -ENOENT);
	/* gone */
	fk.owner = 0;
	assert_int_equal(nn_napi_conf_owner(&ctx, &fake_io, "eth0", 2, 257, &v, why, sizeof(why)), -ENOENT);
	assert_int_equal(nn_napi_conf_owner(&ctx, &fake_io, "eth9", 2, 257, &v, why, sizeof(why)), -ENOENT);

	/* restore: puts before back; a NAPI gone is nothing to restore */
	{
		char detail[32];
		struct nn_change c = { .path = (char *)"eth0/257/defer-hard-irqs", .before = (char *)"0",
				       .after = (char *)"2", .detail = detail };
		struct nn_restore res = { 0 };

		nn_napi_conf_detail(detail, sizeof(detail), 2);
		fk.owner = 2;
		assert_int_equal(nn_napi_conf_restore(&ctx, &fake_io, &c, &res), 0);
		assert_false(res.unchanged);
		assert_string_equal(res.current, "2");
		assert_int_equal(fk.v[NN_NAPI_DEFER_HARD_IRQS], 0);
		free(res.current);
		memset(&res, 0, sizeof(res));
		assert_int_equal(nn_napi_conf_restore(&ctx, &fake_io, &c, &res), 0);
		assert_true(res.unchanged);
		free(res.current);
		memset(&res, 0, sizeof(res));
		fk.owner = 7;	/* another device's now: refused, nothing written */
		fk.v[NN_NAPI_DEFER_HARD_IRQS] = 5;
		assert_int_equal(nn_napi_conf_restore(&ctx, &fake_io, &c, &res), -EPERM);
		assert_int_equal(fk.v[NN_NAPI_DEFER_HARD_IRQS], 5);
		free(res.current);
		memset(&res, 0, sizeof(res));
		fk.owner = 0;
		assert_int_equal(nn_napi_conf_restore(&ctx, &fake_io, &c, &res), 0);
		assert_true(res.unchanged);
		free(res.current);
	}
	nn_ctx_free(&ctx);
	tmptree_remove(tmp);
}

/* A logged device against the device of that name now (act/dev_ident.c). */
static void test_dev_ident(void **state)
{
	struct nn_nic now = { .name = (char *)"ens5f0np0", .ifindex = 3, .pci = (char *)"0000:af:00.0" };
	char text[128], why[256];

	(void)state;
	assert_int_equal(nn_dev_ident_text(&now, text, sizeof(text)), 0);
	assert_string_equal(text, "{\"nic\":\"ens5f0np0\",\"ifindex\":3,\"pci\":\"0000:af:00.0\"}");
	/* the same device; the name gone (left to the kind's restore) */
	assert_int_equal(nn_dev_ident_compare(text, &now, why, sizeof(why)), 0);
	assert_int_equal(nn_dev_ident_compare(text, NULL, why, sizeof(why)), 0);
	/* replaced: another PCI function and ifindex under the same name */
	now.ifindex = 99;
	now.pci = (char *)"0000:3b:00.0";
	assert_int_equal(nn_dev_ident_compare(text, &now, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "ifindex 3, PCI 0000:af:00.0"));
	assert_non_null(strstr(why, "ifindex 99, PCI 0000:3b:00.0"));
	/* the same PCI function re-created (driver rebind): a new ifindex, the same device */
	now.pci = (char *)"0000:af:00.0";
	assert_int_equal(nn_dev_ident_compare(text, &now, why, sizeof(why)), 0);
	/* a PCI device logged, a virtual one under the name now */
	now.pci = NULL;
	now.ifindex = 3;
	assert_int_equal(nn_dev_ident_compare(text, &now, why, sizeof(why)), 1);
	/* a veth: ifindex alone */
	now.pci = NULL;
	now.ifindex = 7;
	assert_int_equal(nn_dev_ident_text(&now, text, sizeof(text)), 0);
	assert_int_equal(nn_dev_ident_compare(text, &now, why, sizeof(why)), 0);
	now.ifindex = 8;
	assert_int_equal(nn_dev_ident_compare(text, &now, why, sizeof(why)), 1);
	/* unknown ifindex: nothing to record */
	now.ifindex = -1;
	assert_int_equal(nn_dev_ident_text(&now, text, sizeof(text)), -ENOENT);
	/* malformed devices refuse the log */
	assert_int_equal(nn_dev_ident_compare("{\"nic\":\"../x\",\"ifindex\":3}", &now, why, sizeof(why)), -EINVAL);
	assert_int_equal(nn_dev_ident_compare("{\"nic\":\"eth0\",\"ifindex\":0}", &now, why, sizeof(why)), -EINVAL);
	assert_int_equal(nn_dev_ident_compare("{\"nic\":\"eth0\",\"ifindex\":2,\"pci\":\"x\"}", &now, why,
						  sizeof(why)), -EINVAL);
	assert_int_equal(nn_dev_ident_compare("[1]", &now, why, sizeof(why)), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dev_ident),
		cmocka_unit_test(test_rps_paths),
		cmocka_unit_test(test_rps_values),
		cmocka_unit_test(test_napi_names),
		cmocka_unit_test(test_undo_kinds),
		cmocka_unit_test(test_napi_owner),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
