/* SPDX-License-Identifier: GPL-2.0-or-later */
/* trust.h - what root may run: a file nobody else could have written, a
 * helper program by absolute path with a fixed environment
 *
 * One rule each, used by every caller: irqbalance's binary, the watcher
 * unit's ExecStart= (enable), systemctl. docs/design.md, "Trust rules".
 */
#ifndef NICNUMA_CORE_TRUST_H
#define NICNUMA_CORE_TRUST_H

#include <stddef.h>

struct nn_root;

/* @path (absolute, plain: no "//", "." or "..", inside @r) is a regular file
 * owned by root, not group/world-writable, and so is every directory above
 * it, "/" included (each checked without following a symlink: a link on the
 * way is refused). 0, or a negative errno with the reason in @why. */
int nn_trusted_file(const struct nn_root *r, const char *path, char *why, size_t whylen);

/* The one environment of every helper program nicnuma runs: nothing of the
 * caller's (PATH, LD_*, IFS, locale) reaches it. */
#define NN_HELPER_PATH "PATH=/usr/sbin:/usr/bin:/sbin:/bin"
extern char *const nn_helper_env[];

/* Runs helper @argv[0], a bare name ("systemctl"), as the first of
 * /usr/bin/NAME, /bin/NAME, /usr/sbin/NAME, /sbin/NAME that exists, with
 * nn_helper_env, stdin on /dev/null, stdout into @out (NUL-terminated, at
 * most @outlen - 1 bytes; NULL: /dev/null), stderr inherited. Never looks at
 * $PATH. Returns its exit status (127: none found), 128 + signal, or -errno. */
int nn_run_helper(char *const argv[], char *out, size_t outlen);

#endif
