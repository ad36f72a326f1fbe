#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/security/claims.sh NICNUMA - run-time claims against a user and forged
# records (docs/claims.md, "Trust"):
#  1. a user (setpriv --reuid nobody) cannot claim or release on the live
#     host: exit 2, "only root may claim", and no record appears;
#  2. on a writable vm-virtio tree: forged records (another owner's, mode
#     0644, a hard link, a symlink, a copy under another name, too big, bad
#     JSON) are each ignored with a warning naming the file, claim nothing
#     in the plan, cannot be replaced by `claim`, and `release` removes one;
#     a group-writable claims directory is refused whole;
#  3. hostile input (a huge list, a CPU that does not exist, a list past
#     65535, a bad name, pid 0, a pid that does not exist, a control
#     character in the reason, claims holding every CPU) is refused with
#     exit 2 and a message naming it, and writes nothing.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/security/lib.sh
. "$here/lib.sh"
sec_init claims "${1:-}"
R=$t
n() { "$nn" --root "$R" "$@"; }
recs() { find "$R/run/nicnuma/claims" -name '*.json' 2>/dev/null | sort | tr '\n' ' '; }

# 1. a user on the live host
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	before=$(ls -A /run/nicnuma/claims 2>/dev/null | sort | tr '\n' ' ')
	as_user() { setpriv --reuid nobody --regid nogroup --clear-groups "$@"; }
	out=$(as_user "$nn" claim --cpus 1 --name usertry 2>&1); rc=$?
	[ "$rc" -eq 2 ] && grep -q "only root may claim" <<<"$out" && ok "user claim refused (exit 2)" ||
		bad "user claim: exit $rc: $out"
	out=$(as_user "$nn" release usertry 2>&1); rc=$?
	[ "$rc" -eq 2 ] && grep -q "only root may" <<<"$out" && ok "user release refused (exit 2)" ||
		bad "user release: exit $rc: $out"
	after=$(ls -A /run/nicnuma/claims 2>/dev/null | sort | tr '\n' ' ')
	[ "$before" = "$after" ] && ok "no record appeared" || bad "records changed: $before -> $after"
	if [ -d /run/nicnuma/claims ]; then
		as_user test -r /run/nicnuma/claims/. && as_user ls /run/nicnuma/claims >/dev/null 2>&1 &&
			bad "a user can list /run/nicnuma/claims" || ok "a user cannot list /run/nicnuma/claims"
	fi
else
	echo "note: not root or no setpriv: the user case on the live host is not run" >&2
fi

# 2. forged records on a tree
mkdir -p "$R/run/nicnuma/claims"; chmod 700 "$R/run/nicnuma/claims"
rec() { printf '{"version":1,"name":"%s","cpus":"%s","owner":"claim","reason":null,"pid":-1,"pid_start":null,"container_id":null,"created":1}\n' "$1" "$2"; }
d=$R/run/nicnuma/claims
rec good 3 >"$d/good.json"; chmod 600 "$d/good.json"
rec modes 2 >"$d/modes.json"; chmod 644 "$d/modes.json"
rec owned 2 >"$d/owned.json"; chmod 600 "$d/owned.json"; chown nobody "$d/owned.json" 2>/dev/null
rec linked 2 >"$tmp/linked.json"; chmod 600 "$tmp/linked.json"; ln "$tmp/linked.json" "$d/linked.json"
ln -s /etc/passwd "$d/sym.json"
rec good 2 >"$d/copy.json"; chmod 600 "$d/copy.json"
{ rec big 2; head -c 70000 /dev/zero | tr '\0' ' '; } >"$d/big.json"; chmod 600 "$d/big.json"
echo '{"version":1,' >"$d/badjson.json"; chmod 600 "$d/badjson.json"
out=$(n claims 2>&1); rc=$?
[ "$rc" -eq 1 ] && ok "claims with forged records: exit 1 (warnings)" || bad "claims exit $rc: $out"
for f in modes linked sym copy big badjson; do
	grep -q "$f.json: claim record refused and ignored" <<<"$out" && ok "forged $f.json: warned, ignored" ||
		bad "forged $f.json not warned: $out"
done
if [ "$(id -u)" -eq 0 ]; then
	grep -q "owned.json: claim record refused and ignored: owned by uid" <<<"$out" &&
		ok "another owner's record: warned, ignored" || bad "owned.json: $out"
fi
n --json plan >"$tmp/plan.json" 2>/dev/null
python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["plan"]; sys.exit(0 if p["claimed"]=="3" else 1)' "$tmp/plan.json" &&
	ok "the plan takes only the good record (claimed 3)" || bad "plan claimed: $(grep -o '"claimed": "[^"]*"' "$tmp/plan.json")"
out=$(n claim --cpus 1 --name modes 2>&1); rc=$?
[ "$rc" -eq 2 ] && grep -q "modes.json refused" <<<"$out" && ok "claim does not replace a forged record" ||
	bad "claim over forged: exit $rc: $out"
out=$(n release modes 2>&1); rc=$?
[ ! -e "$d/modes.json" ] && ok "release removes a forged record (exit $rc)" || bad "release left modes.json: $out"
chmod 770 "$d"
out=$(n claims 2>&1)
grep -q "refused, no claim record read" <<<"$out" && ok "a group-writable claims directory is refused" ||
	bad "group-writable dir: $out"
rm -rf "$d"

# 3. hostile input on a clean tree: refused, nothing written
refuse() {
	local want=$1; shift
	local out rc
	out=$(n claim "$@" 2>&1); rc=$?
	if [ "$rc" -eq 2 ] && grep -q -- "$want" <<<"$out" && [ -z "$(recs)" ]; then
		ok "refused: claim $* ($want)"
	else
		bad "claim $*: exit $rc, records [$(recs)]: $out"
	fi
}
refuse "are not online CPUs" --cpus 0-65535 --name huge
refuse "are not online CPUs" --cpus 7 --name nosuch
refuse "expected a CPU list" --cpus 99999999 --name past
refuse "expected a CPU list" --cpus "1,x" --name junk
refuse "bad claim name" --cpus 1 --name ../etc
refuse "bad claim name" --cpus 1 --name "$(printf 'a%.0s' {1..200})"
refuse "not a process id" --cpus 1 --name p0 --pid 0
refuse "no such process" --cpus 1 --name pgone --pid 4194303
refuse "bad reason" --cpus 1 --name r --reason "$(printf 'a\nb')"
refuse "would leave NIC work no CPU" --cpus 0-3 --name all
refuse "are required" --cpus 1
out=$(n claim --cpus 1 --name fine 2>&1); rc=$?
[ "$rc" -eq 0 ] && [ "$(recs)" = "$R/run/nicnuma/claims/fine.json " ] && ok "a good claim is recorded" ||
	bad "good claim: exit $rc [$(recs)]: $out"
out=$(n claim --cpus 2 --name fine 2>&1); rc=$?
[ "$rc" -eq 2 ] && grep -q "fine exists" <<<"$out" && grep -q '"cpus":"1"' "$R/run/nicnuma/claims/fine.json" &&
	ok "a live claim's name is not taken over" || bad "claim over a live name: exit $rc: $out"
exit "$fail"
