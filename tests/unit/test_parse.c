// SPDX-License-Identifier: GPL-2.0-or-later
/* test_parse.c - /proc/interrupts, IRQ-name queue patterns, distance rows,
 * node meminfo and bracketed sysfs choices */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "nicnuma/core/cpuset.h"
#include "irq/irq_names.h"
#include "nicnuma/core/parse.h"
#include "nicnuma/core/strbuf.h"

/* This machine's file, trimmed: 2 CPUs, x86 "N-edge" hwirq, per-CPU rows. */
static const char *interrupts_2cpu =
"           CPU0       CPU1       \n"
" 24:          1          0  IO-APIC   5-edge      ACPI:Ged\n"
" 28:          0          0 PCI-MSIX-0000:00:01.0   0-edge      virtio0-config\n"
" 37:          0          0 PCI-MSIX-0000:00:03.0   0-edge      virtio2-config\n"
" 38:          0        496 PCI-MSIX-0000:00:03.0   1-edge      virtio2-input.0\n"
" 39:        414          0 PCI-MSIX-0000:00:03.0   2-edge      virtio2-output.0\n"
"NMI:          0          0   Non-maskable interrupts\n"
"LOC:      21679      24430   Local timer interrupts\n"
"ERR:          0\n"
"MIS:          0\n";

static void interrupts_this_host(void **state)
{
	struct nn_interrupt *v;
	const struct nn_interrupt *it;
	size_t n, bad = 99;

	(void)state;
	assert_int_equal(nn_parse_interrupts(interrupts_2cpu, &v, &n, &bad), 0);
	assert_int_equal(n, 5);
	assert_int_equal(bad, 0);
	it = nn_interrupts_find(v, n, 38);
	assert_non_null(it);
	assert_int_equal(it->total, 496);
	assert_string_equal(it->chip, "PCI-MSIX-0000:00:03.0");
	assert_string_equal(it->hwirq, "1-edge");
	assert_string_equal(it->name, "virtio2-input.0");
	it = nn_interrupts_find(v, n, 24);
	assert_non_null(it);
	assert_string_equal(it->name, "ACPI:Ged");
	assert_int_equal(it->total, 1);
	assert_null(nn_interrupts_find(v, n, 25));
	assert_null(nn_interrupts_find(v, n, 1000));
	nn_interrupts_free(v, n);
}

/* 130 CPU columns: the header decides how many numbers are counts, so a name
 * that is itself a number ("12") is not eaten as a count. */
static void interrupts_many_cpus(void **state)
{
	size_t ncpu = 130, i, n, bad;
	struct nn_sb text = NN_SB_INIT;
	struct nn_interrupt *v;
	const struct nn_interrupt *it;

	(void)state;
	nn_sb_puts(&text, "      ");
	for (i = 0; i < ncpu; i++)
		nn_sb_printf(&text, " CPU%-7zu", i);
	nn_sb_puts(&text, "\n 140:");
	for (i = 0; i < ncpu; i++)
		nn_sb_printf(&text, " %10zu", i);
	nn_sb_puts(&text, "  IR-PCI-MSIX-0000:3b:00.0  524288-edge      mlx5_comp7@pci:0000:3b:00.0\n");
	nn_sb_puts(&text, " 141:");
	for (i = 0; i < ncpu; i++)
		nn_sb_printf(&text, " %10d", 1);
	nn_sb_puts(&text, "  weird-chip   12\n");
	assert_non_null(nn_sb_str(&text));
	assert_int_equal(nn_parse_interrupts(nn_sb_str(&text), &v, &n, &bad), 0);
	assert_int_equal(n, 2);
	assert_int_equal(bad, 0);
	it = nn_interrupts_find(v, n, 140);
	assert_non_null(it);
	assert_int_equal(it->total, ncpu * (ncpu - 1) / 2);
	assert_string_equal(it->chip, "IR-PCI-MSIX-0000:3b:00.0");
	assert_string_equal(it->name, "mlx5_comp7@pci:0000:3b:00.0");
	it = nn_interrupts_find(v, n, 141);
	assert_int_equal(it->total, ncpu);
	assert_string_equal(it->chip, "weird-chip");
	assert_string_equal(it->hwirq, "12");
	assert_null(it->name);
	nn_interrupts_free(v, n);
	nn_sb_free(&text);
}

/* Mostly-zero rows, as a big host has them: the parser takes runs of zero
 * columns whole. A count inside a run, one right after it, a row that ends
 * mid-run and a "0" glued to the chip name must all come out as the
 * one-column walk reads them. */
static void interrupts_zero_runs(void **state)
{
	size_t ncpu = 48, i, n, bad;
	struct nn_sb text = NN_SB_INIT;
	struct nn_interrupt *v;
	const struct nn_interrupt *it;

	(void)state;
	nn_sb_puts(&text, "      ");
	for (i = 0; i < ncpu; i++)
		nn_sb_printf(&text, " CPU%-7zu", i);
	/* 200: counts at columns 5, 16 (right after the first run), 47 */
	nn_sb_puts(&text, "\n 200:");
	for (i = 0; i < ncpu; i++)
		nn_sb_printf(&text, " %10d", i == 5 ? 3 : i == 16 ? 40 : i == 47 ? 500 : 0);
	nn_sb_puts(&text, "  PCI-MSIX-0000:01:00.0  1-edge  q200\n");
	/* 201: all zero */
	nn_sb_puts(&text, " 201:");
	for (i = 0; i < ncpu; i++)
		nn_sb_printf(&text, " %10d", 0);
	nn_sb_puts(&text, "  PCI-MSIX-0000:01:00.0  2-edge  q201\n");
	/* 202: the last zero glued to the chip: 47 columns, then "0chip" */
	nn_sb_puts(&text, " 202:");
	for (i = 0; i + 1 < ncpu; i++)
		nn_sb_printf(&text, " %10d", 0);
	nn_sb_puts(&text, "          0chip 3-edge q202\n");
	/* 203: a row cut short after 20 zero columns */
	nn_sb_puts(&text, " 203:");
	for (i = 0; i < 20; i++)
		nn_sb_printf(&text, " %10d", 0);
	nn_sb_puts(&text, "\n");
	assert_non_null(nn_sb_str(&text));
	assert_int_equal(nn_parse_interrupts(nn_sb_str(&text), &v, &n, &bad), 0);
	it = nn_interrupts_find(v, n, 200);
	assert_non_null(it);
	assert_int_equal(it->total, 543);
	assert_string_equal(it->name, "q200");
	it = nn_interrupts_find(v, n, 201);
	assert_non_null(it);
	assert_int_equal(it->total, 0);
	assert_string_equal(it->chip, "PCI-MSIX-0000:01:00.0");
	assert_string_equal(it->name, "q201");
	/* "0chip" is no count: the row has 47 counts and the chip is "0chip" */
	it = nn_interrupts_find(v, n, 202);
	assert_non_null(it);
	assert_int_equal(it->total, 0);
	assert_string_equal(it->chip, "0chip");
	it = nn_interrupts_find(v, n, 203);
	assert_non_null(it);
	assert_null(it->chip);
	nn_interrupts_free(v, n);
	nn_sb_free(&text);
}

/* ARM's GIC: hwirq, then "Level"/"Edge"; shared actions joined by ", ". */
static void interrupts_arm_and_shared(void **state)
{
	const char *t =
		"           CPU0       CPU1       CPU2       CPU3\n"
		" 11:      10         20         30         40     GICv3  27 Level     arch_timer\n"
		" 57:       0          0          0          0  ITS-MSI 524288 Edge      eth0-TxRx-0\n"
		" 16:       1          0          0          0   IO-APIC  16-fasteoi   ehci_hcd:usb1, uhci_hcd:usb2\n"
		"IPI0:     5          6          7          8       Rescheduling interrupts\n"
		" xx:  garbage\n"
		" 99\n";
	struct nn_interrupt *v;
	size_t n, bad;

	(void)state;
	assert_int_equal(nn_parse_interrupts(t, &v, &n, &bad), 0);
	assert_int_equal(n, 3);
	assert_int_equal(bad, 1);	/* " 99" without a colon */
	assert_int_equal(v[0].irq, 11);	/* sorted */
	assert_string_equal(v[0].name, "arch_timer");
	assert_int_equal(v[0].total, 100);
	assert_string_equal(v[1].name, "ehci_hcd:usb1, uhci_hcd:usb2");
	assert_string_equal(v[2].name, "eth0-TxRx-0");
	assert_string_equal(v[2].hwirq, "524288");
	nn_interrupts_free(v, n);
}

static void interrupts_garbage(void **state)
{
	struct nn_interrupt *v;
	size_t n, bad;

	(void)state;
	assert_int_equal(nn_parse_interrupts("", &v, &n, &bad), 0);
	assert_int_equal(n, 0);
	assert_int_equal(nn_parse_interrupts("CPU0\n 5: x y\n 6:\n 7: 99999999999999999999999 c n\n",
					     &v, &n, &bad), 0);
	assert_int_equal(n, 0);
	assert_int_equal(bad, 3);
	nn_interrupts_free(v, n);
	/* no header at all: every leading number is a count */
	assert_int_equal(nn_parse_interrupts(" 5: 1 2 3 chip 0-edge eth9-rx-3", &v, &n, &bad), 0);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].total, 6);
	assert_string_equal(v[0].name, "eth9-rx-3");
	nn_interrupts_free(v, n);
	/* an 11-byte "          0" not followed by a space is no count: the
	 * chip name "0chip" starts there (exact kernel width, fast path) */
	assert_int_equal(nn_parse_interrupts("  CPU0  CPU1\n 8:          5          0chip 1-edge z\n",
					     &v, &n, &bad), 0);
	assert_int_equal(n, 1);
	assert_int_equal(v[0].total, 5);
	assert_string_equal(v[0].chip, "0chip");
	nn_interrupts_free(v, n);
	/* the largest count fits, one more does not; tabs inside the padding */
	assert_int_equal(nn_parse_interrupts("  CPU0  CPU1\n 9:  18446744073709551615 \t        0 c 1-edge q\n"
					     "10: 18446744073709551616 0 c 1-edge r\n", &v, &n, &bad), 0);
	assert_int_equal(n, 1);
	assert_int_equal(bad, 1);
	assert_true(v[0].total == 18446744073709551615ull);
	assert_string_equal(v[0].chip, "c");
	assert_string_equal(v[0].name, "q");
	nn_interrupts_free(v, n);
	assert_int_equal(nn_parse_interrupts(NULL, &v, &n, NULL), -EINVAL);
}

struct qcase {
	const char *name, *ifname, *pci;
	int ret, queue;
	enum nn_qdir dir;
};

static void irq_name_queue(void **state)
{
	static const struct qcase cases[] = {
		{ "mlx5_comp3@pci:0000:3b:00.0", "ens1f0np0", "0000:3b:00.0", 1, 3, NN_QDIR_RXTX },
		{ "mlx5_comp63@pci:0000:3b:00.1", NULL, NULL, 1, 63, NN_QDIR_RXTX },
		{ "mlx5_comp3@pci:0000:3b:00.1", "x", "0000:3b:00.0", 0, -1, NN_QDIR_NONE },
		{ "mlx5_comp12", NULL, NULL, 1, 12, NN_QDIR_RXTX },
		{ "mlx5_async0@pci:0000:3b:00.0", NULL, "0000:3b:00.0", 0, -1, NN_QDIR_NONE },
		{ "mlx5_ctrl_eq@pci:0000:3b:00.0", NULL, NULL, 0, -1, NN_QDIR_NONE },
		{ "mlx5_compx@pci:0000:3b:00.0", NULL, NULL, 0, -1, NN_QDIR_NONE },
		{ "i40e-ens1f0-TxRx-5", "ens1f0", "0000:18:00.0", 1, 5, NN_QDIR_RXTX },
		{ "i40e-0000:18:00.0:misc", "ens1f0", "0000:18:00.0", 0, -1, NN_QDIR_NONE },
		{ "ice-ens2f0-TxRx-17", "ens2f0", NULL, 1, 17, NN_QDIR_RXTX },
		{ "eth2-TxRx-5", "eth2", NULL, 1, 5, NN_QDIR_RXTX },
		{ "ens1f0-TxRx-0", "ens1f0", NULL, 1, 0, NN_QDIR_RXTX },
		/* renamed after the IRQ was requested: still this device's queue */
		{ "eth0-TxRx-2", "enp3s0", NULL, 1, 2, NN_QDIR_RXTX },
		{ "my-dev-name-TxRx-3", "my-dev-name", NULL, 1, 3, NN_QDIR_RXTX },
		{ "eth3-rx-1", "eth3", NULL, 1, 1, NN_QDIR_RX },
		{ "eth3-tx-1", "eth3", NULL, 1, 1, NN_QDIR_TX },
		{ "eth3", "eth3", NULL, 0, -1, NN_QDIR_NONE },
		{ "bnxt_en-TxRx-0", NULL, NULL, 1, 0, NN_QDIR_RXTX },
		{ "enp1s0f0np0-TxRx-7", "enp1s0f0np0", NULL, 1, 7, NN_QDIR_RXTX },
		{ "eth1-fp-4", "eth1", NULL, 1, 4, NN_QDIR_RXTX },
		{ "-TxRx-3", NULL, NULL, 0, -1, NN_QDIR_NONE },
		{ "eth2-TxRx-", NULL, NULL, 0, -1, NN_QDIR_NONE },
		{ "eth2-TxRx-3a", NULL, NULL, 0, -1, NN_QDIR_NONE },
		{ "eth2-TxRx--3", NULL, NULL, 0, -1, NN_QDIR_NONE },
		{ "eth2-TxRx-99999999999", NULL, NULL, 0, -1, NN_QDIR_NONE },
		{ "virtio2-input.0", "eth0", "0000:00:03.0", 1, 0, NN_QDIR_RX },
		{ "virtio2-output.3", "eth0", "0000:00:03.0", 1, 3, NN_QDIR_TX },
		{ "virtio12-input.15", NULL, NULL, 1, 15, NN_QDIR_RX },
		{ "virtio2-config", "eth0", NULL, 0, -1, NN_QDIR_NONE },
		{ "virtio2-control", "eth0", NULL, 0, -1, NN_QDIR_NONE },
		{ "virtio3-rx", NULL, NULL, 0, -1, NN_QDIR_NONE },
		{ "virtio1-req.0", NULL, NULL, 0, -1, NN_QDIR_NONE },
		{ "virtio2-input.", NULL, NULL, 0, -1, NN_QDIR_NONE },
		{ "virtio-input.0", NULL, NULL, 0, -1, NN_QDIR_NONE },
		{ "ACPI:Ged", NULL, NULL, 0, -1, NN_QDIR_NONE },
		{ "", NULL, NULL, 0, -1, NN_QDIR_NONE },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct qcase *c = &cases[i];
		enum nn_qdir dir = NN_QDIR_RX;
		int q = 42, r;

		r = nn_irq_name_queue(c->name, c->ifname, c->pci, &q, &dir);
		if (r != c->ret || q != c->queue || dir != c->dir)
			fail_msg("'%s': got ret %d queue %d dir %d, want %d %d %d",
				 c->name, r, q, dir, c->ret, c->queue, c->dir);
	}
	{
		int q = 5;
		enum nn_qdir d = NN_QDIR_TX;

		assert_int_equal(nn_irq_name_queue(NULL, NULL, NULL, &q, &d), 0);
		assert_int_equal(q, -1);
		assert_int_equal(d, NN_QDIR_NONE);
	}
}

/* The drivers' name table: a row per family as its driver formats the name,
 * the own-driver rows first, the fallback for an unknown driver, and what
 * matches nothing. */
static void irq_name_roles(void **state)
{
	static const struct rcase {
		const char *name, *driver, *ifname, *pci;
		enum nn_irq_role role;
		int queue;
		enum nn_qdir dir;
	} cases[] = {
		{ "mlx5_comp7@pci:0000:af:00.0", "mlx5_core", "ens5", "0000:af:00.0", NN_IRQ_ROLE_QUEUE, 7, NN_QDIR_RXTX },
		{ "mlx5_async0@pci:0000:af:00.0", "mlx5_core", "ens5", "0000:af:00.0", NN_IRQ_ROLE_MISC, -1, NN_QDIR_NONE },
		{ "mlx5_async@pci:0000:af:00.0", "mlx5_core", NULL, NULL, NN_IRQ_ROLE_MISC, -1, NN_QDIR_NONE },
		{ "mlx5_sf_ctrl0@pci:0000:af:00.0", "mlx5_core", NULL, NULL, NN_IRQ_ROLE_MISC, -1, NN_QDIR_NONE },
		{ "mlx5_sf_comp3@pci:0000:af:00.0", "mlx5_core", NULL, NULL, NN_IRQ_ROLE_QUEUE, -1, NN_QDIR_RXTX },
		/* another function's vector in this one's msi_irqs: not ours */
		{ "mlx5_comp7@pci:0000:af:00.1", "mlx5_core", NULL, "0000:af:00.0", NN_IRQ_ROLE_UNKNOWN, -1, NN_QDIR_NONE },
		/* mlx4's number is an EQ, shared by the ports: a queue of no index */
		{ "mlx4-3@0000:04:00.0", "mlx4_core", NULL, "0000:04:00.0", NN_IRQ_ROLE_QUEUE, -1, NN_QDIR_RXTX },
		{ "mlx4-comp-2@pci:0000:04:00.0", "mlx4_core", NULL, "0000:04:00.0", NN_IRQ_ROLE_QUEUE, -1,
		  NN_QDIR_RXTX },
		{ "mlx4-async@pci:0000:04:00.0", "mlx4_core", NULL, NULL, NN_IRQ_ROLE_MISC, -1, NN_QDIR_NONE },
		{ "ice-eth0-TxRx-12", "ice", "ens1f0", NULL, NN_IRQ_ROLE_QUEUE, 12, NN_QDIR_RXTX },
		{ "ice-0000:18:00.0:misc", "ice", "ens1f0", "0000:18:00.0", NN_IRQ_ROLE_MISC, -1, NN_QDIR_NONE },
		{ "i40e-0000:18:00.0:misc", "i40e", NULL, NULL, NN_IRQ_ROLE_MISC, -1, NN_QDIR_NONE },
		{ "iavf-0000:3b:02.0:mbx", "iavf", NULL, NULL, NN_IRQ_ROLE_MISC, -1, NN_QDIR_NONE },
		{ "iavf-ens1v0-TxRx-1", "iavf", NULL, NULL, NN_IRQ_ROLE_QUEUE, 1, NN_QDIR_RXTX },
		{ "idpf-Mailbox-0", "idpf", NULL, NULL, NN_IRQ_ROLE_MISC, -1, NN_QDIR_NONE },
		{ "idpf-ens2-TxRx-4", "idpf", NULL, NULL, NN_IRQ_ROLE_QUEUE, 4, NN_QDIR_RXTX },
		{ "ens2f0", "ixgbe", "ens2f0", NULL, NN_IRQ_ROLE_MISC, -1, NN_QDIR_NONE },
		{ "ens2f0-TxRx-3", "ixgbe", "ens2f0", NULL, NN_IRQ_ROLE_QUEUE, 3, NN_QDIR_RXTX },
		/* %i is the current name only: a renamed misc vector is unknown */
		{ "eth0", "igb", "eno1", NULL, NN_IRQ_ROLE_UNKNOWN, -1, NN_QDIR_NONE },
		{ "eno1", "igc", "eno1", NULL, NN_IRQ_ROLE_MISC, -1, NN_QDIR_NONE },
		{ "enp0s2-rx-0", "e1000e", "enp0s2", NULL, NN_IRQ_ROLE_QUEUE, 0, NN_QDIR_RX },
		{ "enp0s2-tx-0", "e1000e", "enp0s2", NULL, NN_IRQ_ROLE_QUEUE, 0, NN_QDIR_TX },
		{ "enp0s2", "e1000e", "enp0s2", NULL, NN_IRQ_ROLE_MISC, -1, NN_QDIR_NONE },
		{ "ens21f0np0-TxRx-31", "bnxt_en", NULL, NULL, NN_IRQ_ROLE_QUEUE, 31, NN_QDIR_RXTX },
		{ "ens3-fp-2", "qede", NULL, NULL, NN_IRQ_ROLE_QUEUE, 2, NN_QDIR_RXTX },
		{ "sp-0-81:00.00", "qede", NULL, NULL, NN_IRQ_ROLE_MISC, -1, NN_QDIR_NONE },
		{ "sp-0-81:00.00", NULL, NULL, NULL, NN_IRQ_ROLE_UNKNOWN, -1, NN_QDIR_NONE },
		{ "ens4-Rx3", "cxgb4", "ens4", NULL, NN_IRQ_ROLE_QUEUE, 3, NN_QDIR_RX },
		{ "ens4-FWeventq", "cxgb4", "ens4", NULL, NN_IRQ_ROLE_MISC, -1, NN_QDIR_NONE },
		{ "ens4d1-mirrorrxq0", "cxgb4", "ens4", NULL, NN_IRQ_ROLE_QUEUE, -1, NN_QDIR_RX },
		/* the non-data vector is named after port 0: misc for port 0 only */
		{ "ens4", "cxgb4", "ens4", NULL, NN_IRQ_ROLE_MISC, -1, NN_QDIR_NONE },
		{ "ens4", "cxgb4", "ens4d1", NULL, NN_IRQ_ROLE_UNKNOWN, -1, NN_QDIR_NONE },
		{ "sp-1-81:00.02", "qede", NULL, NULL, NN_IRQ_ROLE_MISC, -1, NN_QDIR_NONE },
		{ "hns3-0000:7d:00.0-TxRx-5", "hns3", NULL, "0000:7d:00.0", NN_IRQ_ROLE_QUEUE, 5, NN_QDIR_RXTX },
		{ "hclge-misc-0000:7d:00.0", "hns3", NULL, "0000:7d:00.0", NN_IRQ_ROLE_MISC, -1, NN_QDIR_NONE },
		{ "eth0-Tx-Rx-7", "ena", "ens5", NULL, NN_IRQ_ROLE_QUEUE, 7, NN_QDIR_RXTX },
		{ "ena-mgmnt@pci:0000:00:05.0", "ena", NULL, "0000:00:05.0", NN_IRQ_ROLE_MISC, -1, NN_QDIR_NONE },
		{ "gve-ntfy-blk9@pci:0000:00:04.0", "gve", NULL, "0000:00:04.0", NN_IRQ_ROLE_QUEUE, 9, NN_QDIR_RXTX },
		{ "gve-mgmnt@pci:0000:00:04.0", "gve", NULL, NULL, NN_IRQ_ROLE_MISC, -1, NN_QDIR_NONE },
		{ "mana_q3@pci:7870:00:00.0", "mana", NULL, "7870:00:00.0", NN_IRQ_ROLE_QUEUE, 3, NN_QDIR_RXTX },
		{ "mana_hwc@pci:7870:00:00.0", "mana", NULL, NULL, NN_IRQ_ROLE_MISC, -1, NN_QDIR_NONE },
		{ "ens6f0np0-5", "sfc", NULL, NULL, NN_IRQ_ROLE_QUEUE, 5, NN_QDIR_RXTX },
		/* sfc's bare "<if>-N" is its own: any other driver leaves it unknown */
		{ "ens6f0np0-5", "ixgbe", "x", NULL, NN_IRQ_ROLE_UNKNOWN, -1, NN_QDIR_NONE },
		{ "enp1s0np0-rxtx-3", "nfp", NULL, NULL, NN_IRQ_ROLE_QUEUE, 3, NN_QDIR_RXTX },
		{ "enp1s0np0-lsc", "nfp", NULL, NULL, NN_IRQ_ROLE_MISC, -1, NN_QDIR_NONE },
		{ "enp1s0np0-exn", "nfp", NULL, NULL, NN_IRQ_ROLE_MISC, -1, NN_QDIR_NONE },
		{ "ens6f0np0-rx-2", "sfc", NULL, NULL, NN_IRQ_ROLE_QUEUE, 2, NN_QDIR_RX },
		{ "ens6f0np0-tx-2", "sfc", NULL, NULL, NN_IRQ_ROLE_QUEUE, 2, NN_QDIR_TX },
		{ "ens6f0np0-xdp-1", "sfc", NULL, NULL, NN_IRQ_ROLE_QUEUE, -1, NN_QDIR_TX },
		{ "ens6f0np0-ptp", "sfc", NULL, NULL, NN_IRQ_ROLE_MISC, -1, NN_QDIR_NONE },
		{ "ens6f0np0-ptp", "bnxt_en", NULL, NULL, NN_IRQ_ROLE_UNKNOWN, -1, NN_QDIR_NONE },
		{ "ens192-rxtx-2", "vmxnet3", "ens192", NULL, NN_IRQ_ROLE_QUEUE, 2, NN_QDIR_RXTX },
		{ "ens192-event-4", "vmxnet3", "ens192", NULL, NN_IRQ_ROLE_MISC, -1, NN_QDIR_NONE },
		{ "virtio2-input.3", "virtio_net", "eth0", NULL, NN_IRQ_ROLE_QUEUE, 3, NN_QDIR_RX },
		{ "virtio2-virtqueues", "virtio_net", "eth0", NULL, NN_IRQ_ROLE_QUEUE, -1, NN_QDIR_RXTX },
		{ "virtio2-config", "virtio_net", "eth0", NULL, NN_IRQ_ROLE_MISC, -1, NN_QDIR_NONE },
		/* driver unknown (no driver link): the formats still tell */
		{ "gve-ntfy-blk0@pci:0000:18:00.0", NULL, NULL, "0000:18:00.0", NN_IRQ_ROLE_QUEUE, 0, NN_QDIR_RXTX },
		{ "mlx5_comp1@pci:0000:af:00.0", "i40e", NULL, "0000:af:00.0", NN_IRQ_ROLE_QUEUE, 1, NN_QDIR_RXTX },
		{ "acme-evq3@pci:0000:18:00.0", "acme", NULL, "0000:18:00.0", NN_IRQ_ROLE_UNKNOWN, -1, NN_QDIR_NONE },
		{ "ens1 -TxRx-1", NULL, NULL, NULL, NN_IRQ_ROLE_UNKNOWN, -1, NN_QDIR_NONE },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct rcase *c = &cases[i];
		enum nn_qdir dir = NN_QDIR_TX;
		int q = 42, flags = 7;
		enum nn_irq_role r = nn_irq_name_role(c->name, c->driver, c->ifname, c->pci, &q, &dir, &flags);

		if (r != c->role || q != c->queue || dir != c->dir)
			fail_msg("'%s' (%s): got %s queue %d dir %d, want %s %d %d", c->name,
				 c->driver ? c->driver : "no driver", nn_irq_role_name(r), q, dir,
				 nn_irq_role_name(c->role), c->queue, c->dir);
		assert_true(r != NN_IRQ_ROLE_UNKNOWN || flags == 0);
	}
	{
		int q, flags = 0;
		enum nn_qdir d;

		assert_int_equal(nn_irq_name_role("gve-ntfy-blk3@pci:0000:00:04.0", "gve", NULL, NULL, &q, &d, &flags),
				 NN_IRQ_ROLE_QUEUE);
		assert_true(flags & NN_IRQ_ROW_HALVES);
	}
	/* every row is reachable: its driver, its pattern well formed */
	for (i = 0; nn_irq_name_row(i); i++) {
		const struct nn_irq_name_row *row = nn_irq_name_row(i);
		const char *p;

		for (p = row->pattern; (p = strchr(p, '%')); p += 2)
			assert_non_null(strchr("qnpis", p[1]));
		assert_true(row->role != NN_IRQ_ROLE_UNKNOWN);
		assert_true((row->role == NN_IRQ_ROLE_QUEUE) == (row->dir != NN_QDIR_NONE));
	}
	assert_true(i > 40);
}

static void distances(void **state)
{
	int *d;
	size_t n;

	(void)state;
	assert_int_equal(nn_parse_distances("10 21 21 31\n", &d, &n), 0);
	assert_int_equal(n, 4);
	assert_int_equal(d[0], 10);
	assert_int_equal(d[3], 31);
	free(d);
	/* EPYC NPS4: 8 entries */
	assert_int_equal(nn_parse_distances("10 12 12 12 32 32 32 32", &d, &n), 0);
	assert_int_equal(n, 8);
	assert_int_equal(d[4], 32);
	free(d);
	assert_int_equal(nn_parse_distances("", &d, &n), -EINVAL);
	assert_null(d);
	assert_int_equal(nn_parse_distances("\n", &d, &n), -EINVAL);
	assert_int_equal(nn_parse_distances("10 2x", &d, &n), -EINVAL);
	assert_int_equal(nn_parse_distances("10 -1", &d, &n), -EINVAL);
	assert_int_equal(nn_parse_distances("10 99999999999999999999", &d, &n), -ERANGE);
	assert_int_equal(nn_parse_distances("10 4294967296", &d, &n), -ERANGE);
}

/* The one meminfo parser: whole keys, the "Node N " prefix, kB or no unit. */
static void meminfo_kb(void **state)
{
	const char *node = "Node 1 MemTotal:       16384 kB\nNode 1 MemFree:    2048 kB\n"
			   "Node 1 HugePages_Total:     4\n";
	long kb = 0;

	(void)state;
	assert_int_equal(nn_parse_meminfo_kb(node, "MemTotal", &kb), 0);
	assert_int_equal(kb, 16384);
	assert_int_equal(nn_parse_meminfo_kb(node, "HugePages_Total", &kb), 0);
	assert_int_equal(kb, 4);
	assert_int_equal(nn_parse_meminfo_kb(node, "Mem", &kb), -ENOENT);
	assert_int_equal(nn_parse_meminfo_kb("Hugepagesize:    2048 kB\n", "Hugepagesize", &kb), 0);
	assert_int_equal(kb, 2048);
	assert_int_equal(nn_parse_meminfo_kb("MemTotal: 12 MB\n", "MemTotal", &kb), -EINVAL);
	assert_int_equal(nn_parse_meminfo_kb("MemTotal: 99999999999999999999 kB\n", "MemTotal", &kb),
			 -ERANGE);
}

static void node_meminfo(void **state)
{
	const char *m =
		"Node 0 MemTotal:        4810528 kB\n"
		"Node 0 MemFree:         4592204 kB\n"
		"Node 0 MemUsed:          218324 kB\n"
		"Node 0 HugePages_Total:     0\n";
	long t, f;

	(void)state;
	assert_int_equal(nn_parse_node_meminfo(m, &t, &f), 0);
	assert_int_equal(t, 4810528);
	assert_int_equal(f, 4592204);
	/* CPU-only node: MemTotal 0 is a value, not unknown */
	assert_int_equal(nn_parse_node_meminfo("Node 3 MemTotal: 0 kB\nNode 3 MemFree: 0 kB\n", &t, &f), 0);
	assert_int_equal(t, 0);
	assert_int_equal(f, 0);
	assert_int_equal(nn_parse_node_meminfo("Node 0 MemTotal: 5 kB\n", &t, &f), -EINVAL);
	assert_int_equal(t, 5);
	assert_int_equal(f, -1);
	assert_int_equal(nn_parse_node_meminfo("Node 0 MemTotal: abc kB\nNode 0 MemFree: 1 kB\n", &t, &f), -EINVAL);
	assert_int_equal(t, -1);
	assert_int_equal(f, 1);
	assert_int_equal(nn_parse_node_meminfo("", &t, &f), -EINVAL);
}

static void bracketed(void **state)
{
	char buf[32], tiny[4];

	(void)state;
	assert_int_equal(nn_parse_bracketed("always [madvise] never\n", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "madvise");
	assert_int_equal(nn_parse_bracketed("always defer defer+madvise [madvise] never", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "madvise");
	assert_int_equal(nn_parse_bracketed("[always] madvise never", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "always");
	assert_int_equal(nn_parse_bracketed("never\n", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "never");
	assert_int_equal(nn_parse_bracketed("always madvise never", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(nn_parse_bracketed("always [madvise never", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(nn_parse_bracketed("[] never", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(nn_parse_bracketed("[a [b] c", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(nn_parse_bracketed("", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(nn_parse_bracketed("[madvise]", tiny, sizeof(tiny)), -ENAMETOOLONG);
}

static char *isol_list(const char *cmdline, unsigned int *flags, int *err)
{
	struct nn_cpuset s = NN_CPUSET_INIT;
	char *out;

	*err = nn_parse_isolcpus(cmdline, &s, flags, NULL, NULL);
	out = nn_cpuset_format_list(&s);
	nn_cpuset_free(&s);
	return out;
}

#define ISOL(cmd, want_err, want_list, want_flags) do { \
	unsigned int f_ = 99; \
	int e_; \
	char *l_ = isol_list((cmd), &f_, &e_); \
	assert_int_equal(e_, (want_err)); \
	assert_string_equal(l_, (want_list)); \
	assert_int_equal(f_, (want_flags)); \
	free(l_); \
} while (0)

/* isolcpus= as kernel/sched/isolation.c reads it. */
static void isolcpus(void **state)
{
	const char *bad = NULL;
	struct nn_cpuset s = NN_CPUSET_INIT;
	unsigned int f;
	int badlen = 0;
	char buf[64];

	(void)state;
	/* The plain list form means domain. */
	ISOL("BOOT_IMAGE=/vmlinuz ro isolcpus=2-5,7 quiet", 0, "2-5,7", NN_ISOL_DOMAIN);
	/* Flags, in any order; nohz alone does not add domain. */
	ISOL("isolcpus=managed_irq,domain,8-15\n", 0, "8-15", NN_ISOL_DOMAIN | NN_ISOL_MANAGED_IRQ);
	ISOL("isolcpus=nohz,3", 0, "3", NN_ISOL_NOHZ);
	ISOL("isolcpus=nohz,domain,managed_irq,1,3", 0, "1,3",
	     NN_ISOL_NOHZ | NN_ISOL_DOMAIN | NN_ISOL_MANAGED_IRQ);
	/* Two words: the union; quotes around the value. */
	ISOL("isolcpus=1 isolcpus=\"managed_irq,4-5\"", 0, "1,4-5", NN_ISOL_DOMAIN | NN_ISOL_MANAGED_IRQ);
	/* Absent, a lookalike, and init's arguments after "--". */
	ISOL("root=/dev/sda1 ro", -ENOENT, "", 0);
	ISOL("xisolcpus=3 noisolcpus=4", -ENOENT, "", 0);
	ISOL("ro -- isolcpus=0-1", -ENOENT, "", 0);
	ISOL("", -ENOENT, "", 0);
	/* Malformed: unknown flag, flag without a list, empty value, bad list. */
	ISOL("isolcpus=tick,2", -EINVAL, "", 0);
	ISOL("isolcpus=domain", -EINVAL, "", 0);
	ISOL("isolcpus=", -EINVAL, "", 0);
	ISOL("isolcpus=3-1", -EINVAL, "", 0);
	ISOL("isolcpus=2 isolcpus=x", -EINVAL, "", 0);
	assert_int_equal(nn_parse_isolcpus("ro isolcpus=foo,1 quiet", &s, &f, &bad, &badlen), -EINVAL);
	assert_non_null(bad);
	assert_int_equal(badlen, 14);
	assert_memory_equal(bad, "isolcpus=foo,1", 14);
	nn_cpuset_free(&s);

	nn_isol_flags_format(NN_ISOL_DOMAIN | NN_ISOL_MANAGED_IRQ | NN_ISOL_NOHZ, buf, sizeof(buf));
	assert_string_equal(buf, "nohz,domain,managed_irq");
	nn_isol_flags_format(0, buf, sizeof(buf));
	assert_string_equal(buf, "");
	nn_isol_flags_format(NN_ISOL_MANAGED_IRQ, buf, sizeof(buf));
	assert_string_equal(buf, "managed_irq");
}

/* cpu/isolated and cpu/nohz_full: a list, empty, or "(null)". */
static void sys_cpulist(void **state)
{
	struct nn_cpuset s = NN_CPUSET_INIT;

	(void)state;
	assert_int_equal(nn_parse_sys_cpulist("2-3,6\n", &s), 0);
	assert_int_equal(nn_cpuset_count(&s), 3);
	assert_int_equal(nn_parse_sys_cpulist("(null)\n", &s), 0);
	assert_true(nn_cpuset_empty(&s));
	assert_int_equal(nn_parse_sys_cpulist("1\n", &s), 0);
	assert_int_equal(nn_parse_sys_cpulist("\n", &s), 0);
	assert_true(nn_cpuset_empty(&s));
	assert_int_equal(nn_parse_sys_cpulist("(null) 3\n", &s), -EINVAL);
	assert_int_equal(nn_parse_sys_cpulist("garbage", &s), -EINVAL);
	nn_cpuset_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(interrupts_this_host),
		cmocka_unit_test(interrupts_many_cpus),
		cmocka_unit_test(interrupts_zero_runs),
		cmocka_unit_test(interrupts_arm_and_shared),
		cmocka_unit_test(interrupts_garbage),
		cmocka_unit_test(irq_name_queue),
		cmocka_unit_test(irq_name_roles),
		cmocka_unit_test(distances),
		cmocka_unit_test(node_meminfo),
		cmocka_unit_test(meminfo_kb),
		cmocka_unit_test(bracketed),
		cmocka_unit_test(isolcpus),
		cmocka_unit_test(sys_cpulist),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
