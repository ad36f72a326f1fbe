// SPDX-License-Identifier: GPL-2.0-or-later
/* oci_hook.c - `nicnuma hook`: read the OCI state under a deadline, claim or release
 *
 * The runtime waits for a hook and fails the container when it fails, so
 * nothing here may take long or fail it: the state is read with a deadline;
 * the record is written here (reads of a few kernel and /run files and one
 * atomic write, nothing that waits on a lock); what can wait - the re-apply
 * under the state lock when no watcher runs - runs in a child of core's
 * runner (nn_cmd_run, detach), waited for until the deadline and then left
 * to finish in a session of its own. Its messages come back through the
 * runner's stderr capture and are relayed (runc waits for EOF on the hook's
 * stderr, so the child must not hold it), its result through the stdout one.
 * With a watcher running nothing is forked: a forked child's first run
 * waits behind every runnable task of a loaded host, and the watcher acts
 * on the record the moment it is written.
 */
#include "nicnuma/service/oci_hook.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "nicnuma/service/claim.h"
#include "nicnuma/service/claim_sched.h"
#include "nicnuma/service/sd_notify.h"
#include "nicnuma/core/cmd_exec.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/core/fileio.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/discover/topo.h"

struct hook {
	struct nn_ctx *ctx;
	const struct nn_hook_opts *o;
	long long t0, deadline;		/* CLOCK_MONOTONIC ms */
	struct nn_oci_state st;
	struct nn_oci_config cfg;
	struct nn_oci_decision d;
	struct nn_cpuset claim;		/* the CPUs claimed */
	char name[NN_CLAIM_NAME_MAX + 8];
	const char *outcome;		/* what happened, for the output */
	struct nn_claim_result res;
	int rc;				/* nn_claim_add/release's value */
	bool background;		/* the deadline passed with the child still working */
	struct nn_claim_sched sched;	/* raised from the start to the record's write */
	struct nn_claim_inputs in;	/* read once: housekeeping, the record's checks, the re-apply */
};

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int left_ms(const struct hook *h)
{
	long long l = h->deadline - now_ms();

	return l < 0 ? 0 : (int)l;
}

/* A message to stderr and, on the live host, to the journal. */
static void say(struct hook *h, int prio, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(struct hook *h, int prio, const char *fmt, ...)
{
	struct nn_sb sb = NN_SB_INIT;
	va_list ap;

	nn_sb_printf(&sb, "hook %s: ", h->st.id ? h->st.id : "(no id)");
	va_start(ap, fmt);
	nn_sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	if (!sb.buf)
		return;
	nn_err(h->ctx, "%s", sb.buf);
	if (nn_root_is_live(&h->ctx->root)) {
		struct nn_sb j = NN_SB_INIT;

		nn_sb_printf(&j, "nicnuma %s", sb.buf);
		if (j.buf)
			nn_sd_journal(prio, j.buf);
		nn_sb_free(&j);
	}
	nn_sb_free(&sb);
}

/* The OCI state: all of the hook's input (h->o->in_fd) into *@out, not
 * NUL-terminated, *@len bytes. 0, or -EFBIG past NN_OCI_STATE_MAX,
 * -ETIMEDOUT at the deadline, -errno. */
static int read_state(struct hook *h, char **out, size_t *len)
{
	size_t cap = 0, n = 0;
	char *buf = NULL;
	int ret = 0;

	for (;;) {
		struct pollfd p = { .fd = h->o->in_fd, .events = POLLIN };
		ssize_t r;

		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 4096;
			char *nb;

			if (cap > NN_OCI_STATE_MAX) {
				ret = -EFBIG;
				break;
			}
			nb = realloc(buf, ncap + 1);
			if (!nb) {
				ret = -ENOMEM;
				break;
			}
			buf = nb;
			cap = ncap;
		}
		r = poll(&p, 1, left_ms(h));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			ret = r ? -errno : -ETIMEDOUT;
			break;
		}
		r = read(h->o->in_fd, buf + n, cap - n);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r < 0) {
			ret = -errno;
			break;
		}
		if (!r)
			break;
		n += (size_t)r;
	}
	if (ret) {
		free(buf);
		return ret;
	}
	*out = buf;
	*len = n;
	return 0;
}

/* In the child of read_config: config.json opened and read as the trust
 * rule says, written to @out; the exit status is 0, or the errno (EINVAL:
 * not a regular file). */
static void config_child(struct hook *h, const char *path, int out)
{
	char *text = NULL;
	struct stat sb;
	size_t len = 0, off = 0;
	int fd, ret;

	fd = nn_root_openat(&h->ctx->root, path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0);
	if (fd < 0)
		_exit(-fd);
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode))
		_exit(EINVAL);
	ret = nn_read_fd_bounded(fd, NN_OCI_CONFIG_MAX, &text, &len);
	if (ret)
		_exit(-ret);
	while (off < len) {
		ssize_t n = write(out, text + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(EPIPE);
		off += (size_t)n;
	}
	_exit(0);
}

struct config_read {
	struct hook *h;
	const char *path;
};

static void config_fn(void *arg)
{
	const struct config_read *r = arg;

	config_child(r->h, r->path, STDOUT_FILENO);
}

/* config.json, read in a child under the deadline (core's nn_cmd_run): on a
 * hung bundle file system (a dead NFS or FUSE server) open and read block
 * where no O_NONBLOCK helps, and the runtime waits for the hook. Past the
 * deadline the child is killed and left to the kernel; the hook goes on
 * without. */
static int read_config(struct hook *h, char *why, size_t whylen)
{
	const struct nn_cmd_limits lim = { left_ms(h) / 1000.0, 0, NN_OCI_CONFIG_MAX, 256, false, true };
	struct config_read r = { .h = h };
	const struct nn_cmd_child c = { .fn = config_fn, .arg = &r };
	struct nn_sb path = NN_SB_INIT;
	struct nn_cmd_result res;
	char *text = NULL, *err = NULL;
	sigset_t mask;
	int ret;

	nn_sb_printf(&path, "%s/config.json", h->st.bundle);
	if (!path.buf)
		return -ENOMEM;
	r.path = path.buf;
	sigprocmask(SIG_SETMASK, NULL, &mask);
	fflush(NULL);
	ret = nn_cmd_run(&c, &mask, &lim, &text, &err, &res);
	if (!ret && res.timed_out)
		ret = -ETIMEDOUT;
	else if (!ret && res.out_dropped)
		ret = -EFBIG;
	else if (!ret && res.status >= 128)
		ret = -ECHILD;
	else if (!ret)
		ret = -res.status;
	if (ret == -EINVAL)
		snprintf(why, whylen, "%s is not a regular file", path.buf);
	else if (ret == -ETIMEDOUT)
		snprintf(why, whylen, "%s: not read within the deadline (a hung file system?)", path.buf);
	else if (ret)
		snprintf(why, whylen, "%s: %s", path.buf, ret == -EFBIG ? "larger than its bound" : strerror(-ret));
	else
		ret = nn_oci_config_parse(text, res.out_len, &h->cfg, why, whylen);
	free(text);
	free(err);
	nn_sb_free(&path);
	return ret;
}

/* Housekeeping keeps the container's first CPU and its SMT siblings for
 * IRQs: the siblings are topo's answer (thread_siblings_list), read into
 * the request's inputs the record's checks and the re-apply use too. */
static int claim_cpus(struct hook *h)
{
	struct nn_cpuset sib = NN_CPUSET_INIT;
	int ret;

	if (h->d.mode == NN_OCI_MODE_HOUSEKEEPING && !nn_claim_inputs_read(h->ctx, &h->in, NN_TOPO_FULL)) {
		const struct nn_cpu *c = nn_topo_cpu(&h->in.topo, nn_cpuset_first(&h->cfg.cpus));

		if (c && nn_cpuset_copy(&sib, &c->siblings))
			return -ENOMEM;
	}
	ret = nn_oci_claim_cpus(&h->cfg.cpus, h->d.mode, &sib, &h->claim);
	nn_cpuset_free(&sib);
	return ret;
}

/* What the re-apply child says back on its stdout. */
struct child_result {
	int rc;
	struct nn_claim_result res;
};

/* The re-apply child's messages kept for the relay: far more than a
 * reconcile's warnings; the rest is read and dropped (core's runner). */
#define HOOK_MSG_MAX (64 * 1024)

/* The context's warnings and notes as lines on stderr, then cleared. */
static void say_warnings(struct nn_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->nwarns; i++)
		nn_err(ctx, "warning: %s%s%s", ctx->warns[i].file ? ctx->warns[i].file : "",
		       ctx->warns[i].file ? ": " : "", ctx->warns[i].msg);
	for (i = 0; i < ctx->nnotes; i++)
		nn_err(ctx, "note: %s", ctx->notes[i].msg);
	nn_warnings_clear(ctx);
}

/* Here, before any fork: the record written or removed (not re-applied:
 * NN_CLAIM_NO_APPLY). Fills h->rc and h->res. */
static void record(struct hook *h)
{
	struct nn_claim c = NN_CLAIM_INIT;
	unsigned int flags = NN_CLAIM_QUIET | NN_CLAIM_NO_APPLY;
	char reason[256];

	if (h->d.action == NN_OCI_CLAIM) {
		snprintf(reason, sizeof(reason), "OCI container %.*s (%s at %s)", 64, h->st.id,
			 nn_oci_mode_name(h->d.mode), nn_oci_stage_name(h->d.stage));
		c.name = h->name;
		c.cpus = h->claim;
		c.owner = (char *)"hook";
		c.reason = reason;
		c.pid = h->st.pid;
		c.container_id = h->st.id;
		h->rc = nn_claim_add(h->ctx, &c, flags | NN_CLAIM_REPLACE, &h->in, &h->res);
	} else {
		char why[160];

		/* no record: nothing to say (an unannotated container's poststop) */
		h->rc = nn_claim_store_read(h->ctx, h->name, &c, why, sizeof(why));
		if (!h->rc || h->rc != -ENOENT)
			h->rc = nn_claim_release(h->ctx, h->name, flags | NN_CLAIM_IF_OWNER_GONE, &h->res);
		nn_claim_free(&c);
	}
}

/* Messages (the child's, the record's) to stderr and, on the live host,
 * the journal. */
static void relay(struct hook *h, struct nn_sb *line)
{
	if (!line->buf || !line->len)
		return;
	/* they already carry the program name */
	if (line->buf[line->len - 1] != '\n')
		nn_sb_putc(line, '\n');
	if (line->buf)
		fputs(line->buf, stderr);
	if (nn_root_is_live(&h->ctx->root) && line->buf)
		nn_sd_journal(LOG_WARNING, line->buf);
}

/* record() with its messages (errors, warnings, notes) caught in a memfd
 * on fd 2 and relayed as the child's are: to stderr and the journal. A
 * memfd never blocks its writer, as a pipe nobody reads would. */
static void record_relayed(struct hook *h)
{
	struct nn_sb line = NN_SB_INIT;
	int mfd, saved = -1;
	char buf[4096];
	off_t off = 0;
	ssize_t n;

	fflush(stderr);
	mfd = memfd_create("nicnuma-hook", MFD_CLOEXEC);
	if (mfd >= 0)
		saved = fcntl(2, F_DUPFD_CLOEXEC, 3);
	if (mfd < 0 || saved < 0 || dup2(mfd, 2) < 0) {
		/* not caught: straight to stderr */
		if (saved >= 0)
			close(saved);
		if (mfd >= 0)
			close(mfd);
		record(h);
		say_warnings(h->ctx);
		return;
	}
	record(h);
	say_warnings(h->ctx);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	while ((n = pread(mfd, buf, sizeof(buf), off)) > 0) {
		nn_sb_putn(&line, buf, (size_t)n);
		off += n;
	}
	close(mfd);
	relay(h, &line);
	nn_sb_free(&line);
}

/* In the child (core's runner): the re-apply no watcher makes. Its
 * messages go to stderr (the runner's capture), the result to stdout, which
 * nothing else may write: the rest of the child's stdout is /dev/null. */
static void reapply_child(void *arg)
{
	struct hook *h = arg;
	struct child_result r = { .rc = h->rc, .res = h->res };
	int resfd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);

	if (devnull >= 0)
		dup2(devnull, STDOUT_FILENO);
	h->ctx->deadline_ms = 0;	/* the re-apply may finish past it, in the background */
	nn_claim_reapply(h->ctx, h->name, h->d.action != NN_OCI_CLAIM, NN_CLAIM_QUIET, &h->in, &r.res);
	say_warnings(h->ctx);
	fflush(NULL);
	if (resfd < 0 || write(resfd, &r, sizeof(r)) != (ssize_t)sizeof(r))
		_exit(1);
	_exit(0);
}

/* Records the claim, then re-applies in a child the hook waits for up to
 * its deadline and then leaves running (h->background): 0, or -errno when
 * the child cannot start. */
static int record_and_reapply(struct hook *h)
{
	const struct nn_cmd_limits lim = { .timeout_s = left_ms(h) / 1000.0, .out_max = sizeof(struct child_result),
					   .err_max = HOOK_MSG_MAX, .detach = true };
	const struct nn_cmd_child c = { .fn = reapply_child, .arg = h };
	struct nn_sb line = NN_SB_INIT;
	struct nn_cmd_result res;
	struct child_result r;
	char *out = NULL, *err = NULL;
	sigset_t mask;
	int ret;

	record_relayed(h);
	/* the child (reset on fork) and the wait for it need no raise */
	nn_claim_sched_drop(&h->sched);
	/* refused, nothing recorded, or the watcher re-applies: done */
	if (h->rc || !h->res.recorded || h->res.applied == NN_CLAIM_BY_WATCHER)
		return 0;
	sigprocmask(SIG_SETMASK, NULL, &mask);
	fflush(NULL);
	ret = nn_cmd_run(&c, &mask, &lim, &out, &err, &res);
	if (ret)
		return ret;
	nn_sb_puts(&line, err);
	relay(h, &line);
	nn_sb_free(&line);
	if (res.detached) {
		h->background = true;	/* it goes on: the container must not wait */
		h->rc = -ETIMEDOUT;
	} else if (!res.status && res.out_len == sizeof(r)) {
		memcpy(&r, out, sizeof(r));
		h->rc = r.rc;
		h->res = r.res;
	} else {
		h->rc = -ECHILD;
	}
	free(out);
	free(err);
	return 0;
}

static const char *applied_name(enum nn_claim_applied a)
{
	switch (a) {
	case NN_CLAIM_BY_WATCHER:
		return "watcher";
	case NN_CLAIM_BY_SELF:
		return "self";
	default:
		return "no";
	}
}

static void print_result(struct hook *h)
{
	struct nn_out *o = &h->ctx->out;
	char *cpus = h->d.action == NN_OCI_CLAIM ? nn_cpuset_format_list(&h->claim) : NULL;

	nn_open_object(o, "hook");
	nn_print_string(o, PRINT_ANY, "stage", "stage: %s\n", nn_oci_stage_name(h->d.stage));
	nn_print_string(o, PRINT_ANY, "container_id", "container: %s\n", h->st.id);
	nn_print_string(o, PRINT_ANY, "action", "action: %s\n",
			h->d.action == NN_OCI_CLAIM ? "claim" :
			h->d.action == NN_OCI_RELEASE ? "release" : "none");
	nn_print_string(o, PRINT_ANY, "mode", "mode: %s\n", nn_oci_mode_name(h->d.mode));
	nn_print_string(o, PRINT_ANY, "name", "claim: %s\n", h->d.action ? h->name : NULL);
	nn_print_string(o, PRINT_ANY, "cpus", "cpus: %s\n", cpus);
	nn_print_string(o, PRINT_ANY, "outcome", "outcome: %s\n", h->outcome);
	nn_print_string(o, PRINT_ANY, "applied", "applied: %s\n", applied_name(h->res.applied));
	nn_print_int(o, PRINT_ANY, "elapsed_ms", "elapsed: %lld ms\n", now_ms() - h->t0);
	nn_close_object(o);
	free(cpus);
}

int nn_hook_run(struct nn_ctx *ctx, const struct nn_hook_opts *o)
{
	struct hook h = { .ctx = ctx, .o = o };
	char why[512] = "", *text = NULL;
	size_t len = 0;
	int ret;

	h.t0 = now_ms();
	nn_claim_inputs_init(&h.in);
	/* the runtime starts the hook among the host's threads: on a loaded
	 * host a nice-0 hook waits slices before its record is written */
	nn_claim_sched_raise(o->dry_run ? NN_WATCH_SCHED_OTHER : NN_WATCH_SCHED_DEFAULT,
			     nn_root_is_live(&ctx->root), &h.sched);
	h.deadline = h.t0 + (o->deadline_ms ? o->deadline_ms : NN_HOOK_DEADLINE_MS);
	/* the claim door's cgroup walk stops there too */
	ctx->deadline_ms = h.deadline;
	h.st.pid = -1;
	ret = read_state(&h, &text, &len);
	if (ret) {
		say(&h, LOG_ERR, "cannot read the container state on stdin: %s; nothing claimed",
		    ret == -EFBIG ? "larger than 1 MiB" : ret == -ETIMEDOUT ? "the deadline passed" :
		    strerror(-ret));
		goto fail;
	}
	ret = nn_oci_state_parse(text, len, &h.st, why, sizeof(why));
	free(text);
	if (ret) {
		say(&h, LOG_ERR, "refused: %s; nothing claimed", why);
		goto fail;
	}
	nn_oci_claim_name(h.st.id, h.name, sizeof(h.name));
	nn_oci_decide(&h.st, NULL, o->stage, &h.d);
	if (h.d.stage != NN_OCI_STAGE_NONE && h.d.stage != NN_OCI_STAGE_POSTSTOP) {
		/* the annotations and the cpuset are the bundle's */
		if (!h.st.bundle) {
			say(&h, LOG_ERR, "refused: the state has no bundle; nothing claimed");
			goto fail;
		}
		ret = read_config(&h, why, sizeof(why));
		if (ret) {
			say(&h, LOG_ERR, "refused: %s; nothing claimed", why);
			goto fail;
		}
		nn_oci_decide(&h.st, &h.cfg, o->stage, &h.d);
	}
	if (h.d.action == NN_OCI_CLAIM) {
		ret = claim_cpus(&h);
		if (ret)
			goto fail;
		if (nn_cpuset_empty(&h.claim)) {
			h.d.action = NN_OCI_NOTHING;
			h.d.why = "housekeeping keeps every CPU of the container (its first CPU and siblings)";
		}
	}
	if (h.d.action == NN_OCI_NOTHING) {
		h.outcome = h.d.why;
		if (h.d.refused)
			say(&h, LOG_WARNING, "refused: %s; nothing claimed", h.d.why);
		goto done;
	}
	if (o->dry_run) {
		h.outcome = "dry run: nothing changed";
		goto done;
	}
	ret = record_and_reapply(&h);
	if (ret) {
		say(&h, LOG_ERR, "cannot start the claim: %s; nothing claimed", strerror(-ret));
		goto fail;
	}
	if (h.background) {
		say(&h, LOG_WARNING, "the %u ms deadline passed; the %s goes on in the background",
		    o->deadline_ms ? o->deadline_ms : NN_HOOK_DEADLINE_MS,
		    h.d.action == NN_OCI_CLAIM ? "claim" : "release");
		h.outcome = "deadline passed: finishing in the background";
	} else if (h.rc == -ENOENT && h.d.action == NN_OCI_RELEASE) {
		h.outcome = "no claim for this container";
	} else if (h.rc == -EBUSY && h.d.action == NN_OCI_RELEASE) {
		h.outcome = "not released: a living process holds the claim (another container's)";
	} else if (h.rc) {
		say(&h, LOG_ERR, "%s failed: %s; the container starts anyway",
		    h.d.action == NN_OCI_CLAIM ? "claim" : "release", strerror(-h.rc));
		h.outcome = "failed";
		print_result(&h);
		ret = 1;
		goto out;
	} else {
		h.outcome = h.d.action == NN_OCI_CLAIM ? "claimed" : "released";
	}
done:
	print_result(&h);
	ret = 0;
	goto out;
fail:
	ret = 1;
out:
	nn_claim_sched_drop(&h.sched);
	nn_cpuset_free(&h.claim);
	nn_oci_state_free(&h.st);
	nn_oci_config_free(&h.cfg);
	nn_claim_inputs_free(&h.in);
	return ret;
}
