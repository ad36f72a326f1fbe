#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/arch/proc_reader_bites.sh SRCDIR - proc_reader.sh fails when a
# process stat/comm read or a stat parser is planted in a copy of the
# sources (the private parsers it replaced, in the files they were in), and
# passes the copy when the same words are only in comments: the check can fail.
set -uo pipefail

src=${1:?usage: proc_reader_bites.sh SRCDIR}
# shellcheck source-path=SCRIPTDIR source=bites_lib.sh
. "$(dirname "$0")/bites_lib.sh"
bites_init "$src" nicnuma irq hugepages
bites_check bash "$src/tests/arch/proc_reader.sh" "$bites_tmp"

# the copies this check replaced: irqbalance's, the NAPI thread's, the sampler's
bites_plant stat-path irq/irqbalance_id.c 'static const char *p1 = "/proc/%d/stat";'
bites_plant comm-path irq/napi_thread.c 'static void p2(char *b, int pid) { snprintf(b, 64, "/proc/%d/comm", pid); }'
bites_plant task-stat nicnuma/discover/procmap_read.c 'static const char *p3 = "%s/%ld/stat";'
bites_plant self-stat hugepages/hp_state.c 'static const char *p4 = "/proc/self/stat";'
bites_plant parser nicnuma/obs/obs_sample.c 'static const char *p5(const char *t) { return strrchr(t, '"')'"'); }'
bites_plant kthread irq/napi_thread.c 'static int p6(long f) { return !!(f & NN_PF_KTHREAD); }'
bites_plant kthread-hex nicnuma/obs/obs_attr.c 'static int p7(long f) { return !!(f & 0x00200000); }'
# the per-process files' private readers this check replaced: irqbalance's
# uids, cmdline and environ, the NAPI thread's status, the process map's
bites_plant status-path irq/irqbalance_id.c 'static void p9(char *b, int pid) { snprintf(b, 64, "/proc/%d/status", pid); }'
bites_plant environ-path irq/irqbalance_id.c 'static void p10(char *b, int pid, const char *w) { snprintf(b, 64, "/proc/%d/%s", pid, w); }'
bites_plant status-cpus irq/napi_thread.c 'static const char *p11 = "/proc/%d/status";'
bites_plant numa-maps nicnuma/discover/procmap_read.c 'static const char *p12 = "/proc/%ld/numa_maps";'
bites_plant task-dir nicnuma/discover/procmap_read.c 'static const char *p13 = "/proc/%d/task";'
bites_plant clean irq/napi_thread.c '/* read "/proc/%d/status" and "/proc/%d/stat", strrchr(t, '"')'"'), PF_KTHREAD: in a comment */'
bites_plant clean nicnuma/obs/obs_parse.c 'static const char *p8 = "/proc/stat";	/* host-wide, not a process */'
bites_end "ok: proc_reader.sh catches what is planted and passes comments"
