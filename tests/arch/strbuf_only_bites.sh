#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/arch/strbuf_only_bites.sh SRCDIR - strbuf_only.py fails when
# hand-sized snprintf arithmetic is planted in a copy of nicnuma/core, naming
# the file, and passes the copy when the same words are only in comments and
# strings: the check can fail, and does not fail on prose.
set -uo pipefail

src=${1:?usage: strbuf_only_bites.sh SRCDIR}
# shellcheck source-path=SCRIPTDIR source=bites_lib.sh
. "$(dirname "$0")/bites_lib.sh"
bites_init "$src" nicnuma/core
bites_check python3 "$src/tests/arch/strbuf_only.py" "$bites_tmp"

bites_plant sum-cast nicnuma/core/names.c 'static void x1(char *b, size_t s, size_t l) { l += (size_t)snprintf(b + l, s - l, "%d", 1); }'
bites_plant sum nicnuma/core/names.c 'static void x2(char *b, size_t s, int l) { l += snprintf(b, s, "%d", 1); }'
bites_plant offset nicnuma/core/names.c 'static void x3(char *b, size_t s, size_t l) { snprintf(b + l, s - l, "x"); }'
bites_plant member nicnuma/core/names.c 'static void x4(struct { char t[8]; } *v, size_t l) { snprintf(v->t + l, 8 - l, "x"); }'
bites_plant element nicnuma/core/names.c 'static void x5(char *b, size_t l) { snprintf(&b[l], 8, "x"); }'
bites_plant vsnprintf nicnuma/core/names.c 'static void x6(char *b, size_t l, va_list ap) { vsnprintf(b + l, 8, "%d", ap); }'
bites_plant sprintf nicnuma/core/names.c 'static void x7(char *p) { p += sprintf(p, "%d", 1); }'
bites_plant clean nicnuma/core/names.c '/* len += (size_t)snprintf(buf + len, size - len, ...) in a comment */'
bites_plant clean nicnuma/core/names.c 'static const char *x8 = "len += snprintf(buf + len, n)";'
bites_plant clean nicnuma/core/names.c '// snprintf(&buf[len], ...) in a line comment'
bites_plant clean nicnuma/core/names.c 'static void x9(char *b, size_t s, int n) { snprintf(b, s, "%d", n + 1); }'
bites_end "ok: strbuf_only.py catches what is planted and passes comments, strings and whole-buffer snprintf"
