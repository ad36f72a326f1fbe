// SPDX-License-Identifier: GPL-2.0-or-later
/* bench_print.c - the "bench mismatch" report: host, conditions and every row, table and JSON */
#include <stdio.h>

#include "nicnuma/core/print.h"
#include "nicnuma/discover/topo.h"
#include "nicnuma/plan/bench.h"

static void print_stat(struct nn_out *o, const char *key, struct nn_bench_stat s)
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

static void print_host(struct nn_out *o, const struct nn_bench_result *b)
{
	const struct nn_topo *t = b->topo;
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

static void print_conditions(struct nn_out *o, const struct nn_bench_result *b)
{
	int i;

	nn_open_object(o, "conditions");
	nn_print_double(o, PRINT_ANY, "duration_s", "runs: %g s", b->cfg.duration);
	nn_print_uint(o, PRINT_ANY, "repeat", " x %llu per row", b->cfg.repeat);
	nn_print_uint(o, PRINT_ANY, "frame_size", ", %llu", b->sizes[0]);
	nn_open_array(o, "frame_sizes");
	for (i = 1; i < b->nsizes; i++)
		nn_printf(o, ",%u", b->sizes[i]);
	for (i = 0; i < b->nsizes; i++)
		nn_print_uint(o, PRINT_JSON, NULL, NULL, b->sizes[i]);
	nn_close_array(o);
	nn_printf(o, " B frames");
	nn_print_uint(o, PRINT_ANY, "rate_pps", ", rate %llu pps (0 = flat out)", b->cfg.rate);
	nn_print_string(o, PRINT_ANY, "ports", ", ports: %s",
			b->cfg.npci ? "pci" : "virtual net_ring0/net_ring1 (generator <-> forwarder, one process)");
	nn_open_array(o, "pci");
	for (i = 0; i < b->cfg.npci; i++)
		nn_print_string(o, PRINT_ANY, NULL, " %s", b->cfg.pci[i]);
	nn_close_array(o);
	nn_print_opt_int(o, PRINT_ANY, "port_node", "\nport node %lld", b->port_node, "unknown");
	nn_print_int(o, PRINT_ANY, "reference_node", ", 'local' = node %lld", b->ref_node);
	nn_printf(o, "%s\n", b->port_node < 0
		  ? (b->cfg.npci ? " (port locality unknown: using the first CPU node)"
			     : " (virtual ports live on the generator's node)") : "");
	nn_print_string(o, PRINT_JSON, "forwarder", NULL, b->cfg.fwd);
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

static void print_row(struct nn_out *o, const struct nn_bench_row *r, const struct nn_bench_row *matched)
{
	struct nn_bench_stat mp = nn_bench_stat(r, NN_BENCH_MPPS, 0);
	struct nn_bench_stat mm = nn_bench_stat(matched, NN_BENCH_MPPS, 0);
	struct nn_bench_stat p99 = nn_bench_stat(r, NN_BENCH_LAT, 2);
	struct nn_bench_stat mp99 = nn_bench_stat(matched, NN_BENCH_LAT, 2);
	bool verified = r->nruns > 0;
	unsigned int i;
	int k;

	nn_open_object(o, NULL);
	nn_print_uint(o, PRINT_ANY, "frame_size", "%5llu ", r->size);
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
	nn_print_int(o, PRINT_JSON, "good_runs", NULL, mp.n);
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
	if (nn_bench_ratio(mp, mm) >= 0)
		nn_print_double(o, PRINT_ANY, "ratio_mpps", " %6.2f", nn_bench_ratio(mp, mm));
	else
		nn_print_null(o, PRINT_ANY, "ratio_mpps", " %6s");
	for (k = 0; k < NN_BENCH_NPCT; k++) {
		struct nn_bench_stat s = nn_bench_stat(r, NN_BENCH_LAT, k);

		if (k == 0 || k == 2 || k == 3) {
			if (s.n)
				nn_printf(o, " %9.1f", s.med / 1000.0);
			else
				nn_printf(o, " %9s", "-");
		}
	}
	if (nn_bench_ratio(p99, mp99) >= 0)
		nn_print_double(o, PRINT_ANY, "ratio_p99", " %6.2f", nn_bench_ratio(p99, mp99));
	else
		nn_print_null(o, PRINT_ANY, "ratio_p99", " %6s");
	{
		struct nn_bench_stat s = nn_bench_stat(r, NN_BENCH_STALL, 4);

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
	for (k = 0; k < NN_BENCH_NPCT; k++)
		print_stat(o, nn_bench_pct_key(k), nn_bench_stat(r, NN_BENCH_LAT, k));
	/* Beside the percentiles, what they sample: one TX burst in stamp_every. */
	{
		struct nn_bench_stat se = nn_bench_stat(r, NN_BENCH_STAMP_EVERY, 0);

		if (se.n)
			nn_print_double(o, PRINT_JSON, "stamp_every", NULL, se.med);
		else
			nn_print_null(o, PRINT_JSON, "stamp_every", NULL);
		print_stat(o, "samples", nn_bench_stat(r, NN_BENCH_LAT_SAMPLES, 0));
	}
	nn_close_object(o);
	/* The latency CDF point by point, medians over the runs: the report's chart. */
	nn_open_array(o, "latency_cdf_ns");
	for (k = 0; k < NN_BENCH_NCDF; k++) {
		struct nn_bench_stat s = nn_bench_stat(r, NN_BENCH_CDF, k);

		if (!s.n)
			continue;
		nn_open_object(o, NULL);
		nn_print_double(o, PRINT_JSON, "p", NULL, nn_bench_cdf_p(k));
		nn_print_double(o, PRINT_JSON, "median", NULL, s.med);
		nn_print_double(o, PRINT_JSON, "min", NULL, s.min);
		nn_print_double(o, PRINT_JSON, "max", NULL, s.max);
		nn_close_object(o);
	}
	nn_close_array(o);
	nn_open_object(o, "stall_baseline_ns");
	for (k = 0; k < NN_BENCH_NPCT; k++)
		print_stat(o, nn_bench_pct_key(k), nn_bench_stat(r, NN_BENCH_STALL, k));
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
		const struct nn_bench_run *x = &r->runs[i];

		nn_open_object(o, NULL);
		nn_print_int(o, PRINT_JSON, "exit", NULL, x->status);
		nn_print_bool(o, PRINT_JSON, "ok", NULL, x->ok);
		nn_print_double(o, PRINT_JSON, "mpps", NULL, x->mpps);
		nn_print_bool(o, PRINT_JSON, "placement_verified", NULL, x->verified);
		nn_print_opt_int(o, PRINT_JSON, "fwd_cpu", NULL, x->fwd_cpu_seen, NULL);
		nn_print_uint(o, PRINT_JSON, "drops", NULL, x->drops);
		nn_print_uint(o, PRINT_JSON, "loss", NULL, x->loss);
		nn_print_opt_int(o, PRINT_JSON, "rx", NULL, x->rx, NULL);
		nn_open_object(o, "latency_ns");
		for (k = 0; k < NN_BENCH_NPCT; k++)
			if (x->lat[k] >= 0)
				nn_print_double(o, PRINT_JSON, nn_bench_pct_key(k), NULL, x->lat[k]);
			else
				nn_print_null(o, PRINT_JSON, nn_bench_pct_key(k), NULL);
		nn_print_opt_int(o, PRINT_JSON, "stamp_every", NULL, x->stamp_every, NULL);
		nn_print_opt_int(o, PRINT_JSON, "samples", NULL, x->lat_samples, NULL);
		nn_close_object(o);
		nn_print_double(o, PRINT_JSON, "stall_max_ns", NULL, x->stall[4]);
		nn_close_object(o);
	}
	nn_close_array(o);
	nn_close_object(o);
}

/* Host, conditions and every row of every size: the document both stdout and --report get. */
void nn_bench_print(struct nn_out *o, const struct nn_bench_result *b)
{
	int i, z;

	print_host(o, b);
	print_conditions(o, b);
	nn_printf(o, "\n%5s %-7s %-7s %4s/%-3s %8s %-15s %6s %9s %9s %9s %6s %10s  %s\n", "bytes", "lcores",
		  "mbufs", "L", "M", "Mpps", "[min-max]", "ratio", "p50 us", "p99 us", "p99.9 us", "p99 x",
		  "stall us", "placement");
	nn_open_array(o, "rows");
	for (z = 0; z < b->nsizes; z++)
		for (i = 0; i < NN_BENCH_ROWS; i++)
			print_row(o, &b->rows[z][i], &b->rows[z][0]);
	nn_close_array(o);
	nn_printf(o, "(medians of %u run(s); ratio = row / matched row of the same frame size; stall = "
		  "the host's worst scheduling gap in the same run)\n", b->cfg.repeat);
	/* The latency columns are a sample: say at what rate, from the runs. */
	{
		double every = -1;

		for (z = 0; z < b->nsizes && every < 0; z++)
			for (i = 0; i < NN_BENCH_ROWS && every < 0; i++) {
				struct nn_bench_stat se = nn_bench_stat(&b->rows[z][i], NN_BENCH_STAMP_EVERY, 0);

				if (se.n)
					every = se.med;
			}
		if (every > 0)
			nn_printf(o, "(latency p50/p99/p99.9: round trips of a sample, one generator TX burst in "
				  "%.0f stamped; rows' latency_ns.stamp_every and .samples in --json)\n", every);
	}
}
