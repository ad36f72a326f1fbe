// SPDX-License-Identifier: GPL-2.0-or-later
/* watch_decide.c - settle, coalesce and cap the watcher's reconciles (rules
 * in watch_decide.h) */
#include <errno.h>
#include <linux/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/fileio.h"
#include "nicnuma/plan/watch_decide.h"

#define UPBITS (IFF_UP | IFF_LOWER_UP)

void nn_wd_init(struct nn_wd *wd, unsigned int settle_ms)
{
	memset(wd, 0, sizeof(*wd));
	wd->settle_ms = settle_ms;
	wd->min_gap_ms = NN_WD_MIN_GAP_MS;
	wd->max_wait_ms = NN_WD_MAX_WAIT_MS;
}

static void strv_free(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void nn_wd_free(struct nn_wd *wd)
{
	strv_free(wd->pcis, wd->npcis);
	strv_free(wd->names, wd->nnames);
	free(wd->links);
	nn_wd_init(wd, wd->settle_ms);
}

static char **strv_dup(char *const *v, size_t n)
{
	char **d = calloc(n + 1, sizeof(*d));
	size_t i;

	for (i = 0; d && i < n; i++)
		if (!(d[i] = strdup(v[i]))) {
			strv_free(d, i);
			return NULL;
		}
	return d;
}

int nn_wd_set_targets(struct nn_wd *wd, char *const *pcis, size_t npcis, char *const *names,
		      size_t nnames)
{
	char **p = strv_dup(pcis, npcis), **n = strv_dup(names, nnames);

	if (!p || !n) {
		strv_free(p, npcis);
		strv_free(n, nnames);
		return -ENOMEM;
	}
	strv_free(wd->pcis, wd->npcis);
	strv_free(wd->names, wd->nnames);
	wd->pcis = p;
	wd->npcis = npcis;
	wd->names = n;
	wd->nnames = nnames;
	return 0;
}

static bool in(char *const *v, size_t n, const char *s)
{
	size_t i;

	for (i = 0; *s && i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

static bool ours(const struct nn_wd *wd, const struct nn_wev *ev)
{
	return in(wd->pcis, wd->npcis, ev->pci) || in(wd->names, wd->nnames, ev->ifname);
}

static struct nn_wd_link *link_find(struct nn_wd *wd, int ifindex)
{
	size_t i;

	for (i = 0; i < wd->nlinks; i++)
		if (wd->links[i].ifindex == ifindex)
			return &wd->links[i];
	return NULL;
}

/* Relevance of a link message; describes it in @what. */
static int link_event(struct nn_wd *wd, const struct nn_wev *ev, char *what, size_t whatlen)
{
	struct nn_wd_link *l = link_find(wd, ev->ifindex);
	unsigned int was, now = ev->flags & UPBITS;

	if (ev->type == NN_WEV_LINK_DEL) {
		if (l)
			*l = wd->links[--wd->nlinks];
		snprintf(what, whatlen, "link removed: %s", ev->ifname);
		return ours(wd, ev);
	}
	if (!l) {
		if (NN_GROW(wd->links, wd->nlinks, wd->links_cap))
			return -ENOMEM;
		l = &wd->links[wd->nlinks++];
		l->ifindex = ev->ifindex;
		l->flags = now;
		/* a link the watcher has not seen: new, or the first message
		 * after start; its PCI address is unknown until rediscovery */
		snprintf(what, whatlen, "new link %s", ev->ifname);
		return 1;
	}
	was = l->flags;
	l->flags = now;
	if (!(now & ~was))
		return 0;	/* no UP/LOWER_UP gained: a down, a rename, stats... */
	snprintf(what, whatlen, "link up on %s", ev->ifname);
	return ours(wd, ev);
}

int nn_wd_event(struct nn_wd *wd, const struct nn_wev *ev, uint64_t now_ms)
{
	char what[128] = "";
	int rel = 0;

	wd->events++;
	switch (ev->type) {
	case NN_WEV_LINK:
	case NN_WEV_LINK_DEL:
		rel = link_event(wd, ev, what, sizeof(what));
		break;
	case NN_WEV_CHANNELS:
		snprintf(what, sizeof(what), "channels changed on %s", ev->ifname);
		rel = ours(wd, ev);
		break;
	case NN_WEV_UEVENT:
		if (strcmp(ev->subsystem, "pci") && strcmp(ev->subsystem, "net") &&
		    strcmp(ev->subsystem, "queues"))
			break;
		if (strcmp(ev->action, "add") && strcmp(ev->action, "remove") &&
		    strcmp(ev->action, "bind") && strcmp(ev->action, "unbind") &&
		    strcmp(ev->action, "move"))
			break;
		snprintf(what, sizeof(what), "%s %s %s", ev->subsystem, ev->action,
			 ev->ifname[0] ? ev->ifname : ev->pci);
		rel = ours(wd, ev);
		break;
	case NN_WEV_PERIODIC:
		snprintf(what, sizeof(what), "periodic check");
		rel = 1;
		break;
	case NN_WEV_CONFIG:
		snprintf(what, sizeof(what), "desired state reloaded");
		rel = 1;
		break;
	case NN_WEV_CLAIM:
		snprintf(what, sizeof(what), "claims changed%s%s",
			 ev->what[0] || ev->ifname[0] ? ": " : "", ev->what[0] ? ev->what : ev->ifname);
		if (!wd->urgent) {
			wd->urgent = true;
			wd->urgent_ms = now_ms;
		}
		rel = 1;
		break;
	}
	if (rel <= 0)
		return rel;
	/* the name of the NIC, with its PCI address when known */
	if (ev->pci[0] && ev->ifname[0] && ev->type != NN_WEV_UEVENT) {
		char named[sizeof(what)];

		snprintf(named, sizeof(named), "%s (%s)", what, ev->pci);
		memcpy(what, named, sizeof(what));
	}
	wd->relevant++;
	if (!wd->pending) {
		wd->pending = true;
		wd->first_ms = now_ms;
		wd->npending = 0;
		snprintf(wd->trigger, sizeof(wd->trigger), "%s", what);
	}
	wd->npending++;
	wd->last_ms = now_ms;
	return 1;
}

uint64_t nn_wd_deadline(const struct nn_wd *wd)
{
	uint64_t t, cap;

	if (!wd->pending)
		return 0;
	if (wd->urgent)
		return wd->urgent_ms ? wd->urgent_ms : 1;
	t = wd->last_ms + wd->settle_ms;
	cap = wd->first_ms + wd->max_wait_ms;
	if (t > cap)
		t = cap;
	if (wd->ran && t < wd->last_run_ms + wd->min_gap_ms)
		t = wd->last_run_ms + wd->min_gap_ms;
	return t ? t : 1;
}

bool nn_wd_due(const struct nn_wd *wd, uint64_t now_ms)
{
	return wd->pending && now_ms >= nn_wd_deadline(wd);
}

void nn_wd_ran(struct nn_wd *wd, uint64_t now_ms)
{
	wd->pending = false;
	wd->urgent = false;
	wd->npending = 0;
	wd->ran = true;
	wd->last_run_ms = now_ms;
	wd->runs++;
}

void nn_wd_retry(struct nn_wd *wd, uint64_t now_ms)
{
	wd->ran = true;
	wd->last_run_ms = now_ms;
	wd->first_ms = now_ms;
	wd->last_ms = now_ms;
	if (wd->urgent)
		wd->urgent_ms = now_ms + NN_WD_CLAIM_RETRY_MS;
}

void nn_wd_gate_init(struct nn_wd_gate *g, unsigned int gap_ms)
{
	memset(g, 0, sizeof(*g));
	g->gap_ms = gap_ms;
}

void nn_wd_gate_event(struct nn_wd_gate *g, uint64_t now_ms)
{
	(void)now_ms;
	g->pending = true;
}

uint64_t nn_wd_gate_deadline(const struct nn_wd_gate *g)
{
	if (!g->pending)
		return 0;
	/* 0 is "no deadline" to the caller: a check due at once is due at 1 */
	return g->ran ? g->last_ms + g->gap_ms : 1;
}

bool nn_wd_gate_take(struct nn_wd_gate *g, uint64_t now_ms)
{
	if (!g->pending || (g->ran && now_ms < g->last_ms + g->gap_ms))
		return false;
	g->pending = false;
	g->ran = true;
	g->last_ms = now_ms;
	return true;
}
