#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""scripts/suite_result.py TESTLOG SUITE ALLOWED - judge one meson suite's skips.

Reads meson's testlog.json (one JSON object per test), prints every skipped
test of SUITE with its reason (the last line the test printed), and exits 1
when every case of the suite skipped and a skip is not listed in ALLOWED
(tests/skips.txt: 'suite/name: reason' lines): a suite that ran nothing did
not pass. Exit 0 otherwise, 2 on unreadable input.
"""
import json
import sys


def reason(rec):
    for stream in ("stdout", "stderr"):
        lines = [l.strip() for l in (rec.get(stream) or "").splitlines() if l.strip()]
        for l in reversed(lines):
            if "skip" in l.lower():
                return l[:200]
        if lines:
            return lines[-1][:200]
    return "(the test printed no reason)"


def main():
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    path, suite, allowed_path = sys.argv[1:]
    allowed = {}
    try:
        with open(allowed_path, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#") and ":" in line:
                    k, v = line.split(":", 1)
                    allowed[k.strip()] = v.strip()
    except OSError:
        pass
    recs = []
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    recs.append(json.loads(line))
    except (OSError, ValueError) as e:
        print(f"error: {path}: {e}", file=sys.stderr)
        return 2
    # meson names tests 'project:suite / name'
    mine = [r for r in recs if f":{suite} / " in r.get("name", "")]
    skipped = [r for r in mine if r.get("result") == "SKIP"]
    for r in skipped:
        name = r["name"].split(" / ", 1)[1]
        key = f"{suite}/{name}"
        listed = f" (listed: {allowed[key]})" if key in allowed else ""
        print(f"SKIP {key}: {reason(r)}{listed}")
    if mine and len(skipped) == len(mine):
        unlisted = [r for r in skipped if f"{suite}/{r['name'].split(' / ', 1)[1]}" not in allowed]
        if unlisted:
            print(f"FAIL suite {suite}: every case ({len(mine)}) skipped; a suite that ran nothing did not pass"
                  " (list an expected skip with its reason in tests/skips.txt)")
            return 1
    print(f"suite {suite}: {len(mine) - len(skipped)} ran, {len(skipped)} skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
