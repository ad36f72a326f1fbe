#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/live/rps.sh NICNUMA - RPS/RFS and per-NAPI settings applied, checked and rolled back (suite 'live')
#
# A. eth0 (this machine's one-queue virtio NIC, its IRQs never 40-43): apply
#    --rps auto with defer-hard-irqs, gro-flush-timeout and per-NAPI threaded
#    (napi-set); every value read back; check clean for them; a hand edit of
#    rps_cpus is drift; rollback puts every value back as found (the files
#    read again, the NAPI settings read again through napi-get by a dry run).
# B. a veth pair across two private network namespaces (vA has a NAPI only
#    with GRO on): the same on vA from inside its namespace, then traffic
#    from vB's side pinned to CPU 0: without RPS vA's NET_RX work stays on
#    CPU 0, with RPS to CPU 1 much of it moves there (/proc/softirqs, and
#    `nicnuma observe` shows the per-CPU NET_RX and vA's rps_cpus with the
#    NET_RX raised there); rollback restores.
# C. eth0 with a foreign rps_cpus on --profile dpdk's lcore (CPU 1): the
#    plan turns RPS off there (the default plan leaves it), apply writes 0,
#    check is aligned, rollback puts the foreign mask back.
# Needs root, ip, ethtool, python3, taskset, 2 CPUs and a kernel with
# napi-set (6.13+); exits 77 with the reason otherwise. Every value is put
# back on any exit (the namespaces are removed; eth0's values restored).
# shellcheck disable=SC2015  # pass/fail only print: "A && pass || fail" is if-then-else here
set -uo pipefail

nn=${1:?usage: rps.sh NICNUMA}
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root"; exit 77; }
for t in ip ethtool taskset python3; do
	command -v "$t" >/dev/null || { echo "skip: $t is not installed"; exit 77; }
done
[ "$(nproc)" -ge 2 ] || { echo "skip: one CPU: nothing to steer to"; exit 77; }
[ -e /proc/sys/net/core/rps_sock_flow_entries ] || { echo "skip: kernel without CONFIG_RPS"; exit 77; }

nsA=rpsA-$$ nsB=rpsB-$$
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rps-live.XXXXXX") || exit 2
run=$(mktemp -d /run/nicnuma-rps-live.XXXXXX) || exit 2
fails=0
pass() { printf 'ok   %s\n' "$*"; }
fail() { printf 'FAIL %s\n' "$*"; fails=$((fails + 1)); }
q0=/sys/class/net/eth0/queues/rx-0
sock=/proc/sys/net/core/rps_sock_flow_entries
eth0_files="$q0/rps_cpus $q0/rps_flow_cnt $sock /proc/irq/37/smp_affinity_list /proc/irq/38/smp_affinity_list /proc/irq/39/smp_affinity_list"
saved=$tmp/eth0.saved
: >"$saved"
for f in $eth0_files; do [ -e "$f" ] && printf '%s %s\n' "$f" "$(cat "$f")" >>"$saved"; done
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	# A rollback left undone (a failed step): the newest log first, then the
	# RPS files as saved (the IRQs are the log's: another run may own them now).
	"$nn" rollback --state-dir "$run/eth0" >/dev/null 2>&1
	while read -r f v; do
		case $f in /proc/irq/*) continue ;; esac
		[ "$(cat "$f")" = "$v" ] || echo "$v" >"$f"
	done <"$saved"
	ip netns del "$nsA" 2>/dev/null
	ip netns del "$nsB" 2>/dev/null
	rm -rf "$tmp" "$run"
}
trap cleanup EXIT
trap 'exit 2' HUP INT TERM

opts=(--rps auto --napi-defer-hard-irqs 2 --gro-flush-timeout 20000 --napi-threaded on)

# values KIND FILE: "path status before after" of the JSON report's values of KIND
values() {
	python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[2]))
d = d.get("apply") or d.get("check")
for v in d["values"]:
    if v["kind"] == sys.argv[1]:
        print(v["path"], v["status"], v.get("before", v.get("current")), v.get("after", v.get("expected")))
PY
}

# ---- A. eth0 ----
if ! "$nn" --json plan --nics eth0 "${opts[@]}" >"$tmp/plan.json" 2>"$tmp/err"; then :; fi
python3 - "$tmp/plan.json" <<'PY' >"$tmp/n" 2>&1 || { echo "skip: no per-NAPI settings on eth0 here: $(cat "$tmp/n")"; exit 77; }
import json, sys
p = json.load(open(sys.argv[1]))["plan"]
per = [c for c in p["napi_config"] if c["napi_id"] is not None]
assert len(per) == 3, p["napi_config"]
print(per[0]["napi_id"])
PY
napi=$(cat "$tmp/n")
python3 - "$tmp/plan.json" <<'PY' && pass "eth0: plan: RPS on rx-0 to the CPU free of its IRQs, 3 settings of NAPI $napi" || fail "eth0: plan $(cat "$tmp/plan.json")"
import json, sys
p = json.load(open(sys.argv[1]))["plan"]
assert len(p["rps"]) == 1 and p["rps"][0]["queue"] == 0 and p["rps"][0]["flow_cnt"] == 32768, p["rps"]
irq = set()
for i in p["irqs"]:
    if i["queue"] is not None:
        irq |= {int(c) for c in i["cpus"].split(",") if "-" not in c}
assert not irq & {int(p["rps"][0]["cpus"])}, (irq, p["rps"])
assert p["rps_sock_flow_entries"] == 32768
PY
"$nn" --json apply --coexist --nics eth0 "${opts[@]}" --state-dir "$run/eth0" >"$tmp/apply.json" 2>"$tmp/err"
rc=$?
[ "$rc" -le 1 ] && pass "eth0: apply (exit $rc)" || fail "eth0: apply exit $rc: $(cat "$tmp/err")"
values napi_conf "$tmp/apply.json" >"$tmp/nc"
values rps "$tmp/apply.json" >"$tmp/rv"
[ "$(grep -c ' changed ' "$tmp/nc")" -eq 3 ] && pass "eth0: 3 napi-set values changed, read back: $(tr '\n' ';' <"$tmp/nc")" \
	|| fail "eth0: napi_conf values: $(cat "$tmp/nc")"
[ "$(grep -c ' changed ' "$tmp/rv")" -ge 2 ] && pass "eth0: RPS values: $(tr '\n' ';' <"$tmp/rv")" || fail "eth0: rps values: $(cat "$tmp/rv")"
want=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['plan']['rps'][0]['cpus'])" "$tmp/plan.json")
got=$(python3 -c "import sys; m=int(open(sys.argv[1]).read().replace(',',''),16); print(','.join(str(i) for i in range(64) if m>>i&1))" "$q0/rps_cpus")
[ "$got" = "$want" ] && pass "eth0: rx-0/rps_cpus holds CPUs $got" || fail "eth0: rps_cpus $got, want $want"
pgrep -x "napi/eth0-$napi" >/dev/null && pass "eth0: per-NAPI threaded: napi/eth0-$napi runs" || fail "eth0: no napi/eth0-$napi thread"
"$nn" --json check --nics eth0 "${opts[@]}" >"$tmp/check.json" 2>/dev/null
{ values rps "$tmp/check.json"; values napi_conf "$tmp/check.json"; } >"$tmp/cv"
! grep -qv ' aligned ' "$tmp/cv" && pass "eth0: check: every RPS and NAPI value aligned" || fail "eth0: check $(cat "$tmp/cv")"
echo 0 >"$q0/rps_cpus"
"$nn" --json check --nics eth0 "${opts[@]}" >"$tmp/check.json" 2>/dev/null
[ "$(values rps "$tmp/check.json" | grep -c ' drift ')" -eq 1 ] && pass "eth0: check: the edit of rps_cpus is drift" \
	|| fail "eth0: no drift for rps_cpus: $(values rps "$tmp/check.json")"
# (exit 1: a warning about the host, such as another run's irqbalance fence; the values are checked below)
"$nn" rollback --state-dir "$run/eth0" >"$tmp/rb" 2>&1
rc=$?
[ "$rc" -le 1 ] && pass "eth0: rollback (exit $rc)" || fail "eth0: rollback: $(cat "$tmp/rb")"
bad=0
while read -r f v; do [ "$(cat "$f")" = "$v" ] || { bad=1; echo "  $f: $(cat "$f"), was $v"; }; done <"$saved"
[ "$bad" -eq 0 ] && pass "eth0: every file as found (rps_cpus, rps_flow_cnt, rps_sock_flow_entries, IRQs 37-39)" \
	|| fail "eth0: files differ after rollback"
"$nn" --json apply --dry-run --nics eth0 "${opts[@]}" --state-dir "$run/eth0" >"$tmp/dry.json" 2>/dev/null
values napi_conf "$tmp/dry.json" >"$tmp/nc2"
python3 - "$tmp/nc" "$tmp/nc2" <<'PY' && pass "eth0: napi-get reads every NAPI setting back as before apply" || fail "eth0: NAPI settings not restored: $(cat "$tmp/nc" "$tmp/nc2")"
import sys
a = {l.split()[0]: l.split()[2] for l in open(sys.argv[1])}
b = {l.split()[0]: l.split()[2] for l in open(sys.argv[2])}
assert a == b and len(a) == 3, (a, b)
PY
for _ in $(seq 20); do pgrep -x "napi/eth0-$napi" >/dev/null || break; sleep 0.1; done
! pgrep -x "napi/eth0-$napi" >/dev/null && pass "eth0: threaded off again: no napi/eth0-$napi" || fail "eth0: napi thread still runs"

# ---- C. eth0: an RPS mask someone else left on a DPDK lcore ----
# This host: CPU 0 housekeeping, so --profile dpdk's lcore is CPU 1. A mask
# found there (2: CPU 1) is planned without it: empty, RPS off for rx-0,
# rps_flow_cnt left alone; the default plan (no isolated or claimed CPU
# here) does not touch it. The IRQ, XPS and NAPI entries are dropped from
# the plan (eth0's IRQs stay as they are); apply writes 0, check is
# aligned, rollback puts the foreign mask back.
echo 2 >"$q0/rps_cpus"
"$nn" --json plan --nics eth0 >"$tmp/kdef.json" 2>/dev/null
"$nn" --json plan --nics eth0 --profile dpdk >"$tmp/keep.json" 2>/dev/null
python3 - "$tmp/kdef.json" "$tmp/keep.json" <<'PY' >"$tmp/out" 2>&1 && pass "keep-off: $(cat "$tmp/out")" || fail "keep-off: plan: $(cat "$tmp/out")"
import json, sys
d = json.load(open(sys.argv[1]))["plan"]
assert d["rps"] == [], ("default plan touches a mask on no forbidden CPU", d["rps"])
k = json.load(open(sys.argv[2]))
p = k["plan"]
assert "1" in p["dpdk_lcores"].split(","), p["dpdk_lcores"]
r = [x for x in p["rps"] if x["nic"] == "eth0" and x["queue"] == 0]
assert r and r[0]["cpus"] == "" and r[0]["flow_cnt"] is None and "rps_cpus found 1" in r[0]["reason"], r
for key in ("irqs", "xps", "napi_threads"):
    p[key] = []
json.dump(k, open(sys.argv[2], "w"))
print("default plans no RPS; dpdk plans rx-0 off: " + r[0]["reason"])
PY
"$nn" --json apply --plan "$tmp/keep.json" --irqbalance ignore --coexist --state-dir "$run/keep" >"$tmp/ka.json" 2>"$tmp/err"
rc=$?
values rps "$tmp/ka.json" >"$tmp/kv"
m=$(tr -d '0,\n' <"$q0/rps_cpus")
[ "$rc" -le 1 ] && [ -z "$m" ] && grep -q 'rps_cpus changed' "$tmp/kv" && ! grep -q rps_flow_cnt "$tmp/kv" \
	&& pass "keep-off: apply turned RPS off on the lcore (rps_cpus $(cat "$q0/rps_cpus"), rps_flow_cnt untouched)" \
	|| fail "keep-off: apply exit $rc, rps_cpus $(cat "$q0/rps_cpus"): $(cat "$tmp/kv" "$tmp/err")"
"$nn" --json check --plan "$tmp/keep.json" >"$tmp/kc.json" 2>/dev/null
values rps "$tmp/kc.json" | grep -q ' aligned ' && pass "keep-off: check aligned" || fail "keep-off: check: $(values rps "$tmp/kc.json")"
"$nn" rollback --state-dir "$run/keep" >"$tmp/rb" 2>&1
[ "$(tr -d '0,\n' <"$q0/rps_cpus")" = 2 ] && pass "keep-off: rollback put the foreign mask back ($(cat "$q0/rps_cpus"))" \
	|| fail "keep-off: rollback left rps_cpus $(cat "$q0/rps_cpus"): $(cat "$tmp/rb")"
while read -r f v; do case $f in */rps_cpus) echo "$v" >"$f" ;; esac; done <"$saved"

# ---- B. veth across two namespaces ----
ip netns add "$nsA" && ip netns add "$nsB" || { echo "skip: cannot create network namespaces"; exit 77; }
ip -n "$nsA" link add vA type veth peer name vB netns "$nsB" || { echo "skip: no veth"; exit 77; }
ip -n "$nsA" addr add 10.231.0.1/24 dev vA
ip -n "$nsB" addr add 10.231.0.2/24 dev vB
ip -n "$nsA" link set vA up
ip -n "$nsB" link set vB up
ip netns exec "$nsA" ethtool -K vA gro on >/dev/null 2>&1
inA() { ip netns exec "$nsA" "$@"; }
# flood: 300k UDP datagrams vB -> vA, sent from CPU 0; prints NET_RX per CPU (delta)
flood() {
	local before after
	before=$(grep NET_RX /proc/softirqs)
	ip netns exec "$nsB" taskset -c 0 python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for i in range(300000):
    s.sendto(b"x" * 64, ("10.231.0.1", 9000 + i % 64))'
	after=$(grep NET_RX /proc/softirqs)
	python3 -c 'import sys; a=sys.argv[1].split()[1:]; b=sys.argv[2].split()[1:]; print(" ".join(str(int(y)-int(x)) for x,y in zip(a,b)))' "$before" "$after"
}
read -r c0 c1 _ <<<"$(flood)"
echo "without RPS: NET_RX CPU0 $c0, CPU1 $c1"
inA "$nn" --json apply --coexist --nics vA "${opts[@]}" --state-dir "$run/veth" >"$tmp/vapply.json" 2>"$tmp/err"
values rps "$tmp/vapply.json" >"$tmp/vr"
values napi_conf "$tmp/vapply.json" >"$tmp/vn"
grep -q 'rx-0/rps_cpus changed' "$tmp/vr" && pass "veth: vA rx-0 RPS: $(tr '\n' ';' <"$tmp/vr")" || fail "veth: rps $(cat "$tmp/vr" "$tmp/err")"
[ "$(grep -c ' changed ' "$tmp/vn")" -eq 3 ] && pass "veth: napi-set on vA's NAPI in its namespace: $(tr '\n' ';' <"$tmp/vn")" \
	|| fail "veth: napi_conf $(cat "$tmp/vn")"
inA "$nn" observe vA --duration 3 --json >"$tmp/obs.json" 2>/dev/null &
obs=$!
read -r r0 r1 _ <<<"$(flood)"
wait "$obs"
echo "with RPS to CPU 1: NET_RX CPU0 $r0, CPU1 $r1"
python3 - "$tmp/obs.json" <<'PY' >"$tmp/obs.txt" 2>&1 && pass "veth: observe: $(cat "$tmp/obs.txt")" || fail "veth: observe: $(cat "$tmp/obs.txt")"
import json, sys
# the interval with the most steered work (the flood may end before the last)
ds = [json.loads(l) for l in open(sys.argv[1]).read().strip().splitlines()]
def steered(d):
    return max([n["rps_net_rx_per_s"] for n in d["nics"] if n["name"] == "vA"] or [0])
d = max(ds, key=steered)
per = {c["cpu"]: c["net_rx_per_s"] for c in d.get("cpus", [])}
va = [n for n in d["nics"] if n["name"] == "vA"]
assert va and va[0]["rps_cpus"] == "1", va
print("NET_RX/s per CPU %s; vA RPS to CPUs %s: %.0f NET_RX/s there, share %s" %
      (per, va[0]["rps_cpus"], va[0]["rps_net_rx_per_s"], va[0]["rps_share"]))
assert va[0]["rps_net_rx_per_s"] > 0, va
PY
python3 -c "import sys; b0,b1,a0,a1=map(int,sys.argv[1:]); s0=b1/max(b0+b1,1); s1=a1/max(a0+a1,1); print('CPU 1 share of NET_RX: %.0f%% -> %.0f%%' % (100*s0, 100*s1)); sys.exit(0 if s1 > 0.3 and s1 > s0 + 0.2 else 1)" \
	"$c0" "$c1" "$r0" "$r1" >"$tmp/share" && pass "veth: $(cat "$tmp/share")" || fail "veth: RPS did not move NET_RX work: $(cat "$tmp/share")"
inA "$nn" rollback --state-dir "$run/veth" >"$tmp/rb" 2>&1
rc=$?
[ "$rc" -le 1 ] && pass "veth: rollback (exit $rc)" || fail "veth: rollback $(cat "$tmp/rb")"
[ "$(inA cat /sys/class/net/vA/queues/rx-0/rps_cpus | tr -d '0,')" = "" ] && pass "veth: rps_cpus off again" || fail "veth: rps_cpus still set"
inA "$nn" --json apply --dry-run --nics vA "${opts[@]}" --state-dir "$run/veth" >"$tmp/vdry.json" 2>/dev/null
values napi_conf "$tmp/vdry.json" >"$tmp/vn2"
python3 - "$tmp/vn" "$tmp/vn2" <<'PY' && pass "veth: NAPI settings back as found" || fail "veth: NAPI settings $(cat "$tmp/vn" "$tmp/vn2")"
import sys
a = {l.split()[0]: l.split()[2] for l in open(sys.argv[1])}
b = {l.split()[0]: l.split()[2] for l in open(sys.argv[2])}
assert a == b and len(a) == 3, (a, b)
PY

[ "$fails" -eq 0 ] || { echo "$fails failed"; exit 1; }
echo "all passed"
