// SPDX-License-Identifier: GPL-2.0-or-later
/* plansrc.c - where apply and check get their plan: a --plan file made by
 * `nicnuma plan --json`, or a fresh plan of the discovered host with the same
 * options as `nicnuma plan` */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cli.h"
#include "nicnuma/plan.h"

int nn_cli_plan_opt(struct nn_ctx *ctx, int opt, const char *arg, struct nn_plan_opts *o)
{
	char *copy, *tok, *save = NULL;
	int err;

	switch (opt) {
	case NN_OPT_NICS:
		copy = strdup(arg);
		if (!copy)
			return -ENOMEM;
		for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			char **v = realloc(o->nics, (o->nnics + 1) * sizeof(*v));

			if (!v || !(v[o->nnics] = strdup(tok))) {
				if (v)
					o->nics = v;
				free(copy);
				return -ENOMEM;
			}
			o->nics = v;
			o->nnics++;
		}
		free(copy);
		if (!o->nnics) {
			nn_err(ctx, "--nics needs at least one interface name");
			return -EINVAL;
		}
		return 1;
	case NN_OPT_CPUS:
	case NN_OPT_RESERVE:
		err = nn_cpuset_parse_list(arg, opt == NN_OPT_CPUS ? &o->cpus : &o->reserve);
		if (err) {
			nn_err(ctx, "--%s '%s': not a CPU list (like 0-3,8)",
			       opt == NN_OPT_CPUS ? "cpus" : "reserve", arg);
			return -EINVAL;
		}
		if (opt == NN_OPT_RESERVE)
			o->has_reserve = true;
		return 1;
	case NN_OPT_POLICY:
		if (nn_policy_parse(arg, &o->policy)) {
			nn_err(ctx, "--policy '%s': expected local, spread or remote", arg);
			return -EINVAL;
		}
		return 1;
	case NN_OPT_CHANNELS:
		o->channels = true;
		return 1;
	default:
		return 0;
	}
}

static int read_plan_file(struct nn_ctx *ctx, const char *file, struct json_object **doc)
{
	struct json_tokener *tok;
	char buf[65536];
	int fd, err = 0;
	ssize_t n;

	/* The plan is the user's file, not part of the inspected host: read it
	 * as given, outside the fs root. "-" is stdin. */
	fd = strcmp(file, "-") ? open(file, O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
	if (fd < 0) {
		err = -errno;
		nn_err(ctx, "cannot open plan %s: %s", file, strerror(-err));
		return err;
	}
	tok = json_tokener_new();
	*doc = NULL;
	while (!*doc && (n = read(fd, buf, sizeof(buf))) != 0) {
		enum json_tokener_error jerr;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = -errno;
			nn_err(ctx, "cannot read plan %s: %s", file, strerror(-err));
			break;
		}
		*doc = json_tokener_parse_ex(tok, buf, (int)n);
		jerr = json_tokener_get_error(tok);
		if (!*doc && jerr != json_tokener_continue) {
			nn_err(ctx, "plan %s: bad JSON: %s", file, json_tokener_error_desc(jerr));
			err = -EINVAL;
			break;
		}
	}
	if (!err && !*doc) {
		nn_err(ctx, "plan %s: empty or truncated JSON", file);
		err = -EINVAL;
	}
	json_tokener_free(tok);
	if (fd != STDIN_FILENO)
		close(fd);
	return err;
}

int nn_cli_get_plan(struct nn_ctx *ctx, const char *file, const struct nn_plan_opts *opts,
		    struct nn_host *host, struct nn_plan *plan, struct json_object **shape)
{
	struct json_object *doc = NULL, *p, *s;
	char why[512];
	int err;

	memset(plan, 0, sizeof(*plan));
	err = nn_host_discover(ctx, host);
	if (err) {
		nn_err(ctx, "cannot discover the host under %s: %s", ctx->root.path, strerror(-err));
		return err;
	}
	if (file) {
		err = read_plan_file(ctx, file, &doc);
		if (err)
			return err;
		err = nn_plan_from_json(doc, plan, why, sizeof(why));
		json_object_put(doc);
		if (err) {
			nn_err(ctx, "plan %s: %s", file, why);
			return err;
		}
		err = nn_plan_check_shape(plan, host, why, sizeof(why));
		if (err) {
			nn_err(ctx, "plan %s was made for another host: %s; make a new one with "
			       "'nicnuma plan --json' on this host", file, why);
			nn_plan_free(plan);
			return err;
		}
	} else {
		err = nn_plan_make(host, opts, plan);
		if (err == -ENODEV)
			nn_err(ctx, "--nics names an interface this host does not have");
		else if (err)
			nn_err(ctx, "cannot make a plan: %s", strerror(-err));
		if (err)
			return err;
	}
	if (shape) {
		/* The log keeps the host shape so a snapshot says what it was for. */
		*shape = NULL;
		doc = nn_plan_to_json(plan);
		if (doc && json_object_object_get_ex(doc, "plan", &p) &&
		    json_object_object_get_ex(p, "shape", &s))
			*shape = json_object_get(s);
		json_object_put(doc);
	}
	return 0;
}
