#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/arch/layers_bites.sh SRCDIR - layers.sh fails when an include the
# wrong way across each boundary of act/'s split is planted in a copy of the
# sources (a transaction or an emitter reaching up into the service, an
# emitter into the transactions, the service into the command), and passes the
# copy when the same include is only in a comment: the check can fail.
set -uo pipefail

src=${1:?usage: layers_bites.sh SRCDIR}
# shellcheck source-path=SCRIPTDIR source=bites_lib.sh
. "$(dirname "$0")/bites_lib.sh"
bites_init "$src" nicnuma irq hugepages boot ports dpdk-app
bites_check bash "$src/tests/arch/layers.sh" "$bites_tmp"

bites_plant act-service nicnuma/act/rollback.c '#include "nicnuma/service/enabled.h"'
bites_plant act-service-h nicnuma/act/apply.h '#include "nicnuma/service/persist.h"'
bites_plant emit-act nicnuma/emit/observe.c '#include "nicnuma/act/apply.h"'
bites_plant emit-service nicnuma/emit/bench_exec.c '#include "nicnuma/service/sd_notify.h"'
bites_plant service-cli nicnuma/service/watch.c '#include "nicnuma/cli/cli.h"'
bites_plant plan-emit nicnuma/plan/plan.c '#include "nicnuma/emit/script.h"'
bites_plant clean nicnuma/act/rollback.c '/* #include "nicnuma/service/enabled.h" in a comment */'
bites_end "ok: layers.sh catches an include up across emit < act < service < cli and passes comments"
