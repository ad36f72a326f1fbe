// SPDX-License-Identifier: GPL-2.0-or-later
/* script.c - render a plan as a standalone POSIX sh script
 *
 * The script is the fixed helpers of script_lib.c plus data: host checks and
 * one line per value. Every name and path the plan carries goes through
 * nn_shquote() (core/strbuf.h, the one sh quoter), so an interface called `a$(touch x)` or `;'` is a literal;
 * names that reach comments are made printable first (a newline there would
 * end the comment).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/fileio.h"
#include "nicnuma/core/strbuf.h"
#include "nicnuma/discover/ethtool_nl.h"
#include "hugepages/hugepages.h"
#include "irq/affinity.h"
#include "irq/napi_conf.h"
#include "irq/rps.h"
#include "nicnuma/emit/script.h"
#include "nicnuma/plan/script_text.h"

#define NN_BANNED_DROPIN "/etc/systemd/system/irqbalance.service.d/nicnuma-ban.conf"

/* Writer state: the first error sticks, so the body reads straight. */
struct w {
	FILE *fp;
	int err;
};

static void put(struct w *w, const char *s)
{
	if (!w->err && fputs(s, w->fp) == EOF)
		w->err = -EIO;
}

static void putf(struct w *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(struct w *w, const char *fmt, ...)
{
	va_list ap;

	if (w->err)
		return;
	va_start(ap, fmt);
	if (vfprintf(w->fp, fmt, ap) < 0)
		w->err = -EIO;
	va_end(ap);
}

/* One quoted word followed by @sep. */
static void word(struct w *w, const char *s, const char *sep)
{
	char *q;

	if (w->err)
		return;
	q = nn_shquote(s ? s : "");
	if (!q) {
		w->err = -ENOMEM;
		return;
	}
	put(w, q);
	put(w, sep);
	free(q);
}

/* Text for a comment line: printable ASCII only. */
static void comment_text(struct w *w, const char *s)
{
	char buf[256];
	size_t i, n = 0;

	for (i = 0; s && s[i] && n < sizeof(buf) - 1; i++)
		buf[n++] = (unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f ? s[i] : '?';
	buf[n] = '\0';
	put(w, buf);
}

/* What a plan holds that the script does not carry, each named with what sets it. */
static void left_out(struct w *w, const struct nn_plan *p)
{
	size_t i;

	for (i = 0; i < p->nrss; i++) {
		put(w, "# Left out: the RSS indirection table of ");
		comment_text(w, p->rss[i].nic);
		putf(w, " (%zu rx queues): its restore needs\n"
			"# the whole old table; nicnuma apply sets it.\n", p->rss[i].nqueues);
	}
	for (i = 0; i < p->nports; i++) {
		put(w, "# Left out: the driver binding of port ");
		comment_text(w, p->ports[i].pci);
		put(w, "; nicnuma apply binds it.\n");
	}
	if (p->nboot_args)
		putf(w, "# Left out: %zu kernel arguments; they need the boot loader and a reboot\n"
			"# (nicnuma apply writes them through the boot loader).\n", p->nboot_args);
}

static void header(struct w *w, const struct nn_plan *p, const struct nn_script_opts *o)
{
	size_t i, n;

	put(w, "#!/bin/sh\n"
	       "# shellcheck disable=SC2317 # helpers stay unused when nothing of their kind is planned\n"
	       "# shellcheck disable=SC2016 # names such as a$(x) are single-quoted to stay literal\n"
	       "#\n"
	       "# nicnuma script: puts queue IRQs, XPS masks, channel counts, coalescing,\n"
	       "# ring sizes and hugepages where a nicnuma plan says, on a host without nicnuma.\n");
	put(w, "# Made by nicnuma ");
	comment_text(w, o && o->version ? o->version : "");
	put(w, " from ");
	comment_text(w, o && o->source ? o->source : "a plan");
	putf(w, ", policy %s.\n", nn_policy_name(p->policy));
	putf(w, "# For a host with %d CPUs, %d NUMA node%s", p->shape.ncpus, p->shape.nnodes,
	     p->shape.nnodes == 1 ? "" : "s");
	if (p->shape.npci)
		put(w, " and NICs at");
	for (i = 0; i < p->shape.npci; i++) {
		put(w, " ");
		comment_text(w, p->shape.pci[i]);
	}
	put(w, "; it refuses any other.\n");
	putf(w, "# Values: %zu IRQ affinities, %zu XPS masks, %zu NAPI threads, %zu channel counts,\n"
		"# %zu coalescing and ring values (ethtool -C/-G), %zu hugepage counts; irqbalance: %s.\n",
	     p->nirqs, p->nxps, p->nnapi_threads, p->nchannels, p->neth, p->nhugepages,
	     nn_irqbalance_action_name(p->irqbalance.action));
	if (p->nrps && p->rps_sock_flow_entries > 0)
		putf(w, "# RPS/RFS: %zu rx queues, rps_sock_flow_entries at least %ld.\n", p->nrps,
		     p->rps_sock_flow_entries);
	else if (p->nrps)
		putf(w, "# RPS: %zu rx queues (masks found on CPUs that take no NIC work).\n", p->nrps);
	for (i = 0; i < p->nsysctls; i++)
		putf(w, "# sysctl %s = %lld (busy polling).\n", nn_busy_name(p->sysctls[i].which),
		     p->sysctls[i].value);
	for (i = 0, n = 0; i < p->nnapi_conf; i++)
		n += p->napi_conf[i].napi_id > 0;
	if (n)
		putf(w, "# Left out: %zu per-NAPI settings. They need netdev netlink (napi-set),\n"
			"# which sh cannot speak; nicnuma apply sets them. Device-wide NAPI files are in.\n", n);
	left_out(w, p);
	put(w, "#\n"
	       "# Usage, as root:\n"
	       "#   sh SCRIPT                  check the host, save a restore script, apply,\n"
	       "#                              read every value back\n"
	       "#   sh SCRIPT --dry-run        check the host, say what would change; change\n"
	       "#                              nothing (--check: the same, exit 1 if anything would)\n"
	       "#   sh SCRIPT --help           this usage; any other argument is refused (exit 2)\n"
	       "#   NICNUMA_RESTORE=FILE sh SCRIPT\n"
	       "#                              where the restore script goes (default below)\n"
	       "#   ROOT=DIR sh SCRIPT         act on a copy of /sys and /proc under DIR (tests);\n"
	       "#                              irqbalance and ethtool are then left alone\n"
	       "# Values already in place are left alone, so running it again is harmless.\n"
	       "# An IRQ that refuses even its current value is kernel-managed and skipped.\n"
	       "# Exit status: 0 done, 1 some value failed (see the messages), 2 refused\n"
	       "# (another host shape, or the current values could not be read or saved):\n"
	       "# nothing was changed.\n"
	       "set -u\n"
	       "umask 077\n"
	       "LC_ALL=C\n"
	       "export LC_ALL\n"
	       "\n"
	       "ROOT=${ROOT:-}\n"
	       "RESTORE=${NICNUMA_RESTORE:-$ROOT");
	word(w, o && o->restore_dir ? o->restore_dir : "/var/lib/nicnuma", "");
	put(w, "/restore-$(date +%Y%m%dT%H%M%S)-$$.sh}\n");
	putf(w, "IRQBALANCE=%s\n", nn_irqbalance_action_name(p->irqbalance.action));
}

static void banned(struct w *w, const struct nn_plan *p)
{
	size_t i;

	put(w, "BANNED_IRQS='");
	for (i = 0; i < p->nirqs; i++)
		putf(w, "%s%d", i ? " " : "", p->irqs[i].irq);
	put(w, "'\nBANNED_ARGS='");
	for (i = 0; i < p->nirqs; i++)
		putf(w, "%s--banirq=%d", i ? " " : "", p->irqs[i].irq);
	put(w, "'\nBANNED_DROPIN=" NN_BANNED_DROPIN "\n"
	       "nfail=0 nset=0 nsame=0 nmanaged=0 nchange=0 refuse=0\n\n");
}

static bool listed(const struct nn_plan *p, const char *nic)
{
	size_t i;

	for (i = 0; i < p->nnics; i++)
		if (!strcmp(p->nics[i].nic, nic))
			return true;
	return false;
}

/* A NIC named by IRQs/XPS/channels but not in plan->nics (a hand-trimmed plan):
 * its existence is still checked, once. */
static void check_extra(struct w *w, const struct nn_plan *p, const char *nic, const char **seen,
			size_t *nseen)
{
	size_t i;

	if (listed(p, nic))
		return;
	for (i = 0; i < *nseen; i++)
		if (!strcmp(seen[i], nic))
			return;
	seen[(*nseen)++] = nic;
	put(w, "\tcheck_nic ");
	word(w, nic, " '' -1\n");
}

static void checks(struct w *w, const struct nn_plan *p)
{
	size_t i, nseen = 0, cap = p->nirqs + p->nxps + p->nchannels + p->neth + 1;
	const char **seen = calloc(cap, sizeof(*seen));

	if (!seen) {
		w->err = -ENOMEM;
		return;
	}
	putf(w, "checks() {\n\tcheck_cpus %d\n\tcheck_nodes %d\n", p->shape.ncpus, p->shape.nnodes);
	for (i = 0; i < p->nnics; i++) {
		put(w, "\tcheck_nic ");
		word(w, p->nics[i].nic, " ");
		word(w, p->nics[i].pci ? p->nics[i].pci : "", " ");
		putf(w, "%d\n", p->nics[i].numa_node >= 0 ? p->nics[i].numa_node : -1);
	}
	for (i = 0; i < p->nirqs; i++)
		check_extra(w, p, p->irqs[i].nic, seen, &nseen);
	for (i = 0; i < p->nxps; i++)
		check_extra(w, p, p->xps[i].nic, seen, &nseen);
	for (i = 0; i < p->nchannels; i++)
		check_extra(w, p, p->channels[i].nic, seen, &nseen);
	for (i = 0; i < p->neth; i++)
		check_extra(w, p, p->eth[i].nic, seen, &nseen);
	for (i = 0; i < p->nirqs; i++) {
		put(w, "\tcheck_irq ");
		word(w, p->irqs[i].nic, "");
		putf(w, " %d\n", p->irqs[i].irq);
	}
	put(w, "}\n\n");
	free(seen);
}

static int item(struct w *w, const char *label, const char *path, const char *kind, const char *val)
{
	put(w, "\t\"$1\" ");
	word(w, label, " ");
	word(w, path, " ");
	putf(w, "%s ", kind);
	word(w, val, "\n");
	return w->err;
}

static void items(struct w *w, const struct nn_plan *p)
{
	char *label = NULL, *path = NULL, *val = NULL, *list = NULL;
	size_t i;

	put(w, "items() {\n");
	for (i = 0; i < p->nirqs && !w->err; i++) {
		const struct nn_plan_irq *q = &p->irqs[i];
		const char *dir = nn_qdir_name(q->dir);
		char irqpath[64];
		int r;

		if (q->queue >= 0)
			r = asprintf(&label, "IRQ %d (%s queue %d%s%s)", q->irq, q->nic, q->queue,
				     dir ? " " : "", dir ? dir : "");
		else
			r = asprintf(&label, "IRQ %d (%s, not a queue)", q->irq, q->nic);
		val = nn_cpuset_format_list(&q->cpus);
		if (r < 0 || nn_irq_path(irqpath, sizeof(irqpath), q->irq, "smp_affinity_list") ||
		    !(path = strdup(irqpath)) || !val)
			w->err = -ENOMEM;
		else
			item(w, label, path, "list", val);
		free(label);
		free(path);
		free(val);
		label = path = val = NULL;
	}
	for (i = 0; i < p->nxps && !w->err; i++) {
		const struct nn_plan_xps *x = &p->xps[i];

		val = nn_cpuset_format_mask(&x->cpus, 0);
		/* the label names the CPUs as a list: the mask is the kernel's word */
		list = nn_cpuset_format_list(&x->cpus);
		if (!list || asprintf(&label, "XPS %s tx-%d, CPUs %s", x->nic, x->queue, list) < 0 ||
		    asprintf(&path, "/sys/class/net/%s/queues/tx-%d/xps_cpus", x->nic, x->queue) < 0 || !val)
			w->err = -ENOMEM;
		else
			item(w, label, path, "mask", val);
		free(label);
		free(path);
		free(val);
		free(list);
		label = path = val = list = NULL;
	}
	if (p->rps_sock_flow_entries > 0 && !w->err) {
		char num[32];

		snprintf(num, sizeof(num), "%ld", p->rps_sock_flow_entries);
		item(w, "RFS rps_sock_flow_entries (at least)", NN_RPS_SOCK_FLOW_PATH, "atleast", num);
	}
	for (i = 0; i < p->nrps && !w->err; i++) {
		const struct nn_plan_rps *r = &p->rps[i];
		char rpath[320], num[32];

		val = nn_cpuset_format_mask(&r->cpus, 0);
		list = nn_cpuset_format_list(&r->cpus);
		if (!list || asprintf(&label, "RPS %s rx-%d rps_cpus, CPUs %s", r->nic, r->queue,
				      list[0] ? list : "none") < 0 || !val ||
		    nn_rps_path(rpath, sizeof(rpath), r->nic, r->queue, NN_RPS_CPUS)) {
			w->err = -ENOMEM;
		} else {
			item(w, label, rpath, "mask", val);
			free(label);
			label = NULL;
			if (r->flow_cnt < 0)
				goto next;	/* a keep-off entry: rps_flow_cnt left as it is */
			nn_rps_path(rpath, sizeof(rpath), r->nic, r->queue, NN_RPS_FLOW_CNT);
			snprintf(num, sizeof(num), "%ld", r->flow_cnt);
			if (asprintf(&label, "RFS %s rx-%d rps_flow_cnt", r->nic, r->queue) < 0)
				w->err = -ENOMEM;
			else
				item(w, label, rpath, "num", num);
		}
next:
		free(label);
		free(val);
		free(list);
		label = val = list = NULL;
	}
	/* Per-NAPI settings need netdev netlink (napi-set), which sh cannot
	 * speak: only the device-wide files are in a script (see header). */
	for (i = 0; i < p->nnapi_conf && !w->err; i++) {
		const struct nn_plan_napi_conf *c = &p->napi_conf[i];
		char npath[320], num[32];

		if (c->napi_id > 0)
			continue;
		snprintf(num, sizeof(num), "%lld", c->value);
		if (asprintf(&label, "NAPI %s %s (device-wide)", c->nic, nn_napi_attr_name(c->attr)) < 0 ||
		    nn_napi_dev_path(npath, sizeof(npath), c->nic, c->attr))
			w->err = -ENOMEM;
		else
			item(w, label, npath, "num", num);
		free(label);
		label = NULL;
	}
	for (i = 0; i < p->nsysctls && !w->err; i++) {
		char num[32], lab[64];

		snprintf(num, sizeof(num), "%lld", p->sysctls[i].value);
		snprintf(lab, sizeof(lab), "sysctl %s", nn_busy_name(p->sysctls[i].which));
		item(w, lab, nn_busy_path(p->sysctls[i].which), "num", num);
	}
	for (i = 0; i < p->nhugepages && !w->err; i++) {
		const struct nn_plan_hugepages *h = &p->hugepages[i];
		char num[32], pool[256];

		snprintf(num, sizeof(num), "%ld", h->target);
		/* the pool path the one way every pool path is made (numa: a
		 * plan's hugepages are per node) */
		if (nn_hp_pool_path(true, h->node, h->size_kb, "nr_hugepages", pool, sizeof(pool)))
			w->err = -ERANGE;
		else if (asprintf(&label, "hugepages node %d (%lu kB)", h->node, h->size_kb) < 0)
			w->err = -ENOMEM;
		else
			item(w, label, pool, "num", num);
		free(label);
		label = NULL;
	}
	put(w, "\t:\n}\n\n");
	put(w, "chans() {\n");
	for (i = 0; i < p->nchannels; i++) {
		put(w, "\t\"$1\" ");
		word(w, p->channels[i].nic, "");
		putf(w, " %d\n", p->channels[i].target);
	}
	put(w, "\t:\n}\n\n");
	/* "$1" NIC C|G NAME VALUE: ethtool's option (-C coalescing, -G rings),
	 * its name and the value as ethtool -c/-g print it (on/off for the
	 * adaptive flags). */
	put(w, "eths() {\n");
	for (i = 0; i < p->neth && !w->err; i++) {
		const struct nn_plan_eth *e = &p->eth[i];

		if (e->value < 0 || e->value > nn_eth_setting_max(e->setting)) {
			w->err = -ERANGE;
			break;
		}
		put(w, "\t\"$1\" ");
		word(w, e->nic, " ");
		putf(w, "%s %s ", nn_eth_setting_is_ring(e->setting) ? "G" : "C", nn_eth_setting_name(e->setting));
		if (e->setting == NN_ETH_ADAPTIVE_RX || e->setting == NN_ETH_ADAPTIVE_TX)
			put(w, e->value ? "on\n" : "off\n");
		else
			putf(w, "%lld\n", e->value);
	}
	put(w, "\t:\n}\n\n");
	put(w, "napis() {\n");
	for (i = 0; i < p->nnapi_threads && !w->err; i++) {
		const struct nn_plan_napi *t = &p->napi_threads[i];

		val = nn_cpuset_format_list(&t->cpus);
		if (!val) {
			w->err = -ENOMEM;
			break;
		}
		put(w, "\t\"$1\" ");
		word(w, t->nic, " ");
		putf(w, "%lld %d ", t->napi_id, t->pid);
		word(w, t->name, " ");
		word(w, val, "\n");
		free(val);
		val = NULL;
	}
	put(w, "\t:\n}\n\n");
}

static void restore_head(struct w *w)
{
	put(w, "restore_head() {\n\tcat <<'NICNUMA_RESTORE_HEAD'\n");
	put(w, nn_script_restore_head);
	put(w, "NICNUMA_RESTORE_HEAD\n}\n\n");
}

static const char script_main[] =
	"usage() {\n"
	"\tcat <<'NICNUMA_USAGE'\n"
	"usage: sh SCRIPT [--dry-run | --check | --help], as root\n"
	"  (none)          check the host, save a restore script, apply, read every value back\n"
	"  -n, --dry-run   check the host and say what would change; change nothing (exit 0)\n"
	"  --check         the same; exit 1 when anything would change\n"
	"  -h, --help      this text\n"
	"  NICNUMA_RESTORE=FILE  where the restore script goes; ROOT=DIR  act on a copy of /sys and /proc\n"
	"Exit status: 0 done, 1 some value failed (or --check found one to change), 2 refused:\n"
	"nothing was changed.\n"
	"NICNUMA_USAGE\n"
	"}\n"
	"# Arguments are checked before anything is written: a stray one changes nothing.\n"
	"MODE=apply\n"
	"if [ $# -gt 1 ]; then\n"
	"\twarn 'one argument at most (--help lists them): nothing changed'\n"
	"\texit 2\n"
	"fi\n"
	"case ${1-} in\n"
	"'') ;;\n"
	"-h | --help)\n"
	"\tusage\n"
	"\texit 0\n"
	"\t;;\n"
	"-n | --dry-run) MODE=dry ;;\n"
	"--check) MODE=check ;;\n"
	"*)\n"
	"\twarn \"unknown argument $(printf '%s' \"$1\" | tr -c '[:graph:]' '?') (--help lists them): nothing changed\"\n"
	"\texit 2\n"
	"\t;;\n"
	"esac\n"
	"\n"
	"ETMP=$(mktemp \"${TMPDIR:-/tmp}/nicnuma-script.XXXXXX\") || {\n"
	"\twarn 'cannot create a temporary file'\n"
	"\texit 2\n"
	"}\n"
	"RTMP=\n"
	"trap 'rm -f \"$ETMP\" ${RTMP:+\"$RTMP\"}' EXIT\n"
	"trap 'exit 2' HUP INT TERM\n"
	"\n"
	"checks\n"
	"if [ \"$refuse\" -ne 0 ]; then\n"
	"\twarn 'this is not the host the plan was made for: nothing changed'\n"
	"\texit 2\n"
	"fi\n"	"if [ \"$MODE\" != apply ]; then\n"
	"\tchans chan_preview\n"
	"\teths eth_preview\n"
	"\titems preview\n"
	"\tnapis napi_preview\n"
	"\t[ \"$IRQBALANCE\" = none ] || say \"irqbalance: a real run would $IRQBALANCE it if it runs\"\n"
	"\tsay \"dry run: $nchange would change, $nsame already in place, $nfail unreadable; nothing changed\"\n"
	"\t[ \"$nfail\" -eq 0 ] || exit 2\n"
	"\t[ \"$MODE\" = check ] && [ \"$nchange\" -ne 0 ] && exit 1\n"
	"\texit 0\n"
	"fi\n"
	"# The restore script exists before the first change; it is written to a\n"
	"# temporary name and renamed, so it is whole or absent.\n"
	"# shellcheck disable=SC2016 # ${ROOT-...} is for the restore script\n"
	"# The temporary name is mktemp's (O_EXCL, unpredictable) in a directory\n"
	"# only we can write, so no one else can plant or swap the script.\n"
	"if ! mkdir -p \"${RESTORE%/*}\" || ! own_dir \"${RESTORE%/*}\" ||\n"
	"\t! RTMP=$(mktemp \"${RESTORE%/*}/.nicnuma-restore.XXXXXX\") ||\n"
	"\t! { restore_head && printf 'ROOT=${ROOT-%s}\\n' \"$(q \"$ROOT\")\"; } >\"$RTMP\"; then\n"
	"\twarn \"cannot write the restore script $RESTORE: nothing changed\"\n"
	"\texit 2\n"
	"fi\n"
	"chans chan_snap\n"
	"eths eth_snap\n"
	"items snap\n"
	"napis napi_snap\n"
	"irqb_snap\n"
	"if [ \"$nfail\" -ne 0 ]; then\n"
	"\twarn 'cannot read every current value: nothing changed'\n"
	"\texit 2\n"
	"fi\n"
	"if [ \"$nchange\" -eq 0 ]; then\n"
	"\tsay 'every value is already as planned: nothing to change'\n"
	"\texit 0\n"
	"fi\n"
	"# shellcheck disable=SC2016 # $fail belongs to the restore script\n"
	"if ! printf 'exit $fail\\n' >>\"$RTMP\"; then\n"
	"\twarn \"cannot write the restore script $RESTORE: nothing changed\"\n"
	"\texit 2\n"
	"fi\n"
	"sync \"$RTMP\" 2>/dev/null || :\n"
	"if ! mv -f \"$RTMP\" \"$RESTORE\"; then\n"
	"\twarn \"cannot save the restore script $RESTORE: nothing changed\"\n"
	"\texit 2\n"
	"fi\n"
	"say \"restore script: $RESTORE ($nchange values; sh it to put them back)\"\n"
	"irqb_do\n"
	"chans chan_apply\n"
	"eths eth_apply\n"
	"items apply\n"
	"napis napi_apply\n"
	"say \"done: $nset changed, $nsame already in place, $nmanaged managed by the kernel, $nfail failed\"\n"
	"[ \"$nfail\" -eq 0 ] || exit 1\n"
	"exit 0\n";

int nn_script_render(FILE *out, const struct nn_plan *plan, const struct nn_script_opts *opts)
{
	struct w w = { out, 0 };

	header(&w, plan, opts);
	banned(&w, plan);
	put(&w, nn_script_lib);
	put(&w, "\n");
	restore_head(&w);
	checks(&w, plan);
	items(&w, plan);
	put(&w, script_main);
	if (!w.err && fflush(out) == EOF)
		w.err = -EIO;
	return w.err;
}

int nn_script_write(const char *path, const struct nn_plan *plan, const struct nn_script_opts *opts)
{
	char *text = NULL;
	size_t len = 0;
	FILE *fp;
	int err;

	fp = open_memstream(&text, &len);
	if (!fp)
		return -errno;
	err = nn_script_render(fp, plan, opts);
	if (fclose(fp) && !err)
		err = -ENOMEM;
	if (!err)
		err = nn_write_atomic_path(path, text, len, 0755);
	free(text);
	return err;
}
