// SPDX-License-Identifier: GPL-2.0-or-later
/* cmd_bench.c - "nicnuma bench mismatch": what NUMA misplacement costs here
 *
 * Drives nicnuma-fwd through the four placements of (forwarding lcores,
 * packet memory): local/local, local/remote, remote/local, remote/remote,
 * with the same traffic and duration, each row repeated, and prints medians
 * with min-max and each row's ratio to the matched row. Rows that this host
 * cannot make (one NUMA node) say so; nothing is estimated or faked. The
 * report carries its conditions: topology, distances, CPU model, VM flag,
 * kernel NUMA knobs, and each row's exact binding and command line.
 */
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "cli.h"
#include "nicnuma/topo.h"
#include "nicnuma/undo.h"

#define BENCH_PAGES 48		/* 2 MB pages per mbuf node: 2 pools of 8191 mbufs + EAL */
#define NPCT 5
#define MAX_ARGS 48

static const char *const pct_keys[NPCT] = { "p50", "p90", "p99", "p999", "max" };

enum {
	OPT_DURATION = 256, OPT_REPEAT, OPT_PCI, OPT_SIZE, OPT_RATE, OPT_IN_MEMORY, OPT_FWD, OPT_STATE_DIR,
};

static const struct option long_opts[] = {
	{ "duration", required_argument, NULL, OPT_DURATION },
	{ "repeat", required_argument, NULL, OPT_REPEAT },
	{ "pci", required_argument, NULL, OPT_PCI },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "rate", required_argument, NULL, OPT_RATE },
	{ "in-memory", no_argument, NULL, OPT_IN_MEMORY },
	{ "fwd", required_argument, NULL, OPT_FWD },
	{ "state-dir", required_argument, NULL, OPT_STATE_DIR },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct run_res {
	bool ok;			/* exited 0/1 with a parsable report */
	int status;
	double mpps;
	double lat[NPCT];		/* ns, < 0 when not measured */
	double stall[NPCT];
	bool verified;
	int fwd_cpu_seen;		/* the CPU the child says its forwarder ran on */
	unsigned long long drops, loss;
};

struct row {
	const char *lsel, *msel;
	int lcore_node, mbuf_node;	/* -1 when skipped before resolving */
	char skipped[128];		/* "" when the row runs */
	int gen_cpu, fwd_cpu;
	char lcores[64];
	char *argv[MAX_ARGS];
	int argc;
	struct run_res *runs;
	unsigned int nruns;
};

struct bench {
	double duration;
	unsigned int repeat, size;
	unsigned long long rate;
	bool in_memory;
	const char *fwd_opt;
	char fwd[PATH_MAX];
	char *pci[2];
	int npci;
	struct nn_topo topo;
	int port_node, ref_node;
	struct row rows[4];
	struct bench_hp hp[4];
	int nhp;
	const char *state_dir;		/* --state-dir, NULL: the default */
	struct nn_undo undo;		/* the pages added, when any were */
	bool undo_open;
	int lock;
	bool interrupted;
};

static void usage(FILE *fp)
{
	fprintf(fp,
"Usage: nicnuma [--json] bench mismatch [--duration S] [--repeat N] [--pci ADDR[,ADDR]]\n"
"                                [--size B] [--rate PPS] [--in-memory] [--fwd PATH]\n"
"                                [--state-dir DIR]\n"
"\n"
"Measure what NUMA misplacement costs on this host. The same forwarder\n"
"(nicnuma-fwd), the same traffic and duration run with its forwarding lcores and\n"
"its packet memory (mbuf pools, descriptor rings) on the port's node ('local') or\n"
"on the farthest node by the kernel's distance table ('remote'):\n"
"  lcores local  / mbufs local     the matched row every ratio is taken against\n"
"  lcores local  / mbufs remote    every packet touch crosses the interconnect\n"
"  lcores remote / mbufs local     the core is away from the NIC and its memory\n"
"  lcores remote / mbufs remote    all of it away from the NIC\n"
"Each row runs --repeat times and shows the median with min-max of Mpps and of\n"
"round-trip latency percentiles, beside the host's own scheduling-stall baseline\n"
"measured in the same run. Where the pool's pages really are is checked with\n"
"move_pages(2); a row is called mismatched only when they are on the other node.\n"
"On a one-NUMA-node host the remote rows say 'skipped: one NUMA node'.\n"
"\n"
"Ports: without --pci, two net_ring virtual ports in one process: a generator\n"
"lcore sends stamped frames through the forwarder and back (needs no NIC). With\n"
"--pci, the given DPDK-bound ports (vfio-pci) forward a seeded burst between them\n"
"(cable them back to back or feed them from a traffic generator); latency then\n"
"needs the in-process generator and is not shown.\n"
"\n"
"Options:\n"
"      --duration S     seconds per run (default 5)\n"
"      --repeat N       runs per row (default 3)\n"
"      --pci A[,B]      real ports instead of virtual ones\n"
"      --size B         frame bytes without FCS, 60..1514 (default 64)\n"
"      --rate PPS       generator rate, 0 = flat out (default 0). Flat out, the\n"
"                       latency is mostly queueing in full rings; give a rate\n"
"                       below the matched row's Mpps to compare latency at a load\n"
"      --in-memory      use the free hugepages as they are; without it, the 2 MB\n"
"                       pages each mbuf node lacks (%d) are added to nr_hugepages\n"
"                       for the benchmark and given back afterwards, through an\n"
"                       undo log like apply's: if the bench is killed, 'nicnuma\n"
"                       rollback' gives them back. EAL always runs --in-memory, so\n"
"                       no rtemap file outlives a run\n"
"      --fwd PATH       the nicnuma-fwd binary (default: next to nicnuma, or\n"
"                       ../dpdk-app/nicnuma-fwd in a build tree)\n"
"      --state-dir DIR  where the hugepage undo log and lock go (default\n"
"                       /var/lib/nicnuma)\n"
"  -h, --help           this help\n"
"\n"
"Trust: on a VM (hypervisor CPU flag) node distances are what the hypervisor\n"
"declares and guest nodes may share one host node, so the report says so.\n"
"Exit status: 0 clean, 1 finished with warnings (a run failed, placement not\n"
"verified), 2 error (bad option, the matched row could not run, interrupted).\n",
		BENCH_PAGES);
}

static int parse_ull(const char *opt, const char *s, unsigned long long min,
		     unsigned long long max, unsigned long long *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 10);
	if (errno || end == s || *end || s[0] == '-' || *out < min || *out > max) {
		fprintf(stderr, "nicnuma bench: --%s '%s': expected an integer in %llu..%llu\n", opt,
			s, min, max);
		return -EINVAL;
	}
	return 0;
}

static int parse_opts(struct bench *b, int argc, char **argv)
{
	unsigned long long v;
	char *end, *comma;
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", long_opts, NULL)) != -1) {
		switch (opt) {
		case OPT_DURATION:
			errno = 0;
			b->duration = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(b->duration > 0) || b->duration > 3600) {
				fprintf(stderr, "nicnuma bench: --duration '%s': expected seconds in (0, 3600]\n",
					optarg);
				return -EINVAL;
			}
			break;
		case OPT_REPEAT:
			if (parse_ull("repeat", optarg, 1, 100, &v) < 0)
				return -EINVAL;
			b->repeat = (unsigned int)v;
			break;
		case OPT_PCI:
			b->pci[0] = optarg;
			b->npci = 1;
			comma = strchr(optarg, ',');
			if (comma) {
				*comma = '\0';
				b->pci[1] = comma + 1;
				b->npci = 2;
				if (strchr(b->pci[1], ',') || !*b->pci[1]) {
					fprintf(stderr, "nicnuma bench: --pci takes one or two addresses\n");
					return -EINVAL;
				}
			}
			if (!*b->pci[0]) {
				fprintf(stderr, "nicnuma bench: --pci: empty address\n");
				return -EINVAL;
			}
			break;
		case OPT_SIZE:
			if (parse_ull("size", optarg, 60, 1514, &v) < 0)
				return -EINVAL;
			b->size = (unsigned int)v;
			break;
		case OPT_RATE:
			if (parse_ull("rate", optarg, 0, 1000000000000ULL, &b->rate) < 0)
				return -EINVAL;
			break;
		case OPT_IN_MEMORY:
			b->in_memory = true;
			break;
		case OPT_FWD:
			b->fwd_opt = optarg;
			break;
		case OPT_STATE_DIR:
			b->state_dir = optarg;
			break;
		case 'h':
			return 1;
		default:
			return -EINVAL;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "nicnuma bench mismatch: unexpected argument '%s'\n", argv[optind]);
		return -EINVAL;
	}
	return 0;
}

static int find_fwd(struct nn_ctx *ctx, struct bench *b)
{
	char self[PATH_MAX], *slash;
	static const char *const rel[] = { "/nicnuma-fwd", "/../dpdk-app/nicnuma-fwd" };
	size_t i;

	if (b->fwd_opt) {
		snprintf(b->fwd, sizeof(b->fwd), "%s", b->fwd_opt);
		if (access(b->fwd, X_OK) == 0)
			return 0;
		nn_err(ctx, "bench: --fwd %s: not an executable: %s", b->fwd, strerror(errno));
		return -ENOENT;
	}
	if (nn_root_readlink(&ctx->root, "/proc/self/exe", self, sizeof(self)) == 0 &&
	    (slash = strrchr(self, '/'))) {
		*slash = '\0';
		for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
			if (snprintf(b->fwd, sizeof(b->fwd), "%s%s", self, rel[i]) >= (int)sizeof(b->fwd))
				continue;
			if (access(b->fwd, X_OK) == 0)
				return 0;
		}
	}
	nn_err(ctx, "bench: cannot find nicnuma-fwd next to this nicnuma (built only when libdpdk-dev "
	       "is installed: apt-get install libdpdk-dev, then meson setup/ninja); or pass --fwd PATH");
	return -ENOENT;
}

static bool node_has_cpus(const struct nn_node *n)
{
	return !nn_cpuset_empty(&n->cpus);
}

static bool node_has_mem(const struct nn_node *n)
{
	return n->mem_total_kb != 0;	/* -1 unknown counts as maybe */
}

/* Farthest node from @from with CPUs (or memory); -1 when none. */
static int farthest(const struct nn_topo *t, int from, bool cpus)
{
	int best = -1, bestd = -2, d;
	size_t i;

	for (i = 0; i < t->nnodes; i++) {
		const struct nn_node *n = &t->nodes[i];

		if (n->id == from || !(cpus ? node_has_cpus(n) : node_has_mem(n)))
			continue;
		d = nn_topo_distance(t, from, n->id);
		if (d > bestd) {
			bestd = d;
			best = n->id;
		}
	}
	return best;
}

static int port_node(struct nn_ctx *ctx, struct bench *b)
{
	char path[256];
	long v;
	int i, node = -1;

	if (!b->npci)
		return -1;
	for (i = 0; i < b->npci; i++) {
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/numa_node", b->pci[i]);
		if (nn_read_long(&ctx->root, path, &v) < 0) {
			nn_err(ctx, "bench: --pci %s: no such PCI device (%s unreadable)", b->pci[i], path);
			return -ENODEV;
		}
		if (i == 0)
			node = v < 0 ? -1 : (int)v;
		else if ((v < 0 ? -1 : (int)v) != node)
			nn_warn(ctx, path, "%s is on node %ld but %s on node %d; 'local' follows %s",
				b->pci[i], v, b->pci[0], node, b->pci[0]);
	}
	return node;
}

static int first_cpu_node(const struct nn_topo *t)
{
	size_t i;

	for (i = 0; i < t->nnodes; i++)
		if (node_has_cpus(&t->nodes[i]))
			return t->nodes[i].id;
	return -1;
}

static int pick_cpu(const struct nn_topo *t, int node, int avoid, bool last)
{
	const struct nn_node *n = nn_topo_node(t, node);
	int c, pick = -1;

	if (!n)
		return -1;
	for (c = nn_cpuset_first(&n->cpus); c >= 0; c = nn_cpuset_next(&n->cpus, c)) {
		if (c == avoid || !nn_cpuset_test(&t->online, (unsigned int)c))
			continue;
		pick = c;
		if (!last)
			break;
	}
	return pick;
}

static int add_arg(struct row *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int add_arg(struct row *r, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	if (r->argc + 1 >= MAX_ARGS)
		return -E2BIG;
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	r->argv[r->argc++] = s;
	r->argv[r->argc] = NULL;
	return 0;
}

static int build_argv(struct bench *b, struct row *r)
{
	int ret = 0;

	ret |= add_arg(r, "%s", b->fwd);
	ret |= add_arg(r, "--in-memory");
	ret |= add_arg(r, "--no-telemetry");
	ret |= add_arg(r, "--log-level=lib.eal:error");
	ret |= add_arg(r, "--lcores");
	ret |= add_arg(r, "%s", r->lcores);
	if (b->npci) {
		ret |= add_arg(r, "-a");
		ret |= add_arg(r, "%s", b->pci[0]);
		if (b->npci > 1) {
			ret |= add_arg(r, "-a");
			ret |= add_arg(r, "%s", b->pci[1]);
		}
	} else {
		ret |= add_arg(r, "--no-pci");
		ret |= add_arg(r, "--vdev=net_ring0");
		ret |= add_arg(r, "--vdev=net_ring1");
	}
	ret |= add_arg(r, "--");
	ret |= add_arg(r, b->npci ? "--tx-first" : "--gen");
	ret |= add_arg(r, "--duration");
	ret |= add_arg(r, "%g", b->duration);
	ret |= add_arg(r, "--size");
	ret |= add_arg(r, "%u", b->size);
	if (!b->npci) {
		ret |= add_arg(r, "--rate");
		ret |= add_arg(r, "%llu", b->rate);
	}
	ret |= add_arg(r, "--mbuf-node");
	ret |= add_arg(r, "%d", r->mbuf_node);
	ret |= add_arg(r, "--lcore-node");
	ret |= add_arg(r, "%d", r->lcore_node);
	ret |= add_arg(r, "--json");
	ret |= add_arg(r, "--quiet");
	return ret ? -ENOMEM : 0;
}

/* Resolves one row's nodes and CPUs, or says why it cannot run here. */
static int plan_row(struct bench *b, struct row *r)
{
	const struct nn_topo *t = &b->topo;
	bool lremote = !strcmp(r->lsel, "remote"), mremote = !strcmp(r->msel, "remote");

	r->lcore_node = lremote ? farthest(t, b->ref_node, true) : b->ref_node;
	r->mbuf_node = mremote ? farthest(t, b->ref_node, false) : b->ref_node;
	r->gen_cpu = r->fwd_cpu = -1;
	if ((lremote || mremote) && t->nnodes == 1) {
		snprintf(r->skipped, sizeof(r->skipped), "skipped: one NUMA node");
		r->lcore_node = r->mbuf_node = -1;
		return 0;
	}
	if (r->lcore_node < 0 || r->mbuf_node < 0) {
		snprintf(r->skipped, sizeof(r->skipped), "skipped: no node other than %d has %s",
			 b->ref_node, r->lcore_node < 0 ? "CPUs" : "memory");
		return 0;
	}
	/* The forwarder moves between rows; the generator (the traffic) stays
	 * on the port's node so every row sees the same traffic source. */
	r->fwd_cpu = pick_cpu(t, r->lcore_node, -1, true);
	r->gen_cpu = pick_cpu(t, b->ref_node, r->fwd_cpu, false);
	if (r->fwd_cpu < 0 || r->gen_cpu < 0) {
		snprintf(r->skipped, sizeof(r->skipped),
			 "skipped: needs a CPU for the generator on node %d and one for the forwarder "
			 "on node %d", b->ref_node, r->lcore_node);
		return 0;
	}
	snprintf(r->lcores, sizeof(r->lcores), "0@%d,1@%d", r->gen_cpu, r->fwd_cpu);
	return build_argv(b, r);
}

static double jdouble(struct json_object *o, const char *key, bool *ok)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !v) {
		*ok = false;
		return -1;
	}
	return json_object_get_double(v);
}

static void parse_hist(struct json_object *doc, const char *key, double *out)
{
	struct json_object *h = NULL;
	bool ok = true;
	int i;

	for (i = 0; i < NPCT; i++)
		out[i] = -1;
	if (!json_object_object_get_ex(doc, key, &h) || !h)
		return;
	for (i = 0; i < NPCT; i++) {
		ok = true;
		out[i] = jdouble(h, pct_keys[i], &ok);
		if (!ok)
			out[i] = -1;
	}
}

static void parse_run(const char *out, struct run_res *res)
{
	struct json_object *doc = json_tokener_parse(out), *v;
	bool ok = true;

	if (!doc)
		return;
	res->mpps = jdouble(doc, "mpps", &ok);
	if (json_object_object_get_ex(doc, "placement_verified", &v))
		res->verified = json_object_get_boolean(v);
	res->drops = (unsigned long long)jdouble(doc, "drops", &ok);
	if (json_object_object_get_ex(doc, "loss", &v) && v)
		res->loss = (unsigned long long)json_object_get_int64(v);
	res->fwd_cpu_seen = -1;
	if (json_object_object_get_ex(doc, "config", &v) && v) {
		struct json_object *cpus;

		if (json_object_object_get_ex(v, "lcore_cpus", &cpus) && cpus &&
		    json_object_array_length(cpus) > 0)
			res->fwd_cpu_seen = json_object_get_int(json_object_array_get_idx(cpus, 0));
	}
	parse_hist(doc, "latency_ns", res->lat);
	parse_hist(doc, "stall_baseline_ns", res->stall);
	res->ok = ok;
	json_object_put(doc);
}

static void last_lines(const char *err, char *buf, size_t size)
{
	size_t n = strlen(err);
	const char *p;
	int lines = 0;

	while (n && (err[n - 1] == '\n' || err[n - 1] == ' '))
		n--;
	for (p = err + n; p > err; p--)
		if (p[-1] == '\n' && ++lines == 3)
			break;
	snprintf(buf, size, "%.*s", (int)(err + n - p), p);
}

static int run_row(struct nn_ctx *ctx, struct bench *b, struct row *r, const sigset_t *child_mask)
{
	unsigned int i;
	int ret;

	r->runs = calloc(b->repeat, sizeof(*r->runs));
	if (!r->runs)
		return -ENOMEM;
	for (i = 0; i < b->repeat && !b->interrupted; i++) {
		struct run_res *res = &r->runs[r->nruns++];
		char *out = NULL, *err = NULL, tail[512];

		if (!ctx->out.json)
			fprintf(stderr, "  run %u/%u: lcores %s (node %d, cpu %d), mbufs %s (node %d)\n",
				i + 1, b->repeat, r->lsel, r->lcore_node, r->fwd_cpu, r->msel, r->mbuf_node);
		ret = bench_exec(r->argv, child_mask, b->duration + 60, &out, &err, &res->status,
				 &b->interrupted);
		if (ret < 0) {
			nn_warn(ctx, r->argv[0], "cannot run: %s", strerror(-ret));
			continue;
		}
		if (res->status == 0 || res->status == 1)
			parse_run(out, res);
		if (!res->ok) {
			last_lines(err ? err : "", tail, sizeof(tail));
			nn_warn(ctx, r->argv[0], "lcores %s/mbufs %s run %u: exit %d: %s", r->lsel, r->msel,
				i + 1, res->status, tail);
		} else if (res->fwd_cpu_seen != r->fwd_cpu) {
			nn_warn(ctx, r->argv[0], "lcores %s/mbufs %s run %u: forwarder ran on CPU %d, not %d",
				r->lsel, r->msel, i + 1, res->fwd_cpu_seen, r->fwd_cpu);
		} else if (!res->verified) {
			nn_warn(ctx, r->argv[0], "lcores %s/mbufs %s run %u: pool pages not all on node %d",
				r->lsel, r->msel, i + 1, r->mbuf_node);
		}
		free(out);
		free(err);
	}
	return 0;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct stat3 {
	double med, min, max;
	int n;
};

/* Over the good runs; @pick selects the value, negative = not measured. */
static struct stat3 stat_of(const struct row *r, double (*pick)(const struct run_res *, int), int k)
{
	double v[128];
	struct stat3 s = { -1, -1, -1, 0 };
	unsigned int i;

	for (i = 0; i < r->nruns && s.n < 128; i++)
		if (r->runs[i].ok && pick(&r->runs[i], k) >= 0)
			v[s.n++] = pick(&r->runs[i], k);
	if (!s.n)
		return s;
	qsort(v, (size_t)s.n, sizeof(v[0]), cmp_d);
	s.min = v[0];
	s.max = v[s.n - 1];
	s.med = s.n % 2 ? v[s.n / 2] : (v[s.n / 2 - 1] + v[s.n / 2]) / 2;
	return s;
}

static double pick_mpps(const struct run_res *r, int k) { (void)k; return r->mpps; }
static double pick_lat(const struct run_res *r, int k) { return r->lat[k]; }
static double pick_stall(const struct run_res *r, int k) { return r->stall[k]; }

static void print_stat(struct nn_out *o, const char *key, struct stat3 s)
{
	nn_open_object(o, key);
	if (s.n) {
		nn_print_double(o, PRINT_JSON, "median", NULL, s.med);
		nn_print_double(o, PRINT_JSON, "min", NULL, s.min);
		nn_print_double(o, PRINT_JSON, "max", NULL, s.max);
	} else {
		nn_print_null(o, PRINT_JSON, "median", NULL);
		nn_print_null(o, PRINT_JSON, "min", NULL);
		nn_print_null(o, PRINT_JSON, "max", NULL);
	}
	nn_close_object(o);
}

static void print_host(struct nn_ctx *ctx, const struct bench *b)
{
	const struct nn_topo *t = &b->topo;
	struct nn_out *o = &ctx->out;
	size_t i, j;

	nn_open_object(o, "host");
	nn_print_string(o, PRINT_ANY, "cpu_model", "host: %s", t->knobs.cpu_model[0] ? t->knobs.cpu_model : NULL);
	nn_print_uint(o, PRINT_ANY, "nnodes", ", %llu NUMA node(s)", t->nnodes);
	nn_print_uint(o, PRINT_ANY, "ncpus", ", %llu CPUs", t->ncpus);
	if (t->knobs.hypervisor < 0)
		nn_print_null(o, PRINT_ANY, "hypervisor", ", VM: %s");
	else
		nn_print_bool(o, PRINT_ANY, "hypervisor", ", VM: %s", t->knobs.hypervisor == 1);
	nn_print_string(o, PRINT_ANY, "trust", "\n  %s\n",
			t->knobs.hypervisor == 1
			? "virtual machine (hypervisor CPU flag): node distances are what the hypervisor "
			  "declares and guest nodes may share host memory; timings and ratios here "
			  "cannot be trusted as the hardware's"
			: t->knobs.hypervisor == 0 ? "bare metal: distances and timings are the hardware's"
			: "unknown whether this is a VM (/proc/cpuinfo unreadable)");
	nn_open_array(o, "nodes");
	for (i = 0; i < t->nnodes; i++) {
		const struct nn_node *n = &t->nodes[i];

		nn_open_object(o, NULL);
		nn_print_int(o, PRINT_ANY, "id", "  node %lld:", n->id);
		nn_print_cpuset(o, PRINT_ANY, "cpus", " cpus %s", &n->cpus);
		nn_print_opt_int(o, PRINT_ANY, "mem_total_kb", ", %lld kB", n->mem_total_kb, "unknown");
		nn_printf(o, "\n");
		nn_close_object(o);
	}
	nn_close_array(o);
	nn_printf(o, "  distances:");
	nn_open_array(o, "distances");
	for (i = 0; i < t->nnodes; i++) {
		nn_printf(o, " [");
		nn_open_array(o, NULL);
		for (j = 0; j < t->nnodes; j++)
			nn_print_opt_int(o, PRINT_ANY, NULL, j ? " %lld" : "%lld",
					 nn_topo_distance(t, t->nodes[i].id, t->nodes[j].id), "?");
		nn_close_array(o);
		nn_printf(o, "]");
	}
	nn_close_array(o);
	nn_printf(o, "\n");
	nn_open_object(o, "knobs");
	nn_print_opt_int(o, PRINT_ANY, "numa_balancing", "  numa_balancing %lld",
			 t->knobs.numa_balancing, "unknown");
	nn_print_opt_int(o, PRINT_ANY, "zone_reclaim_mode", ", zone_reclaim_mode %lld",
			 t->knobs.zone_reclaim_mode, "unknown");
	nn_print_string(o, PRINT_ANY, "thp_enabled", ", THP %s",
			t->knobs.thp_enabled[0] ? t->knobs.thp_enabled : NULL);
	nn_print_string(o, PRINT_ANY, "thp_defrag", " (defrag %s)\n",
			t->knobs.thp_defrag[0] ? t->knobs.thp_defrag : NULL);
	nn_close_object(o);
	nn_close_object(o);
}

static void print_conditions(struct nn_ctx *ctx, const struct bench *b)
{
	struct nn_out *o = &ctx->out;
	int i;

	nn_open_object(o, "conditions");
	nn_print_double(o, PRINT_ANY, "duration_s", "runs: %g s", b->duration);
	nn_print_uint(o, PRINT_ANY, "repeat", " x %llu per row", b->repeat);
	nn_print_uint(o, PRINT_ANY, "frame_size", ", %llu B frames", b->size);
	nn_print_uint(o, PRINT_ANY, "rate_pps", ", rate %llu pps (0 = flat out)", b->rate);
	nn_print_string(o, PRINT_ANY, "ports", ", ports: %s",
			b->npci ? "pci" : "virtual net_ring0/net_ring1 (generator <-> forwarder, one process)");
	nn_open_array(o, "pci");
	for (i = 0; i < b->npci; i++)
		nn_print_string(o, PRINT_ANY, NULL, " %s", b->pci[i]);
	nn_close_array(o);
	nn_print_opt_int(o, PRINT_ANY, "port_node", "\nport node %lld", b->port_node, "unknown");
	nn_print_int(o, PRINT_ANY, "reference_node", ", 'local' = node %lld", b->ref_node);
	nn_printf(o, "%s\n", b->port_node < 0
		  ? (b->npci ? " (port locality unknown: using the first CPU node)"
			     : " (virtual ports live on the generator's node)") : "");
	nn_print_string(o, PRINT_JSON, "forwarder", NULL, b->fwd);
	nn_print_string(o, PRINT_JSON, "hugepages", NULL,
			b->in_memory ? "--in-memory: used the free 2 MB pages as found"
				     : "added missing 2 MB pages per mbuf node, given back afterwards");
	nn_open_array(o, "hugepages_added");
	for (i = 0; i < b->nhp; i++) {
		nn_open_object(o, NULL);
		nn_print_int(o, PRINT_JSON, "node", NULL, b->hp[i].node);
		nn_print_int(o, PRINT_JSON, "pages_2m", NULL, b->hp[i].added);
		nn_close_object(o);
	}
	nn_close_array(o);
	nn_close_object(o);
}

static void print_row(struct nn_ctx *ctx, const struct bench *b, const struct row *r,
		      const struct row *matched)
{
	struct nn_out *o = &ctx->out;
	struct stat3 mp = stat_of(r, pick_mpps, 0), mm = stat_of(matched, pick_mpps, 0);
	struct stat3 p99 = stat_of(r, pick_lat, 2), mp99 = stat_of(matched, pick_lat, 2);
	bool verified = r->nruns > 0;
	unsigned int i;
	int k;

	nn_open_object(o, NULL);
	nn_print_string(o, PRINT_ANY, "lcores", "%-7s", r->lsel);
	nn_print_string(o, PRINT_ANY, "mbufs", " %-7s", r->msel);
	if (r->skipped[0]) {
		nn_print_null(o, PRINT_JSON, "lcore_node", NULL);
		nn_print_null(o, PRINT_JSON, "mbuf_node", NULL);
		nn_print_string(o, PRINT_ANY, "skipped", " %s\n", r->skipped);
		nn_open_array(o, "runs");
		nn_close_array(o);
		nn_close_object(o);
		return;
	}
	nn_print_null(o, PRINT_JSON, "skipped", NULL);
	nn_print_int(o, PRINT_ANY, "lcore_node", " %4lld", r->lcore_node);
	nn_print_int(o, PRINT_ANY, "mbuf_node", "/%-3lld", r->mbuf_node);
	for (i = 0; i < r->nruns; i++)
		verified = verified && r->runs[i].ok && r->runs[i].verified;
	if (mp.n) {
		char range[64];

		snprintf(range, sizeof(range), "[%.3f-%.3f]", mp.min, mp.max);
		nn_printf(o, " %8.3f %-15s", mp.med, range);
	} else
		nn_printf(o, " %8s %-15s", "-", "(no good run)");
	if (mp.n && mm.n && mm.med > 0)
		nn_print_double(o, PRINT_ANY, "ratio_mpps", " %6.2f", mp.med / mm.med);
	else
		nn_print_null(o, PRINT_ANY, "ratio_mpps", " %6s");
	for (k = 0; k < NPCT; k++) {
		struct stat3 s = stat_of(r, pick_lat, k);

		if (k == 0 || k == 2 || k == 3) {
			if (s.n)
				nn_printf(o, " %9.1f", s.med / 1000.0);
			else
				nn_printf(o, " %9s", "-");
		}
	}
	if (p99.n && mp99.n && mp99.med > 0)
		nn_print_double(o, PRINT_ANY, "ratio_p99", " %6.2f", p99.med / mp99.med);
	else
		nn_print_null(o, PRINT_ANY, "ratio_p99", " %6s");
	{
		struct stat3 s = stat_of(r, pick_stall, 4);

		if (s.n)
			nn_printf(o, " %10.1f", s.med / 1000.0);
		else
			nn_printf(o, " %10s", "-");
	}
	nn_print_bool(o, PRINT_ANY, "placement_verified", "  %s", verified);
	nn_print_string(o, PRINT_ANY, "placement", " (%s)\n",
			!verified ? "unverified" : r->mbuf_node == r->lcore_node ? "matched" : "mismatched");
	print_stat(o, "mpps", mp);
	nn_open_object(o, "latency_ns");
	for (k = 0; k < NPCT; k++)
		print_stat(o, pct_keys[k], stat_of(r, pick_lat, k));
	nn_close_object(o);
	nn_open_object(o, "stall_baseline_ns");
	for (k = 0; k < NPCT; k++)
		print_stat(o, pct_keys[k], stat_of(r, pick_stall, k));
	nn_close_object(o);
	nn_open_object(o, "binding");
	nn_print_string(o, PRINT_JSON, "eal_lcores", NULL, r->lcores);
	nn_print_int(o, PRINT_JSON, "gen_cpu", NULL, r->gen_cpu);
	nn_print_int(o, PRINT_JSON, "fwd_cpu", NULL, r->fwd_cpu);
	nn_print_int(o, PRINT_JSON, "lcore_node", NULL, r->lcore_node);
	nn_print_int(o, PRINT_JSON, "mbuf_node", NULL, r->mbuf_node);
	nn_print_string(o, PRINT_JSON, "mbuf_policy", NULL,
			"rte_pktmbuf_pool_create and RX/TX rings on socket mbuf_node, 2 MB hugepages, "
			"EAL --in-memory; pages checked with move_pages(2)");
	nn_print_string(o, PRINT_JSON, "process_mempolicy", NULL,
			"default (unchanged): only DPDK's explicit socket placement applies");
	nn_open_array(o, "argv");
	for (k = 0; k < r->argc; k++)
		nn_print_string(o, PRINT_JSON, NULL, NULL, r->argv[k]);
	nn_close_array(o);
	nn_close_object(o);
	nn_open_array(o, "runs");
	for (i = 0; i < r->nruns; i++) {
		const struct run_res *x = &r->runs[i];

		nn_open_object(o, NULL);
		nn_print_int(o, PRINT_JSON, "exit", NULL, x->status);
		nn_print_bool(o, PRINT_JSON, "ok", NULL, x->ok);
		nn_print_double(o, PRINT_JSON, "mpps", NULL, x->mpps);
		nn_print_bool(o, PRINT_JSON, "placement_verified", NULL, x->verified);
		nn_print_opt_int(o, PRINT_JSON, "fwd_cpu", NULL, x->fwd_cpu_seen, NULL);
		nn_print_uint(o, PRINT_JSON, "drops", NULL, x->drops);
		nn_print_uint(o, PRINT_JSON, "loss", NULL, x->loss);
		nn_open_object(o, "latency_ns");
		for (k = 0; k < NPCT; k++)
			if (x->lat[k] >= 0)
				nn_print_double(o, PRINT_JSON, pct_keys[k], NULL, x->lat[k]);
			else
				nn_print_null(o, PRINT_JSON, pct_keys[k], NULL);
		nn_close_object(o);
		nn_print_double(o, PRINT_JSON, "stall_max_ns", NULL, x->stall[4]);
		nn_close_object(o);
	}
	nn_close_array(o);
	(void)b;
	nn_close_object(o);
}

static void free_bench(struct bench *b)
{
	int i, k;

	for (i = 0; i < 4; i++) {
		for (k = 0; k < b->rows[i].argc; k++)
			free(b->rows[i].argv[k]);
		free(b->rows[i].runs);
	}
	nn_topo_free(&b->topo);
}

/* Adds the 2 MB pages each mbuf node lacks, under the state lock and in an
 * undo log begun only when a node lacks some. Returns -errno when the lock
 * or the log cannot be had: then nothing was written. */
static int reserve(struct nn_ctx *ctx, struct bench *b)
{
	int i, j, err;

	if (b->in_memory)
		return 0;
	for (i = 0; i < 4; i++) {
		const struct row *r = &b->rows[i];
		long free_now;
		bool seen = false;

		if (r->skipped[0])
			continue;
		for (j = 0; j < b->nhp; j++)
			seen = seen || b->hp[j].node == r->mbuf_node;
		if (seen)
			continue;
		free_now = bench_hugepages_free(ctx, r->mbuf_node);
		if (free_now >= 0 && free_now < BENCH_PAGES && !b->undo_open) {
			b->lock = nn_state_lock(ctx);
			if (b->lock < 0)
				return b->lock;
			err = nn_undo_begin(ctx, &b->undo, "bench mismatch");
			if (err) {
				nn_err(ctx, "bench: cannot start the undo log in %s: %s", ctx->state_dir,
				       strerror(-err));
				return err;
			}
			b->undo_open = true;
		}
		bench_hugepages_ensure(ctx, b->undo_open ? &b->undo : NULL, r->mbuf_node,
				       BENCH_PAGES, &b->hp[b->nhp]);
		b->nhp++;
	}
	return 0;
}

/* Gives the added pages back by replaying the log, reported as rollback does. */
static void give_back(struct nn_ctx *ctx, struct bench *b)
{
	if (!b->undo_open)
		return;
	if (b->undo.nchanges) {
		nn_printf(&ctx->out, "\nhugepages added for the bench, given back:\n");
		nn_open_object(&ctx->out, "hugepages_given_back");
		if (nn_undo_rollback(ctx, &b->undo) == 0)
			nn_undo_mark_rolled_back(ctx, &b->undo);
		else
			nn_err(ctx, "bench: not every hugepage count could be put back: see above; "
			       "'nicnuma rollback --state-dir %s' retries", ctx->state_dir);
		nn_close_object(&ctx->out);
	}
	nn_undo_free(&b->undo);
	b->undo_open = false;
}

int nn_cmd_bench(struct nn_ctx *ctx, int argc, char **argv)
{
	static const char *const sel[4][2] = {
		{ "local", "local" }, { "local", "remote" }, { "remote", "local" }, { "remote", "remote" },
	};
	struct bench b = { .duration = 5, .repeat = 3, .size = 64, .port_node = -1, .lock = -1 };
	sigset_t old;
	int ret, i, status = NN_EXIT_OK;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? NN_EXIT_ERROR : NN_EXIT_OK;
	}
	if (strcmp(argv[1], "mismatch")) {
		nn_err(ctx, "bench: unknown benchmark '%s' (there is: mismatch)", argv[1]);
		return NN_EXIT_ERROR;
	}
	ret = parse_opts(&b, argc - 1, argv + 1);
	if (ret) {
		if (ret > 0)
			usage(stdout);
		return ret > 0 ? NN_EXIT_OK : NN_EXIT_ERROR;
	}
	if (nn_require_live(ctx, "bench mismatch (runs DPDK on this host)") < 0)
		return NN_EXIT_ERROR;
	if (find_fwd(ctx, &b) < 0)
		return NN_EXIT_ERROR;
	ret = nn_topo_discover(ctx, &b.topo);
	if (ret < 0) {
		nn_err(ctx, "bench: cannot read this host's topology: %s", strerror(-ret));
		return NN_EXIT_ERROR;
	}
	b.port_node = port_node(ctx, &b);
	if (b.port_node == -ENODEV) {
		free_bench(&b);
		return NN_EXIT_ERROR;
	}
	b.ref_node = b.port_node >= 0 ? b.port_node : first_cpu_node(&b.topo);
	for (i = 0; i < 4; i++) {
		b.rows[i].lsel = sel[i][0];
		b.rows[i].msel = sel[i][1];
		if (plan_row(&b, &b.rows[i]) < 0) {
			nn_err(ctx, "bench: out of memory");
			free_bench(&b);
			return NN_EXIT_ERROR;
		}
	}
	if (b.rows[0].skipped[0]) {
		nn_err(ctx, "bench: the matched row cannot run: %s", b.rows[0].skipped);
		free_bench(&b);
		return NN_EXIT_ERROR;
	}
	if (bench_signals_block(&old) < 0) {
		free_bench(&b);
		return NN_EXIT_ERROR;
	}
	if (b.state_dir)
		ctx->state_dir = b.state_dir;
	ret = reserve(ctx, &b);
	if (ret < 0) {
		give_back(ctx, &b);
		nn_state_unlock(b.lock);
		sigprocmask(SIG_SETMASK, &old, NULL);
		free_bench(&b);
		return NN_EXIT_ERROR;
	}
	for (i = 0; i < 4 && !b.interrupted; i++) {
		if (b.rows[i].skipped[0])
			continue;
		run_row(ctx, &b, &b.rows[i], &old);
		b.interrupted = b.interrupted || bench_interrupted();
	}

	nn_open_object(&ctx->out, NULL);
	print_host(ctx, &b);
	print_conditions(ctx, &b);
	nn_printf(&ctx->out, "\n%-7s %-7s %4s/%-3s %8s %-15s %6s %9s %9s %9s %6s %10s  %s\n", "lcores", "mbufs",
		  "L", "M", "Mpps", "[min-max]", "ratio", "p50 us", "p99 us", "p99.9 us", "p99 x",
		  "stall us", "placement");
	nn_open_array(&ctx->out, "rows");
	for (i = 0; i < 4; i++)
		print_row(ctx, &b, &b.rows[i], &b.rows[0]);
	nn_close_array(&ctx->out);
	nn_printf(&ctx->out, "(medians of %u run(s); ratio = row / matched row; stall = the host's "
		  "worst scheduling gap in the same run)\n", b.repeat);
	if (b.interrupted) {
		nn_err(ctx, "bench: interrupted; the rows above are what finished");
		status = NN_EXIT_ERROR;
	}
	{
		struct stat3 m = stat_of(&b.rows[0], pick_mpps, 0);

		if (!m.n) {
			nn_err(ctx, "bench: the matched row produced no good run (see the warnings)");
			status = NN_EXIT_ERROR;
		}
	}
	/* Signals stay blocked until the pages are back: a Ctrl-C here waits. */
	give_back(ctx, &b);
	nn_state_unlock(b.lock);
	sigprocmask(SIG_SETMASK, &old, NULL);
	nn_print_warnings(ctx);
	nn_close_object(&ctx->out);
	free_bench(&b);
	return status ? status : nn_cli_status(ctx, 0);
}
