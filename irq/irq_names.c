// SPDX-License-Identifier: GPL-2.0-or-later
/* irq_names.c - the drivers' IRQ name formats as one table
 *
 * Each row is the format string a driver passes to request_irq() (or
 * snprintf()s into the name it passes), rewritten in a small pattern
 * language: %q the queue index, %n any number, %p a PCI address, %i the
 * interface's current name, %s any non-empty text (an interface name as the
 * driver saw it when it asked for the IRQ, often before udev renamed it).
 * Literal text compares without case. docs/discovery.md lists the rows with
 * the driver source file each comes from; keep the two in step.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "irq/irq_names.h"

#define Q NN_IRQ_ROLE_QUEUE
#define M NN_IRQ_ROLE_MISC
#define RXTX NN_QDIR_RXTX
#define RX NN_QDIR_RX
#define TX NN_QDIR_TX
#define NONE NN_QDIR_NONE
#define STRICT NN_IRQ_ROW_STRICT
#define HALVES NN_IRQ_ROW_HALVES
#define RANGE NN_IRQ_ROW_RANGE

/* Order matters within a driver (first match wins) and across drivers for the
 * fallback: specific formats before the generic suffixes at the end. */
static const struct nn_irq_name_row rows[] = {
	/* mlx5: PF completion/async vectors (pci_irq.c), sub-function pools
	 * (their IRQs sit in the PF's msi_irqs), and pre-5.x EQ names (eq.c). */
	{ "mlx5_core", "mlx5_comp%q@pci:%p", Q, RXTX, 0 },
	{ "mlx5_core", "mlx5_comp%q", Q, RXTX, 0 },
	{ "mlx5_core", "mlx5_combined%q@pci:%p", Q, RXTX, 0 },
	{ "mlx5_core", "mlx5_async%n@pci:%p", M, NONE, 0 },
	{ "mlx5_core", "mlx5_async@pci:%p", M, NONE, 0 },
	/* SF completion vectors serve sub-functions' queues, not the PF's own:
	 * a queue role without an index (planned after the PF's queues) */
	{ "mlx5_core", "mlx5_sf_comp%n@pci:%p", Q, RXTX, 0 },
	{ "mlx5_core", "mlx5_sf_ctrl%n@pci:%p", M, NONE, 0 },
	{ "mlx5_core", "mlx5_async_eq@pci:%p", M, NONE, 0 },
	{ "mlx5_core", "mlx5_cmd_eq@pci:%p", M, NONE, 0 },
	{ "mlx5_core", "mlx5_pages_eq@pci:%p", M, NONE, 0 },
	/* mlx4 (eq.c): completion EQs "mlx4-N@ADDR" (4.2+; before,
	 * "mlx4-comp-N@pci:ADDR") and the async EQ. N is the EQ number, which
	 * mlx4_en picks from its ring's first CPU and shares between the ports
	 * of the function: no queue index (planned as queues, in order) */
	{ "mlx4_core", "mlx4-%n@%p", Q, RXTX, 0 },
	{ "mlx4_core", "mlx4-comp-%n@pci:%p", Q, RXTX, 0 },
	{ "mlx4_core", "mlx4-async@pci:%p", M, NONE, 0 },
	/* Intel: ice/i40e/iavf/idpf put the driver name first (ice_main.c,
	 * i40e_main.c, iavf_main.c, idpf_lib.c). The Flow Director VSI's
	 * vector is named by the same code as a queue's, from the base
	 * "<drv>-<pci>:ctrl" (ice) or ":fdir" (i40e): its rows come first, as
	 * the queue rows would take it for queue 0. Its text before the ':'
	 * is any function's (no netdev name holds a ':'): never a queue. */
	{ "ice", "ice-%s:ctrl-%s", M, NONE, 0 },
	/* Intel's out-of-tree ice: one vector for several rx rings is named
	 * by its first and last ring ("-TxRx-0-1"); the first is the queue */
	{ "ice", "ice-%s-TxRx-%q-%n", Q, RXTX, RANGE },
	{ "ice", "ice-%s-TxRx-%q", Q, RXTX, 0 },
	{ "ice", "ice-%s-rx-%q", Q, RX, 0 },
	{ "ice", "ice-%s-tx-%q", Q, TX, 0 },
	{ "ice", "ice-%p:misc", M, NONE, 0 },
	{ "ice", "ice-%p:ll_ts", M, NONE, 0 },
	{ "i40e", "i40e-%s:fdir-%s", M, NONE, 0 },
	{ "i40e", "i40e-%s-TxRx-%q", Q, RXTX, 0 },
	{ "i40e", "i40e-%s-rx-%q", Q, RX, 0 },
	{ "i40e", "i40e-%s-tx-%q", Q, TX, 0 },
	{ "i40e", "i40e-%p:misc", M, NONE, 0 },
	{ "iavf", "iavf-%s-TxRx-%q", Q, RXTX, 0 },
	{ "iavf", "iavf-%s-rx-%q", Q, RX, 0 },
	{ "iavf", "iavf-%s-tx-%q", Q, TX, 0 },
	{ "iavf", "iavf-%p:mbx", M, NONE, 0 },
	{ "idpf", "idpf-%s-TxRx-%q", Q, RXTX, 0 },
	{ "idpf", "idpf-%s-Rx-%q", Q, RX, 0 },
	{ "idpf", "idpf-%s-Tx-%q", Q, TX, 0 },
	{ "idpf", "idpf-Mailbox-%n", M, NONE, 0 },
	/* ixgbe/ixgbevf/igb/igc (their *_main.c): "<if>-TxRx-N", split
	 * "-rx-N"/"-tx-N", and the other-causes vector named the interface */
	{ "ixgbe", "%i", M, NONE, 0 },
	{ "ixgbevf", "%i", M, NONE, 0 },
	{ "igb", "%i", M, NONE, 0 },
	{ "igc", "%i", M, NONE, 0 },
	/* e1000e (netdev.c): "<if>-rx-0", "<if>-tx-0", other causes "<if>" */
	{ "e1000e", "%i", M, NONE, 0 },
	/* ena (ena_netdev.c): "<if>-Tx-Rx-N", management "ena-mgmnt@pci:ADDR" */
	{ "ena", "%s-Tx-Rx-%q", Q, RXTX, 0 },
	{ "ena", "ena-mgmnt@pci:%p", M, NONE, 0 },
	/* gve (gve_main.c): notify blocks, tx queues first then rx. Before
	 * 6.3 they were named at probe, before the netdev had its name: the
	 * literal template "eth%d" ("eth%d-ntfy-block.0"), or the real name
	 * when a reset re-requested them later */
	{ "gve", "gve-ntfy-blk%q@pci:%p", Q, RXTX, HALVES },
	{ "gve", "gve-mgmnt@pci:%p", M, NONE, 0 },
	{ "gve", "%s-ntfy-block.%q", Q, RXTX, HALVES },
	{ "gve", "%s-mgmnt", M, NONE, 0 },
	/* mana (gdma_main.c): hardware channel, then one EQ per queue */
	{ "mana", "mana_q%q@pci:%p", Q, RXTX, 0 },
	{ "mana", "mana_hwc@pci:%p", M, NONE, 0 },
	/* hns3 (hns3_enet.c, hclge_main.c, hclgevf_main.c) */
	{ "hns3", "hns3-%p-TxRx-%q", Q, RXTX, 0 },
	{ "hns3", "hns3-%p-Rx-%q", Q, RX, 0 },
	{ "hns3", "hns3-%p-Tx-%q", Q, TX, 0 },
	{ "hns3", "hclge-misc-%p", M, NONE, 0 },
	{ "hns3", "hclgevf-misc-%p", M, NONE, 0 },
	/* cxgb4 (cxgb4_main.c): "<if>-Rx<N>" queue sets, firmware event queue,
	 * and the non-data vector named after the adapter's first port */
	{ "cxgb4", "%s-Rx%q", Q, RX, 0 },
	{ "cxgb4", "%s-mirrorrxq%n", Q, RX, 0 },
	{ "cxgb4", "%s-FWeventq", M, NONE, 0 },
	{ "cxgb4", "%i", M, NONE, 0 },
	/* Chelsio's own (out-of-tree) cxgb4: "<if> (queue N)" queue sets,
	 * "<if>-mirrorqN", and the non-data vector named the PCI address */
	{ "cxgb4", "%s (queue %q)", Q, RX, 0 },
	{ "cxgb4", "%s-mirrorq%n", Q, RX, 0 },
	{ "cxgb4", "%p", M, NONE, STRICT },
	/* nfp (nfp_net_common.c): "<if>-rxtx-N", link state and exceptions */
	{ "nfp", "%s-lsc", M, NONE, STRICT },
	{ "nfp", "%s-exn", M, NONE, STRICT },
	/* vmxnet3 (vmxnet3_drv.c): "<if>-rxtx-N" shared, "<if>-rx-N"/"-tx-N",
	 * "<if>-event-N"; one vector for everything is named "<if>" */
	{ "vmxnet3", "%s-event-%n", M, NONE, 0 },
	{ "vmxnet3", "%i", M, NONE, 0 },
	/* virtio_net over virtio_pci (virtio_pci_common.c): per-virtqueue
	 * vectors named by the queue, one shared "virtqueues" vector when the
	 * device has too few, and the config-change vector */
	{ "virtio_net", "virtio%n-input.%q", Q, RX, 0 },
	{ "virtio_net", "virtio%n-output.%q", Q, TX, 0 },
	{ "virtio_net", "virtio%n-virtqueues", Q, RXTX, 0 },
	{ "virtio_net", "virtio%n-config", M, NONE, 0 },
	{ "virtio_net", "virtio%n-control", M, NONE, 0 },
	/* qede (qede_main.c) fastpath "<if>-fp-N"; qed slowpath "sp-N-BB:DD.FF" */
	{ "qede", "%s-fp-%q", Q, RXTX, 0 },
	{ "qede", "sp-%n-%s", M, NONE, STRICT },
	/* sfc (efx_channels.c): "<if>-N" per channel, "<if>-rx-N"/"-tx-N" when
	 * separate, "<if>-xdp-N" XDP transmit channels (no stack queue);
	 * ptp.c's "<if>-ptp" channel. "<if>-N" alone is too broad for any
	 * other driver */
	{ "sfc", "%s-rx-%q", Q, RX, 0 },
	{ "sfc", "%s-tx-%q", Q, TX, 0 },
	{ "sfc", "%s-xdp-%n", Q, TX, STRICT },
	{ "sfc", "%s-ptp", M, NONE, STRICT },
	{ "sfc", "%s-%q", Q, RXTX, STRICT },
	/* Generic suffixes: ixgbe/ixgbevf/igb/igc/bnxt_en/nfp/vmxnet3 and most
	 * other drivers ("<if>-TxRx-N", bnx2x/qede "-fp-N", split "-rx-N"/"-tx-N") */
	{ NULL, "%s-TxRx-%q", Q, RXTX, 0 },
	{ NULL, "%s-rxtx-%q", Q, RXTX, 0 },
	{ NULL, "%s-fp-%q", Q, RXTX, 0 },
	{ NULL, "%s-rx-%q", Q, RX, 0 },
	{ NULL, "%s-tx-%q", Q, TX, 0 },
};

#define NROWS (sizeof(rows) / sizeof(rows[0]))

const char *nn_irq_role_name(enum nn_irq_role r)
{
	switch (r) {
	case NN_IRQ_ROLE_QUEUE: return "queue";
	case NN_IRQ_ROLE_MISC: return "misc";
	case NN_IRQ_ROLE_UNKNOWN: break;
	}
	return "unknown";
}

const struct nn_irq_name_row *nn_irq_name_row(size_t i)
{
	return i < NROWS ? &rows[i] : NULL;
}

/* "0000:3b:00.0", also wider domains: 4-8 hex, ':', 2 hex, ':', 2 hex, '.', 0-7.
 * Returns its length, 0 when @s does not start with one. */
static size_t pci_len(const char *s)
{
	size_t d = 0;

	while (d < 9 && isxdigit((unsigned char)s[d]))
		d++;
	if (d < 4 || d > 8 || s[d] != ':')
		return 0;
	s += d + 1;
	if (!isxdigit((unsigned char)s[0]) || !isxdigit((unsigned char)s[1]) || s[2] != ':' ||
	    !isxdigit((unsigned char)s[3]) || !isxdigit((unsigned char)s[4]) || s[5] != '.' ||
	    s[6] < '0' || s[6] > '7')
		return 0;
	return d + 8;
}

struct match {
	const char *ifname, *pci;
	int queue;
};

/* Matches @s against the pattern @p entirely; backtracks over %s. */
static bool match_at(const char *p, const char *s, struct match *m)
{
	/* Recursion only at %s: as deep as the pattern has them (two at most). */
	for (; *p; p++) {
		if (*p != '%') {
			if (tolower((unsigned char)*p) != tolower((unsigned char)*s))
				return false;
			s++;
			continue;
		}
		switch (*++p) {
		case 'q':
		case 'n': {
			size_t k = 0;
			long v = 0;

			while (isdigit((unsigned char)s[k]) && k < 10)
				v = v * 10 + (s[k++] - '0');
			if (!k || k > 9 || isdigit((unsigned char)s[k]))
				return false;
			if (*p == 'q')
				m->queue = (int)v;
			s += k;
			break;
		}
		case 'p': {
			size_t k = pci_len(s);

			if (!k)
				return false;
			/* An IRQ named for another function is not ours. */
			if (m->pci && *m->pci && (strlen(m->pci) != k || strncasecmp(s, m->pci, k)))
				return false;
			s += k;
			break;
		}
		case 'i': {
			size_t k = m->ifname ? strlen(m->ifname) : 0;

			if (!k || strncmp(s, m->ifname, k))
				return false;
			s += k;
			break;
		}
		case 's': {
			/* Non-empty and without a space, then the rest must match:
			 * longest first, as the name part may itself hold the
			 * pattern's separators. Only a split whose next byte is the
			 * pattern's next literal can match: the others are not tried
			 * (a name is matched against every row, for every IRQ). */
			size_t k = strcspn(s, " ");
			char next = p[1];

			if (!next)
				return k && !s[k];
			for (; k >= 1; k--)
				if ((next == '%' || tolower((unsigned char)s[k]) == tolower((unsigned char)next)) &&
				    match_at(p + 1, s + k, m))
					return true;
			return false;
		}
		default:
			return false;
		}
	}
	return *s == '\0';
}

static bool row_match(const struct nn_irq_name_row *r, const char *name, struct match *m)
{
	m->queue = -1;
	return match_at(r->pattern, name, m);
}

enum nn_irq_role nn_irq_name_role(const char *name, const char *driver, const char *ifname,
				  const char *pci, int *queue, enum nn_qdir *dir, int *flags)
{
	struct match m = { .ifname = ifname, .pci = pci };
	const struct nn_irq_name_row *hit = NULL;
	size_t i;

	*queue = -1;
	*dir = NN_QDIR_NONE;
	if (flags)
		*flags = 0;
	if (!name || !*name || strlen(name) > 256)
		return NN_IRQ_ROLE_UNKNOWN;
	/* The driver's own rows first: its misc vector may look like another
	 * driver's queue. */
	for (i = 0; driver && i < NROWS && !hit; i++)
		if (rows[i].driver && !strcmp(rows[i].driver, driver) && row_match(&rows[i], name, &m))
			hit = &rows[i];
	for (i = 0; i < NROWS && !hit; i++)
		if (!(rows[i].flags & NN_IRQ_ROW_STRICT) &&
		    !(driver && rows[i].driver && !strcmp(rows[i].driver, driver)) &&
		    /* %i rows name one driver's misc vector: never a fallback */
		    !strstr(rows[i].pattern, "%i") && row_match(&rows[i], name, &m))
			hit = &rows[i];
	if (!hit)
		return NN_IRQ_ROLE_UNKNOWN;
	if (flags)
		*flags = hit->flags;
	if (hit->role == NN_IRQ_ROLE_QUEUE) {
		*queue = m.queue;
		*dir = hit->dir;
	}
	return hit->role;
}

int nn_irq_name_queue(const char *name, const char *ifname, const char *pci,
		      int *queue, enum nn_qdir *dir)
{
	return nn_irq_name_role(name, NULL, ifname, pci, queue, dir, NULL) == NN_IRQ_ROLE_QUEUE;
}
