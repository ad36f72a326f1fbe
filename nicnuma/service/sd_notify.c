// SPDX-License-Identifier: GPL-2.0-or-later
/* sd_notify.c - libsystemd's sd_notify/sd_watchdog_enabled, dlopen'ed (see
 * sd_notify.h for why) */
#include "nicnuma/service/sd_notify.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_LIBSYSTEMD
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#endif

bool nn_sd_supported(void)
{
#ifdef HAVE_LIBSYSTEMD
	return true;
#else
	return false;
#endif
}

int nn_sd_open(struct nn_sd *sd)
{
	memset(sd, 0, sizeof(*sd));
#ifdef HAVE_LIBSYSTEMD
	{
		const char *sock = getenv("NOTIFY_SOCKET");

		if (!sock || !*sock)
			return 0;	/* not run by a notify unit: nothing to say */
		sd->lib = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
		if (!sd->lib)
			return -ENOENT;
		/* The header's own types: a mismatch is a compile error. */
		*(void **)&sd->notify = dlsym(sd->lib, "sd_notify");
		*(void **)&sd->watchdog_enabled = dlsym(sd->lib, "sd_watchdog_enabled");
		if (0) {	/* type check only */
			__typeof__(&sd_notify) n = sd->notify;
			__typeof__(&sd_watchdog_enabled) w = sd->watchdog_enabled;

			(void)n;
			(void)w;
		}
		if (!sd->notify) {
			nn_sd_close(sd);
			return -ENOENT;
		}
	}
#endif
	return 0;
}

void nn_sd_close(struct nn_sd *sd)
{
	if (sd->lib)
		dlclose(sd->lib);
	memset(sd, 0, sizeof(*sd));
}

void nn_sd_notify(const struct nn_sd *sd, const char *msg)
{
	if (sd->notify)
		sd->notify(0, msg);
}

uint64_t nn_sd_watchdog_usec(const struct nn_sd *sd)
{
	uint64_t usec = 0;

	if (sd->watchdog_enabled && sd->watchdog_enabled(0, &usec) > 0)
		return usec;
	return 0;
}

int nn_sd_journal(int prio, const char *msg)
{
#ifdef HAVE_LIBSYSTEMD
	__typeof__(&sd_journal_print) print;
	void *lib;
	int ret;

	if (access("/run/systemd/journal/socket", W_OK))
		return -ENOENT;
	lib = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		return -ENOENT;
	*(void **)&print = dlsym(lib, "sd_journal_print");
	ret = print ? print(prio, "%s", msg) : -ENOENT;
	dlclose(lib);
	return ret < 0 ? ret : 0;
#else
	(void)prio;
	(void)msg;
	return -ENOENT;
#endif
}
