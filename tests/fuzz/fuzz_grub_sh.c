// SPDX-License-Identifier: GPL-2.0-or-later
/* fuzz_grub_sh.c - the grub.d reader (nn_sh_source): never crash; the same
 * text gives the same answer twice; a refusal names the file and a line of
 * it and says why; an accepted text leaves each tracked variable known (never
 * "unknown"), its value a C string; and a drop-in nicnuma formats from the
 * kernel words of that value reads back to exactly those words, after it,
 * through the same reader. */
#include <errno.h>

#include "fuzz.h"
#include "nicnuma/core/parse.h"
#include "boot/boot_read.h"
#include "boot/grub_sh.h"

static const char *const vars[] = { "GRUB_CMDLINE_LINUX", "GRUB_CMDLINE_LINUX_DEFAULT", NULL };

static int run(const char *text, size_t len, char **value, char *why, size_t whylen)
{
	struct nn_sh_env env = NN_SH_ENV_INIT;
	const struct nn_sh_var *v;
	int err = nn_sh_source(&env, "/etc/default/grub.d/f.cfg", text, len, vars, why, whylen);

	*value = NULL;
	if (!err) {
		for (size_t i = 0; vars[i]; i++) {
			v = nn_sh_get(&env, vars[i]);
			FUZZ_ASSERT(!v || !v->unknown);
		}
		v = nn_sh_get(&env, vars[1]);
		*value = strdup(v && v->value ? v->value : "");
		FUZZ_ASSERT(*value);
	}
	nn_sh_env_free(&env);
	return err;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char why[512], why2[512], *a, *b, *words[64], *dropin, *back;
	const char *p, *w, *e;
	size_t n = 0;
	int e1, e2;

	e1 = run((const char *)data, size, &a, why, sizeof(why));
	e2 = run((const char *)data, size, &b, why2, sizeof(why2));
	FUZZ_ASSERT(e1 == e2);
	if (e1) {
		FUZZ_ASSERT(e1 == -ENOTSUP || e1 == -ENOMEM);
		FUZZ_ASSERT(e1 == -ENOMEM || !strncmp(why, "/etc/default/grub.d/f.cfg:", 26));
		FUZZ_ASSERT(!strcmp(why, why2));
		return 0;
	}
	FUZZ_ASSERT(!strcmp(a, b));
	/* the safe words of the value, as a drop-in nicnuma would write them */
	for (p = a; n < 64 && nn_cmdline_word(&p, &w, &e);)
		if (nn_karg_safe(w, (size_t)(e - w)))
			words[n++] = strndup(w, (size_t)(e - w));
	dropin = nn_grub_dropin_format(words, n);
	FUZZ_ASSERT(dropin);
	FUZZ_ASSERT(nn_grub_dropin_parse(dropin, &back, why, sizeof(why)) == 0);
	{
		struct nn_sh_env env = NN_SH_ENV_INIT;
		const struct nn_sh_var *v;
		char *want = NULL;
		size_t k, len = 2;

		for (k = 0; k < n; k++)
			len += strlen(words[k]) + 1;
		want = calloc(1, len);
		FUZZ_ASSERT(want);
		for (k = 0; k < n; k++) {
			strcat(want, k ? " " : "");
			strcat(want, words[k]);
		}
		FUZZ_ASSERT(!strcmp(back, want));
		/* sourced after the fuzzed text, it appends exactly its words */
		FUZZ_ASSERT(nn_sh_source(&env, "f", (const char *)data, size, vars, why, sizeof(why)) == 0);
		FUZZ_ASSERT(nn_sh_source(&env, "d", dropin, strlen(dropin), vars, why, sizeof(why)) == 0);
		v = nn_sh_get(&env, vars[1]);
		FUZZ_ASSERT(v && v->value && strlen(v->value) == strlen(a) + 1 + strlen(want));
		FUZZ_ASSERT(!strncmp(v->value, a, strlen(a)) && !strcmp(v->value + strlen(a) + 1, want));
		nn_sh_env_free(&env);
		free(want);
	}
	for (size_t k = 0; k < n; k++)
		free(words[k]);
	free(back);
	free(dropin);
	free(a);
	free(b);
	return 0;
}
