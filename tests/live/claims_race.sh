#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/live/claims_race.sh NICNUMA - pruning never removes a live record (suite 'live')
#
# `nicnuma claims` run as root prunes the records whose owner is gone. Beside
# it: `claim --name nnrace-web --pid A`, SIGKILL of A, `claim --name
# nnrace-web --pid B` at once while `claims` runs. The pruner must never
# remove B's fresh record (it judged A's stale): after every round the
# record is there with pid B. NN_RACE_ROUNDS rounds (default 50, about 60 s here; a store
# without the writers' lock lost it in 10 of 187 tries, 2 of 60 here).
# Needs root, no desired state in /etc/nicnuma (claim would re-apply), no
# watcher and no other claims; exits 77 with the reason otherwise.
set -uo pipefail

nn=${1:?usage: claims_race.sh NICNUMA}
[ "$(id -u)" -eq 0 ] || { echo "skip: needs root (pruning is root's)"; exit 77; }
[ "$(nproc)" -ge 2 ] || { echo "skip: one CPU: no claim can be made"; exit 77; }
[ -e /etc/nicnuma/nicnuma.conf ] && { echo "skip: nicnuma is enabled here: a claim would re-apply"; exit 77; }
"$nn" status 2>/dev/null | grep -q '^watcher: pid' && { echo "skip: a nicnuma watch runs"; exit 77; }
"$nn" claims 2>/dev/null | grep -q '^claimed CPUs: none' || { echo "skip: other claims exist"; exit 77; }

rec=/run/nicnuma/claims/nnrace-web.json
a='' b=''
# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
	for p in $a $b; do kill "$p" 2>/dev/null; done
	rm -f "$rec"
}
trap cleanup EXIT
rounds=${NN_RACE_ROUNDS:-50}
lost=0
for i in $(seq "$rounds"); do
	sleep 600 & a=$!
	"$nn" claim --cpus 1 --name nnrace-web --pid "$a" >/dev/null 2>&1 ||
		{ echo "FAIL round $i: the first claim was refused"; exit 1; }
	sleep 600 & b=$!
	kill -9 "$a"
	wait "$a" 2>/dev/null
	"$nn" claims >/dev/null 2>&1 &
	pruner=$!
	"$nn" claim --cpus 1 --name nnrace-web --pid "$b" >/dev/null 2>&1
	rc=$?
	wait "$pruner"
	if [ "$rc" -ne 0 ] || ! grep -q "\"pid\":$b," "$rec" 2>/dev/null; then
		lost=$((lost + 1))
		echo "round $i: claim exit $rc, record: $(cat "$rec" 2>/dev/null || echo gone)"
	fi
	kill "$b"
	wait "$b" 2>/dev/null
	a='' b=''
	rm -f "$rec"
done
if [ "$lost" -eq 0 ]; then
	echo "ok   $rounds rounds of claims (pruning) beside a new claim of a dead owner's name: no record lost"
	exit 0
fi
echo "FAIL $lost of $rounds rounds lost the fresh record or refused it"
exit 1
