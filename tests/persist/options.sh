#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/persist/options.sh NICNUMA FIXTURE_TAR - enable's desired-state
# options on a fake root (nothing live; systemctl never runs):
#  - --no-xps: the desired state says xps = no, no XPS mask is planned or
#    written, and a tx queue's xps_cpus changed afterwards is not drift;
#  - a running irqbalance: with irqbalance = ignore it is a status note, not
#    drift (matches_desired true); with irqbalance = stop it is drift;
#  - rps = auto and gro_flush_timeout: recorded, written, drift when changed,
#    put back by watch --once, restored by disable.
set -uo pipefail
nn=${1:?usage: options.sh NICNUMA FIXTURE_TAR} tar=${2:?}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nn-persist-opts.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
R=$tmp/root
fresh() { rm -rf "$R"; mkdir -p "$R"; tar -xzf "$tar" -C "$R"; }
n() { "$nn" --root "$R" "$@"; }
xps() { cat "$R"/sys/class/net/eth1/queues/tx-*/xps_cpus; }
# a captured tree's irqbalance: comm and cmdline only (scripts/capture-host)
irqbalance_runs() {
	mkdir -p "$R/proc/4242"
	echo irqbalance > "$R/proc/4242/comm"
	printf '/usr/sbin/irqbalance\0--foreground\0' > "$R/proc/4242/cmdline"
}

# 1. --no-xps
fresh
# (plan exits 1 here: a warning, more queues than CPUs)
n --json plan --nics eth1 > "$tmp/p.json" 2>/dev/null
jq -e '.plan.xps | length > 0' "$tmp/p.json" >/dev/null || fail "plan: no XPS to leave out"
n --json plan --nics eth1 --no-xps > "$tmp/p.json" 2>/dev/null
jq -e '.plan.xps == []' "$tmp/p.json" >/dev/null || fail "plan --no-xps planned XPS"
before=$(xps)
n enable --nics eth1 --no-xps >"$tmp/out" 2>&1 || fail "enable --no-xps: $(cat "$tmp/out")"
grep -qx 'xps = no' "$R/etc/nicnuma/nicnuma.conf" || fail "config: $(cat "$R/etc/nicnuma/nicnuma.conf")"
[ "$(xps)" = "$before" ] || fail "enable --no-xps wrote XPS masks"
echo 3 > "$R/sys/class/net/eth1/queues/tx-0/xps_cpus"
n --json status > "$tmp/st"
jq -e '.matches_desired and .drift == []' "$tmp/st" >/dev/null || fail "xps = no: status $(cat "$tmp/st")"
n watch --once 2>"$tmp/err" || fail "watch --once: $(cat "$tmp/err")"
jq -e '.last_action.result == "unchanged"' "$R/run/nicnuma/watch.json" >/dev/null ||
	fail "xps = no: the watcher acted: $(cat "$R/run/nicnuma/watch.json")"
[ "$(cat "$R/sys/class/net/eth1/queues/tx-0/xps_cpus")" = 3 ] || fail "xps = no: the watcher wrote XPS"
# and without it XPS is kept: the same change is drift
fresh
n enable --nics eth1 >"$tmp/out" 2>&1 || fail "enable: $(cat "$tmp/out")"
grep -qx 'xps = yes' "$R/etc/nicnuma/nicnuma.conf" || fail "config without --no-xps: xps is not yes"
echo 3 > "$R/sys/class/net/eth1/queues/tx-0/xps_cpus"
n --json status > "$tmp/st"
jq -e '.matches_desired == false and any(.drift[]; test("tx-0/xps_cpus"))' "$tmp/st" >/dev/null ||
	fail "xps = yes: changed XPS is not drift: $(cat "$tmp/st")"

# 2. irqbalance = ignore: a note, not drift (given in its old spelling,
# leave: taken for ignore with a warning naming it; docs/cli.md)
fresh; irqbalance_runs
n enable --nics eth1 --irqbalance leave >"$tmp/out" 2>&1; rc=$?
[ "$rc" -le 1 ] || fail "enable --irqbalance leave: rc $rc $(cat "$tmp/out")"
grep -q 'warning: enable: --irqbalance leave is deprecated, use --irqbalance ignore' "$tmp/out" ||
	fail "enable --irqbalance leave: no deprecation warning: $(cat "$tmp/out")"
grep -qx 'irqbalance = ignore' "$R/etc/nicnuma/nicnuma.conf" || fail "config: irqbalance is not ignore"
n --json status > "$tmp/st"
jq -e '.matches_desired == true and .drift == [] and (.notes | length) == 1 and
	(.notes[0].message | test("irqbalance"))' "$tmp/st" >/dev/null || fail "leave + irqbalance: status $(cat "$tmp/st")"
n status > "$tmp/st.txt" 2>"$tmp/st.err"
grep -q '^nicnuma: note: irqbalance runs' "$tmp/st.err" || fail "leave: no note line: $(cat "$tmp/st.txt" "$tmp/st.err")"
grep -q '^drift:' "$tmp/st.txt" && fail "leave: a drift line: $(cat "$tmp/st.txt")"

# 3. irqbalance = stop: a running irqbalance is drift
fresh; irqbalance_runs
n enable --nics eth1 --irqbalance stop >"$tmp/out" 2>&1; rc=$?
[ "$rc" -le 1 ] || fail "enable --irqbalance stop: rc $rc $(cat "$tmp/out")"
n --json status > "$tmp/st"
jq -e '.matches_desired == false and .notes == [] and
	any(.drift[]; test("irqbalance runs and is not fenced"))' "$tmp/st" >/dev/null ||
	fail "stop + irqbalance: status $(cat "$tmp/st")"
# 4. rps = auto and a device-wide NAPI setting: recorded, written, drift
#    when changed, put back by the watcher, restored by disable (on the
#    isolcpus shape: its i40e has 8 queues for 16 CPUs of node 0, and the
#    tree carries the RPS and NAPI files as a CONFIG_RPS kernel shows them).
R=$tmp/iso
python3 "$(dirname "$0")/../fixtures/mkhost.py" build isolcpus "$R" >/dev/null || fail "mkhost.py build isolcpus"
rpsf=$R/sys/class/net/ens1f0/queues/rx-0/rps_cpus
gro=$R/sys/class/net/ens1f0/gro_flush_timeout
n --json plan --nics ens1f0 --rps auto > "$tmp/p.json" 2>/dev/null
jq -e '.plan.rps | length == 8' "$tmp/p.json" >/dev/null || fail "plan --rps auto: $(jq .plan.rps "$tmp/p.json")"
n enable --nics ens1f0 --rps auto --gro-flush-timeout 20000 >"$tmp/out" 2>&1; rc=$?
[ "$rc" -le 1 ] || fail "enable --rps auto: rc $rc $(cat "$tmp/out")"
grep -qx 'rps = auto' "$R/etc/nicnuma/nicnuma.conf" || fail "config: no rps = auto: $(cat "$R/etc/nicnuma/nicnuma.conf")"
grep -qx 'gro_flush_timeout = 20000' "$R/etc/nicnuma/nicnuma.conf" || fail "config: no gro_flush_timeout"
want=$(cat "$rpsf")
[ "$want" != 00000000 ] || fail "enable --rps auto wrote no rps_cpus"
[ "$(cat "$gro")" = 20000 ] || fail "enable wrote no gro_flush_timeout"
echo 00000000 >"$rpsf"
echo 0 >"$gro"
n --json status > "$tmp/st"
jq -e '.matches_desired == false and any(.drift[]; test("rx-0/rps_cpus")) and
	any(.drift[]; test("gro_flush_timeout"))' "$tmp/st" >/dev/null ||
	fail "rps = auto: changed values are not drift: $(cat "$tmp/st")"
n watch --once 2>"$tmp/err" || fail "watch --once (rps): $(cat "$tmp/err")"
if [ "$(cat "$rpsf")" != "$want" ] || [ "$(cat "$gro")" != 20000 ]; then
	fail "the watcher did not put rps_cpus and gro_flush_timeout back: $(cat "$rpsf" "$gro")"
fi
n --json status > "$tmp/st"
jq -e '.matches_desired' "$tmp/st" >/dev/null || fail "rps = auto after the watcher: $(cat "$tmp/st")"
n disable >"$tmp/out" 2>&1 || fail "disable: $(cat "$tmp/out")"
if [ "$(cat "$rpsf")" != 00000000 ] || [ "$(cat "$gro")" != 0 ] ||
	[ "$(cat "$R/proc/sys/net/core/rps_sock_flow_entries")" != 0 ]; then
	fail "disable did not restore the RPS and NAPI values"
fi
echo "ok: enable --no-xps, irqbalance ignore (as leave)/stop in status, rps = auto and a NAPI file kept by the watcher, on a fake root"
