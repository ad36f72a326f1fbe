/* SPDX-License-Identifier: GPL-2.0-or-later */
/* coexist.h - who else places IRQs on this host
 *
 * nicnuma's placement lasts only if nothing else rewrites it. Before enable,
 * apply or watch write, these owners are looked for (all files read through
 * the fs root, so fake trees test every rule):
 *  - tuned: /etc/tuned/active_profile names profiles; each one's tuned.conf
 *    (/etc/tuned/P/, /usr/lib/tuned/P/, /usr/lib/tuned/profiles/P/) with an
 *    [irq], [irqbalance] or [scheduler] section, or cpu-partitioning, also
 *    through include= (followed one level); with NN_COEXIST_BOOT (a plan that
 *    writes boot arguments) a [bootloader] section too;
 *  - systemd .link files (/etc, /run, /usr/lib, /lib systemd/network): the
 *    first file in name order whose [Match] fits the NIC (subset: OriginalName,
 *    Path, Driver globs, MACAddress; a leading '!' negates; other Match keys
 *    are taken as matching), when it sets IRQAffinity*=, IRQAffinityPolicy= or
 *    ReceivePacketSteeringCPUMask=;
 *  - irqbalance: IRQBALANCE_BANNED_CPUS/CPULIST, --banirq or a policyscript
 *    that is not nicnuma's (/etc/default/irqbalance, /etc/sysconfig/irqbalance,
 *    the running daemon's command line);
 *  - a nicnuma watcher holding /run/nicnuma/watch.lock.
 * The scanners of file text are pure and unit-tested.
 */
#ifndef NICNUMA_COEXIST_H
#define NICNUMA_COEXIST_H

#include <stdbool.h>
#include <stddef.h>

struct nn_ctx;
struct nn_host;

enum nn_owner_kind { NN_OWNER_TUNED, NN_OWNER_LINK, NN_OWNER_IRQBALANCE, NN_OWNER_WATCHER };

struct nn_owner {
	enum nn_owner_kind kind;
	char *name;	/* "tuned profile 'network-latency'" */
	char *file;	/* the file that says so (inside the root) */
	char *what;	/* "sets [irqbalance]" */
};

struct nn_coexist {
	struct nn_owner *v;
	size_t n, cap;
};

/* tuned.conf sections that move IRQs or threads. */
#define NN_TUNED_IRQ 0x1u
#define NN_TUNED_IRQBALANCE 0x2u
#define NN_TUNED_SCHEDULER 0x4u
#define NN_TUNED_BOOTLOADER 0x8u	/* an owner only with NN_COEXIST_BOOT */

/* Pure: the sections of a tuned.conf and its [main] include= (first 127
 * bytes, "" when none). */
unsigned int nn_tuned_conf_scan(const char *text, size_t len, char *include, size_t inclen);

/* What a .link file is matched against. */
struct nn_link_nic {
	const char *name;	/* OriginalName */
	const char *mac;	/* MACAddress, may be NULL */
	const char *path;	/* ID_PATH "pci-0000:65:00.0", may be NULL */
	const char *driver;	/* may be NULL */
};

/* Pure: -ENOENT when the file has no [Match] section (ignored), else 0 with
 * *@match and @keys the IRQ keys it sets ("IRQAffinity=,..." or ""). */
int nn_link_file_scan(const char *text, size_t len, const struct nn_link_nic *nic, bool *match,
		      char *keys, size_t keyslen);

/* Pure: 1 when an irqbalance defaults file (KEY=VALUE lines) bans CPUs or
 * IRQs or names a policyscript other than nicnuma's (@what says which), else 0. */
int nn_irqb_conf_scan(const char *text, size_t len, char *what, size_t whatlen);
/* The same over one command line's words joined by spaces. */
int nn_irqb_args_scan(const char *args, char *what, size_t whatlen);

/* Skip the watcher lock (the watcher itself; enable, which restarts it). */
#define NN_COEXIST_NO_WATCHER 0x1u
/* The plan writes the kernel's boot arguments: a tuned profile's
 * [bootloader] (its cmdline) is another owner too. */
#define NN_COEXIST_BOOT 0x2u

/* Every owner found for the NICs named in @nics (NULL: every NIC of @host). */
int nn_coexist_scan(struct nn_ctx *ctx, const struct nn_host *host, char *const *nics,
		    size_t nnics, unsigned int flags, struct nn_coexist *out);
void nn_coexist_free(struct nn_coexist *c);
/* enable, apply, watch: each owner printed "refusing: OWNER" and -EBUSY;
 * with @allow (--coexist, check) each is a warning "another owner of IRQ
 * placement: OWNER"
 * instead and 0. */
int nn_coexist_gate(struct nn_ctx *ctx, const struct nn_host *host, char *const *nics,
		    size_t nnics, unsigned int flags, bool allow);
/* "tuned profile 'x' (/usr/lib/tuned/x/tuned.conf) sets [irqbalance]" */
int nn_owner_text(const struct nn_owner *o, char **out);

/* The watcher lock, /run/nicnuma/watch.lock inside the root, taken by the
 * watcher (service/watch.h, nn_watch_lock) and only looked at here: opened
 * O_NOFOLLOW read-only, must be a regular file with one link.
 * 1 with *@holder when a watcher holds it, 0 when none, -errno. @holder
 * NULL: not looked up (the kernel's lock table is slow to read on a busy
 * host: a claim asks before its record only whether one runs). */
#define NN_WATCH_RUNDIR "/run/nicnuma"
int nn_watch_lock_held(struct nn_ctx *ctx, int *holder);
/* The pid holding the flock on @fd: the kernel's /proc/locks entry for that
 * file, else the pid the lock file names (written by its holder); 0 unknown. */
int nn_watch_lock_holder(int fd);

#endif
