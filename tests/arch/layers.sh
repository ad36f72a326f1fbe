#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/arch/layers.sh [SRCDIR] - the layers of docs/design.md, by include:
#   core < discover < plan < act < cli     (nicnuma/<layer>/)
#   dpdk-app may include core, discover and plan
# A file may include headers of its own layer and those below, never above;
# no two source folders may include each other. Includes are repo-root paths
# ("nicnuma/core/ctx.h"); a bare "name.h" is the including file's own folder.
# The link is checked too: nicnuma/meson.build links each layer whole against
# only the layers below (layer-check-*), so an upward call fails the build.
set -uo pipefail

src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
[ -d "$src/nicnuma/core" ] || { echo "error: no $src/nicnuma/core" >&2; exit 2; }
cd "$src" || exit 2

# folder -> rank; a folder may include folders of rank <= its own, except
# where max_rank caps it (dpdk-app: up to plan).
declare -A rank=([nicnuma/core]=1 [nicnuma/discover]=2 [nicnuma/plan]=3
		 [nicnuma/act]=4 [nicnuma/cli]=5 [dpdk-app]=5)
declare -A max_rank=([dpdk-app]=3)

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
		# a new folder under nicnuma/ must be given a layer here
		case $file in nicnuma/*/*)
			echo "FAIL: $file: folder has no layer (add it to tests/arch/layers.sh)"
			fail=1;;
		esac
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
done < <(git ls-files -co --exclude-standard -- 'nicnuma/*.[ch]' 'dpdk-app/*.[ch]' 2>/dev/null ||
	 find nicnuma dpdk-app -name '*.[ch]')

for e in "${!edge[@]}"; do
	a=${e%%:*} b=${e#*:}
	if [[ "$a" < "$b" ]] && [ -n "${edge[$b:$a]:-}" ]; then
		echo "FAIL: $a and $b include each other"
		fail=1
	fi
done
[ "$fail" = 0 ] || { echo "see docs/design.md, 'Layers'" >&2; exit 1; }
echo "ok: every include goes down the layers (core < discover < plan < act < cli; dpdk-app <= plan)"
