// SPDX-License-Identifier: GPL-2.0-or-later
/* dev_ident.c - a logged interface value's device, recorded at apply and
 * compared with the device of that name at rollback (dev_ident.h) */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "nicnuma/act/change_kinds.h"
#include "nicnuma/act/dev_ident.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/discover/nic.h"
#include "ports/port.h"

int nn_dev_ident_text(const struct nn_nic *nic, char *buf, size_t len)
{
	int n;

	if (!nic || !nic->name || nic->ifindex < 1)
		return -ENOENT;
	if (nic->pci)
		n = snprintf(buf, len, "{\"nic\":\"%s\",\"ifindex\":%d,\"pci\":\"%s\"}", nic->name,
			     nic->ifindex, nic->pci);
	else
		n = snprintf(buf, len, "{\"nic\":\"%s\",\"ifindex\":%d}", nic->name, nic->ifindex);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

struct logged {
	char nic[16];
	long long ifindex;
	char pci[16];		/* "" none */
};

static int parse(const char *device, struct logged *l, char *why, size_t whylen)
{
	struct json_object *d = device ? json_tokener_parse(device) : NULL, *v;
	const char *s;
	int err = -EINVAL;

	memset(l, 0, sizeof(*l));
	if (!d || !json_object_is_type(d, json_type_object) || !json_object_object_get_ex(d, "nic", &v) ||
	    !json_object_is_type(v, json_type_string) || !nn_ifname_valid(s = json_object_get_string(v))) {
		snprintf(why, whylen, "device: no valid interface name");
		goto out;
	}
	snprintf(l->nic, sizeof(l->nic), "%s", s);
	if (!json_object_object_get_ex(d, "ifindex", &v) || !json_object_is_type(v, json_type_int) ||
	    (l->ifindex = json_object_get_int64(v)) < 1 || l->ifindex > 0x7fffffffLL) {
		snprintf(why, whylen, "device %s: ifindex is not a positive integer", l->nic);
		goto out;
	}
	if (json_object_object_get_ex(d, "pci", &v) && v) {
		if (!json_object_is_type(v, json_type_string) || !nn_is_pci_addr(s = json_object_get_string(v)) ||
		    strlen(s) >= sizeof(l->pci)) {
			snprintf(why, whylen, "device %s: pci is not a PCI address", l->nic);
			goto out;
		}
		snprintf(l->pci, sizeof(l->pci), "%s", s);
	}
	err = 0;
out:
	json_object_put(d);
	return err;
}

/* "ens5f0np0 (ifindex 3, PCI 0000:af:00.0)" */
static void describe(char *buf, size_t len, const char *nic, long long ifindex, const char *pci)
{
	if (pci && *pci)
		snprintf(buf, len, "%s (ifindex %lld, PCI %s)", nic, ifindex, pci);
	else
		snprintf(buf, len, "%s (ifindex %lld)", nic, ifindex);
}

int nn_dev_ident_compare(const char *device, const struct nn_nic *now, char *why, size_t whylen)
{
	char was[64], is[64];
	struct logged l;

	if (parse(device, &l, why, whylen))
		return -EINVAL;
	if (!now)
		return 0;
	/* A PCI function is the device: its netdev re-created by a driver
	 * rebind or reset gets a new ifindex but is the hardware the values
	 * were logged for (disable after a rebind must still put them back).
	 * Without a PCI address (veth, tun) the ifindex is all there is. */
	if (l.pci[0] || (now->pci && *now->pci)) {
		if (!strcmp(l.pci, now->pci ? now->pci : ""))
			return 0;
	} else if (now->ifindex < 1 || now->ifindex == l.ifindex) {
		return 0;
	}
	describe(was, sizeof(was), l.nic, l.ifindex, l.pci);
	describe(is, sizeof(is), now->name, now->ifindex, now->pci);
	snprintf(why, whylen, "another device: logged for %s, the name is now %s; not written", was, is);
	return 1;
}

/* Whether @c is the value of one interface (whose device a log now records). */
static bool per_interface(const struct nn_change *c)
{
	if (c->ops == &nn_rps_change_ops || c->ops == &nn_file_change_ops || c->ops == &nn_napi_dev_change_ops)
		return c->path && !strncmp(c->path, "/sys/class/net/", 15);
	return c->ops == &nn_channels_change_ops || c->ops == &nn_rss_change_ops ||
	       c->ops == &nn_coalesce_change_ops || c->ops == &nn_rings_change_ops ||
	       c->ops == &nn_napi_conf_change_ops;
}

/* The distinct interface names of @u's devices, into @names (at most @max). */
static size_t names_of(const struct nn_undo *u, char names[][16], size_t max)
{
	size_t i, k, n = 0;

	for (i = 0; i < u->nchanges && n < max; i++) {
		struct logged l;
		char why[8];

		if (!u->changes[i].device || parse(u->changes[i].device, &l, why, sizeof(why)))
			continue;
		for (k = 0; k < n && strcmp(names[k], l.nic); k++)
			;
		if (k == n)
			memcpy(names[n++], l.nic, sizeof(names[0]));
	}
	return n;
}

#define NAMES_MAX 256

/* One warning per interface whose values are skipped. */
static void warn_skipped(struct nn_ctx *ctx, const struct nn_undo *u, char names[][16], size_t n)
{
	size_t i, k;

	for (k = 0; k < n; k++) {
		const char *why = NULL;
		size_t skipped = 0;
		struct logged l;
		char e[8];

		for (i = 0; i < u->nchanges; i++)
			if (u->changes[i].skip && !parse(u->changes[i].device, &l, e, sizeof(e)) &&
			    !strcmp(l.nic, names[k])) {
				skipped++;
				why = u->changes[i].skip;
			}
		if (skipped)
			nn_warn(ctx, names[k], "%zu value%s skipped: %s", skipped, skipped == 1 ? "" : "s", why);
	}
}

/* Whether @pci is among the @n functions on vfio-pci now. */
static bool on_vfio(char **vfio, size_t n, const char *pci)
{
	size_t i;

	for (i = 0; i < n && *pci; i++)
		if (!strcmp(vfio[i], pci))
			return true;
	return false;
}

int nn_dev_ident_mark(struct nn_ctx *ctx, struct nn_undo *u)
{
	char **vfio = NULL;
	size_t nvfio = 0;
	char (*names)[16] = calloc(NAMES_MAX, sizeof(*names));
	char *only[NAMES_MAX];
	struct nn_nic *nics = NULL;
	size_t i, n, nnics = 0, unchecked = 0, nwarns = ctx->nwarns, nnotes = ctx->nnotes;
	int err = 0;

	if (!names)
		return -ENOMEM;
	n = names_of(u, names, NAMES_MAX);
	for (i = 0; i < n; i++)
		only[i] = names[i];
	/* only the names' ifindex and PCI address matter: what discovery says
	 * of their locality or IRQs is not this rollback's to report */
	if (n && (err = nn_nics_discover(ctx, NULL, NN_NICS_SHAPE | NN_NICS_NO_GENL, only, n, &nics, &nnics)) == 0)
		nn_warnings_keep(ctx, nwarns, nnotes);
	/* a function bound to vfio-pci since (a DPDK port) has no netdev to write */
	if (!err && n)
		err = nn_vfio_bound_list(ctx, &vfio, &nvfio);
	if (err) {
		nn_err(ctx, "rollback: cannot tell which devices the logged interfaces are now: %s; "
		       "nothing was restored", strerror(-err));
		goto out;
	}
	for (i = 0; i < u->nchanges; i++) {
		struct nn_change *c = &u->changes[i];
		char why[256];
		struct logged l;
		int r;

		if (!c->device) {
			unchecked += per_interface(c);
			continue;
		}
		if (!parse(c->device, &l, why, sizeof(why)) && on_vfio(vfio, nvfio, l.pci)) {
			snprintf(why, sizeof(why), "its PCI function %s is on vfio-pci now (a DPDK port): the "
				 "netdev went with the bind; not written", l.pci);
			r = 1;
		} else if (parse(c->device, &l, why, sizeof(why)) ||
		    (r = nn_dev_ident_compare(c->device, nn_nic_find(nics, nnics, l.nic), why, sizeof(why))) < 0) {
			nn_err(ctx, "cannot use snapshot %s: change %zu (%s %s): %s; nothing was restored",
			       u->file, i, c->ops->name, c->path ? c->path : "-", why);
			err = -EINVAL;
			goto out;
		}
		if (r > 0) {
			c->skip = strdup(why);
			if (!c->skip) {
				err = -ENOMEM;
				goto out;
			}
		}
	}
	warn_skipped(ctx, u, names, n);
	if (unchecked)
		nn_warn(ctx, u->file, "%zu interface values were logged without their device (a log "
			"older than this nicnuma): restored by interface name, unchecked", unchecked);
out:
	while (nvfio)
		free(vfio[--nvfio]);
	free(vfio);
	nn_nics_free(nics, nnics);
	free(names);
	return err;
}
