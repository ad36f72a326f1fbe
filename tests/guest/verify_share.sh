#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/guest/verify_share.sh NICNUMA TRIES SECS - scripts/bench verify's
# guest half (NN_BENCH_VERIFY_SHARE=1): apply --verify judged by the built-in
# share of work alone (no command) on the local virtio NIC (node 1) under a
# flood from the node-0 NIC, TRIES tries of each:
#   right  apply --verify from the untuned NIC: the plan puts its IRQs on its
#          own node (should be kept);
#   hurt   the right plan applied first (no verify), then apply --verify
#          --cpus NODE0: the IRQs moved off the NIC's node (should be rolled
#          back by apply).
# Each try has its own state dir and is rolled back after, so every try
# starts from the untuned NIC. One JSON line a try in $NN_OUT/verify-share.jsonl.
set -uo pipefail

[ "${NN_GUEST:-}" = 1 ] || { echo "verify_share.sh: run me inside scripts/testhost" >&2; exit 2; }
nn=${1:?usage: verify_share.sh NICNUMA TRIES SECS}
tries=${2:?}
secs=${3:?}
netdev_of() { basename "$(ls -d /sys/bus/pci/devices/"$1"/virtio*/net/* 2>/dev/null | head -n1)"; }
vnic=$(netdev_of "$NN_GUEST_NIC_LOCAL")
src=$(netdev_of "$NN_GUEST_NIC_NODE0")
node0=$(cat /sys/devices/system/node/node0/cpulist)
if [ -z "$vnic" ] || [ -z "$src" ]; then echo "verify_share.sh: no local or node-0 virtio NIC" >&2; exit 1; fi
ip link set "$vnic" up; ip link set "$src" up
mac=$(cat "/sys/class/net/$vnic/address")
work=$(mktemp -d /tmp/verify-share.XXXXXX)
out=${NN_OUT:-$work}
: >"$out/verify-share.jsonl"

# one flood outlasts every window (SIGTERM ends it at the end)
python3 tests/guest/flood.py "$src" "$mac" 86400 2000000000 >"$work/sent" 2>"$work/flood.err" &
fl=$!
trap 'kill "$fl" 2>/dev/null' EXIT
for _ in $(seq 50); do grep -q flooding "$work/flood.err" 2>/dev/null && break; sleep 0.2; done

# record LABEL TRY RC SECONDS: the try's verdict as one JSON line
record() {
	python3 - "$work/$1-$2.out" "$1" "$2" "$3" "$4" >>"$out/verify-share.jsonl" <<'PY'
import json, sys
path, label, i, rc, t = sys.argv[1:6]
row = {"case": label, "try": int(i), "rc": int(rc), "seconds": int(t)}
try:
    v = json.load(open(path))["apply"]["verify"]
    n = v["nics"][0]
    row.update(rolled_back=v["rolled_back"], verdict=v["verdict"], reason=v.get("reason"),
               share_before=n.get("local_share_before"), share_after=n.get("local_share_after"),
               change_pct=n.get("change_pct"), noise_pct=n.get("noise_pct"), nic_verdict=n.get("verdict"),
               samples=v.get("samples", {}).get("nics"))
except (ValueError, KeyError, TypeError, IndexError) as e:
    row["error"] = "no apply.verify in the report: %s" % e
print(json.dumps(row))
PY
}

for ((i = 1; i <= tries; i++)); do
	sd=$work/sd-right-$i
	t=$SECONDS
	"$nn" --json apply --nics "$vnic" --irqbalance ignore --state-dir "$sd" --verify "$secs" \
		>"$work/right-$i.out" 2>"$work/right-$i.err"
	record right "$i" $? $((SECONDS - t))
	"$nn" rollback --state-dir "$sd" >/dev/null 2>&1

	sd=$work/sd-hurt-$i
	t=$SECONDS
	"$nn" apply --nics "$vnic" --irqbalance ignore --state-dir "$sd" >/dev/null 2>&1
	"$nn" --json apply --nics "$vnic" --irqbalance ignore --state-dir "$sd" --cpus "$node0" --verify "$secs" \
		>"$work/hurt-$i.out" 2>"$work/hurt-$i.err"
	record hurt "$i" $? $((SECONDS - t))
	"$nn" rollback --state-dir "$sd" >/dev/null 2>&1
	tail -n 2 "$out/verify-share.jsonl" | python3 -c '
import json, sys
for l in sys.stdin:
    r = json.loads(l)
    print("verify-share: %s try %d: %s, share %s -> %s (%s s)" % (r["case"], r["try"], r.get("verdict", r.get("error")),
          r.get("share_before"), r.get("share_after"), r["seconds"]))'
done
kill "$fl" 2>/dev/null; wait "$fl" 2>/dev/null
[ -d "${NN_OUT:-}" ] && mkdir -p "$NN_OUT/verify-share" && cp "$work"/*.out "$work"/*.err "$NN_OUT/verify-share/" 2>/dev/null
rm -rf "$work"
exit 0
