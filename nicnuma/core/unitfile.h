/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unitfile.h - systemd unit syntax: names, command lines, quoting (pure)
 *
 * systemd is not a shell: ExecStart= splits words itself, expands %
 * specifiers everywhere and $VAR at exec time, and takes a lone ';' as a
 * command separator. Every word we write goes through nn_sd_quote() so an
 * argument means exactly what the user typed (systemd.service(5) "Command
 * lines", systemd.unit(5) "Specifiers", systemd.syntax(7) "Quoting").
 */
#ifndef NICNUMA_UNITFILE_H
#define NICNUMA_UNITFILE_H

#include <stdbool.h>
#include <stddef.h>

/* systemd's limit on a unit name (UNIT_NAME_MAX, including the NUL). */
#define NN_UNIT_NAME_MAX 256

/* 0 when "@name@<instance>.service" is a valid unit name for every node up
 * to @max_node; -EINVAL with @why ("'a/b': '/' is not allowed in a unit
 * name") otherwise. Accepts [A-Za-z0-9:_.-] and '\' escapes like systemd. */
int nn_unit_prefix_check(const char *name, int max_node, char *why, size_t whylen);

/* Splits a POSIX-shell-like command line into words: '...', "..." (with \\ \"
 * \$ \` escapes) and backslash outside quotes, no expansion. Unquoted shell
 * syntax that systemd would not honour (| & ; < > ( ) $ ` * ? and a leading
 * # or ~) is refused with @why saying to quote it or use /bin/sh -c.
 * Returns 0 with a NULL-terminated malloc'd vector, or -EINVAL/-ENOMEM. */
int nn_exec_split(const char *cmdline, char ***argv, size_t *argc, char *why, size_t whylen);
void nn_exec_free(char **argv);

/* The executable (first word) may carry no specifier or variable and must not
 * start with one of systemd's prefixes (@ - : + !); absolute path or a bare
 * name systemd looks up itself. */
int nn_exec_check_path(const char *path, char *why, size_t whylen);

enum nn_sd_quote_ctx {
	NN_SD_EXEC,	/* ExecStart= word: % -> %%, $ -> $$ */
	NN_SD_ENV,	/* Environment= assignment: % -> %%, $ stays */
};

/* Malloc'd word as systemd reads it back to @word: plain when it only holds
 * [A-Za-z0-9_./:=,@+-], else in double quotes with \\ \" \n \t \xHH escapes.
 * NULL on ENOMEM. */
char *nn_sd_quote(const char *word, enum nn_sd_quote_ctx ctx);

/* True when the first line of @text (@len bytes) is exactly the header
 * nicnuma layout writes for @unit ("fwd@.service", "fwd@1.service"): what
 * marks a file as one layout may replace. A unit that only mentions the
 * words further down is somebody else's. */
bool nn_unit_header_is_ours(const char *text, size_t len, const char *unit);

#endif
