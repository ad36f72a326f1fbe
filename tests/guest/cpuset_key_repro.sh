#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/guest/cpuset_key_repro.sh - not part of the suite: the kernel-only run
# of docs/guest.md ("The 6.12 panic"). scripts/testhost --kernel 6.12
# --append isolcpus=managed_irq,domain,1 run CYC=30 bash tests/guest/cpuset_key_repro.sh
# Kernel-only repro (no nicnuma): cpuset cgroups made and removed while
# forks run on every CPU. Phase KEEP: a keeper cpuset cgroup exists, so the
# cpusets_enabled static key never flips; isolated partitions on CPU 3.
# Phase FLIP: no keeper; each mkdir/rmdir of a plain cpuset cgroup flips
# the key (text_poke of every cpusets_enabled() site).
set -u
cg=/sys/fs/cgroup
mkdir -p $cg; mount -t cgroup2 none $cg 2>/dev/null
echo +cpuset > $cg/cgroup.subtree_control
echo "controllers: $(cat $cg/cgroup.subtree_control); $(uname -r); $(cat /proc/cmdline)"
load() { while :; do /bin/true; done; }
pids=(); for _ in 1 2 3 4; do load & pids+=($!); done
n=${CYC:-50}
mkdir $cg/keep
for ((k = 1; k <= n; k++)); do
  mkdir $cg/p && echo 3 > $cg/p/cpuset.cpus && echo isolated > $cg/p/cpuset.cpus.partition || echo "KEEP $k: write refused"
  [ $k = 1 ] && echo "KEEP partition: $(cat $cg/p/cpuset.cpus.partition), isolated: $(cat $cg/cpuset.cpus.isolated)"
  sleep 0.2; rmdir $cg/p
done
echo "KEEP: $n isolated partitions with a keeper cgroup: alive"
rmdir $cg/keep
for ((k = 1; k <= n; k++)); do
  mkdir $cg/q; sleep 0.1; rmdir $cg/q; sleep 0.1
done
echo "FLIP: $n plain cpuset mkdir/rmdir (static key flips): alive"
kill "${pids[@]}"
