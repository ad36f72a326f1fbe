#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/guest/rss.sh NICNUMA NIC WORKDIR QUICK - the RSS table (--rss local)
# on the guest's multi-queue virtio NIC (called from checks.sh; PASS/FAIL/SKIP
# lines on stdout).
#
# virtio_net has an indirection table only when the device offers
# VIRTIO_NET_F_RSS (QEMU rss=on) and the guest kernel's driver supports it.
# Either way nicnuma must say the truth, compared with ethtool -x when present:
#  - no table: nics says "not supported by this driver" and --json "rss": null,
#    plan --rss local warns the same and plans no table (never a fake pass);
#  - a table: nics reads it as ethtool does; plan --rss local plans the
#    queues on the NIC's node; (full run) apply writes the table, nics reads
#    the planned table back, check finds it aligned, rollback restores the
#    table read before.
set -uo pipefail
nn=${1:?}; nic=${2:?}; work=${3:?}; quick=${4:-0}
pass() { echo "PASS rss: $*"; }
fail() { echo "FAIL rss: $*"; }
skip() { echo "SKIP rss: $*"; }
printf '\n== rss (%s)\n' "$nic" >&2

[ -n "$nic" ] || { fail "no netdev for the local NIC"; exit 0; }
"$nn" nics --json >"$work/rss-nics.json" 2>"$work/rss-nics.err"
"$nn" nics >"$work/rss-nics.txt" 2>&1
rss_of() {  # FILE: the NIC's "rss" as JSON (null when none)
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(json.dumps(next(n for n in d["nics"] if n["name"]==sys.argv[2])["rss"]))' "$1" "$nic"
}
rss=$(rss_of "$work/rss-nics.json") || { fail "nics --json unreadable"; exit 0; }
et=""
command -v ethtool >/dev/null && et=$(ethtool -x "$nic" 2>&1)

if [ "$rss" = null ]; then
  if grep -qF "$nic: rss: not supported by this driver" "$work/rss-nics.txt"; then
    pass "$nic: the driver has no indirection table; nics says 'not supported by this driver'"
  else
    fail "$nic: rss null but the nics text does not say 'not supported by this driver': $(grep -F "$nic: rss" "$work/rss-nics.txt")"
  fi
  if [ -n "$et" ]; then
    if grep -qi "not supported" <<<"$et"; then pass "$nic: ethtool -x agrees (Operation not supported)"
    else fail "$nic: nicnuma says unsupported, ethtool -x shows a table"; fi
  fi
  "$nn" plan --rss local --nics "$nic" --json >"$work/rss-plan.json" 2>"$work/rss-plan.err"; rc=$?
  if [ "$rc" -eq 1 ] && python3 -c '
import json,sys; p=json.load(open(sys.argv[1]))["plan"]
sys.exit(0 if p["rss"] == [] and any("rss: not supported by this driver" in w for w in p["warnings"]) else 1)' "$work/rss-plan.json"; then
    pass "plan --rss local: no table, warning 'not supported by this driver' (exit 1)"
  else
    fail "plan --rss local on a NIC without RSS: exit $rc, $(head -c 300 "$work/rss-plan.err")"
  fi
  skip "apply/check/rollback of the RSS table: this guest kernel's virtio_net has no table (no VIRTIO_NET_F_RSS)"
  exit 0
fi

# A table: the same as ethtool's, entry by entry.
if python3 - "$rss" "$et" <<'PY'
import json, re, sys
r = json.loads(sys.argv[1]); et = sys.argv[2]
ok = r["table_size"] == len(r["table"]) > 0 and r["queues_used"] == len(set(r["table"]))
if et:
    # table rows only ("    0:      0     1 ..."), not the hash key's "6d:5a:..."
    vals = [int(x) for line in et.splitlines() if re.match(r'^\s*\d+:(\s+\d+)+\s*$', line)
            for x in line.split(':', 1)[1].split()]
    ok = ok and vals == r["table"]
sys.exit(0 if ok else 1)
PY
then pass "$nic: table of $(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["table_size"])' "$rss") entries read as ethtool -x shows it"
else fail "$nic: nics' table differs from ethtool -x or is inconsistent: $rss"; fi

"$nn" plan --rss local --nics "$nic" --json >"$work/rss-plan.json" 2>"$work/rss-plan.err"; rc=$?
entry=$(python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["plan"]; print(json.dumps(p["rss"][0]) if p["rss"] else "")' "$work/rss-plan.json" 2>/dev/null)
if [ -z "$entry" ]; then
  fail "plan --rss local: no table planned (exit $rc): $(grep -o '"[^"]*rss[^"]*"' "$work/rss-plan.json" | head -3)"
  exit 0
fi
pass "plan --rss local: $entry"
[ "$quick" = 1 ] && { skip "apply/check/rollback of the RSS table: quick run"; exit 0; }

want=$(python3 -c '
import json,sys; e=json.loads(sys.argv[1]); r=json.loads(sys.argv[2]); q=e["queues"]
print(json.dumps([q[i % len(q)] for i in range(r["table_size"])]))' "$entry" "$rss")
if "$nn" apply --plan "$work/rss-plan.json" >"$work/rss-apply.out" 2>&1; then
  now=$("$nn" nics --json 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print(json.dumps(next(n for n in d["nics"] if n["name"]==sys.argv[1])["rss"]["table"]))' "$nic")
  [ "$now" = "$want" ] && pass "apply: the planned table is live" || fail "apply: live table $now, planned $want"
  "$nn" --json check --plan "$work/rss-plan.json" >"$work/rss-check.json" 2>/dev/null
  st=$(python3 -c '
import json,sys; d=json.load(open(sys.argv[1]))["check"]["values"]
print(" ".join(v["status"] for v in d if v["kind"] == "rss") or "none")' "$work/rss-check.json" 2>/dev/null)
  [ "$st" = aligned ] && pass "check: the rss row is aligned" || fail "check: rss row status '$st', wanted aligned"
  "$nn" rollback >"$work/rss-rollback.out" 2>&1
  # a file, not <(..): the guest's chroot has no /dev/fd
  "$nn" nics --json >"$work/rss-nics-after.json" 2>/dev/null
  back=$(rss_of "$work/rss-nics-after.json")
  [ "$back" = "$rss" ] && pass "rollback: the table read before is back" || fail "rollback: table $back, before $rss"
else
  fail "apply --rss local: $(tail -n 3 "$work/rss-apply.out")"
fi
exit 0
