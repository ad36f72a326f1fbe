/* SPDX-License-Identifier: GPL-2.0-or-later */
/* observe.h - an observation session: the host, the sampler, two samples
 * in turn, the wait between them; and the report's printing (text or JSON),
 * shared by "nicnuma observe", "check --traffic" and "metrics --traffic".
 *
 * The counters and their attribution are obs/obs.h's. A fake root
 * does not move by itself: a session under one never sleeps (its samples are
 * /.observe/K snapshots on a nominal clock).
 */
#ifndef NICNUMA_EMIT_OBSERVE_H
#define NICNUMA_EMIT_OBSERVE_H

#include <signal.h>
#include <stdbool.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/discover/host.h"
#include "nicnuma/telemetry/dpdk_telemetry.h"
#include "nicnuma/obs/obs.h"

struct nn_obs_session {
	struct nn_host host;
	bool host_owned;		/* discovered here (freed on close) */
	struct nn_obs_sampler sp;
	struct nn_obs_sample s[2];
	int cur;			/* s[cur] is the newest sample */
	long taken;			/* samples so far */
	struct nn_cpuset isolated;
	struct nn_cpuset claimed;	/* the run-time claims' CPUs when the session began */
	struct nn_obs_opts opts;
	double interval;
};

/* Discovers the host (NICs and nodes), checks that every name in @only
 * (NULL-terminated, NULL: all) is a NIC (-ENODEV with an error naming it),
 * and takes the first sample; on failure nothing is left to close. @qwant: where per-queue packet counts come
 * from (nn_obs_sampler.qwant: NETLINK is netlink, else ethtool). */
int nn_obs_session_open(struct nn_ctx *ctx, struct nn_obs_session *ss, char *const *only,
			double interval, enum nn_obs_qsrc qwant);
/* The same over a host the caller already discovered (check, metrics):
 * borrowed, not freed; queue statistics from netlink, else ethtool. */
int nn_obs_session_open_host(struct nn_ctx *ctx, struct nn_obs_session *ss,
			     const struct nn_host *host, char *const *only, double interval);
void nn_obs_session_close(struct nn_obs_session *ss);

/* Waits @secs (not under a fake root) unless a signal of @stop arrives
 * (then true); @stop may be NULL. */
bool nn_obs_wait(const struct nn_ctx *ctx, const sigset_t *stop, double secs);

/* Waits until one interval after the newest sample was taken (so the
 * sampling's own time does not stretch the interval); true on a signal of
 * @stop. Not under a fake root. */
bool nn_obs_session_wait(const struct nn_ctx *ctx, const struct nn_obs_session *ss,
			 const sigset_t *stop);
/* Takes the next sample and attributes the work since the previous one. */
int nn_obs_session_next(struct nn_ctx *ctx, struct nn_obs_session *ss, struct nn_obs_report *r);

/* One observation of @secs over @host (open, wait, next, close): what check
 * and metrics fold in. */
int nn_obs_once(struct nn_ctx *ctx, const struct nn_host *host, char *const *only, double secs,
		struct nn_obs_report *r);

/* The report's fields (JSON keys as documented in nicnuma-observe(8)) into
 * the current JSON object, or a table in text mode. @max_remote: the
 * threshold to show (-1 none). */
void nn_obs_report_print(struct nn_out *o, const struct nn_obs_report *r, double max_remote);
/* The head of interval @n's document: "sample", "time" (null under a fake
 * root) and the title line; @live_view clears the terminal first. */
void nn_obs_sample_head_print(struct nn_ctx *ctx, long n, bool live_view);
/* The queue statistics source as a word: "netlink", "ethtool", "not_available". */
const char *nn_obs_qsrc_name(enum nn_obs_qsrc q);

/* observe --dpdk: a DPDK process's telemetry sampled beside the kernel's. */
struct nn_obs_dpdk {
	struct nn_dt_opts opts;
	const char *prefix;		/* as given ("rte" by default) */
	struct nn_dt_report rep;	/* ports, lcores, notes of the first exchange */
	struct nn_dt_sample s[2];
	int cur;			/* s[cur] the newest good sample */
	bool running;			/* the newest sample answered */
	bool gone_warned;
};

/* The first sample; errors reported (exit 2: no such file prefix). */
int nn_obs_dpdk_open(struct nn_ctx *ctx, struct nn_obs_dpdk *d, const char *prefix,
		     int timeout_ms);
/* The next sample: a process that stopped answering is a warning, and the
 * observation goes on (d->running false) until it answers again. */
int nn_obs_dpdk_next(struct nn_ctx *ctx, struct nn_obs_dpdk *d);
void nn_obs_dpdk_close(struct nn_obs_dpdk *d);
/* The "dpdk" object (JSON) or the DPDK section (text) of the newest interval. */
int nn_obs_dpdk_print(struct nn_out *o, const struct nn_obs_dpdk *d);
#endif
