#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/arch/napi_answers_bites.sh SRCDIR - napi_answers.sh fails when the
# side channels it replaced are planted in a copy of the sources (the write
# count bumped by apply and rollback's replay, the answers hung by a run or
# read by a test), and passes the copy when the same words are only in
# comments or strings, or in the owner itself: the check can fail.
set -uo pipefail

src=${1:?usage: napi_answers_bites.sh SRCDIR}
# shellcheck source-path=SCRIPTDIR source=bites_lib.sh
. "$(dirname "$0")/bites_lib.sh"
bites_init "$src" nicnuma irq tests/unit
bites_check bash "$src/tests/arch/napi_answers.sh" "$bites_tmp"

bites_plant epoch-apply nicnuma/act/apply.c 'static void p1(struct nn_ctx *c) { c->napi_epoch++; }'
bites_plant epoch-replay nicnuma/state/undo_replay.c 'static void p2(struct nn_ctx *c) { c -> napi_epoch = 0; }'
bites_plant epoch-ctx nicnuma/core/ctx.h 'struct p3 { unsigned int napi_epoch; };'
bites_plant hang-run nicnuma/act/rollback.c 'static void p4(struct nn_ctx *c, void *a) { c->napi_answers = a; }'
bites_plant init-service nicnuma/service/disable.c 'static struct nn_ctx p5 = { .napi_answers = NULL };'
bites_plant read-discover nicnuma/discover/nic.c 'static int p6(struct nn_ctx *c) { return !!c->napi_answers; }'
bites_plant stale-kind irq/napi_conf.c 'static void p7(struct nn_ctx *c) { c->napi_answers->read = 0; }'
bites_plant test-peek tests/unit/test_napi_thread.c 'static void *p8(void) { return ctx.napi_answers; }'
bites_plant clean nicnuma/act/apply.c '/* ctx->napi_answers and napi_epoch: in a comment */'
bites_plant clean nicnuma/act/apply.c 'static const char *p9 = "ctx->napi_epoch";'
bites_plant clean nicnuma/discover/napi_pid.c 'static void p10(struct nn_ctx *c) { c->napi_answers = NULL; }'
bites_plant clean nicnuma/act/apply.c 'struct p11 { struct nn_napi_answers napi_answers_of_run; };'
bites_end "ok: napi_answers.sh catches what is planted and passes comments, strings and the owner"
