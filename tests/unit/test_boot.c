// SPDX-License-Identifier: GPL-2.0-or-later
/* test_boot.c - the boot domain: the grub.d reader (sh's assignment subset),
 * kernel command lines compared by meaning, the plan's diff, GRUB's drop-in,
 * generated configurations, the kernel's facts, the boot record, and the
 * bootloaders detected on scratch trees */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/core/parse.h"
#include "nicnuma/state/boot_store.h"
#include "boot/boot_print.h"
#include "boot/boot_read.h"
#include "boot/boot_write.h"
#include "boot/cmdline.h"
#include "boot/grub_sh.h"
#include "tmptree.h"

static const char *const grub_vars[] = { "GRUB_CMDLINE_LINUX", "GRUB_CMDLINE_LINUX_DEFAULT", NULL };

/* Runs @text as one file; the tracked variable @name's value ("<unset>"
 * when unset), or NULL with @why filled when refused. */
static char *sh_run(const char *text, const char *name, char *why, size_t whylen)
{
	struct nn_sh_env env = NN_SH_ENV_INIT;
	const struct nn_sh_var *v;
	char *out = NULL;
	int err = nn_sh_source(&env, "/etc/default/grub", text, strlen(text), grub_vars, why, whylen);

	if (!err) {
		v = nn_sh_get(&env, name);
		out = strdup(v && v->value ? v->value : "<unset>");
	}
	nn_sh_env_free(&env);
	return out;
}

static void sh_is(const char *text, const char *want)
{
	char why[256] = "", *got = sh_run(text, "GRUB_CMDLINE_LINUX_DEFAULT", why, sizeof(why));

	if (!got)
		fail_msg("refused '%s': %s", text, why);
	assert_string_equal(got, want);
	free(got);
}

static void sh_refused(const char *text, const char *needle)
{
	char why[256] = "", *got = sh_run(text, "GRUB_CMDLINE_LINUX_DEFAULT", why, sizeof(why));

	if (got)
		fail_msg("'%s' evaluated to '%s', want a refusal", text, got);
	assert_contains(why, needle);
}

static void test_sh_assignments(void **state)
{
	(void)state;
	sh_is("GRUB_CMDLINE_LINUX_DEFAULT=\"quiet\"\n", "quiet");
	sh_is("GRUB_CMDLINE_LINUX_DEFAULT=quiet", "quiet");
	sh_is("GRUB_CMDLINE_LINUX_DEFAULT='a \"b\" $c'\n", "a \"b\" $c");
	sh_is("A=x\nGRUB_CMDLINE_LINUX_DEFAULT=\"$A ${A}y\"\n", "x xy");
	sh_is("GRUB_CMDLINE_LINUX_DEFAULT=quiet\nGRUB_CMDLINE_LINUX_DEFAULT=\"$GRUB_CMDLINE_LINUX_DEFAULT iommu=pt\"\n",
	      "quiet iommu=pt");
	sh_is("GRUB_CMDLINE_LINUX_DEFAULT=\"${GRUB_CMDLINE_LINUX_DEFAULT:+$GRUB_CMDLINE_LINUX_DEFAULT }x\"\n", "x");
	sh_is("GRUB_CMDLINE_LINUX_DEFAULT=\"${UNSET:-dflt} ${EMPTY-} ${UNSET+no}\"\n", "dflt  ");
	sh_is("GRUB_CMDLINE_LINUX_DEFAULT=a\\ b\\\"c\n", "a b\"c");
	sh_is("GRUB_CMDLINE_LINUX_DEFAULT=\"a\\\n b\" # a comment\n", "a b");
	sh_is("# GRUB_CMDLINE_LINUX_DEFAULT=\"commented out\"\nGRUB_CMDLINE_LINUX_DEFAULT=z\n", "z");
	sh_is("export GRUB_CMDLINE_LINUX_DEFAULT=\"e\"\n", "e");
	sh_is("GRUB_CMDLINE_LINUX_DEFAULT=x\nunset GRUB_CMDLINE_LINUX_DEFAULT\n", "<unset>");
	sh_is("A=1; GRUB_CMDLINE_LINUX_DEFAULT=\"$A\"; B=2\n", "1");
	/* what cannot be known elsewhere does not matter */
	sh_is("GRUB_DISTRIBUTOR=`lsb_release -i -s 2> /dev/null || echo Debian`\nGRUB_CMDLINE_LINUX_DEFAULT=q\n", "q");
	sh_is("if [ -x /bin/x ]; then GRUB_TIMEOUT=1; fi\nGRUB_CMDLINE_LINUX_DEFAULT=q\n", "q");
	sh_is("echo hello > /dev/null\nGRUB_CMDLINE_LINUX_DEFAULT=q\n", "q");
	sh_is("cat <<EOF\nGRUB_CMDLINE_LINUX_DEFAULT=heredoc\nEOF\nGRUB_CMDLINE_LINUX_DEFAULT=q\n", "q");
	sh_is("f() { GRUB_TIMEOUT=3; }\nGRUB_CMDLINE_LINUX_DEFAULT=q\n", "q");
}

static void test_sh_refusals(void **state)
{
	(void)state;
	sh_refused("GRUB_CMDLINE_LINUX_DEFAULT=\"$(cat /x)\"\n", "command substitution");
	sh_refused("GRUB_CMDLINE_LINUX_DEFAULT=`cat /x`\n", "command substitution");
	sh_refused("D=`lsb_release -is`\nGRUB_CMDLINE_LINUX_DEFAULT=\"$D\"\n", "could not evaluate");
	sh_refused("if true; then\n  GRUB_CMDLINE_LINUX_DEFAULT=x\nfi\n", "/etc/default/grub:2:");
	sh_refused("[ -e /x ] && GRUB_CMDLINE_LINUX_DEFAULT=x\n", "condition");
	sh_refused("for a in b; do GRUB_CMDLINE_LINUX_DEFAULT=$a; done\n", "compound");
	sh_refused("case $x in a) GRUB_CMDLINE_LINUX_DEFAULT=1 ;; esac\n", "compound");
	sh_refused(". /etc/default/grub.extra\n", "'.' runs text");
	sh_refused("eval \"GRUB_CMDLINE_LINUX_DEFAULT=1\"\n", "'eval'");
	sh_refused("read GRUB_CMDLINE_LINUX_DEFAULT </x\n", "given to a command");
	sh_refused("GRUB_CMDLINE_LINUX_DEFAULT=1 true\n", "given to a command");
	sh_refused("( GRUB_CMDLINE_LINUX_DEFAULT=1 )\n", "GRUB_CMDLINE_LINUX_DEFAULT");
	sh_refused("GRUB_CMDLINE_LINUX_DEFAULT=\"open\n", "unterminated");
	sh_refused("GRUB_CMDLINE_LINUX_DEFAULT=\"$1\"\n", "special parameter");
	sh_refused("GRUB_CMDLINE_LINUX_DEFAULT=\"${X#y}\"\n", "expansion");
	/* the text is @len bytes, not a C string: the name is cut at its end (fuzz_grub_sh found it) */
	{
		static const char buf[] = "if [ t GRUB_CMDLINE_LINUXZZZZ";
		struct nn_sh_env env = NN_SH_ENV_INIT;
		char why[256];

		assert_int_equal(nn_sh_source(&env, "f", buf, sizeof(buf) - 5, grub_vars, why, sizeof(why)),
				 -ENOTSUP);
		assert_contains(why, "f:1: GRUB_CMDLINE_LINUX is set inside");
		nn_sh_env_free(&env);
	}
}

static void test_kline(void **state)
{
	struct nn_kline l;
	char why[160], *s;

	(void)state;
	assert_int_equal(nn_kline_parse("BOOT_IMAGE=/vmlinuz ro \"a=b c\" Intel-IOMMU=on x=\"q r\" -- init",
					false, &l, why, sizeof(why)), 0);
	assert_int_equal(l.n, 5);
	assert_string_equal(l.w[2].key, "a");
	assert_string_equal(l.w[2].value, "b c");
	assert_string_equal(l.w[3].key, "Intel_IOMMU");
	assert_string_equal(l.w[4].value, "q r");
	assert_null(l.w[1].value);
	nn_kline_free(&l);
	/* grub.cfg's variables are GRUB's, not the kernel's */
	assert_int_equal(nn_kline_parse("ro quiet $vt_handoff", true, &l, why, sizeof(why)), 0);
	assert_int_equal(l.n, 2);
	nn_kline_free(&l);
	assert_int_equal(nn_kline_parse("ro x=\"open", false, &l, why, sizeof(why)), -EINVAL);
	assert_contains(why, "unbalanced quote");
	assert_int_equal(nn_kline_parse("ro a\033b", false, &l, why, sizeof(why)), -EINVAL);
	assert_contains(why, "control byte");
	/* the 1 GB pair; the 2 MB one is not it */
	assert_int_equal(nn_kline_parse("hugepagesz=2M hugepages=512 hugepagesz=1024M hugepages=0:4 ro", false,
					&l, why, sizeof(why)), 0);
	assert_int_equal(nn_kline_get(&l, "hugepages", &s), 0);
	assert_string_equal(s, "hugepagesz=1024M hugepages=0:4");
	free(s);
	assert_int_equal(nn_kline_get(&l, "isolcpus", &s), 0);
	assert_null(s);
	nn_kline_free(&l);
}

static void test_karg_equal(void **state)
{
	char why[160];

	(void)state;
	assert_int_equal(nn_karg_equal("isolcpus", "isolcpus=domain,managed_irq,2-3,4",
				       "isolcpus=managed_irq,domain,2-4", why, sizeof(why)), 1);
	assert_int_equal(nn_karg_equal("isolcpus", "isolcpus=2-4", "isolcpus=managed_irq,domain,2-4", why,
				       sizeof(why)), 0);
	assert_int_equal(nn_karg_equal("nohz_full", "nohz_full=1,2,3", "nohz_full=1-3", why, sizeof(why)), 1);
	assert_int_equal(nn_karg_equal("rcu_nocbs", "rcu_nocbs=all", "rcu_nocbs=1-3", why, sizeof(why)), 0);
	assert_int_equal(nn_karg_equal("hugepages", "hugepagesz=1G hugepages=1:4,0:2",
				       "hugepagesz=1024M hugepages=0:2,1:4", why, sizeof(why)), 1);
	assert_int_equal(nn_karg_equal("hugepages", "hugepagesz=1G hugepages=8", "hugepagesz=1G hugepages=0:4,1:4",
				       why, sizeof(why)), 0);
	assert_int_equal(nn_karg_equal("intel_iommu", "intel_iommu=sm_on,on", "intel_iommu=on,sm_on", why,
				       sizeof(why)), 1);
	assert_int_equal(nn_karg_equal("iommu.passthrough", "iommu.passthrough=y", "iommu.passthrough=1", why,
				       sizeof(why)), 1);
	assert_int_equal(nn_karg_equal("nohz_full", "nohz_full=x", "nohz_full=1", why, sizeof(why)), -EINVAL);
	assert_contains(why, "nohz_full=x");
	assert_int_equal(nn_karg_equal("isolcpus", "isolcpus=bogus,1", "isolcpus=1", why, sizeof(why)), -EINVAL);
	/* a bare "isolcpus" sets no isolcpus= (fuzz_boot_diff found it answered -ENOENT) */
	assert_int_equal(nn_karg_equal("isolcpus", "isolcpus", "isolcpus=1", why, sizeof(why)), -EINVAL);
	assert_int_equal(nn_boot_arg_check("isolcpus", "isolcpus=managed_irq,domain,2-7", why, sizeof(why)), 0);
	assert_int_equal(nn_boot_arg_check("hugepages", "hugepagesz=1G hugepages=0:4", why, sizeof(why)), 0);
	assert_int_equal(nn_boot_arg_check("hugepages", "hugepages=0:4", why, sizeof(why)), -EINVAL);
	assert_int_equal(nn_boot_arg_check("isolcpus", "nohz_full=2", why, sizeof(why)), -EINVAL);
	assert_int_equal(nn_boot_arg_check("isolcpus", "isolcpus=2;reboot", why, sizeof(why)), -EINVAL);
	assert_int_equal(nn_boot_arg_check("init", "init=/bin/sh", why, sizeof(why)), -EINVAL);
	assert_true(nn_karg_safe("irqaffinity=0,28", 16));
	assert_false(nn_karg_safe("a=$(x)", 6));
	assert_false(nn_karg_safe("a=\"b\"", 5));
}

static struct nn_boot_arg ARGS[] = {
	{ "hugepages", "hugepagesz=1G hugepages=0:4,1:4", "hugepages", "pools" },
	{ "iommu", "iommu=pt", "iommu", "vfio" },
	{ "isolcpus", "isolcpus=managed_irq,domain,2-7", "isolation", "lcores" },
	{ "irqaffinity", "irqaffinity=0-1", "isolation", "kernel" },
};

static const struct nn_boot_row *row(const struct nn_boot_diff *d, const char *name)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->rows[i].name, name))
			return &d->rows[i];
	fail_msg("no row %s", name);
	return NULL;
}

static char *ours_text(const struct nn_boot_diff *d)
{
	size_t i, len = 1;
	char *s;

	for (i = 0; i < d->nours; i++)
		len += strlen(d->ours[i]) + 1;
	s = calloc(1, len);
	for (i = 0; i < d->nours; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, d->ours[i]);
	}
	return s;
}

static void test_diff(void **state)
{
	struct nn_boot_source src[] = { { "GRUB_CMDLINE_LINUX (/etc/default/grub)", "root=/dev/sda ro iommu=pt" } };
	struct nn_boot_diff d;
	char why[256], *o;

	(void)state;
	/* first apply: nothing of nicnuma's; iommu=pt is another owner's already */
	assert_int_equal(nn_boot_diff_make(ARGS, 4, "BOOT_IMAGE=/v root=/dev/sda ro", NULL, src, 1, NULL, &d, why,
					   sizeof(why)), 0);
	assert_int_equal(row(&d, "hugepages")->change, NN_BCH_ADDED);
	assert_int_equal(row(&d, "iommu")->change, NN_BCH_UNCHANGED);
	assert_string_equal(row(&d, "iommu")->owner, "GRUB_CMDLINE_LINUX (/etc/default/grub)");
	assert_int_equal(d.nchanges, 3);
	o = ours_text(&d);
	/* never a copy of another owner's word; plan order */
	assert_string_equal(o, "hugepagesz=1G hugepages=0:4,1:4 isolcpus=managed_irq,domain,2-7 irqaffinity=0-1");
	free(o);
	nn_boot_diff_free(&d);

	/* second apply of the same plan: nothing changes, and a reboot later all is in effect */
	assert_int_equal(nn_boot_diff_make(ARGS, 4, "ro iommu=pt hugepagesz=1G hugepages=0:4,1:4 "
					   "isolcpus=domain,managed_irq,2-7 irqaffinity=0,1",
					   "ro iommu=pt hugepagesz=1G hugepages=0:4,1:4 isolcpus=managed_irq,domain,2-7 "
					   "irqaffinity=0-1", src, 1,
					   "hugepagesz=1G hugepages=0:4,1:4 isolcpus=managed_irq,domain,2-7 irqaffinity=0-1",
					   &d, why, sizeof(why)), 0);
	assert_int_equal(d.nchanges, 0);
	for (size_t i = 0; i < d.n; i++) {
		assert_true(d.rows[i].in_effect);
		assert_true(d.rows[i].configured_ok);
	}
	nn_boot_diff_free(&d);

	/* a new plan: nicnuma's own value changes in its place, one of its words
	 * no longer planned goes, the others keep their order */
	assert_int_equal(nn_boot_diff_make(ARGS + 2, 2, NULL, NULL, NULL, 0,
					   "nohz_full=2-7 isolcpus=2-3 irqaffinity=0-1", &d, why, sizeof(why)), 0);
	assert_int_equal(row(&d, "isolcpus")->change, NN_BCH_CHANGED);
	assert_int_equal(row(&d, "irqaffinity")->change, NN_BCH_UNCHANGED);
	assert_int_equal(row(&d, "nohz_full")->change, NN_BCH_REMOVED);
	assert_null(row(&d, "nohz_full")->planned);
	o = ours_text(&d);
	assert_string_equal(o, "isolcpus=managed_irq,domain,2-7 irqaffinity=0-1");
	free(o);
	nn_boot_diff_free(&d);

	/* another owner's other value: a conflict, never changed */
	src[0].text = "ro isolcpus=4-5";
	assert_int_equal(nn_boot_diff_make(ARGS + 2, 1, NULL, NULL, src, 1, NULL, &d, why, sizeof(why)), 0);
	assert_int_equal(row(&d, "isolcpus")->change, NN_BCH_CONFLICT);
	assert_int_equal(d.nconflicts, 1);
	assert_int_equal(d.nours, 0);
	nn_boot_diff_free(&d);

	/* an argument nicnuma plans that the running line holds in a form it cannot read */
	assert_int_equal(nn_boot_diff_make(ARGS + 2, 1, "ro isolcpus=bogus,3", NULL, NULL, 0, NULL, &d, why,
					   sizeof(why)), -EINVAL);
	assert_contains(why, "in /proc/cmdline: 'isolcpus=bogus,3'");
	assert_int_equal(nn_boot_diff_make(ARGS, 1, "ro x=\"y", NULL, NULL, 0, NULL, &d, why, sizeof(why)), -EINVAL);
	assert_contains(why, "in /proc/cmdline");
}

static void test_dropin(void **state)
{
	char *words_in[] = { "iommu=pt", "isolcpus=managed_irq,domain,2-7" };
	char why[160], *text, *words;

	(void)state;
	text = nn_grub_dropin_format(words_in, 2);
	assert_non_null(text);
	assert_contains(text, "GRUB_CMDLINE_LINUX_DEFAULT=\"$GRUB_CMDLINE_LINUX_DEFAULT iommu=pt isolcpus=");
	assert_int_equal(nn_grub_dropin_parse(text, &words, why, sizeof(why)), 0);
	assert_string_equal(words, "iommu=pt isolcpus=managed_irq,domain,2-7");
	free(words);
	/* the shell itself reads the same words out of it */
	{
		struct nn_sh_env env = NN_SH_ENV_INIT;
		const struct nn_sh_var *v;

		assert_int_equal(nn_sh_source(&env, "d", "GRUB_CMDLINE_LINUX_DEFAULT=quiet\n", 33, grub_vars, why,
					      sizeof(why)), 0);
		assert_int_equal(nn_sh_source(&env, "d", text, strlen(text), grub_vars, why, sizeof(why)), 0);
		v = nn_sh_get(&env, "GRUB_CMDLINE_LINUX_DEFAULT");
		assert_string_equal(v->value, "quiet iommu=pt isolcpus=managed_irq,domain,2-7");
		nn_sh_env_free(&env);
	}
	free(text);
	assert_int_equal(nn_grub_dropin_parse("GRUB_CMDLINE_LINUX_DEFAULT=\"x\"\n", &words, why, sizeof(why)),
			 -EINVAL);
	assert_contains(why, "line 1");
	assert_int_equal(nn_grub_dropin_parse("# c\nGRUB_CMDLINE_LINUX_DEFAULT=\"$GRUB_CMDLINE_LINUX_DEFAULT a=$(b)\"\n",
					      &words, why, sizeof(why)), -EINVAL);
	assert_contains(why, "not a word nicnuma writes");
}

static void test_generated(void **state)
{
	char *args, *kernel;

	(void)state;
	assert_int_equal(nn_grub_cfg_first_linux("menuentry 'D' {\n\tinsmod gzio\n\tlinux\t/boot/vmlinuz-6.1 root=UUID=x "
						 "ro  quiet iommu=pt $vt_handoff\n}\nsubmenu {\n\tlinux /boot/v2 ro single\n}\n",
						 &args, &kernel), 0);
	assert_string_equal(kernel, "/boot/vmlinuz-6.1");
	assert_string_equal(args, "root=UUID=x ro  quiet iommu=pt $vt_handoff");
	free(args);
	free(kernel);
	assert_int_equal(nn_grub_cfg_first_linux("menuentry {\n\tlinux16 /v a=1\n}\n", &args, &kernel), 0);
	assert_string_equal(args, "a=1");
	free(args);
	free(kernel);
	assert_int_equal(nn_grub_cfg_first_linux("# no entry\n", &args, &kernel), -ENOENT);
	assert_int_equal(nn_bls_options("title D\nversion 6.1\noptions root=x ro\noptions iommu=pt\nlinux /a/linux\n",
					&args, &kernel), 0);
	assert_string_equal(args, "root=x ro iommu=pt");
	assert_string_equal(kernel, "/a/linux");
	free(args);
	free(kernel);
}

static void test_kernel_facts(void **state)
{
	signed char c[NN_KCONF_N];
	int a, b;
	const char *cfg = "# CONFIG_NO_HZ_FULL is not set\nCONFIG_RCU_NOCB_CPU=y\nCONFIG_INTEL_IOMMU=m\n"
			  "CONFIG_CPU_ISOLATION_X=y\nCONFIG_HUGETLBFS=n\n";

	(void)state;
	assert_int_equal(nn_kernel_release_parse("6.1.0-26-amd64", &a, &b), 0);
	assert_int_equal(a, 6);
	assert_int_equal(b, 1);
	assert_int_equal(nn_kernel_release_parse("5.16", &a, &b), 0);
	assert_int_equal(b, 16);
	assert_int_equal(nn_kernel_release_parse("v6.1", &a, &b), -EINVAL);
	assert_int_equal(a, -1);
	nn_kconfig_scan(cfg, strlen(cfg), c);
	assert_int_equal(c[NN_KCONF_NO_HZ_FULL], 0);
	assert_int_equal(c[NN_KCONF_RCU_NOCB_CPU], 1);
	assert_int_equal(c[NN_KCONF_INTEL_IOMMU], 1);
	assert_int_equal(c[NN_KCONF_CPU_ISOLATION], 0);	/* a longer name is another option */
	assert_int_equal(c[NN_KCONF_HUGETLBFS], 0);
}

static void test_record(void **state)
{
	char *args[] = { "hugepagesz=1G", "hugepages=0:4" }, *rm[] = { "isolcpus=2-3" };
	struct nn_boot_record r = { .bootloader = "grub", .args = args, .nargs = 2, .removed = rm, .nremoved = 1,
				    .boot_id = "0c5d4e2a-8f21-4b9e-9d3a-6e7f1a2b3c4d", .written = "2025-01-02T03:04:05Z" };
	struct nn_boot_record back;
	char why[160], *text;

	(void)state;
	text = nn_boot_record_format(&r);
	assert_non_null(text);
	assert_int_equal(nn_boot_record_parse(text, strlen(text), &back, why, sizeof(why)), 0);
	assert_string_equal(back.bootloader, "grub");
	assert_int_equal(back.nargs, 2);
	assert_string_equal(back.args[1], "hugepages=0:4");
	assert_string_equal(back.removed[0], "isolcpus=2-3");
	assert_string_equal(back.boot_id, r.boot_id);
	nn_boot_record_free(&back);
	free(text);
	/* a record is data root acts on: every field checked */
	text = "{\"version\":1,\"bootloader\":\"lilo\"}";
	assert_int_equal(nn_boot_record_parse(text, strlen(text), &back, why, sizeof(why)), -EINVAL);
	assert_contains(why, "bootloader");
	text = "{\"version\":1,\"bootloader\":\"grub\",\"args\":[\"init=/bin/sh;x\"]}";
	assert_int_equal(nn_boot_record_parse(text, strlen(text), &back, why, sizeof(why)), -EINVAL);
	assert_contains(why, "args");
	text = "{\"version\":1,\"bootloader\":\"grub\",\"boot_id\":\"../../etc\"}";
	assert_int_equal(nn_boot_record_parse(text, strlen(text), &back, why, sizeof(why)), -EINVAL);
	args[0] = "bad word";
	assert_null(nn_boot_record_format(&r));
}

/* ---- bootloaders on scratch trees ---- */

static const char mkconfig[] = "#!/bin/sh\nfor x in ${sysconfdir}/default/grub.d/*.cfg ; do . \"$x\"; done\n";

static void grub_tree(const char *d)
{
	tmptree_put(d, "etc/default/grub", "GRUB_DEFAULT=0\nGRUB_CMDLINE_LINUX_DEFAULT=\"quiet\"\n"
		    "GRUB_CMDLINE_LINUX=\"console=ttyS0\"\n");
	tmptree_put(d, "usr/sbin/grub-mkconfig", mkconfig);
	tmptree_put(d, "usr/sbin/update-grub", "#!/bin/sh\n");
	tmptree_put(d, "boot/grub/grub.cfg", "menuentry 'x' {\n\tlinux /boot/vmlinuz-6.1 root=/dev/sda console=ttyS0 "
		    "quiet\n}\n");
	tmptree_put(d, "proc/cmdline", "BOOT_IMAGE=/boot/vmlinuz-6.1 root=/dev/sda console=ttyS0 quiet\n");
	tmptree_put(d, "proc/sys/kernel/osrelease", "6.1.0-26-amd64\n");
}

static int read_host(const char *d, struct nn_ctx *ctx, struct nn_boot_host *b)
{
	assert_int_equal(nn_ctx_init(ctx, d, false), 0);
	return nn_boot_host_read(ctx, b, true);
}

static void done_host(struct nn_ctx *ctx, struct nn_boot_host *b)
{
	nn_boot_host_free(b);
	nn_ctx_free(ctx);
}

static void test_detect(void **state)
{
	struct nn_boot_host b;
	struct nn_boot_prep prep;
	struct nn_ctx ctx;
	char d[256], why[400];

	(void)state;
	assert_int_equal(tmptree_make(d, sizeof(d), "boot"), 0);
	/* nothing */
	tmptree_put(d, "proc/cmdline", "ro\n");
	assert_int_equal(read_host(d, &ctx, &b), 0);
	assert_int_equal(b.loader.kind, NN_BL_NONE);
	assert_int_equal(nn_boot_prepare(&b, ARGS + 1, 1, &prep, why, sizeof(why)), -ENODEV);
	assert_contains(why, "no bootloader configuration found");
	nn_boot_prep_free(&prep);
	done_host(&ctx, &b);
	/* extlinux: known, not written */
	tmptree_put(d, "boot/extlinux/extlinux.conf", "LABEL linux\n");
	assert_int_equal(read_host(d, &ctx, &b), 0);
	assert_int_equal(b.loader.kind, NN_BL_UNKNOWN);
	assert_int_equal(nn_boot_prepare(&b, ARGS + 1, 1, &prep, why, sizeof(why)), -EOPNOTSUPP);
	assert_contains(why, "/boot/extlinux/extlinux.conf (extlinux)");
	nn_boot_prep_free(&prep);
	done_host(&ctx, &b);
	/* Debian's GRUB: the words of both variables are another owner's */
	grub_tree(d);
	assert_int_equal(read_host(d, &ctx, &b), 0);
	assert_int_equal(b.loader.kind, NN_BL_GRUB);
	assert_string_equal(b.loader.tool, "/usr/sbin/update-grub");
	assert_null(b.loader.problem);
	assert_int_equal(b.loader.nsrc, 2);
	assert_string_equal(b.loader.src[0].owner, "GRUB_CMDLINE_LINUX (/etc/default/grub)");
	assert_string_equal(b.loader.next, "root=/dev/sda console=ttyS0 quiet");
	assert_int_equal(nn_boot_prepare(&b, ARGS + 1, 1, &prep, why, sizeof(why)), 0);
	assert_true(prep.write);
	assert_null(prep.before);
	assert_string_equal(prep.after, "iommu=pt");
	nn_boot_prep_free(&prep);
	done_host(&ctx, &b);
	/* a drop-in after nicnuma's that replaces the variable: refused, named */
	tmptree_put(d, "etc/default/grub.d/zz-zlast.cfg", "GRUB_CMDLINE_LINUX_DEFAULT=\"quiet splash\"\n");
	assert_int_equal(read_host(d, &ctx, &b), 0);
	assert_false(b.loader.dropin_last);
	assert_int_equal(nn_boot_prepare(&b, ARGS + 1, 1, &prep, why, sizeof(why)), -EBUSY);
	assert_contains(why, "/etc/default/grub.d/zz-zlast.cfg sets GRUB_CMDLINE_LINUX_DEFAULT after");
	nn_boot_prep_free(&prep);
	done_host(&ctx, &b);
	/* one that appends is fine */
	tmptree_put(d, "etc/default/grub.d/zz-zlast.cfg",
		    "GRUB_CMDLINE_LINUX_DEFAULT=\"$GRUB_CMDLINE_LINUX_DEFAULT splash\"\n");
	assert_int_equal(read_host(d, &ctx, &b), 0);
	assert_int_equal(nn_boot_prepare(&b, ARGS + 1, 1, &prep, why, sizeof(why)), 0);
	nn_boot_prep_free(&prep);
	done_host(&ctx, &b);
	/* an earlier one nicnuma cannot evaluate: refused before writing, named by file and line */
	tmptree_put(d, "etc/default/grub.d/50-x.cfg", "if true; then\nGRUB_CMDLINE_LINUX=x\nfi\n");
	assert_int_equal(read_host(d, &ctx, &b), 0);
	assert_int_equal(nn_boot_prepare(&b, ARGS + 1, 1, &prep, why, sizeof(why)), -EBUSY);
	assert_contains(why, "/etc/default/grub.d/50-x.cfg:2:");
	nn_boot_prep_free(&prep);
	done_host(&ctx, &b);
	tmptree_put(d, "etc/default/grub.d/50-x.cfg", "GRUB_TIMEOUT=1\n");
	/* tuned's bootloader plugin sets isolcpus: a conflict with the plan's */
	tmptree_put(d, "etc/tuned/bootcmdline", "TUNED_BOOT_CMDLINE=\"isolcpus=4-5 nohz=on\"\n");
	assert_int_equal(read_host(d, &ctx, &b), 0);
	assert_int_equal(nn_boot_prepare(&b, ARGS + 2, 1, &prep, why, sizeof(why)), -EBUSY);
	assert_contains(why, "tuned (/etc/tuned/bootcmdline) has isolcpus=4-5");
	nn_boot_prep_free(&prep);
	done_host(&ctx, &b);
	/* and kernel-install beside GRUB: two bootloaders, none guessed */
	tmptree_put(d, "etc/kernel/cmdline", "root=/dev/sda\n");
	tmptree_put(d, "usr/bin/kernel-install", "#!/bin/sh\n");
	assert_int_equal(read_host(d, &ctx, &b), 0);
	assert_int_equal(b.loader.kind, NN_BL_SEVERAL);
	assert_contains(b.loader.found, "several bootloaders");
	done_host(&ctx, &b);
	assert_int_equal(tmptree_remove(d), 0);
}

static void test_kernel_install(void **state)
{
	struct nn_boot_host b;
	struct nn_boot_prep prep;
	struct nn_ctx ctx;
	char d[256], why[400];

	(void)state;
	assert_int_equal(tmptree_make(d, sizeof(d), "bls"), 0);
	tmptree_put(d, "usr/bin/kernel-install", "#!/bin/sh\n");
	tmptree_put(d, "etc/kernel/cmdline", "root=/dev/sda ro iommu=pt isolcpus=2-3\n");
	tmptree_put(d, "boot/loader/entries/abc-6.1.0-26-amd64.conf", "title D\nversion 6.1.0-26-amd64\n"
		    "options root=/dev/sda ro iommu=pt isolcpus=2-3\nlinux /abc/6.1.0-26-amd64/linux\n");
	tmptree_put(d, "proc/sys/kernel/osrelease", "6.1.0-26-amd64\n");
	tmptree_put(d, "proc/cmdline", "root=/dev/sda ro\n");
	/* without a record, no word of the shared file is nicnuma's: its value is a conflict */
	assert_int_equal(read_host(d, &ctx, &b), 0);
	assert_int_equal(b.loader.kind, NN_BL_KERNEL_INSTALL);
	assert_string_equal(b.loader.ours, "");
	assert_string_equal(b.loader.next, "root=/dev/sda ro iommu=pt isolcpus=2-3");
	assert_int_equal(nn_boot_prepare(&b, ARGS + 2, 1, &prep, why, sizeof(why)), -EBUSY);
	assert_contains(why, "/etc/kernel/cmdline has isolcpus=2-3");
	nn_boot_prep_free(&prep);
	done_host(&ctx, &b);
	/* the record says isolcpus=2-3 is nicnuma's: changed in place */
	tmptree_mkdir(d, "var/lib/nicnuma");
	{
		char path[300];

		snprintf(path, sizeof(path), "%s/var/lib/nicnuma", d);
		assert_int_equal(chmod(path, 0700), 0);
	}
	tmptree_put(d, "var/lib/nicnuma/boot.json", "{\"version\":1,\"bootloader\":\"kernel-install\","
		    "\"args\":[\"isolcpus=2-3\"]}");
	{
		char path[300];

		snprintf(path, sizeof(path), "%s/var/lib/nicnuma/boot.json", d);
		assert_int_equal(chmod(path, 0600), 0);
	}
	assert_int_equal(read_host(d, &ctx, &b), 0);
	assert_true(b.has_record);
	assert_string_equal(b.loader.ours, "isolcpus=2-3");
	assert_string_equal(b.loader.src[0].text, "root=/dev/sda ro iommu=pt");
	assert_int_equal(nn_boot_prepare(&b, ARGS + 2, 1, &prep, why, sizeof(why)), 0);
	assert_string_equal(prep.before, "isolcpus=2-3");
	assert_string_equal(prep.after, "isolcpus=managed_irq,domain,2-7");
	assert_int_equal(prep.diff.rows[0].change, NN_BCH_CHANGED);
	nn_boot_prep_free(&prep);
	done_host(&ctx, &b);
	assert_int_equal(tmptree_remove(d), 0);
}

static void test_undo_validate(void **state)
{
	struct nn_change c = { .ops = &nn_boot_change_ops };
	char why[160];

	(void)state;
	c.path = NN_GRUB_DROPIN;
	c.before = NULL;
	c.after = "iommu=pt isolcpus=2-3";
	assert_int_equal(nn_boot_change_ops.validate(NULL, NULL, &c, why, sizeof(why)), 0);
	c.path = "/etc/default/grub";
	assert_int_equal(nn_boot_change_ops.validate(NULL, NULL, &c, why, sizeof(why)), -EINVAL);
	c.path = NN_KERNEL_CMDLINE;
	c.after = "init=/bin/sh$(x)";
	assert_int_equal(nn_boot_change_ops.validate(NULL, NULL, &c, why, sizeof(why)), -EINVAL);
	c.path = "grubby";
	c.after = "iommu=pt";
	assert_int_equal(nn_boot_change_ops.validate(NULL, NULL, &c, why, sizeof(why)), -EINVAL);
	c.before = "";
	assert_int_equal(nn_boot_change_ops.validate(NULL, NULL, &c, why, sizeof(why)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sh_assignments),
		cmocka_unit_test(test_sh_refusals),
		cmocka_unit_test(test_kline),
		cmocka_unit_test(test_karg_equal),
		cmocka_unit_test(test_diff),
		cmocka_unit_test(test_dropin),
		cmocka_unit_test(test_generated),
		cmocka_unit_test(test_kernel_facts),
		cmocka_unit_test(test_record),
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_kernel_install),
		cmocka_unit_test(test_undo_validate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
