// SPDX-License-Identifier: GPL-2.0-or-later
/* port_read.c - a PCI function, its IOMMU group and vfio, read through the fs root
 *
 * /sys/bus/pci/devices/PCI: class, the driver link, iommu_group (a link to
 * /sys/kernel/iommu_groups/N, whose devices/ lists the group), net/ (its
 * netdevs). /sys/class/iommu lists the IOMMUs the kernel enabled (dmar0,
 * ivhd0, smmu3.*): empty when the firmware has none or the kernel left it
 * off. vfio-pci is loaded where /sys/bus/pci/drivers/vfio-pci is; its
 * module where /sys/module/vfio_pci or the running kernel's module tree
 * has it. A netdev is in use where a route or a global address names it
 * (/proc/net/route, ipv6_route, if_inet6): the management path.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/core/fsroot.h"
#include "ports/port.h"

#define PCI_DEVICES "/sys/bus/pci/devices"

bool nn_port_pci_valid(const char *s)
{
	static const char form[] = "xxxx:xx:xx.x";
	size_t i;

	if (!s || strlen(s) != sizeof(form) - 1)
		return false;
	for (i = 0; form[i]; i++) {
		char c = s[i];

		if (form[i] == 'x' ? !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) : c != form[i])
			return false;
	}
	return s[11] <= '7';
}

/* The last component of the link @path points to ("vfio-pci", "42"): 0 or -errno. */
static int link_base(struct nn_ctx *ctx, const char *path, char *out, size_t len)
{
	char buf[512], *b;
	int err = nn_root_readlink(&ctx->root, path, buf, sizeof(buf));

	*out = '\0';
	if (err)
		return err;
	b = strrchr(buf, '/');
	b = b ? b + 1 : buf;
	if (strlen(b) >= len)
		return -ENAMETOOLONG;
	strcpy(out, b);
	return 0;
}

void nn_port_driver_now(struct nn_ctx *ctx, const char *pci, char *out, size_t len)
{
	char path[96];

	snprintf(path, sizeof(path), PCI_DEVICES "/%s/driver", pci);
	link_base(ctx, path, out, len);
}

static int fn_read(struct nn_ctx *ctx, const char *pci, struct nn_port_fn *f)
{
	char path[256], cls[16], *end;
	struct dirent *de;
	DIR *d;
	int err = 0;

	snprintf(f->pci, sizeof(f->pci), "%s", pci);
	f->pci_class = -1;
	snprintf(path, sizeof(path), PCI_DEVICES "/%s/class", pci);
	/* "0x020000" */
	if (!nn_read_str(&ctx->root, path, cls, sizeof(cls)) && !strncmp(cls, "0x", 2) && cls[2]) {
		long v = strtol(cls + 2, &end, 16);

		if (!*end && v >= 0 && v <= 0xffffff)
			f->pci_class = v;
	}
	nn_port_driver_now(ctx, pci, f->driver, sizeof(f->driver));
	snprintf(path, sizeof(path), PCI_DEVICES "/%s/net", pci);
	if (nn_root_opendir(&ctx->root, path, &d))
		return 0;
	while ((de = readdir(d))) {
		struct nn_port_netdev *n;

		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(n->name))
			continue;
		n = realloc(f->netdevs, (f->nnetdevs + 1) * sizeof(*n));
		if (!n) {
			err = -ENOMEM;
			break;
		}
		f->netdevs = n;
		n += f->nnetdevs++;
		memset(n, 0, sizeof(*n));
		n->up = -1;
		strcpy(n->name, de->d_name);
	}
	closedir(d);
	return err;
}

static void fn_free(struct nn_port_fn *f)
{
	free(f->netdevs);
	f->netdevs = NULL;
	f->nnetdevs = 0;
}

void nn_port_free(struct nn_port *p)
{
	size_t i;

	fn_free(&p->fn);
	for (i = 0; i < p->nmembers; i++)
		fn_free(&p->members[i]);
	free(p->members);
	memset(p, 0, sizeof(*p));
	p->node = p->iommu_group = -1;
}

static int cmp_fn(const void *a, const void *b)
{
	return strcmp(((const struct nn_port_fn *)a)->pci, ((const struct nn_port_fn *)b)->pci);
}

static int members_read(struct nn_ctx *ctx, struct nn_port *p)
{
	char path[128];
	struct dirent *de;
	DIR *d;
	int err = 0;

	snprintf(path, sizeof(path), "/sys/kernel/iommu_groups/%d/devices", p->iommu_group);
	if (nn_root_opendir(&ctx->root, path, &d))
		return 0;
	while (!err && (de = readdir(d))) {
		struct nn_port_fn *m;

		if (!nn_port_pci_valid(de->d_name) || !strcmp(de->d_name, p->fn.pci))
			continue;
		m = realloc(p->members, (p->nmembers + 1) * sizeof(*m));
		if (!m) {
			err = -ENOMEM;
			break;
		}
		p->members = m;
		m += p->nmembers++;
		memset(m, 0, sizeof(*m));
		err = fn_read(ctx, de->d_name, m);
	}
	closedir(d);
	if (p->nmembers > 1)
		qsort(p->members, p->nmembers, sizeof(*p->members), cmp_fn);
	return err;
}

int nn_port_read(struct nn_ctx *ctx, const char *pci, struct nn_port *p)
{
	char path[128], grp[16];
	long g;
	int err;

	memset(p, 0, sizeof(*p));
	p->node = p->iommu_group = -1;
	if (!nn_port_pci_valid(pci))
		return -EINVAL;
	snprintf(p->fn.pci, sizeof(p->fn.pci), "%s", pci);
	p->fn.pci_class = -1;
	snprintf(path, sizeof(path), PCI_DEVICES "/%s", pci);
	p->present = !nn_root_access(&ctx->root, path, F_OK);
	if (!p->present)
		return 0;
	err = fn_read(ctx, pci, &p->fn);
	snprintf(path, sizeof(path), PCI_DEVICES "/%s/iommu_group", pci);
	if (!err && !link_base(ctx, path, grp, sizeof(grp)) && !nn_parse_long(grp, &g) && g >= 0 && g < 1000000) {
		p->iommu_group = (int)g;
		err = members_read(ctx, p);
	}
	if (err)
		nn_port_free(p);
	return err;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int nn_vfio_bound_list(struct nn_ctx *ctx, char ***pci, size_t *n)
{
	struct dirent *de;
	DIR *d;
	int err = 0;

	*pci = NULL;
	*n = 0;
	if (nn_root_opendir(&ctx->root, "/sys/bus/pci/drivers/vfio-pci", &d))
		return 0;
	while ((de = readdir(d))) {
		char **v, *s;

		if (!nn_port_pci_valid(de->d_name))
			continue;
		s = strdup(de->d_name);
		v = s ? realloc(*pci, (*n + 1) * sizeof(*v)) : NULL;
		if (!v) {
			free(s);
			err = -ENOMEM;
			break;
		}
		*pci = v;
		v[(*n)++] = s;
	}
	closedir(d);
	if (*n > 1)
		qsort(*pci, *n, sizeof(**pci), cmp_str);
	return err;
}

int nn_vfio_host_read(struct nn_ctx *ctx, struct nn_vfio_host *v)
{
	struct dirent *de;
	char rel[96], path[256], val[8];
	DIR *d;

	memset(v, 0, sizeof(*v));
	v->iommus = -1;
	v->noiommu = -1;
	if (!nn_root_opendir(&ctx->root, "/sys/class/iommu", &d)) {
		v->iommus = 0;
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			/* the first by name: the same answer whatever readdir's order */
			if (!v->iommus++ || strcmp(de->d_name, v->iommu_name) < 0)
				snprintf(v->iommu_name, sizeof(v->iommu_name), "%.31s", de->d_name);
		}
		closedir(d);
	}
	v->vfio_pci_bound = !nn_root_access(&ctx->root, "/sys/bus/pci/drivers/vfio-pci", F_OK);
	v->vfio_pci_module = v->vfio_pci_bound || !nn_root_access(&ctx->root, "/sys/module/vfio_pci", F_OK);
	if (!v->vfio_pci_module && !nn_read_str(&ctx->root, "/proc/sys/kernel/osrelease", rel, sizeof(rel))) {
		/* a module not loaded yet: modprobe finds it by modules.dep */
		char *dep = NULL;
		size_t len;

		snprintf(path, sizeof(path), "/lib/modules/%s/modules.dep", rel);
		if (!nn_read_file(&ctx->root, path, &dep, &len))
			v->vfio_pci_module = strstr(dep, "/vfio-pci.ko") || strstr(dep, "/vfio_pci.ko");
		free(dep);
	}
	v->vfio_module = !nn_root_access(&ctx->root, "/sys/module/vfio", F_OK);
	if (!nn_read_str(&ctx->root, "/sys/module/vfio/parameters/enable_unsafe_noiommu_mode", val, sizeof(val)))
		v->noiommu = val[0] == 'Y' || val[0] == '1';
	return 0;
}

/* The routes and global addresses of /proc/net, each matched to a netdev. */
struct uses {
	struct nn_port *p;
	int kind;		/* 0 route, 1 ipv6_route, 2 if_inet6 */
};

static void use_mark(struct nn_port_fn *f, const char *dev, size_t dlen, const char *what)
{
	size_t i;

	for (i = 0; i < f->nnetdevs; i++) {
		struct nn_port_netdev *n = &f->netdevs[i];

		if (!n->use[0] && strlen(n->name) == dlen && !memcmp(n->name, dev, dlen))
			snprintf(n->use, sizeof(n->use), "%s", what);
	}
}

/* The @i-th whitespace-separated field of [p, end): its start and length. */
static const char *field(const char *p, const char *end, int i, size_t *len)
{
	for (;;) {
		const char *s;

		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		s = p;
		while (p < end && *p != ' ' && *p != '\t')
			p++;
		if (s == p)
			return NULL;
		if (!i--) {
			*len = (size_t)(p - s);
			return s;
		}
	}
}

static int use_line(void *arg, const char *p, const char *end)
{
	const struct uses *u = arg;
	const char *dev, *a;
	char what[96];
	size_t dl = 0, al = 0, i;

	switch (u->kind) {
	case 0:	/* Iface Destination(hex, little-endian) ...; the header names "Iface" */
		dev = field(p, end, 0, &dl);
		a = field(p, end, 1, &al);
		if (!dev || !a || al != 8 || (dl == 5 && !memcmp(dev, "Iface", 5))) {
			return 0;
		} else {
			unsigned int x = (unsigned int)strtoul(a, NULL, 16);

			if (!x)
				snprintf(what, sizeof(what), "the IPv4 default route");
			else
				snprintf(what, sizeof(what), "IPv4 route to %u.%u.%u.%u", x & 255, (x >> 8) & 255,
					 (x >> 16) & 255, x >> 24);
		}
		break;
	case 1:	/* dest plen src splen nexthop metric refcnt use flags iface */
		dev = field(p, end, 9, &dl);
		a = field(p, end, 0, &al);
		if (!dev || !a || al != 32 || !strncmp(a, "fe80", 4) || !strncmp(a, "ff", 2) ||
		    (dl == 2 && !memcmp(dev, "lo", 2)))
			return 0;
		snprintf(what, sizeof(what), "IPv6 route to %.4s:%.4s:..", a, a + 4);
		break;
	default:	/* address ifindex plen scope flags iface; scope 00 global */
		dev = field(p, end, 5, &dl);
		a = field(p, end, 0, &al);
		if (!dev || !a || al != 32 || !field(p, end, 3, &i) || memcmp(field(p, end, 3, &i), "00", 2))
			return 0;
		snprintf(what, sizeof(what), "IPv6 address %.4s:%.4s:..", a, a + 4);
		break;
	}
	use_mark(&u->p->fn, dev, dl, what);
	for (i = 0; i < u->p->nmembers; i++)
		use_mark(&u->p->members[i], dev, dl, what);
	return 0;
}

int nn_port_uses_read(struct nn_ctx *ctx, struct nn_port *p)
{
	static const char *const files[] = { "/proc/net/route", "/proc/net/ipv6_route", "/proc/net/if_inet6" };
	struct uses u = { .p = p };
	int err;

	for (u.kind = 0; u.kind < 3; u.kind++) {
		err = nn_read_lines(&ctx->root, files[u.kind], use_line, &u);
		if (err && err != -ENOENT)
			return err;
	}
	return 0;
}
