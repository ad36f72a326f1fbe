#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/guest/iommu.sh NAME - ports.sh on its own, in a busybox guest of
# scripts/testhost --iommu (q35, intel-iommu): with the IOMMU on (Debian's
# default) the e1000e is bound to vfio-pci behind it, forwarded on and
# rolled back; booted with intel_iommu=off, the binding is refused naming
# the missing IOMMU. Prints ports.sh's lines and "NAME: N passed, N failed,
# N skipped" last (tests/guest/run.sh counts it).
set -uo pipefail

name=${1:?usage: iommu.sh NAME}
[ "${NN_GUEST:-}" = 1 ] || { echo "iommu.sh: run me inside scripts/testhost --iommu" >&2; exit 2; }
work=$(mktemp -d)
echo "    /proc/cmdline: $(cat /proc/cmdline)"
bash "$(dirname "$0")/ports.sh" "$NN_BUILD/nicnuma/nicnuma" "$work" | tee "$work/results"
p=$(grep -c '^PASS' "$work/results"); f=$(grep -c '^FAIL' "$work/results"); s=$(grep -c '^SKIP' "$work/results")
echo "$name: $p passed, $f failed, $s skipped"
[ "$f" -eq 0 ]
