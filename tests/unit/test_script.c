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
#include <glob.h>

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
	p.eth = calloc(4, sizeof(*p.eth));
	p.neth = 4;
	for (i = 0; i < 4; i++) {
		p.eth[i].nic = strdup(names[i]);
		p.eth[i].setting = i % 2 ? NN_ETH_ADAPTIVE_RX : NN_ETH_RING_RX;
		p.eth[i].value = i % 2 ? 1 : 1024;
	}
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
	assert_contains(buf, "\t\"$1\" 'a$(touch x)' G rx 1024\n");
	assert_contains(buf, "\t\"$1\" 'b;c' C adaptive-rx on\n");
	assert_contains(buf, "\t\"$1\" 'd'\\''e' G rx 1024\n");

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

/* A stand-in ethtool: -c/-g print what ethtool prints, from values kept in
 * $ETHSTATE (one file per name); -C/-G store them; every call is logged. */
static const char fake_ethtool[] =
	"#!/bin/sh\n"
	"printf '%s\\n' \"$*\" >>\"$ETHSTATE/log\"\n"
	"v() { cat \"$ETHSTATE/$1\" 2>/dev/null || printf '%s' \"$2\"; }\n"
	"case $1 in\n"
	"-c) printf 'Coalesce parameters for %s:\\nAdaptive RX: %s  TX: %s\\nstats-block-usecs: 0\\n\\nrx-usecs: %s\\nrx-frames: 0\\n' \"$2\" \"$(v adaptive-rx off)\" \"$(v adaptive-tx on)\" \"$(v rx-usecs 3)\" ;;\n"
	"-g) printf 'Ring parameters for %s:\\nPre-set maximums:\\nRX:\\t\\t4096\\nTX:\\t\\t4096\\nCurrent hardware settings:\\nRX:\\t\\t%s\\nTX:\\t\\t%s\\n' \"$2\" \"$(v rx 512)\" \"$(v tx 512)\" ;;\n"
	"-C | -G) shift 2; while [ $# -ge 2 ]; do printf '%s' \"$2\" >\"$ETHSTATE/$1\"; shift 2; done ;;\n"
	"*) exit 1 ;;\n"
	"esac\n";

/* Runs @cmd in @dir with sh; its stdout and stderr land in @dir/out. */
static int run_in(const char *dir, const char *cmd)
{
	char line[PATH_MAX * 4];
	int rc;

	snprintf(line, sizeof(line), "cd '%s' && ETHSTATE='%s/state' %s >out 2>&1", dir, dir, cmd);
	rc = system(line);
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

static char *state_of(const char *dir, const char *name)
{
	char rel[64];

	snprintf(rel, sizeof(rel), "state/%s", name);
	return tmptree_get(dir, rel);
}

/* A profile's coalescing and ring values go through ethtool -C / -G: the
 * dry run says and changes nothing, the run sets only what differs and
 * saves the old values, the restore script puts them back, and without
 * ethtool each value is left alone with a message (exit 0). Read-only on
 * the live host: its CPU and node counts and lo's existence are checked. */
static void test_render_eth_runs(void **state)
{
	struct nn_plan p;
	char dir[PATH_MAX], *out, *v;
	glob_t g;
	FILE *fp;
	char path[PATH_MAX + 32];

	(void)state;
	memset(&p, 0, sizeof(p));
	p.shape.ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	p.shape.nnodes = 1;
	if (glob("/sys/devices/system/node/node[0-9]*", 0, NULL, &g) == 0) {
		p.shape.nnodes = (int)g.gl_pathc;
		globfree(&g);
	}
	p.nics = calloc(1, sizeof(*p.nics));
	p.nnics = 1;
	p.nics[0].nic = strdup("lo");
	p.nics[0].numa_node = -1;
	p.eth = calloc(4, sizeof(*p.eth));
	p.neth = 4;
	p.eth[0] = (struct nn_plan_eth){ strdup("lo"), NN_ETH_RX_USECS, 50, NULL };
	p.eth[1] = (struct nn_plan_eth){ strdup("lo"), NN_ETH_ADAPTIVE_RX, 1, NULL };
	p.eth[2] = (struct nn_plan_eth){ strdup("lo"), NN_ETH_RING_RX, 1024, NULL };
	p.eth[3] = (struct nn_plan_eth){ strdup("lo"), NN_ETH_RING_TX, 512, NULL };

	assert_int_equal(tmptree_make(dir, sizeof(dir), "script-eth"), 0);
	assert_int_equal(tmptree_put(dir, "bin/ethtool", fake_ethtool), 0);
	assert_int_equal(tmptree_mkdir(dir, "state"), 0);
	snprintf(path, sizeof(path), "%s/bin/ethtool", dir);
	assert_int_equal(chmod(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/bind.sh", dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(nn_script_render(fp, &p, NULL), 0);
	fclose(fp);

	/* dry run: said, nothing set */
	assert_int_equal(run_in(dir, "PATH=\"$PWD/bin:$PATH\" sh bind.sh --check"), 1);
	out = tmptree_get(dir, "out");
	assert_non_null(out);
	assert_contains(out, "  ~ lo rx-usecs: 3 -> 50 (ethtool -C, would change)\n");
	assert_contains(out, "  ~ lo adaptive-rx: off -> on (ethtool -C, would change)\n");
	assert_contains(out, "  ~ lo rx: 512 -> 1024 (ethtool -G, would change)\n");
	assert_contains(out, "dry run: 3 would change, 1 already in place");
	free(out);
	assert_null(state_of(dir, "rx-usecs"));

	/* the run: three set, the old values saved */
	assert_int_equal(run_in(dir, "PATH=\"$PWD/bin:$PATH\" NICNUMA_RESTORE=\"$PWD/r/restore.sh\" sh bind.sh"), 0);
	out = tmptree_get(dir, "out");
	assert_non_null(out);
	assert_contains(out, "  + lo rx-usecs: 3 -> 50 (ethtool -C)\n");
	assert_contains(out, "  + lo rx: 512 -> 1024 (ethtool -G)\n");
	assert_contains(out, "done: 3 changed, 1 already in place");
	free(out);
	v = state_of(dir, "adaptive-rx");
	assert_non_null(v);
	assert_string_equal(v, "on");
	free(v);
	out = tmptree_get(dir, "r/restore.sh");
	assert_non_null(out);
	assert_contains(out, "eth 'lo' C rx-usecs 3\n");
	assert_contains(out, "eth 'lo' C adaptive-rx off\n");
	assert_contains(out, "eth 'lo' G rx 512\n");
	assert_not_contains(out, "G tx");
	free(out);

	/* the restore script puts the old values back */
	assert_int_equal(run_in(dir, "PATH=\"$PWD/bin:$PATH\" sh r/restore.sh"), 0);
	v = state_of(dir, "rx-usecs");
	assert_string_equal(v, "3");
	free(v);
	v = state_of(dir, "rx");
	assert_string_equal(v, "512");
	free(v);
	v = state_of(dir, "adaptive-rx");
	assert_string_equal(v, "off");
	free(v);

	/* no ethtool on PATH: each value left alone, said; nothing to change */
	assert_int_equal(run_in(dir, "env PATH=/usr/bin:/bin sh -c 'command -v ethtool'"), 127);
	assert_int_equal(run_in(dir, "env PATH=/usr/bin:/bin NICNUMA_RESTORE=\"$PWD/r/r2.sh\" sh bind.sh"), 0);
	out = tmptree_get(dir, "out");
	assert_non_null(out);
	assert_contains(out, "ethtool is not installed: rx-usecs of lo left alone (planned 50)\n");
	assert_contains(out, "every value is already as planned: nothing to change");
	free(out);
	assert_int_equal(run_in(dir, "env PATH=/usr/bin:/bin sh bind.sh --dry-run"), 0);
	out = tmptree_get(dir, "out");
	assert_contains(out, "ethtool is not installed: rx ");
	free(out);

	assert_int_equal(tmptree_remove(dir), 0);
	nn_plan_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quote_forms),
		cmocka_unit_test(test_quote_round_trip_through_sh),
		cmocka_unit_test(test_render_hostile_names),
		cmocka_unit_test(test_render_napi_by_pid),
		cmocka_unit_test(test_render_eth_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
