#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/persist/applied_plan.sh NICNUMA FIXTURE_TAR - issue 41 item 3 on a
# fake root: after an apply without enable, a plain check compares with that
# apply's plan (saved beside its snapshot, root-only), not a fresh default
# one; --fresh re-plans; rollback takes the plan away with the snapshot, so
# the apply before counts again. Nothing live: a copy of a captured tree.
set -uo pipefail
nn=$1 tar=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nn-applied.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
R=$tmp/root; mkdir -p "$R"; tar -xzf "$tar" -C "$R"
n() { "$nn" --root "$R" "$@"; }
plans() { find "$R/var/lib/nicnuma" -name '*.plan' | sort; }

# nothing applied yet: a fresh plan
n check >"$tmp/ck" 2>/dev/null
[ "$(head -n1 "$tmp/ck")" = "plan: fresh (locality rule)" ] || fail "check before any apply: $(head -n1 "$tmp/ck")"

# apply with a reserve other than the default one: its plan is kept, 0600
n apply --reserve 0,3 >"$tmp/out" 2>&1 || fail "apply --reserve 0,3: $(cat "$tmp/out")"
first=$(plans)
[ "$(echo "$first" | grep -c .)" = 1 ] || fail "apply saved no plan, or more than one: $first"
[ "$(stat -c %a "$first")" = 600 ] || fail "plan mode $(stat -c %a "$first")"
rel1=${first#"$R"}
n check >"$tmp/ck" 2>"$tmp/err"; rc=$?
[ $rc = 0 ] && [ "$(head -n1 "$tmp/ck")" = "plan: last apply ($rel1)" ] ||
	fail "check after apply: rc $rc $(head -n3 "$tmp/ck") $(cat "$tmp/err")"
grep -q '0 drifted' "$tmp/ck" || fail "check after apply drifted: $(cat "$tmp/ck")"
n --json check 2>/dev/null | jq -e --arg p "$rel1" '.check.plan_source == "applied" and .check.plan == $p and
	.check.drift_count == 0' >/dev/null || fail "check --json after apply: $(n --json check 2>&1 | head -c 400)"
# --fresh re-plans from the defaults: the reserve differs, so it drifts
n check --fresh >"$tmp/ck" 2>/dev/null; rc=$?
[ $rc = 1 ] && [ "$(head -n1 "$tmp/ck")" = "plan: fresh (locality rule)" ] || fail "check --fresh: rc $rc $(head -n1 "$tmp/ck")"

# a second apply (another reserve): its plan is the one compared with
n apply --reserve 1,2 >"$tmp/out" 2>&1 || fail "apply --reserve 1,2: $(cat "$tmp/out")"
second=$(plans | grep -vxF "$first")
[ -n "$second" ] || fail "the second apply saved no plan"
n check >"$tmp/ck" 2>/dev/null; rc=$?
[ $rc = 0 ] && [ "$(head -n1 "$tmp/ck")" = "plan: last apply (${second#"$R"})" ] || fail "check after the second apply: rc $rc $(head -n1 "$tmp/ck")"

# rollback of the second: its plan goes, the first one's counts again
n rollback >"$tmp/out" 2>&1 || fail "rollback: $(cat "$tmp/out")"
[ ! -e "$second" ] || fail "rollback left the rolled-back apply's plan"
n check >"$tmp/ck" 2>/dev/null; rc=$?
[ $rc = 0 ] && [ "$(head -n1 "$tmp/ck")" = "plan: last apply ($rel1)" ] || fail "check after one rollback: rc $rc $(head -n1 "$tmp/ck")"
# rollback of the first: back to a fresh plan
n rollback >"$tmp/out" 2>&1 || fail "second rollback: $(cat "$tmp/out")"
[ -z "$(plans)" ] || fail "plans left after rolling back every apply: $(plans)"
n check >"$tmp/ck" 2>/dev/null
[ "$(head -n1 "$tmp/ck")" = "plan: fresh (locality rule)" ] || fail "check after every rollback: $(head -n1 "$tmp/ck")"

# a plan someone else may write is not trusted: warned, a fresh plan
n apply --reserve 0,3 >/dev/null 2>&1 || fail "apply again"
p=$(plans)
chmod 0666 "$p"
n check >"$tmp/ck" 2>"$tmp/err"; rc=$?
[ $rc = 1 ] && [ "$(head -n1 "$tmp/ck")" = "plan: fresh (locality rule)" ] && grep -q "last apply's plan cannot be read" "$tmp/err" ||
	fail "check with a group/world-writable plan: rc $rc $(head -n1 "$tmp/ck") $(cat "$tmp/err")"
echo "ok: check compares with the last apply's plan; --fresh re-plans; rollback takes it away"
