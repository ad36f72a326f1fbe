/* SPDX-License-Identifier: GPL-2.0-or-later */
/* oci_hook.h - `nicnuma hook`: an OCI runtime hook that claims a container's CPUs
 *
 * The runtime (runc, crun, podman, CRI-O) runs the hook with the container's
 * state on stdin (OCI runtime spec, "State": ociVersion, id, status, pid,
 * bundle, annotations); the bundle's config.json holds the cpuset
 * (linux.resources.cpu.cpus) and the annotations. At a create stage the hook
 * claims the CPUs through the one door (service/claim.h, nn_claim_add); at
 * poststop it releases them. docs/claims.md says which annotations ask for it.
 *
 * The parsers and the decision are pure (text in, struct out; fuzzed by
 * tests/fuzz/fuzz_oci.c). nn_hook_run does the I/O under a deadline and never
 * makes the runtime fail: whatever goes wrong on nicnuma's side is said on
 * stderr (and in the journal where libsystemd is there) and the exit status
 * is 0.
 */
#ifndef NICNUMA_SERVICE_OCI_HOOK_H
#define NICNUMA_SERVICE_OCI_HOOK_H

#include <stdbool.h>
#include <stddef.h>

#include "nicnuma/core/cpuset.h"

struct nn_ctx;

#define NN_OCI_STATE_MAX	(1024 * 1024)	/* bytes of the state on stdin */
#define NN_OCI_CONFIG_MAX	(8 * 1024 * 1024)	/* bytes of config.json */
#define NN_OCI_CPUS_MAX		(64 * 1024)	/* bytes of linux.resources.cpu.cpus */
#define NN_OCI_ID_MAX		120		/* "oci-" + id fits NN_CLAIM_NAME_MAX */
#define NN_OCI_DEPTH_MAX	32		/* JSON nesting */
#define NN_HOOK_DEADLINE_MS	2000		/* the hook's whole run, by default */
#define NN_HOOK_DEADLINE_MAX_MS	30000

/* The annotations that ask for a claim. */
#define NN_OCI_ANN_CRIO		"irq-load-balancing.crio.io"	/* CRI-O's: disable, housekeeping */
#define NN_OCI_ANN_NICNUMA	"nicnuma.io/claim"		/* ours: "true" / "false" */

enum nn_oci_stage {
	NN_OCI_STAGE_NONE = 0,		/* not given: from the state's status */
	NN_OCI_STAGE_PRESTART,
	NN_OCI_STAGE_CREATE_RUNTIME,
	NN_OCI_STAGE_CREATE_CONTAINER,
	NN_OCI_STAGE_START_CONTAINER,
	NN_OCI_STAGE_POSTSTART,
	NN_OCI_STAGE_POSTSTOP,
};
/* "prestart", "createRuntime", ... ; NULL for NONE. */
const char *nn_oci_stage_name(enum nn_oci_stage s);
/* The stage named @s (the spec's spelling); -1 when none is. */
int nn_oci_stage_parse(const char *s);

/* One annotation (both strings malloc'd). */
struct nn_oci_ann {
	char *key, *value;
};

/* The container's state as the runtime hands it on stdin. */
struct nn_oci_state {
	char *oci_version;
	char *id;
	char *status;			/* creating, created, running, stopped */
	int pid;			/* -1 absent (poststop may have none) */
	char *bundle;			/* absolute path; NULL absent */
	struct nn_oci_ann *ann;		/* as given, in order */
	size_t nann;
};

/* What the hook needs of the bundle's config.json. */
struct nn_oci_config {
	bool has_cpus;			/* linux.resources.cpu.cpus present and not "" */
	struct nn_cpuset cpus;
	/* What tells a Guaranteed container with whole CPUs (CRI-O's own test):
	 * the pod's QoS class in its cgroup path, the CPU weight and quota. */
	char *cgroups_path;		/* linux.cgroupsPath; NULL absent */
	long long shares;		/* linux.resources.cpu.shares; -1 absent */
	long long quota;		/* linux.resources.cpu.quota; -1 absent or unlimited */
	long long period;		/* linux.resources.cpu.period; 0 absent */
	struct nn_oci_ann *ann;
	size_t nann;
};

void nn_oci_state_free(struct nn_oci_state *s);
void nn_oci_config_free(struct nn_oci_config *c);

/* Pure. Each parses one document of @len bytes (no NUL needed): refused
 * (-EINVAL, -EFBIG) with the reason in @why when it is not JSON (or not
 * UTF-8), deeper than NN_OCI_DEPTH_MAX, larger than its bound, or a field
 * has the wrong type or a bad value (an id that cannot name a claim, a pid
 * out of range, a relative bundle, a cpuset that is no cpulist or names a
 * CPU >= NN_CPU_MAX). -ENOMEM. Unknown fields are ignored, as the spec asks. */
int nn_oci_state_parse(const char *text, size_t len, struct nn_oci_state *out,
		       char *why, size_t whylen);
int nn_oci_config_parse(const char *text, size_t len, struct nn_oci_config *out,
			char *why, size_t whylen);

/* The value of annotation @key: the config's first, then the state's; NULL. */
const char *nn_oci_annotation(const struct nn_oci_state *s, const struct nn_oci_config *c,
			      const char *key);

enum nn_oci_action { NN_OCI_NOTHING, NN_OCI_CLAIM, NN_OCI_RELEASE };
enum nn_oci_mode {
	NN_OCI_MODE_NONE,
	NN_OCI_MODE_DISABLE,		/* every CPU of the container is claimed */
	NN_OCI_MODE_HOUSEKEEPING,	/* all but its first CPU and that CPU's SMT siblings */
};
/* "none", "disable", "housekeeping" */
const char *nn_oci_mode_name(enum nn_oci_mode m);

struct nn_oci_decision {
	enum nn_oci_action action;
	enum nn_oci_mode mode;
	enum nn_oci_stage stage;	/* the stage acted for (from the status when not given) */
	const char *why;		/* NOTHING: why not (static text, or detail) */
	bool refused;			/* NOTHING although an annotation asked: said on stderr */
	char detail[256];		/* a reason with the container's values */
};

/* Pure: what to do at @stage (NONE: the state's status decides) for this
 * container. @c may be NULL (poststop reads no config). Only what CRI-O
 * would isolate claims: a container of a Guaranteed pod (a Kubernetes
 * cgroup path naming neither "burstable" nor "besteffort") with whole CPUs
 * (cpu.shares a multiple of 1024 - required under kubepods - and a quota,
 * when set, a whole number of periods); anything else is refused with
 * the value that says why. */
void nn_oci_decide(const struct nn_oci_state *s, const struct nn_oci_config *c,
		   enum nn_oci_stage stage, struct nn_oci_decision *d);

/* Pure: the CPUs a claim takes: @cpus, less (housekeeping) the first CPU's
 * SMT siblings @first_siblings (NULL or empty: the first CPU alone, as CRI-O
 * does without thread_siblings_list). 0 or -ENOMEM; may leave @out empty. */
int nn_oci_claim_cpus(const struct nn_cpuset *cpus, enum nn_oci_mode mode,
		      const struct nn_cpuset *first_siblings, struct nn_cpuset *out);

/* The claim's name for container @id: "oci-" + id, into @buf. 0, or
 * -EINVAL when @id cannot name a claim. */
int nn_oci_claim_name(const char *id, char *buf, size_t size);

struct nn_hook_opts {
	enum nn_oci_stage stage;	/* NONE: from the status */
	unsigned int deadline_ms;	/* the whole run; NN_HOOK_DEADLINE_MS by default */
	bool dry_run;			/* parse and decide; claim nothing */
	int in_fd;			/* the state: 0 */
};

/* The hook: reads the state (bounded by size and deadline), the bundle's
 * config.json through the fs root, decides, records the claim or its
 * release here and, when no watcher runs to act on the record, re-applies
 * in a child it waits for until the deadline (then leaves it to finish:
 * the container is not held up). Prints what it did; every failure is a message on stderr
 * and in the journal. Returns 0 acted or nothing to do, 1 refused or failed
 * (the CLI still exits 0: a hook never stops a container). */
int nn_hook_run(struct nn_ctx *ctx, const struct nn_hook_opts *o);

#endif
