#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""tests/arch/one_message.py [SRCDIR] - a message every command gives is
written once: each phrase below stands in one C string literal of nicnuma/
(its helper), so the commands cannot drift apart in what they say. Exit 0
clean, 1 a phrase written more or less than once (each place named
FILE:LINE), 2 usage.
"""
import os
import re
import sys

# phrase -> the helper that says it
ONCE = {
    "cannot discover the host under": "nn_host_discover_failed (discover/host.c)",
}
STRING = re.compile(r'"(?:\\.|[^"\\\n])*"')


def places(src, phrase):
    for root, subdirs, names in os.walk(os.path.join(src, "nicnuma")):
        subdirs[:] = sorted(x for x in subdirs if not x.startswith("build"))
        for name in sorted(names):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(root, name)
            text = open(path, encoding="utf-8", errors="replace").read()
            for m in STRING.finditer(text):
                if phrase in m.group(0):
                    yield f"{os.path.relpath(path, src)}:{text.count(chr(10), 0, m.start()) + 1}"


def main(argv):
    if len(argv) > 1:
        print(__doc__, file=sys.stderr)
        return 2
    src = argv[0] if argv else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    bad = 0
    for phrase, helper in ONCE.items():
        found = list(places(src, phrase))
        if len(found) != 1:
            bad += 1
            print(f"'{phrase}' is written {len(found)} times, once is right (through {helper}):")
            for p in found:
                print(f"  {p}")
    if not bad:
        print(f"one-message: {len(ONCE)} phrase(s), each written once")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
