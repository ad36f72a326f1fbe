#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""scripts/bench_rusage.py CMD... [';' CMD...] - run each CMD once, in turn
(output discarded) and print "wall_s cpu_s" for all of them together: wall
from the first fork to the last reap, CPU (user + sys) from wait4's rusage
in microseconds (bash's `time` rounds to whole ms, too coarse for a 3 ms
command). Exits with the highest exit status of the commands (128 + signal
for one that was killed)."""
import os
import sys
import time

cmds, cur = [], []
for a in sys.argv[1:]:
    if a == ";":
        cmds.append(cur)
        cur = []
    else:
        cur.append(a)
cmds.append(cur)
if not all(cmds):
    sys.exit("usage: bench_rusage.py CMD... [';' CMD...]")
wall = cpu = 0.0
rc = 0
for cmd in cmds:
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        try:
            fd = os.open(os.devnull, os.O_RDWR)
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            os.execvp(cmd[0], cmd)
        finally:
            os._exit(127)
    _, status, ru = os.wait4(pid, 0)
    wall += time.perf_counter() - t0
    cpu += ru.ru_utime + ru.ru_stime
    code = os.waitstatus_to_exitcode(status)
    rc = max(rc, 128 - code if code < 0 else code)
print("%.6f %.6f" % (wall, cpu))
sys.exit(rc)
