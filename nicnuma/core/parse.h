/* SPDX-License-Identifier: GPL-2.0-or-later */
/* parse.h - pure parsers of kernel text (no I/O: string in, struct out) */
#ifndef NICNUMA_PARSE_H
#define NICNUMA_PARSE_H

#include <stdbool.h>
#include <stddef.h>

/* The direction of a NIC queue IRQ (irq/irq_names.h decides it). */
enum nn_qdir {
	NN_QDIR_NONE = 0,	/* not a queue IRQ (config, async, ctrl, misc) */
	NN_QDIR_RXTX,		/* combined channel: TxRx, comp, fp */
	NN_QDIR_RX,		/* virtioN-input.N, -rx-N */
	NN_QDIR_TX,		/* virtioN-output.N, -tx-N */
};

/* One line of /proc/interrupts that names a numbered IRQ. */
struct nn_interrupt {
	int irq;
	unsigned long long total;	/* sum over CPU columns */
	char *chip;			/* "PCI-MSIX-0000:00:03.0", "IO-APIC"... */
	char *hwirq;			/* "1-edge" ... may be NULL */
	char *name;			/* action name(s), e.g. "virtio2-input.0" */
};

/* Parses the whole file, any number of CPU columns. Lines it cannot read are
 * skipped and counted in @bad (may be NULL). */
int nn_parse_interrupts(const char *text, struct nn_interrupt **out, size_t *n, size_t *bad);
/* The same parse a line at a time, for a reader that streams the file (a
 * 512-CPU host's is megabytes): init, one call per line (without its '\n';
 * 0 or -ENOMEM), then finish (hands over the sorted vector) or abort. */
struct nn_intr_parse {
	struct nn_interrupt *v;
	size_t nv, cap, nbad, ncpus;
	bool header;
};
void nn_intr_parse_init(struct nn_intr_parse *st);
int nn_intr_parse_line(struct nn_intr_parse *st, const char *line, const char *end);
void nn_intr_parse_finish(struct nn_intr_parse *st, struct nn_interrupt **out, size_t *n, size_t *bad);
void nn_intr_parse_abort(struct nn_intr_parse *st);
void nn_interrupts_free(struct nn_interrupt *v, size_t n);
const struct nn_interrupt *nn_interrupts_find(const struct nn_interrupt *v, size_t n, int irq);


/* A node's distance row ("10 21 21"); malloc'd array. */
int nn_parse_distances(const char *text, int **out, size_t *n);
/* /sys/devices/system/node/nodeN/meminfo: MemTotal and MemFree in kB. */
int nn_parse_node_meminfo(const char *text, long *total_kb, long *free_kb);
/* "always [madvise] never" -> "madvise". */
int nn_parse_bracketed(const char *text, char *buf, size_t size);

#endif
