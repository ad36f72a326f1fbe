# SPDX-License-Identifier: GPL-2.0-or-later
"""tests/lib/kernel_lists.py - the Python tests' one reader and writer of the
kernel's cpulist form ("0-3,8,10-11"), as /sys and /proc print it.

Import from a test script beside it with:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
    from kernel_lists import cpulist, cpulist_str
"""


def cpulist(s):
    """Kernel cpulist -> set of ints; '' or None -> empty set. Raises
    ValueError on a malformed part (a test must not read garbage as empty)."""
    out = set()
    for part in (s or "").strip().split(","):
        part = part.strip()
        if not part:
            continue
        a, sep, b = part.partition("-")
        lo, hi = int(a), int(b) if sep else int(a)
        if hi < lo:
            raise ValueError("cpulist range %r runs backwards" % part)
        out.update(range(lo, hi + 1))
    return out


def cpulist_str(cpus):
    """Iterable of ints -> kernel cpulist ("0-3,8"); '' for none."""
    cpus = sorted(set(cpus))
    out, i = [], 0
    while i < len(cpus):
        j = i
        while j + 1 < len(cpus) and cpus[j + 1] == cpus[j] + 1:
            j += 1
        out.append(str(cpus[i]) if i == j else "%d-%d" % (cpus[i], cpus[j]))
        i = j + 1
    return ",".join(out)
