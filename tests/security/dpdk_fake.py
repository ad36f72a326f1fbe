#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""dpdk_fake.py PATH MODE - a hostile DPDK telemetry v2 server for
tests/security/harden.sh (case dpdk). Listens on the SOCK_SEQPACKET socket
PATH, prints "ready", serves until killed. Modes:
  honest   greets with its own pid; no ports, pools or lcores
  liar     greets as pid 1 (a root process it is not); one port
  slow     its own pid; 50 ports, each /ethdev/info answered after 0.3 s
  many     its own pid; /ethdev/list of 20000 ids (each info: null)
  lcores   its own pid; /eal/params with --lcores=(0-65535)@(0-65535)
"""
import json
import os
import socket
import sys
import threading
import time

path, mode = sys.argv[1], sys.argv[2]
pid = 1 if mode == "liar" else os.getpid()
GREET = json.dumps({"version": "DPDK 22.11.11", "pid": pid, "max_output_len": 16384}).encode()
PORT = {"name": "net_null0", "state": 1, "nb_rx_queues": 1, "nb_tx_queues": 1,
        "numa_node": -1, "dev_started": 1, "port_id": 0}


def reply(cmd):
    name, _, arg = cmd.partition(",")
    val = None
    if name == "/ethdev/list":
        val = {"liar": [0], "slow": list(range(50)), "many": list(range(20000))}.get(mode, [])
    elif name == "/ethdev/info" and mode in ("liar", "slow"):
        if mode == "slow":
            time.sleep(0.3)
        val = dict(PORT, port_id=int(arg), name="net_null%s" % arg)
    elif name in ("/mempool/list", "/eal/lcore/list"):
        val = []
    elif name == "/eal/params":
        val = ["app", "--lcores=(0-65535)@(0-65535)"] if mode == "lcores" else ["app"]
    return json.dumps({name: val}).encode()


def serve(c):
    c.send(GREET)
    while True:
        try:
            m = c.recv(4096)
        except OSError:
            return
        if not m:
            return
        try:
            c.send(reply(m.decode()))
        except OSError:
            return


s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
s.bind(path)
s.listen(8)
print("ready", flush=True)
while True:
    c, _ = s.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
