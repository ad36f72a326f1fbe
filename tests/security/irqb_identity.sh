#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/security/irqb_identity.sh NICNUMA - irqbalance by identity (suite security)
#
# In a private pid+mount namespace (nothing outside it is signalled or
# started; the real irqbalance binary is covered by a harmless stand-in):
#  - a process any user names irqbalance (here uid 65534), and a root one
#    running /tmp/.../irqbalance, survive `apply --irqbalance stop` and `ban`;
#  - rollback of a tampered snapshot never runs the exe it names, and never
#    unlinks the ban-script path it names.
# Needs root, unshare, setpriv, python3; exits 77 (skip) otherwise.
set -uo pipefail

nn=${1:?usage: $0 NICNUMA}
# pid2: this shell is pid 1 of a new pid namespace and forks nothing before
# the subshell below, which so is pid 2, the parent of a root "irqbalance"
# from a temp directory. The scan skips kthreadd's children without a look,
# but pid 2 here is no kthreadd: the impostor must still be found.
if [ "${2-}" = pid2 ]; then
	( "$3/r/irqbalance" 300 & wait ) &
	sleep 0.3
	kids=$(</proc/2/task/2/children)	# "4 ": no newline after the last
	kids=${kids%% *}
	[ -n "$kids" ] || { echo "skip: /proc/2/task/2/children lists nothing (CONFIG_PROC_CHILDREN?)" >&2; exit 77; }
	out=$("$nn" apply --plan "$3/plan.json" --dry-run 2>&1)
	kill $kids 2>/dev/null
	if grep -q "pid $kids, uid 0, exe $3/r/irqbalance) is not the system's irqbalance" <<<"$out"; then
		echo "ok: pid 2 is no kthreadd in a pid namespace: its child irqbalance (pid $kids) is still judged"
		exit 0
	fi
	printf 'FAIL the irqbalance under pid 2 (pid %s) went unseen: %s\n' "$kids" "$out" >&2
	exit 1
fi
if [ "${2-}" != inner ]; then
	[ "$(id -u)" = 0 ] || { echo "skip: needs root (namespaces, setpriv)" >&2; exit 77; }
	for t in unshare setpriv python3 mount; do
		command -v "$t" >/dev/null || { echo "skip: $t is not installed" >&2; exit 77; }
	done
	w=$(mktemp -d "${TMPDIR:-/tmp}/irqb-identity.XXXXXX") || exit 2
	chmod 755 "$w"
	trap 'rm -rf "$w"' EXIT
	unshare -p -m --fork --mount-proc "$0" "$nn" inner "$w"
	rc=$?
	unshare -p -m --fork --mount-proc "$0" "$nn" pid2 "$w" || rc=1
	exit "$rc"
fi

w=$3
fail=0
bad() { printf 'FAIL %s\n' "$*" >&2; fail=1; }
st=$w/state
mkdir -p "$st" "$w/u" "$w/r"
mount --make-rprivate / 2>/dev/null
mount -t tmpfs -o mode=0700 tmpfs "$st" || { echo "skip: cannot mount a tmpfs" >&2; exit 77; }
# Whatever happens, the real irqbalance binary is never started here.
cat >"$w/standin" <<SH
#!/bin/sh
: >"$st/system-irqbalance-started"
exec sleep 30
SH
chmod 755 "$w/standin"
if [ -e /usr/sbin/irqbalance ]; then
	mount --bind "$w/standin" /usr/sbin/irqbalance || { echo "skip: cannot cover /usr/sbin/irqbalance" >&2; exit 77; }
fi
evil=$w/r/evil
printf '#!/bin/sh\n: >%s/evil-ran\n' "$st" >"$evil"
chmod 755 "$evil"

# A user's "irqbalance" and a root one from a temp directory.
cp "$(command -v sleep)" "$w/u/irqbalance"
cp "$(command -v sleep)" "$w/r/irqbalance"
chmod 755 "$w/u/irqbalance" "$w/r/irqbalance"
setpriv --reuid=65534 --regid=65534 --clear-groups "$w/u/irqbalance" 300 &
upid=$!
"$w/r/irqbalance" 300 &
rpid=$!
sleep 0.3

# An empty plan for this host's shape: apply reaches its irqbalance step
# without a single value to write.
"$nn" plan --json >"$w/full.json" 2>/dev/null
python3 - "$w/full.json" "$w/plan.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = d["plan"]
for k in ("irqs", "xps", "channels", "hugepages"):
    if k in p:
        p[k] = []
p["irqbalance"] = {"running": True, "action": "stop"}
json.dump(d, open(sys.argv[2], "w"))
PY
[ -s "$w/plan.json" ] || { echo "skip: no plan for this host" >&2; exit 77; }

for mode in stop ban; do
	"$nn" apply --plan "$w/plan.json" --irqbalance "$mode" --state-dir "$st" >"$w/out.$mode" 2>&1
	kill -0 "$upid" 2>/dev/null || bad "apply --irqbalance $mode stopped uid 65534's irqbalance (pid $upid)"
	kill -0 "$rpid" 2>/dev/null || bad "apply --irqbalance $mode stopped root's /tmp irqbalance (pid $rpid)"
	grep -q "is not the system's irqbalance" "$w/out.$mode" ||
		bad "apply --irqbalance $mode did not report the impostors: $(cat "$w/out.$mode")"
	[ ! -e "$st/irqbalance-ban.sh" ] || bad "apply --irqbalance $mode fenced an impostor"
done

# The generated script's own rules (nicnuma/plan/script_lib.c): the impostors are
# not irqbalance to it either, and its restore script restarts only the
# system binary with irqbalance's options, whatever its lines say.
"$nn" script --plan "$w/plan.json" -o "$w/s.sh" >/dev/null 2>&1	# 1: warnings only
[ -s "$w/s.sh" ] || bad "nicnuma script wrote no script"
sed -n '/^	cat <<.NICNUMA_RESTORE_HEAD.$/,/^NICNUMA_RESTORE_HEAD$/p' "$w/s.sh" | sed '1d;$d' >"$w/head.sh"
# Sourced with no arguments ($0 names it): the restore head refuses any it
# does not know before it defines anything.
pids=$(sh -c '. "$0"; irqb_pids report' "$w/head.sh" 2>"$w/sherr")
[ -z "$pids" ] || bad "the script's irqb_pids took pids $pids for irqbalance"
grep -q "pid $upid, uid 65534" "$w/sherr" || bad "the script did not report uid 65534's irqbalance"
{
	cat "$w/head.sh"
	echo 'ROOT='
	printf "irqb_restart '%s' --foreground '--policyscript=%s'\\n" "$evil" "$evil"
} >"$w/restore.sh"
sh "$w/restore.sh" >"$w/restore.out" 2>&1
sleep 0.3
[ ! -e "$st/evil-ran" ] || bad "the restore script ran $evil"
rm -f "$st/evil-ran"

# Rollback restarts only when no irqbalance runs: end every process of that
# name (all of them ours: this pid namespace holds nothing else).
for d in /proc/[0-9]*; do
	[ "$(cat "$d/comm" 2>/dev/null)" = irqbalance ] && kill "${d##*/}" 2>/dev/null
done
sleep 0.3

# snapshot FILE BEFORE DETAIL: an undo log holding one irqbalance change.
snapshot() {
	printf '{"version":1,"command":"apply","created":"2024-01-01T00:00:00Z","host":null,"changes":[{"kind":"irqbalance","before":"%s","after":"stopped","detail":%s}]}\n' "$2" "$3" >"$1"
}
snapshot "$st/t1.json" running "{\"mode\":\"stop\",\"systemd\":false,\"pid\":4242,\"exe\":\"$evil\",\"argv\":[\"$evil\"],\"env\":[]}"
snapshot "$st/t2.json" running "{\"mode\":\"stop\",\"systemd\":false,\"pid\":4242,\"exe\":\"/usr/sbin/irqbalance\",\"argv\":[\"$evil\"],\"env\":[\"LD_PRELOAD=$evil\"]}"
: >"$w/victim"
snapshot "$st/t3.json" stopped "{\"mode\":\"ban\",\"systemd\":false,\"pid\":4242,\"exe\":null,\"argv\":[\"irqbalance\"],\"env\":[],\"script\":\"$w/victim\"}"
for t in t1 t2 t3; do
	"$nn" rollback --state-dir "$st" "$st/$t.json" >"$w/rb.$t" 2>&1
	sleep 0.3
	[ ! -e "$st/evil-ran" ] || bad "rollback of $t ran $evil: $(cat "$w/rb.$t")"
	rm -f "$st/evil-ran"
done
[ -e "$w/victim" ] || bad "rollback of t3 unlinked the script path its detail named"
grep -q "irqbalance" "$w/rb.t1" || bad "rollback of t1 said nothing about irqbalance"

[ "$fail" = 0 ] && echo "ok: impostors left alone, tampered snapshots run and unlink nothing"
exit "$fail"
