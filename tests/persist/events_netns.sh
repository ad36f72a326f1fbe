#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/persist/events_netns.sh NICNUMA - the watcher's event path on real
# netlink: in a private network namespace (unshare -n: nothing of the host's
# links is touched), a veth pair is created and flapped while
# 'nicnuma watch --events' (writes nothing, reads no values) decodes the
# rtnetlink and uevent messages and runs the settle/coalesce decisions.
# Needs root (exit 77 otherwise).
set -uo pipefail
nn=$1
[ "$(id -u)" = 0 ] || { echo "skip: needs root for unshare -n" >&2; exit 77; }
command -v ip >/dev/null || { echo "skip: no ip(8)" >&2; exit 77; }
unshare -n true 2>/dev/null || { echo "skip: unshare -n not permitted" >&2; exit 77; }
out=$(mktemp "${TMPDIR:-/tmp}/nn-events.XXXXXX")
trap 'rm -f "$out"' EXIT
unshare -n bash -c '
	set -e
	"$1" watch --events --settle 100 --duration 4 >"$2" 2>&1 & w=$!
	sleep 0.5
	ip link add nnwa type veth peer name nnwb
	ip link set nnwb up
	for i in 1 2 3 4 5; do ip link set nnwa up; sleep 0.02; ip link set nnwa down; sleep 0.02; done
	ip link set nnwa up
	ip link del nnwa
	wait $w
' _ "$nn" "$out" || { echo "FAIL: watch --events in the netns"; cat "$out"; exit 1; }
fail() { echo "FAIL: $*"; cat "$out"; exit 1; }
grep -q '^event=link .*ifname=nnwa .*relevant=1' "$out" || fail "no new-link event for nnwa"
grep -q '^event=link_del .*ifname=nnw' "$out" || fail "no link_del event"
# the veths are no desired NIC: their flaps are decoded but not relevant
grep -q '^event=link .*flags=0x1[0-9a-f]*43 .*ifname=nnwa .*relevant=0' "$out" ||
	grep -q '^event=link .*ifname=nnwa .*relevant=0' "$out" || fail "flaps of a foreign link were relevant"
# new links in one burst: coalesced into few reconciles
n=$(grep -c '^reconcile' "$out")
[ "$n" -ge 1 ] && [ "$n" -le 3 ] || fail "expected 1-3 reconciles, got $n"
if grep -q '^event=uevent .*subsystem=net' "$out"; then ue=yes; else ue="no (netns without uevents)"; fi
echo "ok: rtnetlink decoded in a netns, $n reconcile(s); net uevents: $ue"
