#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/doc/completion.sh NICNUMA COMPLETION_FILE - bash completion
#
# The completion's table of commands and long options must be exactly what
# the binary's option tables say (`nicnuma --json --help`) (a command in the table that the binary lacks
# fails too, as for the man pages), and completions on a tiny fake root
# (--root) give its NICs, nodes, page sizes and snapshots.
set -uo pipefail
nicnuma=${1:?usage: completion.sh NICNUMA COMPLETION_FILE}
comp=${2:?}
here=$(cd "$(dirname "$0")" && pwd)
fail=0
err() { printf 'FAIL: %s\n' "$*" >&2; fail=1; }
# shellcheck source=/dev/null
. "$comp" || { err "cannot source $comp"; exit 1; }

# the option tables (nicnuma/core/opts.h), as `nicnuma --json --help` dumps them
dump=$("$nicnuma" --json --help) || { err "nicnuma --json --help failed"; exit 1; }
cmds=$(printf '%s\n' "$dump" | python3 "$here/help_opts.py" commands)
for c in $cmds; do
	want=$(printf '%s\n' "$dump" | python3 "$here/help_opts.py" table "$c" | grep -- '^--')
	got=$(_nicnuma_opts "$c" | tr ' ' '\n' | sort)
	[ "$want" = "$got" ] || err "$c: completion options differ from its option table:
$(diff <(echo "$want") <(echo "$got") | grep '^[<>]')"
done
# shellcheck disable=SC2154 # set by the sourced completion
for c in $_nicnuma_commands; do
	grep -qx -- "$c" <<<"$cmds" || err "completion offers '$c', which nicnuma does not have"
done

# a tiny host
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nicnuma-comp.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
r=$tmp/root
mkdir -p "$r"/sys/class/net/{eth0,eth1,ens2f0} "$r"/sys/devices/system/node/node{0,1} \
	"$r"/sys/kernel/mm/hugepages/hugepages-{2048,1048576}kB "$r"/var/lib/nicnuma
touch "$r"/var/lib/nicnuma/{apply-1.json,apply-2.json,lock}

# expect WANT WORDS...: completing the last word gives exactly WANT (sorted)
expect() {
	local want=$1; shift
	COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
	_nicnuma
	local got
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//')
	[ "$got" = "$want" ] || err "'$*': got '$got', want '$want'"
}
unset NICNUMA_ROOT NICNUMA_STATE_DIR
expect "hugepages" nicnuma hug
expect "metrics" nicnuma --json me
expect "--plan --policy" nicnuma metrics --p
expect "--output" nicnuma metrics --plan p.json --o
expect "eth0 eth1" nicnuma --root "$r" plan --nics eth
expect "eth0,ens2f0" nicnuma --root "$r" plan --nics eth0,en
expect "all" nicnuma --root "$r" hugepages reserve --nodes a
expect "0 1 all" nicnuma --root "$r" hugepages reserve --nodes ''
expect "1G 2M" nicnuma --root "$r" hugepages reserve --size ''
expect "1G: 2M:" nicnuma --root "$r" plan --hugepages ''
expect "apply-1.json apply-2.json" nicnuma --root "$r" rollback ''
expect "release reserve" nicnuma hugepages re
expect "local remote spread" nicnuma apply --policy ''
NICNUMA_ROOT=$r expect "ens2f0 eth0 eth1" nicnuma nics ''
[ "$fail" = 0 ] && echo "ok: completion matches the option tables and completes host values"
exit "$fail"
