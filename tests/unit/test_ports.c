// SPDX-License-Identifier: GPL-2.0-or-later
/* test_ports.c - ports/: a PCI address's form, each verdict of port_check.c, a plan's ports in JSON and back */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <json-c/json.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/plan/plan.h"
#include "ports/port.h"
#include "ports/port_bind.h"
#include "tmptree.h"

static void test_pci_valid(void **state)
{
	(void)state;
	assert_true(nn_port_pci_valid("0000:af:00.0"));
	assert_true(nn_port_pci_valid("0001:00:1f.7"));
	assert_false(nn_port_pci_valid("0000:af:00.8"));	/* function 0-7 */
	assert_false(nn_port_pci_valid("0000:AF:00.0"));	/* the kernel's names are lower-case */
	assert_false(nn_port_pci_valid("af:00.0"));
	assert_false(nn_port_pci_valid("0000:af:00.0/../x"));
	assert_false(nn_port_pci_valid(""));
	assert_false(nn_port_pci_valid(NULL));
}

static struct nn_port_netdev nd_eth = { "eth1", 1, "" };
static struct nn_port_fn member_nvme = { "0000:b0:00.0", 0x010802, "nvme", NULL, 0 };
static struct nn_port_fn member_bridge = { "0000:ae:00.0", 0x060400, "pcieport", NULL, 0 };
static struct nn_port_fn member_vfio = { "0000:af:00.2", 0x020000, "vfio-pci", NULL, 0 };
static struct nn_port_fn member_free = { "0000:af:00.3", 0x020000, "", NULL, 0 };

/* A network function on mlx5_core in group 61, alone; IOMMU on, vfio-pci loadable. */
static void setup(struct nn_port *p, struct nn_vfio_host *v)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->fn.pci, sizeof(p->fn.pci), "0000:af:00.0");
	p->fn.pci_class = 0x020000;
	snprintf(p->fn.driver, sizeof(p->fn.driver), "mlx5_core");
	p->fn.netdevs = &nd_eth;
	p->fn.nnetdevs = 1;
	p->present = true;
	p->node = 1;
	p->iommu_group = 61;
	memset(v, 0, sizeof(*v));
	v->iommus = 2;
	snprintf(v->iommu_name, sizeof(v->iommu_name), "dmar0");
	v->vfio_pci_module = true;
	v->noiommu = 0;
}

static void test_verdict(void **state)
{
	struct nn_port p;
	struct nn_vfio_host v;
	struct nn_port_ask ask = { 0 };
	struct nn_port_fn members[4];
	char *also[] = { "0000:b0:00.0" };
	char why[512], note[256];

	(void)state;
	setup(&p, &v);
	assert_int_equal(nn_port_verdict(&p, &v, &ask, why, sizeof(why), note, sizeof(note)), 0);
	assert_string_equal(why, "");
	assert_string_equal(note, "");

	p.present = false;
	assert_int_equal(nn_port_verdict(&p, &v, &ask, why, sizeof(why), note, sizeof(note)), -ENODEV);
	assert_non_null(strstr(why, "0000:af:00.0: no such PCI function"));
	p.present = true;

	p.fn.pci_class = 0x010802;
	assert_int_equal(nn_port_verdict(&p, &v, &ask, why, sizeof(why), note, sizeof(note)), -ENOTSUP);
	assert_non_null(strstr(why, "not a network function (PCI class 0x010802"));
	p.fn.pci_class = -1;
	assert_int_equal(nn_port_verdict(&p, &v, &ask, why, sizeof(why), note, sizeof(note)), -ENOTSUP);
	assert_non_null(strstr(why, "class unknown"));
	p.fn.pci_class = 0x020000;

	v.vfio_pci_module = false;
	assert_int_equal(nn_port_verdict(&p, &v, &ask, why, sizeof(why), note, sizeof(note)), -ENOPKG);
	assert_non_null(strstr(why, "vfio-pci cannot be loaded"));
	v.vfio_pci_module = true;

	/* no IOMMU: refused, or no-IOMMU mode with a note */
	v.iommus = 0;
	assert_int_equal(nn_port_verdict(&p, &v, &ask, why, sizeof(why), note, sizeof(note)), -ENXIO);
	assert_non_null(strstr(why, "no IOMMU is on (/sys/class/iommu is empty)"));
	assert_non_null(strstr(why, "--noiommu"));
	ask.noiommu = true;
	/* the mode itself: off, absent from the kernel, vfio not loaded */
	v.noiommu = 0;
	assert_int_equal(nn_port_verdict(&p, &v, &ask, why, sizeof(why), note, sizeof(note)), -EOPNOTSUPP);
	assert_non_null(strstr(why, "no-IOMMU mode is off"));
	v.noiommu = -1;
	v.vfio_module = true;
	assert_int_equal(nn_port_verdict(&p, &v, &ask, why, sizeof(why), note, sizeof(note)), -EOPNOTSUPP);
	assert_non_null(strstr(why, "built without CONFIG_VFIO_NOIOMMU"));
	v.vfio_module = false;
	assert_int_equal(nn_port_verdict(&p, &v, &ask, why, sizeof(why), note, sizeof(note)), -EOPNOTSUPP);
	assert_non_null(strstr(why, "modprobe vfio enable_unsafe_noiommu_mode=1"));
	v.noiommu = 1;
	assert_int_equal(nn_port_verdict(&p, &v, &ask, why, sizeof(why), note, sizeof(note)), 0);
	assert_non_null(strstr(note, "no-IOMMU mode"));
	ask.noiommu = false;
	v.iommus = 2;
	p.iommu_group = -1;	/* an IOMMU, but not for this function */
	assert_int_equal(nn_port_verdict(&p, &v, &ask, why, sizeof(why), note, sizeof(note)), -ENXIO);
	assert_non_null(strstr(why, "the function has no iommu_group"));
	p.iommu_group = 61;

	/* the group: bridges, vfio-pci and unbound members are fine; another driver is named */
	members[0] = member_bridge;
	members[1] = member_vfio;
	members[2] = member_free;
	p.members = members;
	p.nmembers = 3;
	assert_int_equal(nn_port_verdict(&p, &v, &ask, why, sizeof(why), note, sizeof(note)), 0);
	members[3] = member_nvme;
	p.nmembers = 4;
	assert_int_equal(nn_port_verdict(&p, &v, &ask, why, sizeof(why), note, sizeof(note)), -EBUSY);
	assert_non_null(strstr(why, "IOMMU group 61 is not viable"));
	assert_non_null(strstr(why, "0000:b0:00.0 is on nvme"));
	assert_null(strstr(why, "0000:ae:00.0"));
	/* named among the ports too: it goes to vfio-pci with it */
	ask.ports = also;
	ask.nports = 1;
	assert_int_equal(nn_port_verdict(&p, &v, &ask, why, sizeof(why), note, sizeof(note)), 0);
	/* the group does not matter without an IOMMU */
	ask.nports = 0;
	v.iommus = 0;
	ask.noiommu = true;
	assert_int_equal(nn_port_verdict(&p, &v, &ask, why, sizeof(why), note, sizeof(note)), 0);
	v.iommus = 2;
	ask.noiommu = false;
	p.nmembers = 0;

	/* the management path: refused unless --force-port; a down netdev is not one */
	snprintf(nd_eth.use, sizeof(nd_eth.use), "the IPv4 default route");
	assert_int_equal(nn_port_verdict(&p, &v, &ask, why, sizeof(why), note, sizeof(note)), -EBUSY);
	assert_non_null(strstr(why, "its netdev eth1 is in use by this host (the IPv4 default route, up)"));
	assert_non_null(strstr(why, "--force-port"));
	ask.force = true;
	assert_int_equal(nn_port_verdict(&p, &v, &ask, why, sizeof(why), note, sizeof(note)), 0);
	assert_non_null(strstr(note, "bound anyway (--force-port)"));
	ask.force = false;
	nd_eth.up = 0;
	assert_int_equal(nn_port_verdict(&p, &v, &ask, why, sizeof(why), note, sizeof(note)), 0);
	nd_eth.up = 1;
	nd_eth.use[0] = '\0';
}

static void test_plan_json(void **state)
{
	struct nn_plan p, back;
	struct json_object *doc, *ports;
	char why[512];

	(void)state;
	memset(&p, 0, sizeof(p));
	p.ports = calloc(2, sizeof(*p.ports));
	assert_non_null(p.ports);
	p.nports = 2;
	snprintf(p.ports[0].pci, sizeof(p.ports[0].pci), "0000:af:00.0");
	snprintf(p.ports[0].ifname, sizeof(p.ports[0].ifname), "ens5f0np0");
	snprintf(p.ports[0].driver_now, sizeof(p.ports[0].driver_now), "mlx5_core");
	snprintf(p.ports[0].driver, sizeof(p.ports[0].driver), "vfio-pci");
	p.ports[0].node = 1;
	p.ports[0].iommu_group = 61;
	p.ports[0].reason = strdup("a DPDK port");
	snprintf(p.ports[1].pci, sizeof(p.ports[1].pci), "0000:18:00.0");
	snprintf(p.ports[1].driver, sizeof(p.ports[1].driver), "vfio-pci");
	p.ports[1].node = -1;
	p.ports[1].iommu_group = -1;
	p.ports[1].noiommu = true;
	doc = nn_plan_to_json(&p);
	assert_non_null(doc);
	assert_int_equal(nn_plan_from_json(doc, &back, why, sizeof(why)), 0);
	assert_int_equal(back.nports, 2);
	assert_string_equal(back.ports[0].pci, "0000:af:00.0");
	assert_string_equal(back.ports[0].ifname, "ens5f0np0");
	assert_string_equal(back.ports[0].driver_now, "mlx5_core");
	assert_int_equal(back.ports[0].node, 1);
	assert_int_equal(back.ports[0].iommu_group, 61);
	assert_false(back.ports[0].noiommu);
	assert_string_equal(back.ports[0].reason, "a DPDK port");
	assert_int_equal(back.ports[1].node, -1);
	assert_int_equal(back.ports[1].iommu_group, -1);
	assert_string_equal(back.ports[1].driver_now, "");
	assert_true(back.ports[1].noiommu);
	nn_plan_free(&back);
	/* a hand-made plan cannot name a path or another driver */
	ports = json_object_object_get(json_object_object_get(doc, "plan"), "ports");
	json_object_object_add(json_object_array_get_idx(ports, 1), "pci", json_object_new_string("../../../x"));
	assert_int_equal(nn_plan_from_json(doc, &back, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "plan.ports[1].pci"));
	json_object_object_add(json_object_array_get_idx(ports, 1), "pci", json_object_new_string("0000:18:00.0"));
	json_object_object_add(json_object_array_get_idx(ports, 1), "driver", json_object_new_string("igb_uio"));
	assert_int_equal(nn_plan_from_json(doc, &back, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "nicnuma binds ports to vfio-pci only"));
	json_object_put(doc);
	nn_plan_free(&p);
}

/* The kernel's way on a fake root: the override, the unbind from the
 * driver it is on, the probe - and nothing more where it is on the driver. */
static void test_bind(void **state)
{
	char d[256], path[512], why[256], *t;
	struct nn_ctx ctx;

	(void)state;
	assert_int_equal(tmptree_make(d, sizeof(d), "ports"), 0);
	tmptree_put(d, "sys/bus/pci/devices/0000:af:00.0/driver_override", "(null)\n");
	tmptree_put(d, "sys/bus/pci/drivers/mlx5_core/unbind", "");
	tmptree_put(d, "sys/bus/pci/drivers/vfio-pci/unbind", "");
	tmptree_put(d, "sys/bus/pci/drivers_probe", "");
	snprintf(path, sizeof(path), "%s/sys/bus/pci/devices/0000:af:00.0/driver", d);
	assert_int_equal(symlink("../../drivers/mlx5_core", path), 0);
	assert_int_equal(nn_ctx_init(&ctx, d, false), 0);

	assert_int_equal(nn_port_bind(&ctx, "0000:af:00.0", "vfio-pci", "vfio-pci", why, sizeof(why)), 0);
	t = tmptree_get(d, "sys/bus/pci/devices/0000:af:00.0/driver_override");
	assert_string_equal(t, "vfio-pci\n");
	free(t);
	t = tmptree_get(d, "sys/bus/pci/drivers/mlx5_core/unbind");
	assert_string_equal(t, "0000:af:00.0\n");
	free(t);
	t = tmptree_get(d, "sys/bus/pci/drivers_probe");
	assert_string_equal(t, "0000:af:00.0\n");
	free(t);

	/* the kernel moved it: the way back clears the override, unbinds from vfio-pci, probes */
	unlink(path);
	assert_int_equal(symlink("../../drivers/vfio-pci", path), 0);
	tmptree_put(d, "sys/bus/pci/drivers_probe", "");
	assert_int_equal(nn_port_bind(&ctx, "0000:af:00.0", "mlx5_core", "", why, sizeof(why)), 0);
	t = tmptree_get(d, "sys/bus/pci/devices/0000:af:00.0/driver_override");
	assert_string_equal(t, "\n");
	free(t);
	t = tmptree_get(d, "sys/bus/pci/drivers/vfio-pci/unbind");
	assert_string_equal(t, "0000:af:00.0\n");
	free(t);
	t = tmptree_get(d, "sys/bus/pci/drivers_probe");
	assert_string_equal(t, "0000:af:00.0\n");
	free(t);

	/* on vfio-pci already: no unbind, no probe */
	tmptree_put(d, "sys/bus/pci/drivers/vfio-pci/unbind", "");
	tmptree_put(d, "sys/bus/pci/drivers_probe", "");
	assert_int_equal(nn_port_bind(&ctx, "0000:af:00.0", "vfio-pci", "vfio-pci", why, sizeof(why)), 0);
	t = tmptree_get(d, "sys/bus/pci/drivers_probe");
	assert_string_equal(t, "");
	free(t);
	t = tmptree_get(d, "sys/bus/pci/drivers/vfio-pci/unbind");
	assert_string_equal(t, "");
	free(t);

	/* a bad name writes nothing; a missing file is named */
	assert_int_equal(nn_port_bind(&ctx, "../../x", "vfio-pci", "vfio-pci", why, sizeof(why)), -EINVAL);
	assert_int_equal(nn_port_bind(&ctx, "0000:af:00.0", "../x", "", why, sizeof(why)), -EINVAL);
	assert_int_equal(nn_port_bind(&ctx, "0000:af:00.1", "vfio-pci", "vfio-pci", why, sizeof(why)), -ENOENT);
	assert_non_null(strstr(why, "/sys/bus/pci/devices/0000:af:00.1/driver_override"));
	nn_ctx_free(&ctx);
	tmptree_remove(d);
}

/* A log's "port" change: checked before anything is replayed. */
static void test_undo_kind(void **state)
{
	struct nn_change c = { &nn_port_change_ops, "0000:af:00.0", "mlx5_core", "vfio-pci", "" };
	char why[256];

	(void)state;
	assert_string_equal(nn_port_change_ops.name, "port");
	assert_int_equal(nn_port_change_ops.validate(NULL, NULL, &c, why, sizeof(why)), 0);
	c.before = "";		/* it had no driver */
	assert_int_equal(nn_port_change_ops.validate(NULL, NULL, &c, why, sizeof(why)), 0);
	c.path = "../../../etc";
	assert_int_equal(nn_port_change_ops.validate(NULL, NULL, &c, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "is not a PCI address"));
	c.path = "0000:af:00.0";
	c.before = "mlx5_core/../../x";
	assert_int_equal(nn_port_change_ops.validate(NULL, NULL, &c, why, sizeof(why)), -EINVAL);
	c.before = "mlx5_core";
	c.detail = "a b";
	assert_int_equal(nn_port_change_ops.validate(NULL, NULL, &c, why, sizeof(why)), -EINVAL);
	c.detail = NULL;
	c.after = "uio_pci_generic";
	assert_int_equal(nn_port_change_ops.validate(NULL, NULL, &c, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "vfio-pci only"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pci_valid),
		cmocka_unit_test(test_verdict),
		cmocka_unit_test(test_plan_json),
		cmocka_unit_test(test_bind),
		cmocka_unit_test(test_undo_kind),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
