#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/doc/man_help.sh NICNUMA MANDIR [NICNUMA_FWD] - man pages match --help
#
# The option tables in the binary are the truth: every option of every
# command is one row of a C table (nicnuma/core/opts.h), which `nicnuma --json
# --help` dumps. For every command in it, man/nicnuma-CMD.8.scd must exist and
# define exactly the options of the command's table (tests/doc/help_opts.py
# reads both), the page not defining one twice (enable's --irqbalance is its
# own, not the plan's as well); nicnuma.8 against the global options. Each
# --help, generated from the same rows, must show the same options, so a row
# the help generator dropped fails too. And every page must document something that
# exists: a page for a command the binary does not have fails too, so a
# page written ahead of its command (from a contract) shows as a gap until
# the command lands.
set -uo pipefail
nicnuma=${1:?usage: man_help.sh NICNUMA MANDIR [NICNUMA_FWD]}
mandir=${2:?}
fwd=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
opts=$here/help_opts.py
fail=0
err() { printf 'FAIL: %s\n' "$*" >&2; fail=1; }

# compare NAME PAGE WANT [WHAT]: the page defines exactly the options WANT
# (one a line, sorted) names; WHAT says where WANT comes from
compare() {
	local name=$1 page=$2 h=$3 what=${4:-the option table} m
	m=$(python3 "$opts" man "$page")
	[ -n "$h" ] || err "$name: no options in $what"
	local only_help only_man
	only_help=$(comm -23 <(echo "$h") <(echo "$m") | tr '\n' ' ')
	only_man=$(comm -13 <(echo "$h") <(echo "$m") | tr '\n' ' ')
	[ -z "$only_help" ] || err "$name: in $what, not in $(basename "$page"): $only_help"
	[ -z "$only_man" ] || err "$name: in $(basename "$page"), not in $what: $only_man"
}

main_help=$("$nicnuma" --help) || { err "nicnuma --help failed"; exit 1; }
dump=$("$nicnuma" --json --help) || { err "nicnuma --json --help failed"; exit 1; }
cmds=$(printf '%s\n' "$dump" | python3 "$opts" commands)
[ -n "$cmds" ] || { err "no commands in nicnuma --json --help"; exit 1; }
listed=$(printf '%s\n' "$main_help" | awk '/^Commands:/ {on=1; next} on && /^$/ {exit} on {print $1}' | sort)
[ "$listed" = "$cmds" ] || err "nicnuma --help lists other commands than its table: $(echo $listed) / $(echo $cmds)"
table() { printf '%s\n' "$dump" | python3 "$opts" table "$1"; }
compare nicnuma "$mandir/nicnuma.8.scd" "$(table global)"
[ "$(printf '%s\n' "$main_help" | python3 "$opts" help)" = "$(table global)" ] ||
	err "nicnuma --help shows other global options than its table"

for c in $cmds; do
	page=$mandir/nicnuma-$c.8.scd
	[ -f "$page" ] || { err "$c: no man page $page"; continue; }
	help=$("$nicnuma" "$c" --help) || { err "$c --help failed"; continue; }
	# one definition of each option, in --help and in the page
	d=$(printf '%s\n' "$help" | python3 "$opts" dups help | paste -sd' ')
	[ -z "$d" ] || err "$c --help defines more than once: $d"
	d=$(python3 "$opts" dups man "$page" | paste -sd' ')
	[ -z "$d" ] || err "$(basename "$page") defines more than once: $d"
	# options of subcommands and modes with their own --help
	case $c in
	check) help+=$'\n'$("$nicnuma" check --pid --help)$'\n'$("$nicnuma" check --dpdk --help) ;;
	hugepages) for s in show reserve release; do help+=$'\n'$("$nicnuma" hugepages $s --help); done ;;
	esac
	compare "$c" "$page" "$(table "$c")"
	[ "$(printf '%s\n' "$help" | python3 "$opts" help)" = "$(table "$c")" ] ||
		err "$c: its --help texts show other options than its table"
done

# nicnuma(8) lists every command (its Commands block, one a line)
listed=$(awk '/^Commands:/ {on=1; next} on && /^```$/ {n++; if (n == 2) exit; next} on {print $1}' \
	"$mandir/nicnuma.8.scd")
for c in $cmds; do
	grep -qx -- "$c" <<<"$listed" ||
		err "nicnuma.8.scd: command '$c' is not in its Commands list"
	grep -q "\*nicnuma-$c\*(8)" "$mandir/nicnuma.8.scd" || err "nicnuma.8.scd: no SEE ALSO nicnuma-$c(8)"
done

# every page documents something that exists
for page in "$mandir"/nicnuma-*.8.scd; do
	c=$(basename "$page" .8.scd); c=${c#nicnuma-}
	[ "$c" = fwd ] && continue
	grep -qx -- "$c" <<<"$cmds" ||
		err "$(basename "$page"): 'nicnuma $c' does not exist (nicnuma --help lists: ${cmds//$'\n'/ })"
done

# the forwarder's own options (after --); EAL must start to print them
if [ -n "$fwd" ] && [ -x "$fwd" ]; then
	if fhelp=$(timeout 30 "$fwd" --no-huge --no-pci --in-memory --no-telemetry -- --help 2>/dev/null) &&
	   [ -n "$fhelp" ]; then
		compare nicnuma-fwd "$mandir/nicnuma-fwd.8.scd" \
			"$(printf '%s\n' "${fhelp#*Usage: nicnuma-fwd}" | python3 "$opts" help)" "its --help"
	else
		echo "note: nicnuma-fwd --help did not run here (EAL); its page is not checked" >&2
	fi
fi
[ "$fail" = 0 ] && echo "ok: every man page matches its command's option table and --help"
exit "$fail"
