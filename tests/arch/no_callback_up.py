#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""tests/arch/no_callback_up.py [--bites] SRCDIR - a request goes down the
layers once: the transactions (nicnuma/act) and what they use from emit
(nicnuma/emit) take no code from the layers above them.

The include and link checks (layers.sh, layer-check-*) stop act from naming
a function of the service or the commands; a function pointer handed down
would still let act call up into them (the apply pipeline's old make_plan
and before_apply called back into cmd_apply.c). So no header of those
folders may declare a function-pointer type: no member, parameter or
typedef of the form `(*name)(`, comments and strings left out. Their .c
files may keep tables of their own functions (a header would be needed to
take one from above).
With --bites it plants such declarations in a copy of the headers' text and
exits 1 unless each is caught (and a comment saying one is not).
"""
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from apply_order import strip  # noqa: E402  (C text without comments and strings)

FOLDERS = ("nicnuma/act", "nicnuma/emit")
FNPTR = re.compile(r"\(\s*\*\s*\w*\s*\)\s*\(")


def problems(name, text):
    """'FILE:LINE: ...' for each function-pointer type declared in @text."""
    bad = []
    for no, line in enumerate(strip(text).split("\n"), 1):
        if FNPTR.search(line):
            bad.append("%s:%d: a function-pointer type in a header of act/emit: code from "
                       "above would be called back (pass data down, return a result)" % (name, no))
    return bad


def headers(src):
    for d in FOLDERS:
        for f in sorted(os.listdir(os.path.join(src, d))):
            if f.endswith(".h"):
                path = os.path.join(d, f)
                with open(os.path.join(src, path), encoding="utf-8") as fh:
                    yield path, fh.read()


PLANTS = [
    ("member", "nicnuma/act/pipeline.h",
     "struct nn_x { int (*make_plan)(struct nn_ctx *ctx, void *arg); };"),
    ("parameter", "nicnuma/act/apply.h",
     "int nn_x_run(struct nn_ctx *ctx, int (*cb)(void *), void *arg);"),
    ("typedef", "nicnuma/emit/observe.h", "typedef void (*nn_x_fn)(void *);"),
    ("clean", "nicnuma/act/pipeline.h", "/* no int (*make_plan)(void *) here any more */"),
]


def bites(src):
    files = dict(headers(src))
    fail = 0
    for what, path, line in PLANTS:
        if path not in files:
            print("FAIL: %s is gone: move the plant" % path)
            fail = 1
            continue
        bad = problems(path, files[path] + "\n" + line + "\n")
        caught = any(b.startswith(path + ":") for b in bad)
        if (what == "clean") == caught:
            print("FAIL: planted %s %s in %s: %s" % (what, "made it fail" if caught else "not caught",
                                                    path, line))
            fail = 1
        else:
            print("ok: planted %s %s in %s" % (what, "passes" if what == "clean" else "caught", path))
    return fail


def main(argv):
    args = [a for a in argv[1:] if a != "--bites"]
    src = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    if "--bites" in argv:
        return bites(src)
    bad = [b for path, text in headers(src) for b in problems(path, text)]
    for b in bad:
        print("FAIL: " + b)
    if not bad:
        print("ok: no header of %s declares a function-pointer type" % ", ".join(FOLDERS))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
