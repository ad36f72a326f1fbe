// SPDX-License-Identifier: GPL-2.0-or-later
/* watch.c - the watcher's event loop and its reconcile (design in watch.h) */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <sys/signalfd.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "nicnuma/core/fileio.h"
#include "nicnuma/service/sd_notify.h"
#include "nicnuma/discover/coexist.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/core/fsroot.h"
#include "nicnuma/core/utc.h"
#include "nicnuma/service/desired_io.h"
#include "nicnuma/service/enabled.h"
#include "nicnuma/discover/host.h"
#include "nicnuma/plan/plan.h"
#include "nicnuma/state/tx.h"
#include "nicnuma/service/watch.h"
#include "boot/boot_print.h"
#include "nicnuma/plan/watch_decide.h"
#include "nicnuma/service/watch_nl.h"
#include "nicnuma/service/watch_claims.h"
#include "nicnuma/service/watch_sched.h"
#include "nicnuma/act/apply.h"
#include "nicnuma/act/pipeline.h"
#include "nicnuma/act/ports_gate.h"

struct last_action {
	char time[32];
	char trigger[160];
	const char *result;	/* applied, unchanged, failed, skipped */
	size_t changed;
	double ms;
};

struct watcher {
	struct nn_ctx *ctx;
	const struct nn_watch_opts *o;
	struct nn_desired d;
	struct nn_topo *topo;	/* a claimer's topology for the first reconcile (taken over), or NULL */
	struct nn_enabled en;
	struct nn_tx tx;	/* locked per reconcile; its log, once begun, is the before-enable one */
	struct nn_wd decide;	/* when to reconcile (plan/watch_decide.h) */
	char started[32];
	bool ethtool;
	bool have_action;
	struct last_action last;
	unsigned long values_written, applies;
	char **gone;		/* desired NICs found missing, said once */
	size_t ngone;
	struct nn_sd sd;	/* libsystemd, when run by a notify unit */
	struct nn_cpuset claimed;	/* the claimed CPUs the last reconcile planned around */
	struct nn_cpuset cg_complete;	/* the cgroup claims of the last complete tree read */
	struct nn_claims_follow cf;	/* inotify on the cgroup tree, owners' pidfds */
	bool recheck;			/* read the claims again now (nn_cf_sync said so) */
	struct nn_wd_gate cg_gate;	/* cgroup events' claims checks, rate limited */
	char cg_what[96];		/* the last cgroup event gated */
	bool cg_read;			/* a gated cgroup event asks for a claims read */
	const char *mode_written;	/* the claims_follow mode watch.json says */
	bool poll_written;		/* and whether it says the one-second poll */
	unsigned long claims_reads;	/* check_claims' reads of every source */
	size_t ports_refused;		/* desired ports the start's checks refused */
};

/* How often the watcher reads the claims itself (docs/claims.md, "How the
 * watcher follows claims"): every second where a source has no event (the
 * cgroup tree past its watch cap or the kernel's inotify limits, an owner
 * without a pidfd); else every 10 s, a safety net for what has no event at
 * all (a partition's CPUs changed by CPU hotplug without a state change,
 * the root's cpuset.cpus.isolated, a cgroup2 mounted after the start). */
#define CLAIMS_POLL_MS 1000
#define CLAIMS_SAFETY_MS 10000

/* Readiness and watchdog to systemd; a no-op outside a notify unit. */
static void notify(const struct watcher *w, const char *msg)
{
	nn_sd_notify(&w->sd, msg);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void iso_now(char *buf, size_t size)
{
	nn_utc_stamp(buf, size, time(NULL), false);
}

/* Warnings and notes go out with each action, not at exit (the loop runs
 * for months): the print layer's lines on stderr (journald keeps them). */
static void flush_warnings(struct nn_ctx *ctx)
{
	nn_warnings_stderr(ctx);
	nn_warnings_clear(ctx);
}

static struct json_object *state_json(const struct watcher *w)
{
	struct json_object *doc = json_object_new_object(), *c = json_object_new_object();
	struct json_object *la = NULL;

	if (w->have_action) {
		la = json_object_new_object();
		json_object_object_add(la, "time", json_object_new_string(w->last.time));
		json_object_object_add(la, "trigger", json_object_new_string(w->last.trigger));
		json_object_object_add(la, "result", json_object_new_string(w->last.result));
		json_object_object_add(la, "changed", json_object_new_uint64(w->last.changed));
		json_object_object_add(la, "elapsed_ms", json_object_new_double(w->last.ms));
	}
	json_object_object_add(doc, "pid", json_object_new_int(getpid()));
	json_object_object_add(doc, "started", json_object_new_string(w->started));
	json_object_object_add(doc, "config", json_object_new_string(w->o->config ? w->o->config
								      : NN_DESIRED_PATH));
	json_object_object_add(doc, "ethtool_monitor", json_object_new_boolean(w->ethtool));
	json_object_object_add(doc, "last_action", la);
	{
		struct json_object *cf = json_object_new_object();

		json_object_object_add(cf, "cgroup_tree", json_object_new_string(nn_cf_tree_mode(&w->cf)));
		json_object_object_add(cf, "cgroup_watches", json_object_new_uint64(nn_cf_watches(&w->cf)));
		json_object_object_add(cf, "owner_pidfds", json_object_new_uint64(nn_cf_pidfds(&w->cf)));
		json_object_object_add(cf, "poll_ms", json_object_new_int(nn_cf_needs_poll(&w->cf) ?
									 CLAIMS_POLL_MS : CLAIMS_SAFETY_MS));
		json_object_object_add(cf, "claims_reads", json_object_new_uint64(w->claims_reads));
		json_object_object_add(doc, "claims_follow", cf);
	}
	json_object_object_add(c, "events", json_object_new_uint64(w->decide.events));
	json_object_object_add(c, "relevant", json_object_new_uint64(w->decide.relevant));
	json_object_object_add(c, "applies", json_object_new_uint64(w->applies));
	json_object_object_add(c, "values_written", json_object_new_uint64(w->values_written));
	json_object_object_add(doc, "counters", c);
	return doc;
}

static void write_state(struct watcher *w)
{
	struct json_object *doc = state_json(w);
	const char *text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PRETTY |
							  JSON_C_TO_STRING_NOSLASHESCAPE);
	int dfd = nn_root_mkdir_p(&w->ctx->root, NN_WATCH_RUNDIR, 0755), err = dfd < 0 ? dfd : 0;

	if (!err)
		err = nn_write_atomic_flags_at(dfd, "watch.json", text, strlen(text), 0644,
					       NN_WRITE_VOLATILE);
	if (err)
		nn_warn(w->ctx, NN_WATCH_RUNDIR_JSON, "cannot write it: %s", strerror(-err));
	if (dfd >= 0)
		close(dfd);
	json_object_put(doc);
	w->mode_written = nn_cf_tree_mode(&w->cf);
	w->poll_written = nn_cf_needs_poll(&w->cf);
}

/* watch.json says how the claims are followed: written again the moment
 * that changes (the tree given up or watched again, an owner polled),
 * not at the next reconcile. */
static void mode_check(struct watcher *w)
{
	if (w->mode_written && (strcmp(w->mode_written, nn_cf_tree_mode(&w->cf)) ||
				w->poll_written != nn_cf_needs_poll(&w->cf)))
		write_state(w);
}

static bool said_gone(struct watcher *w, const char *id)
{
	size_t i;

	for (i = 0; i < w->ngone; i++)
		if (!strcmp(w->gone[i], id))
			return true;
	return false;
}

/* Say once that a desired NIC is absent; forget that when it is back. */
static void note_missing(struct watcher *w, const char **missing, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++)
		if (!said_gone(w, missing[i])) {
			char **v = realloc(w->gone, (w->ngone + 1) * sizeof(*v));

			if (!v || !(v[w->ngone] = strdup(missing[i]))) {
				w->gone = v ? v : w->gone;
				continue;
			}
			w->gone = v;
			w->ngone++;
			nn_fprintf_text(stderr, "%s: %s is not on the host: forgotten until it comes back\n",
				w->ctx->prog, missing[i]);
		}
	for (i = 0; i < w->ngone;) {
		bool still = false;

		for (k = 0; k < n; k++)
			still |= !strcmp(w->gone[i], missing[k]);
		if (still) {
			i++;
			continue;
		}
		nn_fprintf_text(stderr, "%s: %s is back\n", w->ctx->prog, w->gone[i]);
		free(w->gone[i]);
		w->gone[i] = w->gone[--w->ngone];
	}
}

/* The watcher's targets: desired PCI addresses, and the names those NICs have now. */
static int set_targets(struct watcher *w, const struct nn_plan_opts *po)
{
	char **pcis = calloc(w->d.nnics + 1, sizeof(*pcis));
	size_t i, n = 0;
	int err;

	if (!pcis)
		return -ENOMEM;
	for (i = 0; i < w->d.nnics; i++)
		if (w->d.nics[i].pci)
			pcis[n++] = w->d.nics[i].pci;
	err = nn_wd_set_targets(&w->decide, pcis, n, po->nics, po->nnics);
	free(pcis);
	return err;
}

static int ensure_log(struct watcher *w)
{
	int err;

	if (w->tx.begun)
		return 0;
	err = nn_enabled_read(w->ctx, &w->en);
	if (err && err != -ENOENT)
		return err;
	return nn_enabled_log(w->ctx, &w->en, &w->tx);
}

/* A cut-short cgroup walk keeps the last complete read's partitions
 * claimed; a complete one becomes the new last complete read. */
static int keep_complete(struct watcher *w, struct nn_claims *cl)
{
	if (cl->truncated)
		return nn_claims_keep_last(w->ctx, cl, &w->cg_complete);
	return nn_claims_cgroup_cpus(cl, &w->cg_complete);
}

/* One reconcile's plan stage and its state. */
struct reconcile_run {
	struct watcher *w;
	bool check_owners;
	struct nn_plan_opts po;
	int skipped;		/* -ENOENT: set_targets' value */
	size_t ports_refused;	/* desired ports the start's checks refused */
};

/* The desired ports (dpdk_port) in @r->po: at start (@bind) checked as
 * apply checks them (a port that became the management path, or whose
 * group is no longer viable, is refused and reported, forced only where
 * enable was given --force-port) and the rest bound through apply's own
 * port code; later reconciles leave them out (the binding holds until the
 * next boot). */
static int watch_ports(struct nn_ctx *ctx, struct nn_pipeline *pl, struct reconcile_run *r, bool bind)
{
	struct nn_plan_opts *po = &r->po;
	bool *refused;
	size_t i, n = 0;
	int err;

	if (!po->ndpdk_ports)
		return 0;
	refused = calloc(po->ndpdk_ports, sizeof(*refused));
	if (!refused)
		return -ENOMEM;
	if (bind) {
		bool any = false;

		err = nn_ports_check(ctx, &pl->host, po->dpdk_ports, po->ndpdk_ports, po->noiommu,
				     po->force_port, "dpdk_port", refused);
		if (err == -ENOMEM)
			goto out;
		for (i = 0; i < po->ndpdk_ports; i++)
			any |= refused[i];
		/* facts that could not be read (said) bind none */
		for (i = 0; err && !any && i < po->ndpdk_ports; i++)
			refused[i] = true;
	}
	for (i = 0; i < po->ndpdk_ports; i++) {
		if (!bind || refused[i]) {
			r->ports_refused += bind;
			if (bind)
				nn_fprintf_text(stderr, "%s: dpdk_port %s: refused at start, left on its "
						"driver (see the error above)\n", ctx->prog, po->dpdk_ports[i]);
			free(po->dpdk_ports[i]);
			continue;
		}
		po->dpdk_ports[n++] = po->dpdk_ports[i];
	}
	po->ndpdk_ports = n;
	if (!n)
		po->noiommu = po->force_port = false;
	pl->ao.ports = n > 0;
	err = 0;
out:
	free(refused);
	return err;
}

/* The desired state over the host just discovered: the NICs it names (the
 * host's own; CPUs offline now are left out by the planner itself). */
static int reconcile_plan(struct nn_ctx *ctx, struct nn_pipeline *pl, struct reconcile_run *r)
{
	const char **missing = NULL;
	size_t nmissing = 0;
	int err;

	/* The claims as discovery read them (pl->claim_flags, reconcile). */
	err = keep_complete(r->w, &pl->host.claims);
	if (!err)
		err = nn_cpuset_copy(&r->w->claimed, nn_host_claimed_cpus(&pl->host));
	if (err)
		return err;
	if (nn_cf_sync(ctx, &r->w->cf, &pl->host.claims))
		r->w->recheck = true;
	err = nn_desired_plan_opts(&r->w->d, &pl->host, &r->po, &missing, &nmissing);
	note_missing(r->w, missing, nmissing);
	free(missing);
	if (err == -ENOENT) {
		r->w->last.result = "skipped";
		r->skipped = set_targets(r->w, &r->po);
		return err;
	}
	if (!err)
		err = set_targets(r->w, &r->po);
	if (err)
		return err;
	pl->gate = r->check_owners;
	pl->nics = r->po.nics;
	pl->nnics = r->po.nnics;
	pl->ao.irqbalance = r->po.irqbalance;
	/* the start reconcile (the one that looks for other owners) binds */
	err = watch_ports(ctx, pl, r, r->check_owners);
	if (err)
		return err;
	err = nn_plan_make(&pl->host, &r->po, &pl->plan);
	if (err)
		nn_err(ctx, "planning failed: %s", strerror(-err));
	return err;
}

/* Rediscover, re-plan, apply what differs (the pipeline's steps, under
 * the watcher's transaction: one lock for the whole reconcile). -EBUSY:
 * another run holds the state lock (retry later). Fills w->last. */
static int reconcile(struct watcher *w, const char *trigger, bool periodic, bool check_owners)
{
	struct nn_ctx *ctx = w->ctx;
	struct reconcile_run r = { .w = w, .check_owners = check_owners };
	struct nn_pipeline pl = { .tx = &w->tx, .gate_flags = NN_COEXIST_NO_WATCHER, .gate_allow = w->o->coexist,
				  /* the claims as the planner takes them: root partitions
				   * when the desired state asks, records whose owner is
				   * gone removed */
				  .claim_flags = nn_desired_claim_flags(&w->d) | NN_CLAIMS_PRUNE };
	struct nn_apply_report rep = { 0 };
	uint64_t t0 = now_ms();
	size_t i;
	int err;

	nn_pipeline_init(&pl);
	pl.topo = w->topo;
	w->topo = NULL;
	err = nn_pipeline_discover(ctx, &pl);
	if (pl.stage == NN_PIPE_LOCK)	/* another run holds the state lock: nothing ran */
		return err;
	w->last.result = "failed";
	w->last.changed = 0;
	snprintf(w->last.trigger, sizeof(w->last.trigger), "%s", trigger);
	iso_now(w->last.time, sizeof(w->last.time));
	w->have_action = true;
	if (err)
		goto out;
	err = reconcile_plan(ctx, &pl, &r);
	if (err == -ENOENT) {	/* nothing to keep yet */
		err = r.skipped;
		goto out;
	}
	/* the before-enable log, opened once and extended by every reconcile */
	if (!err)
		err = nn_pipeline_gate(ctx, &pl);
	if (!err)
		err = ensure_log(w);
	if (!err)
		err = nn_pipeline_apply(ctx, &pl, &rep);
	if (pl.stage != NN_PIPE_APPLIED)
		goto out;
	w->last.changed = rep.counts[NN_VAL_CHANGED];
	w->values_written += w->last.changed;
	if (rep.snapshot)
		nn_enabled_note_log(ctx, &w->en, &w->tx.log);
	w->last.ms = (double)(now_ms() - t0);
	w->last.result = err < 0 ? "failed" : w->last.changed || rep.irqb_done ? "applied" : "unchanged";
	for (i = 0; i < rep.nports; i++)
		if (!strcmp(rep.ports[i].status, "bound")) {
			nn_fprintf_text(stderr, "%s: dpdk_port %s: bound to %s (was %s)\n", ctx->prog,
					rep.ports[i].pci, rep.ports[i].driver,
					rep.ports[i].before[0] ? rep.ports[i].before : "no driver");
			w->last.result = "applied";
		}
	if (check_owners)
		w->ports_refused = r.ports_refused;
	if (w->last.changed || rep.irqb_done) {
		w->applies++;
		if (periodic)
			nn_fprintf_text(stderr, "%s: drift: %zu values rewritten by someone else; re-applied "
				"in %.0f ms\n", ctx->prog, w->last.changed, w->last.ms);
		else
			nn_fprintf_text(stderr, "%s: applied %zu values after %s in %.0f ms\n", ctx->prog,
				w->last.changed, trigger, w->last.ms);
	} else if (ctx->verbose) {
		nn_fprintf_text(stderr, "%s: %s: nothing to change (%.0f ms)\n", ctx->prog, trigger, w->last.ms);
	}
	if (rep.counts[NN_VAL_FAILED])
		nn_fprintf_text(stderr, "%s: %zu values failed after %s (see warnings)\n", ctx->prog,
			rep.counts[NN_VAL_FAILED], trigger);
	if (rep.rolled_back)
		nn_fprintf_text(stderr, "%s: apply failed after %s and was rolled back\n", ctx->prog, trigger);
out:
	nn_tx_unlock(&w->tx);
	flush_warnings(ctx);
	nn_apply_report_free(&rep);
	nn_pipeline_free(&pl);
	nn_plan_opts_free(&r.po);
	return err;
}

struct loop {
	int ep, sfd, tfd;
	int ifd;		/* inotify on the claim records' directory; -1 none */
	uint64_t next_claims_poll, next_tree_retry;
	struct nn_watch_nl nl;
	bool nl_open;
	uint64_t next_periodic, watchdog_ms, next_watchdog;
	bool events_only;	/* --events: print them, reconcile nothing */
	unsigned long seen;	/* netlink events taken, for --events' count */
};

static void loop_close(struct loop *l)
{
	if (l->nl_open)
		nn_watch_nl_close(&l->nl);
	if (l->tfd >= 0)
		close(l->tfd);
	if (l->ifd >= 0)
		close(l->ifd);
	if (l->sfd >= 0)
		close(l->sfd);
	if (l->ep >= 0)
		close(l->ep);
}

/* The loop's event sources, each with its own handler (handlers[], as
 * sd-event gives each source its callback); an fd's epoll data is its source. */
enum source { SRC_SIGNAL, SRC_TIMER, SRC_CLAIMS, SRC_CGROUP, SRC_OWNERS, SRC_RTNL, SRC_ETHTOOL, SRC_UEVENT };

static int add_fd(struct loop *l, int fd, enum source src)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = src };

	if (fd < 0)
		return 0;
	return epoll_ctl(l->ep, EPOLL_CTL_ADD, fd, &ev) < 0 ? -errno : 0;
}

/* inotify on /run/nicnuma/claims (inside the root): a record written
 * (renamed into place by the atomic writer) or removed is a claim event the
 * moment it happens. Watched through the directory's fd, so the path the
 * kernel resolves is the one the trust rule checked. */
static int claims_watch_open(struct nn_ctx *ctx, struct loop *l)
{
	char path[64];
	int dfd = nn_claim_store_open_dir(ctx, true);

	if (dfd < 0)
		return dfd;
	l->ifd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", dfd);
	if (l->ifd < 0 || inotify_add_watch(l->ifd, path, IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE |
					    IN_CLOSE_WRITE | IN_ONLYDIR) < 0) {
		int err = -errno;

		close(dfd);
		if (l->ifd >= 0)
			close(l->ifd);
		l->ifd = -1;
		nn_err(ctx, "cannot watch %s: %s", NN_CLAIMS_DIR, strerror(-err));
		return err;
	}
	close(dfd);
	return 0;
}

/* Signals through a signalfd: no handler, no global flag. */
static int loop_open(struct nn_ctx *ctx, struct loop *l, bool live, bool claims,
		     struct nn_claims_follow *cf, size_t cgroup_watches)
{
	sigset_t set;
	int err;

	memset(l, 0, sizeof(*l));
	l->ep = l->sfd = l->tfd = l->ifd = -1;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0)
		return -errno;
	l->sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	l->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
	l->ep = epoll_create1(EPOLL_CLOEXEC);
	if (l->sfd < 0 || l->tfd < 0 || l->ep < 0)
		return -errno;
	if (live) {
		err = nn_watch_nl_open(&l->nl);
		if (err) {
			nn_err(ctx, "cannot open the netlink event sockets: %s", strerror(-err));
			return err;
		}
		l->nl_open = true;
		if (l->nl.why_no_ethtool[0])
			nn_fprintf_text(stderr, "%s: %s\n", ctx->prog, l->nl.why_no_ethtool);
	}
	/* A claims directory that cannot be watched (refused by the trust
	 * rule, say) costs the records' speed, not the watcher: the poll
	 * still reads what it may. */
	if (claims && claims_watch_open(ctx, l) < 0)
		nn_fprintf_text(stderr, "%s: claim records are not watched (see above): followed "
				"by the one-second poll only\n", ctx->prog);
	if (claims)
		nn_cf_open(ctx, cf, cgroup_watches);
	err = add_fd(l, l->sfd, SRC_SIGNAL);
	if (!err)
		err = add_fd(l, l->tfd, SRC_TIMER);
	if (!err)
		err = add_fd(l, l->ifd, SRC_CLAIMS);
	if (!err && claims)
		err = add_fd(l, nn_cf_tree_fd(cf), SRC_CGROUP);
	if (!err && claims)
		err = add_fd(l, nn_cf_owners_fd(cf), SRC_OWNERS);
	if (!err && l->nl_open) {
		err = add_fd(l, nn_watch_nl_fd(&l->nl, NN_WSRC_RTNL), SRC_RTNL);
		if (!err)
			err = add_fd(l, nn_watch_nl_fd(&l->nl, NN_WSRC_ETHTOOL), SRC_ETHTOOL);
		if (!err)
			err = add_fd(l, nn_watch_nl_fd(&l->nl, NN_WSRC_UEVENT), SRC_UEVENT);
	}
	return err;
}

static void arm(struct loop *l, uint64_t at_ms)
{
	struct itimerspec its = { { 0, 0 }, { 0, 0 } };

	if (!at_ms)
		at_ms = 1;
	its.it_value.tv_sec = (time_t)(at_ms / 1000);
	its.it_value.tv_nsec = (long)(at_ms % 1000) * 1000000;
	timerfd_settime(l->tfd, TFD_TIMER_ABSTIME, &its, NULL);
}

static uint64_t min_nz(uint64_t a, uint64_t b)
{
	return !a ? b : !b ? a : a < b ? a : b;
}

static void print_event(const struct nn_wev *ev, int rel)
{
	static const char *const types[] = { "link", "link_del", "channels", "uevent", "periodic",
					     "config", "claim" };

	nn_fprintf_text(stdout, "event=%s ifindex=%d flags=0x%x ifname=%s pci=%s action=%s subsystem=%s relevant=%d\n",
	       types[ev->type], ev->ifindex, ev->flags, ev->ifname[0] ? ev->ifname : "-",
	       ev->pci[0] ? ev->pci : "-", ev->action[0] ? ev->action : "-",
	       ev->subsystem[0] ? ev->subsystem : "-", rel);
	fflush(stdout);
}

/* Drains one socket; feeds each event to the decider. ENOBUFS (the kernel
 * dropped messages in a storm) counts as one relevant event: rediscovery
 * finds whatever was missed. */
static int drain(struct watcher *w, struct loop *l, enum nn_wsrc src, bool print)
{
	char buf[16384];
	struct nn_wev evs[32];
	size_t n, i;
	ssize_t got;
	int rel;

	for (;;) {
		got = nn_watch_nl_recv(&l->nl, src, buf, sizeof(buf));
		if (got == -EINTR || got == -EPERM)	/* -EPERM: not the kernel's, dropped */
			continue;
		if (got == -ENOBUFS) {
			struct nn_wev ev = { .type = NN_WEV_CONFIG };

			nn_fprintf_text(stderr, "%s: netlink overrun: events were dropped; rediscovering\n",
				w->ctx->prog);
			nn_wd_event(&w->decide, &ev, now_ms());
			continue;
		}
		if (got <= 0)
			return got < 0 && got != -EAGAIN ? (int)got : 0;
		n = nn_watch_nl_decode(src, l->nl.ethtool_family, buf, (size_t)got, evs, 32);
		for (i = 0; i < n; i++) {
			rel = nn_wd_event(&w->decide, &evs[i], now_ms());
			if (rel < 0)
				return rel;
			if (print)
				print_event(&evs[i], rel);
		}
	}
}

/* A record came or went: one claim event for the whole batch read. */
static int on_claims(struct watcher *w, struct loop *l)
{
	union {
		struct inotify_event ev;
		char buf[4096];
	} u;
	struct nn_wev ev = { .type = NN_WEV_CLAIM };
	bool any = false;
	ssize_t n;

	while ((n = read(l->ifd, u.buf, sizeof(u.buf))) > 0) {
		const char *p = u.buf;

		while (p < u.buf + n) {
			const struct inotify_event *ie = (const void *)p;

			/* the atomic writer's ".NAME.XXXXXX" temp files are no record */
			if (ie->len && ie->name[0] != '.') {
				if (!any)
					snprintf(ev.ifname, sizeof(ev.ifname), "%s", ie->name);
				any = true;
			}
			if (ie->mask & IN_Q_OVERFLOW)
				any = true;
			p += sizeof(*ie) + ie->len;
		}
	}
	if (any)
		nn_wd_event(&w->decide, &ev, now_ms());
	return 0;
}

/* Reads the claims (the poll, or after a cgroup event: @why says which).
 * A claimed set other than the one last planned around is a claim event. */
static void check_claims(struct watcher *w, const char *why)
{
	struct nn_claims cl;
	struct nn_wev ev = { .type = NN_WEV_CLAIM };
	int again = 0;

	w->recheck = false;
	w->claims_reads++; 
	if (nn_claims_read(w->ctx, nn_desired_claim_flags(&w->d), &cl))
		return;
	if (keep_complete(w, &cl)) {
		nn_claims_free(&cl);
		return;
	}
	/* watches and pidfds before the comparison: a change after this
	 * read is an event of theirs */
	again = nn_cf_sync(w->ctx, &w->cf, &cl);
	if (!nn_cpuset_equal(&cl.cpus, &w->claimed)) {
		snprintf(ev.what, sizeof(ev.what), "%s", why);
		nn_wd_event(&w->decide, &ev, now_ms());
	} else if (again) {
		w->recheck = true;
	}
	nn_claims_free(&cl);
	nn_warnings_clear(w->ctx);
}

/* A pidfd polled readable: the claim ends now (the reconcile prunes it). */
static int on_owners(struct watcher *w, struct loop *l)
{
	struct nn_wev ev = { .type = NN_WEV_CLAIM };

	(void)l;
	if (nn_cf_owners_drain(&w->cf, ev.what, sizeof(ev.what)))
		nn_wd_event(&w->decide, &ev, now_ms());
	return 0;
}

/* Returns 1 to stop (SIGTERM/SIGINT), 0 to go on. */
static int on_signal(struct watcher *w, struct loop *l)
{
	struct signalfd_siginfo si;

	while (read(l->sfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo != SIGHUP) {
			nn_fprintf_text(stderr, "%s: %s: exiting\n", w->ctx->prog, strsignal((int)si.ssi_signo));
			return 1;
		}
		{
			struct nn_desired nd;
			struct nn_wev ev = { .type = NN_WEV_CONFIG };

			if (nn_desired_read(w->ctx, w->o->config, &nd)) {
				nn_fprintf_text(stderr, "%s: SIGHUP: keeping the desired state as it was\n",
					w->ctx->prog);
				continue;
			}
			nn_desired_free(&w->d);
			w->d = nd;
			nn_wd_event(&w->decide, &ev, now_ms());
		}
	}
	return 0;
}

/* Partition files changed: rate limited, the check runs when the gate says. */
static int on_cgroup(struct watcher *w, struct loop *l)
{
	char what[96] = "";

	(void)l;
	if (nn_cf_tree_drain(w->ctx, &w->cf, what, sizeof(what))) {
		snprintf(w->cg_what, sizeof(w->cg_what), "%s", what[0] ? what : "cgroup tree given up");
		w->cg_read = true;
		nn_wd_gate_event(&w->cg_gate, now_ms());
	} else if (nn_cf_dirty(&w->cf)) {
		nn_wd_gate_event(&w->cg_gate, now_ms());
	}
	return 0;
}

/* The deadline passed: the loop's wake-up only, what is due runs after. */
static int on_timer(struct watcher *w, struct loop *l)
{
	uint64_t x;

	(void)w;
	return read(l->tfd, &x, sizeof(x)) < 0 && errno != EAGAIN ? -errno : 0;
}

/* One netlink socket's datagrams, its events counted. */
static int on_netlink(struct watcher *w, struct loop *l, enum nn_wsrc src)
{
	unsigned long before = w->decide.events;
	int err = drain(w, l, src, l->events_only);

	l->seen += w->decide.events - before;
	return err;
}

static int on_rtnl(struct watcher *w, struct loop *l)
{
	return on_netlink(w, l, NN_WSRC_RTNL);
}

static int on_ethtool(struct watcher *w, struct loop *l)
{
	return on_netlink(w, l, NN_WSRC_ETHTOOL);
}

static int on_uevent(struct watcher *w, struct loop *l)
{
	return on_netlink(w, l, NN_WSRC_UEVENT);
}

/* Each returns 1 to stop the loop (a signal), 0 to go on, or -errno. */
static int (*const handlers[])(struct watcher *w, struct loop *l) = {
	[SRC_SIGNAL] = on_signal, [SRC_TIMER] = on_timer, [SRC_CLAIMS] = on_claims,
	[SRC_CGROUP] = on_cgroup, [SRC_OWNERS] = on_owners, [SRC_RTNL] = on_rtnl,
	[SRC_ETHTOOL] = on_ethtool, [SRC_UEVENT] = on_uevent,
};

static int run_loop(struct watcher *w, struct loop *l, bool events_only)
{
	uint64_t start = now_ms(), interval = (uint64_t)w->d.interval_s * 1000;
	int err = 0;

	l->events_only = events_only;
	l->seen = 0;
	l->next_periodic = events_only ? 0 : start + interval;
	/* armed from the start: 0 is "no deadline" to min_nz(), so a poll left
	 * at 0 would wait for some other wake-up, a new partition unseen for
	 * the whole --interval */
	l->next_claims_poll = events_only ? 0 : start + CLAIMS_POLL_MS;
	for (;;) {
		struct epoll_event evs[8];
		uint64_t now, next;
		int n, i;

		next = min_nz(nn_wd_deadline(&w->decide), min_nz(l->next_periodic, l->next_watchdog));
		if (!events_only)
			next = min_nz(next, min_nz(l->next_claims_poll, nn_wd_gate_deadline(&w->cg_gate)));
		if (events_only && w->o->timeout_s)
			next = min_nz(next, start + (uint64_t)w->o->timeout_s * 1000);
		if (next)
			arm(l, next);
		n = epoll_wait(l->ep, evs, 8, -1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		for (i = 0; i < n; i++) {
			err = handlers[evs[i].data.u32](w, l);
			if (err)
				return err > 0 ? 0 : err;
		}
		now = now_ms();
		if (events_only) {
			if ((w->o->count && l->seen >= w->o->count) ||
			    (w->o->timeout_s && now >= start + (uint64_t)w->o->timeout_s * 1000))
				return 0;
			if (nn_wd_due(&w->decide, now)) {
				nn_fprintf_text(stdout, "reconcile trigger=\"%s\" coalesced=%u\n", w->decide.trigger,
				       w->decide.npending);
				fflush(stdout);
				nn_wd_ran(&w->decide, now);
			}
			continue;
		}
		if (l->watchdog_ms && now >= l->next_watchdog) {
			notify(w, "WATCHDOG=1");
			l->next_watchdog = now + l->watchdog_ms;
		}
		if (nn_wd_gate_take(&w->cg_gate, now)) {
			char what[96] = "";

			bool changed;

			/* partition files written: read the claims only when
			 * one's state changed */
			changed = nn_cf_settle(w->ctx, &w->cf, what, sizeof(what));
			if (changed && !w->cg_read)
				snprintf(w->cg_what, sizeof(w->cg_what), "%s", what);
			if (changed || w->cg_read)
				check_claims(w, w->cg_what);
			w->cg_read = false;
		}
		if (w->recheck)
			check_claims(w, "claims watched");
		if (now >= l->next_claims_poll) {
			if (now >= l->next_tree_retry) {
				/* past the watch cap: watched again once the tree shrank */
				if (nn_cf_tree_retry(w->ctx, &w->cf))
					w->recheck = true;
				l->next_tree_retry = now + CLAIMS_SAFETY_MS;
			}
			check_claims(w, "poll");
			l->next_claims_poll = now + (nn_cf_needs_poll(&w->cf) ? CLAIMS_POLL_MS :
						     CLAIMS_SAFETY_MS);
		}
		mode_check(w);
		if (now >= l->next_periodic) {
			struct nn_wev ev = { .type = NN_WEV_PERIODIC };

			nn_wd_event(&w->decide, &ev, now);
			l->next_periodic = now + interval;
		}
		if (nn_wd_due(&w->decide, now)) {
			char trig[200];
			bool periodic = !strcmp(w->decide.trigger, "periodic check");

			snprintf(trig, sizeof(trig), "%s%s", w->decide.trigger,
				 w->decide.npending > 1 ? " and more" : "");
			err = reconcile(w, trig, periodic, false);
			if (err == -EBUSY) {
				nn_wd_retry(&w->decide, now);
				continue;
			}
			nn_wd_ran(&w->decide, now_ms());
			write_state(w);
			{
				char st[256];

				snprintf(st, sizeof(st), "STATUS=%s: %s, %zu values (%lu applies, %lu events)",
					 w->last.trigger, w->last.result, w->last.changed, w->applies,
					 w->decide.events);
				notify(w, st);
			}
			err = 0;	/* one failed reconcile does not stop the watcher */
		}
	}
}

static void watcher_free(struct watcher *w)
{
	size_t i;

	nn_desired_free(&w->d);
	nn_enabled_free(&w->en);
	nn_tx_end(&w->tx);
	nn_wd_free(&w->decide);
	nn_cpuset_free(&w->claimed);
	nn_cpuset_free(&w->cg_complete);
	nn_cf_close(&w->cf);
	for (i = 0; i < w->ngone; i++)
		free(w->gone[i]);
	free(w->gone);
}


/* The kernel arguments nicnuma configured, said once at start (a watcher
 * starting is often a boot): pending a reboot or in drift. It reports only:
 * rebooting a host is its operator's decision. */
static void boot_report(struct nn_ctx *ctx)
{
	struct nn_boot_assessed *v = NULL;
	struct nn_boot_arg *args = NULL;
	struct nn_boot_host b;
	size_t n = 0, nv = 0, drift = 0, i;
	bool pending = false;
	char why[400];

	if (nn_boot_host_read(ctx, &b, true))
		return;
	if (b.has_record && !nn_boot_args_from_record(&b.record, &args, &n) && n &&
	    !nn_boot_assess(&b, args, n, &v, &nv, &pending, why, sizeof(why))) {
		for (i = 0; i < nv; i++)
			drift += nn_boot_state_drift(v[i].state);
		nn_fprintf_text(stderr, "%s: boot arguments: %zu configured, %zu in drift%s (see nicnuma status; "
				"nicnuma never reboots)\n", ctx->prog, n, drift,
				pending ? ", a reboot pending" : "");
	}
	free(v);
	nn_boot_args_free(args, n);
	nn_boot_host_free(&b);
}

int nn_watch_lock(struct nn_ctx *ctx, int *holder)
{
	struct stat st;
	char pid[32];
	int dfd, fd, len;

	*holder = 0;
	dfd = nn_root_mkdir_p(&ctx->root, NN_WATCH_RUNDIR, 0755);
	fd = dfd;
	if (dfd >= 0) {
		/* No O_TRUNC: a planted link is refused below before any write. */
		fd = openat(dfd, "watch.lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK,
			    0600);
		if (fd < 0)
			fd = -errno;
		close(dfd);
	}
	/* Only its owner may open the lock: a user who could open it could
	 * hold LOCK_SH and keep every watcher from starting. An older 0644
	 * lock is tightened. */
	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1 ||
			st.st_uid != geteuid() || ((st.st_mode & 077) && fchmod(fd, 0600) < 0))) {
		close(fd);
		fd = -EPERM;
	}
	if (fd < 0) {
		nn_err(ctx, "cannot open %s/watch.lock: %s", NN_WATCH_RUNDIR, strerror(-fd));
		return fd;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int err = errno == EWOULDBLOCK ? -EBUSY : -errno;

		*holder = nn_watch_lock_holder(fd);
		close(fd);
		return err;
	}
	len = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	if (ftruncate(fd, 0) == 0 && pwrite(fd, pid, (size_t)len, 0) < 0)
		nn_warn(ctx, NN_WATCH_RUNDIR "/watch.lock", "cannot write the pid: %s", strerror(errno));
	return fd;
}

static void watcher_init(struct watcher *w, struct nn_ctx *ctx, const struct nn_watch_opts *o)
{
	memset(w, 0, sizeof(*w));
	w->tx = (struct nn_tx)NN_TX_INIT;
	w->ctx = ctx;
	w->o = o;
	nn_cf_init(&w->cf);
	iso_now(w->started, sizeof(w->started));
	nn_desired_init(&w->d);
	nn_wd_init(&w->decide, o->settle_ms ? o->settle_ms : 300);
	nn_wd_gate_init(&w->cg_gate, NN_WD_CGROUP_GAP_MS);
}

/* The value of a --once run or a one-shot reconcile: 1 when values failed
 * or desired ports were refused. */
static int once_result(const struct watcher *w, int err)
{
	if (!err && ((w->last.result && !strcmp(w->last.result, "failed")) || w->ports_refused))
		return 1;
	return err;
}

int nn_watch_reconcile_once(struct nn_ctx *ctx, struct nn_desired *d, struct nn_topo *topo, const char *trigger,
			    bool coexist)
{
	const struct nn_watch_opts o = { .once = true, .trigger = trigger, .coexist = coexist };
	struct watcher w;
	int err;

	watcher_init(&w, ctx, &o);
	w.d = *d;
	nn_desired_init(d);
	w.topo = topo;
	/* like a start: other owners looked for, desired ports bound */
	err = once_result(&w, reconcile(&w, trigger, false, true));
	watcher_free(&w);
	return err;
}

int nn_watch_run(struct nn_ctx *ctx, const struct nn_watch_opts *o)
{
	struct watcher w;
	struct loop l;
	int err, lock = -1, holder;
	bool live = nn_root_is_live(&ctx->root);
	char sched[128] = "other (fake root)";

	watcher_init(&w, ctx, o);
	memset(&l, 0, sizeof(l));
	l.ep = l.sfd = l.tfd = l.ifd = -1;
	if (o->events_only) {
		err = nn_require_live(ctx, "watch --events");
		if (!err)
			err = loop_open(ctx, &l, true, false, &w.cf, 0);
		if (!err)
			err = run_loop(&w, &l, true);
		goto out;
	}
	lock = nn_watch_lock(ctx, &holder);
	if (lock < 0) {
		err = lock;
		if (err == -EBUSY) {
			char who[32] = "unknown";

			if (holder > 0)
				snprintf(who, sizeof(who), "%d", holder);
			nn_err(ctx, "refusing: another nicnuma watch is running: pid %s holds %s/watch.lock",
			       who, NN_WATCH_RUNDIR);
		}
		goto out;
	}
	err = nn_desired_read(ctx, o->config, &w.d);
	if (err == -ENOENT)
		nn_err(ctx, "no desired state in %s: run 'nicnuma enable' first",
		       o->config ? o->config : NN_DESIRED_PATH);
	if (err)
		goto out;
	if (o->interval_s)
		w.d.interval_s = o->interval_s;
	if (o->settle_ms)
		w.d.settle_ms = o->settle_ms;
	w.decide.settle_ms = w.d.settle_ms;
	if (!o->once) {
		err = loop_open(ctx, &l, live, true, &w.cf,
				o->cgroup_watches < 0 ? 0 : o->cgroup_watches ?
				(size_t)o->cgroup_watches : NN_CGROUP_WATCHES_DEFAULT);
		if (err)
			goto out;
		w.ethtool = l.nl_open && l.nl.ethtool_family;
		/* before the first reconcile: a claim made while it runs waits
		 * on this process too */
		if (live || o->sched != NN_WATCH_SCHED_DEFAULT)
			nn_watch_sched_apply(o->sched == NN_WATCH_SCHED_DEFAULT ? NN_WATCH_SCHED_FIFO : o->sched,
					     sched, sizeof(sched));
	}
	/* At start: reserves the hugepages and puts back whatever the boot or
	 * a previous run left; nothing to write writes no snapshot. Other
	 * owners are looked for here, once. */
	err = reconcile(&w, o->trigger ? o->trigger : "start", false, true);
	write_state(&w);
	if (err || o->once) {
		err = once_result(&w, err);
		goto out;
	}
	if (nn_sd_open(&w.sd))
		nn_fprintf_text(stderr, "%s: NOTIFY_SOCKET is set but libsystemd.so.0 cannot be loaded: "
			"no readiness or watchdog messages\n", ctx->prog);
	{
		uint64_t usec = nn_sd_watchdog_usec(&w.sd);

		if (usec >= 2000) {
			l.watchdog_ms = usec / 2000;
			l.next_watchdog = now_ms() + l.watchdog_ms;
		}
	}
	notify(&w, "READY=1");
	nn_fprintf_text(stderr, "%s: watching %zu NICs (%s%s; settle %u ms, re-check every %u s); "
			"claims: records by inotify, cpuset partitions by %s (%zu watches), owners "
			"by %s; scheduling %s\n",
		ctx->prog, w.d.nnics, live ? "link, uevent" : "fake root: timer only",
		w.ethtool ? ", ethtool" : "", w.d.settle_ms, w.d.interval_s,
		nn_cf_tree_mode(&w.cf), nn_cf_watches(&w.cf),
		w.cf.owners_polled ? "poll" : live ? "pidfd" : "poll (fake root)", sched);
	boot_report(ctx);
	err = run_loop(&w, &l, false);
	notify(&w, "STOPPING=1");
out:
	loop_close(&l);
	nn_sd_close(&w.sd);
	watcher_free(&w);
	nn_state_unlock(lock);
	return err;
}
