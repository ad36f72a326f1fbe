#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/live/capture.sh NICNUMA CAPTURE_HOST [TARBALL] - a capture reads back as the host
#
# Captures this host with scripts/capture-host (or takes TARBALL), then checks
# that `nicnuma --root TREE topo/nics --json` equals the live run on every
# field that does not change from one second to the next. Left out, with why:
#   mem_free_kb, mem_total_kb   the balloon driver and other tests move them
#   hugepage counts             other live tests reserve pages meanwhile
#   IRQ affinities              other live tests write them (and restore)
#   channels, speed             live-only (ethtool ioctl); null under --root
#   irqbalance, warnings        processes come and go; netlink-only checks
# The kernel's netdev genl answers (queue -> NAPI -> IRQ, thread pids) are
# compared: capture-host saves them and --root reads them back.
# With TARBALL (the committed tests/fixtures/thishost.tar.gz), only hosts of
# the same shape can match: it skips (77) when this host's CPU list differs.
# shellcheck disable=SC2016  # jq programs use $vars of their own
set -uo pipefail

nn=${1:?usage: capture.sh NICNUMA CAPTURE_HOST [TARBALL]}
capture=${2:?usage: capture.sh NICNUMA CAPTURE_HOST [TARBALL]}
tarball=${3:-}
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root (/proc/irq, the whole of /sys)"; exit 77; }
command -v jq >/dev/null || { echo "skip: jq is not installed"; exit 77; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/disc-capture.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if [ -z "$tarball" ]; then
  "$capture" "$tmp/host.tar.gz" || { echo "FAIL capture-host"; exit 1; }
  tarball=$tmp/host.tar.gz
fi
mkdir "$tmp/root"
tar -C "$tmp/root" -xzf "$tarball" || { echo "FAIL cannot untar $tarball"; exit 1; }
if [ "$(cat /sys/devices/system/cpu/online)" != "$(cat "$tmp/root/sys/devices/system/cpu/online" 2>/dev/null)" ]; then
  echo "skip: $tarball was captured on a host with other CPUs"
  exit 77
fi

topo_stable='{online, cpu_model,
  nodes: [.nodes[] | {id, cpus, ncpus, memory_only, distances, hugepages: [.hugepages[] | .size_kb]}],
  cpus, knobs: (.knobs | map_values(.value))}'
nics_stable='[.nics[] | {name, virtual, kind, pci, driver, numa_node, local_cpus, locality_known,
  rx_queues, tx_queues, irqs: [.irqs[] | {irq, name, queue, dir, role, source, napi_id}],
  queues: (if .queues == null then null else [.queues[] | {type, id, napi_id, irq, napi_pid, threaded, binding}] end)}]'

fails=0
for cmd in topo nics; do
  filter=$topo_stable
  [ "$cmd" = nics ] && filter=$nics_stable
  "$nn" "$cmd" --json > "$tmp/live.$cmd.json" 2> "$tmp/live.$cmd.err"
  rc_live=$?
  "$nn" --root "$tmp/root" "$cmd" --json > "$tmp/root.$cmd.json" 2> "$tmp/root.$cmd.err"
  rc_root=$?
  if [ "$rc_live" -ne 0 ] || [ "$rc_root" -ne 0 ]; then
    echo "FAIL $cmd: exit live $rc_live, --root $rc_root"
    cat "$tmp/live.$cmd.err" "$tmp/root.$cmd.err"
    fails=$((fails + 1))
    continue
  fi
  jq -S "$filter" "$tmp/live.$cmd.json" > "$tmp/live.$cmd.stable"
  jq -S "$filter" "$tmp/root.$cmd.json" > "$tmp/root.$cmd.stable"
  if diff -u "$tmp/live.$cmd.stable" "$tmp/root.$cmd.stable"; then
    echo "ok   $cmd --json: capture and live agree ($(wc -l < "$tmp/live.$cmd.stable") lines of stable fields)"
  else
    echo "FAIL $cmd --json: capture and live differ (above: - live, + capture)"
    fails=$((fails + 1))
  fi
done
# The comparison must have compared something.
n=$(jq '.nics | length' "$tmp/live.nics.json" 2>/dev/null || echo 0)
c=$(jq '.cpus | length' "$tmp/live.topo.json" 2>/dev/null || echo 0)
if [ "$n" -gt 0 ] && [ "$c" -gt 0 ]; then
  echo "ok   compared $c CPUs and $n network devices"
else
  echo "FAIL nothing to compare ($c CPUs, $n devices)"
  fails=$((fails + 1))
fi
echo "$fails failure(s)"
[ "$fails" -eq 0 ]
