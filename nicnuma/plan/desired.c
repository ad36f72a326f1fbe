// SPDX-License-Identifier: GPL-2.0-or-later
/* desired.c - the desired-state file: parse (pure), format, map onto a plan */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/fileio.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/plan/desired.h"
#include "nicnuma/core/names.h"
#include "hugepages/hugepages.h"

void nn_desired_init(struct nn_desired *d)
{
	memset(d, 0, sizeof(*d));
	d->policy = NN_POLICY_LOCAL;
	d->xps = true;
	d->irqbalance = NN_DIRQB_STOP;
	d->interval_s = 60;
	d->settle_ms = 300;
}

void nn_desired_free(struct nn_desired *d)
{
	size_t i;

	for (i = 0; i < d->nnics; i++) {
		free(d->nics[i].pci);
		free(d->nics[i].name);
	}
	free(d->nics);
	for (i = 0; i < d->nports; i++)
		free(d->ports[i]);
	free(d->ports);
	nn_cpuset_free(&d->cpus);
	nn_cpuset_free(&d->reserve);
	nn_desired_init(d);
}

int nn_desired_add_nic(struct nn_desired *d, const char *pci, const char *name)
{
	struct nn_desired_nic *n;

	if (d->nnics >= NN_DESIRED_MAX_NICS)
		return -E2BIG;
	if (NN_GROW(d->nics, d->nnics, d->cap))
		return -ENOMEM;
	n = &d->nics[d->nnics];
	n->pci = pci ? strdup(pci) : NULL;
	n->name = name ? strdup(name) : NULL;
	if ((pci && !n->pci) || (name && !n->name)) {
		free(n->pci);
		free(n->name);
		return -ENOMEM;
	}
	d->nnics++;
	return 0;
}

int nn_desired_add_port(struct nn_desired *d, const char *pci)
{
	char **v;
	size_t i;

	for (i = 0; i < d->nports; i++)
		if (!strcmp(d->ports[i], pci))
			return -EEXIST;
	if (d->nports >= NN_DESIRED_MAX_PORTS)
		return -E2BIG;
	v = realloc(d->ports, (d->nports + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	d->ports = v;
	v[d->nports] = strdup(pci);
	if (!v[d->nports])
		return -ENOMEM;
	d->nports++;
	return 0;
}

static const char *const irqb_names[] = { "stop", "ban", "ignore" };

const char *nn_desired_irqb_name(enum nn_desired_irqb m)
{
	return (unsigned int)m < 3 ? irqb_names[m] : "?";
}

int nn_desired_irqb_parse(const char *s, enum nn_desired_irqb *m)
{
	unsigned int i;

	for (i = 0; i < 3; i++)
		if (!strcmp(s, irqb_names[i])) {
			*m = (enum nn_desired_irqb)i;
			return 0;
		}
	/* the word before one vocabulary (docs/cli.md): a file written by an
	 * older enable still loads */
	if (!strcmp(s, "leave")) {
		*m = NN_DIRQB_LEAVE;
		return 0;
	}
	return -EINVAL;
}

enum nn_irqbalance_action nn_desired_irqb_action(enum nn_desired_irqb m)
{
	return m == NN_DIRQB_BAN ? NN_IRQB_BAN : m == NN_DIRQB_LEAVE ? NN_IRQB_NONE : NN_IRQB_STOP;
}

static bool ishex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* "DDDD:BB:SS.F" as sysfs names it (lower-case hex, 4-8 digit domain). */
static bool pci_valid(const char *s)
{
	size_t n = strlen(s), dom, i;

	if (n < 12 || n > 16)
		return false;
	dom = n - 8;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (i == dom || i == dom + 3) {
			if (c != ':')
				return false;
		} else if (i == dom + 6) {
			if (c != '.')
				return false;
		} else if (i == dom + 7) {
			if (c < '0' || c > '7')
				return false;
		} else if (!ishex(c)) {
			return false;
		}
	}
	return true;
}

static bool parse_bool(const char *v, bool *b)
{
	if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1")) {
		*b = true;
		return true;
	}
	if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "0")) {
		*b = false;
		return true;
	}
	return false;
}

static bool parse_uint(const char *v, unsigned int lo, unsigned int hi, unsigned int *out)
{
	unsigned long n;

	if (nn_name_decimal(v, hi, &n, NULL) || n < lo)
		return false;
	*out = (unsigned int)n;
	return true;
}

enum { K_NIC, K_POLICY, K_CPUS, K_RESERVE, K_CHANNELS, K_XPS, K_HUGEPAGES, K_IRQB,
       K_INTERVAL, K_SETTLE, K_CLAIM_ROOT, K_RPS, K_PROFILE, K_BUSY_POLL, K_DPDK_PORT,
       K_NOIOMMU, K_FORCE_PORT, K_NAPI0,
       K_N = K_NAPI0 + NN_NAPI_NATTR };
static const char *const keys[K_N] = { "nic", "policy", "cpus", "reserve", "channels", "xps",
				       "hugepages", "irqbalance", "interval", "settle_ms",
				       "claim_root_partitions", "rps", "profile", "busy_poll",
				       "dpdk_port", "noiommu", "force_port",
				       "napi_defer_hard_irqs", "gro_flush_timeout", "irq_suspend_timeout",
				       "napi_threaded" };

/* A NAPI setting's value: none, a decimal in its range, on/off for threaded. */
static bool napi_value(struct nn_desired *d, enum nn_napi_attr a, const char *v)
{
	unsigned long n;

	if (!strcmp(v, "none"))
		return true;
	if (a == NN_NAPI_THREADED) {
		if (strcmp(v, "on") && strcmp(v, "off"))
			return false;
		n = !strcmp(v, "on");
	} else if (nn_name_decimal(v, (unsigned long)nn_napi_attr_max(a), &n, NULL)) {
		return false;
	}
	d->napi_value[a] = (long long)n;
	d->napi_set |= 1u << a;
	return true;
}

static int nic_value(struct nn_desired *d, char *v, const char **msg)
{
	char *sp = strpbrk(v, " \t"), *name = NULL;
	size_t i;
	int err;

	if (sp) {
		*sp = '\0';
		name = sp + 1;
		name += strspn(name, " \t");
		if (!*name)
			name = NULL;
	}
	if (name && nn_name_ifname(name, msg))
		return -EINVAL;
	if (!strcmp(v, "-")) {
		if (!name) {
			*msg = "'-' (no PCI address) needs the NIC's name after it";
			return -EINVAL;
		}
		v = NULL;
	} else if (!pci_valid(v)) {
		*msg = "expected a PCI address (0000:65:00.0, lower-case) or '-', then the name";
		return -EINVAL;
	}
	for (i = 0; i < d->nnics; i++)
		if (v ? d->nics[i].pci && !strcmp(d->nics[i].pci, v)
		      : !d->nics[i].pci && !strcmp(d->nics[i].name, name)) {
			*msg = "this NIC is listed twice";
			return -EINVAL;
		}
	err = nn_desired_add_nic(d, v, name);
	if (err == -E2BIG) {
		*msg = "too many NICs";
		return -EINVAL;
	}
	return err;
}

static int set_value(struct nn_desired *d, int k, char *v, const char **msg)
{
	unsigned int u;
	int err = 0;

	switch (k) {
	case K_NIC:
		return nic_value(d, v, msg);
	case K_DPDK_PORT:
		if (!pci_valid(v)) {
			*msg = "expected a PCI address (0000:af:00.0, lower-case)";
			return -EINVAL;
		}
		err = nn_desired_add_port(d, v);
		if (err == -EEXIST)
			*msg = "this port is listed twice";
		else if (err == -E2BIG)
			*msg = "too many ports";
		else if (err)
			return err;
		break;
	case K_NOIOMMU:
		if (!parse_bool(v, &d->noiommu))
			*msg = "expected yes or no";
		break;
	case K_FORCE_PORT:
		if (!parse_bool(v, &d->force_port))
			*msg = "expected yes or no";
		break;
	case K_POLICY:
		if (nn_policy_parse(v, &d->policy))
			*msg = "expected local, spread or remote";
		break;
	case K_CPUS:
	case K_RESERVE: {
		struct nn_cpuset *s = k == K_CPUS ? &d->cpus : &d->reserve;

		if (k == K_CPUS && !strcmp(v, "all"))
			return 0;
		if (k == K_RESERVE && !strcmp(v, "auto"))
			return 0;
		if (k == K_RESERVE && !strcmp(v, "none")) {
			d->has_reserve = true;
			return 0;
		}
		err = nn_cpuset_parse_list(v, s);
		if (err == -ENOMEM)
			return err;
		if (err || (k == K_CPUS && nn_cpuset_empty(s)))
			*msg = k == K_CPUS ? "expected all or a CPU list (0-3,8)"
					   : "expected auto, none or a CPU list (0,56)";
		d->has_reserve |= k == K_RESERVE;
		break;
	}
	case K_CHANNELS:
		if (!parse_bool(v, &d->channels))
			*msg = "expected yes or no";
		break;
	case K_XPS:
		if (!parse_bool(v, &d->xps))
			*msg = "expected yes or no";
		break;
	case K_HUGEPAGES:
		if (!strcmp(v, "none"))
			return 0;
		if (nn_hp_parse_size_count(v, &d->hugepage_size_kb, &d->hugepage_count)) {
			d->hugepage_size_kb = 0;
			*msg = "expected none or SIZE:COUNT (2M:512, 1G:4)";
		}
		break;
	case K_IRQB:
		if (nn_desired_irqb_parse(v, &d->irqbalance))
			*msg = "expected stop, ban or ignore";
		break;
	case K_CLAIM_ROOT:
		if (!parse_bool(v, &d->claim_root_partitions))
			*msg = "expected yes or no";
		break;
	case K_INTERVAL:
		if (!parse_uint(v, 1, 86400, &d->interval_s))
			*msg = "expected seconds from 1 to 86400";
		break;
	case K_SETTLE:
		if (!parse_uint(v, 10, 60000, &d->settle_ms))
			*msg = "expected milliseconds from 10 to 60000";
		break;
	case K_RPS:
		if (nn_rps_policy_parse(v, &d->rps))
			*msg = "expected off or auto";
		break;
	case K_PROFILE:
		if (nn_profile_parse(v, &d->profile))
			*msg = "expected throughput, latency, dpdk or none";
		break;
	case K_BUSY_POLL:
		/* --busy-poll's range; "none" (not asked) as the NAPI keys say it */
		if (!strcmp(v, "none"))
			d->busy_poll_us = 0;
		else if (!parse_uint(v, 1, 1000000, &u))
			*msg = "expected none or microseconds from 1 to 1000000";
		else
			d->busy_poll_us = u;
		break;
	default:
		if (k >= K_NAPI0 && k < K_N && !napi_value(d, (enum nn_napi_attr)(k - K_NAPI0), v))
			*msg = k - K_NAPI0 == NN_NAPI_THREADED ? "expected none, on or off"
							       : "expected none or a number in range";
		break;
	}
	return *msg ? -EINVAL : 0;
}

static char *trim(char *s)
{
	char *e;

	s += strspn(s, " \t\r");
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

int nn_desired_parse(const char *name, const char *text, size_t len, struct nn_desired *d,
		     char *why, size_t whylen)
{
	char *buf, *line, *next;
	bool seen[K_N] = { false }, header = false;
	unsigned int lineno = 0;
	const char *msg = NULL;
	char *key = NULL;
	int err = 0, k;

	nn_desired_init(d);
	if (len > NN_DESIRED_MAX_BYTES) {
		snprintf(why, whylen, "%s: larger than %u kB", name, NN_DESIRED_MAX_BYTES >> 10);
		return -EFBIG;
	}
	if (memchr(text, '\0', len)) {
		snprintf(why, whylen, "%s: a NUL byte: not a text file", name);
		return -EINVAL;
	}
	buf = strndup(text, len);
	if (!buf)
		return -ENOMEM;
	for (line = buf; line && !err; line = next) {
		char *eq, *v;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		line = trim(line);
		if (!*line || *line == '#' || *line == ';')
			continue;
		key = line;
		if (*line == '[') {
			if (strcmp(line, "[nicnuma]")) {
				msg = "unknown section (only [nicnuma])";
				err = -EINVAL;
			}
			header = true;
			continue;
		}
		if (!header) {
			msg = "a key before the [nicnuma] header";
			err = -EINVAL;
			break;
		}
		eq = strchr(line, '=');
		if (!eq) {
			msg = "expected key = value";
			err = -EINVAL;
			break;
		}
		*eq = '\0';
		key = trim(line);
		v = trim(eq + 1);
		for (k = 0; k < K_N; k++)
			if (!strcmp(key, keys[k]))
				break;
		if (k == K_N) {
			msg = "unknown key";
			err = -EINVAL;
		} else if (seen[k] && k != K_NIC && k != K_DPDK_PORT) {
			msg = "given twice";
			err = -EINVAL;
		} else if (!*v) {
			msg = "empty value";
			err = -EINVAL;
		} else {
			seen[k] = true;
			err = set_value(d, k, v, &msg);
		}
	}
	if (!err && !header) {
		snprintf(why, whylen, "%s: no [nicnuma] section", name);
		err = -EINVAL;
	} else if (!err && !d->nnics) {
		snprintf(why, whylen, "%s: no 'nic =' line: the desired state names no NIC", name);
		err = -EINVAL;
	} else if (!err && !d->nports && (d->noiommu || d->force_port)) {
		snprintf(why, whylen, "%s: '%s' without a 'dpdk_port =' line", name,
			 d->noiommu ? "noiommu" : "force_port");
		err = -EINVAL;
	} else if (err == -EINVAL && msg) {
		/* the key is from the file: escape it for the message */
		struct nn_sb k2 = NN_SB_INIT;

		nn_sb_escape(&k2, key ? key : "");
		snprintf(why, whylen, "%s:%u: '%.64s': %s", name, lineno,
			 nn_sb_str(&k2) ? nn_sb_str(&k2) : "?", msg);
		nn_sb_free(&k2);
	}
	free(buf);
	if (err)
		nn_desired_free(d);
	return err;
}

static void put_set(struct nn_sb *sb, const char *key, const struct nn_cpuset *s, const char *none)
{
	char *l = nn_cpuset_empty(s) ? NULL : nn_cpuset_format_list(s);

	if (!nn_cpuset_empty(s) && !l) {
		sb->err = sb->err ? sb->err : -ENOMEM;
		return;
	}
	nn_sb_printf(sb, "%s = %s\n", key, l ? l : none);
	free(l);
}

int nn_desired_format(const struct nn_desired *d, struct nn_sb *sb)
{
	size_t i;

	nn_sb_puts(sb,
"# nicnuma desired state, written by 'nicnuma enable'. The nicnuma-watch\n"
"# service keeps the host this way; after editing: systemctl restart\n"
"# nicnuma-watch (or nicnuma enable again). Format: docs/persist.md.\n"
"[nicnuma]\n"
"# NICs by PCI address (the name after it is for reading: a renamed NIC is\n"
"# still found); '-' for a NIC without one, found by name.\n");
	for (i = 0; i < d->nnics; i++)
		nn_sb_printf(sb, "nic = %s%s%s\n", d->nics[i].pci ? d->nics[i].pci : "-",
			     d->nics[i].name ? " " : "", d->nics[i].name ? d->nics[i].name : "");
	nn_sb_printf(sb, "policy = %s\n", nn_policy_name(d->policy));
	put_set(sb, "cpus", &d->cpus, "all");
	if (d->has_reserve)
		put_set(sb, "reserve", &d->reserve, "none");
	else
		nn_sb_puts(sb, "reserve = auto\n");
	nn_sb_printf(sb, "channels = %s\n", d->channels ? "yes" : "no");
	nn_sb_printf(sb, "xps = %s\n", d->xps ? "yes" : "no");
	if (d->hugepage_size_kb)
		nn_sb_printf(sb, "hugepages = %lukB:%ld\n", d->hugepage_size_kb, d->hugepage_count);
	else
		nn_sb_puts(sb, "hugepages = none\n");
	nn_sb_printf(sb, "irqbalance = %s\n", nn_desired_irqb_name(d->irqbalance));
	if (d->rps != NN_RPS_OFF)
		nn_sb_printf(sb, "rps = %s\n", nn_rps_policy_name(d->rps));
	if (d->profile != NN_PROFILE_NONE)
		nn_sb_printf(sb, "profile = %s\n", nn_profile_name(d->profile));
	if (d->busy_poll_us > 0)
		nn_sb_printf(sb, "busy_poll = %lld\n", d->busy_poll_us);
	for (i = 0; i < NN_NAPI_NATTR; i++) {
		if (!(d->napi_set & (1u << i)))
			continue;
		if (i == NN_NAPI_THREADED)
			nn_sb_printf(sb, "%s = %s\n", keys[K_NAPI0 + i], d->napi_value[i] ? "on" : "off");
		else
			nn_sb_printf(sb, "%s = %lld\n", keys[K_NAPI0 + i], d->napi_value[i]);
	}
	nn_sb_printf(sb, "interval = %u\n", d->interval_s);
	nn_sb_printf(sb, "settle_ms = %u\n", d->settle_ms);
	/* Only when asked: the files enable wrote before the key stay the same. */
	if (d->claim_root_partitions)
		nn_sb_printf(sb, "claim_root_partitions = yes\n");
	/* DPDK ports (vfio-pci), bound again by the watcher at each start */
	for (i = 0; i < d->nports; i++)
		nn_sb_printf(sb, "dpdk_port = %s\n", d->ports[i]);
	if (d->noiommu)
		nn_sb_puts(sb, "noiommu = yes\n");
	if (d->force_port)
		nn_sb_puts(sb, "force_port = yes\n");
	return nn_sb_error(sb);
}

static const struct nn_nic *find_nic(const struct nn_host *host, const struct nn_desired_nic *dn)
{
	size_t i;

	for (i = 0; i < host->nnics; i++) {
		const struct nn_nic *n = &host->nics[i];

		if (dn->pci ? n->pci && !strcmp(n->pci, dn->pci)
			    : !n->pci && dn->name && !strcmp(n->name, dn->name))
			return n;
	}
	return NULL;
}

int nn_desired_plan_opts(const struct nn_desired *d, const struct nn_host *host,
			 struct nn_plan_opts *o, const char ***missing, size_t *nmissing)
{
	size_t i;
	int err = -ENOMEM;

	memset(o, 0, sizeof(*o));
	*missing = calloc(d->nnics + 1, sizeof(**missing));
	*nmissing = 0;
	o->nics = calloc(d->nnics + 1, sizeof(*o->nics));
	if (!*missing || !o->nics)
		goto fail;
	for (i = 0; i < d->nnics; i++) {
		const struct nn_nic *n = find_nic(host, &d->nics[i]);

		if (!n) {
			(*missing)[(*nmissing)++] = d->nics[i].pci ? d->nics[i].pci : d->nics[i].name;
			continue;
		}
		o->nics[o->nnics] = strdup(n->name);
		if (!o->nics[o->nnics])
			goto fail;
		o->nnics++;
	}
	o->policy = d->policy;
	o->channels = d->channels;
	o->no_xps = !d->xps;
	o->irqbalance = nn_desired_irqb_action(d->irqbalance);
	o->rps = d->rps;
	o->rps_given = true;	/* the file's rps is what enable resolved, profile included */
	o->profile = d->profile;
	o->busy_poll_us = d->busy_poll_us;
	memcpy(o->napi_value, d->napi_value, sizeof(o->napi_value));
	o->napi_set = d->napi_set;
	o->hugepage_size_kb = d->hugepage_size_kb;
	o->hugepage_count = d->hugepage_count;
	o->has_reserve = d->has_reserve;
	if (nn_cpuset_copy(&o->cpus, &d->cpus) || nn_cpuset_copy(&o->reserve, &d->reserve))
		goto fail;
	if (d->nports && !(o->dpdk_ports = calloc(d->nports, sizeof(*o->dpdk_ports))))
		goto fail;
	for (i = 0; i < d->nports; i++) {
		o->dpdk_ports[i] = strdup(d->ports[i]);
		if (!o->dpdk_ports[i])
			goto fail;
		o->ndpdk_ports++;
	}
	o->noiommu = d->noiommu;
	o->force_port = d->force_port;
	return o->nnics ? 0 : -ENOENT;
fail:
	nn_plan_opts_free(o);
	free(*missing);
	*missing = NULL;
	*nmissing = 0;
	return err;
}

static bool is_port(const struct nn_plan *plan, const char *pci)
{
	size_t i;

	for (i = 0; pci && i < plan->nports; i++)
		if (!strcmp(plan->ports[i].pci, pci))
			return true;
	return false;
}

int nn_desired_from_plan(struct nn_desired *d, const struct nn_plan *plan,
			 const struct nn_plan_opts *o)
{
	size_t i;
	int err = 0;

	nn_desired_init(d);
	/* a DPDK port's netdev goes with its bind: kept as a port, not a NIC */
	for (i = 0; i < plan->nnics && !err; i++)
		if (!is_port(plan, plan->nics[i].pci))
			err = nn_desired_add_nic(d, plan->nics[i].pci, plan->nics[i].nic);
	d->policy = o->policy;
	d->channels = o->channels;
	d->xps = !o->no_xps;
	d->irqbalance = o->irqbalance == NN_IRQB_BAN ? NN_DIRQB_BAN :
			o->irqbalance == NN_IRQB_NONE ? NN_DIRQB_LEAVE : NN_DIRQB_STOP;
	d->hugepage_size_kb = o->hugepage_size_kb;
	d->hugepage_count = o->hugepage_count;
	d->has_reserve = o->has_reserve;
	d->rps = o->rps;
	d->profile = o->profile;
	d->busy_poll_us = o->busy_poll_us;
	memcpy(d->napi_value, o->napi_value, sizeof(d->napi_value));
	d->napi_set = o->napi_set;
	for (i = 0; i < plan->nports && !err; i++)
		err = nn_desired_add_port(d, plan->ports[i].pci);
	d->noiommu = o->noiommu && plan->nports;
	d->force_port = o->force_port && plan->nports;
	if (!err && (nn_cpuset_copy(&d->cpus, &o->cpus) || nn_cpuset_copy(&d->reserve, &o->reserve)))
		err = -ENOMEM;
	if (err)
		nn_desired_free(d);
	return err;
}

int nn_desired_make_plan(const struct nn_desired *d, const struct nn_host *host,
			 struct nn_plan *plan, const char ***missing, size_t *nmissing)
{
	struct nn_plan_opts po = { 0 };
	int err = nn_desired_plan_opts(d, host, &po, missing, nmissing);

	memset(plan, 0, sizeof(*plan));
	if (!err)
		err = nn_plan_make(host, &po, plan);
	nn_plan_opts_free(&po);
	return err;
}

static bool same_nic(const char *a, const char *b)
{
	return a && b && !strcmp(a, b);
}

static bool keeps_rss(const struct nn_plan_rss *d, const struct nn_plan_rss *r)
{
	size_t i;

	if (!same_nic(d->nic, r->nic) || d->table_size != r->table_size || d->nqueues != r->nqueues ||
	    !d->weights != !r->weights)
		return false;
	for (i = 0; i < r->nqueues; i++)
		if (d->queues[i] != r->queues[i] || (r->weights && d->weights[i] != r->weights[i]))
			return false;
	return true;
}

bool nn_desired_keeps(const struct nn_plan *desired, const struct nn_plan *plan)
{
	const struct nn_plan *d = desired;
	size_t i, k;
	bool found;

	if (!plan->nirqs && !plan->nxps && !plan->nchannels && !plan->nnapi_threads && !plan->nrss &&
	    !plan->nrps && !plan->nnapi_conf && !plan->neth && !plan->nsysctls)
		return false;
	for (i = 0; i < plan->nsysctls; i++) {
		for (k = 0, found = false; k < d->nsysctls && !found; k++)
			found = d->sysctls[k].which == plan->sysctls[i].which &&
				d->sysctls[k].value == plan->sysctls[i].value;
		if (!found)
			return false;
	}
	if (plan->rps_sock_flow_entries > d->rps_sock_flow_entries)
		return false;
	for (i = 0; i < plan->nrps; i++) {
		for (k = 0, found = false; k < d->nrps && !found; k++)
			found = same_nic(d->rps[k].nic, plan->rps[i].nic) && d->rps[k].queue == plan->rps[i].queue &&
				d->rps[k].flow_cnt == plan->rps[i].flow_cnt &&
				nn_cpuset_equal(&d->rps[k].cpus, &plan->rps[i].cpus);
		if (!found)
			return false;
	}
	for (i = 0; i < plan->nnapi_conf; i++) {
		for (k = 0, found = false; k < d->nnapi_conf && !found; k++)
			found = same_nic(d->napi_conf[k].nic, plan->napi_conf[i].nic) &&
				d->napi_conf[k].napi_id == plan->napi_conf[i].napi_id &&
				d->napi_conf[k].attr == plan->napi_conf[i].attr &&
				d->napi_conf[k].value == plan->napi_conf[i].value;
		if (!found)
			return false;
	}
	/* A profile's coalescing and ring sizes: the watcher puts its own back. */
	for (i = 0; i < plan->neth; i++) {
		for (k = 0, found = false; k < d->neth && !found; k++)
			found = same_nic(d->eth[k].nic, plan->eth[i].nic) && d->eth[k].setting == plan->eth[i].setting &&
				d->eth[k].value == plan->eth[i].value;
		if (!found)
			return false;
	}
	for (i = 0; i < plan->nirqs; i++) {
		for (k = 0, found = false; k < d->nirqs && !found; k++)
			found = d->irqs[k].irq == plan->irqs[i].irq &&
				nn_cpuset_equal(&d->irqs[k].cpus, &plan->irqs[i].cpus);
		if (!found)
			return false;
	}
	for (i = 0; i < plan->nxps; i++) {
		for (k = 0, found = false; k < d->nxps && !found; k++)
			found = same_nic(d->xps[k].nic, plan->xps[i].nic) && d->xps[k].queue == plan->xps[i].queue &&
				nn_cpuset_equal(&d->xps[k].cpus, &plan->xps[i].cpus);
		if (!found)
			return false;
	}
	for (i = 0; i < plan->nchannels; i++) {
		for (k = 0, found = false; k < d->nchannels && !found; k++)
			found = same_nic(d->channels[k].nic, plan->channels[i].nic) &&
				d->channels[k].target == plan->channels[i].target;
		if (!found)
			return false;
	}
	for (i = 0; i < plan->nnapi_threads; i++) {
		for (k = 0, found = false; k < d->nnapi_threads && !found; k++)
			found = d->napi_threads[k].pid == plan->napi_threads[i].pid &&
				nn_cpuset_equal(&d->napi_threads[k].cpus, &plan->napi_threads[i].cpus);
		if (!found)
			return false;
	}
	for (i = 0; i < plan->nrss; i++) {
		for (k = 0, found = false; k < d->nrss && !found; k++)
			found = keeps_rss(&d->rss[k], &plan->rss[i]);
		if (!found)
			return false;
	}
	return true;
}
