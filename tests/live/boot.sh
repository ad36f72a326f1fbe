#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/live/boot.sh NICNUMA - boot arguments on this kernel (suite 'live', issue 38)
#
# The running kernel's facts are read live: the release plan reports is
# uname -r's, its configuration is found (/boot/config-RELEASE or
# /proc/config.gz) and an option it lacks is left out with the reason; the
# arguments plan gives are the ones this kernel can take. Then the refusal:
# where no bootloader is found (this machine: no /etc/default/grub, no
# /etc/kernel/cmdline, no loader entries), apply --boot-args auto exits 2
# naming it and changes nothing - eth0's IRQs and XPS masks as before, no
# boot record, no drop-in; with the profile's default it is a warning (exit 1)
# and the run-time values are applied and rolled back. On a host that has a
# bootloader the refusal cannot be shown without writing it: skipped (77).
# Needs root and python3; eth0's IRQs are 37-39 here (never 40-43).
# shellcheck disable=SC2015  # pass/fail only print
set -uo pipefail

nn=${1:?usage: boot.sh NICNUMA}
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root"; exit 77; }
command -v python3 >/dev/null || { echo "skip: python3 is not installed"; exit 77; }
[ -e /sys/class/net/eth0 ] || { echo "skip: no eth0"; exit 77; }
for f in /etc/default/grub /etc/kernel/cmdline /boot/loader/entries /efi/loader/entries /boot/efi/loader/entries \
	/boot/extlinux/extlinux.conf /boot/grub/grub.cfg; do
	[ -e "$f" ] && { echo "skip: $f is here: this host has a bootloader, and the test writes nothing to it"; exit 77; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/boot-live.XXXXXX") || exit 2
state=$(mktemp -d /var/tmp/nicnuma-boot-live.XXXXXX) || exit 2
chmod 0700 "$state"
fails=0
pass() { printf 'ok   %s\n' "$*"; }
fail() { printf 'FAIL %s\n' "$*"; fails=$((fails + 1)); }
# eth0's values as found, put back by the EXIT trap whatever happens
snap() {
	local f
	for f in /proc/irq/{37,38,39}/smp_affinity_list /sys/class/net/eth0/queues/tx-*/xps_cpus; do
		[ -r "$f" ] && printf '%s %s\n' "$f" "$(cat "$f" 2>/dev/null)"
	done
}
snap >"$tmp/before"
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	"$nn" rollback --state-dir "$state" >/dev/null 2>&1
	while read -r f v; do
		[ "$(cat "$f" 2>/dev/null)" = "$v" ] || echo "$v" >"$f" 2>/dev/null
	done <"$tmp/before"
	rm -rf "$tmp" "$state"
}
trap cleanup EXIT
trap 'exit 2' HUP INT TERM

"$nn" --json plan --nics eth0 --profile dpdk >"$tmp/plan.json" 2>"$tmp/err"
rc=$?
[ "$rc" -le 1 ] && pass "plan --profile dpdk (exit $rc)" || { fail "plan: exit $rc"; cat "$tmp/err"; }
python3 - "$tmp/plan.json" "$(uname -r)" <<'PY' >"$tmp/out" 2>&1 && pass "kernel facts: $(cat "$tmp/out")" || fail "kernel facts: $(cat "$tmp/out")"
import json, sys
b = json.load(open(sys.argv[1]))["boot"]
k = b["kernel"]
assert k["release"] == sys.argv[2], (k["release"], sys.argv[2])
assert k["config"] in ("/boot/config-" + sys.argv[2], "/proc/config.gz"), k
assert b["bootloader"]["kind"] == "none", b["bootloader"]
names = [a["name"] for a in b["args"]]
assert "isolcpus" in names and "irqaffinity" in names, names
for x in b["left_out"]:
    assert "CONFIG_" in x["reason"], x
print("release %s, config %s, planned %s, left out %s" % (k["release"], k["config"], " ".join(
    a["planned"] for a in b["args"]), ", ".join(x["name"] for x in b["left_out"]) or "none"))
PY

"$nn" apply --nics eth0 --profile dpdk --boot-args auto --irqbalance ignore --coexist --state-dir "$state" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 2 ] && pass "apply --boot-args auto without a bootloader refused (exit 2)" || { fail "apply: exit $rc"; cat "$tmp/err"; }
grep -q "boot arguments: no bootloader configuration found" "$tmp/err" && pass "the refusal names why" \
	|| { fail "refusal message"; cat "$tmp/err"; }
snap >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" && pass "refused: eth0's IRQs and XPS masks as found" || fail "refused apply changed values"
[ ! -e "$state/boot.json" ] && pass "refused: no boot record" || fail "refused apply wrote $state/boot.json"
ls "$state"/[0-9]*.json >/dev/null 2>&1 && fail "refused apply left an undo log" || pass "refused: no undo log"

"$nn" apply --nics eth0 --profile dpdk --irqbalance ignore --coexist --state-dir "$state" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" = 1 ] && pass "the profile's default without a bootloader: a warning (exit 1)" || { fail "apply: exit $rc"; cat "$tmp/err"; }
grep -q "warning: boot arguments not written: no bootloader" "$tmp/err" && pass "the warning says why" || fail "warning text"
"$nn" rollback --state-dir "$state" >/dev/null 2>&1 && pass "rollback" || fail "rollback"
snap >"$tmp/after"
cmp -s "$tmp/before" "$tmp/after" && pass "eth0's values as found after the rollback" || fail "values after rollback"

[ "$fails" = 0 ] || exit 1
