#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""tests/arch/strbuf_only.py [SRCDIR] - text is assembled through the string
builder (nicnuma/core/strbuf.h), never by hand-sized snprintf arithmetic:
no (v)snprintf/sprintf whose destination is an offset into a buffer
(`buf + len`, `&buf[len]`) and no length summed from their return
(`len += (size_t)snprintf(...)`). Such code stops silently at the buffer's
end, or writes past it when a return value is larger than the room left.
Scans the C files of nicnuma/, irq/, hugepages/, dpdk-app/ and tests/;
comments and string literals do not count; the builder itself
(nicnuma/core/strbuf.c) is exempt. Exit 0 clean, 1 found (each
named FILE:LINE), 2 usage.
"""
import os
import re
import sys

DIRS = ("nicnuma", "irq", "hugepages", "dpdk-app", "tests")
# the builder itself appends with vsnprintf at its own length
EXEMPT = {os.path.join("nicnuma", "core", "strbuf.c")}
TOKENS = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
PRINTF = r'\bv?s(?:n)?printf\s*\(\s*'
PATTERNS = (
    # the destination is an offset into a buffer: buf + len, p->buf + used
    (re.compile(PRINTF + r'[A-Za-z_][\w.\->\[\]]*\s*\+'), "printf into an offset of a buffer"),
    # ... or the address of an element: &buf[len]
    (re.compile(PRINTF + r'&\s*[A-Za-z_][\w.\->]*\s*\['), "printf into &buf[n]"),
    # a length summed from the return: len += (size_t)snprintf(...)
    (re.compile(r'\+=\s*(?:\(\s*[\w ]+\)\s*)?v?s(?:n)?printf\s*\('), "length summed from printf's return"),
)


def blank(m):
    s = m.group(0)
    return re.sub(r'[^\n]', ' ', s) if s[0] == '/' else '""'


def scan(path):
    code = TOKENS.sub(blank, open(path, encoding="utf-8", errors="replace").read())
    for no, line in enumerate(code.split("\n"), 1):
        for rx, why in PATTERNS:
            if rx.search(line):
                yield no, why


def main():
    if len(sys.argv) > 2:
        print(__doc__, file=sys.stderr)
        return 2
    src = sys.argv[1] if len(sys.argv) == 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    found = 0
    files = 0
    for d in DIRS:
        top = os.path.join(src, d)
        for root, subdirs, names in os.walk(top):
            subdirs[:] = sorted(x for x in subdirs if not x.startswith("build"))
            for name in sorted(names):
                if not name.endswith((".c", ".h")):
                    continue
                path = os.path.join(root, name)
                if os.path.relpath(path, src) in EXEMPT:
                    continue
                files += 1
                for no, why in scan(path):
                    print("%s:%d: %s" % (os.path.relpath(path, src), no, why))
                    found += 1
    if not files:
        print("error: no C files under %s" % src, file=sys.stderr)
        return 2
    if found:
        print("FAIL: text built by hand-sized snprintf (above): use the string builder "
              "(nicnuma/core/strbuf.h)", file=sys.stderr)
        return 1
    print("ok: %d C files build text through the string builder" % files)
    return 0


if __name__ == "__main__":
    sys.exit(main())
