// SPDX-License-Identifier: GPL-2.0-or-later
/* test_oci_hook.c - the OCI hook's pure half: state, config.json, the decision */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "nicnuma/service/oci_hook.h"
#include "nicnuma/core/ctx.h"

#define ID64 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

/* A bundle on a hung file system: this process's open(at) of a config.json
 * blocks (3 s here) as open on a dead NFS or FUSE server does. */
static bool hang_config;

int openat(int dfd, const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;
	size_t n = strlen(path);

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	if (hang_config && n >= 11 && !strcmp(path + n - 11, "config.json"))
		sleep(3);
	return (int)syscall(SYS_openat, dfd, path, flags, mode);
}

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;
	size_t n = strlen(path);

	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	if (hang_config && n >= 11 && !strcmp(path + n - 11, "config.json"))
		sleep(3);
	return (int)syscall(SYS_openat, AT_FDCWD, path, flags, mode);
}

static int state(const char *text, struct nn_oci_state *s, char *why)
{
	return nn_oci_state_parse(text, strlen(text), s, why, 256);
}

static int config(const char *text, struct nn_oci_config *c, char *why)
{
	return nn_oci_config_parse(text, strlen(text), c, why, 256);
}

static void test_state(void **unused)
{
	struct nn_oci_state s;
	char why[256];

	(void)unused;
	assert_int_equal(state("{\"ociVersion\":\"1.0.2\",\"id\":\"" ID64 "\",\"status\":\"creating\","
			       "\"pid\":4242,\"bundle\":\"/run/b\",\"annotations\":{\"a\":\"b\"},"
			       "\"unknown\":[1,2]}", &s, why), 0);
	assert_string_equal(s.id, ID64);
	assert_string_equal(s.status, "creating");
	assert_int_equal(s.pid, 4242);
	assert_string_equal(s.bundle, "/run/b");
	assert_int_equal(s.nann, 1);
	assert_string_equal(s.ann[0].value, "b");
	nn_oci_state_free(&s);
	/* poststop: no pid, no bundle */
	assert_int_equal(state("{\"ociVersion\":\"1.0.2\",\"id\":\"c1\",\"status\":\"stopped\"}", &s, why), 0);
	assert_int_equal(s.pid, -1);
	nn_oci_state_free(&s);
}

static void test_state_refused(void **unused)
{
	static const struct { const char *text, *why; } bad[] = {
		{ "", "empty" },
		{ "[]", "not a JSON object" },
		{ "{\"id\":\"c\",\"status\":\"created\"}", "lacks \"ociVersion\"" },
		{ "{\"ociVersion\":\"1\",\"id\":5,\"status\":\"created\"}", "\"id\" is not a string" },
		{ "{\"ociVersion\":\"1\",\"id\":\"a b\",\"status\":\"created\"}", "cannot name a claim" },
		{ "{\"ociVersion\":\"1\",\"id\":\"../x\",\"status\":\"created\"}", "cannot name a claim" },
		{ "{\"ociVersion\":\"1\",\"id\":\"" ID64 ID64 "\",\"status\":\"created\"}", "cannot name a claim" },
		{ "{\"ociVersion\":\"1\",\"id\":\"c\",\"status\":\"created\",\"pid\":\"1\"}", "not an integer" },
		{ "{\"ociVersion\":\"1\",\"id\":\"c\",\"status\":\"created\",\"pid\":-5}", "out of range" },
		{ "{\"ociVersion\":\"1\",\"id\":\"c\",\"status\":\"created\",\"pid\":99999999999}", "out of range" },
		{ "{\"ociVersion\":\"1\",\"id\":\"c\",\"status\":\"created\",\"pid\":1.5}", "not an integer" },
		{ "{\"ociVersion\":\"1\",\"id\":\"c\",\"status\":\"created\",\"bundle\":\"rel\"}", "not an absolute" },
		{ "{\"ociVersion\":\"1\",\"id\":\"c\",\"status\":\"created\",\"annotations\":[]}", "not an object" },
		{ "{\"ociVersion\":\"1\",\"id\":\"c\",\"status\":\"created\",\"annotations\":{\"a\":1}}",
		  "annotation values are strings" },
		{ "{\"ociVersion\":\"1\",\"id\":\"c\",\"status\":\"cr\xff\"}", "not JSON" },
		{ "{\"ociVersion\":\"1\",\"id\":\"c\",\"status\":\"created\"} x", "not JSON" },
		{ "{\"ociVersion\":\"1\",\"id\":\"c\",\"status\":\"created\"", "ends too early" },
		{ "{\"a\":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}", "not JSON" },
	};
	struct nn_oci_state s;
	char why[256];
	size_t i;

	(void)unused;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		assert_int_not_equal(state(bad[i].text, &s, why), 0);
		if (!strstr(why, bad[i].why))
			fail_msg("case %zu: '%s' lacks '%s'", i, why, bad[i].why);
		assert_null(s.id);
	}
	/* over the size bound: refused before parsing */
	{
		size_t n = NN_OCI_STATE_MAX + 1;
		char *big = malloc(n);

		assert_non_null(big);
		memset(big, ' ', n);
		assert_int_equal(nn_oci_state_parse(big, n, &s, why, sizeof(why)), -EFBIG);
		free(big);
	}
}

static void test_config(void **unused)
{
	struct nn_oci_config c;
	char why[256];

	(void)unused;
	assert_int_equal(config("{\"linux\":{\"resources\":{\"cpu\":{\"cpus\":\"1,3-4\"}}},"
				"\"annotations\":{\"nicnuma.io/claim\":\"true\"}}", &c, why), 0);
	assert_true(c.has_cpus);
	assert_int_equal(nn_cpuset_count(&c.cpus), 3);
	assert_int_equal(c.nann, 1);
	nn_oci_config_free(&c);
	assert_int_equal(config("{\"linux\":{}}", &c, why), 0);
	assert_false(c.has_cpus);
	nn_oci_config_free(&c);
	assert_int_equal(config("{\"linux\":{\"resources\":{\"cpu\":{\"cpus\":\"\"}}}}", &c, why), 0);
	assert_false(c.has_cpus);
	nn_oci_config_free(&c);
	assert_int_equal(config("{\"linux\":{\"resources\":{\"cpu\":{\"cpus\":7}}}}", &c, why), -EINVAL);
	assert_non_null(strstr(why, "not a string"));
	assert_int_equal(config("{\"linux\":{\"resources\":[]}}", &c, why), -EINVAL);
	assert_int_equal(config("{\"linux\":{\"resources\":{\"cpu\":{\"cpus\":\"0-99999999\"}}}}", &c, why),
			 -EINVAL);
	assert_non_null(strstr(why, "no cpulist"));
	assert_int_equal(config("{\"linux\":{\"resources\":{\"cpu\":{\"cpus\":\"x\"}}}}", &c, why), -EINVAL);
	assert_int_equal(config("{\"linux\":{\"resources\":{\"cpu\":{\"shares\":\"x\"}}}}", &c, why), -EINVAL);
	assert_non_null(strstr(why, "linux.resources.cpu.shares is not an integer"));
	assert_int_equal(config("{\"linux\":{\"cgroupsPath\":1}}", &c, why), -EINVAL);
	assert_non_null(strstr(why, "cgroupsPath is not a string"));
}

static void decide(const char *st, const char *cfg, enum nn_oci_stage stage, enum nn_oci_action want,
		   enum nn_oci_mode mode)
{
	struct nn_oci_state s;
	struct nn_oci_config c;
	struct nn_oci_decision d;
	char why[256];

	assert_int_equal(state(st, &s, why), 0);
	assert_int_equal(config(cfg, &c, why), 0);
	nn_oci_decide(&s, &c, stage, &d);
	if (d.action != want || d.mode != mode)
		fail_msg("%s + %s: action %d mode %d (%s)", st, cfg, d.action, d.mode, d.why ? d.why : "");
	if (want == NN_OCI_NOTHING)
		assert_non_null(d.why);
	/* said on stderr only when an annotation asked and it cannot be done */
	if (d.refused)
		assert_true(want == NN_OCI_NOTHING && (strstr(d.why, "no pid") || strstr(d.why, "no linux") ||
						       strstr(d.why, "whole CPUs")));
	nn_oci_state_free(&s);
	nn_oci_config_free(&c);
}

#define ST(status) "{\"ociVersion\":\"1.0.2\",\"id\":\"c1\",\"status\":\"" status "\",\"pid\":7,\"bundle\":\"/b\"}"
#define CFG(ann) "{\"linux\":{\"resources\":{\"cpu\":{\"cpus\":\"2-5\"}}},\"annotations\":{" ann "}}"

static void test_decide(void **unused)
{
	(void)unused;
	decide(ST("creating"), CFG("\"irq-load-balancing.crio.io\":\"disable\""), 0, NN_OCI_CLAIM,
	       NN_OCI_MODE_DISABLE);
	decide(ST("created"), CFG("\"irq-load-balancing.crio.io\":\"true\""), 0, NN_OCI_CLAIM,
	       NN_OCI_MODE_DISABLE);
	decide(ST("created"), CFG("\"irq-load-balancing.crio.io\":\"housekeeping\""),
	       NN_OCI_STAGE_CREATE_RUNTIME, NN_OCI_CLAIM, NN_OCI_MODE_HOUSEKEEPING);
	decide(ST("created"), CFG("\"nicnuma.io/claim\":\"true\""), 0, NN_OCI_CLAIM, NN_OCI_MODE_DISABLE);
	decide(ST("created"), CFG("\"irq-load-balancing.crio.io\":\"enable\""), 0, NN_OCI_NOTHING,
	       NN_OCI_MODE_NONE);
	decide(ST("created"), CFG(""), 0, NN_OCI_NOTHING, NN_OCI_MODE_NONE);
	decide(ST("created"), CFG("\"irq-load-balancing.crio.io\":\"disable\",\"nicnuma.io/claim\":\"false\""),
	       0, NN_OCI_NOTHING, NN_OCI_MODE_NONE);
	/* the pod's pause container carries the annotation but not the workload */
	decide(ST("created"), CFG("\"irq-load-balancing.crio.io\":\"disable\","
				  "\"io.kubernetes.cri-o.ContainerType\":\"sandbox\""), 0, NN_OCI_NOTHING,
	       NN_OCI_MODE_NONE);
	/* no cpuset: nothing of its own */
	decide(ST("created"), "{\"annotations\":{\"nicnuma.io/claim\":\"true\"}}", 0, NN_OCI_NOTHING,
	       NN_OCI_MODE_NONE);
	/* no pid: no owner */
	decide("{\"ociVersion\":\"1\",\"id\":\"c1\",\"status\":\"created\",\"bundle\":\"/b\"}",
	       CFG("\"nicnuma.io/claim\":\"true\""), 0, NN_OCI_NOTHING, NN_OCI_MODE_NONE);
	/* poststop releases whatever the annotations say now */
	decide(ST("stopped"), CFG(""), 0, NN_OCI_RELEASE, NN_OCI_MODE_NONE);
	decide(ST("created"), CFG(""), NN_OCI_STAGE_POSTSTOP, NN_OCI_RELEASE, NN_OCI_MODE_NONE);
	decide(ST("paused"), CFG("\"nicnuma.io/claim\":\"true\""), 0, NN_OCI_NOTHING, NN_OCI_MODE_NONE);
}

/* The decision for a CRI-O container with @linux's cgroupsPath and CPU
 * limits (annotated disable); *@why gets the reason when nothing. */
static enum nn_oci_action qos(const char *linux_, char *why, size_t size)
{
	struct nn_oci_state s;
	struct nn_oci_config c;
	struct nn_oci_decision d;
	char buf[1024], w[256];
	enum nn_oci_action a;

	snprintf(buf, sizeof(buf), "{\"linux\":%s,\"annotations\":{\"irq-load-balancing.crio.io\":"
		 "\"disable\"}}", linux_);
	assert_int_equal(state(ST("created"), &s, w), 0);
	if (config(buf, &c, w))
		fail_msg("%s: %s", buf, w);
	nn_oci_decide(&s, &c, 0, &d);
	snprintf(why, size, "%s", d.why ? d.why : "");
	a = d.action;
	if (a == NN_OCI_NOTHING)
		assert_true(d.refused);
	nn_oci_state_free(&s);
	nn_oci_config_free(&c);
	return a;
}

/* Only what CRI-O would isolate claims: a Guaranteed pod's container with
 * whole CPUs (issue 36: a Burstable container with shares 102 and cpus
 * 0-9,16-25 squeezed both NICs' IRQs onto two CPUs). */
static void test_guaranteed_only(void **unused)
{
	char why[256];

	(void)unused;
	/* Burstable, systemd and cgroupfs spellings */
	assert_int_equal(qos("{\"cgroupsPath\":\"kubepods-burstable-pod1a2b.slice:crio:c1\","
			     "\"resources\":{\"cpu\":{\"cpus\":\"0-9,16-25\",\"shares\":102}}}",
			     why, sizeof(why)), NN_OCI_NOTHING);
	assert_non_null(strstr(why, "a Burstable pod's container (linux.cgroupsPath "
			       "kubepods-burstable-pod1a2b.slice:crio:c1)"));
	assert_int_equal(qos("{\"cgroupsPath\":\"/kubepods/besteffort/pod1a2b/c1\","
			     "\"resources\":{\"cpu\":{\"cpus\":\"2-3\",\"shares\":2}}}",
			     why, sizeof(why)), NN_OCI_NOTHING);
	assert_non_null(strstr(why, "a BestEffort pod's container"));
	/* Guaranteed but part of a CPU: shares or quota */
	assert_int_equal(qos("{\"cgroupsPath\":\"kubepods-pod1a2b.slice:crio:c1\","
			     "\"resources\":{\"cpu\":{\"cpus\":\"2-3\",\"shares\":1536}}}",
			     why, sizeof(why)), NN_OCI_NOTHING);
	assert_non_null(strstr(why, "cpu shares 1536 are not a multiple of 1024"));
	assert_int_equal(qos("{\"cgroupsPath\":\"kubepods-pod1a2b.slice:crio:c1\","
			     "\"resources\":{\"cpu\":{\"cpus\":\"2-3\",\"shares\":2048,"
			     "\"quota\":150000,\"period\":100000}}}", why, sizeof(why)), NN_OCI_NOTHING);
	assert_non_null(strstr(why, "cpu quota 150000 per period 100000 is part of a CPU"));
	/* a Kubernetes container that does not say its shares */
	assert_int_equal(qos("{\"cgroupsPath\":\"/kubepods/pod1a2b/c1\","
			     "\"resources\":{\"cpu\":{\"cpus\":\"2-3\"}}}", why, sizeof(why)),
			 NN_OCI_NOTHING);
	assert_non_null(strstr(why, "without linux.resources.cpu.shares"));
	/* Guaranteed with whole CPUs claims (quota whole or none) */
	assert_int_equal(qos("{\"cgroupsPath\":\"kubepods-pod1a2b.slice:crio:c1\","
			     "\"resources\":{\"cpu\":{\"cpus\":\"2-3\",\"shares\":2048,"
			     "\"quota\":200000,\"period\":100000}}}", why, sizeof(why)), NN_OCI_CLAIM);
	assert_int_equal(qos("{\"cgroupsPath\":\"/kubepods/pod1a2b/c1\","
			     "\"resources\":{\"cpu\":{\"cpus\":\"2-3\",\"shares\":2048,\"quota\":-1}}}",
			     why, sizeof(why)), NN_OCI_CLAIM);
	/* by hand (podman, runc): no shares is the runtime user's word */
	assert_int_equal(qos("{\"cgroupsPath\":\"machine.slice:libpod:c1\","
			     "\"resources\":{\"cpu\":{\"cpus\":\"2-3\"}}}", why, sizeof(why)),
			 NN_OCI_CLAIM);
	assert_int_equal(qos("{\"resources\":{\"cpu\":{\"cpus\":\"2-3\",\"shares\":512}}}",
			     why, sizeof(why)), NN_OCI_NOTHING);
}

/* The hook stays inside its deadline when config.json cannot be read:
 * refused after --deadline-ms, not after the file system answers. */
static void test_config_deadline(void **unused)
{
	struct nn_hook_opts o = { .stage = NN_OCI_STAGE_NONE, .deadline_ms = 300, .dry_run = true };
	struct nn_ctx ctx;
	struct timespec a, b;
	char dir[] = "/tmp/nn-ocitest.XXXXXX", path[64], st[256];
	long long ms;
	int p[2], fd, rc;

	(void)unused;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/config.json", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_true(write(fd, CFG("\"nicnuma.io/claim\":\"true\""), strlen(CFG("\"nicnuma.io/claim\":\"true\""))) > 0);
	close(fd);
	snprintf(st, sizeof(st), "{\"ociVersion\":\"1.0.2\",\"id\":\"c1\",\"status\":\"creating\","
		 "\"pid\":%d,\"bundle\":\"%s\"}", (int)getpid(), dir);
	assert_int_equal(pipe(p), 0);
	assert_true(write(p[1], st, strlen(st)) > 0);
	close(p[1]);
	o.in_fd = p[0];
	assert_int_equal(nn_ctx_init(&ctx, "/", true), 0);
	hang_config = true;
	clock_gettime(CLOCK_MONOTONIC, &a);
	rc = nn_hook_run(&ctx, &o);
	clock_gettime(CLOCK_MONOTONIC, &b);
	hang_config = false;
	ms = (b.tv_sec - a.tv_sec) * 1000LL + (b.tv_nsec - a.tv_nsec) / 1000000;
	assert_int_equal(rc, 1);		/* refused: nothing claimed */
	if (ms > 1500)
		fail_msg("the hook took %lld ms with --deadline-ms 300", ms);
	close(p[0]);
	nn_ctx_free(&ctx);
	unlink(path);
	rmdir(dir);
}

static void test_claim_cpus(void **unused)
{
	struct nn_cpuset cpus = NN_CPUSET_INIT, sib = NN_CPUSET_INIT, out = NN_CPUSET_INIT;
	char *s;

	(void)unused;
	assert_int_equal(nn_cpuset_parse_list("4-7", &cpus), 0);
	assert_int_equal(nn_oci_claim_cpus(&cpus, NN_OCI_MODE_DISABLE, NULL, &out), 0);
	s = nn_cpuset_format_list(&out);
	assert_string_equal(s, "4-7");
	free(s);
	/* housekeeping without siblings known: the first CPU alone stays (CRI-O's rule) */
	assert_int_equal(nn_oci_claim_cpus(&cpus, NN_OCI_MODE_HOUSEKEEPING, NULL, &out), 0);
	s = nn_cpuset_format_list(&out);
	assert_string_equal(s, "5-7");
	free(s);
	assert_int_equal(nn_cpuset_parse_list("4-5", &sib), 0);
	assert_int_equal(nn_oci_claim_cpus(&cpus, NN_OCI_MODE_HOUSEKEEPING, &sib, &out), 0);
	s = nn_cpuset_format_list(&out);
	assert_string_equal(s, "6-7");
	free(s);
	/* one CPU and housekeeping: nothing left to claim */
	assert_int_equal(nn_cpuset_parse_list("4", &cpus), 0);
	assert_int_equal(nn_oci_claim_cpus(&cpus, NN_OCI_MODE_HOUSEKEEPING, &sib, &out), 0);
	assert_true(nn_cpuset_empty(&out));
	nn_cpuset_free(&cpus);
	nn_cpuset_free(&sib);
	nn_cpuset_free(&out);
}

static void test_names(void **unused)
{
	char buf[256];

	(void)unused;
	assert_int_equal(nn_oci_claim_name(ID64, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "oci-" ID64);
	assert_int_equal(nn_oci_claim_name("a+b", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(nn_oci_claim_name("", buf, sizeof(buf)), -EINVAL);
	assert_int_equal(nn_oci_stage_parse("createRuntime"), NN_OCI_STAGE_CREATE_RUNTIME);
	assert_int_equal(nn_oci_stage_parse("poststop"), NN_OCI_STAGE_POSTSTOP);
	assert_int_equal(nn_oci_stage_parse("PostStop"), -1);
	assert_string_equal(nn_oci_stage_name(NN_OCI_STAGE_PRESTART), "prestart");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_state),
		cmocka_unit_test(test_state_refused),
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_decide),
		cmocka_unit_test(test_guaranteed_only),
		cmocka_unit_test(test_config_deadline),
		cmocka_unit_test(test_claim_cpus),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
