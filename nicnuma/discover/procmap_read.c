// SPDX-License-Identifier: GPL-2.0-or-later
/* procmap_read.c - a process's snapshot for check --pid: its status, its
 * numa_maps and the CPU each thread last ran on, read through the fs root so
 * a captured tree is checked the same way as the live machine. The parsing
 * and the verdict are procmap.c's. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nicnuma/core/fileio.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/core/limits.h"
#include "nicnuma/core/proc.h"
#include "nicnuma/discover/procmap.h"

#define NODE_DIR "/sys/devices/system/node"

void nn_pm_cpu_nodes_free(struct nn_pm_cpu_nodes *cn)
{
	free(cn->node);
	nn_cpuset_free(&cn->nodes);
	memset(cn, 0, sizeof(*cn));
}

/* Records @node as the node of every CPU in @cpus. */
static int map_cpus(struct nn_pm_cpu_nodes *cn, const struct nn_cpuset *cpus, int node)
{
	int cpu, err;

	err = nn_cpuset_set(&cn->nodes, (unsigned int)node);
	nn_cpuset_foreach(cpu, cpus) {
		if (err)
			break;
		if ((size_t)cpu >= cn->ncpus) {
			size_t n = (size_t)cpu + 1, i;
			int *nn = realloc(cn->node, n * sizeof(*nn));

			if (!nn)
				return -ENOMEM;
			for (i = cn->ncpus; i < n; i++)
				nn[i] = -1;
			cn->node = nn;
			cn->ncpus = n;
		}
		cn->node[cpu] = node;
	}
	return err;
}

/* merge: facts - the topology's CPU->node answer (nn_topo_cpu_node) needs a
 * whole nn_topo_discover and knows only online CPUs; a thread's last CPU may
 * be offline since. This reads the node cpulists alone. */
int nn_pm_cpu_nodes_read(struct nn_ctx *ctx, struct nn_pm_cpu_nodes *cn)
{
	struct dirent *de;
	DIR *dir;
	int err;

	memset(cn, 0, sizeof(*cn));
	err = nn_root_opendir(&ctx->root, NODE_DIR, &dir);
	if (err) {
		nn_warn(ctx, NODE_DIR, "unreadable (%s): threads' nodes unknown", strerror(-err));
		return 0;
	}
	while ((de = readdir(dir))) {
		struct nn_cpuset cpus = NN_CPUSET_INIT;
		char path[320];
		long node;

		if (strncmp(de->d_name, "node", 4) || nn_parse_long(de->d_name + 4, &node) ||
		    node < 0 || node >= NN_CPU_MAX)
			continue;
		snprintf(path, sizeof(path), "%s/%s/cpulist", NODE_DIR, de->d_name);
		err = nn_read_cpulist(&ctx->root, path, &cpus);
		if (err) {
			nn_warn(ctx, path, "unreadable (%s): its CPUs are of unknown node",
				strerror(-err));
			err = 0;
			continue;
		}
		err = map_cpus(cn, &cpus, (int)node);
		nn_cpuset_free(&cpus);
		if (err)
			break;
	}
	closedir(dir);
	if (err)
		nn_pm_cpu_nodes_free(cn);
	return err;
}

int nn_pm_cpu_node(const struct nn_pm_cpu_nodes *cn, int cpu)
{
	return cpu >= 0 && (size_t)cpu < cn->ncpus ? cn->node[cpu] : -1;
}

void nn_pm_snapshot_free(struct nn_pm_snapshot *s)
{
	nn_proc_status_free(&s->st);
	nn_numa_maps_free(&s->maps);
	free(s->threads);
	nn_cpuset_free(&s->thread_nodes);
	memset(s, 0, sizeof(*s));
}

static int add_thread(const struct nn_pm_cpu_nodes *cn, struct nn_pm_snapshot *s, int tid, int cpu)
{
	struct nn_pm_thread *t;
	int err;

	err = NN_GROW(s->threads, s->nthreads, s->threads_cap);
	if (err)
		return err;
	t = &s->threads[s->nthreads++];
	t->tid = tid;
	t->cpu = cpu;
	t->node = nn_pm_cpu_node(cn, cpu);
	if (t->node < 0) {
		s->unknown_threads++;
		return 0;
	}
	return nn_cpuset_set(&s->thread_nodes, (unsigned int)t->node);
}

static int read_threads(struct nn_ctx *ctx, const struct nn_pm_cpu_nodes *cn,
			struct nn_pm_snapshot *s)
{
	struct dirent *de;
	DIR *dir;
	int err;

	err = nn_proc_open_tasks(&ctx->root, s->pid, &dir);
	if (err)
		return err;
	while ((de = readdir(dir))) {
		struct nn_proc_stat st;
		long tid;
		int cpu;

		if (nn_parse_long(de->d_name, &tid) || tid <= 0 || tid > NN_PID_MAX)
			continue;
		err = nn_proc_read_task_stat(&ctx->root, s->pid, (int)tid, &st);
		if (err == -ESRCH) {
			err = 0;	/* the thread exited while we looked */
			continue;
		}
		if (err && err != -EINVAL)
			break;
		cpu = err || st.nfields < 39 ? -1 : (int)st.processor;
		if (cpu < 0)
			nn_warn(ctx, NULL, "pid %d thread %ld: its stat has no processor field: CPU unknown",
				s->pid, tid);
		err = add_thread(cn, s, (int)tid, cpu);
		if (err)
			break;
	}
	closedir(dir);
	return err;
}

static int cmp_thread(const void *a, const void *b)
{
	const struct nn_pm_thread *x = a, *y = b;

	return (x->tid > y->tid) - (x->tid < y->tid);
}

static int read_status(struct nn_ctx *ctx, struct nn_pm_snapshot *s)
{
	int err = nn_proc_read_status(&ctx->root, s->pid, &s->st);

	if (err == -ESRCH) {
		nn_err(ctx, "no such process: %d (no status under %s/proc)", s->pid,
		       nn_root_is_live(&ctx->root) ? "" : ctx->root.path);
		return err;
	}
	if (!err && !s->st.has_cpus_allowed && !s->st.has_mems_allowed &&
	    !nn_proc_status_exited(&s->st))
		err = -EINVAL;
	if (err == -EINVAL)
		nn_err(ctx, "pid %d: its status has no Cpus_allowed_list/Mems_allowed_list", s->pid);
	else if (err)
		nn_err(ctx, "pid %d: cannot read its status: %s", s->pid, strerror(-err));
	if (err)
		nn_proc_status_free(&s->st);
	return err;
}

static int read_maps(struct nn_ctx *ctx, struct nn_pm_snapshot *s)
{
	long page_kb = sysconf(_SC_PAGESIZE) / 1024;
	char *text = NULL;
	int err;

	err = nn_proc_read_numa_maps(&ctx->root, s->pid, &text);
	if (err == -ENOENT && nn_root_access(&ctx->root, "/proc/self/numa_maps", R_OK) &&
	    nn_root_is_live(&ctx->root)) {
		nn_err(ctx, "pid %d: no numa_maps: kernel built without CONFIG_NUMA", s->pid);
		return err;
	}
	if (err == -ENOENT || err == -ESRCH) {
		nn_err(ctx, "pid %d: exited while being checked (numa_maps gone)", s->pid);
		return err;
	}
	if (err) {
		nn_err(ctx, "pid %d: cannot read its numa_maps: %s%s", s->pid, strerror(-err),
		       err != -EACCES && err != -EPERM ? "" : geteuid() ?
		       " (another user's process: run as root)" :
		       " (ptrace read access refused: another PID namespace, Yama or an LSM)");
		return err;
	}
	err = nn_numa_maps_parse(text, page_kb > 0 ? (unsigned long)page_kb : 4, &s->maps);
	free(text);
	if (err) {
		nn_err(ctx, "pid %d: numa_maps: %s", s->pid,
		       err == -EINVAL ? "no line in the numa_maps format" : strerror(-err));
		return err;
	}
	if (s->maps.nbad)
		nn_warn(ctx, NULL, "pid %d: numa_maps: %zu line(s) not understood, left out of the totals",
			s->pid, s->maps.nbad);
	return 0;
}

int nn_pm_snapshot_read(struct nn_ctx *ctx, const struct nn_pm_cpu_nodes *cn,
			const struct nn_pm_thresholds *th, int pid, struct nn_pm_snapshot *s)
{
	int err;

	memset(s, 0, sizeof(*s));
	s->pid = pid;
	err = read_status(ctx, s);
	if (err)
		return err;
	/* A zombie's memory and threads are gone: its numa_maps is empty or
	 * missing, and "no resident memory" would hide that it exited. */
	if (nn_proc_status_exited(&s->st)) {
		s->exited = true;
		nn_pm_verdict_exited(&s->v);
		return 0;
	}
	err = read_maps(ctx, s);
	if (err)
		return err;
	err = read_threads(ctx, cn, s);
	if (err == -ENOENT || err == -ESRCH) {
		nn_err(ctx, "pid %d: exited while being checked", pid);
		return err;
	}
	if (err) {
		nn_err(ctx, "pid %d: cannot read /proc/%d/task: %s", pid, pid, strerror(-err));
		return err;
	}
	qsort(s->threads, s->nthreads, sizeof(*s->threads), cmp_thread);
	nn_pm_verdict_make(&s->maps, &s->thread_nodes, th, &s->v);
	return 0;
}
