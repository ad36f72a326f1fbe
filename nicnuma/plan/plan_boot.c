// SPDX-License-Identifier: GPL-2.0-or-later
/* plan_boot.c - the kernel arguments a plan asks for, each with its reason; --isolate's CPUs
 *
 * Pure, over the host snapshot (host->boot: the running kernel's release
 * and configuration, read where boot arguments are planned) and the plan
 * made so far:
 *  - hugepages: the plan's 1 GB pools, per node where the kernel takes
 *    "hugepages=N:C,.." (Linux 5.16, commit b5389086ad7b), else their total
 *    spread over the nodes with memory (each node's pool is set at run time
 *    as before); 2 MB pools are reserved at run time reliably enough;
 *  - iommu: where a port is planned for vfio-pci with an IOMMU (--dpdk-ports):
 *    Intel's is off unless asked (intel_iommu=on), AMD's is on wherever the
 *    firmware has one (amd_iommu= has no "on"), and iommu=pt keeps the
 *    host's own devices off the IOMMU's page tables (x86); other
 *    architectures take iommu.passthrough=1;
 *  - isolation: the CPUs the plan keeps for the application (--profile
 *    dpdk's lcores, --profile latency --isolate) get isolcpus=managed_irq,
 *    domain (managed_irq: 5.6), nohz_full=, rcu_nocbs=, and every other
 *    online CPU irqaffinity= (the kernel's housekeeping).
 * An argument the running kernel cannot take (built without the option, by
 * its configuration) is left out with the reason under auto; named in
 * --boot-args it is planned anyway, with the reason saying so.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/strbuf.h"
#include "hugepages/hp_target.h"
#include "nicnuma/plan/plan.h"
#include "nicnuma/plan/plan_internal.h"
#include "nicnuma/plan/plan_state.h"

#define GIB_KB 1048576ul

struct bctx {
	struct plan_state *st;
	const struct nn_boot_kernel *k;	/* NULL: the kernel was not read */
	unsigned int want;		/* NN_BARG_* asked for */
	bool named;			/* named in --boot-args, not auto */
	const char *by;			/* "profile dpdk", "--boot-args" */
};

static int add_arg(struct nn_plan *plan, const char *name, const char *source, const char *reason,
		   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static int add_arg(struct nn_plan *plan, const char *name, const char *source, const char *reason,
		   const char *fmt, ...)
{
	struct nn_boot_arg *a, *na = realloc(plan->boot_args, (plan->nboot_args + 1) * sizeof(*na));
	struct nn_sb sb = NN_SB_INIT;
	va_list ap;

	if (!na)
		return -ENOMEM;
	plan->boot_args = na;
	a = &na[plan->nboot_args];
	memset(a, 0, sizeof(*a));
	va_start(ap, fmt);
	nn_sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	a->name = strdup(name);
	a->source = strdup(source);
	a->reason = strdup(reason);
	plan->nboot_args++;
	if (nn_sb_steal(&sb, &a->text) || !a->name || !a->source || !a->reason)
		return -ENOMEM;
	return 0;
}

static int skip(struct nn_plan *plan, const char *name, const char *source, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int skip(struct nn_plan *plan, const char *name, const char *source, const char *fmt, ...)
{
	struct nn_boot_skip *s, *ns = realloc(plan->boot_left, (plan->nboot_left + 1) * sizeof(*ns));
	struct nn_sb sb = NN_SB_INIT;
	va_list ap;

	if (!ns)
		return -ENOMEM;
	plan->boot_left = ns;
	s = &ns[plan->nboot_left];
	memset(s, 0, sizeof(*s));
	va_start(ap, fmt);
	nn_sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	s->name = strdup(name);
	s->source = strdup(source);
	plan->nboot_left++;
	if (nn_sb_steal(&sb, &s->reason) || !s->name || !s->source)
		return -ENOMEM;
	return 0;
}

/* Whether the running kernel is built with @k: 1, 0, -1 unknown (no configuration found). */
static int built(const struct bctx *b, enum nn_kconf k)
{
	return b->k ? b->k->config[k] : -1;
}

/* The reason's tail for an option the configuration does not show: auto
 * leaves it out (0 returned, a skip added), a name plans it anyway (1).
 * Built or unknown: 1 with @note saying which. */
static int takes(struct bctx *b, const char *name, const char *source, enum nn_kconf k, char *note,
		 size_t len)
{
	int c = built(b, k);

	note[0] = '\0';
	if (c < 0)
		snprintf(note, len, " (the kernel's configuration was not found: %s assumed)", nn_kconf_name(k));
	if (c != 0)
		return 1;
	if (b->named) {
		snprintf(note, len, " (named in --boot-args although %s is built without %s)",
			 b->k->config_file, nn_kconf_name(k));
		return 1;
	}
	return skip(b->st->plan, name, source, "the running kernel is built without %s (%s)", nn_kconf_name(k),
		    b->k->config_file) ? -ENOMEM : 0;
}

static int plan_hugepages(struct bctx *b)
{
	struct nn_plan *plan = b->st->plan;
	const struct nn_topo *t = b->st->topo;
	char words[512], note[400];
	long max = 0;
	size_t i, nmem = 0, n1g = 0;
	int r, at;

	for (i = 0; i < plan->nhugepages; i++)
		if (plan->hugepages[i].size_kb == GIB_KB && plan->hugepages[i].target > 0) {
			n1g++;
			if (plan->hugepages[i].target > max)
				max = plan->hugepages[i].target;
		}
	if (!n1g)
		return b->named ? skip(plan, "hugepages", "hugepages", "the plan reserves no 1 GB pages "
				       "(--hugepages 1G:COUNT)") : 0;
	r = takes(b, "hugepages", "hugepages", NN_KCONF_HUGETLBFS, note, sizeof(note));
	if (r <= 0)
		return r;
	at = b->k ? nn_boot_kernel_at_least(b->k, 5, 16) : -1;
	if (at == 1) {
		r = nn_hp_format_boot_args(GIB_KB, plan->hugepages, plan->nhugepages, words, sizeof(words));
		if (r < 0)
			return r == -ENOMEM ? r : 0;
		struct nn_sb why = NN_SB_INIT;

		nn_sb_printf(&why, "the plan's 1 GB pools, reserved at boot on each node before memory fragments "
			     "(a 1 GB page is rarely free later)%s", note);
		r = nn_sb_str(&why) ? add_arg(plan, "hugepages", "hugepages", nn_sb_str(&why), "%s", words) : -ENOMEM;
		nn_sb_free(&why);
		return r ? -ENOMEM : 0;
	}
	for (i = 0; i < t->nnodes; i++)
		nmem += t->nodes[i].mem_total_kb != 0;
	if (!nmem)
		nmem = 1;
	{
		struct nn_sb why = NN_SB_INIT;

		nn_sb_printf(&why, "the plan's 1 GB pools, reserved at boot before memory fragments; the kernel "
			     "%s%s takes no per-node count (Linux 5.16), so %ld on each of the %zu nodes with "
			     "memory, and apply sets each node's pool at run time%s",
			     b->k && b->k->release[0] ? b->k->release : "(release unknown)", at < 0 ? " may" : "",
			     max, nmem, note);
		r = nn_sb_str(&why) ? add_arg(plan, "hugepages", "hugepages", nn_sb_str(&why),
					      "hugepagesz=1G hugepages=%ld", max * (long)nmem) : -ENOMEM;
		nn_sb_free(&why);
		return r ? -ENOMEM : 0;
	}
}

static int plan_iommu(struct bctx *b)
{
	struct nn_plan *plan = b->st->plan;
	const char *vendor = b->st->topo->knobs.cpu_vendor;
	char note[400], reason[1024];
	size_t i, nvfio = 0, nunsafe = 0;
	int r;

	for (i = 0; i < plan->nports; i++) {
		if (strcmp(plan->ports[i].driver, "vfio-pci"))
			continue;
		if (plan->ports[i].noiommu)
			nunsafe++;
		else
			nvfio++;
	}
	if (!nvfio) {
		if (nunsafe)
			return skip(plan, "iommu", "iommu", "the ports go to vfio-pci in no-IOMMU mode (--noiommu)");
		return b->named ? skip(plan, "iommu", "iommu", "no port is planned for vfio-pci (--dpdk-ports)") : 0;
	}
	if (!strcmp(vendor, "GenuineIntel")) {
		r = takes(b, "intel_iommu", "iommu", NN_KCONF_INTEL_IOMMU, note, sizeof(note));
		if (r < 0)
			return r;
		if (r) {
			snprintf(reason, sizeof(reason), "%zu port(s) go to vfio-pci, which needs the IOMMU; "
				 "Intel's VT-d is off unless the kernel is asked%s", nvfio, note);
			if (add_arg(plan, "intel_iommu", "iommu", reason, "intel_iommu=on"))
				return -ENOMEM;
		}
	} else if (!strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine")) {
		r = takes(b, "iommu", "iommu", NN_KCONF_AMD_IOMMU, note, sizeof(note));
		if (r <= 0)
			return r;
	} else if (!vendor[0] || !strcmp(vendor, "IBM/S390")) {
		if (!b->named)
			return skip(plan, "iommu", "iommu", "the CPU vendor is %s: no IOMMU argument is planned "
				    "(x86: intel_iommu=on iommu=pt; elsewhere iommu.passthrough=1)",
				    vendor[0] ? vendor : "unknown");
		return add_arg(plan, "iommu.passthrough", "iommu", "named in --boot-args: the host's own devices "
			       "bypass the IOMMU, vfio-pci's ports are translated (drivers/iommu)",
			       "iommu.passthrough=1") ? -ENOMEM : 0;
	} else {
		return skip(plan, "iommu", "iommu", "CPU vendor %s: nicnuma plans the IOMMU's arguments for "
			    "GenuineIntel, AuthenticAMD and HygonGenuine only", vendor);
	}
	snprintf(reason, sizeof(reason), "%zu port(s) go to vfio-pci: passthrough keeps the host's own devices "
		 "off the IOMMU's page tables (DMA at full speed) while vfio-pci's ports are translated%s", nvfio,
		 strcmp(vendor, "GenuineIntel") ? "; AMD's IOMMU is on wherever the firmware has one "
		 "(amd_iommu= takes no \"on\")" : "");
	return add_arg(plan, "iommu", "iommu", reason, "iommu=pt") ? -ENOMEM : 0;
}

/* The application's CPUs (the dpdk lcores, --isolate) and the kernel's. */
static int plan_isolation(struct bctx *b)
{
	struct nn_plan *plan = b->st->plan;
	struct nn_cpuset app = NN_CPUSET_INIT, hk = NN_CPUSET_INIT;
	const char *whose;
	char *alist = NULL, *hlist = NULL, note[200], reason[512];
	int r = 0, at;

	if (nn_cpuset_or(&app, &plan->dpdk_lcores) || nn_cpuset_or(&app, &plan->isolate) ||
	    nn_cpuset_copy(&hk, &b->st->topo->online)) {
		r = -ENOMEM;
		goto out;
	}
	nn_cpuset_and(&app, &b->st->topo->online);
	nn_cpuset_andnot(&hk, &app);
	whose = !nn_cpuset_empty(&plan->dpdk_lcores) ? "the dpdk profile's lcores" : "--isolate's CPUs";
	if (nn_cpuset_empty(&app)) {
		if (b->named && (b->want & (NN_BARG_ISOLCPUS | NN_BARG_NOHZ_FULL | NN_BARG_RCU_NOCBS |
					    NN_BARG_IRQAFFINITY)))
			r = skip(plan, "isolcpus", "isolation", "the plan keeps no CPU for an application "
				 "(--profile dpdk's lcores, --profile latency --isolate CPUS)");
		goto out;
	}
	if (nn_cpuset_empty(&hk)) {
		r = skip(plan, "isolcpus", "isolation", "%s are every online CPU: the kernel would have none left",
			 whose);
		goto out;
	}
	alist = nn_cpuset_format_list(&app);
	hlist = nn_cpuset_format_list(&hk);
	if (!alist || !hlist) {
		r = -ENOMEM;
		goto out;
	}
	if (b->want & NN_BARG_ISOLCPUS) {
		r = takes(b, "isolcpus", "isolation", NN_KCONF_CPU_ISOLATION, note, sizeof(note));
		at = b->k ? nn_boot_kernel_at_least(b->k, 5, 6) : -1;
		snprintf(reason, sizeof(reason), "%s (%s): no scheduler load balancing (domain)%s there; "
			 "threads run where they are pinned%s%s", b->by, whose,
			 at != 0 ? " and no managed IRQ while another CPU can take it (managed_irq)" : "",
			 at == 0 ? " (managed_irq needs Linux 5.6)" : "", note);
		if (r > 0)
			r = add_arg(plan, "isolcpus", "isolation", reason, "isolcpus=%s%s", at != 0 ?
				    "managed_irq,domain," : "domain,", alist) ? -ENOMEM : 0;
		if (r < 0)
			goto out;
	}
	if (b->want & NN_BARG_NOHZ_FULL) {
		r = takes(b, "nohz_full", "isolation", NN_KCONF_NO_HZ_FULL, note, sizeof(note));
		snprintf(reason, sizeof(reason), "%s (%s): the scheduler tick stops while one task runs there%s",
			 b->by, whose, note);
		if (r > 0)
			r = add_arg(plan, "nohz_full", "isolation", reason, "nohz_full=%s", alist) ? -ENOMEM : 0;
		if (r < 0)
			goto out;
	}
	if (b->want & NN_BARG_RCU_NOCBS) {
		r = takes(b, "rcu_nocbs", "isolation", NN_KCONF_RCU_NOCB_CPU, note, sizeof(note));
		snprintf(reason, sizeof(reason), "%s (%s): RCU callbacks run on the kernel's CPUs, not there%s",
			 b->by, whose, note);
		if (r > 0)
			r = add_arg(plan, "rcu_nocbs", "isolation", reason, "rcu_nocbs=%s", alist) ? -ENOMEM : 0;
		if (r < 0)
			goto out;
	}
	if (b->want & NN_BARG_IRQAFFINITY) {
		snprintf(reason, sizeof(reason), "%s: every IRQ starts on the kernel's CPUs (all online CPUs but "
			 "%s); nicnuma then places the NICs' queue IRQs", b->by, whose);
		r = add_arg(plan, "irqaffinity", "isolation", reason, "irqaffinity=%s", hlist) ? -ENOMEM : 0;
	}
out:
	free(alist);
	free(hlist);
	nn_cpuset_free(&app);
	nn_cpuset_free(&hk);
	return r < 0 ? r : 0;
}

void nn_plan_boot_mode_text(enum nn_boot_mode m, unsigned int names, char *buf, size_t len)
{
	if (m == NN_BOOT_NAMED)
		nn_boot_names_format(names, buf, len);
	else
		snprintf(buf, len, "%s", m == NN_BOOT_AUTO ? "auto" : "none");
}

int nn__plan_boot(struct plan_state *st)
{
	const struct nn_plan_opts *o = st->opts;
	const struct nn_host *h = st->host;
	struct bctx b = { .st = st };
	int r;

	st->plan->boot_mode = o->boot_mode;
	st->plan->boot_names = o->boot_mode == NN_BOOT_NAMED ? o->boot_names : 0;
	st->plan->boot_given = o->boot_given;
	if (o->boot_mode == NN_BOOT_NONE)
		return 0;
	b.k = h->boot.read ? &h->boot.kernel : NULL;
	b.named = o->boot_mode == NN_BOOT_NAMED;
	b.want = b.named ? o->boot_names : NN_BARG_ALL;
	b.by = b.named ? "--boot-args" : o->profile != NN_PROFILE_NONE ? (o->profile == NN_PROFILE_DPDK ?
									  "profile dpdk" : "profile latency")
		: "--boot-args auto";
	if (!b.k &&
	    nn__plan_warn(st, "boot arguments: the running kernel was not read: its release and configuration are "
			  "unknown"))
		return -ENOMEM;
	r = (b.want & NN_BARG_HUGEPAGES) ? plan_hugepages(&b) : 0;
	if (!r && (b.want & NN_BARG_IOMMU))
		r = plan_iommu(&b);
	if (!r)
		r = plan_isolation(&b);
	return r;
}

int nn_plan_boot(const struct nn_host *host, const struct nn_plan_opts *opts, struct nn_plan *plan)
{
	struct plan_state st;

	memset(&st, 0, sizeof(st));
	st.host = host;
	st.topo = &host->topo;
	st.opts = opts;
	st.plan = plan;
	nn_boot_args_free(plan->boot_args, plan->nboot_args);
	nn_boot_skips_free(plan->boot_left, plan->nboot_left);
	plan->boot_args = NULL;
	plan->boot_left = NULL;
	plan->nboot_args = plan->nboot_left = 0;
	return nn__plan_boot(&st);
}

int nn__plan_isolate(struct plan_state *st)
{
	const struct nn_plan_opts *o = st->opts;
	struct nn_plan *plan = st->plan;
	struct nn_cpuset rest = NN_CPUSET_INIT;
	char *list;
	int err;

	if (nn_cpuset_empty(&o->isolate))
		return 0;
	if (nn_cpuset_copy(&plan->isolate, &o->isolate))
		return -ENOMEM;
	nn_cpuset_and(&plan->isolate, &st->topo->online);
	if (nn_cpuset_copy(&rest, &st->allowed)) {
		nn_cpuset_free(&rest);
		return -ENOMEM;
	}
	nn_cpuset_andnot(&rest, &plan->isolate);
	list = nn_cpuset_format_list(&plan->isolate);
	if (!list) {
		nn_cpuset_free(&rest);
		return -ENOMEM;
	}
	if (nn_cpuset_empty(&rest)) {
		/* the application would take every CPU NIC work may use */
		err = nn__plan_add_warning(plan, "--isolate %s leaves no CPU for the kernel's NIC work: the NIC "
					   "work is placed as without it", list);
		nn_cpuset_free(&plan->isolate);
	} else {
		nn_cpuset_andnot(&st->allowed, &plan->isolate);
		nn_cpuset_andnot(&st->hk, &plan->isolate);
		err = 0;
		if (nn_cpuset_empty(&st->hk) && nn_cpuset_set(&st->hk, (unsigned int)nn_cpuset_first(&st->allowed)))
			err = -ENOMEM;
	}
	free(list);
	nn_cpuset_free(&rest);
	return err;
}
