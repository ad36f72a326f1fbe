// SPDX-License-Identifier: GPL-2.0-or-later
/* kernel.c - the running kernel as the boot-argument planner needs it: release, configuration, command line, boot id
 *
 * Everything through the fs root: the release from
 * /proc/sys/kernel/osrelease (uname(2) would answer for the machine
 * nicnuma runs on, not for a captured tree), the configuration from
 * /boot/config-RELEASE or the kernel's own /proc/config.gz (gzip, inflated
 * with zlib), the boot id from /proc/sys/kernel/random/boot_id.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/core/fsroot.h"
#include "boot/boot_read.h"

/* A kernel .config is about 250 KB; anything past this is not one. */
#define KCONFIG_MAX (16u << 20)

static const char *const kconf_names[NN_KCONF_N] = {
	[NN_KCONF_NO_HZ_FULL] = "CONFIG_NO_HZ_FULL",
	[NN_KCONF_RCU_NOCB_CPU] = "CONFIG_RCU_NOCB_CPU",
	[NN_KCONF_CPU_ISOLATION] = "CONFIG_CPU_ISOLATION",
	[NN_KCONF_INTEL_IOMMU] = "CONFIG_INTEL_IOMMU",
	[NN_KCONF_AMD_IOMMU] = "CONFIG_AMD_IOMMU",
	[NN_KCONF_HUGETLBFS] = "CONFIG_HUGETLBFS",
};

const char *nn_kconf_name(enum nn_kconf k)
{
	return (unsigned int)k < NN_KCONF_N ? kconf_names[k] : "?";
}

int nn_kernel_release_parse(const char *rel, int *major, int *minor)
{
	char *end;
	long a, b;

	*major = *minor = -1;
	if (!rel || !isdigit((unsigned char)rel[0]))
		return -EINVAL;
	errno = 0;
	a = strtol(rel, &end, 10);
	if (errno || *end != '.' || !isdigit((unsigned char)end[1]) || a > 1000)
		return -EINVAL;
	b = strtol(end + 1, &end, 10);
	if (errno || b > 1000)
		return -EINVAL;
	*major = (int)a;
	*minor = (int)b;
	return 0;
}

int nn_boot_kernel_at_least(const struct nn_boot_kernel *k, int major, int minor)
{
	if (k->major < 0)
		return -1;
	return k->major > major || (k->major == major && k->minor >= minor);
}

void nn_kconfig_scan(const char *text, size_t len, signed char config[NN_KCONF_N])
{
	const char *p = text, *end = text + len;
	size_t k;

	for (k = 0; k < NN_KCONF_N; k++)
		config[k] = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		for (k = 0; k < NN_KCONF_N; k++) {
			size_t n = strlen(kconf_names[k]);

			/* "CONFIG_X=y" or "=m"; "# CONFIG_X is not set" leaves 0 */
			if ((size_t)(le - p) == n + 2 && !memcmp(p, kconf_names[k], n) && p[n] == '=' &&
			    (p[n + 1] == 'y' || p[n + 1] == 'm'))
				config[k] = 1;
		}
		p = nl ? nl + 1 : end;
	}
}

/* gzip data to text, at most KCONFIG_MAX bytes. */
static int gunzip(const unsigned char *in, size_t inlen, char **out, size_t *outlen)
{
	z_stream zs;
	size_t cap = inlen * 6 + 4096, n = 0;
	char *buf = malloc(cap + 1);
	int zr, err = 0;

	if (!buf)
		return -ENOMEM;
	memset(&zs, 0, sizeof(zs));
	if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) {
		free(buf);
		return -ENOMEM;
	}
	zs.next_in = (unsigned char *)in;
	zs.avail_in = (uInt)inlen;
	do {
		if (n == cap) {
			char *nb;

			if (cap >= KCONFIG_MAX) {
				err = -EFBIG;
				break;
			}
			cap *= 2;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				err = -ENOMEM;
				break;
			}
			buf = nb;
		}
		zs.next_out = (unsigned char *)buf + n;
		zs.avail_out = (uInt)(cap - n);
		zr = inflate(&zs, Z_NO_FLUSH);
		n = cap - zs.avail_out;
		if (zr != Z_OK && zr != Z_STREAM_END && !(zr == Z_BUF_ERROR && zs.avail_out == 0))
			err = -EINVAL;
	} while (!err && zr != Z_STREAM_END);
	inflateEnd(&zs);
	if (err) {
		free(buf);
		return err;
	}
	buf[n] = '\0';
	*out = buf;
	*outlen = n;
	return 0;
}

/* The configuration the running kernel was built with: the distribution's
 * copy beside it in /boot, else its own /proc/config.gz (CONFIG_IKCONFIG_PROC). */
static void read_config(struct nn_ctx *ctx, struct nn_boot_kernel *k)
{
	char path[160], *text = NULL;
	size_t len = 0;
	int err = -ENOENT;

	for (size_t i = 0; i < NN_KCONF_N; i++)
		k->config[i] = -1;
	if (k->release[0]) {
		snprintf(path, sizeof(path), "/boot/config-%s", k->release);
		err = nn_read_file(&ctx->root, path, &text, &len);
	}
	if (err) {
		char *gz = NULL;
		size_t gzlen = 0;

		snprintf(path, sizeof(path), "/proc/config.gz");
		err = nn_read_file(&ctx->root, path, &gz, &gzlen);
		if (!err) {
			err = gunzip((const unsigned char *)gz, gzlen, &text, &len);
			if (err && err != -ENOMEM)
				nn_warn(ctx, path, "not a gzip'd kernel configuration: %s", strerror(-err));
		}
		free(gz);
	}
	if (!err) {
		nn_kconfig_scan(text, len, k->config);
		snprintf(k->config_file, sizeof(k->config_file), "%s", path);
	}
	free(text);
}

int nn_boot_kernel_read(struct nn_ctx *ctx, struct nn_boot_kernel *k)
{
	int err;

	memset(k, 0, sizeof(*k));
	k->major = k->minor = -1;
	if (nn_read_str(&ctx->root, "/proc/sys/kernel/osrelease", k->release, sizeof(k->release)) ||
	    nn_kernel_release_parse(k->release, &k->major, &k->minor))
		k->release[0] = '\0';
	read_config(ctx, k);
	err = nn_read_file(&ctx->root, "/proc/cmdline", &k->cmdline, NULL);
	if (err == -ENOMEM)
		return err;
	if (err) {
		k->cmdline = NULL;
		nn_warn(ctx, "/proc/cmdline", "cannot read: %s; the running kernel's arguments are unknown",
			nn_read_strerror(err));
	}
	if (nn_read_str(&ctx->root, "/proc/sys/kernel/random/boot_id", k->boot_id, sizeof(k->boot_id)))
		k->boot_id[0] = '\0';
	return 0;
}

void nn_boot_kernel_free(struct nn_boot_kernel *k)
{
	free(k->cmdline);
	k->cmdline = NULL;
}
