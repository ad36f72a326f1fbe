// SPDX-License-Identifier: GPL-2.0-or-later
/* dpdk_telemetry.c - pure parsers of DPDK telemetry v2 replies and the
 * per-port placement verdict of "nicnuma check --dpdk". No I/O here.
 *
 * Reply shapes (DPDK 22.11, seen from a live testpmd): every reply is one
 * JSON object {"<command>": value}; an unknown command or a bad parameter
 * gives value null. /ethdev/info has name, numa_node, nb_rx_queues,
 * nb_tx_queues, dev_started but no driver name; /mempool/info has socket_id,
 * size, populated_size but no in-use count; /eal/lcore/info only exists
 * from 23.11 on.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "nicnuma/telemetry/dpdk_telemetry.h"
#include "nicnuma/discover/procmap.h"

static const struct {
	unsigned int flag;
	const char *key, *text;
} verdicts[] = {
	{ NN_DTV_OK, "ok", "ok" },
	{ NN_DTV_MEMPOOL_REMOTE, "mempool_remote", "mempool remote to its port" },
	{ NN_DTV_LCORE_REMOTE, "lcore_remote", "lcore remote" },
	{ NN_DTV_UNKNOWN_LOCALITY, "unknown_locality", "unknown locality" },
	{ NN_DTV_NO_POOL, "no_pool", "no mempool of known socket (pool check skipped)" },
	{ NN_DTV_NO_LCORE, "no_lcore", "no lcore of known node (lcore check skipped)" },
	{ NN_DTV_MEMPOOL_UNKNOWN, "mempool_unknown",
	  "mempool of this port unknown: pools on several nodes" },
};

const char *nn_dt_verdict_key(unsigned int flag)
{
	for (size_t i = 0; i < sizeof(verdicts) / sizeof(verdicts[0]); i++)
		if (verdicts[i].flag == flag)
			return verdicts[i].key;
	return "unknown";
}

const char *nn_dt_verdict_text(unsigned int flag)
{
	for (size_t i = 0; i < sizeof(verdicts) / sizeof(verdicts[0]); i++)
		if (verdicts[i].flag == flag)
			return verdicts[i].text;
	return "unknown";
}

void nn_dt_report_init(struct nn_dt_report *r)
{
	memset(r, 0, sizeof(*r));
	r->pid = -1;
	r->max_output_len = -1;
	r->main_lcore = -1;
}

void nn_dt_lcores_clear(struct nn_dt_report *r)
{
	for (size_t i = 0; i < r->nlcores; i++)
		nn_cpuset_free(&r->lcores[i].cpus);
	free(r->lcores);
	r->lcores = NULL;
	r->nlcores = 0;
}

void nn_dt_report_free(struct nn_dt_report *r)
{
	size_t i;

	for (i = 0; i < r->nports; i++) {
		nn_cpuset_free(&r->ports[i].pool_nodes);
		nn_cpuset_free(&r->ports[i].lcore_nodes);
	}
	free(r->ports);
	free(r->pools);
	nn_dt_lcores_clear(r);
	nn_dt_names_free(r->params, r->nparams);
	for (i = 0; i < r->nnotes; i++) {
		free(r->notes[i].what);
		free(r->notes[i].effect);
	}
	free(r->notes);
	free(r->socket);
	if (r->process)
		nn_pm_snapshot_free(r->process);
	free(r->process);
	nn_dt_report_init(r);
}

int nn_dt_note_add(struct nn_dt_report *r, const char *what, const char *effect)
{
	struct nn_dt_note *n = realloc(r->notes, (r->nnotes + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	r->notes = n;
	n = &r->notes[r->nnotes];
	n->what = strdup(what);
	n->effect = strdup(effect);
	if (!n->what || !n->effect) {
		free(n->what);
		free(n->effect);
		return -ENOMEM;
	}
	r->nnotes++;
	return 0;
}

/* The value under @cmd of a reply {"cmd": value}; *@root to put. */
static int reply_value(const char *text, const char *cmd, json_object **root, json_object **val)
{
	*root = json_tokener_parse(text);
	if (!*root || !json_object_is_type(*root, json_type_object) ||
	    !json_object_object_get_ex(*root, cmd, val)) {
		json_object_put(*root);
		*root = NULL;
		return -EINVAL;
	}
	return 0;
}

/* An integer field: *@out, or @dflt when absent or null; -EINVAL when not a number. */
static int get_int(json_object *obj, const char *key, long long dflt, long long *out)
{
	json_object *v;

	*out = dflt;
	if (!json_object_object_get_ex(obj, key, &v) || !v)
		return 0;
	if (!json_object_is_type(v, json_type_int))
		return -EINVAL;
	*out = json_object_get_int64(v);
	return 0;
}

/* A node or socket: -1 for absent, negative, or out of range (SOCKET_ID_ANY). */
static int get_node(json_object *obj, const char *key, int *out)
{
	long long v;
	int err = get_int(obj, key, -1, &v);

	*out = err || v < 0 || v >= NN_CPU_MAX ? -1 : (int)v;
	return err;
}

static void get_str(json_object *obj, const char *key, char *buf, size_t size)
{
	json_object *v;

	buf[0] = '\0';
	if (json_object_object_get_ex(obj, key, &v) && json_object_is_type(v, json_type_string))
		snprintf(buf, size, "%s", json_object_get_string(v));
}

int nn_dt_parse_greeting(const char *text, struct nn_dt_report *r)
{
	json_object *root = json_tokener_parse(text), *v;
	long long pid, len;
	int err = -EINVAL;

	if (!root || !json_object_is_type(root, json_type_object) ||
	    !json_object_object_get_ex(root, "version", &v) ||
	    !json_object_is_type(v, json_type_string))
		goto out;
	snprintf(r->version, sizeof(r->version), "%s", json_object_get_string(v));
	if (get_int(root, "pid", -1, &pid) || get_int(root, "max_output_len", -1, &len))
		goto out;
	r->pid = pid > 0 && pid <= INT_MAX ? (int)pid : -1;
	r->max_output_len = len > 0 ? (long)len : -1;
	err = 0;
out:
	json_object_put(root);
	return err;
}

int nn_dt_reply_is_null(const char *text, const char *cmd, bool *is_null)
{
	json_object *root, *val;
	int err = reply_value(text, cmd, &root, &val);

	if (err)
		return err;
	*is_null = val == NULL;
	json_object_put(root);
	return 0;
}

int nn_dt_parse_id_list(const char *text, const char *cmd, int **ids, size_t *n)
{
	json_object *root, *val;
	size_t i, len;
	int err = reply_value(text, cmd, &root, &val);

	*ids = NULL;
	*n = 0;
	if (err)
		return err;
	err = -EINVAL;
	if (!val || !json_object_is_type(val, json_type_array))
		goto out;
	len = json_object_array_length(val);
	*ids = calloc(len ? len : 1, sizeof(**ids));
	if (!*ids) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < len; i++) {
		json_object *e = json_object_array_get_idx(val, i);
		long long id;

		if (!json_object_is_type(e, json_type_int))
			goto out;
		id = json_object_get_int64(e);
		if (id < 0 || id > INT_MAX)
			goto out;
		(*ids)[i] = (int)id;
	}
	*n = len;
	err = 0;
out:
	if (err) {
		free(*ids);
		*ids = NULL;
	}
	json_object_put(root);
	return err;
}

void nn_dt_names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* Duplicates the strings of a JSON array; -EINVAL on a non-string. */
static int string_array(json_object *val, char ***names, size_t *n)
{
	size_t i, len = json_object_array_length(val);
	char **v = calloc(len ? len : 1, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (i = 0; i < len; i++) {
		json_object *e = json_object_array_get_idx(val, i);

		if (!json_object_is_type(e, json_type_string)) {
			nn_dt_names_free(v, i);
			return -EINVAL;
		}
		v[i] = strdup(json_object_get_string(e));
		if (!v[i]) {
			nn_dt_names_free(v, i);
			return -ENOMEM;
		}
	}
	*names = v;
	*n = len;
	return 0;
}

int nn_dt_parse_name_list(const char *text, const char *cmd, char ***names, size_t *n)
{
	json_object *root, *val;
	int err = reply_value(text, cmd, &root, &val);

	*names = NULL;
	*n = 0;
	if (err)
		return err;
	err = val && json_object_is_type(val, json_type_array) ? string_array(val, names, n) : -EINVAL;
	json_object_put(root);
	return err;
}

/* The object under @cmd: -ENOENT when null, -EINVAL when not an object. */
static int reply_object(const char *text, const char *cmd, json_object **root, json_object **val)
{
	int err = reply_value(text, cmd, root, val);

	if (err)
		return err;
	if (!*val || !json_object_is_type(*val, json_type_object)) {
		err = *val ? -EINVAL : -ENOENT;
		json_object_put(*root);
		*root = NULL;
	}
	return err;
}

bool nn_dt_pci_name(const char *name, char *out, size_t size)
{
	unsigned int dom = 0, bus, dev, fn;
	int used = 0;

	if (sscanf(name, "%4x:%2x:%2x.%1x%n", &dom, &bus, &dev, &fn, &used) == 4 &&
	    (size_t)used == strlen(name) && used == 12)
		goto ok;
	dom = 0;
	used = 0;
	if (sscanf(name, "%2x:%2x.%1x%n", &bus, &dev, &fn, &used) == 3 &&
	    (size_t)used == strlen(name) && used == 7)
		goto ok;
	return false;
ok:
	if (dev > 0x1f || fn > 7)
		return false;
	snprintf(out, size, "%04x:%02x:%02x.%x", dom, bus, dev, fn);
	return true;
}

int nn_dt_parse_port(const char *text, struct nn_dt_port *p)
{
	json_object *root, *val;
	long long id, rxq, txq, started;
	int err = reply_object(text, "/ethdev/info", &root, &val);

	if (err)
		return err;
	err = -EINVAL;
	if (get_int(val, "port_id", -1, &id) || id < 0 || id > INT_MAX ||
	    get_int(val, "nb_rx_queues", -1, &rxq) || get_int(val, "nb_tx_queues", -1, &txq) ||
	    get_int(val, "dev_started", -1, &started) || get_node(val, "numa_node", &p->tel_node))
		goto out;
	p->port_id = (int)id;
	p->rx_queues = rxq >= 0 && rxq <= INT_MAX ? (int)rxq : -1;
	p->tx_queues = txq >= 0 && txq <= INT_MAX ? (int)txq : -1;
	p->started = started < 0 ? -1 : started != 0;
	get_str(val, "name", p->name, sizeof(p->name));
	/* newer releases may name the driver; 22.11 does not */
	get_str(val, "driver_name", p->driver, sizeof(p->driver));
	if (!nn_dt_pci_name(p->name, p->pci, sizeof(p->pci)))
		p->pci[0] = '\0';
	p->sysfs_node = -1;
	p->node = -1;
	err = 0;
out:
	json_object_put(root);
	return err;
}

int nn_dt_parse_pool(const char *text, struct nn_dt_pool *p)
{
	json_object *root, *val;
	int err = reply_object(text, "/mempool/info", &root, &val);

	if (err)
		return err;
	err = -EINVAL;
	get_str(val, "name", p->name, sizeof(p->name));
	if (!p->name[0] || get_node(val, "socket_id", &p->socket) ||
	    get_int(val, "size", -1, &p->size) || get_int(val, "populated_size", -1, &p->populated) ||
	    get_int(val, "in_use", -1, &p->in_use))
		goto out;
	err = 0;
out:
	json_object_put(root);
	return err;
}

int nn_dt_parse_lcore(const char *text, struct nn_dt_lcore *l)
{
	json_object *root, *val, *cpus;
	long long id;
	size_t i;
	int err = reply_object(text, "/eal/lcore/info", &root, &val);

	if (err)
		return err;
	err = -EINVAL;
	if (get_int(val, "lcore_id", -1, &id) || id < 0 || id > INT_MAX)
		goto out;
	l->lcore_id = (int)id;
	get_str(val, "role", l->role, sizeof(l->role));
	l->node = -1;
	if (json_object_object_get_ex(val, "cpuset", &cpus) &&
	    json_object_is_type(cpus, json_type_array)) {
		for (i = 0; i < json_object_array_length(cpus); i++) {
			json_object *e = json_object_array_get_idx(cpus, i);
			long long c = json_object_get_int64(e);

			if (!json_object_is_type(e, json_type_int) || c < 0 || c >= NN_CPU_MAX)
				goto out;
			if (nn_cpuset_set(&l->cpus, (unsigned int)c)) {
				err = -ENOMEM;
				goto out;
			}
		}
	}
	err = 0;
out:
	json_object_put(root);
	return err;
}

int nn_dt_parse_params(const char *text, struct nn_dt_report *r)
{
	json_object *root, *val;
	int err = reply_value(text, "/eal/params", &root, &val);

	if (err)
		return err;
	nn_dt_names_free(r->params, r->nparams);
	r->params = NULL;
	r->nparams = 0;
	err = val && json_object_is_type(val, json_type_array) ?
		string_array(val, &r->params, &r->nparams) : -EINVAL;
	json_object_put(root);
	return err;
}
