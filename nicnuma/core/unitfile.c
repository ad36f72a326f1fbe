// SPDX-License-Identifier: GPL-2.0-or-later
/* unitfile.c - systemd unit names, command-line splitting and quoting (pure) */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/names.h"
#include "nicnuma/core/unitfile.h"

#define UNIT_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789:-_.\\"

int nn_unit_prefix_check(const char *name, int max_node, char *why, size_t whylen)
{
	size_t len = strlen(name), bad;
	char inst[16];

	if (!len) {
		snprintf(why, whylen, "the service name is empty");
		return -EINVAL;
	}
	bad = strspn(name, UNIT_CHARS);
	if (bad < len) {
		unsigned char c = (unsigned char)name[bad];

		if (c == '@')
			snprintf(why, whylen, "'%s': give the name without '@' (the template "
				 "NAME@.service and its instances are made from it)", name);
		else if (isprint(c))
			snprintf(why, whylen, "'%s': '%c' is not allowed in a unit name "
				 "(letters, digits, ':', '-', '_', '.', '\\' only)", name, c);
		else
			snprintf(why, whylen, "'%s': byte 0x%02x is not allowed in a unit name",
				 name, c);
		return -EINVAL;
	}
	if (len > 8 && !strcmp(name + len - 8, ".service")) {
		snprintf(why, whylen, "'%s': give the name without '.service'", name);
		return -EINVAL;
	}
	/* Stricter than systemd: a leading '-' reads as an option to systemctl,
	 * a leading '.' makes a hidden file. */
	if (name[0] == '-' || name[0] == '.') {
		snprintf(why, whylen, "'%s': a unit name here must not start with '%c'", name,
			 name[0]);
		return -EINVAL;
	}
	snprintf(inst, sizeof(inst), "%d", max_node < 0 ? 0 : max_node);
	if (len + 1 + strlen(inst) + strlen(".service") >= NN_UNIT_NAME_MAX) {
		snprintf(why, whylen, "'%.40s...': %s@%s.service would be longer than systemd's "
			 "%d-character limit", name, "NAME", inst, NN_UNIT_NAME_MAX - 1);
		return -EINVAL;
	}
	return 0;
}

struct wordbuf {
	char *s;
	size_t len, cap;
};

static int wb_add(struct wordbuf *w, char c)
{
	if (w->len + 2 > w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 32;
		char *n = realloc(w->s, cap);

		if (!n)
			return -ENOMEM;
		w->s = n;
		w->cap = cap;
	}
	w->s[w->len++] = c;
	w->s[w->len] = '\0';
	return 0;
}

static int push(char ***argv, size_t *argc, struct wordbuf *w)
{
	char **n = realloc(*argv, (*argc + 2) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	*argv = n;
	n[(*argc)++] = w->s ? w->s : strdup("");
	n[*argc] = NULL;
	memset(w, 0, sizeof(*w));
	return n[*argc - 1] ? 0 : -ENOMEM;
}

void nn_exec_free(char **argv)
{
	char **p;

	for (p = argv; p && *p; p++)
		free(*p);
	free(argv);
}

int nn_exec_split(const char *cmdline, char ***argvp, size_t *argcp, char *why, size_t whylen)
{
	struct wordbuf w = { 0 };
	char **argv = NULL;
	size_t argc = 0;
	const char *p = cmdline;
	bool inword = false;
	int err = 0;

	for (;;) {
		char c = *p;

		if (!c || c == ' ' || c == '\t' || c == '\n') {
			if (inword) {
				err = push(&argv, &argc, &w);
				if (err)
					goto fail;
				inword = false;
			}
			if (!c)
				break;
			p++;
			continue;
		}
		if (c == '\'') {
			const char *end = strchr(p + 1, '\'');

			if (!end) {
				snprintf(why, whylen, "unterminated ' in '%s'", cmdline);
				err = -EINVAL;
				goto fail;
			}
			for (p++; p < end; p++)
				if ((err = wb_add(&w, *p)))
					goto fail;
			p = end + 1;
			inword = true;
			continue;
		}
		if (c == '"') {
			for (p++; *p && *p != '"'; p++) {
				if (*p == '\\' && p[1] && strchr("\\\"$`\n", p[1]))
					p++;
				else if (*p == '$' || *p == '`') {
					snprintf(why, whylen, "'%c' inside \"...\" would expand in a shell; "
						 "systemd runs no shell: use '...' for a literal, or "
						 "/bin/sh -c", *p);
					err = -EINVAL;
					goto fail;
				}
				if ((err = wb_add(&w, *p)))
					goto fail;
			}
			if (*p != '"') {
				snprintf(why, whylen, "unterminated \" in '%s'", cmdline);
				err = -EINVAL;
				goto fail;
			}
			p++;
			inword = true;
			continue;
		}
		if (c == '\\') {
			if (!p[1]) {
				snprintf(why, whylen, "trailing '\\' in '%s'", cmdline);
				err = -EINVAL;
				goto fail;
			}
			if ((err = wb_add(&w, p[1])))
				goto fail;
			p += 2;
			inword = true;
			continue;
		}
		if (strchr("|&;<>()$`*?", c) || (!inword && (c == '#' || c == '~'))) {
			snprintf(why, whylen, "unquoted '%c' in '%s' is shell syntax and systemd runs "
				 "no shell: quote it for a literal, or run /bin/sh -c '...'", c,
				 cmdline);
			err = -EINVAL;
			goto fail;
		}
		if ((err = wb_add(&w, c)))
			goto fail;
		inword = true;
		p++;
	}
	if (!argc) {
		snprintf(why, whylen, "the command is empty");
		err = -EINVAL;
		goto fail;
	}
	*argvp = argv;
	*argcp = argc;
	return 0;
fail:
	if (err == -ENOMEM)
		snprintf(why, whylen, "out of memory");
	free(w.s);
	nn_exec_free(argv);
	return err;
}

int nn_exec_check_path(const char *path, char *why, size_t whylen)
{
	const char *c;

	if (!*path) {
		snprintf(why, whylen, "the command is empty");
		return -EINVAL;
	}
	if (strchr("@-:+!|", path[0])) {
		snprintf(why, whylen, "'%s': a command starting with '%c' means something else "
			 "to systemd (ExecStart= prefixes)", path, path[0]);
		return -EINVAL;
	}
	for (c = path; *c; c++) {
		if (*c == '%' || *c == '$') {
			snprintf(why, whylen, "'%s': the program path may not hold '%c' "
				 "(systemd expands it)", path, *c);
			return -EINVAL;
		}
		if ((unsigned char)*c < 0x20 || *c == 0x7f) {
			snprintf(why, whylen, "the program path holds a control character");
			return -EINVAL;
		}
	}
	if (path[0] != '/' && strchr(path, '/')) {
		snprintf(why, whylen, "'%s': a relative path means nothing to systemd; give an "
			 "absolute path (or a bare name systemd finds in its fixed PATH)", path);
		return -EINVAL;
	}
	return 0;
}

static bool plain(unsigned char c)
{
	return isalnum(c) || strchr("_./:=,@+-", c);
}

char *nn_sd_quote(const char *word, enum nn_sd_quote_ctx ctx)
{
	struct wordbuf w = { 0 };
	const unsigned char *p;
	bool quote = !*word;
	int err = 0;

	for (p = (const unsigned char *)word; *p; p++)
		if (!plain(*p))
			quote = true;
	if (quote)
		err = wb_add(&w, '"');
	for (p = (const unsigned char *)word; *p && !err; p++) {
		char hex[5];

		switch (*p) {
		case '%':
			err = wb_add(&w, '%') ?: wb_add(&w, '%');
			break;
		case '$':
			err = wb_add(&w, '$');
			if (!err && ctx == NN_SD_EXEC)
				err = wb_add(&w, '$');
			break;
		case '\\':
		case '"':
			err = wb_add(&w, '\\') ?: wb_add(&w, (char)*p);
			break;
		case '\n':
			err = wb_add(&w, '\\') ?: wb_add(&w, 'n');
			break;
		case '\t':
			err = wb_add(&w, '\\') ?: wb_add(&w, 't');
			break;
		default:
			if (*p < 0x20 || *p == 0x7f) {
				snprintf(hex, sizeof(hex), "\\x%02x", *p);
				for (size_t i = 0; hex[i] && !err; i++)
					err = wb_add(&w, hex[i]);
			} else {
				err = wb_add(&w, (char)*p);
			}
		}
	}
	if (quote && !err)
		err = wb_add(&w, '"');
	if (err) {
		free(w.s);
		return NULL;
	}
	return w.s;
}

/* The first lines nicnuma layout writes (layout_units.c), after "# UNIT - ". */
#define HDR_TEMPLATE "generated by nicnuma layout: one instance per NUMA node."
#define HDR_DROPIN_TAIL ", generated by nicnuma layout."

bool nn_unit_header_is_ours(const char *text, size_t len, const char *unit)
{
	const char *nl = memchr(text, '\n', len), *rest, *tail;
	size_t ulen = strlen(unit), llen, dlen;
	char digits[8];

	if (!nl)
		return false;
	llen = (size_t)(nl - text);
	if (llen < ulen + 5 || memcmp(text, "# ", 2) || memcmp(text + 2, unit, ulen) ||
	    memcmp(text + 2 + ulen, " - ", 3))
		return false;
	rest = text + 5 + ulen;
	llen -= 5 + ulen;
	if (llen == strlen(HDR_TEMPLATE) && !memcmp(rest, HDR_TEMPLATE, llen))
		return true;
	/* "NUMA node N, generated by nicnuma layout." */
	if (llen < 10 + strlen(HDR_DROPIN_TAIL) || memcmp(rest, "NUMA node ", 10))
		return false;
	tail = rest + llen - strlen(HDR_DROPIN_TAIL);
	if (memcmp(tail, HDR_DROPIN_TAIL, strlen(HDR_DROPIN_TAIL)))
		return false;
	dlen = (size_t)(tail - (rest + 10));
	if (!dlen || dlen >= sizeof(digits))
		return false;
	memcpy(digits, rest + 10, dlen);
	digits[dlen] = '\0';
	return nn_name_node(digits, NULL, NULL) == 0;
}
