#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""fwd_test.py - bounded runs of nicnuma-fwd (and nicnuma bench) on vdevs.

Usage: fwd_test.py CASE FWD_BINARY [NICNUMA_BINARY]
Exit 0 pass, 1 fail, 77 skip (with the reason on stdout).

Hugepages: each case adds the 2 MB pages it needs on node 0 through sysfs and
removes exactly that many afterwards (deltas, so parallel cases compose), and
runs EAL with --in-memory so no rtemap file can outlive the process.
"""
import glob
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

NODE0_NR = "/sys/devices/system/node/node0/hugepages/hugepages-2048kB/nr_hugepages"
NODE0_FREE = "/sys/devices/system/node/node0/hugepages/hugepages-2048kB/free_hugepages"
PAGES = 48          # two pools of 8191 mbufs (~20 pages) + EAL heap, with room
EAL = ["--no-pci", "--in-memory", "-l", "0-1", "--no-telemetry", "--log-level=lib.eal:error"]
RING = ["--vdev=net_ring0", "--vdev=net_ring1"]
NULL = ["--vdev=net_null0", "--vdev=net_null1"]


def skip(why):
    print("SKIP: " + why)
    sys.exit(77)


def fail(why):
    print("FAIL: " + why)
    sys.exit(1)


def read_int(path):
    with open(path) as f:
        return int(f.read().strip())


def write_int(path, v):
    with open(path, "w") as f:
        f.write(str(v))


class Hugepages:
    """Adds PAGES free 2 MB pages on node 0 if fewer are free; removes them after."""

    def __init__(self):
        self.added = 0

    def __enter__(self):
        if not os.path.exists(NODE0_NR):
            skip("no 2 MB hugepage support on node 0 (%s missing)" % NODE0_NR)
        free = read_int(NODE0_FREE)
        if free >= PAGES:
            return self
        if os.geteuid() != 0:
            skip("need %d free 2 MB hugepages on node 0 (have %d) and not root to reserve them"
                 % (PAGES, free))
        want = PAGES - free
        before = read_int(NODE0_NR)
        try:
            write_int(NODE0_NR, before + want)
        except OSError as e:
            skip("cannot reserve hugepages: %s" % e)
        self.added = read_int(NODE0_NR) - before
        if read_int(NODE0_FREE) < PAGES:
            self.__exit__()
            skip("the kernel gave only %d of %d hugepages (memory fragmented)" % (self.added, want))
        return self

    def __exit__(self, *exc):
        if self.added > 0:
            now = read_int(NODE0_NR)
            write_int(NODE0_NR, max(0, now - self.added))
            self.added = 0


def run(argv, timeout=60):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout,
                       universal_newlines=True)
    return p.returncode, p.stdout, p.stderr


def fwd_json(fwd, eal_extra, app):
    eal = eal_extra if "--no-huge" in eal_extra else EAL + eal_extra
    rc, out, err = run([fwd] + eal + ["--"] + app + ["--json", "--quiet"])
    if rc not in (0, 1):
        fail("nicnuma-fwd exited %d\nstderr:\n%s" % (rc, err))
    try:
        doc = json.loads(out)
    except ValueError as e:
        fail("stdout is not one JSON document (%s):\n%s" % (e, out[:2000]))
    return rc, doc


def need(doc, path):
    cur = doc
    for k in path.split("."):
        if not isinstance(cur, dict) or k not in cur:
            fail("JSON lacks %s" % path)
        cur = cur[k]
    return cur


def check_monotonic(h, what):
    keys = ["p50", "p90", "p99", "p999", "max"]
    vals = [h[k] for k in keys]
    if any(v is None for v in vals):
        fail("%s has null percentiles: %s" % (what, h))
    for a, b, ka, kb in zip(vals, vals[1:], keys, keys[1:]):
        if a > b:
            fail("%s not monotonic: %s=%s > %s=%s" % (what, ka, a, kb, b))


def stale_rtemaps():
    found = []
    with open("/proc/mounts") as f:
        for line in f:
            parts = line.split()
            if len(parts) > 2 and parts[2] == "hugetlbfs":
                found += glob.glob(os.path.join(parts[1], "*rtemap_*"))
    return found


def case_shape(fwd):
    rc, d = fwd_json(fwd, RING, ["--gen", "--duration", "1", "--rate", "200000"])
    for k in ["mbuf_node", "lcore_node", "port_node", "ports", "lcores"]:
        need(d, "config." + k)
    for k in ["placement_verified", "mpps", "gbps", "drops", "duration_s", "loss", "reordered"]:
        need(d, k)
    for k in ["p50", "p90", "p99", "p999", "max"]:
        need(d, "latency_ns." + k)
        need(d, "stall_baseline_ns." + k)
    if not isinstance(d["placement_verified"], bool):
        fail("placement_verified is not a bool")
    if not (0.9 <= d["duration_s"] <= 3.0):
        fail("duration_s %s for --duration 1" % d["duration_s"])
    if d["mpps"] <= 0 or d["gen"]["rx"] <= 0:
        fail("no packets came back: %s" % d["gen"])
    if len(d["config"]["ports"]) != 2 or not d["config"]["lcores"]:
        fail("config ports/lcores wrong: %s" % d["config"])
    if rc != 0:
        fail("exit %d on a clean run" % rc)


def case_counters(fwd):
    # Flat out, so the TX ring overflows and drops are real, then paced.
    for app in (["--gen", "--duration", "1"], ["--gen", "--duration", "1", "--rate", "100000"]):
        _, d = fwd_json(fwd, RING, app)
        g = d["gen"]
        if d["rx"] != d["tx"] + d["drops"]:
            fail("forwarder rx %d != tx %d + drops %d" % (d["rx"], d["tx"], d["drops"]))
        if g["tx"] != g["rx"] + d["drops"]:
            fail("generator tx %d != rx %d + drops %d (%s)" % (g["tx"], g["rx"], d["drops"], app))
        if g["rx"] != d["tx"] or g["tx"] != d["rx"]:
            fail("generator and forwarder disagree: gen %s, fwd rx %d tx %d" % (g, d["rx"], d["tx"]))
        per = d["port_stats"]
        if sum(p["fwd_rx"] for p in per) != d["rx"] or sum(p["fwd_tx"] for p in per) != d["tx"]:
            fail("per-port counters do not add up: %s" % per)
        check_monotonic(d["latency_ns"], "latency_ns")
        check_monotonic(d["stall_baseline_ns"], "stall_baseline_ns")
        # Latency is sampled: one TX burst in stamp_every carries a stamp,
        # every stamped frame back is one sample, and the rate is reported.
        lat = d["latency_ns"]
        if lat["stamp_every"] != 16 or lat["samples"] != g["stamped_rx"]:
            fail("latency samples %s, stamp_every %s: not the %d stamped frames received, one burst in 16"
                 % (lat["samples"], lat.get("stamp_every"), g["stamped_rx"]))
        if g["rx"] > 64 * 16 and not 0 < g["stamped_rx"] < g["rx"] / 4:
            fail("stamped frames %d of %d received: not a sample" % (g["stamped_rx"], g["rx"]))
    # --stamp-every 1: every frame a sample, as before sampling existed.
    _, d = fwd_json(fwd, RING, ["--gen", "--duration", "0.5", "--stamp-every", "1"])
    if d["latency_ns"]["samples"] != d["gen"]["rx"] or d["latency_ns"]["stamp_every"] != 1:
        fail("--stamp-every 1: latency samples %s != frames received %d"
             % (d["latency_ns"]["samples"], d["gen"]["rx"]))
    # --sample-ab: sampled and unstamped phases in turn, each with its own
    # iterations and rate; latency then samples one burst in 2 x 16.
    _, d = fwd_json(fwd, RING, ["--gen", "--duration", "1", "--sample-ab"])
    a, g = d["gen"].get("sample_ab"), d["gen"]
    if not a or a["stamp_every"] != 16 or d["latency_ns"]["stamp_every"] != 32:
        fail("--sample-ab: no sample_ab object or wrong sampling: %s / %s" % (a, d["latency_ns"]))
    if a["sampled_iterations"] > 0 and a["off_iterations"] > 0:
        if not (a["sampled_ns_per_packet"] > 0 and a["off_ns_per_packet"] > 0):
            fail("--sample-ab: iterations but no cost: %s" % a)
        want = (a["sampled_ns_per_packet"] / a["off_ns_per_packet"] - 1) * 100
        if a["cost_pct"] is None or abs(a["cost_pct"] - want) > 0.01:
            fail("--sample-ab: cost_pct %s is not sampled/off - 1 (%.3f)" % (a["cost_pct"], want))
        if abs(a["sampled_mpps"] * a["sampled_ns_per_packet"] - 1e3) > 1:
            fail("--sample-ab: sampled_mpps is not 1e3 / ns per packet: %s" % a)
    elif a["cost_pct"] is not None:
        fail("--sample-ab: cost without full iterations in both phases: %s" % a)
    if d["latency_ns"]["samples"] != g["stamped_rx"] or g["stamped_rx"] >= g["rx"] / 8:
        fail("--sample-ab: %d samples, %d stamped of %d back" % (d["latency_ns"]["samples"],
                                                              g["stamped_rx"], g["rx"]))
    # Pure forwarding on net_null: no generator, rx = tx + drops still.
    _, d = fwd_json(fwd, NULL, ["--duration", "1", "--no-mac-updating"])
    if d["rx"] <= 0 or d["rx"] != d["tx"] + d["drops"]:
        fail("net_null: rx %d tx %d drops %d" % (d["rx"], d["tx"], d["drops"]))
    if d["latency_ns"]["p50"] is not None:
        fail("latency reported without a generator")
    check_monotonic(d["stall_baseline_ns"], "stall_baseline_ns")


def case_placement(fwd):
    _, d = fwd_json(fwd, RING, ["--gen", "--duration", "0.5", "--mbuf-node", "0", "--lcore-node", "0"])
    if d["config"]["mbuf_node"] != 0 or d["config"]["lcore_node"] != 0:
        fail("asked for node 0, config says %s" % d["config"])
    if d["placement_verified"] is not True:
        fail("placement not verified on node 0: %s" % d["pools"])
    for p in d["pools"]:
        if p["pages"] <= 0 or p["pages_by_node"].get("0") != p["pages"]:
            fail("pool pages not all on node 0: %s" % p)


def bad(fwd, app, want, eal=None):
    rc, out, err = run([fwd] + (eal or EAL + RING) + ["--"] + app)
    if rc != 2:
        fail("%s: exit %d, want 2\n%s" % (app, rc, err))
    for w in want:
        if w not in err:
            fail("%s: stderr lacks %r:\n%s" % (app, w, err))
    left = stale_rtemaps()
    if left:
        fail("%s left rtemap files behind: %s" % (app, left))


def case_bad_input(fwd):
    nodes = open("/sys/devices/system/node/online").read().strip()
    absent = 63
    bad(fwd, ["--mbuf-node", str(absent)], ["node %d does not exist" % absent])
    bad(fwd, ["--ports", "0,7"], ["unknown port 7"])
    bad(fwd, ["--size", "20"], ["--size"])
    bad(fwd, ["--gen", "--sample-ab", "--no-stamp"], ["--sample-ab needs --gen"])
    bad(fwd, ["--sample-ab"], ["--sample-ab needs --gen"])
    # More mbufs than node 0 has hugepage memory: ENOMEM, which DPDK does not log.
    bad(fwd, ["--mbufs", "4000000"], ["on node 0", "nicnuma hugepages reserve --nodes 0"])
    # One lcore: nothing can forward (the main lcore never does).
    one = [x if x != "0-1" else "0" for x in EAL] + RING
    bad(fwd, ["--duration", "1"], ["at least 2 lcores"], eal=one)
    if nodes in ("0",):
        bad(fwd, ["--lcore-node", "remote"], ["no node other than 0"])
        bad(fwd, ["--mbuf-node", "remote"], ["no node other than 0"])


def total_free_hugepages():
    n = 0
    for f in glob.glob("/sys/kernel/mm/hugepages/hugepages-*/free_hugepages"):
        n += read_int(f)
    return n


def case_no_hugepages(fwd):
    """Runs outside the reservation: exit 2 and the fix when none are free.
    Taking this host's free pages away would disturb whoever holds them."""
    free = total_free_hugepages()
    if free:
        skip("'no free hugepages' not exercised: this host has %d free hugepages now" % free)
    bad(fwd, ["--gen", "--duration", "1"], ["no free hugepages", "nicnuma hugepages reserve --nodes 0"])


def case_no_huge(fwd):
    """--no-huge (4 KiB pages, EAL without hugepages) runs and is labelled as such."""
    rc, d = fwd_json(fwd, ["--no-pci", "--no-huge", "-m", "256", "-l", "0-1", "--no-telemetry",
                           "--log-level=lib.eal:error"] + RING, ["--gen", "--duration", "0.5"])
    if "no-huge" not in d["config"]["eal_memory"]:
        fail("--no-huge run not labelled: %s" % d["config"]["eal_memory"])
    if d["rx"] != d["tx"] + d["drops"] or d["gen"]["rx"] <= 0:
        fail("--no-huge run: counters %s" % d["gen"])


BENCH_PAGES = 48     # nicnuma bench mismatch's own need per mbuf node


def bench_logs(state):
    return sorted(f for f in os.listdir(state) if f.endswith(".json"))


def fwd_running():
    for c in glob.glob("/proc/[0-9]*/comm"):
        try:
            with open(c, "rb") as f:
                if f.read().strip() == b"nicnuma-fwd":
                    return True
        except OSError:
            pass        # exited while we looked
    return False


def case_bench_killed(fwd, nicnuma):
    """A bench killed outright (no chance to give pages back) leaves an undo
    log; nicnuma rollback then puts nr_hugepages back exactly."""
    nr0 = read_int(NODE0_NR)
    if read_int(NODE0_FREE) >= BENCH_PAGES:
        skip("killed-bench rollback not exercised: %d free 2 MB pages on node 0 already, "
             "so the bench reserves none" % read_int(NODE0_FREE))
    state = tempfile.mkdtemp(prefix="nn-bench-killed.")
    p = subprocess.Popen([nicnuma, "bench", "mismatch", "--duration", "30", "--repeat", "1",
                          "--fwd", fwd, "--state-dir", state], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.time() + 20
        while read_int(NODE0_NR) == nr0 and time.time() < deadline and p.poll() is None:
            time.sleep(0.05)
        if read_int(NODE0_NR) == nr0:
            fail("bench never reserved its hugepages (nr_hugepages stayed %d)" % nr0)
        time.sleep(0.5)     # let the forwarder start on them
    finally:
        os.killpg(p.pid, signal.SIGKILL)    # nicnuma and its nicnuma-fwd child
        p.wait()
    deadline = time.time() + 10
    while fwd_running() and time.time() < deadline:
        time.sleep(0.05)
    if read_int(NODE0_NR) == nr0:
        fail("killed bench gave its pages back by itself (cannot happen after SIGKILL)")
    logs = bench_logs(state)
    if len(logs) != 1:
        fail("killed bench: want one undo log in %s, got %s" % (state, logs))
    rc, out, err = run([nicnuma, "--json", "rollback", "--state-dir", state])
    if rc != 0:
        fail("rollback after a killed bench exited %d: %s" % (rc, err))
    if read_int(NODE0_NR) != nr0:
        fail("rollback left nr_hugepages at %d, was %d" % (read_int(NODE0_NR), nr0))
    print("killed bench: %s rolled back, nr_hugepages %d again" % (logs[0], nr0))


def case_bench(fwd, nicnuma):
    """Runs outside the Hugepages() guard: the bench reserves (and, through its
    undo log, gives back) the pages it lacks by itself."""
    nr0, free0 = read_int(NODE0_NR), read_int(NODE0_FREE)
    state = tempfile.mkdtemp(prefix="nn-bench.")
    rc, out, err = run([nicnuma, "--json", "bench", "mismatch", "--duration", "1", "--repeat", "1",
                        "--fwd", fwd, "--state-dir", state], timeout=120)
    if rc not in (0, 1):
        fail("bench mismatch exited %d\n%s" % (rc, err))
    d = json.loads(out)
    if read_int(NODE0_NR) != nr0:
        fail("bench left nr_hugepages at %d, was %d" % (read_int(NODE0_NR), nr0))
    given = d.get("hugepages_given_back", "missing")
    if free0 < BENCH_PAGES:
        vals = given["values"] if isinstance(given, dict) else []
        if [v["status"] for v in vals] != ["restored"] or vals[0]["restored"] != str(nr0):
            fail("bench reserved pages but hugepages_given_back says %s" % given)
        logs = bench_logs(state)
        with open(os.path.join(state, logs[-1])) as f:
            log = json.load(f)
        if log.get("command") != "bench mismatch" or not log.get("rolled_back"):
            fail("bench undo log not marked rolled back: %s" % log)
    elif given is not None:
        fail("no page was needed, yet hugepages_given_back is %s" % given)
    rows = {(r["lcores"], r["mbufs"]): r for r in d["rows"]}
    if len(rows) != 4:
        fail("want 4 rows, got %s" % list(rows))
    m = rows[("local", "local")]
    if m.get("skipped") or not m["runs"] or m["mpps"]["median"] <= 0:
        fail("matched row did not run: %s" % m)
    # The latency percentiles are a sample, and the row says at what rate.
    if m["latency_ns"].get("stamp_every") != 16 or m["runs"][0]["latency_ns"].get("stamp_every") != 16:
        fail("matched row's latency has no sampling rate beside it: %s" % m["latency_ns"])
    if not m["latency_ns"]["samples"]["median"] or m["latency_ns"]["samples"]["median"] <= 0:
        fail("matched row's latency_ns.samples: %s" % m["latency_ns"])
    one_node = len(d["host"]["nodes"]) == 1
    for key in [("local", "remote"), ("remote", "local"), ("remote", "remote")]:
        r = rows[key]
        if one_node and r.get("skipped") != "skipped: one NUMA node":
            fail("row %s on a one-node host: %s" % (key, r))
        if one_node and r.get("runs"):
            fail("row %s was skipped but has runs (faked?)" % (key,))
    for k in ["nodes", "distances", "cpu_model", "hypervisor", "knobs"]:
        need(d, "host." + k)
    need(m, "binding")
    if m["runs"][0].get("fwd_cpu") != m["binding"]["fwd_cpu"]:
        fail("forwarder ran on CPU %s, binding says %s" % (m["runs"][0].get("fwd_cpu"), m["binding"]))
    # A captured tree is never benchmarked: DPDK would run on this machine.
    rc, out, err = run([nicnuma, "--root", "/tmp", "bench", "mismatch", "--fwd", fwd])
    if rc != 2 or "--root" not in err:
        fail("bench under --root: exit %d, stderr %r" % (rc, err))


def chromium():
    """The headless browser for the report's PNG: installed through
    scripts/lib.sh's nn_install when missing; None when it cannot be had."""
    for name in ("chromium", "chromium-browser"):
        for d in os.environ.get("PATH", "").split(":"):
            if d and os.access(os.path.join(d, name), os.X_OK):
                return os.path.join(d, name)
    lib = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib.sh")
    rc = subprocess.call(["bash", "-c", '. "$1" && nn_install "${NN_REPORT_PACKAGES[@]}"', "-", lib],
                         stdout=subprocess.DEVNULL)
    return "/usr/bin/chromium" if rc == 0 and os.access("/usr/bin/chromium", os.X_OK) else None


def case_report(fwd, nicnuma):
    """bench --report at two frame sizes: the page is well-formed XML with
    one SVG per chart, says so when rows were skipped, and renders in
    headless Chromium to a PNG kept as an artifact ($NN_ARTIFACTS)."""
    nr0 = read_int(NODE0_NR)
    state = tempfile.mkdtemp(prefix="nn-report-state.")
    out_dir = tempfile.mkdtemp(prefix="nn-report.")
    rc, out, err = run([nicnuma, "--json", "bench", "mismatch", "--duration", "1", "--repeat", "2",
                        "--size", "64,1500", "--rate", "1000000", "--fwd", fwd, "--state-dir", state,
                        "--report", out_dir], timeout=170)
    if rc not in (0, 1):
        fail("bench --report exited %d\n%s" % (rc, err))
    if read_int(NODE0_NR) != nr0:
        fail("bench left nr_hugepages at %d, was %d" % (read_int(NODE0_NR), nr0))
    d = json.loads(out)
    if d.get("report_dir") != out_dir:
        fail("report_dir %r, want %r" % (d.get("report_dir"), out_dir))
    with open(os.path.join(out_dir, "report.json")) as f:
        rep = json.load(f)
    sizes = sorted({r["frame_size"] for r in rep["rows"]})
    if sizes != [64, 1500] or len(rep["rows"]) != 8:
        fail("want 8 rows at 64 and 1500 B, got %s" % [(r["frame_size"], r["lcores"], r["mbufs"]) for r in rep["rows"]])
    if "--report" not in rep["report"]["command"]:
        fail("report.json lacks the command: %s" % rep["report"])
    # the one printing layer's lists: both keys always, [] when empty (issue 26.7)
    if not isinstance(rep.get("warnings"), list) or not isinstance(rep.get("notes"), list):
        fail("report.json: want the warnings and notes lists, got %s" %
             {k: rep.get(k) for k in ("warnings", "notes")})
    html_path = os.path.join(out_dir, "report.html")
    with open(html_path) as f:
        html = f.read()
    if subprocess.call(["xmllint", "--noout", html_path]) != 0:
        fail("report.html is not well-formed XML (xmllint above)")
    svgs = html.count("<svg ")
    if svgs != 3:
        fail("want 3 charts (Mpps, a CDF per size), got %d" % svgs)
    for i, chunk in enumerate(html.split("<svg ")[1:]):
        svg = "<svg " + chunk.split("</svg>")[0] + "</svg>"
        p = subprocess.run(["xmllint", "--noout", "-"], input=svg, text=True)
        if p.returncode != 0:
            fail("chart %d is not well-formed SVG" % i)
    if "<script" in html or "src=" in html or "href=" in html:
        fail("report.html references something outside itself")
    if len(rep["host"]["nodes"]) == 1 and "6 of 8 rows were not run (skipped: one NUMA node)" not in html:
        fail("one-node host: the page does not say the mismatch rows were skipped")
    art = os.environ.get("NN_ARTIFACTS") or out_dir
    os.makedirs(art, exist_ok=True)
    png = os.path.join(art, "bench-report.png")
    with open(os.path.join(art, "bench-report.html"), "w") as f:
        f.write(html)
    browser = chromium()
    if not browser:
        print("report checked; no PNG: chromium not installed and could not be installed")
        return
    profile = tempfile.mkdtemp(prefix="nn-chromium.")
    p = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        "--user-data-dir=" + profile, "--window-size=1100,2600",
                        "--screenshot=" + png, "file://" + html_path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    subprocess.call(["rm", "-rf", profile])
    if p.returncode != 0 or not os.path.exists(png):
        fail("chromium could not render the report (exit %d): %s" % (p.returncode, p.stderr[-2000:]))
    with open(png, "rb") as f:
        head = f.read(8)
    if head != b"\x89PNG\r\n\x1a\n" or os.path.getsize(png) < 20000:
        fail("%s is not a rendered page (%d bytes)" % (png, os.path.getsize(png)))
    print("report rendered: %s (%d bytes)" % (png, os.path.getsize(png)))


def probe_eal(fwd):
    """One cheap run: if EAL cannot start at all, say why and skip."""
    rc, out, err = run([fwd] + EAL + RING + ["--", "--duration", "0.1", "--quiet", "--tx-first"])
    if rc != 0 and "EAL initialisation failed" in err:
        skip("EAL cannot start on this host: " + err.strip().splitlines()[-1])


def main():
    if len(sys.argv) < 3:
        fail(__doc__)
    case, fwd = sys.argv[1], sys.argv[2]
    if not fwd or not os.access(fwd, os.X_OK):
        skip("nicnuma-fwd was not built (DPDK/libdpdk-dev missing at configure time)")
    if os.geteuid() != 0:
        skip("DPDK needs root here (hugepages, /run/dpdk)")
    if case in ("bench", "bench-killed", "report") and (len(sys.argv) < 4 or not os.access(sys.argv[3], os.X_OK)):
        skip("nicnuma binary not given")
    if case == "no-hugepages":
        case_no_hugepages(fwd)
        print("ok: " + case)
        return
    if case == "no-huge":
        case_no_huge(fwd)
        print("ok: " + case)
        return
    if case in ("bench", "bench-killed", "report"):
        with Hugepages():
            probe_eal(fwd)
        if case == "bench":
            case_bench(fwd, sys.argv[3])
        elif case == "report":
            case_report(fwd, sys.argv[3])
        else:
            case_bench_killed(fwd, sys.argv[3])
        print("ok: " + case)
        return
    with Hugepages():
        probe_eal(fwd)
        if case == "shape":
            case_shape(fwd)
        elif case == "counters":
            case_counters(fwd)
        elif case == "placement":
            case_placement(fwd)
        elif case == "bad-input":
            case_bad_input(fwd)
        else:
            fail("unknown case " + case)
    print("ok: " + case)


if __name__ == "__main__":
    main()
