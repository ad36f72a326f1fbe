#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""tests/arch/test_names.py BUILDDIR - no two tests share a name across suites.

A name that stands in two suites reads the same in a CI log whichever failed;
meson prints 'suite / name', but people quote the name. Reads the build's
test list with `meson introspect --tests`.
"""
import collections
import json
import subprocess
import sys


def main():
    if len(sys.argv) != 2:
        print("usage: test_names.py BUILDDIR", file=sys.stderr)
        return 2
    try:
        out = subprocess.run(["meson", "introspect", "--tests", sys.argv[1]],
                             check=True, capture_output=True, text=True).stdout
        tests = json.loads(out)
    except (OSError, subprocess.CalledProcessError, ValueError) as e:
        print(f"error: meson introspect --tests {sys.argv[1]}: {e}", file=sys.stderr)
        return 2
    suites = collections.defaultdict(set)
    for t in tests:
        for s in t.get("suite", []):
            suites[t["name"]].add(s.split(":", 1)[-1])
    bad = {n: sorted(s) for n, s in suites.items() if len(s) > 1}
    for n, s in sorted(bad.items()):
        print(f"FAIL: test name '{n}' stands in suites {', '.join(s)}: give each its own name")
    if bad:
        return 1
    print(f"ok: {len(suites)} test names, each in one suite")
    return 0


if __name__ == "__main__":
    sys.exit(main())
