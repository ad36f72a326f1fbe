// SPDX-License-Identifier: GPL-2.0-or-later
/* pcie.c - PCIe link health of each PCI NIC against the speed of its ports
 *
 * What the links between a NIC and its root port can carry, and whether that
 * covers the ports they carry: a 100G port on a link trained at 8 GT/s x8, or
 * two 100G ports sharing one 16 GT/s x8 link, never reach line rate however
 * their IRQs are placed. Other tools compare a link with its own capability;
 * this compares it with the ports.
 *
 * sysfs gives each PCIe function current_link_speed/width and
 * max_link_speed/width. An endpoint's and a switch upstream port's files
 * describe the link above them, a root or downstream port's the link below,
 * so along the path /sys/devices/pci0000:00/ROOTPORT[/SWUP/SWDOWN]/FUNCTION
 * the devices pair up from the NIC upwards, one pair per physical link.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/discover/host.h"
#include "nicnuma/discover/nic.h"
#include "nicnuma/core/pathf.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/discover/pcie.h"

/* Deeper switch cascades than this are not built; the top links are dropped. */
#define MAX_CHAIN 16

int nn_pcie_parse_speed(const char *text, int *mts)
{
	const char *p = text;
	long whole = 0, tenth = 0;
	int digits = 0;

	*mts = -1;
	while (*p == ' ')
		p++;
	/* "Unknown" (pci_speed_string) and "Unknown speed" (before 5.7). */
	if (!strcmp(p, "Unknown") || !strcmp(p, "Unknown speed"))
		return 0;
	for (; *p >= '0' && *p <= '9' && digits < 4; p++, digits++)
		whole = whole * 10 + (*p - '0');
	if (!digits)
		return -EINVAL;
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return -EINVAL;
		tenth = *p++ - '0';
	}
	/* "8.0 GT/s PCIe" since 5.7 (pci_speed_string), "8 GT/s" before. */
	if (strncmp(p, " GT/s", 5))
		return -EINVAL;
	p += 5;
	if (!strncmp(p, " PCIe", 5))
		p += 5;
	while (*p == ' ' || *p == '\n')
		p++;
	if (*p || (!whole && !tenth))
		return -EINVAL;
	*mts = (int)(whole * 1000 + tenth * 100);
	return 0;
}

int nn_pcie_parse_width(const char *text, int *width)
{
	long v;

	*width = -1;
	if (nn_parse_long(text, &v) || v < 0 || v > 255)
		return -EINVAL;
	/* 0: no link trained (LnkSta NLW reads 0); 255: PCIE_LNK_WIDTH_UNKNOWN. */
	if (v > 0 && v < 255)
		*width = (int)v;
	return 0;
}

long nn_pcie_usable_mbps(int mts, int width)
{
	long long raw;

	if (mts <= 0 || width <= 0)
		return -1;
	raw = (long long)mts * width;	/* one bit per transfer per lane: Mb/s */
	if (mts < 8000)
		return (long)(raw * 8 / 10);		/* 8b/10b */
	if (mts < 64000)
		return (long)(raw * 128 / 130);		/* 128b/130b */
	return (long)(raw * 242 / 256);			/* FLIT: less FEC and CRC */
}

static bool is_down(const struct nn_pcie_link *l, bool *speed, bool *width)
{
	*speed = l->cur_mts > 0 && l->cap_mts > 0 && l->cur_mts < l->cap_mts;
	*width = l->cur_width > 0 && l->cap_width > 0 && l->cur_width < l->cap_width;
	return *speed || *width;
}

void nn_pcie_fmt_gts(char *buf, size_t size, int mts)
{
	if (mts % 1000)
		snprintf(buf, size, "%d.%d", mts / 1000, mts % 1000 / 100);
	else
		snprintf(buf, size, "%d", mts / 1000);
}

void nn_pcie_fmt_gbps(char *buf, size_t size, long mbps)
{
	long t = mbps / 100;

	if (t % 10)
		snprintf(buf, size, "%ld.%ld", t / 10, t % 10);
	else
		snprintf(buf, size, "%ld", t / 10);
}

static void down_text(struct nn_sb *sb, const struct nn_pcie_link *l, bool own)
{
	char cur[16], cap[16], at[48] = "";
	bool sd, wd;

	is_down(l, &sd, &wd);
	nn_pcie_fmt_gts(cur, sizeof(cur), l->cur_mts);
	nn_pcie_fmt_gts(cap, sizeof(cap), l->cap_mts);
	if (!own)
		snprintf(at, sizeof(at), " at %s", l->dev);
	if (sd && wd)
		nn_sb_printf(sb, "down-trained%s: %s GT/s x%d of %s GT/s x%d", at, cur, l->cur_width, cap,
			     l->cap_width);
	else if (sd)
		nn_sb_printf(sb, "down-trained%s: %s GT/s of %s GT/s", at, cur, cap);
	else
		nn_sb_printf(sb, "down-trained%s: x%d of x%d", at, l->cur_width, l->cap_width);
}

void nn_pcie_judge(const struct nn_pcie_link *links, size_t n, struct nn_pcie_verdict *v)
{
	bool known = false, port_unknown = false, sd, wd;
	struct nn_sb sb = NN_SB_INIT;
	char have[32], need[32];
	size_t i;

	memset(v, 0, sizeof(*v));
	v->narrowest = v->down = v->short_link = -1;
	for (i = 0; i < n; i++) {
		const struct nn_pcie_link *l = &links[i];

		/* Ties go to the link nearest the NIC: the one to name first. */
		if (is_down(l, &sd, &wd))
			v->down = (int)i;
		if (l->mbps < 0)
			continue;
		known = true;
		if (v->narrowest < 0 || l->mbps <= links[v->narrowest].mbps)
			v->narrowest = (int)i;
		/* The known ports already ask more than the link gives. */
		if (l->ports_mbps > l->mbps &&
		    (v->short_link < 0 || l->mbps <= links[v->short_link].mbps))
			v->short_link = (int)i;
		if (l->ports_unknown)
			port_unknown = true;
	}
	if (v->down >= 0)
		down_text(&sb, &links[v->down], (size_t)v->down == n - 1);
	if (v->short_link >= 0) {
		const struct nn_pcie_link *l = &links[v->short_link];
		char at[48] = "";

		if ((size_t)v->short_link != n - 1)
			snprintf(at, sizeof(at), " at %s", l->dev);
		nn_pcie_fmt_gbps(have, sizeof(have), l->mbps);
		nn_pcie_fmt_gbps(need, sizeof(need), l->ports_mbps);
		nn_sb_printf(&sb, "%slink%s carries %s Gb/s for %s Gb/s of ports", sb.len ? "; " : "", at, have,
			     need);
	}
	snprintf(v->text, sizeof(v->text), "%s", nn_sb_str(&sb) ? nn_sb_str(&sb) : "?");
	nn_sb_free(&sb);
	if (v->down >= 0 || v->short_link >= 0)
		v->state = NN_PCIE_BAD;
	else if (!known)
		v->state = NN_PCIE_LINK_UNKNOWN;
	else if (port_unknown)
		v->state = NN_PCIE_PORT_UNKNOWN;
	else
		v->state = NN_PCIE_OK;
	if (v->state == NN_PCIE_LINK_UNKNOWN)
		snprintf(v->text, sizeof(v->text), "link unknown");
	else if (v->state == NN_PCIE_PORT_UNKNOWN)
		snprintf(v->text, sizeof(v->text), "port speed unknown");
	else if (v->state == NN_PCIE_OK)
		snprintf(v->text, sizeof(v->text), "ok");
}

/* ---- reading: the sysfs path of the function, up to its root port */

struct dev_link {
	int cur_mts, cur_width, max_mts, max_width;
};

static const char *errtext(int err)
{
	return err == -ENOENT ? "missing" : strerror(-err);
}

/* One link attribute of the device at @dir; absent is unknown, silently
 * (no PCIe capability, an old kernel, a VM's bus): then 1. 0 otherwise, or
 * -ENOMEM. */
static int read_attr(struct nn_ctx *ctx, const char *dir, const char *name,
		     int (*parse)(const char *, int *), int *val)
{
	char path[PATH_MAX], buf[64];
	int err;

	*val = -1;
	if (nn_pathf(path, sizeof(path), "%s/%s", dir, name))
		return 0;
	err = nn_read_str(&ctx->root, path, buf, sizeof(buf));
	if (err == -ENOMEM)
		return err;
	if (err == -ENOENT)
		return 1;	/* absent: unknown, and no warning */
	if (err) {
		nn_warn(ctx, path, "cannot read (%s): PCIe link unknown", errtext(err));
		return 0;
	}
	if (parse(buf, val))
		nn_warn(ctx, path, "malformed PCIe link value '%s': unknown", buf);
	return 0;
}

static int read_dev(struct nn_ctx *ctx, const char *dir, struct dev_link *d)
{
	int err;

	/* The kernel shows the four link files together or not at all (one
	 * attribute group, visible on PCIe devices only): when the first is
	 * absent, the other three need no open each. */
	d->cur_mts = d->cur_width = d->max_mts = d->max_width = -1;
	err = read_attr(ctx, dir, "current_link_speed", nn_pcie_parse_speed, &d->cur_mts);
	if (err)
		return err < 0 ? err : 0;
	err = read_attr(ctx, dir, "current_link_width", nn_pcie_parse_width, &d->cur_width);
	if (err >= 0)
		err = read_attr(ctx, dir, "max_link_speed", nn_pcie_parse_speed, &d->max_mts);
	if (err >= 0)
		err = read_attr(ctx, dir, "max_link_width", nn_pcie_parse_width, &d->max_width);
	return err < 0 ? err : 0;
}

static int min_known(int a, int b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return a < b ? a : b;
}

/* The link above @lo (chain index), shared with its upper end @up (-1: none). */
static int make_link(struct nn_pcie_link *l, const char *devpath, const size_t *end,
		     const size_t *start, const struct dev_link *d, int lo, int up)
{
	const struct dev_link *a = &d[lo], *b = up >= 0 ? &d[up] : NULL;
	int top = up >= 0 ? up : lo;

	snprintf(l->dev, sizeof(l->dev), "%.*s", (int)(end[lo] - start[lo]), devpath + start[lo]);
	if (up >= 0)
		snprintf(l->port, sizeof(l->port), "%.*s", (int)(end[up] - start[up]), devpath + start[up]);
	l->port_path = strndup(devpath, end[top]);
	if (!l->port_path)
		return -ENOMEM;
	/* The lower end's view first; the upper end's where it lacks one. */
	l->cur_mts = a->cur_mts >= 0 || !b ? a->cur_mts : b->cur_mts;
	l->cur_width = a->cur_width >= 0 || !b ? a->cur_width : b->cur_width;
	/* A link trains to what both ends can: a x16 card in a x8 slot is not down-trained. */
	l->cap_mts = b ? min_known(a->max_mts, b->max_mts) : a->max_mts;
	l->cap_width = b ? min_known(a->max_width, b->max_width) : a->max_width;
	l->mbps = nn_pcie_usable_mbps(l->cur_mts, l->cur_width);
	return 0;
}

static bool pci_component(const char *s, size_t len)
{
	char buf[24];

	if (len >= sizeof(buf))
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return nn_is_pci_addr(buf);
}

int nn_pcie_read(struct nn_ctx *ctx, const char *devpath, struct nn_pcie **out)
{
	size_t start[MAX_CHAIN], end[MAX_CHAIN], n = 0, len = strlen(devpath), i;
	struct dev_link d[MAX_CHAIN];
	char path[PATH_MAX];
	struct nn_pcie *p;
	int k, err = -ENOMEM;

	*out = NULL;
	/* The trailing PCI components, NIC last: a bus ("pci0000:00", a VMD's
	 * "pci10000:00") ends the chain, since the root complex has no link. */
	while (len > 1 && n < MAX_CHAIN) {
		size_t s = len;

		while (s && devpath[s - 1] != '/')
			s--;

		if (!pci_component(devpath + s, len - s))
			break;
		start[n] = s;
		end[n++] = len;
		len = s ? s - 1 : 0;
	}
	if (!n)
		return -ENODEV;
	/* Root first from here on. */
	for (i = 0; i < n / 2; i++) {
		size_t t = start[i];

		start[i] = start[n - 1 - i];
		start[n - 1 - i] = t;
		t = end[i];
		end[i] = end[n - 1 - i];
		end[n - 1 - i] = t;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->port_mbps = -1;
	p->devpath = strdup(devpath);
	p->links = calloc((n + 1) / 2, sizeof(*p->links));
	if (!p->devpath || !p->links)
		goto fail;
	p->is_vf = !nn_pathf(path, sizeof(path), "%s/physfn", devpath) &&
		    !nn_root_access(&ctx->root, path, 0);
	for (i = 0; i < n; i++) {
		char dir[PATH_MAX];

		snprintf(dir, sizeof(dir), "%.*s", (int)end[i], devpath);
		err = read_dev(ctx, dir, &d[i]);
		if (err)
			goto fail;
	}
	p->fn_cur_mts = d[n - 1].cur_mts;
	p->fn_cur_width = d[n - 1].cur_width;
	p->fn_max_mts = d[n - 1].max_mts;
	p->fn_max_width = d[n - 1].max_width;
	/* Pair from the NIC up: (port, function), (downstream port, upstream port)... */
	p->nlinks = (n + 1) / 2;
	for (k = (int)n - 1, i = p->nlinks; k >= 0; k -= 2) {
		err = make_link(&p->links[--i], devpath, end, start, d, k, k - 1);
		if (err)
			goto fail;
	}
	*out = p;
	return 0;
fail:
	nn_pcie_free(p);
	return err;
}

/* ---- judging every NIC against the ports its links carry */

/* @path is @port_path or below it. */
static bool below(const char *path, const char *port_path)
{
	size_t n = strlen(port_path);

	return !strncmp(path, port_path, n) && (path[n] == '/' || !path[n]);
}

static void free_shared(struct nn_pcie *p)
{
	size_t i;

	for (i = 0; i < p->nshared; i++)
		free(p->shared[i]);
	free(p->shared);
	p->shared = NULL;
	p->nshared = 0;
}

static int add_shared(struct nn_pcie *p, const char *name)
{
	char **nv = realloc(p->shared, (p->nshared + 1) * sizeof(*nv));

	if (!nv)
		return -ENOMEM;
	p->shared = nv;
	p->shared[p->nshared] = strdup(name);
	if (!p->shared[p->nshared])
		return -ENOMEM;
	p->nshared++;
	return 0;
}

int nn_pcie_assess(struct nn_nic *nics, size_t n)
{
	size_t i, j, k;

	for (i = 0; i < n; i++)
		if (nics[i].pcie && nics[i].pcie->port_mbps <= 0)
			nics[i].pcie->port_mbps = nics[i].speed_mbps > 0 ? nics[i].speed_mbps : -1;
	for (i = 0; i < n; i++) {
		struct nn_pcie *p = nics[i].pcie;

		if (!p)
			continue;
		free_shared(p);
		for (k = 0; k < p->nlinks; k++) {
			struct nn_pcie_link *l = &p->links[k];
			bool own = k == p->nlinks - 1;

			l->ports_mbps = 0;
			l->ports_unknown = 0;
			for (j = 0; j < n; j++) {
				const struct nn_pcie *q = nics[j].pcie;

				/* A VF rides on its PF's port: not a port of its own. */
				if (!q || q->is_vf || !below(q->devpath, l->port_path))
					continue;
				if (q->port_mbps > 0)
					l->ports_mbps += q->port_mbps;
				else
					l->ports_unknown++;
				if (own && add_shared(p, nics[j].name))
					return -ENOMEM;
			}
		}
		nn_pcie_judge(p->links, p->nlinks, &p->v);
	}
	return 0;
}

void nn_pcie_free(struct nn_pcie *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; p->links && i < p->nlinks; i++)
		free(p->links[i].port_path);
	free_shared(p);
	free(p->links);
	free(p->devpath);
	free(p);
}

void nn_pcie_warn(struct nn_ctx *ctx, const struct nn_host *host)
{
	size_t i;

	for (i = 0; i < host->nnics; i++) {
		const struct nn_nic *nic = &host->nics[i];

		if (nic->pcie && nic->pcie->v.state == NN_PCIE_BAD)
			nn_warn(ctx, nic->name, "PCIe: %s", nic->pcie->v.text);
	}
}
