#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""dpdk_check_truth.py NAME WANT RC WANT_RC PCI CHECK_JSON APP_OUT NUMA_MAPS CHECK_ERR

Compares one `nicnuma check --dpdk` report (tests/guest/dpdk_check.sh) with
the kernel: the port's node with /sys numa_node (and its PMD with $PMD when set), the pools' sockets with the
pages move_pages found (nicnuma-fwd's JSON report) or, for testpmd, with the
process's hugepages in numa_maps; the verdict with what those facts imply.
Prints PASS/FAIL lines."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from kernel_lists import cpulist  # noqa: E402 (the tests' one cpulist parser)

name, want, rc, want_rc, pci, cj, app, numa, cerr = sys.argv[1:10]
rc, want_rc = int(rc), int(want_rc)


def out(ok, what, why=""):
    print(("PASS" if ok else "FAIL") + " check --dpdk %s: %s" % (name, what) + ("" if ok else ": " + why))
    return ok


try:
    rep = json.load(open(cj))["dpdk"]
except (ValueError, KeyError, OSError) as e:
    out(False, "a JSON report", "%s (exit %d): %s" % (e, rc, open(cerr).read().strip()[-300:]))
    sys.exit(0)
kernel = int(open("/sys/bus/pci/devices/%s/numa_node" % pci).read())
ports = [p for p in rep["ports"] if p["pci"] == pci]
if not out(len(ports) == 1, "port %s reported" % pci, str(rep["ports"])):
    sys.exit(0)
port = ports[0]
pmd = os.environ.get("PMD")
if pmd:
    # DPDK 22.11's /ethdev/info names no driver: then null, and said so.
    said = [m for m in rep.get("missing", []) if "driver_name" in (m.get("what") or "")]
    out(port.get("driver") == pmd or (port.get("driver") is None and said),
        "port driver %s, or unknown and listed as missing (22.11 telemetry names none)" % pmd,
        "driver %r, missing %s" % (port.get("driver"), rep.get("missing")))
out(port["numa_node"] == kernel and port["node_source"] == "sysfs",
    "port node = kernel numa_node %d (sysfs)" % kernel, "%s (%s)" % (port["numa_node"], port["node_source"]))

# Where the pools' pages really are.
truth_pools = set()
huge_nodes = set()
lcore_node = None
try:
    fwdrep = json.load(open(app))
except (ValueError, OSError):
    fwdrep = None
if fwdrep:
    for p in fwdrep.get("pools", []):
        truth_pools |= {int(k) for k, v in p["pages_by_node"].items() if v}
    lcore_node = fwdrep["config"]["lcore_node"]
    if pmd:
        drivers = [p.get("driver") for p in fwdrep["config"].get("ports", [])]
        out(drivers == [pmd], "nicnuma-fwd's port driven by %s" % pmd, "drivers %s" % drivers)
    if want == "ok":
        # The forwarder's own report, as tests/guest/fwd.sh checks its 'local'
        # run (which the full run leaves to this one: a boot-long DPDK start less).
        out(fwdrep.get("placement_verified") is True and lcore_node == kernel and fwdrep["config"].get("mbuf_node") == kernel,
            "nicnuma-fwd: lcores and mbufs on node %d, placement verified by move_pages" % kernel,
            "lcore_node %s, mbuf_node %s, placement_verified %r" % (lcore_node, fwdrep["config"].get("mbuf_node"),
                                                                  fwdrep.get("placement_verified")))
    tel = {m["socket"] for m in rep["mempools"] if m["name"].startswith("nnfwd_p")}
    out(tel == truth_pools, "pool sockets %s = move_pages nodes %s" % (sorted(tel), sorted(truth_pools)),
        "differ")
else:
    for line in open(numa):
        if "huge" not in line.split():
            continue
        for w in line.split():
            if w.startswith("N") and "=" in w:
                truth_pools.add(int(w[1:].split("=")[0]))
    tel = {m["socket"] for m in rep["mempools"] if m["socket"] is not None}
    huge_nodes = set(truth_pools)
    out(bool(tel) and tel <= truth_pools,
        "pool sockets %s among the hugepage nodes %s (numa_maps)" % (sorted(tel), sorted(truth_pools)),
        "not")
    # numa_maps cannot tell the pool's pages from the EAL heap's (lcores on
    # both nodes put heap on both): the pool's node is the one testpmd was
    # forced to (--no-numa --socket-num), if the kernel has hugepages there.
    forced = os.environ.get("FORCED_SOCKET", "")
    truth_pools = {int(forced)} & truth_pools if forced else set()
truth = set()
if kernel not in truth_pools and truth_pools:
    truth.add("mempool_remote")
if lcore_node is not None and lcore_node != kernel:
    truth.add("lcore_remote")
out(want in port["verdicts"], "verdict %s" % want, "got %s" % port["verdicts"])
if want == "ok":
    out(not truth, "the kernel agrees: nothing remote", "truth says %s" % sorted(truth))
elif want == "mempool_unknown":
    # The port draws from the forced (remote) pool, and the pools sit on
    # its node and on others: ok would be a lie, remote a guess.
    named = cpulist(port["mempool_nodes"] or "")
    out("mempool_remote" in truth, "the kernel agrees: the port's pool (forced) is remote",
        "truth says %s" % sorted(truth))
    out(len(named) > 1 and kernel in named and named <= huge_nodes,
        "pools named on nodes %s: the port's node %d and others, all with hugepages %s"
        % (sorted(named), kernel, sorted(huge_nodes)), "not")
    out("ok" not in port["verdicts"] and port["flagged"], "not called ok, flagged",
        "%s flagged=%s" % (port["verdicts"], port["flagged"]))
else:
    out(want in truth, "the kernel agrees: %s" % want, "truth says %s" % sorted(truth))
out(rc == want_rc, "exit %d" % want_rc, "exit %d" % rc)
