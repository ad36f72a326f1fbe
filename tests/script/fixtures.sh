#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/script/fixtures.sh NICNUMA - `nicnuma script` on the hand-built hosts (suite fixture)
#
# For each shape: the script passes shellcheck and sh -n; run with ROOT= on a
# writable copy of the tree it sets every planned value (checked against
# `plan --json`), writes a 0600 restore script, changes nothing on a second
# run, and its restore script brings every value back byte for byte. A script
# made for one shape refuses another, and a stale IRQ, without touching
# anything. The large shape (2064 values) is only rendered and parsed here:
# running it takes minutes on a loaded 2-vCPU box and exercises the same
# lines as the small shapes. Exit 77 (skip) without python3.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
nn=${1:?usage: $0 NICNUMA}
mkhost=$here/../fixtures/mkhost.py
[ -x "$nn" ] || { echo "skip: $nn is not built" >&2; exit 77; }
command -v python3 >/dev/null || { echo "skip: python3 is needed to build the trees" >&2; exit 77; }
have_sc=1
command -v shellcheck >/dev/null || { have_sc=0; echo "note: shellcheck not installed: lint step skipped" >&2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/plan-script-fixtures.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { printf 'FAIL %s\n' "$*" >&2; fail=1; }

# values TREE PLANJSON: every planned value as "path<TAB>kind<TAB>want<TAB>got".
values() {
	python3 - "$1" "$2" <<'PY'
import json, sys
root, plan = sys.argv[1], json.load(open(sys.argv[2]))["plan"]
def rd(p):
    try:
        return open(root + p).readline().rstrip("\n")
    except OSError as e:
        return "<%s>" % e.strerror
for q in plan["irqs"]:
    p = "/proc/irq/%d/smp_affinity_list" % q["irq"]
    print("%s\tlist\t%s\t%s" % (p, q["cpus"], rd(p)))
for x in plan["xps"]:
    p = "/sys/class/net/%s/queues/tx-%d/xps_cpus" % (x["nic"], x["queue"])
    want = 0
    for part in x["cpus"].split(","):
        a, _, b = part.partition("-")
        for c in range(int(a), int(b or a) + 1):
            want |= 1 << c
    print("%s\tmask\t%x\t%s" % (p, want, rd(p)))
for h in plan["hugepages"]:
    p = "/sys/devices/system/node/node%d/hugepages/hugepages-%dkB/nr_hugepages" % (h["node"], h["size_kb"])
    print("%s\tnum\t%d\t%s" % (p, h["target"], rd(p)))
PY
}

# applied LIST: every value equals the plan (masks by value).
applied() {
	python3 -c '
import sys
bad = 0
for line in open(sys.argv[1]):
    path, kind, want, got = line.rstrip("\n").split("\t")
    ok = int(want, 16) == int(got.replace(",", ""), 16) if kind == "mask" else want == got
    if not ok:
        print("  %s: want %s, got %s" % (path, want, got)); bad = 1
sys.exit(bad)' "$1"
}

# snapshot TREE LIST OUT: the current content of every planned path.
snapshot() {
	cut -f1 "$2" | while IFS= read -r p; do printf '%s\t%s\n' "$p" "$(cat "$1$p" 2>&1)"; done >"$3"
}

for shape in xeon-2s-smt epyc-nps4 vm-virtio even-odd memonly broken large; do
	tree=$tmp/$shape
	mkdir "$tree"
	python3 "$mkhost" build "$shape" "$tree" || { bad "$shape: mkhost.py build"; continue; }
	opts=()
	[ "$shape" = xeon-2s-smt ] && opts=(--hugepages 2M:512)
	"$nn" --root "$tree" plan --json "${opts[@]}" >"$tmp/$shape.plan.json" 2>/dev/null
	rc=$?
	[ "$rc" -le 1 ] || { bad "$shape: plan exited $rc"; continue; }
	"$nn" --root "$tree" script --plan "$tmp/$shape.plan.json" -o "$tmp/$shape.sh" 2>"$tmp/err"
	rc=$?
	[ "$rc" -le 1 ] || { bad "$shape: script exited $rc: $(cat "$tmp/err")"; continue; }
	sh -n "$tmp/$shape.sh" || bad "$shape: sh -n rejects the script"
	if [ "$shape" = large ]; then
		# shellcheck disable=SC2016 # the literal "$1" of the script's item lines
		grep -c '^	"$1" ' "$tmp/$shape.sh" | grep -qx 2064 || bad "large: the script does not carry 2064 values"
		echo "ok $shape: rendered and parsed"
		continue
	fi
	if [ "$have_sc" = 1 ]; then
		shellcheck -s sh "$tmp/$shape.sh" || bad "$shape: shellcheck"
	fi

	copy=$tmp/$shape.copy
	cp -a "$tree" "$copy"
	values "$copy" "$tmp/$shape.plan.json" >"$tmp/$shape.before"
	snapshot "$copy" "$tmp/$shape.before" "$tmp/$shape.orig"
	restore=$tmp/$shape.restore.sh
	# Never run by accident: --help, --dry-run, --check and a stray argument
	# change nothing and write no restore script.
	for a in --help --dry-run --check --bogus; do
		ROOT=$copy NICNUMA_RESTORE=$restore sh "$tmp/$shape.sh" "$a" >"$tmp/out" 2>&1
		rc=$?
		case $a in --help | --dry-run) want=0 ;; --check) want=1 ;; *) want=2 ;; esac
		[ "$rc" = "$want" ] || bad "$shape: sh SCRIPT $a exited $rc, want $want: $(tail -n 2 "$tmp/out")"
		snapshot "$copy" "$tmp/$shape.before" "$tmp/$shape.now.snap"
		cmp -s "$tmp/$shape.orig" "$tmp/$shape.now.snap" || bad "$shape: sh SCRIPT $a changed values"
		[ ! -e "$restore" ] || { bad "$shape: sh SCRIPT $a wrote a restore script"; rm -f "$restore"; }
	done
	ROOT=$copy sh "$tmp/$shape.sh" --dry-run >"$tmp/out" 2>&1
	grep -q '^dry run: [1-9][0-9]* would change' "$tmp/out" || bad "$shape: --dry-run does not say what would change: $(tail -n 2 "$tmp/out")"
	ROOT=$copy NICNUMA_RESTORE=$restore sh "$tmp/$shape.sh" >"$tmp/out" 2>&1
	rc=$?
	[ "$rc" = 0 ] || { bad "$shape: script exited $rc"; sed 's/^/    /' "$tmp/out" | tail -n 20 >&2; continue; }
	values "$copy" "$tmp/$shape.plan.json" >"$tmp/$shape.after"
	applied "$tmp/$shape.after" || bad "$shape: values not as planned after the script"
	[ -f "$restore" ] || { bad "$shape: no restore script at $restore"; continue; }
	[ "$(stat -c %a "$restore")" = 600 ] || bad "$shape: restore script mode $(stat -c %a "$restore"), want 600"
	if [ "$have_sc" = 1 ]; then
		shellcheck -s sh "$restore" || bad "$shape: shellcheck restore"
	fi

	# Idempotent: a second run finds everything in place and writes nothing.
	ROOT=$copy NICNUMA_RESTORE=$tmp/$shape.restore2.sh sh "$tmp/$shape.sh" >"$tmp/out2" 2>&1
	rc=$?
	[ "$rc" = 0 ] || bad "$shape: second run exited $rc"
	grep -q 'nothing to change' "$tmp/out2" || bad "$shape: second run changed something: $(head -n 3 "$tmp/out2")"
	[ ! -e "$tmp/$shape.restore2.sh" ] || bad "$shape: second run wrote a restore script"

	# The restore script: --help, --dry-run and a stray argument change nothing.
	snapshot "$copy" "$tmp/$shape.before" "$tmp/$shape.applied"
	for a in --help --dry-run --bogus; do
		sh "$restore" "$a" >"$tmp/rout" 2>&1
		rc=$?
		case $a in --bogus) want=2 ;; *) want=0 ;; esac
		[ "$rc" = "$want" ] || bad "$shape: sh RESTORE $a exited $rc, want $want: $(tail -n 2 "$tmp/rout")"
		snapshot "$copy" "$tmp/$shape.before" "$tmp/$shape.now.snap"
		cmp -s "$tmp/$shape.applied" "$tmp/$shape.now.snap" || bad "$shape: sh RESTORE $a changed values"
	done
	sh "$restore" --dry-run >"$tmp/rout" 2>&1
	grep -q '^would restore ' "$tmp/rout" || bad "$shape: restore --dry-run names nothing: $(head -n 2 "$tmp/rout")"
	# The restore script puts back every byte.
	sh "$restore" >"$tmp/rout" 2>&1 || bad "$shape: restore exited $?: $(tail -n 3 "$tmp/rout")"
	snapshot "$copy" "$tmp/$shape.before" "$tmp/$shape.restored"
	cmp -s "$tmp/$shape.orig" "$tmp/$shape.restored" ||
		bad "$shape: restore did not bring the values back: $(diff "$tmp/$shape.orig" "$tmp/$shape.restored" | head -n 4)"
	echo "ok $shape: $(wc -l <"$tmp/$shape.before") values applied, idempotent, restored"
done

# A script for one shape refuses another; nothing is written.
other=$tmp/xeon-on-vm
cp -a "$tmp/vm-virtio" "$other"
snapshot "$other" "$tmp/vm-virtio.before" "$tmp/other.orig"
ROOT=$other NICNUMA_RESTORE=$tmp/other.restore.sh sh "$tmp/xeon-2s-smt.sh" >"$tmp/out" 2>&1
rc=$?
[ "$rc" = 2 ] || bad "xeon script on the vm-virtio host exited $rc, want 2"
grep -q 'refusing: the plan is for 112 CPUs, this host has 4 online' "$tmp/out" || bad "refusal message: $(head -n 2 "$tmp/out")"
[ ! -e "$tmp/other.restore.sh" ] || bad "refused script wrote a restore script"
snapshot "$other" "$tmp/vm-virtio.before" "$tmp/other.after"
cmp -s "$tmp/other.orig" "$tmp/other.after" || bad "refused script changed values"

# An IRQ that is no longer the NIC's (driver reload, reboot) is refused too.
stale=$tmp/vm-stale
cp -a "$tmp/vm-virtio" "$stale"
rm -f "$stale"/sys/devices/pci0000:00/0000:00:03.0/msi_irqs/30
ROOT=$stale NICNUMA_RESTORE=$tmp/stale.restore.sh sh "$tmp/vm-virtio.sh" >"$tmp/out" 2>&1
rc=$?
[ "$rc" = 2 ] || bad "stale IRQ: exited $rc, want 2"
grep -q "IRQ 30 is not one of eth0's MSI vectors" "$tmp/out" || bad "stale IRQ message: $(head -n 2 "$tmp/out")"
[ ! -e "$tmp/stale.restore.sh" ] || bad "stale IRQ: restore script written"

# A value the target cannot take is reported and the exit status is 1.
ro=$tmp/vm-ro
cp -a "$tmp/vm-virtio" "$ro"
rm -f "$ro/proc/irq/31/smp_affinity_list"
mkdir "$ro/proc/irq/31/smp_affinity_list"
ROOT=$ro NICNUMA_RESTORE=$tmp/ro.restore.sh sh "$tmp/vm-virtio.sh" >"$tmp/out" 2>&1
rc=$?
[ "$rc" = 2 ] || bad "unreadable value: exited $rc, want 2 (nothing changed)"
[ ! -e "$tmp/ro.restore.sh" ] || bad "unreadable value: restore script written"

[ "$fail" = 0 ] || exit 1
echo "ok: script on every fixture"
