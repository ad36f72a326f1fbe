#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""bench_profiles.py - the parsing and tables of `scripts/bench profiles`.

  tuned-files DIR PROFILE...   the host files the tuned profiles would write
                               (one absolute path a line), for the snapshot
  sockperf-pp FILE             "p50 p99 p999" (usec) of a sockperf ping-pong
  sockperf-tp FILE             sent msg/s of a sockperf throughput run
  report DIR                   the tables, from what bench_profiles left in DIR

tuned's profiles are read from DIR (/usr/lib/tuned) at run time, includes
resolved (the included profile first, the including one's keys over it), so
the table says what the installed tuned would set, not what it set once.
"""
import glob
import json
import os
import re
import statistics
import sys

# --- tuned.conf ---------------------------------------------------------------


def read_conf(path):
    """[section] -> {key: value} in file order; '#' lines are comments and a
    value keeps everything after the first '=' (cmdline=a=b)."""
    secs, cur = {}, None
    for line in open(path, encoding="utf-8", errors="replace"):
        line = line.strip()
        if not line or line.startswith("#") or line.startswith(";"):
            continue
        m = re.match(r"^\[(.+)\]$", line)
        if m:
            cur = secs.setdefault(m.group(1).strip(), {})
            continue
        if cur is None or "=" not in line:
            continue
        k, v = line.split("=", 1)
        cur[k.strip()] = v.strip()
    return secs


def resolve(tdir, name, seen=None):
    """The profile's sections with its includes: {section: {key: (value, from)}}."""
    seen = set() if seen is None else seen
    if name in seen:
        return {}
    seen.add(name)
    conf = os.path.join(tdir, name, "tuned.conf")
    if not os.path.isfile(conf):
        raise FileNotFoundError(conf)
    own = read_conf(conf)
    out = {}
    var = {k: v for k, v in own.get("variables", {}).items()}
    for sec, kv in own.items():
        for k, v in kv.items():
            kv[k] = re.sub(r"\$\{([A-Za-z0-9_]+)\}", lambda m: var.get(m.group(1), m.group(0)), v)
    for inc in [x.strip() for x in own.get("main", {}).get("include", "").split(",") if x.strip()]:
        for sec, kv in resolve(tdir, inc, seen).items():
            out.setdefault(sec, {}).update(kv)
    for sec, kv in own.items():
        for k, v in kv.items():
            out.setdefault(sec, {})[k] = (v, name)
    return out


def plugin_of(sec, kv):
    """A section's plugin: its type= or its name before any '.'."""
    t = kv.get("type")
    return t[0] if t else sec.split(".")[0]


def setting_files(plugin, key, value):
    """The host files a tuned setting writes, or [] with no file to read back."""
    if plugin == "sysctl":
        return ["/proc/sys/" + key.replace(".", "/")]
    if plugin == "vm" and key in ("transparent_hugepages", "transparent_hugepage"):
        return ["/sys/kernel/mm/transparent_hugepage/enabled"]
    if plugin == "disk" and key == "readahead":
        return sorted(glob.glob("/sys/block/*/queue/read_ahead_kb"))
    if plugin == "cpu" and key == "governor":
        return sorted(glob.glob("/sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor"))
    if plugin == "cpu" and key == "min_perf_pct":
        return [p for p in ["/sys/devices/system/cpu/intel_pstate/min_perf_pct"] if os.path.exists(p)]
    return []


CONDITIONS = ("uname_regex", "cpuinfo_regex")
META = ("type", "devices", "enabled", "replace", "priority", "devices_udev_regex") + CONDITIONS


def cond_met(cond):
    """tuned's section conditions, tried on this host: uname_regex on the
    uname fields, cpuinfo_regex on /proc/cpuinfo."""
    for c, v in cond:
        hay = " ".join(os.uname()) if c == "uname_regex" else open("/proc/cpuinfo", errors="replace").read()
        try:
            if not re.search(v, hay, re.M):
                return False
        except re.error:
            return False
    return True


def settings(tdir, name):
    """[(plugin, section, key, value, from, condition)] of a resolved profile."""
    out = []
    for sec, kv in resolve(tdir, name).items():
        if sec in ("main", "variables"):
            continue
        plugin = plugin_of(sec, kv)
        conds = [(c, kv[c][0]) for c in CONDITIONS if c in kv]
        cond = "" if cond_met(conds) else "condition not met here: " + " ".join(
            "%s=%s" % (c, v if len(v) < 30 else v[:27] + "...") for c, v in conds)
        for k, (v, src) in kv.items():
            if k in META:
                continue
            out.append((plugin, sec, k, v, src, cond))
    return out


def cmd_tuned_files(tdir, names):
    files = set()
    for n in names:
        for plugin, _s, k, v, _f, cond in settings(tdir, n):
            if not cond:
                files.update(setting_files(plugin, k, v))
    for f in sorted(files):
        if os.path.exists(f):
            print(f)


# --- sockperf -----------------------------------------------------------------


def cmd_pp(path):
    """sockperf ping-pong's percentiles (its latency is RTT/2 unless --full-rtt)."""
    p = {}
    for line in open(path, errors="replace"):
        m = re.search(r"percentile\s+([0-9.]+)\s*=\s*([0-9.]+)", line)
        if m:
            p[m.group(1)] = float(m.group(2))
    if not all(k in p for k in ("50.000", "99.000", "99.900")):
        print("n/a n/a n/a")
        return
    print("%.3f %.3f %.3f" % (p["50.000"], p["99.000"], p["99.900"]))


def cmd_tp(path):
    for line in open(path, errors="replace"):
        m = re.search(r"Message Rate is\s+([0-9.]+)", line)
        if m:
            print(m.group(1))
            return
    print("n/a")


# --- report -------------------------------------------------------------------


def num(x):
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def spread(vals):
    v = [x for x in vals if x is not None]
    if not v:
        return None
    return {"median": statistics.median(v), "min": min(v), "max": max(v), "n": len(v)}


def fmt(s, f="%.2f"):
    if not s:
        return "n/a"
    return (f + " [" + f + "-" + f + "]") % (s["median"], s["min"], s["max"])


def read_rounds(d):
    """DIR/rounds: 'variant round p50 p99 p999 sent_msg_s recv_msg_s drops'."""
    rows = []
    path = os.path.join(d, "rounds")
    if os.path.exists(path):
        for line in open(path):
            f = line.split()
            if len(f) == 8:
                rows.append({"variant": f[0], "round": int(f[1]), "p50_us": num(f[2]), "p99_us": num(f[3]),
                             "p999_us": num(f[4]), "sent_msg_s": num(f[5]), "recv_msg_s": num(f[6]),
                             "drops_msg_s": num(f[7])})
    return rows


def verdict(r, lower_better):
    """What the per-round ratios say: a difference only where every one of at
    least 3 rounds fell on the same side of 1.0 (and by more than 2 %)."""
    if not r:
        return "no figure"
    if r["n"] < 3:
        return "too few rounds to tell (%d)" % r["n"]
    if r["min"] > 1.02 or r["max"] < 0.98:
        better = (r["max"] < 1.0) == lower_better
        return "%s in all %d rounds" % ("better" if better else "worse", r["n"])
    return "no measurable difference (the rounds straddle 1.0)"


def ours_table(d, variants):
    """What nicnuma's profiles set on the veth ends: plan --json, then what apply did."""
    print("   nicnuma (plan --json on each veth end, then what apply did there):")
    for v in variants:
        for end in ("a", "b"):
            pf, af = os.path.join(d, "plan-%s-%s.json" % (v, end)), os.path.join(d, "apply-%s-%s.json" % (v, end))
            if not os.path.exists(pf):
                continue
            try:
                plan = json.load(open(pf))["plan"]
            except (ValueError, KeyError):
                print("     %-10s %s: plan --json unreadable" % (v, end))
                continue
            done = {}
            try:
                for x in json.load(open(af))["apply"]["values"]:
                    done[x["path"]] = (x["status"], x.get("note"))
            except (OSError, ValueError, KeyError):
                pass
            rows = []
            for x in plan.get("irqs", []):
                rows.append(("irq %s" % x.get("irq"), x.get("cpus"), x.get("reason"), None))
            for x in plan.get("rps", []):
                q = "/sys/class/net/%s/queues/rx-%s/" % (x["nic"], x["queue"])
                rows.append(("rps_cpus rx-%s" % x["queue"], x["cpus"], x["reason"], q + "rps_cpus"))
                rows.append(("rps_flow_cnt rx-%s" % x["queue"], x["flow_cnt"], x["reason"], q + "rps_flow_cnt"))
            if plan.get("rps_sock_flow_entries") is not None:
                rows.append(("net.core.rps_sock_flow_entries", plan["rps_sock_flow_entries"], "RFS",
                             "/proc/sys/net/core/rps_sock_flow_entries"))
            for x in plan.get("napi_config", []):
                rows.append(("napi %s %s" % (x["napi_id"], x["attr"]), x["value"], x["reason"],
                             "%s/%s/%s" % (x["nic"], x["napi_id"], x["attr"])))
            for x in plan.get("ethtool", []):
                rows.append(("ethtool %s" % x["setting"], x["value"], x["reason"], None))
            for x in plan.get("sysctls", []):
                rows.append((x["name"], x["value"], x["reason"],
                             "/proc/sys/net/core/" + x["name"].rsplit(".", 1)[-1]))
            nic = (plan.get("nics") or [{}])[0].get("nic", "?")
            print("     %-10s %s (%s): %d value(s)" % (v, nic, "sender" if end == "a" else "receiver", len(rows)))
            for what, val, why, path in rows:
                st = done.get(path, ("-", None))
                print("       %-34s %-10s %-9s %s" % (what, val, st[0], (st[1] or why or "")[:110]))
            for w in plan.get("warnings", []):
                print("       note: %s" % w)


def tuned_table(d, tdir, names):
    before, during = {}, {}
    for name, tgt in (("host-before", before),):
        p = os.path.join(d, name)
        if os.path.exists(p):
            for line in open(p):
                k, _, v = line.rstrip("\n").partition(" ")
                tgt[k] = v
    netns = set(open(os.path.join(d, "netns-keys")).read().split()) if os.path.exists(os.path.join(d, "netns-keys")) else set()
    for n in names:
        p = os.path.join(d, "during-" + n)
        dur = {}
        if os.path.exists(p):
            for line in open(p):
                k, _, v = line.rstrip("\n").partition(" ")
                dur[k] = v
        during[n] = dur
        print("   tuned %s (%s, includes resolved; 'here': the file before -> while tuned ran):" % (n, os.path.join(tdir, n, "tuned.conf")))
        for plugin, sec, k, v, src, cond in settings(tdir, n):
            files = setting_files(plugin, k, v)
            if cond:
                here = "not on this host (%s)" % cond
            elif plugin == "sysctl" and files and files[0] in netns:
                here = "per-netns: set in the host's namespace, not the bench's (TCP: the bench is UDP)"
            elif plugin == "bootloader":
                here = "boot command line: needs a reboot (tuned found no grub.cfg here)"
            elif plugin == "cpu" and k == "force_latency":
                here = "/dev/cpu_dma_latency held open while tuned runs"
            elif files:
                chg = [f for f in files if f in dur and before.get(f) != dur[f]]
                f0 = chg[0] if chg else files[0]
                if f0 not in before:
                    here = "not there"
                elif f0 not in dur:
                    here = "not read while tuned ran"
                else:
                    here = "%s -> %s%s" % (before[f0], dur[f0], " (+%d more)" % (len(files) - 1) if len(files) > 1 else "")
                    if before[f0] == dur[f0]:
                        here += " (unchanged)"
            elif plugin == "cpu":
                here = "no cpufreq/intel_pstate here (VM): nothing to set"
            else:
                here = "not read back by this bench"
            print("     [%s] %s=%s%s  -> %s" % (sec, k, v, "" if src == n else " (from %s)" % src, here))


def cmd_report(d):
    meta = json.load(open(os.path.join(d, "meta.json")))
    variants = meta["variants"]
    rows = read_rounds(d)
    print("   what each variant sets:")
    ours_table(d, [v for v in variants if not v.startswith("tuned-")])
    tuned = [v[len("tuned-"):] for v in variants if v.startswith("tuned-")]
    if tuned:
        tuned_table(d, meta["tuned_dir"], tuned)
    else:
        print("   tuned: not beside them (%s)" % meta.get("tuned_why", "not asked"))
    res = {}
    base = {r["round"]: r for r in rows if r["variant"] == "untuned"}
    for v in variants:
        mine = [r for r in rows if r["variant"] == v]
        e = {k: spread([r[k] for r in mine]) for k in ("p50_us", "p99_us", "p999_us", "sent_msg_s", "recv_msg_s",
                                                        "drops_msg_s")}
        if v != "untuned":
            for k in ("p50_us", "p99_us", "p999_us", "sent_msg_s", "recv_msg_s"):
                rat = []
                for r in mine:
                    b = base.get(r["round"])
                    if b and r[k] is not None and b[k]:
                        rat.append(r[k] / b[k])
                e["ratio_" + k] = spread(rat)
        res[v] = e
    print("   ping-pong latency (sockperf's RTT/2, usec), median of %d rounds [min-max]; p99.9 on this shared VM is" % meta["rounds"])
    print("   mostly vCPU stalls (ms), not the network path:")
    print("     %-26s %-24s %-26s %-28s" % ("variant", "p50", "p99", "p99.9"))
    for v in variants:
        e = res[v]
        print("     %-26s %-24s %-26s %-28s" % (v, fmt(e["p50_us"]), fmt(e["p99_us"]), fmt(e["p999_us"], "%.1f")))
    print("   throughput (sockperf throughput, %d B UDP): msg/s sent by nsA and received by nsB's socket," % meta["msg_size"])
    print("   median of %d rounds [min-max]:" % meta["rounds"])
    print("     %-26s %-30s %-30s %s" % ("variant", "sent", "received", "dropped (rcvbuf) /s"))
    for v in variants:
        e = res[v]
        print("     %-26s %-30s %-30s %s" % (v, fmt(e["sent_msg_s"], "%.0f"), fmt(e["recv_msg_s"], "%.0f"),
                                          fmt(e["drops_msg_s"], "%.0f")))
    print("   ratio to untuned (median of the per-round ratios [min-max]; each round ran every variant back to back):")
    for v in variants:
        if v == "untuned":
            continue
        e = res[v]
        print("     %-26s p50 %s  p99 %s  p99.9 %s  received msg/s %s" % (
            v, fmt(e["ratio_p50_us"]), fmt(e["ratio_p99_us"]), fmt(e["ratio_p999_us"]), fmt(e["ratio_recv_msg_s"])))
        print("     %-26s -> p50 %s; p99 %s; received msg/s %s" % (
            "", verdict(e["ratio_p50_us"], True), verdict(e["ratio_p99_us"], True),
            verdict(e["ratio_recv_msg_s"], False)))
    out = dict(meta)
    out["results"] = res
    out["rounds_raw"] = rows
    jpath = os.environ.get("NN_BENCH_PROFILES_JSON")
    if jpath:
        with open(jpath, "w") as f:
            json.dump(out, f, indent=1, sort_keys=True)
            f.write("\n")


def main():
    a = sys.argv[1:]
    if len(a) >= 2 and a[0] == "tuned-files":
        cmd_tuned_files(a[1], a[2:])
    elif len(a) == 2 and a[0] == "sockperf-pp":
        cmd_pp(a[1])
    elif len(a) == 2 and a[0] == "sockperf-tp":
        cmd_tp(a[1])
    elif len(a) == 2 and a[0] == "report":
        cmd_report(a[1])
    else:
        sys.stderr.write(__doc__)
        sys.exit(2)


if __name__ == "__main__":
    main()
