#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/live/script.sh NICNUMA - `nicnuma script` with a hostile interface name (suite live)
#
# The kernel refuses whitespace in interface names (dev_valid_name), so
# `a$(touch x)` itself cannot exist; the test checks that, then uses names
# that run the same attack without a space: `a$(>x)` (a command substitution
# that creates x) and "b'`>x`" (a quote that would end the quoting, then a
# backquoted command). In a private network namespace (prefix plan-) each is
# one end of a veth pair with two queues. nicnuma plans them from inside the
# namespace and renders the script; the script must pass sh -n and shellcheck,
# then run twice:
#   1. with ROOT= on a writable copy of the namespace's sysfs (cpu online,
#      nodes, the veth's xps_cpus);
#   2. for real in the namespace, on the veth's own xps_cpus (irqbalance is
#      planned as 'ignore': nothing outside the namespace is touched).
# Each run must set the planned XPS masks, create no file named x anywhere it
# ran, and leave a restore script that puts the previous masks back.
# Needs root and ip(8); exit 77 (skip) otherwise. The namespace is removed
# on exit whatever happens.
set -uo pipefail

nn=${1:?usage: $0 NICNUMA}
nn=$(cd "$(dirname "$nn")" && pwd)/$(basename "$nn")
[ -x "$nn" ] || { echo "skip: $nn is not built" >&2; exit 77; }
[ "$(id -u)" = 0 ] || { echo "skip: needs root (network namespace, sysfs writes)" >&2; exit 77; }
command -v ip >/dev/null || { echo "skip: ip(8) (iproute2) is not installed" >&2; exit 77; }

ns=plan-script-$$
# shellcheck disable=SC2016 # literal on purpose
names=('a$(>x)' "b'\`>x\`")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/plan-live-script.XXXXXX") || exit 2
cleanup() {
	ip netns del "$ns" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
fail=0
bad() { printf 'FAIL %s\n' "$*" >&2; fail=1; }

if ! ip netns add "$ns" 2>"$tmp/err"; then
	echo "skip: cannot create a network namespace: $(cat "$tmp/err")" >&2
	exit 77
fi
# shellcheck disable=SC2016 # literal on purpose
if ip -n "$ns" link add 'a$(touch x)' type veth peer name plan-p0 2>/dev/null; then
	bad "the kernel took an interface name with a space; this test's premise is wrong"
fi
i=0
for name in "${names[@]}"; do
	if ! ip -n "$ns" link add "$name" numtxqueues 2 numrxqueues 2 type veth \
		peer name "plan-p$i" numtxqueues 2 numrxqueues 2 2>"$tmp/err"; then
		echo "skip: cannot create a veth pair in $ns: $(cat "$tmp/err")" >&2
		exit 77
	fi
	if ! ip -n "$ns" link set "$name" up || ! ip -n "$ns" link set "plan-p$i" up; then
		bad "link up"
	fi
	i=$((i + 1))
done

# Every command runs in its own empty directory: an unquoted name would leave x there.
mkdir "$tmp/cwd"
cd "$tmp/cwd" || exit 2
nsx() { ip netns exec "$ns" "$@"; }

nsx "$nn" nics --brief >"$tmp/nics" 2>&1
for name in "${names[@]}"; do
	grep -qF "$name" "$tmp/nics" || bad "nicnuma nics does not list '$name': $(head -n 5 "$tmp/nics")"
done

nsx "$nn" plan --json --nics "${names[0]},${names[1]}" --irqbalance ignore >"$tmp/plan.json" 2>"$tmp/err"
rc=$?
[ "$rc" -le 1 ] || { bad "plan exited $rc: $(cat "$tmp/err")"; exit 1; }
nsx "$nn" script --plan "$tmp/plan.json" -o "$tmp/bind.sh" >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" -le 1 ] || { bad "script exited $rc: $(cat "$tmp/err")"; exit 1; }
sh -n "$tmp/bind.sh" || bad "sh -n rejects the script"
if command -v shellcheck >/dev/null; then
	shellcheck -s sh "$tmp/bind.sh" || bad "shellcheck"
else
	echo "note: shellcheck not installed: lint step skipped" >&2
fi
grep -qF "'/sys/class/net/a\$(>x)/queues/tx-1/xps_cpus'" "$tmp/bind.sh" ||
	bad "the script does not carry the quoted xps path of 'a\$(>x)'"
grep -qF "'/sys/class/net/b'\\''\`>x\`/queues/tx-1/xps_cpus'" "$tmp/bind.sh" ||
	bad "the script does not carry the quoted xps path of \"b'\`>x\`\""

# want NIC QUEUE: the planned mask of NIC's tx-QUEUE as a hex number.
want() {
	python3 -c '
import json, sys
for x in json.load(open(sys.argv[1]))["plan"]["xps"]:
    if x["nic"] == sys.argv[2] and x["queue"] == int(sys.argv[3]):
        m = 0
        for part in x["cpus"].split(","):
            a, _, b = part.partition("-")
            for c in range(int(a), int(b or a) + 1):
                m |= 1 << c
        print("%x" % m)' "$tmp/plan.json" "$1" "$2"
}
hex() { printf '%x' "$((16#$(printf '%s' "$1" | tr -d ',')))"; }
for name in "${names[@]}"; do
	if [ -z "$(want "$name" 0)" ] || [ -z "$(want "$name" 1)" ]; then
		bad "the plan has no XPS for $name tx-0/tx-1: $(cat "$tmp/plan.json")"
		exit 1
	fi
done

# 1. ROOT= on a writable copy of the namespace's sysfs.
root=$tmp/root
for name in "${names[@]}"; do
	# shellcheck disable=SC2016 # the inner script gets its values as arguments
	nsx sh -c '
		set -e
		name=$1 root=$2
		mkdir -p "$root/sys/devices/system/cpu" "$root/sys/class/net" "$root/sys/devices/virtual/net/$name/queues"
		cat /sys/devices/system/cpu/online >"$root/sys/devices/system/cpu/online"
		for n in /sys/devices/system/node/node[0-9]*; do
			[ -d "$n" ] && mkdir -p "$root$n"
		done
		ln -s "../../devices/virtual/net/$name" "$root/sys/class/net/$name"
		for q in /sys/class/net/"$name"/queues/tx-*; do
			mkdir "$root/sys/devices/virtual/net/$name/queues/${q##*/}"
			cat "$q/xps_cpus" >"$root/sys/devices/virtual/net/$name/queues/${q##*/}/xps_cpus"
		done
	' sh "$name" "$root" || { bad "cannot copy the namespace's sysfs"; exit 1; }
done
# xps ROOT NIC QUEUE (ROOT "" = live, inside the namespace)
xps() { nsx cat "$1/sys/class/net/$2/queues/tx-$3/xps_cpus"; }
state() { for name in "${names[@]}"; do printf '%s %s ' "$(xps "$1" "$name" 0)" "$(xps "$1" "$name" 1)"; done; }
planned() {
	for name in "${names[@]}"; do
		for q in 0 1; do
			got=$(xps "$1" "$name" "$q")
			[ "$(hex "$got")" = "$(want "$name" "$q")" ] || bad "$2: $name tx-$q is $got, want $(want "$name" "$q")"
		done
	done
}
before=$(state "$root")
ROOT=$root NICNUMA_RESTORE=$tmp/restore-copy.sh sh "$tmp/bind.sh" >"$tmp/out" 2>&1
rc=$?
[ "$rc" = 0 ] || bad "script on the copy exited $rc: $(tail -n 5 "$tmp/out")"
planned "$root" "copy"
sh "$tmp/restore-copy.sh" >/dev/null 2>&1 || bad "restore on the copy exited $?"
[ "$(state "$root")" = "$before" ] || bad "restore on the copy: $(state "$root"), want $before"

# 2. For real, inside the namespace.
before=$(state "")
NICNUMA_RESTORE=$tmp/restore-live.sh nsx sh "$tmp/bind.sh" >"$tmp/out" 2>&1
rc=$?
[ "$rc" = 0 ] || bad "script in the namespace exited $rc: $(tail -n 5 "$tmp/out")"
planned "" "live"
[ "$(stat -c %a "$tmp/restore-live.sh" 2>/dev/null)" = 600 ] || bad "live restore script missing or not 0600"
NICNUMA_RESTORE=$tmp/restore-live2.sh nsx sh "$tmp/bind.sh" >"$tmp/out2" 2>&1 || bad "second live run exited $?"
grep -q 'nothing to change' "$tmp/out2" || bad "second live run was not idempotent: $(head -n 3 "$tmp/out2")"
nsx sh "$tmp/restore-live.sh" >/dev/null 2>&1 || bad "live restore exited $?"
[ "$(state "")" = "$before" ] || bad "live restore: $(state ""), want $before"

# Nothing executed the name: no x next to any command, in the copy, or in /.
for d in "$tmp/cwd" "$tmp" "$root" /; do
	[ ! -e "$d/x" ] || bad "a file x appeared in $d: the name was executed"
done

[ "$fail" = 0 ] || exit 1
echo "ok: script with interfaces ${names[*]}: sh -n, shellcheck, ROOT copy and live namespace, restored"
