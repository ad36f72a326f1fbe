// SPDX-License-Identifier: GPL-2.0-or-later
/* affinity.c - write one IRQ or XPS mask the way the kernel wants it written */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>

#include "nicnuma/core/fsroot.h"
#include "irq/affinity.h"

enum nn_aff_class nn_aff_classify(int err)
{
	switch (-err) {
	case 0:
		return NN_AFF_OK;
	case EIO:
		return NN_AFF_MANAGED;
	case ENOSPC:
		return NN_AFF_NOSPC;
	case EINVAL:
	case ERANGE:
	case EOVERFLOW:
		return NN_AFF_BADMASK;
	case EBUSY:
	case EAGAIN:
		return NN_AFF_RETRY;
	default:
		return NN_AFF_FATAL;
	}
}

const char *nn_aff_class_name(enum nn_aff_class c)
{
	static const char *const names[] = {
		[NN_AFF_OK] = "ok",
		[NN_AFF_MANAGED] = "managed",
		[NN_AFF_NOSPC] = "vectors_exhausted",
		[NN_AFF_BADMASK] = "bad_mask",
		[NN_AFF_RETRY] = "busy",
		[NN_AFF_FATAL] = "fatal",
	};

	return (unsigned int)c <= NN_AFF_FATAL ? names[c] : "unknown";
}

int nn_irq_path(char *buf, size_t size, int irq, const char *file)
{
	/* Built by hand, not snprintf: nics makes two per queue IRQ, and on a
	 * 1,000-IRQ host snprintf was a tenth of its instructions. */
	static const char dir[] = NN_PROC_IRQ "/";
	char num[16], *n = num + sizeof(num);
	unsigned int v = irq < 0 ? 0U - (unsigned int)irq : (unsigned int)irq;
	size_t len, dl, nl, fl = file ? strlen(file) + 1 : 0;

	do {
		*--n = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (irq < 0)
		*--n = '-';
	dl = sizeof(dir) - 1;
	nl = (size_t)(num + sizeof(num) - n);
	len = dl + nl + fl;
	if (len >= size) {
		if (size)
			buf[0] = '\0';
		return -ENAMETOOLONG;
	}
	memcpy(buf, dir, dl);
	memcpy(buf + dl, n, nl);
	if (file) {
		buf[dl + nl] = '/';
		memcpy(buf + dl + nl + 1, file, fl - 1);
	}
	buf[len] = '\0';
	return 0;
}

int nn_xps_path(char *buf, size_t size, const char *nic, int queue)
{
	int n;

	/* A name from a plan file must not climb out of /sys/class/net. */
	if (!*nic || strchr(nic, '/') || !strcmp(nic, ".") || !strcmp(nic, ".."))
		return -EINVAL;
	n = snprintf(buf, size, "/sys/class/net/%s/queues/tx-%d/xps_cpus", nic, queue);
	return (n < 0 || (size_t)n >= size) ? -ENAMETOOLONG : 0;
}

int nn_irq_managed_debugfs(const struct nn_root *root, int irq)
{
	char path[64], *text = NULL;
	int err;

	snprintf(path, sizeof(path), "/sys/kernel/debug/irq/irqs/%d", irq);
	err = nn_read_file(root, path, &text, NULL);
	if (err)
		return -ENOENT;
	err = strstr(text, "AFFINITY_MANAGED") != NULL;
	free(text);
	return err;
}

int nn_irq_probe(const struct nn_root *root, int irq, const char *current)
{
	char path[64];
	int err;

	nn_irq_path(path, sizeof(path), irq, "smp_affinity_list");
	err = nn_write_value(root, path, current);
	if (err == -EBUSY || err == -EAGAIN)
		err = nn_write_value(root, path, current);
	return err;
}

bool nn_probe_managed(const struct nn_root *root, int err)
{
	return err == -EIO || (err == -EPERM && nn_root_is_live(root));
}

void nn_aff_result_free(struct nn_aff_result *r)
{
	nn_cpuset_free(&r->written);
	nn_cpuset_free(&r->after);
	nn_cpuset_free(&r->effective);
}

/* One attempt with the errno policy for transients: EBUSY/EAGAIN once more. */
static int write_set(const struct nn_root *root, const char *path, const struct nn_cpuset *set,
		     bool mask)
{
	char *text = mask ? nn_cpuset_format_mask(set, 0) : nn_cpuset_format_list(set);
	int err;

	if (!text)
		return -ENOMEM;
	err = nn_write_value(root, path, text);
	if (nn_aff_classify(err) == NN_AFF_RETRY)
		err = nn_write_value(root, path, text);
	free(text);
	return err;
}

/* Writes @set and reads it back through the same open file: one open(2)
 * instead of two. procfs and sysfs render the value afresh on a read at
 * offset 0 (seq_file), a fixture's regular file holds what was written.
 * Returns the write's result (EBUSY/EAGAIN retried once, as write_set());
 * *@rerr gets the readback's: 0, -errno, or 1 when nothing was read (a
 * failed write, a value longer than a page): the caller reads it then. */
static int write_readback(const struct nn_root *root, const char *path, const struct nn_cpuset *set,
			  bool mask, struct nn_cpuset *after, int *rerr)
{
	char *text = mask ? nn_cpuset_format_mask(set, 0) : nn_cpuset_format_list(set);
	char buf[4096], *line;
	size_t len;
	ssize_t n;
	int fd, err = 0, tries = 0;

	*rerr = 1;
	if (!text)
		return -ENOMEM;
	len = strlen(text);
	line = realloc(text, len + 2);	/* one write(2) with the newline, as nn_write_value() */
	if (!line) {
		err = -ENOMEM;
		goto out;
	}
	text = line;
	text[len] = '\n';
	text[len + 1] = '\0';
	fd = nn_root_open_value(root, path, O_RDWR);
	if (fd < 0) {
		err = fd;
		goto out;
	}
	do {
		do
			n = write(fd, text, len + 1);
		while (n < 0 && errno == EINTR);
		err = n < 0 ? -errno : (size_t)n != len + 1 ? -EIO : 0;
	} while (nn_aff_classify(err) == NN_AFF_RETRY && ++tries < 2);
	if (!err)
		err = nn_root_value_written(root, fd, len + 1);
	if (!err) {
		do
			n = pread(fd, buf, sizeof(buf) - 1, 0);
		while (n < 0 && errno == EINTR);
		if (n < 0) {
			*rerr = -errno;
		} else if ((size_t)n < sizeof(buf) - 1) {
			buf[n] = '\0';
			*rerr = mask ? nn_cpuset_parse_mask(buf, after) : nn_cpuset_parse_list(buf, after);
		}
	}
	if (close(fd) < 0 && !err)
		err = -errno;
out:
	free(text);
	return err;
}

static void readback(const struct nn_root *root, int irq, struct nn_aff_result *res)
{
	char path[64];

	nn_irq_path(path, sizeof(path), irq, "effective_affinity_list");
	res->has_effective = nn_read_cpulist(root, path, &res->effective) == 0;
}

static int finish(struct nn_aff_result *res, int err)
{
	res->err = err;
	res->cls = nn_aff_classify(err);
	return err;
}

/* The write went through but the value is not there: read back as @a
 * though @w was written (formatted; NULL shows as "?", both freed), or
 * unreadable (@err). Not a class the kernel reports: fatal to the caller;
 * -EIO where the value read back differs. */
static int not_kept(struct nn_aff_result *res, int err, char *a, char *w)
{
	if (err)
		snprintf(res->note, sizeof(res->note), "cannot read back: %s", strerror(-err));
	else
		snprintf(res->note, sizeof(res->note), "wrote %s, read back %s", w ? w : "?", a ? a : "?");
	free(a);
	free(w);
	res->err = err ? err : -EIO;
	res->cls = NN_AFF_FATAL;
	return res->err;
}

int nn_irq_set_affinity(const struct nn_root *root, int irq, const struct nn_cpuset *planned,
			const struct nn_cpuset *online, const struct nn_cpuset *fallback,
			struct nn_aff_result *res)
{
	struct nn_cpuset try = NN_CPUSET_INIT, tried = NN_CPUSET_INIT;
	char path[64];
	int err, cpu, rerr = 1;

	memset(res, 0, sizeof(*res));
	nn_irq_path(path, sizeof(path), irq, "smp_affinity_list");
	err = nn_cpuset_copy(&try, planned);
	if (err)
		return finish(res, err);
	if (online && !nn_cpuset_empty(online))
		nn_cpuset_and(&try, online);
	if (nn_cpuset_empty(&try)) {
		nn_cpuset_free(&try);
		snprintf(res->note, sizeof(res->note), "no planned CPU is online");
		return finish(res, -EINVAL);
	}
	err = write_readback(root, path, &try, false, &res->after, &rerr);
	/* This first write is also the managed-IRQ probe: the kernel refuses a
	 * managed IRQ any mask before it looks at the value (EIO; EPERM on
	 * 6.x live), so a write of the planned mask finds it as surely as the
	 * current mask written back would, and changes nothing. */
	if (err == -EPERM && nn_root_is_live(root)) {
		nn_cpuset_free(&try);
		res->err = err;
		res->cls = NN_AFF_MANAGED;
		return err;
	}
	if (err == -ENOSPC && fallback) {
		/* The vector allocator already tried every CPU of the mask; walk
		 * the NIC's other planned CPUs one at a time. */
		char *full = nn_cpuset_format_list(&try);

		rerr = 1;	/* read back whichever CPU takes it */
		nn_cpuset_copy(&tried, &try);
		nn_cpuset_foreach(cpu, fallback) {
			if (nn_cpuset_test(&tried, (unsigned int)cpu) ||
			    (online && !nn_cpuset_empty(online) &&
			     !nn_cpuset_test(online, (unsigned int)cpu)))
				continue;
			nn_cpuset_zero(&try);
			if (nn_cpuset_set(&try, (unsigned int)cpu)) {
				err = -ENOMEM;
				break;
			}
			nn_cpuset_set(&tried, (unsigned int)cpu);
			err = write_set(root, path, &try, false);
			if (err != -ENOSPC)
				break;
		}
		if (!err)
			snprintf(res->note, sizeof(res->note), "vectors exhausted on %s, used CPU %d",
				 full ? full : "?", nn_cpuset_first(&try));
		else if (err == -ENOSPC)
			snprintf(res->note, sizeof(res->note), "vectors exhausted on every planned CPU");
		free(full);
	}
	nn_cpuset_free(&tried);
	if (err) {
		nn_cpuset_free(&try);
		return finish(res, err);
	}
	res->written = try;
	err = rerr <= 0 ? rerr : nn_read_cpulist(root, path, &res->after);
	res->read_back = !err;
	if (!err && !nn_cpuset_equal(&res->after, &res->written)) {
		/* Accepted but not kept: something else writes this IRQ. */
		err = not_kept(res, 0, nn_cpuset_format_list(&res->after),
			       nn_cpuset_format_list(&res->written));
		readback(root, irq, res);
		return err;
	}
	if (err)
		return not_kept(res, err, NULL, NULL);
	readback(root, irq, res);
	return finish(res, 0);
}

int nn_xps_set(const struct nn_root *root, const char *nic, int queue, const struct nn_cpuset *cpus,
	       const struct nn_cpuset *online, struct nn_aff_result *res)
{
	char path[512];
	int err, rerr;

	memset(res, 0, sizeof(*res));
	err = nn_xps_path(path, sizeof(path), nic, queue);
	if (!err)
		err = nn_cpuset_copy(&res->written, cpus);
	if (err)
		return finish(res, err);
	if (online && !nn_cpuset_empty(online))
		nn_cpuset_and(&res->written, online);
	err = write_readback(root, path, &res->written, true, &res->after, &rerr);
	if (err)
		return finish(res, err);
	err = rerr <= 0 ? rerr : nn_read_cpumask(root, path, &res->after);
	res->read_back = !err;
	if (!err && !nn_cpuset_equal(&res->after, &res->written))
		return not_kept(res, 0, nn_cpuset_format_mask(&res->after, 0),
				nn_cpuset_format_mask(&res->written, 0));
	if (err)
		return not_kept(res, err, NULL, NULL);
	return finish(res, 0);
}
