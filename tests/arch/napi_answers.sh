#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/arch/napi_answers.sh [SRCDIR] - one owner of the run's napi-get
# answers: the context's napi_answers member is named (->napi_answers,
# .napi_answers) only in nicnuma/discover/napi_pid.c, whose functions hang,
# take and mark them stale (discover/nic.h nn_napi_answers_begin, _end,
# _stale); core/ctx.h only declares it. A write count beside it
# (napi_epoch) is named nowhere. Every C file of the sources and tests is
# read; comments and strings do not count.
set -uo pipefail

src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
[ -d "$src/nicnuma/core" ] || { echo "error: no $src/nicnuma/core" >&2; exit 2; }
mapfile -t files < <(cd "$src" && find nicnuma irq hugepages boot ports dpdk-app tests -name '*.[ch]' \
	2>/dev/null | grep -v -e '^nicnuma/discover/napi_pid\.c$' | sort)
[ "${#files[@]}" -gt 0 ] || { echo "error: no C sources under $src" >&2; exit 2; }
out=$(cd "$src" && python3 - "${files[@]}" <<'PY'
import re, sys
blank = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
member = re.compile(r'(->|\.)\s*napi_answers\b|\bnapi_epoch\b')
bad = 0
for f in sys.argv[1:]:
    text = open(f, encoding='utf-8', errors='replace').read()
    code = blank.sub(lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text)
    for no, line in enumerate(code.split('\n'), 1):
        if member.search(line):
            print(f'{f}:{no}: names the context\'s napi-get answers: use discover/nic.h '
                  f'nn_napi_answers_begin/_end/_stale\n  {text.split(chr(10))[no - 1].strip()}')
            bad = 1
sys.exit(bad)
PY
)
rc=$?
if [ "$rc" != 0 ]; then
	printf '%s\n' "$out"
	echo "FAIL: ctx's napi-get answers touched outside nicnuma/discover/napi_pid.c (above)" >&2
	exit 1
fi
echo "ok: ctx's napi-get answers are touched in nicnuma/discover/napi_pid.c only (${#files[@]} files)"
