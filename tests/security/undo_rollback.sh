#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/security/undo_rollback.sh NICNUMA MKHOST - a snapshot is data rollback
# acts on as root: one it cannot trust stops it, naming the file and why.
#
# Fake roots (mkhost.py vm-virtio, --state-dir /var/lib/nicnuma inside it):
#   a "file" change naming /etc/victim, or a ".." path: exit 2, file intact;
#   the newest snapshot a symlink, a FIFO (no hang), over 16 MiB, group-writable,
#   hard-linked: exit 2 naming it, the older snapshot NOT replayed instead;
#   rollback of a snapshot given by path marks that file, not the state dir's;
#   a lock file hard-linked to another file: refused, that file not truncated;
#   a state dir whose path leads through a symlink out of the root: nothing
#   is created outside; a plan naming one IRQ twice logs it once.
# Live root, inside private namespaces (unshare -m -n -p; a private tmpfs
# holds the state dir; nothing of the host is touched):
#   "irqbalance" with exe/argv/env: nothing is run; "mount" of a tmpfs: not
#   unmounted; "channels" of a veth the snapshot's host does not list: refused;
#   a ".." file path on the live root: refused.
# Exit 77 (skip) when not root or a tool is missing, saying which.
set -uo pipefail

nn=${1:?usage: undo_rollback.sh NICNUMA MKHOST}
mkhost=${2:?usage: undo_rollback.sh NICNUMA MKHOST}
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root (snapshots are trusted only when root owns them)"; exit 77; }
command -v python3 >/dev/null || { echo "skip: python3 builds the trees"; exit 77; }
nn=$(realpath "$nn")

tmp=$(mktemp -d /tmp/undo-sec.XXXXXX) || exit 2
chmod 0700 "$tmp"
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { printf 'ok   %s\n' "$*"; }
bad() { printf 'FAIL %s\n' "$*" >&2; fail=1; }

# expect STATUS DESCRIPTION CMD...: stdout in $tmp/out, stderr in $tmp/err.
expect() {
	local want=$1 what=$2 rc
	shift 2
	timeout 30 "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq "$want" ]; then ok "$what (exit $rc)"; else
		bad "$what: exit $rc, expected $want"; sed 's/^/    /' "$tmp/err" >&2; fi
}
err_has() { if grep -q -- "$1" "$tmp/err"; then ok "  says: $1"; else bad "  stderr lacks '$1'"; sed 's/^/    /' "$tmp/err" >&2; fi; }

t=$tmp/root
python3 "$mkhost" build vm-virtio "$t" >/dev/null || { bad "mkhost.py build"; exit 1; }
sd=$t/var/lib/nicnuma
mkdir -p "$sd" && chmod 0700 "$sd"
irqf=$t/proc/irq/27/smp_affinity_list
old=20990101T000000.000000000Z-apply.json
new=20990101T000001.000000000Z-apply.json
good_log() {	# an honest log that puts IRQ 27 back to 0-3
	printf '{"version":1,"command":"apply","changes":[{"kind":"file","path":"/proc/irq/27/smp_affinity_list","before":"0-3","after":"0"}]}\n' >"$1"
	chmod 0600 "$1"
}
rollback=("$nn" --root "$t" rollback --state-dir /var/lib/nicnuma)	# timeout runs it: no function
reset() { rm -rf "$sd" && mkdir -p "$sd" && chmod 0700 "$sd" && echo 0 >"$irqf"; }

# 1. a "file" change writing anywhere
mkdir -p "$t/etc" && echo precious >"$t/etc/victim"
for p in /etc/victim /proc/irq/27/../../../etc/victim; do
	reset
	printf '{"version":1,"changes":[{"kind":"file","path":"%s","before":"owned"}]}\n' "$p" >"$sd/$new"
	chmod 0600 "$sd/$new"
	expect 2 "file change naming $p refused" "${rollback[@]}"
	err_has "$new"
	err_has "not a value nicnuma writes"
	[ "$(cat "$t/etc/victim")" = precious ] && ok "  /etc/victim intact" || bad "  /etc/victim rewritten"
done

# 2. an unusable newest snapshot is never skipped for an older one
newest_case() {	# DESCRIPTION REASON: $sd/$new prepared by the caller
	expect 2 "newest snapshot $1: refused" "${rollback[@]}"
	err_has "$new"
	err_has "$2"
	[ "$(cat "$irqf")" = 0 ] && ok "  the older snapshot was not replayed" || bad "  older snapshot replayed instead"
}
reset; good_log "$sd/$old"; ln -s "$sd/$old" "$sd/$new"
newest_case "a symlink" "symbolic link"
reset; good_log "$sd/$old"; mkfifo -m 0600 "$sd/$new"
newest_case "a FIFO" "not a regular file"
reset; good_log "$sd/$old"; truncate -s $((16 * 1024 * 1024 + 1)) "$sd/$new"; chmod 0600 "$sd/$new"
newest_case "over 16 MiB" "more than the 16 MiB"
reset; good_log "$sd/$old"; good_log "$sd/$new"; chmod 0660 "$sd/$new"
newest_case "group-writable" "group- or world-writable"
reset; good_log "$sd/$old"; good_log "$sd/$new"; ln "$sd/$new" "$t/extra-link"
newest_case "with two links" "one link"
rm -f "$t/extra-link"

# 3. a snapshot given by path: that file is marked, the state dir's is not
reset; good_log "$sd/$new"; mkdir -p "$t/elsewhere" && chmod 0700 "$t/elsewhere"; good_log "$t/elsewhere/$new"
expect 0 "rollback of a snapshot given by path" "${rollback[@]}" "/elsewhere/$new"
grep -q rolled_back "$t/elsewhere/$new" && ok "  that file marked" || bad "  given file not marked"
grep -q rolled_back "$sd/$new" && bad "  the state dir's same-named snapshot was overwritten" || ok "  state dir's snapshot untouched"

# 4. the lock file: a hard link to another file is refused, not truncated
reset; ln "$t/etc/victim" "$sd/lock"
expect 2 "hard-linked lock file refused" "${rollback[@]}"
[ "$(cat "$t/etc/victim")" = precious ] && ok "  linked file not truncated" || bad "  linked file truncated"
rm -f "$sd/lock"

# 5. the state dir is made inside the root: a symlink out of it is not followed
out=$tmp/outside; mkdir -p "$out"
ln -s "$out" "$t/escape"
"$nn" --root "$t" plan --json >"$tmp/plan.json" 2>/dev/null
expect 2 "state dir through a symlink out of the root refused" \
	"$nn" --root "$t" apply --plan "$tmp/plan.json" --state-dir /escape/nicnuma
[ -e "$out/nicnuma" ] && bad "  created $out/nicnuma outside the root" || ok "  nothing created outside the root"

# 6. a plan naming one IRQ twice: the snapshot has it once
reset
python3 - "$tmp/plan.json" "$tmp/dup.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["plan"]["irqs"] = d["plan"]["irqs"] + d["plan"]["irqs"]
json.dump(d, open(sys.argv[2], "w"))
EOF
"$nn" --root "$t" apply --plan "$tmp/dup.json" --state-dir /var/lib/nicnuma >"$tmp/out" 2>"$tmp/err"
snap=$(find "$sd" -name '*-apply.json' | head -1)
if [ -n "$snap" ] && python3 - "$snap" <<'EOF'
import json, sys, collections
c = collections.Counter(x["path"] for x in json.load(open(sys.argv[1]))["changes"])
sys.exit(0 if c and max(c.values()) == 1 else 1)
EOF
then ok "duplicate plan entries logged once"; else bad "duplicate plan entries logged twice (or no snapshot)"; cat "$tmp/err" >&2; fi
expect 0 "and that snapshot rolls back" "${rollback[@]}"

# 7. live root, in private namespaces
if ! command -v unshare >/dev/null || ! unshare -m -n -p --fork --mount-proc true 2>/dev/null; then
	echo "skip (live cases): no private namespaces here"
else
	cat >"$tmp/live.sh" <<'EOF'
#!/usr/bin/env bash
# Runs inside unshare -m -n -p: a private tmpfs holds the state dir.
set -uo pipefail
nn=$1 tmp=$2
mount --make-rprivate /
sd=$tmp/state
mkdir -p "$sd" && mount -t tmpfs -o mode=0700 nicnuma-test "$sd" || exit 3
n=20990101T000001.000000000Z-apply.json
run() {	# LOG: writes it, runs rollback on the live root, prints rc
	printf '%s\n' "$1" >"$sd/$n"; chmod 0600 "$sd/$n"
	"$nn" rollback --state-dir "$sd" >"$tmp/live.out" 2>"$tmp/live.err"
	echo "rc=$?"; cat "$tmp/live.err"; rm -f "$sd"/*.json
}
echo "== irqbalance"
run "{\"version\":1,\"changes\":[{\"kind\":\"irqbalance\",\"path\":\"irqbalance\",\"before\":\"running\",\"after\":\"stopped\",\"detail\":{\"mode\":\"stop\",\"systemd\":false,\"exe\":\"/bin/sh\",\"argv\":[\"/bin/sh\",\"-c\",\"touch $tmp/pwned\"],\"env\":[\"LD_PRELOAD=$tmp/none.so\"],\"script\":\"$tmp/victim\"}}]}"
sleep 1
[ -e "$tmp/pwned" ] && echo "PWNED" ; [ -e "$tmp/victim" ] || echo "UNLINKED"
echo "== mount"
mkdir -p "$tmp/mnt" && mount -t tmpfs none "$tmp/mnt" && touch "$tmp/mnt/inside"
run "{\"version\":1,\"changes\":[{\"kind\":\"mount\",\"path\":\"$tmp/mnt\",\"after\":\"hugetlbfs\"}]}"
[ -e "$tmp/mnt/inside" ] || echo "UNMOUNTED"
echo "== channels"
ip link add nnveth0 type veth peer name nnveth1 2>/dev/null
run '{"version":1,"host":{"nics":["eth0"]},"changes":[{"kind":"channels","path":"nnveth0","before":"1","after":"2"}]}'
echo "== dotdot"
run '{"version":1,"changes":[{"kind":"file","path":"/proc/irq/0/../../../etc/nicnuma-undo-victim","before":"x"}]}'
EOF
	touch "$tmp/victim"
	unshare -m -n -p --fork --mount-proc bash "$tmp/live.sh" "$nn" "$tmp" >"$tmp/live" 2>&1
	for k in irqbalance mount channels dotdot; do
		sec=$(sed -n "/^== $k/,/^== /p" "$tmp/live")
		if grep -q '^rc=2' <<<"$sec" && grep -q 'cannot use snapshot' <<<"$sec"; then
			ok "live $k change refused (exit 2)"
		else bad "live $k change not refused:"; sed 's/^/    /' <<<"$sec" >&2; fi
	done
	grep -q PWNED "$tmp/live" && bad "irqbalance detail ran a program" || ok "no program run from the snapshot"
	grep -q UNLINKED "$tmp/live" && bad "irqbalance detail's script path unlinked" || ok "no path unlinked from the snapshot"
	grep -q UNMOUNTED "$tmp/live" && bad "a tmpfs was unmounted" || ok "the tmpfs stays mounted"
fi
exit $fail
