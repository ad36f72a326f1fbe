// SPDX-License-Identifier: GPL-2.0-or-later
/* napi_pid.c - which kernel thread is a NAPI's, by the kernel's word
 *
 * napi-get answers for nicnuma's own network namespace only, so a device of
 * the same name in another namespace (a user's veth in their own user+net
 * namespace) is never taken for ours; a comm proves nothing of the kind.
 * The run's answers hang on ctx->napi_answers, which only this file's
 * functions touch: begin and end hang and take them, stale drops them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicnuma/core/ctx.h"
#include "nicnuma/core/fsroot.h"
#include "nicnuma/core/proc.h"
#include "nicnuma/discover/nic.h"
#include "irq/napi_thread.h"

/* @nic's NAPI @id in a list of napi-get answers: 0 with its pid, -ENOENT. */
static int pid_in(const struct nn_genl_napi *napis, size_t n, int ifindex, long long id, int *pid)
{
	for (size_t i = 0; i < n; i++) {
		if (napis[i].id != id || (ifindex >= 0 && napis[i].ifindex != ifindex))
			continue;
		if (napis[i].pid <= 0)
			return -ENOENT;	/* not threaded (any more) */
		*pid = napis[i].pid;
		return 0;
	}
	return -ENOENT;
}

void nn_napi_answers_begin(struct nn_ctx *ctx, struct nn_napi_answers *a)
{
	int (*dump)(struct nn_ctx *, struct nn_genl *, void *) = a->dump;
	void *arg = a->arg;

	memset(a, 0, sizeof(*a));
	a->dump = dump;
	a->arg = arg;
	if (!ctx->napi_answers) {
		ctx->napi_answers = a;
		a->owner = true;
	}
}

void nn_napi_answers_end(struct nn_ctx *ctx, struct nn_napi_answers *a)
{
	if (a->owner && ctx->napi_answers == a)
		ctx->napi_answers = NULL;
	a->owner = false;
	a->read = false;
	nn_genl_free(&a->g);
}

void nn_napi_answers_stale(struct nn_ctx *ctx)
{
	if (ctx->napi_answers)
		ctx->napi_answers->read = false;
}

/* The run's dump, asked when there is none yet or a write since may have
 * changed the NAPIs (nn_napi_answers_stale). */
static int answers(struct nn_ctx *ctx, struct nn_napi_answers *a)
{
	if (a->read)
		return a->err;
	nn_genl_free(&a->g);
	a->ndumps++;
	a->err = a->dump ? a->dump(ctx, &a->g, a->arg) : nn_genl_read(ctx, &a->g, NULL, 0);
	/* a kernel without napi-get stays so; anything else may pass */
	a->read = !a->err || a->err == -EOPNOTSUPP;
	return a->err;
}

int nn_napi_kernel_pid(struct nn_ctx *ctx, const struct nn_nic *nics, size_t nnics, const char *nic,
		       long long napi_id, int *pid)
{
	const struct nn_nic *n = nics ? nn_nic_find(nics, nnics, nic) : NULL;
	/* without a run's answers, this question's own dump */
	struct nn_napi_answers own = { 0 }, *a = ctx->napi_answers ? ctx->napi_answers : &own;
	char path[96];
	long ifindex;
	int err;

	*pid = -1;
	if (n && n->genl_read)
		return pid_in(n->gnapis, n->ngnapis, n->ifindex, napi_id, pid);
	if (!nn_root_is_live(&ctx->root) && !a->dump)
		return -EOPNOTSUPP;	/* a tree without the kernel's answers */
	snprintf(path, sizeof(path), "/sys/class/net/%s/ifindex", nic);
	err = nn_read_long(&ctx->root, path, &ifindex);
	if (err)
		return err == -ENOENT ? -ENOENT : err;	/* the device is gone */
	err = answers(ctx, a);
	if (!err)
		err = pid_in(a->g.napis, a->g.nnapis, (int)ifindex, napi_id, pid);
	nn_genl_free(&own.g);
	return err;
}

static bool napi_known(const struct nn_nic *n, long long id)
{
	for (size_t i = 0; i < n->ngnapis; i++)
		if (n->gnapis[i].id == id)
			return true;
	return false;
}

int nn_napi_tx_find(struct nn_ctx *ctx, struct nn_nic *nics, size_t nnics)
{
	size_t nkids = 0, i;
	long *kids = nn_proc_kthreadd_children(&ctx->root, &nkids);
	int err = 0;

	for (i = 0; i < nkids && !err; i++) {
		char comm[NN_PROC_COMM_MAX], nic[64], why[160];
		struct nn_nic *n;
		long long id;
		int pid = (int)kids[i];

		if (nn_proc_read_comm(&ctx->root, pid, comm, sizeof(comm)) ||
		    nn_napi_comm_parse(comm, nic, sizeof(nic), &id))
			continue;
		n = (struct nn_nic *)nn_nic_find(nics, nnics, nic);
		/* an id napi-get here does not name is another namespace's
		 * device's NAPI (or a kernel's without napi-get pids): not ours */
		if (!n || id != NN_NAPI_TX_ID || napi_known(n, id))
			continue;
		if (nn_napi_tx_verify(&ctx->root, pid, n->name, why, sizeof(why)))
			continue;
		if (!(n->ntxnapis % 8)) {
			int *p = realloc(n->txnapis, (n->ntxnapis + 8) * sizeof(*p));

			if (!p) {
				err = -ENOMEM;
				break;
			}
			n->txnapis = p;
		}
		n->txnapis[n->ntxnapis++] = pid;
	}
	free(kids);
	return err;
}
