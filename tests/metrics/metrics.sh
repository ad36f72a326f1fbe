#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/metrics/metrics.sh NICNUMA MKHOST.PY CACHE_DIR - nicnuma metrics on a fake root
#
# The even-odd shape (2 nodes, ixgbe on node 1) built by mkhost.py, a watcher
# state file and its lock added: the exposition text must equal
# expected/even-odd.prom (UPDATE=1 rewrites it) and pass promtool check
# metrics; --output replaces its file atomically (0644, no temp left);
# without the state file the watch families other than watch_running are
# gone; a hostile NIC name reaches neither the file nor stdout raw; --json is
# one document; the plan source follows enable; the PCIe families agree with
# 'nicnuma nics --json'. Then contrib/prometheus/nicnuma.rules.yml through promtool
# check rules and test rules. promtool comes from promtool.sh (77 if none).
set -uo pipefail
nicnuma=${1:?usage: metrics.sh NICNUMA MKHOST.PY CACHE_DIR}
mkhost=${2:?}
cache=${3:?}
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)

promtool=$("$here/promtool.sh" "$cache"); rc=$?
[ "$rc" = 0 ] || exit "$rc"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nicnuma-metrics.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0
err() { printf 'FAIL: %s\n' "$*" >&2; fail=1; }

root=$tmp/root
python3 "$mkhost" build even-odd "$root" || exit 2
# The watcher: its state file as watch.c writes it, and its lock held (by
# flock(1) here; running is the lock, as for nicnuma status).
mkdir -p "$root/run/nicnuma"
cat > "$root/run/nicnuma/watch.json" <<'JSON'
{
  "pid":4242,
  "started":"2024-05-01T11:00:00Z",
  "config":"/etc/nicnuma/nicnuma.conf",
  "ethtool_monitor":true,
  "last_action":{
    "time":"2024-05-01T12:00:00Z",
    "trigger":"link up on ens2f0 (0000:81:00.0)",
    "result":"applied",
    "changed":3,
    "elapsed_ms":12
  },
  "counters":{ "events":7, "relevant":4, "applies":2, "values_written":9 }
}
JSON
echo 4242 > "$root/run/nicnuma/watch.lock"
python3 -c 'import fcntl, sys, time
f = open(sys.argv[1]); fcntl.flock(f, fcntl.LOCK_EX); print("locked", flush=True); time.sleep(600)' \
	"$root/run/nicnuma/watch.lock" > "$tmp/locker" 2>/dev/null & locker=$!
trap 'kill "$locker" 2>/dev/null; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do [ -s "$tmp/locker" ] && break; sleep 0.1; done
# One queue IRQ of the NIC (node 1: odd CPUs) steered to CPU 0 on node 0.
echo 0 > "$root/proc/irq/60/smp_affinity_list"
echo 0 > "$root/proc/irq/60/effective_affinity_list"

# 1. the expected file, and promtool's lint of it
"$nicnuma" --root "$root" metrics > "$tmp/out.prom" 2> "$tmp/err"; rc=$?
[ "$rc" = 0 ] || { err "metrics exit $rc: $(cat "$tmp/err")"; }
if [ "${UPDATE:-0}" = 1 ]; then cp "$tmp/out.prom" "$here/expected/even-odd.prom"; fi
diff -u "$here/expected/even-odd.prom" "$tmp/out.prom" || err "output differs from expected/even-odd.prom"
"$promtool" check metrics < "$tmp/out.prom" || err "promtool check metrics"

# 2. --output: atomic replace, mode 0644 whatever the umask, same text
mkdir "$tmp/tf" && echo stale > "$tmp/tf/nicnuma.prom"
(umask 077; "$nicnuma" --root "$root" metrics --output "$tmp/tf/nicnuma.prom" > "$tmp/said") ||
	err "metrics --output failed"
cmp -s "$tmp/out.prom" "$tmp/tf/nicnuma.prom" || err "--output file differs from stdout"
[ "$(stat -c %a "$tmp/tf/nicnuma.prom")" = 644 ] || err "--output mode $(stat -c %a "$tmp/tf/nicnuma.prom")"
[ "$(ls -A "$tmp/tf")" = nicnuma.prom ] || err "left in the directory: $(ls -A "$tmp/tf")"
grep -qx "wrote $tmp/tf/nicnuma.prom" "$tmp/said" || err "no 'wrote FILE' line: $(cat "$tmp/said")"
"$nicnuma" --root "$root" metrics --output "$tmp/nodir/x.prom" 2>/dev/null; rc=$?
[ "$rc" = 2 ] || err "--output into a missing directory: exit $rc, want 2"

# 3. a dead watcher (lock free) keeps its last action, not running; no file:
# running 0 only
kill "$locker"; wait "$locker" 2>/dev/null
"$nicnuma" --root "$root" metrics > "$tmp/dead.prom"
grep -qx 'nicnuma_watch_running 0' "$tmp/dead.prom" || err "a free lock counted as a running watcher"
grep -q '^nicnuma_watch_last_apply_timestamp_seconds 1714564800$' "$tmp/dead.prom" ||
	err "dead watcher: last apply time lost"
# what the real watcher wrote, read back by status and metrics alike
sed -i 's/"result":"applied"/"result":"failed"/' "$root/run/nicnuma/watch.json"
"$nicnuma" --root "$root" metrics > "$tmp/failed.prom"
grep -qx 'nicnuma_watch_last_apply_success 0' "$tmp/failed.prom" || err "a failed action counted as success"
# skipped: none of the desired NICs on the host, nothing to do: not a failure
sed -i 's/"result":"failed"/"result":"skipped"/' "$root/run/nicnuma/watch.json"
"$nicnuma" --root "$root" metrics > "$tmp/skipped.prom"
grep -qx 'nicnuma_watch_last_apply_success 1' "$tmp/skipped.prom" || err "a skipped action counted as a failure"
grep -q '^nicnuma_desired_nics' "$tmp/skipped.prom" && err "not enabled: desired NIC families present"
rm "$root/run/nicnuma/watch.json"
"$nicnuma" --root "$root" metrics > "$tmp/nowatch.prom"
grep -qx 'nicnuma_watch_running 0' "$tmp/nowatch.prom" || err "no state file: watch_running not 0"
grep -q 'nicnuma_watch_last\|nicnuma_watch_.*_total' "$tmp/nowatch.prom" && err "no state file: watch families left in"
echo '{"pid":' > "$root/run/nicnuma/watch.json"
"$nicnuma" --root "$root" metrics > "$tmp/badwatch.prom" 2> "$tmp/err"; rc=$?
if [ "$rc" != 1 ] || ! grep -q 'watch.json' "$tmp/err"; then
	err "malformed state file: exit $rc, want 1 and a warning"
fi
rm "$root/run/nicnuma/watch.json"

# 4. a hostile NIC name: quote, backslash, ESC, a UTF-8 byte
bad=$(printf 'e"v\\\033\303\251')
link=$(readlink "$root/sys/class/net/ens2f0")
mv "$root/sys/class/net/$(dirname "$link")/ens2f0" "$root/sys/class/net/$(dirname "$link")/$bad"
rm "$root/sys/class/net/ens2f0"
ln -s "$(dirname "$link")/$bad" "$root/sys/class/net/$bad"
"$nicnuma" --root "$root" metrics > "$tmp/bad.prom" 2>/dev/null
LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f-\xff]' "$tmp/bad.prom" && err "a raw control or high byte in the output"
grep -qF 'nicnuma_nic_queue_irqs{name="e\"v\\\\x1b\\xc3\\xa9"' "$tmp/bad.prom" ||
	err "hostile name not escaped as expected: $(grep queue_irqs\{ "$tmp/bad.prom")"
"$promtool" check metrics < "$tmp/bad.prom" || err "promtool on the hostile name"

# 5. --json: one document, the same samples
"$nicnuma" --root "$root" --json metrics > "$tmp/m.json" 2>/dev/null
python3 - "$tmp/m.json" "$tmp/bad.prom" <<'PY' || err "--json"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["metrics"]["samples"]
n = sum(1 for l in open(sys.argv[2]) if l.strip() and not l.startswith("#"))
assert len(s) == n, (len(s), n)
q = [x for x in s if x["name"] == "nicnuma_nic_queue_irqs"][0]
assert q["labels"]["name"] == 'e"v\\\x1b\xe9', q
assert d["metrics"]["output"] is None and q["value"] == 8
PY

# 6. the plan: default without enable (above); after enable, the desired state
root2=$tmp/root2
python3 "$mkhost" build even-odd "$root2" || exit 2
# Into files, not a pipe: grep -q stops reading at its match, and under
# pipefail the metrics command's SIGPIPE would read as a failure.
"$nicnuma" --root "$root2" metrics > "$tmp/default.prom" 2>/dev/null
grep -qx 'nicnuma_plan_info{source="default"} 1' "$tmp/default.prom" ||
	err "no enable: plan source is not default"
"$nicnuma" --root "$root2" enable --nics ens2f0 --irqbalance ignore > "$tmp/en" 2>&1; rc=$?
[ "$rc" -le 1 ] || err "enable on the fake root: exit $rc $(cat "$tmp/en")"
"$nicnuma" --root "$root2" metrics > "$tmp/desired.prom" 2>/dev/null
grep -qx 'nicnuma_plan_info{source="desired"} 1' "$tmp/desired.prom" || err "enabled: plan source is not desired"
grep -qx 'nicnuma_drift_values 0' "$tmp/desired.prom" || err "enabled and applied: drift $(grep '^nicnuma_drift_values' "$tmp/desired.prom")"
grep -qx 'nicnuma_desired_nics 1' "$tmp/desired.prom" && grep -qx 'nicnuma_desired_nics_present 1' "$tmp/desired.prom" ||
	err "enabled: desired NICs $(grep '^nicnuma_desired' "$tmp/desired.prom")"
# the desired NIC gone (another PCI address in the file): present 0, no plan check
sed -i 's/^nic = 0000:81:00.0 /nic = 0000:82:00.0 /' "$root2/etc/nicnuma/nicnuma.conf"
"$nicnuma" --root "$root2" metrics > "$tmp/absent.prom" 2>/dev/null
grep -qx 'nicnuma_desired_nics 1' "$tmp/absent.prom" && grep -qx 'nicnuma_desired_nics_present 0' "$tmp/absent.prom" ||
	err "desired NIC absent: $(grep '^nicnuma_desired' "$tmp/absent.prom") $(grep '^nic =' "$root2/etc/nicnuma/nicnuma.conf")"
"$nicnuma" --root "$root2" metrics --policy spread > "$tmp/options.prom" 2>/dev/null
grep -qx 'nicnuma_plan_info{source="default"} 1' "$tmp/options.prom" ||
	err "plan options: plan source is not default"

# 7. PCIe: a down-trained NIC (16 GT/s x16 trained to 8 GT/s x8) and a
# healthy one, as 'nicnuma nics' judges them
root3=$tmp/root3
python3 "$mkhost" build pcie-links "$root3" || exit 2
"$nicnuma" --root "$root3" metrics > "$tmp/pcie.prom" 2>/dev/null
l='{name="ens2np0",pci="0000:17:00.0",driver="mlx5_core"}'
for want in "nicnuma_nic_pcie_link_width$l 8" "nicnuma_nic_pcie_link_max_width$l 16" \
	    "nicnuma_nic_pcie_link_speed_gts$l 8" "nicnuma_nic_pcie_link_max_speed_gts$l 16" \
	    "nicnuma_nic_pcie_link_downtrained$l 1" "nicnuma_nic_pcie_link_healthy$l 0"; do
	grep -qxF "$want" "$tmp/pcie.prom" || err "pcie-links: no '$want'"
done
"$nicnuma" --root "$root3" --json nics > "$tmp/nics.json" 2>/dev/null
python3 - "$tmp/nics.json" "$tmp/pcie.prom" <<'PY' || err "pcie: metrics differ from nics --json"
import json, re, sys
nics = {n["name"]: n["pcie"] for n in json.load(open(sys.argv[1]))["nics"] if n.get("pcie")}
got = {}
for line in open(sys.argv[2]):
    m = re.match(r'nicnuma_nic_pcie_link_(\w+)\{name="([^"]*)".*\} (\S+)$', line)
    if m:
        got.setdefault(m.group(2), {})[m.group(1)] = float(m.group(3))
for name, p in nics.items():
    g = got.get(name, {})
    for key, field in (("width", "width"), ("max_width", "max_width"),
                       ("speed_gts", "speed_gts"), ("max_speed_gts", "max_speed_gts")):
        assert (g.get(key) is None) == (p[field] is None), (name, key, g, p)
        assert p[field] is None or g[key] == p[field], (name, key, g[key], p[field])
    assert (g.get("healthy") is None) == (p["healthy"] is None), (name, g, p)
    assert p["healthy"] is None or g["healthy"] == (1 if p["healthy"] else 0), (name, g, p)
PY
"$promtool" check metrics < "$tmp/pcie.prom" || err "promtool on the PCIe families"

# 8. --traffic: the observe series of fixtures/observe_tree.py (interval 1:
# 21 of 22 shares of ens2f0's interrupts and softirqs on node 1, its NAPI
# thread local); without --traffic no traffic family
root4=$tmp/root4
python3 "$mkhost" build even-odd "$root4" >/dev/null || exit 2
python3 "$(dirname "$mkhost")/observe_tree.py" write "$root4" || exit 2
"$nicnuma" --root "$root4" metrics --traffic 2 > "$tmp/traffic.prom" 2> "$tmp/err"; rc=$?
[ "$rc" -le 1 ] || err "metrics --traffic: exit $rc $(cat "$tmp/err")"
python3 - "$tmp/traffic.prom" <<'PY' || err "--traffic: wrong traffic families"
import re, sys
v = {}
for line in open(sys.argv[1]):
    m = re.match(r'(nicnuma_(?:nic_(?:irq|softirq|napi)_local_ratio|nic_(?:irqs|softirqs)_per_second|traffic_window_seconds))(?:\{name="([^"]*)".*\})? (\S+)$', line)
    if m:
        v[(m.group(1), m.group(2))] = float(m.group(3))
want = {("nicnuma_traffic_window_seconds", None): 2,
        ("nicnuma_nic_irqs_per_second", "ens2f0"): 1100,
        ("nicnuma_nic_softirqs_per_second", "ens2f0"): 3300,
        ("nicnuma_nic_irq_local_ratio", "ens2f0"): 21 / 22,
        ("nicnuma_nic_softirq_local_ratio", "ens2f0"): 21 / 22,
        ("nicnuma_nic_napi_local_ratio", "ens2f0"): 1}
for k, w in want.items():
    assert k in v and abs(v[k] - w) < 1e-9, (k, v.get(k), w)
assert len(v) == len(want), v
PY
"$promtool" check metrics < "$tmp/traffic.prom" || err "promtool on the traffic families"
"$nicnuma" --root "$root4" metrics > "$tmp/notraffic.prom" 2>/dev/null
grep -q 'local_ratio\|traffic_window' "$tmp/notraffic.prom" &&
	err "traffic families without --traffic"
"$nicnuma" --root "$root4" metrics --traffic 0 >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] || err "--traffic 0: exit $rc, want 2"

# 9. the alert rules
"$promtool" check rules "$src/contrib/prometheus/nicnuma.rules.yml" || err "promtool check rules"
(cd "$here" && "$promtool" test rules rules_test.yml) || err "promtool test rules"

[ "$fail" = 0 ] && echo "ok: metrics, promtool, rules"
exit "$fail"
