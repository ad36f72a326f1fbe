#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/arch/plan_pure.sh [SRCDIR] - the plan layer (nicnuma/plan/*.c) is a
# pure function of the host snapshot: no file, process or fs-root I/O. The
# file I/O around it (the desired state, a saved plan, reports) is act's.
set -uo pipefail

src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
plan=$src/nicnuma/plan
[ -d "$plan" ] || { echo "error: no $plan" >&2; exit 2; }

calls='open|openat|openat2|fopen|fdopen|read|pread|write|pwrite|mkdir|mkdirat|unlink|unlinkat'
calls+='|rename|renameat|stat|lstat|fstatat|opendir|popen|system|execv|execvp|execl|execlp|fork|socket'
fail=0
# code lines only: not comment lines (/*, *, //), nor lines that are a
# string literal (the shell text of script_lib.c: read(1), mkdir -p)
if grep -nE "(^|[^a-zA-Z0-9_.>])($calls)[[:space:]]*\(" "$plan"/*.c |
   grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/?\*|//|")'; then
	echo "FAIL: a file or process call in nicnuma/plan (above): the I/O belongs in act/" >&2
	fail=1
fi
if grep -nE '\bnn_(read_[a-z_]+|root_[a-z_]+|write_[a-z_]+|run_helper)[[:space:]]*\(' "$plan"/*.c; then
	echo "FAIL: an fs-root reader or writer called in nicnuma/plan (above)" >&2
	fail=1
fi
if grep -nE '#[[:space:]]*include[[:space:]]*"nicnuma/core/fsroot.h"' "$plan"/*.c "$plan"/*.h; then
	echo "FAIL: nicnuma/plan includes the fs-root layer (above)" >&2
	fail=1
fi
[ "$fail" = 0 ] || exit 1
echo "ok: nicnuma/plan does no I/O"
