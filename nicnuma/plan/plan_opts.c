// SPDX-License-Identifier: GPL-2.0-or-later
/* plan_opts.c - the planning options shared by the commands that plan: their rows, parsing and checks
 *
 * Parsing is in two steps: the option text is checked as it is read (exit 2
 * naming the option on garbage), and what needs the host (NIC names, online
 * CPUs, page sizes the host has) is checked once discovery has run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "nicnuma/core/strbuf.h"
#include "plan_opts.h"
#include "hugepages/hugepages.h"
#include "nicnuma/core/names.h"
#include "ports/port.h"

const char *const nn_irqbalance_words[] = { "stop", "ban", "ignore", NULL };
const char *const nn_irqbalance_old_words[] = { "leave", "ignore", NULL };

const struct nn_opt nn_plan_optv[] = {
	{ "nics", 0, NN_ARG_REQUIRED, "NIC[,NIC..]", "plan these NICs only (default: every non-virtual NIC; "
	  "virtual ones such as veth are planned when named)", NN_OPT_NICS },
	{ "cpus", 0, NN_ARG_REQUIRED, "CPULIST", "queue IRQs and XPS only on these CPUs (kernel form: 0-3,8); "
	  "housekeeping is chosen separately", NN_OPT_CPUS },
	{ "reserve", 0, NN_ARG_REQUIRED, "CPULIST", "housekeeping CPUs, kept free of queue IRQs; the NICs' "
	  "other IRQs (config, async, misc) go there (default: the first core of each node with its SMT "
	  "siblings)", NN_OPT_RESERVE },
	{ "policy", 0, NN_ARG_REQUIRED, "POLICY", "local (default): the NIC's own node, spilling to the "
	  "nearest nodes by distance when it has no or too few cores; spread: all nodes in turn; remote: "
	  "the node farthest from the NIC, for mismatch experiments", NN_OPT_POLICY,
	  .values = (const char *const[]){ "local", "spread", "remote", NULL } },
	{ "channels", 0, NN_ARG_NONE, NULL, "also set each NIC's combined channels to the number of cores "
	  "planned for it (ethtool -L)", NN_OPT_CHANNELS },
	{ "no-xps", 0, NN_ARG_NONE, NULL, "plan no XPS masks: the tx queues' xps_cpus are left as they are "
	  "(the desired state's xps = no)", NN_OPT_NO_XPS },
	{ "irqbalance", 0, NN_ARG_REQUIRED, "ACTION", "stop (default): stop irqbalance (systemctl disable "
	  "--now under systemd); ban: keep it running but fence the planned IRQs "
	  "(IRQBALANCE_BANNED_CPULIST / --banirq); ignore: leave it alone (it will move IRQs again)",
	  NN_OPT_IRQBALANCE, .values = nn_irqbalance_words, .old_values = nn_irqbalance_old_words },
	{ "hugepages", 0, NN_ARG_REQUIRED, "SIZE:COUNT", "reserve at least COUNT pages of SIZE (2M, 1G, "
	  "2048kB) on each node that holds a planned NIC (a larger pool is kept); adds DPDK --socket-mem "
	  "COUNT x SIZE", NN_OPT_HUGEPAGES },
	{ "rss", 0, NN_ARG_REQUIRED, "MODE", "local: spread each NIC's RSS indirection table over its queues "
	  "whose IRQs are planned on the NIC's node only (equal weights); local:cpu: weighted by each "
	  "queue's share of its CPUs; none (default): leave the table", NN_OPT_RSS,
	  .values = (const char *const[]){ "local", "local:cpu", "none", NULL } },
	{ "rps", 0, NN_ARG_REQUIRED, "MODE", "auto: Receive Packet Steering on each rx queue of a NIC with "
	  "fewer rx queues than usable CPUs on its node, to the node's CPUs that take none of its IRQs "
	  "(rps_cpus), with RFS (rps_flow_cnt, rps_sock_flow_entries); off (default): spread none. "
	  "Either way a mask found on an isolated or claimed CPU (or a --profile dpdk lcore) loses them",
	  NN_OPT_RPS, .values = (const char *const[]){ "auto", "off", NULL } },
	{ "napi-defer-hard-irqs", 0, NN_ARG_REQUIRED, "N", "set each NAPI's defer-hard-irqs (netdev netlink "
	  "napi-set; without per-NAPI settings the device-wide napi_defer_hard_irqs file)", NN_OPT_NAPI_DEFER },
	{ "gro-flush-timeout", 0, NN_ARG_REQUIRED, "NS", "set each NAPI's gro-flush-timeout in nanoseconds "
	  "(napi-set, else the device-wide gro_flush_timeout file)", NN_OPT_GRO_FLUSH },
	{ "irq-suspend-timeout", 0, NN_ARG_REQUIRED, "NS", "set each NAPI's irq-suspend-timeout in "
	  "nanoseconds (napi-set only: there is no device-wide file)", NN_OPT_IRQ_SUSPEND },
	{ "napi-threaded", 0, NN_ARG_REQUIRED, "MODE", "on or off: threaded NAPI per NAPI (napi-set threaded, "
	  "kernel 6.17+), else the device-wide threaded file", NN_OPT_NAPI_THREADED,
	  .values = (const char *const[]){ "on", "off", NULL } },
	{ "profile", 0, NN_ARG_REQUIRED, "PROFILE", "throughput: adaptive coalescing on, rings to the "
	  "driver's maximum, RPS where a NIC has fewer queues than local CPUs; latency: coalescing off "
	  "(adaptive off, rx-usecs 0), each NAPI's defer-hard-irqs 0 and threaded; dpdk: no kernel NIC "
	  "interrupt, NAPI thread or RPS CPU on the lcores layout --dpdk hands out; none (default): the "
	  "placement alone; list (plan only): print what each sets and why. Options given beside it win", NN_OPT_PROFILE,
	  .values = (const char *const[]){ "throughput", "latency", "dpdk", "none", NULL } },
	{ "busy-poll", 0, NN_ARG_REQUIRED, "USECS", "with --profile latency, for an application that "
	  "busy-polls: each NAPI's IRQ suspension (defer-hard-irqs 100, gro-flush-timeout USECS, "
	  "irq-suspend-timeout 10 x USECS) and the sysctls net.core.busy_poll and busy_read USECS",
	  NN_OPT_BUSY_POLL },
	{ "boot-args", 0, NN_ARG_REQUIRED, "MODE", "the kernel's boot arguments the plan computes, each with "
	  "its reason: auto (1 GB hugepages at boot, the IOMMU in passthrough where a port goes to vfio-pci, "
	  "isolcpus=managed_irq,domain, nohz_full, rcu_nocbs for the application's CPUs and irqaffinity for "
	  "the others; one the running kernel cannot take is left out, with why), none, or names "
	  "(hugepages,iommu,isolcpus,nohz_full,rcu_nocbs,irqaffinity: those only, planned even where auto "
	  "leaves them out). apply writes them through the bootloader (GRUB's /etc/default/grub.d, "
	  "kernel-install's /etc/kernel/cmdline, grubby). Default: auto with --profile dpdk or latency, "
	  "else none", NN_OPT_BOOT_ARGS },
	{ "isolate", 0, NN_ARG_REQUIRED, "CPULIST", "with --profile latency: the application's CPUs. No queue "
	  "IRQ, XPS mask, NAPI thread or RPS CPU there, and (with boot arguments) isolated at boot",
	  NN_OPT_ISOLATE },
	{ "dpdk-ports", 0, NN_ARG_REQUIRED, "PORTS", "PCI addresses or NIC names, comma-separated: the functions a "
	  "DPDK application drives: planned for vfio-pci after checking each is a network function, an "
	  "IOMMU is on, its IOMMU group is viable (every other member unbound, on vfio-pci, a bridge or "
	  "named here too), vfio-pci can be loaded and no netdev of it carries a route or address of this "
	  "host; refused naming what was found. apply binds them (driver_override, unbind, drivers_probe; "
	  "rollback binds the original driver back)", NN_OPT_DPDK_PORTS },
	{ "noiommu", 0, NN_ARG_NONE, NULL, "with --dpdk-ports on a host without an IOMMU: vfio's unsafe "
	  "no-IOMMU mode (no DMA isolation; warned)", NN_OPT_NOIOMMU },
	{ "force-port", 0, NN_ARG_NONE, NULL, "with --dpdk-ports: take a port whose netdev carries a route "
	  "or address of this host (the management path: the operator may be locked out)", NN_OPT_FORCE_PORT },
	{ 0 },
};

/* --dpdk-ports PCI|NIC,..: each a PCI address or an interface name; NICs
 * are resolved to their function by nn_plan_opts_check. Repeats add. */
static int dpdk_ports_opt(struct nn_ctx *ctx, const char *arg, struct nn_plan_opts *o)
{
	const char *p = arg;

	for (;;) {
		size_t n = strcspn(p, ",");
		const char *why;
		char **v, *w;

		if (!n || n >= 16 || o->ndpdk_ports >= 64) {
			nn_err(ctx, "--dpdk-ports: '%s': expected PCI addresses (0000:af:00.0) or NIC names, "
			       "comma-separated, at most 64", arg);
			return -EINVAL;
		}
		w = strndup(p, n);
		v = w ? realloc(o->dpdk_ports, (o->ndpdk_ports + 1) * sizeof(*v)) : NULL;
		if (!v) {
			free(w);
			return -ENOMEM;
		}
		o->dpdk_ports = v;
		v[o->ndpdk_ports++] = w;
		if (!nn_port_pci_valid(w) && nn_name_ifname(w, &why)) {
			nn_err(ctx, "--dpdk-ports: '%s' is neither a PCI address (0000:af:00.0) nor an interface name", w);
			return -EINVAL;
		}
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

/* --napi-*: a decimal in the range the kernel takes for @a. */
static int napi_opt(struct nn_ctx *ctx, const char *name, const char *arg, enum nn_napi_attr a,
		    struct nn_plan_opts *o)
{
	long long v = -1;
	char *end = NULL;

	if (a == NN_NAPI_THREADED) {
		v = !strcmp(arg, "on") ? 1 : !strcmp(arg, "off") ? 0 : -1;
	} else if (arg[0] >= '0' && arg[0] <= '9') {
		errno = 0;
		v = strtoll(arg, &end, 10);
		if (errno || *end)
			v = -1;
	}
	if (v < 0 || v > nn_napi_attr_max(a)) {
		if (a == NN_NAPI_THREADED)
			nn_err(ctx, "--%s: expected on or off, got '%s'", name, arg);
		else
			nn_err(ctx, "--%s: expected a number from 0 to %lld, got '%s'", name,
			       nn_napi_attr_max(a), arg);
		return -EINVAL;
	}
	if (!o)
		return 0;	/* only the check (--busy-poll) */
	o->napi_value[a] = v;
	o->napi_set |= 1u << a;
	return 0;
}

static int split_nics(const char *arg, struct nn_plan_opts *o)
{
	char *dup = strdup(arg), *tok, *save = NULL;
	int ret = 0;

	if (!dup)
		return -ENOMEM;
	for (tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char **v = realloc(o->nics, (o->nnics + 1) * sizeof(*v));

		if (!v) {
			ret = -ENOMEM;
			break;
		}
		o->nics = v;
		o->nics[o->nnics] = strdup(tok);
		if (!o->nics[o->nnics]) {
			ret = -ENOMEM;
			break;
		}
		o->nnics++;
	}
	free(dup);
	if (!ret && !o->nnics)
		ret = -EINVAL;
	return ret;
}

int nn_plan_opt(struct nn_ctx *ctx, int opt, const char *arg, void *dest)
{
	struct nn_plan_opts *o = dest;
	int ret;

	switch (opt) {
	case NN_OPT_NICS:
		ret = split_nics(arg, o);
		if (ret == -EINVAL)
			nn_err(ctx, "--nics: expected NIC names separated by commas, got '%s'", arg);
		break;
	case NN_OPT_CPUS:
		ret = nn_cpuset_parse_list(arg, &o->cpus);
		if (!ret && nn_cpuset_empty(&o->cpus))
			ret = -EINVAL;
		if (ret && ret != -ENOMEM)
			nn_err(ctx, "--cpus: bad CPU list '%s' (kernel form: 0-3,8,16-31)", arg);
		break;
	case NN_OPT_RESERVE:
		ret = nn_cpuset_parse_list(arg, &o->reserve);
		if (ret && ret != -ENOMEM)
			nn_err(ctx, "--reserve: bad CPU list '%s' (kernel form: 0,56)", arg);
		o->has_reserve = true;
		break;
	case NN_OPT_POLICY:
		ret = nn_policy_parse(arg, &o->policy);
		if (ret)
			nn_err(ctx, "--policy: unknown policy '%s' (local, spread or remote)", arg);
		break;
	case NN_OPT_RSS:
		ret = nn_rss_policy_parse(arg, &o->rss);
		if (ret)
			nn_err(ctx, "--rss: unknown mode '%s' (local, local:cpu or none)", arg);
		break;
	case NN_OPT_PROFILE:
		o->profile_list = arg && !strcmp(arg, "list");
		ret = o->profile_list ? 0 : nn_profile_parse(arg, &o->profile);
		if (ret)
			nn_err(ctx, "--profile: unknown profile '%s' (throughput, latency, dpdk, none, or list)", arg);
		break;
	case NN_OPT_BUSY_POLL:
		ret = napi_opt(ctx, "busy-poll", arg, NN_NAPI_DEFER_HARD_IRQS, NULL);
		if (!ret)
			o->busy_poll_us = strtoll(arg, NULL, 10);
		if (!ret && (o->busy_poll_us < 1 || o->busy_poll_us > 1000000)) {
			nn_err(ctx, "--busy-poll: expected microseconds from 1 to 1000000, got '%s'", arg);
			ret = -EINVAL;
		}
		break;
	case NN_OPT_BOOT_ARGS: {
		char bad[64] = "";

		o->boot_given = true;
		ret = nn_boot_mode_parse(arg, &o->boot_mode, &o->boot_names, bad, sizeof(bad));
		if (ret)
			nn_err(ctx, "--boot-args: '%s' is not auto, none or a list of hugepages, iommu, isolcpus, "
			       "nohz_full, rcu_nocbs, irqaffinity", bad);
		break;
	}
	case NN_OPT_ISOLATE:
		ret = nn_cpuset_parse_list(arg, &o->isolate);
		if (!ret && nn_cpuset_empty(&o->isolate))
			ret = -EINVAL;
		if (ret && ret != -ENOMEM)
			nn_err(ctx, "--isolate: bad CPU list '%s' (kernel form: 2-7,10)", arg);
		break;
	case NN_OPT_DPDK_PORTS:
		ret = dpdk_ports_opt(ctx, arg, o);
		break;
	case NN_OPT_NOIOMMU:
		o->noiommu = true;
		ret = 0;
		break;
	case NN_OPT_FORCE_PORT:
		o->force_port = true;
		ret = 0;
		break;
	case NN_OPT_RPS:
		o->rps_given = true;
		ret = nn_rps_policy_parse(arg, &o->rps);
		if (ret)
			nn_err(ctx, "--rps: unknown mode '%s' (auto or off)", arg);
		break;
	case NN_OPT_NAPI_DEFER:
		ret = napi_opt(ctx, "napi-defer-hard-irqs", arg, NN_NAPI_DEFER_HARD_IRQS, o);
		break;
	case NN_OPT_GRO_FLUSH:
		ret = napi_opt(ctx, "gro-flush-timeout", arg, NN_NAPI_GRO_FLUSH_TIMEOUT, o);
		break;
	case NN_OPT_IRQ_SUSPEND:
		ret = napi_opt(ctx, "irq-suspend-timeout", arg, NN_NAPI_IRQ_SUSPEND_TIMEOUT, o);
		break;
	case NN_OPT_NAPI_THREADED:
		ret = napi_opt(ctx, "napi-threaded", arg, NN_NAPI_THREADED, o);
		break;
	case NN_OPT_CHANNELS:
		o->channels = true;
		ret = 0;
		break;
	case NN_OPT_NO_XPS:
		o->no_xps = true;
		ret = 0;
		break;
	case NN_OPT_IRQBALANCE:
		ret = strcmp(arg, "none") ? nn_irqbalance_action_parse(arg, &o->irqbalance) : -EINVAL;
		if (ret)
			nn_err(ctx, "--irqbalance: unknown action '%s' (stop, ban or ignore)", arg);
		break;
	case NN_OPT_HUGEPAGES:
		ret = nn_hp_parse_size_count(arg, &o->hugepage_size_kb, &o->hugepage_count);
		if (ret)
			nn_err(ctx, "--hugepages: bad value '%s' (SIZE:COUNT per NIC node, SIZE 2M, 1G or "
			       "2048kB, COUNT a positive number%s)", arg, ret == -ERANGE ? " that fits" : "");
		break;
	default:
		return 1;
	}
	if (ret == -ENOMEM)
		nn_err(ctx, "out of memory");
	return ret ? -1 : 0;
}

/* The plan group's rows a descriptor's groups mask takes. */
static bool plan_takes(unsigned int groups, const struct nn_opt *o)
{
	if (o->id == NN_OPT_IRQBALANCE)
		return groups & NN_GROUP_PLAN_IRQB;
	if (o->id == NN_OPT_RSS)
		return groups & NN_GROUP_RSS;
	if (o->id == NN_OPT_DPDK_PORTS || o->id == NN_OPT_NOIOMMU || o->id == NN_OPT_FORCE_PORT)
		return groups & (NN_GROUP_BOOT | NN_GROUP_PORTS);
	if (o->id == NN_OPT_BOOT_ARGS || o->id == NN_OPT_ISOLATE)
		return groups & NN_GROUP_BOOT;
	if (o->id >= NN_OPT_RPS && o->id <= NN_OPT_BUSY_POLL)
		return groups & NN_GROUP_NET;
	return groups & NN_GROUP_PLAN;
}

const struct nn_opt_group nn_plan_optgroup = {
	.name = "plan",
	.rows = nn_plan_optv,
	.takes = plan_takes,
	.parse = nn_plan_opt,
	.first_id = NN_OPT_NICS,
};

static int has_page_size(const struct nn_topo *t, unsigned long kb, bool *known)
{
	size_t i, k;

	*known = false;
	for (i = 0; i < t->nnodes; i++)
		for (k = 0; k < t->nodes[i].nhugepages; k++) {
			*known = true;
			if (t->nodes[i].hugepages[k].size_kb == kb)
				return 1;
		}
	return 0;
}

int nn_plan_opts_check(struct nn_ctx *ctx, const struct nn_host *host, struct nn_plan_opts *o)
{
	const struct nn_topo *t = &host->topo;
	size_t i;
	bool known;

	if (o->profile_list) {
		nn_err(ctx, "--profile list: only with nicnuma plan (nicnuma plan --profile list)");
		return -EINVAL;
	}
	if (o->busy_poll_us && o->profile != NN_PROFILE_LATENCY) {
		nn_err(ctx, "--busy-poll: only with --profile latency");
		return -EINVAL;
	}
	nn_profile_opts(o, o->rps_given);
	if (!nn_cpuset_empty(&o->isolate)) {
		struct nn_cpuset off = NN_CPUSET_INIT;
		char *l;

		if (o->profile != NN_PROFILE_LATENCY) {
			nn_err(ctx, "--isolate: only with --profile latency (the dpdk profile's lcores are its own)");
			return -EINVAL;
		}
		if (nn_cpuset_copy(&off, &o->isolate))
			return -ENOMEM;
		nn_cpuset_andnot(&off, &t->online);
		if (!nn_cpuset_empty(&off)) {
			l = nn_cpuset_format_list(&off);
			nn_warn(ctx, NULL, "--isolate: CPUs %s are not online; ignored", l ? l : "?");
			free(l);
		}
		nn_cpuset_free(&off);
	}
	/* the profiles that keep CPUs for an application plan their boot
	 * arguments, where the command writes them (plan, apply, check) */
	if (!o->boot_given && o->boot_cmd &&
	    (o->profile == NN_PROFILE_DPDK || o->profile == NN_PROFILE_LATENCY))
		o->boot_mode = NN_BOOT_AUTO;
	if (!o->boot_cmd)
		o->boot_mode = NN_BOOT_NONE;
	if ((o->noiommu || o->force_port) && !o->ndpdk_ports) {
		nn_err(ctx, "--%s: only with --dpdk-ports", o->noiommu ? "noiommu" : "force-port");
		return -EINVAL;
	}
	for (i = 0; i < o->ndpdk_ports; i++) {
		const struct nn_nic *n;
		char *pci;

		if (nn_port_pci_valid(o->dpdk_ports[i]))
			continue;
		n = nn_nic_find(host->nics, host->nnics, o->dpdk_ports[i]);
		if (!n || !n->pci || !nn_port_pci_valid(n->pci)) {
			nn_err(ctx, "--dpdk-ports: %s: %s", o->dpdk_ports[i],
			       n ? "not a PCI function of its own (virtual, or a sub-function)" : "no such NIC");
			return -ENODEV;
		}
		pci = strdup(n->pci);
		if (!pci)
			return -ENOMEM;
		free(o->dpdk_ports[i]);
		o->dpdk_ports[i] = pci;
	}

	for (i = 0; i < o->nnics; i++)
		if (!nn_nic_find(host->nics, host->nnics, o->nics[i])) {
			struct nn_sb have = NN_SB_INIT;
			size_t k;

			for (k = 0; k < host->nnics; k++)
				nn_sb_printf(&have, "%s%s", k ? ", " : "", host->nics[k].name);
			nn_err(ctx, "--nics: no NIC named '%s' on this host (have: %s)", o->nics[i],
			       !host->nnics ? "none" : nn_sb_str(&have) ? nn_sb_str(&have) : "?");
			nn_sb_free(&have);
			return -ENODEV;
		}
	if (!nn_cpuset_empty(&o->cpus)) {
		struct nn_cpuset off = NN_CPUSET_INIT;
		char *l;

		if (!nn_cpuset_intersects(&o->cpus, &t->online)) {
			l = nn_cpuset_format_list(&t->online);
			nn_err(ctx, "--cpus: none of these CPUs is online (online: %s)", l ? l : "?");
			free(l);
			return -EINVAL;
		}
		if (nn_cpuset_copy(&off, &o->cpus))
			return -ENOMEM;
		nn_cpuset_andnot(&off, &t->online);
		if (!nn_cpuset_empty(&off)) {
			l = nn_cpuset_format_list(&off);
			nn_warn(ctx, NULL, "--cpus: CPUs %s are not online; ignored", l ? l : "?");
			free(l);
		}
		nn_cpuset_free(&off);
	}
	if (o->has_reserve && !nn_cpuset_empty(&o->reserve) &&
	    !nn_cpuset_subset(&o->reserve, &t->online)) {
		struct nn_cpuset off = NN_CPUSET_INIT;
		char *l;

		if (nn_cpuset_copy(&off, &o->reserve))
			return -ENOMEM;
		nn_cpuset_andnot(&off, &t->online);
		l = nn_cpuset_format_list(&off);
		nn_warn(ctx, NULL, "--reserve: CPUs %s are not online; ignored", l ? l : "?");
		free(l);
		nn_cpuset_free(&off);
	}
	if (o->hugepage_size_kb && !has_page_size(t, o->hugepage_size_kb, &known)) {
		if (known) {
			nn_err(ctx, "--hugepages: this host has no %lu kB pages (see: nicnuma hugepages show)",
			       o->hugepage_size_kb);
			return -EINVAL;
		}
		nn_warn(ctx, NULL, "--hugepages: the host's page sizes are unknown; planning %lu kB pages anyway",
			o->hugepage_size_kb);
	}
	return 0;
}

int nn_plan_errmsg(struct nn_ctx *ctx, int err)
{
	switch (err) {
	case -EINVAL:
		nn_err(ctx, "no online CPU left to plan on (check --cpus)");
		break;
	case -ENODEV:
		nn_err(ctx, "--nics names a NIC this host does not have");
		break;
	default:
		nn_err(ctx, "planning failed: %s", strerror(-err));
		break;
	}
	return NN_EXIT_ERROR;
}
