// SPDX-License-Identifier: GPL-2.0-or-later
/* test_script.c - sh quoting and the rendered script, checked by /bin/sh itself */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "nicnuma/emit/script.h"
#include "tmptree.h"
#include "nicnuma/core/strbuf.h"

static void test_quote_forms(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "eth0", "'eth0'" },
		{ "", "''" },
		{ "a$(touch x)", "'a$(touch x)'" },
		{ ";", "';'" },
		{ "'", "''\\'''" },
		{ "it's", "'it'\\''s'" },
		{ "a\nb", "'a\nb'" },
		{ "`id` \"$HOME\" \\ *", "'`id` \"$HOME\" \\ *'" },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *q = nn_shquote(cases[i].in);

		assert_non_null(q);
		assert_string_equal(q, cases[i].out);
		free(q);
	}
}

/* The shell must read each quoted word back as exactly the original bytes,
 * and run nothing: `a$(touch x)` must not create x. */
static void test_quote_round_trip_through_sh(void **state)
{
	static const char *const words[] = {
		"a$(touch x)", ";", "'", "a\nb", "x'; touch x; echo '", "$(touch x)`touch x`", "\n\n'\n",
		"-n", "%s%d\\",
	};
	char dir[PATH_MAX], cmd[8192], x[PATH_MAX + 8];
	size_t i;

	(void)state;
	assert_int_equal(tmptree_make(dir, sizeof(dir), "script-quote"), 0);
	snprintf(x, sizeof(x), "%s/x", dir);
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		char *q = nn_shquote(words[i]), got[512];
		FILE *fp;
		size_t n;

		assert_non_null(q);
		/* printf %s, not echo: the word goes through one level of quoting only. */
		snprintf(cmd, sizeof(cmd), "cd '%s' && printf '%%s' %s", dir, q);
		fp = popen(cmd, "r");
		assert_non_null(fp);
		n = fread(got, 1, sizeof(got) - 1, fp);
		got[n] = '\0';
		assert_int_equal(pclose(fp), 0);
		assert_string_equal(got, words[i]);
		assert_int_equal(access(x, F_OK), -1);
		free(q);
	}
	assert_int_equal(tmptree_remove(dir), 0);
}

static void set_list(struct nn_cpuset *s, const char *l)
{
	assert_int_equal(nn_cpuset_parse_list(l, s), 0);
}

/* A plan with hostile names renders a script that sh parses (-n) and that
 * names them only inside quotes. */
static void test_render_hostile_names(void **state)
{
	static const char *const names[] = { "a$(touch x)", "b;c", "d'e", "f`g`" };
	struct nn_plan p;
	char *buf = NULL, dir[PATH_MAX], path[PATH_MAX + 16], cmd[PATH_MAX + 32];
	size_t len = 0, i;
	FILE *fp;
	int fd;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.shape.ncpus = 4;
	p.shape.nnodes = 1;
	p.nnics = p.nirqs = p.nxps = 4;
	p.nics = calloc(4, sizeof(*p.nics));
	p.irqs = calloc(4, sizeof(*p.irqs));
	p.xps = calloc(4, sizeof(*p.xps));
	p.hugepages = calloc(1, sizeof(*p.hugepages));
	p.nhugepages = 1;
	p.hugepages[0].node = 0;
	p.hugepages[0].size_kb = 2048;
	p.hugepages[0].target = 64;
	p.irqbalance.running = true;
	p.irqbalance.action = NN_IRQB_BAN;
	for (i = 0; i < 4; i++) {
		p.nics[i].nic = strdup(names[i]);
		p.nics[i].numa_node = -1;
		p.irqs[i].nic = strdup(names[i]);
		p.irqs[i].irq = 40 + (int)i;
		p.irqs[i].queue = (int)i;
		p.irqs[i].dir = NN_QDIR_RXTX;
		set_list(&p.irqs[i].cpus, "1");
		p.xps[i].nic = strdup(names[i]);
		p.xps[i].queue = 0;
		set_list(&p.xps[i].cpus, "1-2");
	}
	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	assert_int_equal(nn_script_render(fp, &p, NULL), 0);
	fclose(fp);
	/* Every occurrence of a hostile name sits inside single quotes. */
	assert_contains(buf, "check_nic 'a$(touch x)' '' -1\n");
	assert_contains(buf, "'/sys/class/net/a$(touch x)/queues/tx-0/xps_cpus' mask '00000006'");
	assert_contains(buf, "check_irq 'd'\\''e' 42\n");
	assert_contains(buf, "BANNED_ARGS='--banirq=40 --banirq=41 --banirq=42 --banirq=43'");
	assert_contains(buf, "hugepages-2048kB/nr_hugepages' num '64'");

	assert_int_equal(tmptree_make(dir, sizeof(dir), "script-render"), 0);
	snprintf(path, sizeof(path), "%s/script.XXXXXX", dir);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, buf, len), (ssize_t)len);
	close(fd);
	snprintf(cmd, sizeof(cmd), "sh -n '%s'", path);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(tmptree_remove(dir), 0);
	free(buf);
	nn_plan_free(&p);
}

/* A NAPI thread is the plan's pid with its full comm, never a name to look
 * up: the line carries both, and napi_pid takes no thread by name. */
static void test_render_napi_by_pid(void **state)
{
	struct nn_plan p;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.shape.ncpus = 4;
	p.shape.nnodes = 1;
	p.napi_threads = calloc(1, sizeof(*p.napi_threads));
	assert_non_null(p.napi_threads);
	p.nnapi_threads = 1;
	p.napi_threads[0].nic = strdup("enp1s0f0np0");
	p.napi_threads[0].name = strdup("napi/enp1s0f0np0-267");
	p.napi_threads[0].napi_id = 267;
	p.napi_threads[0].pid = 4242;
	set_list(&p.napi_threads[0].cpus, "1");
	fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	assert_int_equal(nn_script_render(fp, &p, NULL), 0);
	fclose(fp);
	assert_contains(buf, "\t\"$1\" 'enp1s0f0np0' 267 4242 'napi/enp1s0f0np0-267' '1'\n");
	assert_contains(buf, "napi_pid \"$3\" \"$4\"");
	/* napi_pid reads that pid's comm; no /proc entry is read by a name match */
	assert_contains(buf, "IFS= read -r c <\"/proc/$1/comm\"");
	assert_not_contains(buf, "IFS= read -r c <\"$d/comm\"");
	free(buf);
	nn_plan_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quote_forms),
		cmocka_unit_test(test_quote_round_trip_through_sh),
		cmocka_unit_test(test_render_hostile_names),
		cmocka_unit_test(test_render_napi_by_pid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
