#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""dpdk_check_test.py - nicnuma check --dpdk against live DPDK processes on
vdevs, and against sockets that misbehave.

Usage: dpdk_check_test.py CASE NICNUMA [FWD]
Exit 0 pass, 1 fail, 77 skip (with the reason on stdout).

Cases:
  fwd        nicnuma-fwd (telemetry on, private --file-prefix) on net_ring
             vdevs: each port's verdict and each pool's socket against the
             pages move_pages found (the forwarder's own report)
  testpmd    dpdk-testpmd on net_null vdevs: pool socket and verdict against
             the process's hugepages per node in /proc/PID/numa_maps
  remote     nicnuma-fwd --mbuf-node remote: "mempool remote to its port";
             on a one-node host a visible SKIP, never a pass
  errors     no telemetry (--no-telemetry), a stale socket, servers that
             answer garbage or hang: exit 2, a clear message, within the timeout

Every live DPDK run holds /tmp/nn-dpdk.lock (others benchmark the forwarder)
and reserves its hugepages through fwd_test.Hugepages, which gives them back.
"""
import fcntl
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fwd_test  # noqa: E402  (its Hugepages, skip, fail, run)

from fwd_test import skip, fail  # noqa: E402

LOCK = "/tmp/nn-dpdk.lock"
LOCK_WAIT = 420     # the meson timeout is 600 s; a case runs in under 60 s
PREFIX = "nn-dpdkcheck-%d" % os.getpid()
SOCK = "/var/run/dpdk/%s/dpdk_telemetry.v2" % PREFIX


def nodes_online():
    with open("/sys/devices/system/node/online") as f:
        out = set()
        for part in f.read().strip().split(","):
            a, _, b = part.partition("-")
            out.update(range(int(a), int(b or a) + 1))
        return sorted(out)


class Lock:
    """Waits up to LOCK_WAIT s for the lock; a visible SKIP when others hold it longer."""

    def __enter__(self):
        self.f = open(LOCK, "a")
        deadline = time.time() + LOCK_WAIT
        while True:
            try:
                fcntl.flock(self.f, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return self
            except BlockingIOError:
                if time.time() > deadline:
                    self.f.close()
                    skip("another DPDK run held %s for over %d s" % (LOCK, LOCK_WAIT))
                time.sleep(0.5)

    def __exit__(self, *exc):
        fcntl.flock(self.f, fcntl.LOCK_UN)
        self.f.close()


def check(nicnuma, *args, timeout=30):
    rc, out, err = fwd_test.run([nicnuma, "--json", "check", "--dpdk"] + list(args), timeout=timeout)
    if rc == 2:
        return rc, None, err
    try:
        return rc, json.loads(out)["dpdk"], err
    except (ValueError, KeyError) as e:
        fail("check --dpdk %s: not a JSON report (%s), exit %d:\n%s\n%s" % (args, e, rc, out, err))


def wait_socket(p, path, secs=30):
    deadline = time.time() + secs
    while time.time() < deadline:
        if p.poll() is not None:
            fail("DPDK process exited (%d) before its telemetry socket %s appeared:\n%s"
                 % (p.returncode, path, p.stderr.read() if p.stderr else ""))
        if os.path.exists(path):
            time.sleep(0.5)     # ports and pools are set up after telemetry starts
            return
        time.sleep(0.1)
    fail("no telemetry socket %s after %d s" % (path, secs))


def cleanup_prefix():
    shutil.rmtree("/var/run/dpdk/" + PREFIX, ignore_errors=True)


def fwd_live(fwd, nicnuma, app, check_args):
    """Runs nicnuma-fwd with telemetry for a few seconds, checks it while it
    runs; returns (check exit, check report, forwarder report)."""
    eal = ["--no-pci", "--in-memory", "--file-prefix", PREFIX, "-l", "0-1",
           "--log-level=lib.eal:error"] + fwd_test.RING
    p = subprocess.Popen([fwd] + eal + ["--"] + app + ["--duration", "4", "--json", "--quiet"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    try:
        wait_socket(p, SOCK)
        rc, rep, err = check(nicnuma, "--file-prefix", PREFIX, *check_args)
        rc2, rep2, _ = check(nicnuma, "--file-prefix", PREFIX)
        out, ferr = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        cleanup_prefix()
    if rep is None:
        fail("check --dpdk on a live nicnuma-fwd failed (exit %d):\n%s" % (rc, err))
    if p.returncode not in (0, 1):
        fail("nicnuma-fwd exited %d:\n%s" % (p.returncode, ferr))
    # Without --vdev-node a vdev has no locality: nothing flagged.
    if rep2 is None or rc2 != 0 or any(pt["verdicts"] != ["unknown_locality"] for pt in rep2["ports"]):
        fail("vdev ports without --vdev-node: want unknown_locality, exit 0; got %d %s"
             % (rc2, rep2 and rep2["ports"]))
    return rc, rep, json.loads(out)


def truth_verdicts(rep, fwdrep, port_node):
    """What move_pages says: per pool the nodes its pages are on; a port is
    'mempool remote' when no pool has a page on its node."""
    pool_nodes = set()
    by_port = {p["port"]: p for p in fwdrep["pools"]}
    for mp in rep["mempools"]:
        if mp["name"] == "nnfwd_pool":
            # One pool shared by every port (the forwarder's report repeats
            # its move_pages result under each port): all ports' pages.
            pages = {}
            for pl in fwdrep["pools"]:
                for k, v in pl["pages_by_node"].items():
                    if v:
                        pages[int(k)] = v
        elif mp["name"].startswith("nnfwd_p"):
            port = int(mp["name"][len("nnfwd_p"):])
            pages = {int(k): v for k, v in by_port[port]["pages_by_node"].items() if v}
        else:
            continue
        if set(pages) != {mp["socket"]}:
            fail("pool %s: telemetry says socket %s, move_pages found pages on %s"
                 % (mp["name"], mp["socket"], pages))
        pool_nodes |= set(pages)
    if not pool_nodes:
        fail("no nnfwd_pool/nnfwd_p* pool in the telemetry's mempools: %s" % rep["mempools"])
    return "ok" if port_node in pool_nodes else "mempool_remote"


def check_ports(rep, want, port_node, lcore_node):
    for pt in rep["ports"]:
        if pt["numa_node"] != port_node or pt["node_source"] != "--vdev-node":
            fail("port %s: node %s (%s), want %d from --vdev-node"
                 % (pt["name"], pt["numa_node"], pt["node_source"], port_node))
        if want not in pt["verdicts"]:
            fail("port %s: verdicts %s, the pages say %s" % (pt["name"], pt["verdicts"], want))
        if pt["lcore_nodes"] != str(lcore_node):
            fail("port %s: polling lcores on node(s) %s, the forwarder's lcores are on node %d"
                 % (pt["name"], pt["lcore_nodes"], lcore_node))
    if len(rep["ports"]) != 2:
        fail("want 2 ports, got %s" % rep["ports"])
    missing = [m["what"] for m in rep["missing"]]
    if "/eal/lcore/info" not in missing and rep["version"].startswith("DPDK 22."):
        fail("22.11 has no /eal/lcore/info, yet it is not listed missing: %s" % missing)


def case_fwd(fwd, nicnuma):
    with Lock(), fwd_test.Hugepages():
        fwd_test.probe_eal(fwd)
        rc, rep, d = fwd_live(fwd, nicnuma, ["--gen", "--rate", "100000", "--mbuf-node", "0",
                                             "--lcore-node", "0"], ["--vdev-node", "0"])
    want = truth_verdicts(rep, d, 0)
    if want != "ok":
        fail("forwarder asked for node 0 pools, move_pages found otherwise: %s" % d["pools"])
    check_ports(rep, "ok", 0, d["config"]["lcore_node"])
    if rc != 0 or rep["flagged_count"] != 0:
        fail("local placement: exit %d, flagged %d" % (rc, rep["flagged_count"]))
    if rep["pid"] is None or rep["process"].get("name") != "nicnuma-fwd":
        fail("process not identified: pid %s, %s" % (rep["pid"], rep["process"]))
    print("fwd: %d ports ok, pools on %s (move_pages agrees), lcores %s"
          % (len(rep["ports"]), [m["socket"] for m in rep["mempools"]], rep["lcores"]))


def case_remote(fwd, nicnuma):
    nodes = nodes_online()
    if len(nodes) < 2:
        skip("skipped: one NUMA node (a mempool remote to its port cannot be created here)")
    ref = nodes[0]
    with Lock(), fwd_test.Hugepages(), NodePages(nodes[1]):
        fwd_test.probe_eal(fwd)
        rc, rep, d = fwd_live(fwd, nicnuma, ["--gen", "--rate", "100000", "--mbuf-node", "remote",
                                             "--lcore-node", str(ref)], ["--vdev-node", str(ref)])
    want = truth_verdicts(rep, d, ref)
    if want != "mempool_remote":
        fail("--mbuf-node remote, yet move_pages found pages on node %d: %s" % (ref, d["pools"]))
    check_ports(rep, "mempool_remote", ref, d["config"]["lcore_node"])
    if rc != 1 or rep["flagged_count"] != 2:
        fail("remote pools: exit %d, flagged %d (want 1, 2)" % (rc, rep["flagged_count"]))
    print("remote: both ports flagged 'mempool remote to its port', move_pages agrees")


class NodePages:
    """fwd_test.Hugepages for another node: adds 2 MB pages there, takes them back."""

    def __init__(self, node, pages=fwd_test.PAGES):
        self.nr = "/sys/devices/system/node/node%d/hugepages/hugepages-2048kB/nr_hugepages" % node
        self.free = self.nr.replace("nr_hugepages", "free_hugepages")
        self.pages, self.added = pages, 0

    def __enter__(self):
        free = fwd_test.read_int(self.free)
        if free < self.pages:
            before = fwd_test.read_int(self.nr)
            fwd_test.write_int(self.nr, before + self.pages - free)
            self.added = fwd_test.read_int(self.nr) - before
        return self

    def __exit__(self, *exc):
        if self.added:
            fwd_test.write_int(self.nr, max(0, fwd_test.read_int(self.nr) - self.added))


def numa_maps_huge(pid):
    """Hugepage bytes per node of a process, from the kernel (numa_maps)."""
    nodes = {}
    with open("/proc/%d/numa_maps" % pid) as f:
        for line in f:
            if " huge " not in line and "huge" not in line.split():
                continue
            kb = 2048
            for w in line.split():
                if w.startswith("kernelpagesize_kB="):
                    kb = int(w.split("=")[1])
            for w in line.split():
                if w.startswith("N") and "=" in w:
                    n, v = w[1:].split("=")
                    nodes[int(n)] = nodes.get(int(n), 0) + int(v) * kb * 1024
    return nodes


def case_testpmd(nicnuma):
    tp = shutil.which("dpdk-testpmd")
    if not tp:
        skip("dpdk-testpmd not installed")
    eal = ["--no-pci", "--in-memory", "--file-prefix", PREFIX, "-l", "0-1",
           "--log-level=lib.eal:error", "--vdev=net_null0", "--vdev=net_null1"]
    with Lock(), fwd_test.Hugepages():
        p = subprocess.Popen([tp] + eal + ["--", "--stats-period", "100", "--total-num-mbufs", "4096"],
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, universal_newlines=True)
        try:
            wait_socket(p, SOCK)
            # testpmd makes its pools after telemetry starts: a loaded
            # machine can take longer than wait_socket's half second
            deadline = time.time() + 15
            while True:
                rc, rep, err = check(nicnuma, "--file-prefix", PREFIX, "--vdev-node", "0")
                if rep is None or rep.get("mempools") or time.time() > deadline:
                    break
                time.sleep(0.5)
            huge = numa_maps_huge(p.pid)
        finally:
            p.terminate()
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
            cleanup_prefix()
    if rep is None:
        fail("check --dpdk on testpmd failed (%d):\n%s" % (rc, err))
    if rep["pid"] != p.pid:
        fail("telemetry pid %s, testpmd is %d" % (rep["pid"], p.pid))
    sockets = {m["socket"] for m in rep["mempools"]}
    if not sockets or not sockets <= set(huge):
        fail("pools on sockets %s, the kernel has testpmd's hugepages on %s" % (sockets, huge))
    want = "ok" if 0 in set(huge) else "mempool_remote"
    for pt in rep["ports"]:
        if pt["verdicts"] != [want]:
            fail("testpmd port %s: %s, hugepages on %s say %s" % (pt["name"], pt["verdicts"], huge, want))
    lc = {l["lcore_id"]: l for l in rep["lcores"]}
    if sorted(lc) != [0, 1] or not lc[0]["main"] or not lc[1]["polling"]:
        fail("testpmd -l 0-1: lcores %s" % rep["lcores"])
    if rc != 0:
        fail("testpmd on node 0: exit %d" % rc)
    print("testpmd: ports %s, pools on %s, hugepages on %s" % ([x["verdicts"] for x in rep["ports"]],
                                                               sorted(sockets), sorted(huge)))


# ---- misbehaving sockets: no DPDK needed for most ----

def expect_error(nicnuma, args, words, within):
    t0 = time.time()
    rc, out, err = fwd_test.run([nicnuma, "check", "--dpdk"] + args, timeout=30)
    dt = time.time() - t0
    if rc != 2:
        fail("%s: exit %d, want 2\n%s%s" % (args, rc, out, err))
    for w in words:
        if w not in err:
            fail("%s: stderr lacks %r:\n%s" % (args, w, err))
    if dt > within:
        fail("%s: took %.1f s, want under %.1f s" % (args, dt, within))
    print("ok: %s -> %s (%.2f s)" % (" ".join(args), err.strip().splitlines()[-1], dt))


class FakeServer:
    """A SOCK_SEQPACKET server: @greeting (None: never speaks), then @reply to
    every command (None: never answers)."""

    def __init__(self, path, greeting, reply):
        self.path, self.greeting, self.reply = path, greeting, reply
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.s.bind(path)
        self.s.listen(4)
        self.stop = False
        self.conns = []
        self.t = threading.Thread(target=self.serve, daemon=True)
        self.t.start()

    def serve(self):
        self.s.settimeout(0.2)
        while not self.stop:
            try:
                c, _ = self.s.accept()
            except OSError:
                continue
            self.conns.append(c)
            if self.greeting is not None:
                c.send(self.greeting)
            c.settimeout(0.2)
            while not self.stop:
                try:
                    m = c.recv(4096)
                except socket.timeout:
                    continue
                except OSError:
                    break
                if not m:
                    break
                if self.reply is not None:
                    c.send(self.reply(m) if callable(self.reply) else self.reply)

    def close(self):
        self.stop = True
        self.t.join()
        for c in self.conns:
            c.close()
        self.s.close()
        os.unlink(self.path)


# The server runs in this process: its SO_PEERCRED pid is ours, and the
# greeting must say so (a greeting naming another pid is skipped).
GREET = b'{"version":"DPDK 22.11.11","pid":%d,"max_output_len":16384}' % os.getpid()


def case_errors(nicnuma, fwd):
    d = tempfile.mkdtemp(prefix="nn-dpdkcheck.")
    try:
        # no socket at all
        path = os.path.join(d, "none.v2")
        expect_error(nicnuma, ["--socket", path],
                     ["no DPDK telemetry socket at " + path, "telemetry enabled"], 5)
        # stale: a socket file nobody listens on
        path = os.path.join(d, "stale.v2")
        s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        s.bind(path)
        s.close()
        expect_error(nicnuma, ["--socket", path], ["stale socket " + path], 5)
        # a stream socket (not telemetry v2)
        path = os.path.join(d, "stream.v2")
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(path)
        s.listen(1)
        expect_error(nicnuma, ["--socket", path], ["not a SOCK_SEQPACKET socket"], 5)
        s.close()
        # garbage greeting
        path = os.path.join(d, "garbage.v2")
        srv = FakeServer(path, b"\x1b[31mHELLO garbage", None)
        expect_error(nicnuma, ["--socket", path], ["not a DPDK telemetry v2 server"], 5)
        srv.close()
        # a good greeting, then garbage replies
        srv = FakeServer(path, GREET, b"{\"/ethdev/list\": \"nope\"")
        expect_error(nicnuma, ["--socket", path], ["garbage reply to /ethdev/list"], 5)
        srv.close()
        # hangs before the greeting, and after it: bounded by --timeout
        path = os.path.join(d, "hang.v2")
        srv = FakeServer(path, None, None)
        expect_error(nicnuma, ["--socket", path, "--timeout", "0.5"],
                     ["no greeting before the deadline (--timeout 0.5 s", "hangs"], 3)
        srv.close()
        srv = FakeServer(path, GREET, None)
        expect_error(nicnuma, ["--socket", path, "--timeout", "2"],
                     ["no reply to /ethdev/list before the deadline (--timeout 2.0 s"], 5)
        srv.close()
        # conflicting options
        expect_error(nicnuma, ["--socket", path, "--file-prefix", "x"], ["not both"], 5)
        expect_error(nicnuma, ["--file-prefix", "../x"], ["not a file prefix"], 5)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    if not fwd or not os.access(fwd, os.X_OK):
        print("SKIP (partial): --no-telemetry not exercised: nicnuma-fwd not built")
        return
    # a live DPDK process without telemetry: no socket under its prefix
    with Lock(), fwd_test.Hugepages():
        fwd_test.probe_eal(fwd)
        eal = ["--no-pci", "--in-memory", "--file-prefix", PREFIX, "-l", "0-1", "--no-telemetry",
               "--log-level=lib.eal:error"] + fwd_test.RING
        p = subprocess.Popen([fwd] + eal + ["--", "--duration", "3", "--quiet"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            time.sleep(1.5)
            if p.poll() is not None:
                fail("nicnuma-fwd --no-telemetry exited early (%d)" % p.returncode)
            expect_error(nicnuma, ["--file-prefix", PREFIX],
                         ["no DPDK telemetry socket at " + SOCK, "telemetry enabled"], 5)
            p.wait(timeout=30)
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
            cleanup_prefix()


def main():
    if len(sys.argv) < 3:
        fail(__doc__)
    case, nicnuma = sys.argv[1], sys.argv[2]
    fwd = sys.argv[3] if len(sys.argv) > 3 else ""
    if os.geteuid() != 0:
        skip("DPDK and /var/run/dpdk need root here")
    if case == "errors":
        case_errors(nicnuma, fwd)
    elif case == "testpmd":
        case_testpmd(nicnuma)
    elif case in ("fwd", "remote"):
        if not fwd or not os.access(fwd, os.X_OK):
            skip("nicnuma-fwd was not built (DPDK/libdpdk-dev missing at configure time)")
        if case == "fwd":
            case_fwd(fwd, nicnuma)
        else:
            case_remote(fwd, nicnuma)
    else:
        fail("unknown case " + case)
    print("ok: " + case)


if __name__ == "__main__":
    main()
