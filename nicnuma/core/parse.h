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

/* /proc/interrupts on a big host is mostly the kernel's 0 column
 * ("          0", " %10u"). Both of its parsers (this one and observe's)
 * take such columns in runs, one memcmp (vector compares in libc) for many
 * columns instead of a step per column: NN_INTR_ZERO_RUN at a time, and
 * where such a run fails (a nonzero count in it), NN_INTR_ZERO_STEP at a time
 * through it, so a nonzero count costs one failed long run, one failed short
 * run and at most NN_INTR_ZERO_STEP one-column steps. */
#define NN_INTR_ZERO_RUN 64
#define NN_INTR_ZERO_STEP 8

/* Where a parser is in a line's runs: before these columns no run of that
 * length is tried again (a failed one covers them). Zero-initialize. */
struct nn_intr_zeros {
	size_t no_run, no_step;
};

/* True when @ncols columns of 0 start at @p, followed by a space (so the
 * last 0 is a count, not the start of a name); @ncols <= NN_INTR_ZERO_RUN. */
bool nn_intr_zero_cols(const char *p, const char *end, size_t ncols);

/* The number of columns from @col on (of @ncols in the line) that are 0 by
 * one run at @p, or 0: take that column one by one. */
static inline size_t nn_intr_zeros_at(struct nn_intr_zeros *z, const char *p, const char *end,
				      size_t col, size_t ncols)
{
	size_t left = ncols - col;

	if (col >= z->no_run && left >= NN_INTR_ZERO_RUN) {
		if (nn_intr_zero_cols(p, end, NN_INTR_ZERO_RUN))
			return NN_INTR_ZERO_RUN;
		z->no_run = col + NN_INTR_ZERO_RUN;
	}
	if (col >= z->no_step && left >= NN_INTR_ZERO_STEP) {
		if (nn_intr_zero_cols(p, end, NN_INTR_ZERO_STEP))
			return NN_INTR_ZERO_STEP;
		z->no_step = col + NN_INTR_ZERO_STEP;
	}
	return 0;
}

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
/* The one meminfo parser: field @key ("MemTotal", "Hugepagesize",
 * "HugePages_Total"; whole keys only) of /proc/meminfo or nodeN/meminfo text
 * (its "Node N " prefix skipped), in kB or unitless. 0, -ENOENT when absent,
 * -EINVAL malformed, -ERANGE over LONG_MAX. */
int nn_parse_meminfo_kb(const char *text, const char *key, long *kb);
/* /sys/devices/system/node/nodeN/meminfo: MemTotal and MemFree in kB (each
 * -1 when absent or malformed: then -EINVAL/-ERANGE). */
int nn_parse_node_meminfo(const char *text, long *total_kb, long *free_kb);
/* "always [madvise] never" -> "madvise". */
int nn_parse_bracketed(const char *text, char *buf, size_t size);

struct nn_cpuset;

/* isolcpus= flags (the kernel's housekeeping types they remove CPUs from). */
enum {
	NN_ISOL_DOMAIN = 1u << 0,	/* "domain": no scheduler load balancing */
	NN_ISOL_MANAGED_IRQ = 1u << 1,	/* "managed_irq": no managed IRQ if avoidable */
	NN_ISOL_NOHZ = 1u << 2,		/* "nohz": tick stopped (as nohz_full=) */
};

/* The next word of a kernel command line from *@p (advanced past it), split
 * as the kernel's next_arg() does: at unquoted white space, a double quote
 * anywhere in the word toggling quoting (an unbalanced one runs to the end).
 * true with [*@w, *@e) the word; false at the end of the text or at "--",
 * after which come init's arguments, not the kernel's. Pure. */
bool nn_cmdline_word(const char **p, const char **w, const char **e);

/* A kernel argument word nicnuma may write into a bootloader's
 * configuration or keep in its state: printable ASCII without space, quote,
 * backslash or any character the shell or GRUB gives a meaning ($ ` ; & |
 * < > ( ) # * ? [ ] ~ ! { }), 1 to NN_KARG_MAX bytes, so that no quoting is
 * ever needed. The one rule for the planner, the writer and the boot record. */
#define NN_KARG_MAX 512
bool nn_karg_safe(const char *w, size_t len);

/* The isolcpus= words of a kernel command line (/proc/cmdline), read as the
 * kernel does: "isolcpus=[flag,]...<cpulist>" with flags nohz, domain and
 * managed_irq; a list without flags means domain. Several isolcpus= words
 * give the union of their CPUs and flags; a value may be double-quoted;
 * words after "--" are init's and not read.
 * 0 with @cpus and @flags filled; -ENOENT without isolcpus= (@cpus empty,
 * @flags 0); -EINVAL for an unknown flag or a bad list (@bad, when not NULL,
 * points at the offending word, up to its end: print with %.*s and
 * @badlen); -ENOMEM. */
int nn_parse_isolcpus(const char *cmdline, struct nn_cpuset *cpus, unsigned int *flags,
		      const char **bad, int *badlen);
/* "managed_irq,domain" for NN_ISOL_* @flags ("" for 0) into @buf. */
void nn_isol_flags_format(unsigned int flags, char *buf, size_t size);
/* /sys/devices/system/cpu/{isolated,nohz_full}: a cpulist, "" or "(null)"
 * (older kernels' nohz_full without the feature on) for none. 0, -EINVAL,
 * -ERANGE, -ENOMEM; @out replaced only on success. */
int nn_parse_sys_cpulist(const char *text, struct nn_cpuset *out);

/* /proc/PID/stat is parsed in one place: core/proc.h. */

#endif
