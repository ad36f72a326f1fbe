#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/arch/layers.sh [SRCDIR] - the layers of docs/design.md, by include:
#   nicnuma/core < nicnuma/state < irq, hugepages, boot, ports < nicnuma/discover
#     < nicnuma/obs, nicnuma/telemetry < nicnuma/plan < nicnuma/emit < nicnuma/act
#     < nicnuma/service < nicnuma/cli
#   dpdk-app may include core, state, irq, hugepages, boot, ports, discover, obs,
#   telemetry and plan
# A file may include headers of its own folder and of lower ranks, never
# above; two folders of one rank (irq, hugepages, boot, ports) may not include each other,
# nor may any two folders include each other. Every top-level folder with C
# sources (tests/ aside) and every folder under nicnuma/ needs a rank here.
# Includes are repo-root paths ("nicnuma/core/ctx.h", "irq/affinity.h"); a
# bare "name.h" is the including file's own folder.
# The link is checked too: nicnuma/meson.build links each layer whole against
# only the layers below (layer-check-*), so an upward call fails the build.
set -uo pipefail

src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
[ -d "$src/nicnuma/core" ] || { echo "error: no $src/nicnuma/core" >&2; exit 2; }
cd "$src" || exit 2

# folder -> rank; a folder may include folders of rank <= its own, except
# where max_rank caps it (dpdk-app: up to plan). obs (the packet-work
# sampler) and telemetry (the DPDK telemetry client) share a rank: neither
# uses the other. emit (files and processes made for others) sits under act
# (apply --verify observes through it); the service (watcher, claims, hook,
# enable/disable) sits over act, so a transaction never calls it.
declare -A rank=([nicnuma/core]=1 [nicnuma/state]=2 [irq]=3 [hugepages]=3 [boot]=3 [ports]=3
		 [nicnuma/discover]=4 [nicnuma/obs]=5 [nicnuma/telemetry]=5
		 [nicnuma/plan]=6 [nicnuma/emit]=7 [nicnuma/act]=8 [nicnuma/service]=9
		 [nicnuma/cli]=10 [dpdk-app]=10)
declare -A max_rank=([dpdk-app]=6)

folder_of() {	# the source folder of a repo path, "" when it is none
	local f
	for f in "${!rank[@]}"; do
		case $1 in "$f"/*) echo "$f"; return;; esac
	done
}

fail=0
declare -A edge=()
while IFS= read -r file; do
	from=$(folder_of "$file")
	if [ -z "$from" ]; then
		# a new folder under nicnuma/, or a new top-level source folder,
		# must be given a layer here (tests/ holds the tests, no layer;
		# nicnuma/layer_check.c is the layer-check main, in no layer)
		case $file in
		nicnuma/*/*) unranked=1 ;;
		tests/* | nicnuma/*) unranked=0 ;;
		*/*) unranked=1 ;;
		*) unranked=0 ;;
		esac
		if [ "$unranked" = 1 ]; then
			echo "FAIL: $file: folder has no layer (add it to tests/arch/layers.sh)"
			fail=1
		fi
		continue
	fi
	cap=${max_rank[$from]:-${rank[$from]}}
	while IFS= read -r inc; do
		case $inc in */*) target=$inc ;; *) target=$(dirname "$file")/$inc ;; esac
		to=$(folder_of "$target")
		[ -n "$to" ] || continue	# generated (nn_version.h) or outside the layers
		[ "$to" = "$from" ] && continue
		edge[$from:$to]=1
		if [ "${rank[$to]}" -gt "$cap" ] || [ "${rank[$to]}" = "${rank[$from]}" ]; then
			echo "FAIL: $file includes \"$inc\": $from may not depend on $to"
			fail=1
		fi
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file")
done < <(git ls-files -co --exclude-standard -- '*.[ch]' 2>/dev/null ||
	 find . -name '*.[ch]' -not -path './build*' | sed 's,^\./,,')

for e in "${!edge[@]}"; do
	a=${e%%:*} b=${e#*:}
	if [[ "$a" < "$b" ]] && [ -n "${edge[$b:$a]:-}" ]; then
		echo "FAIL: $a and $b include each other"
		fail=1
	fi
done
[ "$fail" = 0 ] || { echo "see docs/design.md, 'Layers'" >&2; exit 1; }
echo "ok: every include goes down the layers (core < state < irq, hugepages < discover < obs, telemetry < plan < emit < act < service < cli; dpdk-app <= plan)"
