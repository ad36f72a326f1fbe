// SPDX-License-Identifier: GPL-2.0-or-later
/* bench_report.c - nicnuma-fwd's --json report read back, and the medians,
 * ranges and ratios the bench table shows. Pure. */
#include <json-c/json.h>
#include <stdlib.h>

#include "nicnuma/plan/stats.h"
#include "nicnuma/plan/bench.h"

static const char *const pct_keys[NN_BENCH_NPCT] = { "p50", "p90", "p99", "p999", "max" };

/* The same ranks as dpdk-app/report.c's "cdf". */
static const double cdf_ps[NN_BENCH_NCDF] = { 0, 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.99, 100 };

const char *nn_bench_pct_key(int k)
{
	return k >= 0 && k < NN_BENCH_NPCT ? pct_keys[k] : NULL;
}

double nn_bench_cdf_p(int k)
{
	return k >= 0 && k < NN_BENCH_NCDF ? cdf_ps[k] : -1;
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

/* A histogram object {"p50":..,"max":..}; null or missing values are -1. */
static void parse_hist(struct json_object *doc, const char *key, double *out)
{
	struct json_object *h = NULL;
	bool ok;
	int i;

	for (i = 0; i < NN_BENCH_NPCT; i++)
		out[i] = -1;
	if (!json_object_object_get_ex(doc, key, &h) || !h)
		return;
	for (i = 0; i < NN_BENCH_NPCT; i++) {
		ok = true;
		out[i] = jdouble(h, pct_keys[i], &ok);
		if (!ok)
			out[i] = -1;
	}
}

/* latency_ns.cdf: [{"p":..,"ns":..}]; points matched by rank, so a
 * forwarder with other ranks leaves the unknown ones at -1. */
static void parse_cdf(struct json_object *doc, double *out)
{
	struct json_object *h = NULL, *a = NULL;
	size_t i, n;
	int k;

	for (k = 0; k < NN_BENCH_NCDF; k++)
		out[k] = -1;
	if (!json_object_object_get_ex(doc, "latency_ns", &h) || !h ||
	    !json_object_object_get_ex(h, "cdf", &a) || json_object_get_type(a) != json_type_array)
		return;
	n = json_object_array_length(a);
	for (i = 0; i < n; i++) {
		struct json_object *pt = json_object_array_get_idx(a, i);
		bool ok = true;
		double p = jdouble(pt, "p", &ok), v = jdouble(pt, "ns", &ok);

		for (k = 0; ok && k < NN_BENCH_NCDF; k++)
			if (p > cdf_ps[k] - 1e-9 && p < cdf_ps[k] + 1e-9)
				out[k] = v;
	}
}

void nn_bench_run_unknown(struct nn_bench_run *res)
{
	res->fwd_cpu_seen = -1;
	res->rx = -1;
	res->stamp_every = res->lat_samples = -1;
	for (int k = 0; k < NN_BENCH_NCDF; k++)
		res->cdf[k] = -1;
}

void nn_bench_parse_report(const char *text, struct nn_bench_run *res)
{
	struct json_object *doc = text ? json_tokener_parse(text) : NULL, *v;
	bool ok = true;

	nn_bench_run_unknown(res);
	if (!doc)
		return;
	res->mpps = jdouble(doc, "mpps", &ok);
	if (json_object_object_get_ex(doc, "placement_verified", &v))
		res->verified = json_object_get_boolean(v);
	res->drops = (unsigned long long)jdouble(doc, "drops", &ok);
	if (json_object_object_get_ex(doc, "loss", &v) && v)
		res->loss = (unsigned long long)json_object_get_int64(v);
	/* With --pci, rx > 0 is the proof that traffic reached the port. */
	if (json_object_object_get_ex(doc, "rx", &v) && v)
		res->rx = json_object_get_int64(v);
	if (json_object_object_get_ex(doc, "config", &v) && v) {
		struct json_object *cpus;

		if (json_object_object_get_ex(v, "lcore_cpus", &cpus) && cpus &&
		    json_object_get_type(cpus) == json_type_array &&
		    json_object_array_length(cpus) > 0)
			res->fwd_cpu_seen = json_object_get_int(json_object_array_get_idx(cpus, 0));
	}
	parse_hist(doc, "latency_ns", res->lat);
	/* The sampling rate the percentiles were taken at (nicnuma-fwd
	 * --stamp-every); absent in a report without a generator. */
	if (json_object_object_get_ex(doc, "latency_ns", &v) && v) {
		struct json_object *x;

		if (json_object_object_get_ex(v, "stamp_every", &x) && x)
			res->stamp_every = json_object_get_int64(x);
		if (json_object_object_get_ex(v, "samples", &x) && x)
			res->lat_samples = json_object_get_int64(x);
	}
	parse_hist(doc, "stall_baseline_ns", res->stall);
	parse_cdf(doc, res->cdf);
	res->ok = ok;
	json_object_put(doc);
}

static double pick(const struct nn_bench_run *r, enum nn_bench_metric m, int k)
{
	switch (m) {
	case NN_BENCH_MPPS:
		return r->mpps;
	case NN_BENCH_LAT:
		return k >= 0 && k < NN_BENCH_NPCT ? r->lat[k] : -1;
	case NN_BENCH_STALL:
		return k >= 0 && k < NN_BENCH_NPCT ? r->stall[k] : -1;
	case NN_BENCH_CDF:
		return k >= 0 && k < NN_BENCH_NCDF ? r->cdf[k] : -1;
	case NN_BENCH_STAMP_EVERY:
		return (double)r->stamp_every;
	case NN_BENCH_LAT_SAMPLES:
		return (double)r->lat_samples;
	}
	return -1;
}

struct nn_bench_stat nn_bench_stat(const struct nn_bench_row *r, enum nn_bench_metric m, int k)
{
	struct nn_bench_stat s = { -1, -1, -1, 0 };
	double *v;
	unsigned int i;

	if (!r->nruns)
		return s;
	v = malloc(r->nruns * sizeof(*v));
	if (!v)
		return s;
	for (i = 0; i < r->nruns; i++)
		if (r->runs[i].ok && pick(&r->runs[i], m, k) >= 0)
			v[s.n++] = pick(&r->runs[i], m, k);
	if (s.n) {
		s.med = nn_median(v, (size_t)s.n);	/* sorts v */
		s.min = v[0];
		s.max = v[s.n - 1];
	}
	free(v);
	return s;
}

double nn_bench_ratio(struct nn_bench_stat x, struct nn_bench_stat ref)
{
	return x.n && ref.n && ref.med > 0 ? x.med / ref.med : -1;
}
