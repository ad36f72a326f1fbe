#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/arch/proc_reader.sh [SRCDIR] - one process reader: a process's
# /proc/PID files are read only in nicnuma/core/proc.c (stat, comm, exe,
# status, cmdline, environ, numa_maps, task/) and parsed there or in its
# pure half proc_status.c (the kernel-thread rule, the status fields).
# Anywhere else in the C sources (nicnuma/, irq/, hugepages/, dpdk-app/) it
# fails on
#   - a string literal that is such a path ("/proc/%d/stat", "%s/%ld/comm",
#     "/proc/1/comm", "/proc/self/stat": a literal ending in /stat or /comm;
#     the host-wide /proc/stat is not a process's),
#   - a string literal that builds a per-process path from a pid
#     ("/proc/%d/status", "/proc/%ld/environ", "/proc/%d/task": "/proc/%"),
#     and
#   - a stat parser's hallmark: strrchr(..., ')') (comm may hold ')', so a
#     stat line is cut at its last one), or PF_KTHREAD / 0x00200000 tested
#     outside the reader.
# Comments do not count. One file is exempt, with its reason: plan/script_lib.c
# is POSIX sh text for a host without nicnuma (its napi_pid mirrors the rule).
set -uo pipefail

src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
[ -d "$src/nicnuma/core" ] || { echo "error: no $src/nicnuma/core" >&2; exit 2; }
mapfile -t files < <(cd "$src" && find nicnuma irq hugepages dpdk-app -name '*.[ch]' 2>/dev/null |
	grep -v -e '^nicnuma/core/proc\.[ch]$' -e '^nicnuma/plan/script_lib\.c$' | sort)
[ "${#files[@]}" -gt 0 ] || { echo "error: no C sources under $src" >&2; exit 2; }
out=$(cd "$src" && python3 - "${files[@]}" <<'PY'
import re, sys
comment = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
path = re.compile(r'"[^"\n]*/(stat|comm)(\\n)?"')
built = re.compile(r'"/proc/%[^"\n]*"')
hallmark = re.compile(r'strrchr\s*\([^;]*\'\)\'\s*\)|\bPF_KTHREAD\b|\bNN_PF_KTHREAD\b|0x0*200000u?\b')
bad = 0
for f in sys.argv[1:]:
    text = open(f, encoding='utf-8').read()
    # comments blanked (strings kept: the paths are in them), lines kept
    code = comment.sub(lambda m: re.sub(r'[^\n]', ' ', m.group(0)) if m.group(0)[0] == '/'
                       else m.group(0), text)
    for no, line in enumerate(code.split('\n'), 1):
        for m in path.finditer(line):
            if m.group(0) in ('"/proc/stat"', '"/proc/stat\\n"'):
                continue
            print(f'{f}:{no}: a process stat/comm path {m.group(0)}: read it through core/proc.h')
            bad = 1
        for m in built.finditer(line):
            if path.fullmatch(m.group(0)):
                continue
            print(f'{f}:{no}: a per-process path built from a pid {m.group(0)}: read it through core/proc.h')
            bad = 1
        if hallmark.search(line):
            print(f'{f}:{no}: a stat parse or kernel-thread test: use core/proc.h\n  {line.strip()}')
            bad = 1
sys.exit(bad)
PY
)
rc=$?
if [ "$rc" != 0 ]; then
	printf '%s\n' "$out"
	echo "FAIL: a /proc/PID file read or parsed outside nicnuma/core/proc.c (above)" >&2
	exit 1
fi
echo "ok: /proc/PID files are read and parsed in nicnuma/core/proc.c only (${#files[@]} files)"
