#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/live/napi_tx.sh NICNUMA - the threaded-NAPI kthreads of eth0's TX-only
# NAPIs (suite 'live'; issue 36 item 8)
#
# virtio_net registers its TX NAPIs with netif_napi_add_tx: no NAPI id, so
# napi-get never names their kthreads ("napi/eth0-0"). With threaded NAPI on
# for eth0 and a claim of CPU 1 (not enabled: the claim is only recorded):
#   1. plan --nics eth0 lists every napi/eth0-0 kthread (napi_id 0, its pid)
#      on CPUs without the claimed one;
#   2. apply places them: no TX NAPI thread may run on CPU 1 any more, and the
#      undo log holds a "napi" change of napi_id 0 for each;
#   3. observe counts their work (napi_threads lists their pids);
#   4. rollback puts each thread's CPUs back as they were before apply.
# Run under `flock /tmp/nn-host.lock` (it writes eth0's IRQ affinities and
# /sys/class/net/eth0/threaded, put back on any exit). Needs root, eth0 on
# virtio_net, 2 CPUs; exits 77 with the reason otherwise.
set -uo pipefail

nn=${1:?usage: napi_tx.sh NICNUMA}
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root"; exit 77; }
[ -e /sys/class/net/eth0/threaded ] || { echo "skip: no eth0 with threaded NAPI"; exit 77; }
case $(readlink /sys/class/net/eth0/device/driver 2>/dev/null) in
*/virtio_net) ;;
*) echo "skip: eth0 is not virtio_net (the TX-only NAPI this test knows)"; exit 77 ;;
esac
[ "$(nproc)" -ge 2 ] || { echo "skip: one CPU: nothing to keep off"; exit 77; }
command -v python3 >/dev/null || { echo "skip: python3 is not installed"; exit 77; }
[ ! -e /run/nicnuma/claims/napi-tx-live.json ] || { echo "skip: a claim napi-tx-live exists"; exit 77; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/napi-tx-live.XXXXXX") || exit 2
state=$tmp/state
threaded=$(cat /sys/class/net/eth0/threaded)
fails=0
pass() { printf 'ok   %s\n' "$*"; }
fail() { printf 'FAIL %s\n' "$*"; fails=$((fails + 1)); }
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	"$nn" rollback --state-dir "$state" >/dev/null 2>&1
	"$nn" release napi-tx-live >/dev/null 2>&1
	echo "$threaded" >/sys/class/net/eth0/threaded
	rm -rf "$tmp"
}
trap cleanup EXIT

# the TX NAPIs' kthreads: kernel threads (no exe) named exactly napi/eth0-0
tx_pids() {
	local d
	for d in /proc/[0-9]*; do
		[ "$(cat "$d/comm" 2>/dev/null)" = napi/eth0-0 ] && [ ! -e "$d/exe" ] && echo "${d#/proc/}"
	done | sort -n
}
cpus_of() { awk '/^Cpus_allowed_list:/ { print $2 }' "/proc/$1/status"; }

echo 1 >/sys/class/net/eth0/threaded || { echo "skip: cannot switch threaded NAPI on for eth0"; exit 77; }
for _ in $(seq 50); do [ -n "$(tx_pids)" ] && break; sleep 0.1; done
mapfile -t pids < <(tx_pids)
[ "${#pids[@]}" -gt 0 ] || { echo "skip: eth0 has no napi/eth0-0 thread (no TX NAPI)"; exit 77; }
for p in "${pids[@]}"; do echo "$p $(cpus_of "$p")"; done >"$tmp/before"
echo "eth0's TX NAPI threads: ${pids[*]}"

"$nn" claim --cpus 1 --name napi-tx-live --reason "napi_tx.sh" >"$tmp/out" 2>&1 ||
	{ fail "claim: $(cat "$tmp/out")"; exit 1; }

# 1. planned, off the claimed CPU
"$nn" --json plan --nics eth0 >"$tmp/plan.json" 2>"$tmp/err"
got=$(python3 -c 'import json,sys
p = json.load(open(sys.argv[1]))["plan"]
print(" ".join(str(t["pid"]) for t in sorted(p["napi_threads"], key=lambda t: t["pid"]) if t["napi_id"] == 0))
bad = [t for t in p["napi_threads"] if t["napi_id"] == 0 and ("1" in t["cpus"].replace("-", ",").split(",") or t["name"] != "napi/eth0-0")]
sys.exit(1 if bad else 0)' "$tmp/plan.json")
rc=$?
[ "$got" = "${pids[*]}" ] && pass "plan lists eth0's TX NAPI threads (napi_id 0): $got" ||
	fail "plan's TX NAPI threads '$got', want '${pids[*]}': $(cat "$tmp/err")"
[ "$rc" -eq 0 ] && pass "planned off the claimed CPU 1" || fail "a TX NAPI thread planned on CPU 1"

# 2. applied and undo-logged
"$nn" apply --plan "$tmp/plan.json" --state-dir "$state" >"$tmp/out" 2>&1 || [ $? -eq 1 ] ||
	fail "apply: $(cat "$tmp/out")"
on1=0
for p in "${pids[@]}"; do
	c=$(cpus_of "$p")
	python3 -c 'import sys
s = set()
for r in sys.argv[1].split(","):
    a, _, b = r.partition("-")
    s.update(range(int(a), int(b or a) + 1))
sys.exit(0 if 1 in s else 1)' "$c" && on1=1
done
[ "$on1" = 0 ] && pass "apply: no TX NAPI thread may run on CPU 1" ||
	fail "apply left a TX NAPI thread on CPU 1: $(for p in "${pids[@]}"; do echo "$p=$(cpus_of "$p")"; done)"
n=$(python3 -c 'import json,sys
def walk(o):
    if isinstance(o, dict):
        if o.get("kind") == "napi":
            d = o.get("detail")
            d = json.loads(d) if isinstance(d, str) else d
            if isinstance(d, dict) and d.get("napi_id") == 0:
                yield o
        for v in o.values():
            yield from walk(v)
    elif isinstance(o, list):
        for v in o:
            yield from walk(v)
n = 0
for f in sys.argv[1:]:
    n += sum(1 for _ in walk(json.load(open(f))))
print(n)' "$state"/*-apply.json 2>&1)
[ "$n" -ge "${#pids[@]}" ] && pass "the undo log holds a napi change of napi_id 0 for each thread" ||
	fail "undo log: $n napi_id 0 changes for ${#pids[@]} threads: $(grep -o '"kind":"napi"[^}]*}' "$state"/*-apply.json | head -3)"

# 3. observe counts them
"$nn" --json observe eth0 --interval 1 --count 1 >"$tmp/obs.json" 2>"$tmp/err"
seen=$(python3 -c 'import json,sys
pids = set()
for line in open(sys.argv[1]):
    line = line.strip()
    if not line:
        continue
    d = json.loads(line)
    for n in d.get("nics", []):
        for t in n.get("napi_threads", []):
            pids.add(t["pid"])
print(" ".join(str(p) for p in sorted(pids)))' "$tmp/obs.json" 2>&1)
missing=
for p in "${pids[@]}"; do grep -qw "$p" <<<"$seen" || missing="$missing $p"; done
[ -z "$missing" ] && pass "observe counts the TX NAPI threads ($seen)" ||
	fail "observe misses$missing (it lists '$seen'): $(head -c 300 "$tmp/err")"

# 4. rolled back
"$nn" rollback --state-dir "$state" >"$tmp/out" 2>&1 || fail "rollback: $(cat "$tmp/out")"
for p in "${pids[@]}"; do echo "$p $(cpus_of "$p")"; done >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" && pass "rollback: every TX NAPI thread's CPUs as before" ||
	fail "rollback: $(diff "$tmp/before" "$tmp/after" | tr '\n' ' ')"

[ "$fails" -eq 0 ] || exit 1
