// SPDX-License-Identifier: GPL-2.0-or-later
/* dpdk_rates.c - "nicnuma observe --dpdk": the counters of a DPDK process's
 * telemetry replies and the rates between two samples. Pure: text in,
 * numbers out (unit-tested on canned replies).
 */
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/telemetry/dpdk_telemetry.h"

void nn_dt_sample_free(struct nn_dt_sample *s)
{
	free(s->ports);
	free(s->usage);
	s->ports = NULL;
	s->usage = NULL;
	s->nports = s->nusage = 0;
	s->usage_available = false;
}

void nn_dt_rates_free(struct nn_dt_rates *r)
{
	for (size_t i = 0; i < r->nports; i++)
		free(r->ports[i].queues);
	free(r->ports);
	r->ports = NULL;
	r->nports = 0;
}

/* The object under @cmd of {"cmd": {...}}; -ENOENT when null. */
static int reply_obj(const char *text, const char *cmd, json_object **root, json_object **val)
{
	*root = json_tokener_parse(text);
	if (!*root || !json_object_is_type(*root, json_type_object) ||
	    !json_object_object_get_ex(*root, cmd, val))
		goto bad;
	if (!*val) {
		json_object_put(*root);
		*root = NULL;
		return -ENOENT;
	}
	if (json_object_is_type(*val, json_type_object))
		return 0;
bad:
	json_object_put(*root);
	*root = NULL;
	return -EINVAL;
}

/* A counter: -1 when absent; -EINVAL when not a non-negative integer. */
static int counter(json_object *obj, const char *key, long long *out)
{
	json_object *v;

	*out = -1;
	if (!json_object_object_get_ex(obj, key, &v) || !v)
		return 0;
	if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0)
		return -EINVAL;
	*out = json_object_get_int64(v);
	return 0;
}

/* q_ipackets / q_opackets: an array of counters, at most NN_DT_QMAX kept. */
static int queue_array(json_object *obj, const char *key, long long *q, int *n)
{
	json_object *v;
	size_t i, len;

	if (!json_object_object_get_ex(obj, key, &v) || !v)
		return 0;
	if (!json_object_is_type(v, json_type_array))
		return -EINVAL;
	len = json_object_array_length(v);
	if (len > NN_DT_QMAX)
		len = NN_DT_QMAX;
	for (i = 0; i < len; i++) {
		json_object *e = json_object_array_get_idx(v, i);

		if (!e || !json_object_is_type(e, json_type_int) || json_object_get_int64(e) < 0)
			return -EINVAL;
		q[i] = json_object_get_int64(e);
	}
	*n = (int)len;
	return 0;
}

int nn_dt_parse_stats(const char *text, struct nn_dt_pstats *p)
{
	json_object *root, *val;
	int err = reply_obj(text, "/ethdev/stats", &root, &val);

	if (err)
		return err;
	for (int i = 0; i < NN_DT_QMAX; i++)
		p->rxq[i] = p->txq[i] = -1;
	p->nrxq = p->ntxq = 0;
	err = counter(val, "ipackets", &p->ipackets);
	if (!err)
		err = counter(val, "opackets", &p->opackets);
	if (!err)
		err = counter(val, "imissed", &p->imissed);
	if (!err)
		err = queue_array(val, "q_ipackets", p->rxq, &p->nrxq);
	if (!err)
		err = queue_array(val, "q_opackets", p->txq, &p->ntxq);
	json_object_put(root);
	return err;
}

/* "rx_q12_packets" -> 12 into *@q, 'r' or 't' into *@dir. */
static bool queue_xstat(const char *name, int *q, char *dir)
{
	char tail[16];
	int n = 0, id;

	if (strncmp(name, "rx_q", 4) && strncmp(name, "tx_q", 4))
		return false;
	if (sscanf(name + 4, "%d%n%15s", &id, &n, tail) != 2 || id < 0 || name[4] < '0' ||
	    name[4] > '9' || strcmp(tail, "_packets"))
		return false;
	*q = id;
	*dir = name[0];
	return true;
}

int nn_dt_parse_xstats(const char *text, struct nn_dt_pstats *p)
{
	long long rx[NN_DT_QMAX], tx[NN_DT_QMAX];
	json_object *root, *val;
	int nrx = 0, ntx = 0, q;
	char dir;
	int err = reply_obj(text, "/ethdev/xstats", &root, &val);

	if (err)
		return err;
	for (int i = 0; i < NN_DT_QMAX; i++)
		rx[i] = tx[i] = -1;
	json_object_object_foreach(val, key, v) {
		if (!queue_xstat(key, &q, &dir))
			continue;
		if (!v || !json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 0) {
			err = -EINVAL;
			break;
		}
		if (q >= NN_DT_QMAX)
			continue;
		if (dir == 'r') {
			rx[q] = json_object_get_int64(v);
			nrx = q + 1 > nrx ? q + 1 : nrx;
		} else {
			tx[q] = json_object_get_int64(v);
			ntx = q + 1 > ntx ? q + 1 : ntx;
		}
	}
	json_object_put(root);
	if (err)
		return err;
	if (nrx) {
		memcpy(p->rxq, rx, sizeof(rx));
		p->nrxq = nrx;
	}
	if (ntx) {
		memcpy(p->txq, tx, sizeof(tx));
		p->ntxq = ntx;
	}
	return 0;
}

static int usage_add(struct nn_dt_sample *s, long long id, long long total, long long busy)
{
	struct nn_dt_lusage *u;

	if (id < 0 || id >= NN_DT_MAX_LCORES || total < 0 || busy < 0)
		return -EINVAL;
	if (s->nusage >= NN_DT_MAX_LCORES)
		return 0;
	u = realloc(s->usage, (s->nusage + 1) * sizeof(*u));
	if (!u)
		return -ENOMEM;
	s->usage = u;
	u[s->nusage++] = (struct nn_dt_lusage){ (int)id, total, busy };
	s->usage_available = true;
	return 0;
}

static long long arr_int(json_object *a, size_t i)
{
	json_object *e = json_object_array_get_idx(a, i);

	return e && json_object_is_type(e, json_type_int) ? json_object_get_int64(e) : -1;
}

int nn_dt_parse_usage(const char *text, struct nn_dt_sample *s)
{
	json_object *root, *val, *ids, *tot, *busy;
	long long id, t, b;
	size_t i, n;
	int err = reply_obj(text, "/eal/lcore/usage", &root, &val);

	if (err == -EINVAL) {
		/* the other shape: one /eal/lcore/info,<id> with its cycles */
		err = reply_obj(text, "/eal/lcore/info", &root, &val);
		if (err)
			return err;
		err = counter(val, "lcore_id", &id);
		if (!err)
			err = counter(val, "total_cycles", &t);
		if (!err)
			err = counter(val, "busy_cycles", &b);
		if (!err)
			err = id < 0 ? -EINVAL : t < 0 || b < 0 ? -ENOENT : usage_add(s, id, t, b);
		json_object_put(root);
		return err;
	}
	if (err)
		return err;
	if (!json_object_object_get_ex(val, "lcore_ids", &ids) ||
	    !json_object_object_get_ex(val, "total_cycles", &tot) ||
	    !json_object_object_get_ex(val, "busy_cycles", &busy) ||
	    !json_object_is_type(ids, json_type_array) || !json_object_is_type(tot, json_type_array) ||
	    !json_object_is_type(busy, json_type_array) ||
	    json_object_array_length(tot) != json_object_array_length(ids) ||
	    json_object_array_length(busy) != json_object_array_length(ids)) {
		json_object_put(root);
		return -EINVAL;
	}
	n = json_object_array_length(ids);
	s->usage_available = true;	/* the command answers, even with no lcore */
	for (i = 0; i < n && !err; i++)
		err = usage_add(s, arr_int(ids, i), arr_int(tot, i), arr_int(busy, i));
	json_object_put(root);
	return err;
}

/* (b - a) / secs; NAN when either is absent or the counter went back. */
static double rate(long long a, long long b, double secs)
{
	if (a < 0 || b < 0 || b < a || !(secs > 0))
		return NAN;
	return (double)(b - a) / secs;
}

static const struct nn_dt_pstats *port_of(const struct nn_dt_sample *s, int id)
{
	for (size_t i = 0; s && i < s->nports; i++)
		if (s->ports[i].port_id == id)
			return &s->ports[i];
	return NULL;
}

int nn_dt_rates(const struct nn_dt_sample *prev, const struct nn_dt_sample *cur, double secs,
		struct nn_dt_rates *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	out->ports = calloc(cur->nports ? cur->nports : 1, sizeof(*out->ports));
	if (!out->ports)
		return -ENOMEM;
	for (i = 0; i < cur->nports; i++) {
		const struct nn_dt_pstats *c = &cur->ports[i], *p = port_of(prev, c->port_id);
		struct nn_dt_prate *r = &out->ports[out->nports++];
		int nq = c->nrxq > c->ntxq ? c->nrxq : c->ntxq;

		r->port_id = c->port_id;
		memcpy(r->name, c->name, sizeof(r->name));
		r->node = c->node;
		r->rx_pps = p ? rate(p->ipackets, c->ipackets, secs) : NAN;
		r->tx_pps = p ? rate(p->opackets, c->opackets, secs) : NAN;
		r->rx_missed_pps = p ? rate(p->imissed, c->imissed, secs) : NAN;
		r->queues = calloc(nq ? (size_t)nq : 1, sizeof(*r->queues));
		if (!r->queues) {
			nn_dt_rates_free(out);
			return -ENOMEM;
		}
		for (int q = 0; q < nq; q++) {
			struct nn_dt_qrate *qr = &r->queues[r->nqueues++];

			qr->queue = q;
			qr->rx_pps = p && q < c->nrxq && q < p->nrxq ? rate(p->rxq[q], c->rxq[q], secs) : NAN;
			qr->tx_pps = p && q < c->ntxq && q < p->ntxq ? rate(p->txq[q], c->txq[q], secs) : NAN;
		}
	}
	return 0;
}

double nn_dt_busy_share(const struct nn_dt_sample *prev, const struct nn_dt_sample *cur, int lcore)
{
	const struct nn_dt_lusage *a = NULL, *b = NULL;
	size_t i;

	for (i = 0; prev && i < prev->nusage; i++)
		if (prev->usage[i].lcore_id == lcore)
			a = &prev->usage[i];
	for (i = 0; cur && i < cur->nusage; i++)
		if (cur->usage[i].lcore_id == lcore)
			b = &cur->usage[i];
	if (!a || !b || b->total_cycles <= a->total_cycles || b->busy_cycles < a->busy_cycles)
		return NAN;
	double share = (double)(b->busy_cycles - a->busy_cycles) /
		       (double)(b->total_cycles - a->total_cycles);
	return share > 1 ? 1 : share;
}
