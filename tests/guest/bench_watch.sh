#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/guest/bench_watch.sh [N [IDLE]] - scripts/bench watch, inside the systemd guest
# (scripts/testhost --init systemd): how long until every queue IRQ and xps of
# the NIC on node NN_GUEST_NIC_NODE is back on its node after an event, for
#   nicnuma:    nicnuma enable (nicnuma-watch.service, netlink events)
#   shell loop: `ip monitor link` | on each "state UP" re-run the script
#               `nicnuma script` generated (seapath's approach)
# N events each (default 50): a flap = the values rewritten by "someone else",
# then link down+up in one `ip -batch`; timed from that flap to all bound.
# Channel changes (ethtool -L 2/4 in turn): nicnuma only times them; the shell
# loop is tried on a few (ip monitor link does not report channel changes).
# Then the idle watcher's CPU: utime+stime over IDLE seconds
# (default 60), extrapolated to an hour. Writes $NN_OUT/bench-watch.json.
# TCG: absolute times are the emulator's; the ratio is the figure.
set -uo pipefail
[ "${NN_GUEST_INIT:-}" = systemd ] || { echo "bench_watch.sh: needs scripts/testhost --init systemd" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
nn=$NN_BUILD/nicnuma/nicnuma
pci=$NN_GUEST_NIC_LOCAL node=$NN_GUEST_NIC_NODE
n=${1:-50}
idle=${2:-60}
# shellcheck disable=SC2012  # sysfs names
dev=$(basename "$(ls -d /sys/bus/pci/devices/"$pci"/virtio*/net/* | head -n1)")
ip link set "$dev" up
eb() { python3 "$here/persist_truth.py" eventbench "$@"; }
out=${NN_OUT:-/tmp}/bench-watch.json
: >"$out"

echo "== shell loop: ip monitor link -> sh bind.sh ($n flaps)"
export NICNUMA_RESTORE=/run/nn-bench-restore.sh
"$nn" script --nics "$dev" --irqbalance ignore -o /run/nn-bind.sh >/dev/null 2>/run/nn-script.err
rc=$?  # 1: done with warnings (4 queues share node 1's one free core)
if [ "$rc" -le 1 ] && [ -s /run/nn-bind.sh ]; then
  ( ip monitor link | while read -r l; do
      case $l in *"state UP"*) sh /run/nn-bind.sh >/dev/null 2>&1 ;; esac
    done ) &
  loop=$!
  sleep 2
  eb flap "$pci" "$node" "$n" 30 | sed 's/^{/{"tool": "shell-loop", /' | tee -a "$out"
  eb channels "$pci" "$node" 3 10 | sed 's/^{/{"tool": "shell-loop", /' | tee -a "$out"
  kill "$loop" 2>/dev/null; pkill -P "$loop" 2>/dev/null
  sh "$NICNUMA_RESTORE" >/dev/null 2>&1
  ethtool -L "$dev" combined 4
else
  echo "shell loop: nicnuma script failed (exit $rc): $(cat /run/nn-script.err)"
fi

echo "== nicnuma enable: nicnuma-watch.service ($n flaps, 20 channel changes)"
if "$nn" enable --nics "$dev" --irqbalance stop >/run/nn-enable.out 2>&1; then
  sleep 2
  eb flap "$pci" "$node" "$n" 30 | sed 's/^{/{"tool": "nicnuma", /' | tee -a "$out"
  eb channels "$pci" "$node" 20 30 | sed 's/^{/{"tool": "nicnuma", /' | tee -a "$out"
  ethtool -L "$dev" combined 4; sleep 3
  pid=$(systemctl show -p MainPID --value nicnuma-watch.service)
  tck=$(getconf CLK_TCK)
  cpu() { awk '{ print $14 + $15 }' "/proc/$pid/stat"; }
  c0=$(cpu); sleep "$idle"; c1=$(cpu)
  python3 -c "import json,sys; c0,c1,t,w=map(float,sys.argv[1:]); print(json.dumps({'tool':'nicnuma','idle_window_s':w,'cpu_s':(c1-c0)/t,'cpu_s_per_hour_extrapolated':round((c1-c0)/t*3600/w,2)}))" \
    "$c0" "$c1" "$tck" "$idle" | tee -a "$out"
  "$nn" disable >/dev/null 2>&1
else
  echo "nicnuma enable failed (exit $?): $(tail -n 3 /run/nn-enable.out)"
  echo '{"tool": "nicnuma", "error": "enable failed"}' >>"$out"
fi
