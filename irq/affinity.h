/* SPDX-License-Identifier: GPL-2.0-or-later */
/* affinity.h - careful writes of IRQ affinity and XPS masks
 *
 * One write(2) per value (nn_write_str), the mask ANDed with the online CPUs
 * first (the kernel answers EOVERFLOW/EINVAL otherwise), every value read back.
 * The kernel's errno says what happened, and each class has its own answer:
 *   EIO (EPERM on 6.x, probe)  kernel-managed IRQ: "managed, left to the kernel"
 *   ENOSPC                    no vectors left on that CPU: try the next planned one
 *   EINVAL, ERANGE, EOVERFLOW bad mask for this IRQ: report, go on
 *   EBUSY, EAGAIN             transient (a move in flight): retry once
 *   anything else             the apply is not safe to continue: roll back
 */
#ifndef NICNUMA_IRQ_AFFINITY_H
#define NICNUMA_IRQ_AFFINITY_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/core/cpuset.h"
#include "nicnuma/core/fsroot.h"	/* nn_write_value */

struct nn_root;

enum nn_aff_class {
	NN_AFF_OK = 0,
	NN_AFF_MANAGED,
	NN_AFF_NOSPC,
	NN_AFF_BADMASK,
	NN_AFF_RETRY,
	NN_AFF_FATAL,
};

/* @err is 0 or a negative errno. */
enum nn_aff_class nn_aff_classify(int err);
const char *nn_aff_class_name(enum nn_aff_class c);

/* "/proc/irq/N/<file>" (@file NULL: the directory "/proc/irq/N"), the one
 * builder of those paths; and "/sys/class/net/NIC/queues/tx-N/xps_cpus".
 * 0 or -ENAMETOOLONG. */
int nn_irq_path(char *buf, size_t size, int irq, const char *file);
/* The directory of them all (a view of the root is opened on it). */
#define NN_PROC_IRQ "/proc/irq"
int nn_xps_path(char *buf, size_t size, const char *nic, int queue);

/* Kernel-managed per the IRQ debugfs (dstate IRQD_AFFINITY_MANAGED): 1 yes,
 * 0 no, -ENOENT when debugfs is not there to say. Reads only. */
int nn_irq_managed_debugfs(const struct nn_root *root, int irq);

/* Rewrites @current (the smp_affinity_list text just read) unchanged: 0 when
 * the IRQ takes writes, otherwise the kernel's -errno (see nn_probe_managed). */
int nn_irq_probe(const struct nn_root *root, int irq, const char *current);
/* Whether a failed probe means "the kernel places this IRQ, not user space":
 * EIO (kernels before 6.x) or, on the live root, EPERM (what 6.x kernels
 * answer for a managed IRQ: irq_can_set_affinity_usr() is false; measured on
 * this machine's virtio-blk IRQ). Under a fake root EPERM is just a file we
 * may not write, so it stays fatal there. */
bool nn_probe_managed(const struct nn_root *root, int err);

struct nn_aff_result {
	struct nn_cpuset written;	/* the set the kernel accepted */
	struct nn_cpuset after;		/* read back; see read_back */
	struct nn_cpuset effective;	/* effective_affinity_list; see has_effective */
	bool read_back;			/* @after holds what the kernel kept after the write */
	bool has_effective;
	enum nn_aff_class cls;
	int err;			/* 0 or the negative errno that decided cls */
	char note[192];			/* "vectors exhausted on 3, used 5" */
};

void nn_aff_result_free(struct nn_aff_result *r);

/* Sets IRQ @irq to @planned AND @online. On ENOSPC, tries the CPUs of
 * @fallback (may be NULL; the NIC's other planned CPUs) one by one. Reads
 * back smp_affinity_list (must equal what was written: -EIO otherwise) and
 * effective_affinity_list. Returns 0 or the negative errno; @res->cls says
 * what the caller should do with it. */
int nn_irq_set_affinity(const struct nn_root *root, int irq, const struct nn_cpuset *planned,
			const struct nn_cpuset *online, const struct nn_cpuset *fallback,
			struct nn_aff_result *res);

/* Writes tx queue @queue's xps_cpus as a hex mask and reads it back. */
int nn_xps_set(const struct nn_root *root, const char *nic, int queue, const struct nn_cpuset *cpus,
	       const struct nn_cpuset *online, struct nn_aff_result *res);

#endif
