/* SPDX-License-Identifier: GPL-2.0-or-later */
/* grub_sh.h - /etc/default/grub and grub.d/NAME.cfg read as the shell sources them
 *
 * grub-mkconfig sources /etc/default/grub, then (Debian, Ubuntu) every
 * /etc/default/grub.d/NAME.cfg in glob order, and reads the GRUB_* variables
 * they leave. Those files are shell. This reader evaluates the assignment
 * subset of sh exactly (quoting, $VAR, ${VAR}, ${VAR:-w}, ${VAR-w},
 * ${VAR:+w}, ${VAR+w}, export, readonly, unset, line continuations, here
 * documents skipped) and refuses what it cannot evaluate where it matters:
 * a tracked variable assigned from a command substitution or an unknown
 * value, assigned inside if/case/for/while/a function, through eval, read,
 * or a sourced file. Anything else (other variables, commands such as
 * `echo`) is passed over: grub-mkconfig's result for the tracked variables
 * does not depend on it. Pure: text in, values out.
 */
#ifndef NICNUMA_BOOT_GRUB_SH_H
#define NICNUMA_BOOT_GRUB_SH_H

#include <stdbool.h>
#include <stddef.h>

/* A variable as the files left it. */
struct nn_sh_var {
	char *name;
	char *value;		/* NULL: unset */
	bool unknown;		/* set from something this reader cannot evaluate */
	char *file;		/* the file that set it last (NULL: never set) */
	unsigned int line;
};

struct nn_sh_env {
	struct nn_sh_var *v;
	size_t n, cap;
};

#define NN_SH_ENV_INIT { NULL, 0, 0 }

/* Runs one file's @text (@len bytes, named @fname in messages) in @env.
 * @tracked (NULL-terminated) names the variables whose values must be known.
 * 0; -ENOTSUP with @why "FILE:LINE: ..." when a tracked variable cannot be
 * evaluated (or the text cannot be read as sh: an unterminated quote); -ENOMEM. */
int nn_sh_source(struct nn_sh_env *env, const char *fname, const char *text, size_t len,
		 const char *const *tracked, char *why, size_t whylen);
/* The variable @name (NULL when the files never set it). */
const struct nn_sh_var *nn_sh_get(const struct nn_sh_env *env, const char *name);
void nn_sh_env_free(struct nn_sh_env *env);

#endif
