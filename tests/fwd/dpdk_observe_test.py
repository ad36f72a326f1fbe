#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""dpdk_observe_test.py - nicnuma observe --dpdk against a live dpdk-testpmd
on net_null vdevs (telemetry on, --in-memory, private --file-prefix).

Usage: dpdk_observe_test.py CASE NICNUMA
Exit 0 pass, 1 fail, 77 skip (with the reason on stdout).

Cases:
  rates    testpmd forwarding between two net_null ports: each interval one
           JSON document whose "dpdk" object has the process's pid, both
           ports with non-zero rx/tx pps, per-queue rows (queue 0 carrying
           the port's traffic), lcores 0 and 1 with their CPU; on DPDK 22.x
           busy_share null, lcore_usage_available false and the note
  dies     testpmd killed mid-observation: a warning naming the process,
           "running": false, the observation goes on to --count; exit 1
  errors   a file prefix with no process: exit 2, the socket named;
           --file-prefix without --dpdk, a prefix with '/', --dpdk under
           --root (a fake root carries no DPDK process): exit 2

The hugepages and the DPDK lock are dpdk_check_test.py's (fwd_test.Hugepages,
/tmp/nn-dpdk.lock).
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwd_test  # noqa: E402
import dpdk_check_test as dct  # noqa: E402  (Lock, wait_socket, PREFIX, SOCK)

from fwd_test import skip, fail  # noqa: E402

NOTE = "lcore busy share: not available from DPDK 22.11 telemetry"


def testpmd():
    tp = shutil.which("dpdk-testpmd")
    if not tp:
        skip("dpdk-testpmd not installed")
    eal = ["--no-pci", "--in-memory", "--file-prefix", dct.PREFIX, "-l", "0-1",
           "--log-level=lib.eal:error", "--vdev=net_null0", "--vdev=net_null1"]
    p = subprocess.Popen([tp] + eal + ["--", "--stats-period", "100", "--total-num-mbufs", "4096"],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, universal_newlines=True)
    dct.wait_socket(p, dct.SOCK)
    return p


def stop(p):
    if p.poll() is None:
        p.terminate()
        try:
            p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    dct.cleanup_prefix()


def observe_argv(nicnuma, count, interval="0.5"):
    return [nicnuma, "--json", "observe", "--dpdk", "--file-prefix", dct.PREFIX,
            "--interval", interval, "--count", str(count), "--queue-stats", "none"]


def docs_of(out):
    try:
        return [json.loads(line) for line in out.splitlines() if line.strip()]
    except ValueError as e:
        fail("observe --dpdk: not JSON lines (%s):\n%s" % (e, out))


def case_rates(nicnuma):
    with dct.Lock(), fwd_test.Hugepages():
        p = testpmd()
        try:
            rc, out, err = fwd_test.run(observe_argv(nicnuma, 3), timeout=60)
        finally:
            stop(p)
    docs = docs_of(out)
    if rc not in (0, 1) or len(docs) != 3:
        fail("observe --dpdk --count 3: exit %d, %d documents:\n%s\n%s" % (rc, len(docs), out, err))
    for d in docs:
        if "dpdk" not in d:
            fail("document %s has no dpdk object: %s" % (d.get("sample"), d))
    last = docs[-1]["dpdk"]
    if last["pid"] != p.pid or last["file_prefix"] != dct.PREFIX or not last["running"]:
        fail("dpdk object: pid %s (testpmd %d), prefix %s, running %s"
             % (last["pid"], p.pid, last["file_prefix"], last["running"]))
    ports = last["ports"]
    if sorted(pt["name"] for pt in ports) != ["net_null0", "net_null1"]:
        fail("want ports net_null0, net_null1: %s" % ports)
    for pt in ports:
        for k in ("port", "name", "numa_node", "rx_pps", "tx_pps", "rx_missed_pps", "queues"):
            if k not in pt:
                fail("port %s lacks %s: %s" % (pt.get("name"), k, pt))
        if not (pt["rx_pps"] and pt["rx_pps"] > 0 and pt["tx_pps"] and pt["tx_pps"] > 0):
            fail("testpmd forwards between the null ports, yet port %s rx %s tx %s pps"
                 % (pt["name"], pt["rx_pps"], pt["tx_pps"]))
        qs = pt["queues"]
        if not qs or qs[0]["queue"] != 0 or not (qs[0]["rx_pps"] and qs[0]["rx_pps"] > 0):
            fail("port %s: want a row for queue 0 with its rx rate: %s" % (pt["name"], qs))
        if len(qs) != 1:
            fail("testpmd has one queue per port, %s shows %d rows: %s" % (pt["name"], len(qs), qs))
    lc = {x["lcore"]: x for x in last["lcores"]}
    if sorted(lc) != [0, 1] or lc[0]["cpu"] != 0 or lc[1]["cpu"] != 1:
        fail("testpmd -l 0-1: lcores %s" % last["lcores"])
    if (last["version"] or "").startswith("DPDK 22."):
        if last["lcore_usage_available"] or any(x["busy_share"] is not None for x in lc.values()):
            fail("DPDK 22.x has no /eal/lcore/usage, yet busy shares %s" % last["lcores"])
        if not any(NOTE in n for n in last["notes"]):
            fail("22.x: no note '%s': %s" % (NOTE, last["notes"]))
    elif last["lcore_usage_available"] and lc[1]["busy_share"] is None:
        fail("%s answers /eal/lcore/usage, yet lcore 1 has no busy share" % last["version"])
    print("rates: %s; lcores %s; %s" % (
        ["%s rx %.0f tx %.0f pps, q0 rx %.0f" % (pt["name"], pt["rx_pps"], pt["tx_pps"],
                                               pt["queues"][0]["rx_pps"]) for pt in ports],
        [(x["lcore"], x["cpu"], x["node"], x["busy_share"]) for x in lc.values()], last["notes"]))


def case_dies(nicnuma):
    with dct.Lock(), fwd_test.Hugepages():
        p = testpmd()
        try:
            o = subprocess.Popen(observe_argv(nicnuma, 5), stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, universal_newlines=True)
            first = o.stdout.readline()
            p.send_signal(signal.SIGKILL)
            p.wait()
            rest, err = o.communicate(timeout=60)
        finally:
            stop(p)
    docs = docs_of(first + rest)
    if len(docs) != 5:
        fail("a process dying mid-observation stopped it: %d of 5 documents (exit %d):\n%s\n%s"
             % (len(docs), o.returncode, first + rest, err))
    if not docs[0]["dpdk"]["running"]:
        fail("first interval: testpmd was running: %s" % docs[0]["dpdk"])
    tail = docs[-1]
    warns = json.dumps(tail.get("warnings", []))
    if tail["dpdk"]["running"] or tail["dpdk"]["ports"] or "not answering" not in warns \
            or str(p.pid) not in warns:
        fail("after the kill: want running false, no ports, a warning naming pid %d: %s"
             % (p.pid, tail))
    if o.returncode != 1:
        fail("warnings: want exit 1, got %d" % o.returncode)
    print("dies: %d documents, then %s" % (len(docs), tail["warnings"]))


def case_errors(nicnuma):
    prefix = "nn-obsdpdk-none-%d" % os.getpid()
    t0 = time.time()
    rc, out, err = fwd_test.run([nicnuma, "--json", "observe", "--dpdk", "--file-prefix", prefix,
                                 "--count", "1"], timeout=30)
    if rc != 2 or prefix not in err or time.time() - t0 > 10:
        fail("no such file prefix: exit %d (want 2), stderr must name %s:\n%s%s"
             % (rc, prefix, out, err))
    print("ok: no such prefix -> %s" % err.strip().splitlines()[-1])
    rc, out, err = fwd_test.run([nicnuma, "observe", "--file-prefix", "x", "--count", "1"])
    if rc != 2 or "--file-prefix needs --dpdk" not in err:
        fail("--file-prefix without --dpdk: exit %d:\n%s" % (rc, err))
    rc, out, err = fwd_test.run([nicnuma, "observe", "--dpdk", "--file-prefix", "../x"])
    if rc != 2 or "not a file prefix" not in err:
        fail("--file-prefix ../x: exit %d:\n%s" % (rc, err))
    print("ok: --file-prefix without --dpdk, and '../x', refused")
    # a fake root carries no DPDK process: refused, no socket asked
    d = tempfile.mkdtemp(prefix="nn-obsdpdk.")
    try:
        mk = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "mkhost.py")
        subprocess.run([sys.executable, mk, "build", "xeon-2s-smt", d], check=True,
                       stdout=subprocess.DEVNULL)
        rc, out, err = fwd_test.run([nicnuma, "--root", d, "observe", "--dpdk", "--count", "1"])
    finally:
        shutil.rmtree(d, ignore_errors=True)
    if rc != 2 or "observe --dpdk needs the live machine" not in err:
        fail("--dpdk under --root: exit %d, want 2 and a refusal:\n%s" % (rc, err))
    print("ok: --dpdk under --root refused")


def main():
    if len(sys.argv) < 3:
        fail(__doc__)
    case, nicnuma = sys.argv[1], sys.argv[2]
    if case == "errors":
        case_errors(nicnuma)
        return
    if os.geteuid() != 0:
        skip("not root: DPDK in-memory needs hugepages reserved by root")
    {"rates": case_rates, "dies": case_dies}[case](nicnuma)


if __name__ == "__main__":
    main()
