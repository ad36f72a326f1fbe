// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_layout.c - "nicnuma layout": one service instance per NUMA node, as a
 * systemd template unit and a drop-in per instance.
 *
 * Discovery and the plan say which cores take queue IRQs and which are
 * housekeeping; nicnuma/plan/layout.c turns that into instances and
 * nicnuma/plan/layout_units.c into unit text. This file only parses options,
 * prints the layout and writes the files (atomically, never over a file that
 * nicnuma did not generate unless --force).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "plan_opts.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/core/fileio.h"
#include "nicnuma/plan/layout.h"
#include "nicnuma/core/unitfile.h"

enum {
	OPT_SERVICE = NN_OPT_OWN,
	OPT_EXEC,
	OPT_NODES,
	OPT_DPDK,
	OPT_NUMACTL,
	OPT_INCLUDE_IRQ,
	OPT_OUT,
	OPT_DRY_RUN,
	OPT_FORCE,
};

struct layout_args {
	struct nn_layout_opts lo;
	struct nn_plan_opts po;
	const char *planfile;
	const char *exec;
	const char *out;
	bool numactl, dry_run, force;
};

static const struct nn_opt opts[] = {
	{ "service", 0, NN_ARG_REQUIRED, "NAME", "unit name prefix: letters, digits, ':', '-', '_', '.'", OPT_SERVICE,
	  NN_STORE_STR(struct layout_args, lo.service) },
	{ "exec", 0, NN_ARG_REQUIRED, "'CMD ARGS...'", "the command, split like a shell would ('...', \"...\", backslash) but "
	  "never run by one: unquoted | ; & < > $ ` * ? are refused; every word "
	  "is escaped for systemd (% and $ stay literal)", OPT_EXEC,
	  NN_STORE_STR(struct layout_args, exec) },
	{ "nodes", 0, NN_ARG_REQUIRED, "WHICH", "with-nics (default): nodes holding a NIC (on a one-node host a NIC of "
	  "unknown locality counts as on it); all: every node with CPUs; LIST: "
	  "these node ids (0,2-3)", OPT_NODES },
	{ "dpdk", 0, NN_ARG_NONE, NULL, "add the EAL arguments", OPT_DPDK,
	  NN_STORE_BOOL(struct layout_args, lo.dpdk) },
	{ "numactl", 0, NN_ARG_NONE, NULL, "bind through numactl in ExecStart= (older systemd)", OPT_NUMACTL,
	  NN_STORE_BOOL(struct layout_args, numactl) },
	{ "include-irq-cores", 0, NN_ARG_NONE, NULL, "let instances use the queue-IRQ cores too", OPT_INCLUDE_IRQ,
	  NN_STORE_BOOL(struct layout_args, lo.include_irq_cores) },
	{ "out", 0, NN_ARG_REQUIRED, "DIR", "write the units into DIR (e.g. /etc/systemd/system)", OPT_OUT,
	  NN_STORE_STR(struct layout_args, out) },
	{ "dry-run", 0, NN_ARG_NONE, NULL, "print the files instead of writing them", OPT_DRY_RUN,
	  NN_STORE_BOOL(struct layout_args, dry_run) },
	{ "force", 0, NN_ARG_NONE, NULL, "overwrite files in DIR that nicnuma did not generate", OPT_FORCE,
	  NN_STORE_BOOL(struct layout_args, force) },
	{ "plan", 0, NN_ARG_REQUIRED, "FILE", "take the plan from FILE (nicnuma plan --json) instead of planning now",
	  NN_OPT_PLAN },
	{ 0 },
};

const struct nn_cmd_desc nn_desc_layout = {
	.name = "layout",
	.stray = "the command goes in --exec '...'",
	.usage = "nicnuma layout --service NAME --exec 'CMD ARGS...' [--nodes with-nics|all|LIST]\n"
		 "                      [--dpdk] [--numactl] [--include-irq-cores]\n"
		 "                      (--out DIR | --dry-run) [--force] [planning options]",
	.intro =
"Lay a service out as one instance per NUMA node, each pinned to its node's\n"
"cores and memory, next to its node's NICs and hugepages. Writes a systemd\n"
"template unit NAME@.service and, per instance, a drop-in\n"
"NAME@<node>.service.d/nicnuma.conf with:\n"
"  CPUAffinity=   the node's CPUs minus the housekeeping CPUs and, unless\n"
"                 --include-irq-cores, minus the cores the plan gives the\n"
"                 NICs' queue IRQs (packets are handled there already)\n"
"  NUMAPolicy=bind and NUMAMask=<node> (systemd 243 or newer), or with\n"
"                 --numactl an ExecStart= through numactl --physcpubind\n"
"                 --membind (numactl's --cpunodebind would widen the CPUs\n"
"                 back to the whole node)\n"
"  Environment=   NICNUMA_NODE, NICNUMA_CPUS, NICNUMA_NICS and, with --dpdk,\n"
"                 NICNUMA_EAL_ARGS: -l CPUS --file-prefix NAME-<node>\n"
"                 --socket-mem (the node's hugepages) -a PCI... (the node's NICs;\n"
"                 --no-pci when it has none, so it never probes another\n"
"                 node's). With --dpdk the template passes $NICNUMA_EAL_ARGS\n"
"                 right after the program, before ARGS (put '--' in ARGS for\n"
"                 the application's own options).\n"
"\n"
"Nothing is started or reloaded: run 'systemctl daemon-reload' and enable the\n"
"instances yourself (the template's header lists them).\n",
	.opts = opts,
	.groups = NN_GROUP_PLAN | NN_GROUP_PLAN_IRQB,
	.group_title = "Planning options (as for 'nicnuma plan'; they decide the IRQ cores):\n",
	.outro =
"Exit status: 0 written (or shown), 1 done with warnings, 2 error.\n"
"\n"
"Example: nicnuma layout --service fwd --exec '/usr/bin/dpdk-testpmd -- -i' --dpdk \\\n"
"           --hugepages 2M:1024 --out /etc/systemd/system\n",
};

static int parse_nodes(struct nn_ctx *ctx, const char *arg, struct nn_layout_opts *lo)
{
	if (!strcmp(arg, "with-nics")) {
		lo->nodes_mode = NN_LAYOUT_WITH_NICS;
		return 0;
	}
	if (!strcmp(arg, "all")) {
		lo->nodes_mode = NN_LAYOUT_ALL;
		return 0;
	}
	lo->nodes_mode = NN_LAYOUT_LIST;
	if (nn_cpuset_parse_list(arg, &lo->nodes) || nn_cpuset_empty(&lo->nodes)) {
		nn_err(ctx, "--nodes: '%s' is not with-nics, all or a node list (0,2-3)", arg);
		return -EINVAL;
	}
	return 0;
}

static int parse_args(struct nn_ctx *ctx, int argc, char **argv, struct layout_args *a)
{
	struct nn_optstate st = NN_OPTSTATE(argc, argv);
	int c;

	st.plan = &a->po;
	st.dest = a;
	while ((c = nn_opt_next(ctx, &nn_desc_layout, &st)) > 0)
		if (c == OPT_NODES && parse_nodes(ctx, st.arg, &a->lo))
			return -EINVAL;
	if (c < 0)
		return c == NN_OPT_HELP ? 1 : -EINVAL;
	if (!a->lo.service || !a->exec) {
		nn_err(ctx, "layout: --service NAME and --exec 'CMD ARGS...' are required");
		return -EINVAL;
	}
	if (!a->out && !a->dry_run) {
		nn_err(ctx, "layout: give --out DIR (e.g. /etc/systemd/system) or --dry-run");
		return -EINVAL;
	}
	return 0;
}

/* numactl as systemd will find it: the first of PATH's directories holding it. */
static char *find_numactl(struct nn_ctx *ctx)
{
	static const char *const dirs[] = { "/usr/bin", "/usr/local/bin", "/bin", "/usr/sbin" };
	char path[64];
	size_t i;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/numactl", dirs[i]);
		if (!access(path, X_OK))
			return strdup(path);
	}
	nn_warn(ctx, "numactl", "not installed here; the units name /usr/bin/numactl "
		"(install the numactl package where they run)");
	return strdup("/usr/bin/numactl");
}

static const char *irq_text(char *buf, size_t size, const char *irq, bool shared)
{
	snprintf(buf, size, "%s %s", irq, shared ? "shared" : "left out");
	return buf;
}

static void print_layout(struct nn_ctx *ctx, const struct nn_layout *l, bool numactl)
{
	struct nn_out *o = &ctx->out;
	size_t i, k;

	nn_open_object(o, "layout");
	nn_print_string(o, PRINT_ANY, "service", "layout: service %s", l->service);
	nn_print_uint(o, PRINT_ANY, "ninstances", ", %llu instance(s)", l->ninst);
	nn_print_string(o, PRINT_ANY, "numa_binding", ", memory bound by %s",
			numactl ? "numactl" : "systemd");
	nn_print_cpuset(o, PRINT_ANY, "housekeeping", ", housekeeping CPUs %s\n", &l->housekeeping);
	nn_print_bool(o, PRINT_JSON, "dpdk", NULL, l->dpdk);
	nn_printf(o, "  %-20s %-5s %-14s %-16s %-24s %s\n", "UNIT", "NODE", "CPUS",
		  "QUEUE-IRQ CORES", "NICS", "HUGEPAGES");
	nn_open_array(o, "instances");
	for (i = 0; i < l->ninst; i++) {
		const struct nn_layout_instance *in = &l->inst[i];
		char *irq = nn_cpuset_format_list(&in->irq_cores);
		char irqtxt[96];
		struct nn_sb nics = NN_SB_INIT, hp = NN_SB_INIT;

		nn_open_object(o, NULL);
		nn_print_string(o, PRINT_ANY, "unit", "  %-20s", in->unit);
		nn_print_int(o, PRINT_ANY, "node", " %-5lld", in->node);
		nn_print_cpuset(o, PRINT_ANY, "cpus", " %-14s", &in->cpus);
		nn_print_cpuset(o, PRINT_JSON, "node_cpus", NULL, &in->node_cpus);
		nn_print_cpuset(o, PRINT_JSON, "housekeeping", NULL, &in->housekeeping);
		nn_print_cpuset(o, PRINT_JSON, "irq_cores", NULL, &in->irq_cores);
		nn_print_bool(o, PRINT_JSON, "irq_cores_included", NULL, in->irq_cores_included);
		if (irq && *irq)
			nn_printf(o, " %-16s", irq_text(irqtxt, sizeof(irqtxt), irq,
							 in->irq_cores_included));
		else
			nn_printf(o, " %-16s", "-");
		free(irq);
		nn_open_array(o, "nics");
		for (k = 0; k < in->nnics; k++) {
			const struct nn_layout_nic *ln = &in->nics[k];

			nn_open_object(o, NULL);
			nn_print_string(o, PRINT_JSON, "name", NULL, ln->name);
			nn_print_string(o, PRINT_JSON, "pci", NULL, ln->pci);
			nn_print_opt_int(o, PRINT_JSON, "rx_queues", NULL, ln->rx_queues, NULL);
			nn_print_opt_int(o, PRINT_JSON, "tx_queues", NULL, ln->tx_queues, NULL);
			nn_print_uint(o, PRINT_JSON, "queue_irqs", NULL, ln->queue_irqs);
			nn_print_cpuset(o, PRINT_JSON, "irq_cpus", NULL, &ln->irq_cpus);
			nn_print_opt_int(o, PRINT_JSON, "numa_node", NULL, ln->node, NULL);
			nn_print_bool(o, PRINT_JSON, "locality_assumed", NULL, ln->locality_assumed);
			nn_close_object(o);
			nn_sb_printf(&nics, "%s%s", k ? "," : "", ln->name);
		}
		nn_close_array(o);
		nn_printf(o, " %-24s", in->nnics && nn_sb_str(&nics) ? nn_sb_str(&nics) : "-");
		nn_open_array(o, "hugepages");
		for (k = 0; k < in->nhugepages; k++) {
			nn_open_object(o, NULL);
			nn_print_uint(o, PRINT_JSON, "size_kb", NULL, in->hugepages[k].size_kb);
			nn_print_int(o, PRINT_JSON, "pages", NULL, in->hugepages[k].pages);
			nn_close_object(o);
			nn_sb_printf(&hp, "%s%ldx%lukB", k ? "," : "", in->hugepages[k].pages,
				     in->hugepages[k].size_kb);
		}
		nn_close_array(o);
		nn_print_uint(o, PRINT_JSON, "hugepage_bytes", NULL, in->hugepage_bytes);
		nn_printf(o, " %s\n", in->nhugepages && nn_sb_str(&hp) ? nn_sb_str(&hp) : "-");
		nn_sb_free(&nics);
		nn_sb_free(&hp);
		if (l->dpdk) {
			char *eal = nn_layout_eal_string(in);

			nn_printf(o, "  %-20s ", "");
			nn_print_string(o, PRINT_ANY, "eal_args", "EAL: %s\n", eal);
			free(eal);
		} else {
			nn_print_null(o, PRINT_JSON, "eal_args", NULL);
		}
		nn_close_object(o);
	}
	nn_close_array(o);
	nn_open_array(o, "unplaced_nics");
	for (i = 0; i < l->nunplaced; i++) {
		nn_print_string(o, PRINT_JSON, NULL, NULL, l->unplaced[i]);
		nn_printf(o, "%s  %s\n", i ? "" : "NICs without an instance:\n", l->unplaced[i]);
	}
	nn_close_array(o);
	nn_close_object(o);
}

/* The directory --out names, created when missing. The path itself is the
 * user's (a symlink in it is their choice); new components are made without
 * following any. Returns an O_DIRECTORY fd or a negative errno. */
static int open_out(const char *out)
{
	int fd = open(out, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	int base, err;

	if (fd >= 0 || errno != ENOENT)
		return fd >= 0 ? fd : -errno;
	/* nn_mkdirat_p() walks relative to its fd: "/" for an absolute path. */
	base = out[0] == '/' ? open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : AT_FDCWD;
	if (base == -1)
		return -errno;
	err = nn_mkdirat_p(base, out, 0755);
	if (base != AT_FDCWD)
		close(base);
	return err;
}

/* File @f's directory below --out and its last component: "NAME@N.service.d"
 * and "nicnuma.conf", or "" and "NAME@.service". */
static int split(const char *path, char *dir, size_t size, const char **base)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : 0;

	if (n >= size)
		return -ENAMETOOLONG;
	memcpy(dir, path, n);
	dir[n] = '\0';
	*base = slash ? slash + 1 : path;
	return 0;
}

/* The unit a file belongs to: "NAME@.service", "NAME@N.service" for its
 * drop-in directory "NAME@N.service.d". */
static void unit_of(const char *path, char *unit, size_t size)
{
	size_t n = strcspn(path, "/");

	if (n >= size)
		n = size - 1;
	memcpy(unit, path, n);
	unit[n] = '\0';
	if (path[n] == '/' && n > 2 && !strcmp(unit + n - 2, ".d"))
		unit[n - 2] = '\0';
}

/* May @f be written below @outfd? Its drop-in directory, when it exists, must
 * be a real directory (a symlink would carry the write out of --out), and an
 * existing file must be a regular file whose first line is the header layout
 * writes for its unit, unless --force. Returns 0 or a negative errno, with
 * the message printed. */
static int check_target(struct nn_ctx *ctx, int outfd, const char *out,
			const struct nn_unit_file *f, bool force)
{
	char dir[NN_UNIT_NAME_MAX + 8], unit[NN_UNIT_NAME_MAX + 8], buf[512];
	const char *base;
	struct stat st;
	ssize_t n;
	int dfd = -1, fd, err = split(f->path, dir, sizeof(dir), &base);

	if (err) {
		nn_err(ctx, "%s/%s: %s", out, f->path, strerror(-err));
		return err;
	}
	if (*dir) {
		dfd = openat(outfd, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (dfd < 0 && errno == ENOENT)
			return 0;
		if (dfd < 0) {
			err = -errno;
			nn_err(ctx, "%s/%s: %s", out, dir, errno == ELOOP || errno == ENOTDIR ?
			       "not a directory (a symlink?): refusing to write through it" : strerror(errno));
			return err;
		}
	}
	fd = openat(dfd >= 0 ? dfd : outfd, base, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (dfd >= 0)
		close(dfd);
	if (fd < 0 && errno == ENOENT)
		return 0;
	if (fd < 0) {
		err = -errno;
		nn_err(ctx, "%s/%s: %s", out, f->path, errno == ELOOP ?
		       "a symlink: refusing to replace it" : strerror(errno));
		return err;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		nn_err(ctx, "%s/%s: not a regular file: refusing to replace it", out, f->path);
		return -EEXIST;
	}
	n = read(fd, buf, sizeof(buf));
	close(fd);
	unit_of(f->path, unit, sizeof(unit));
	if (force || (n > 0 && nn_unit_header_is_ours(buf, (size_t)n, unit)))
		return 0;
	nn_err(ctx, "%s/%s exists and was not generated by nicnuma layout: refusing to "
	       "overwrite it (--force to replace it)", out, f->path);
	return -EEXIST;
}

/* @f below @outfd: its directory made or opened without following a symlink,
 * then the file replaced atomically (nn_write_atomic_at). */
static int write_unit(int outfd, const struct nn_unit_file *f)
{
	char dir[NN_UNIT_NAME_MAX + 8];
	const char *base;
	int dfd, err = split(f->path, dir, sizeof(dir), &base);

	if (err)
		return err;
	dfd = *dir ? nn_mkdirat_p(outfd, dir, 0755) : dup(outfd);
	if (dfd < 0)
		return dfd == -1 ? -errno : dfd;
	err = nn_write_atomic_at(dfd, base, f->content, strlen(f->content), 0644);
	close(dfd);
	return err;
}

/* Drop-ins of nodes that are not in this layout any more would be picked up by
 * an old instance: name them. */
static void warn_stale(struct nn_ctx *ctx, const char *dir, const struct nn_layout *l)
{
	size_t plen = strlen(l->service), i;
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return;
	while ((de = readdir(d))) {
		const char *name = de->d_name;
		size_t len = strlen(name);
		bool ours = false;

		if (strncmp(name, l->service, plen) || name[plen] != '@' || len < 10 ||
		    strcmp(name + len - 10, ".service.d") || name[plen + 1] == '.')
			continue;
		for (i = 0; i < l->ninst; i++)
			if (!strncmp(name, l->inst[i].unit, len - 2) && strlen(l->inst[i].unit) == len - 2)
				ours = true;
		if (!ours)
			nn_warn(ctx, name, "drop-in of an instance not in this layout (in %s): "
				"remove it or disable that instance", dir);
	}
	closedir(d);
}

static int emit_files(struct nn_ctx *ctx, const struct layout_args *a, const struct nn_layout *l,
		      struct nn_unit_file *files, size_t nfiles)
{
	struct nn_out *o = &ctx->out;
	const char *dir = a->out ? a->out : "";
	int outfd = -1, err = 0;
	size_t i;

	if (a->out && !a->dry_run) {
		outfd = open_out(a->out);
		if (outfd < 0) {
			nn_err(ctx, "--out %s: %s", a->out, outfd == -EINVAL ?
			       "cannot create it ('..' in a new directory)" : strerror(-outfd));
			return outfd;
		}
		/* Check every target first: all files or none. */
		for (i = 0; i < nfiles && !err; i++)
			err = check_target(ctx, outfd, a->out, &files[i], a->force);
		if (err)
			goto out;
	}
	nn_open_array(o, "files");
	for (i = 0; i < nfiles; i++) {
		char *path;

		if (asprintf(&path, "%s%s%s", dir, *dir ? "/" : "", files[i].path) < 0) {
			err = -ENOMEM;
			break;
		}
		nn_open_object(o, NULL);
		nn_print_string(o, PRINT_JSON, "path", NULL, path);
		if (a->dry_run) {
			nn_print_string(o, PRINT_JSON, "content", NULL, files[i].content);
			nn_printf(o, "\n--- %s ---\n%s", path, files[i].content);
		} else {
			err = write_unit(outfd, &files[i]);
			if (err)
				nn_err(ctx, "cannot write %s: %s", path, err == -ELOOP || err == -ENOTDIR ?
				       "a symlink or file is in the way of its directory" : strerror(-err));
			else
				nn_printf(o, "%s %s\n", i ? "wrote" : "\nwrote", path);
			nn_print_bool(o, PRINT_JSON, "written", NULL, !err);
		}
		nn_close_object(o);
		free(path);
		if (err)
			break;
	}
	nn_close_array(o);
	if (!err && a->out)
		warn_stale(ctx, a->out, l);
	if (!err && !a->dry_run && !o->json)
		nn_printf(o, "next: systemctl daemon-reload && systemctl enable --now %s@<node>.service\n",
			  l->service);
out:
	if (outfd >= 0)
		close(outfd);
	return err;
}

int nn_cmd_layout(struct nn_ctx *ctx, int argc, char **argv)
{
	struct layout_args a;
	struct nn_layout_render_opts ro = { 0 };
	struct nn_unit_file *files = NULL;
	struct nn_layout l = { 0 };
	struct nn_plan plan;
	struct nn_host host;
	char why[320] = "", **exec = NULL;
	bool have_host = false, have_plan = false;
	size_t nexec = 0, nfiles = 0, i;
	int err, status = NN_EXIT_ERROR;

	memset(&a, 0, sizeof(a));
	err = parse_args(ctx, argc, argv, &a);
	if (err) {
		status = err > 0 ? NN_EXIT_OK : NN_EXIT_ERROR;
		goto out;
	}
	if (nn_exec_split(a.exec, &exec, &nexec, why, sizeof(why)) ||
	    nn_exec_check_path(exec[0], why, sizeof(why))) {
		nn_err(ctx, "--exec: %s", why);
		goto out;
	}
	/* The instance ids are node ids: check the name for the largest one later. */
	if (nn_unit_prefix_check(a.lo.service, 0, why, sizeof(why))) {
		nn_err(ctx, "--service: %s", why);
		goto out;
	}

	err = nn_host_discover(ctx, &host);
	if (err) {
		nn_print_warnings(ctx);
		nn_err(ctx, "layout: cannot discover the host under %s: %s", ctx->root.path,
		       strerror(-err));
		goto out;
	}
	have_host = true;
	if (host.topo.nnodes &&
	    nn_unit_prefix_check(a.lo.service, host.topo.nodes[host.topo.nnodes - 1].id, why,
				 sizeof(why))) {
		nn_err(ctx, "--service: %s", why);
		goto out;
	}
	if (nn_cli_get_plan(ctx, &host, a.planfile, &a.po, &plan))
		goto out;
	have_plan = true;
	for (i = 0; i < plan.nwarnings; i++)
		nn_warn(ctx, NULL, "plan: %s", plan.warnings[i]);
	if (nn_cpuset_copy(&a.lo.housekeeping, &plan.housekeeping)) {
		nn_err(ctx, "layout: out of memory");
		goto out;
	}
	err = nn_layout_make(&host, &plan, &a.lo, &l, why, sizeof(why));
	if (err) {
		nn_err(ctx, "layout: %s", why);
		goto out;
	}
	for (i = 0; i < l.nwarnings; i++)
		nn_warn(ctx, NULL, "%s", l.warnings[i]);

	ro.exec = exec;
	ro.nexec = nexec;
	ro.numactl = a.numactl;
	if (a.numactl) {
		ro.numactl_path = find_numactl(ctx);
		if (!ro.numactl_path) {
			nn_err(ctx, "layout: out of memory");
			goto out;
		}
	}
	err = nn_layout_render(&l, &ro, &files, &nfiles);
	if (err) {
		nn_err(ctx, "layout: cannot render the units: %s", strerror(-err));
		goto out;
	}
	nn_open_object(&ctx->out, NULL);
	print_layout(ctx, &l, a.numactl);
	err = emit_files(ctx, &a, &l, files, nfiles);
	nn_print_warnings(ctx);
	nn_close_object(&ctx->out);
	status = nn_cli_status(ctx, err);
out:
	nn_unit_files_free(files, nfiles);
	free((char *)ro.numactl_path);
	nn_layout_free(&l);
	if (have_plan)
		nn_plan_free(&plan);
	if (have_host)
		nn_host_free(&host);
	nn_exec_free(exec);
	nn_layout_opts_free(&a.lo);
	nn_plan_opts_free(&a.po);
	return status;
}
