// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_discover.c - whole-host discovery on a tree whose key files hold the
 * fuzzer's bytes: nn_host_discover must never crash or leak, whatever
 * numa_node, local_cpulist, distance, meminfo, /proc/interrupts... say.
 *
 * The tree is mkhost.py's vm-virtio shape, built once per process in a
 * temporary directory ($NN_FUZZ_TREE names a ready one instead). The input is
 * split at NUL bytes; chunk i replaces file i of the list below, the files
 * without a chunk get their original text back.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "fuzz.h"
#include "nicnuma/core/ctx.h"
#include "nicnuma/discover/host.h"

static const char *const files[] = {
	"sys/devices/pci0000:00/0000:00:03.0/numa_node",
	"sys/devices/pci0000:00/0000:00:03.0/local_cpulist",
	"proc/interrupts",
	"sys/devices/system/node/node0/distance",
	"sys/devices/system/node/node0/meminfo",
	"sys/devices/system/node/node0/cpulist",
	"sys/devices/system/cpu/online",
	"sys/devices/system/cpu/cpu1/topology/thread_siblings_list",
	"sys/devices/system/cpu/cpu2/cache/index3/shared_cpu_list",
	"proc/irq/28/smp_affinity_list",
	"proc/irq/29/effective_affinity_list",
	"sys/devices/system/node/node0/hugepages/hugepages-2048kB/nr_hugepages",
	"sys/class/net/eth0/speed",
	"proc/cpuinfo",
	"sys/kernel/mm/transparent_hugepage/enabled",
	"proc/1/comm",
};
#define NFILES (sizeof(files) / sizeof(files[0]))

static char tree[4096];
static char *orig[NFILES];
static size_t origlen[NFILES];
static int owned;

static void cleanup(void)
{
	char cmd[4200];

	if (owned && tree[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree);
		if (system(cmd) != 0)
			fprintf(stderr, "fuzz_discover: could not remove %s\n", tree);
	}
}

static void put(size_t i, const char *data, size_t len)
{
	char path[4400];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", tree, files[i]);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	FUZZ_ASSERT(fd >= 0);
	FUZZ_ASSERT(write(fd, data, len) == (ssize_t)len);
	close(fd);
}

static void setup(void)
{
	const char *env = getenv("NN_FUZZ_TREE");
	char cmd[8400], path[4400];
	size_t i;

	if (env && *env) {
		snprintf(tree, sizeof(tree), "%s", env);
	} else {
		const char *tmp = getenv("TMPDIR");

		snprintf(tree, sizeof(tree), "%s/nicnuma-fuzz-discover.XXXXXX",
			 tmp && *tmp ? tmp : (access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"));
		FUZZ_ASSERT(mkdtemp(tree));
		owned = 1;
		atexit(cleanup);
		snprintf(cmd, sizeof(cmd), "python3 '%s' build vm-virtio '%s'", NN_MKHOST, tree);
		if (system(cmd) != 0) {
			fprintf(stderr, "fuzz_discover: '%s' failed\n", cmd);
			abort();
		}
	}
	for (i = 0; i < NFILES; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", tree, files[i]);
		f = fopen(path, "rb");
		if (!f) {
			fprintf(stderr, "fuzz_discover: %s: %s\n", path, strerror(errno));
			abort();
		}
		orig[i] = malloc(1 << 16);
		FUZZ_ASSERT(orig[i]);
		origlen[i] = fread(orig[i], 1, 1 << 16, f);
		fclose(f);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size;
	struct nn_host host;
	struct nn_ctx ctx;
	size_t i, j;
	int err;

	if (!tree[0])
		setup();
	for (i = 0; i < NFILES; i++) {
		const char *nul = p < end ? memchr(p, '\0', (size_t)(end - p)) : NULL;

		if (p < end) {
			size_t len = nul ? (size_t)(nul - p) : (size_t)(end - p);

			put(i, p, len);
			p = nul ? nul + 1 : end;
		} else {
			put(i, orig[i], origlen[i]);
		}
	}
	FUZZ_ASSERT(nn_ctx_init(&ctx, tree, true) == 0);
	memset(&host, 0, sizeof(host));
	err = nn_host_discover(&ctx, &host);
	FUZZ_ASSERT(err <= 0);
	if (!err) {
		for (i = 0; i < host.nnics; i++) {
			FUZZ_ASSERT(host.nics[i].numa_node >= -1);
			for (j = 0; j < host.nics[i].nirqs; j++)
				FUZZ_ASSERT(host.nics[i].irqs[j].queue >= -1);
		}
		for (i = 0; i < host.topo.ncpus; i++)
			FUZZ_ASSERT(host.topo.cpus[i].node >= -1);
	}
	nn_host_free(&host);
	nn_ctx_free(&ctx);
	return 0;
}
