/* SPDX-License-Identifier: GPL-2.0-or-later */
/* boot.h - the kernel command line domain: an argument as planned, and the
 * running kernel's facts the planner needs
 *
 * boot/ is the third domain library beside irq/ and hugepages/ (rank 3):
 * cmdline.c (lines parsed and diffed, pure), grub_sh.c (the grub.d reader,
 * pure), kernel.c (release, configuration, boot id), loader.c (which
 * bootloader, what it is configured with, read through the fs root),
 * boot_write.c (the writer and the "boot" undo kind), boot_print.c (the
 * three columns). docs/boot.md.
 */
#ifndef NICNUMA_BOOT_BOOT_H
#define NICNUMA_BOOT_BOOT_H

#include <stdbool.h>
#include <stddef.h>

/* One kernel argument a plan asks for. */
struct nn_boot_arg {
	char *name;		/* "hugepages", "intel_iommu", "iommu", "iommu.passthrough",
				 * "isolcpus", "nohz_full", "rcu_nocbs", "irqaffinity" */
	char *text;		/* the words: "hugepagesz=1G hugepages=0:4,1:4", "iommu=pt" */
	char *source;		/* what it is for: "hugepages", "iommu", "isolation" */
	char *reason;
};

/* One the planner left out, and why. */
struct nn_boot_skip {
	char *name;
	char *source;
	char *reason;		/* "the kernel is built without CONFIG_NO_HZ_FULL (/boot/config-...)" */
};

void nn_boot_args_free(struct nn_boot_arg *a, size_t n);
void nn_boot_skips_free(struct nn_boot_skip *s, size_t n);

/* --boot-args: which arguments a plan computes. */
enum nn_boot_mode {
	NN_BOOT_NONE = 0,	/* none (the default without a profile) */
	NN_BOOT_AUTO,		/* each one the plan and the kernel call for */
	NN_BOOT_NAMED,		/* the ones named, planned even where auto leaves them out */
};

/* The names --boot-args takes (NN_BOOT_NAMED): one bit each. "iommu"
 * stands for the IOMMU arguments together (intel_iommu=, iommu=,
 * iommu.passthrough=). */
enum {
	NN_BARG_HUGEPAGES = 1u << 0,
	NN_BARG_IOMMU = 1u << 1,
	NN_BARG_ISOLCPUS = 1u << 2,
	NN_BARG_NOHZ_FULL = 1u << 3,
	NN_BARG_RCU_NOCBS = 1u << 4,
	NN_BARG_IRQAFFINITY = 1u << 5,
	NN_BARG_ALL = (1u << 6) - 1,
};
/* "auto", "none" or NAME[,NAME..]: 0, or -EINVAL with the bad word in @bad. */
int nn_boot_mode_parse(const char *s, enum nn_boot_mode *mode, unsigned int *names, char *bad,
		       size_t badlen);
/* "hugepages,isolcpus" for @names into @buf. */
void nn_boot_names_format(unsigned int names, char *buf, size_t len);
/* The NN_BARG_* bit of argument @name ("intel_iommu": NN_BARG_IOMMU), 0 for others. */
unsigned int nn_boot_name_bit(const char *name);

/* Kernel options the planner asks the running kernel's configuration about. */
enum nn_kconf {
	NN_KCONF_NO_HZ_FULL,
	NN_KCONF_RCU_NOCB_CPU,
	NN_KCONF_CPU_ISOLATION,
	NN_KCONF_INTEL_IOMMU,
	NN_KCONF_AMD_IOMMU,
	NN_KCONF_HUGETLBFS,
	NN_KCONF_N,
};
/* "CONFIG_NO_HZ_FULL" */
const char *nn_kconf_name(enum nn_kconf k);

/* The running kernel (kernel.c). */
struct nn_boot_kernel {
	char release[96];	/* /proc/sys/kernel/osrelease; "" unknown */
	int major, minor;	/* -1 unknown */
	char config_file[160];	/* where its configuration was read; "" none found */
	signed char config[NN_KCONF_N];	/* 1 built (y or m), 0 not, -1 unknown */
	char *cmdline;		/* /proc/cmdline; NULL unreadable */
	char boot_id[40];	/* /proc/sys/kernel/random/boot_id; "" unknown */
};

/* Whether the running kernel is at least @major.@minor: 1, 0, -1 unknown. */
int nn_boot_kernel_at_least(const struct nn_boot_kernel *k, int major, int minor);
/* Pure: "6.1.0-26-amd64" -> 6, 1. -EINVAL when it does not start so. */
int nn_kernel_release_parse(const char *rel, int *major, int *minor);
/* Pure: the options of a kernel .config text: config[k] 1 for "=y"/"=m",
 * 0 for "is not set" or absent. */
void nn_kconfig_scan(const char *text, size_t len, signed char config[NN_KCONF_N]);

#endif
