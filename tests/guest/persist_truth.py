#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""tests/guest/persist_truth.py - the kernel's side of the persistence checks.

Runs inside the systemd-booted guest (scripts/testhost --init systemd) and
reads /proc and /sys directly, never through nicnuma (truth.py's rule).

  persist_truth.py snap OUT            every IRQ affinity, xps_cpus and per-node
                                       hugepage count, keyed by what survives a
                                       reboot or a driver rebind (IRQ action
                                       names, PCI address + queue), as JSON
  persist_truth.py diff LABEL A B      PASS when B equals A, else FAIL per key
  persist_truth.py bound PCI[,PCI..] NODE SECS LABEL
                                       wait up to SECS for every active queue
                                       IRQ and xps_cpus of the NICs at PCI to lie
                                       on NODE's CPUs; PASS/FAIL with the time
                                       (virtio_net, e1000e and vmxnet3 queue
                                       vectors, by each driver's name format)
  persist_truth.py unbound PCI NODE    exit 0 when some active queue IRQ or xps
                                       is off NODE's CPUs (a disturbance took)
  persist_truth.py disturb PCI[,PCI..] write every active queue IRQ of the NIC
                                       to CPU 0 and its xps_cpus to CPU 0 (what
                                       "someone else" does)
  persist_truth.py hold MB             touch MB MiB and sleep (a layout instance)
  persist_truth.py place LABEL PID NODE
                                       PID's CPUs are NODE's and >= 90% of its
                                       anonymous pages are on NODE
  persist_truth.py hugepages NODE      NODE's 2 MiB hugepage count
  persist_truth.py eventbench KIND PCI NODE N SECS
                                       N events (KIND flap: values rewritten,
                                       link down+up; channels: ethtool -L 2/4
                                       in turn), each timed until every active
                                       queue IRQ and xps is on NODE again (at
                                       most SECS); one JSON line: times in ms,
                                       p50, p99, misses
Exit status 0 unless said otherwise; the caller counts PASS/FAIL lines.
"""
import glob
import json
import os
import re
import sys
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from kernel_lists import cpulist  # noqa: E402 (the tests' one cpulist parser)


def read(path, default=None):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        if default is None:
            raise
        return default


def xps_mask(s):
    """xps_cpus hex mask (comma-separated 32-bit words) -> set of CPUs."""
    v = int(s.replace(',', '') or '0', 16)
    return {i for i in range(v.bit_length()) if v >> i & 1}


def fmt(cpus):
    return ','.join(str(c) for c in sorted(cpus)) or '(none)'


def irq_names():
    """IRQ number -> action name (last column of /proc/interrupts)."""
    names = {}
    with open('/proc/interrupts') as f:
        ncpu = len(f.readline().split())
        for line in f:
            parts = line.split()
            if not parts or not parts[0].rstrip(':').isdigit():
                continue
            rest = parts[1 + ncpu:]
            names[int(parts[0].rstrip(':'))] = rest[-1] if rest else ''
    return names


def netdev_pci(dev):
    """PCI address of a netdev (virtio: the parent of virtioN), else None."""
    p = os.path.realpath('/sys/class/net/%s/device' % dev)
    for c in (p, os.path.dirname(p)):
        if re.match(r'^[0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]$', os.path.basename(c)):
            return os.path.basename(c)
    return None


def pci_netdev(pci):
    for d in glob.glob('/sys/bus/pci/devices/%s/virtio*/net/*' % pci) + \
            glob.glob('/sys/bus/pci/devices/%s/net/*' % pci):
        return os.path.basename(d)
    return None


def snapshot():
    names = irq_names()
    irqs = {}
    seen = {}
    for n, name in names.items():
        seen[name] = seen.get(name, 0) + 1
    for n, name in sorted(names.items()):
        v = read('/proc/irq/%d/smp_affinity_list' % n, '')
        if not v:
            continue
        key = name if name and seen[name] == 1 else 'irq %d' % n
        irqs[key] = v
    xps = {}
    for q in sorted(glob.glob('/sys/class/net/*/queues/tx-*/xps_cpus')):
        dev = q.split('/')[4]
        who = netdev_pci(dev) or dev
        v = read(q, '')
        xps['%s %s' % (who, q.split('/')[6])] = v
    hp = {}
    for f in sorted(glob.glob('/sys/devices/system/node/node*/hugepages/hugepages-*/nr_hugepages')):
        parts = f.split('/')
        hp['%s %s' % (parts[5], parts[7])] = read(f)
    return {'irq': irqs, 'xps': xps, 'hugepages': hp}


def node_cpus(node):
    return cpulist(read('/sys/devices/system/node/node%d/cpulist' % node))


def queue_vector(name, nq):
    """Whether an IRQ action name is an active queue vector, by the driver's
    own format: virtio_net "virtioN-input.Q" / "virtioN-output.Q" (Q below
    the active queue count nq: ethtool -L leaves the other vectors
    requested); e1000e (netdev.c, e1000_request_msix) "ethX-rx-0" /
    "ethX-tx-0"; vmxnet3 (vmxnet3_drv.c, vmxnet3_request_irqs) "ethX-rxtx-N",
    or "ethX-tx-N" / "ethX-rx-N" without buddy sharing. Their other
    vectors (virtioN-config, the bare "ethX", "ethX-event-N") are no queue's."""
    m = re.search(r'-(input|output)\.(\d+)$', name)
    if m:
        return int(m.group(2)) < nq
    return re.search(r'-(rxtx|rx|tx)-\d+$', name) is not None


def queue_state(pci):
    """[(what, cpus)] for each active queue IRQ and tx queue of the NIC."""
    dev = pci_netdev(pci)
    if not dev:
        return None, 'no netdev at %s' % pci
    nq = len(glob.glob('/sys/class/net/%s/queues/rx-*' % dev))
    names = irq_names()
    out = []
    msi = [int(os.path.basename(p)) for p in glob.glob('/sys/bus/pci/devices/%s/msi_irqs/*' % pci)]
    for irq in sorted(msi):
        if queue_vector(names.get(irq, ''), nq):
            out.append(('irq %d (%s)' % (irq, names[irq]),
                        cpulist(read('/proc/irq/%d/smp_affinity_list' % irq, ''))))
    for q in sorted(glob.glob('/sys/class/net/%s/queues/tx-*/xps_cpus' % dev)):
        if nq > 1:
            out.append(('%s %s xps' % (dev, q.split('/')[6]), xps_mask(read(q, '0'))))
    return out, dev


def off_node(pci, node):
    st, dev = queue_state(pci)
    if st is None:
        return [dev]
    want = node_cpus(node)
    bad = ['%s on %s' % (w, fmt(c)) for w, c in st if not c or not c <= want]
    if not any(w.startswith('irq') for w, _ in st):
        bad.append('no queue IRQs found for %s' % dev)
    return bad


def main_disturb(pci):
    st, dev = queue_state(pci)
    for w, _ in st or []:
        if w.startswith('irq '):
            with open('/proc/irq/%s/smp_affinity_list' % w.split()[1], 'w') as f:
                f.write('0')
        else:
            with open('/sys/class/net/%s/queues/%s/xps_cpus' % (dev, w.split()[1]), 'w') as f:
                f.write('1')


def main():
    a = sys.argv[1:]
    cmd = a[0] if a else ''
    if cmd == 'snap':
        with open(a[1], 'w') as f:
            json.dump(snapshot(), f, indent=1, sort_keys=True)
    elif cmd == 'diff':
        label, x, y = a[1], json.load(open(a[2])), json.load(open(a[3]))
        bad = []
        for part in ('irq', 'xps', 'hugepages'):
            for k in sorted(set(x[part]) | set(y[part])):
                if x[part].get(k) != y[part].get(k):
                    bad.append('%s %s: %s before, %s now' % (part, k, x[part].get(k), y[part].get(k)))
        n = sum(len(x[p]) for p in ('irq', 'xps', 'hugepages'))
        if bad:
            for b in bad[:15]:
                print('FAIL %s: %s' % (label, b))
            if len(bad) > 15:
                print('FAIL %s: and %d more differences' % (label, len(bad) - 15))
        else:
            print('PASS %s: %d IRQ affinities, xps_cpus and hugepage counts as before' % (label, n))
    elif cmd == 'bound':
        pcis, node, secs, label = a[1].split(','), int(a[2]), float(a[3]), a[4]
        t0 = time.monotonic()
        while True:
            bad = [('%s: %s' % (p, b) if len(pcis) > 1 else b) for p in pcis for b in off_node(p, node)]
            el = time.monotonic() - t0
            if not bad:
                print('PASS %s: every active queue IRQ and xps on node %d after %.1f s' % (label, node, el))
                return 0
            if el > secs:
                print('FAIL %s: after %.0f s: %s' % (label, secs, '; '.join(bad[:6])))
                return 1
            time.sleep(0.1)
    elif cmd == 'unbound':
        return 0 if off_node(a[1], int(a[2])) else 1
    elif cmd == 'disturb':
        for p in a[1].split(','):
            main_disturb(p)
    elif cmd == 'hold':
        b = bytearray(int(a[1]) << 20)
        for i in range(0, len(b), 4096):
            b[i] = 1
        open('/run/hold-%d' % os.getpid(), 'w').close()
        while True:
            time.sleep(3600)
    elif cmd == 'place':
        label, pid, node = a[1], int(a[2]), int(a[3])
        allowed = cpulist(re.search(r'Cpus_allowed_list:\s*(\S+)', read('/proc/%d/status' % pid)).group(1))
        pages = {}
        for line in read('/proc/%d/numa_maps' % pid).splitlines():
            if 'anon=' not in line:  # shared file pages sit where they were first read
                continue
            for m in re.finditer(r'\bN(\d+)=(\d+)', line):
                pages[int(m.group(1))] = pages.get(int(m.group(1)), 0) + int(m.group(2))
        tot = sum(pages.values()) or 1
        ok_cpu = allowed <= node_cpus(node)
        ok_mem = pages.get(node, 0) / tot >= 0.9
        why = 'CPUs %s, anonymous pages per node %s' % (fmt(allowed), pages)
        print('%s %s: %s' % ('PASS' if ok_cpu and ok_mem else 'FAIL', label, why))
    elif cmd == 'hugepages':
        print(read('/sys/devices/system/node/node%d/hugepages/hugepages-2048kB/nr_hugepages' % int(a[1]), '0'))
    elif cmd == 'eventbench':
        import subprocess
        kind, pci, node, n, secs = a[1], a[2], int(a[3]), int(a[4]), float(a[5])
        times, misses = [], 0
        for i in range(n):
            st, dev = queue_state(pci)
            if kind == 'flap':
                main_disturb(pci)
                t0 = time.monotonic()
                subprocess.run(['ip', '-batch', '-'], input=('link set %s down\nlink set %s up\n' % (dev, dev)).encode())
            else:
                t0 = time.monotonic()
                subprocess.run(['ethtool', '-L', dev, 'combined', '2' if i % 2 == 0 else '4'])
            while off_node(pci, node):
                if time.monotonic() - t0 > secs:
                    misses += 1
                    break
                time.sleep(0.01)
            else:
                times.append((time.monotonic() - t0) * 1000)
            time.sleep(0.5)
        ts = sorted(times)
        pct = lambda q: round(ts[min(len(ts) - 1, int(q * len(ts)))], 1) if ts else None
        print(json.dumps({'kind': kind, 'events': n, 'bound': len(ts), 'misses': misses,
                          'p50_ms': pct(0.5), 'p99_ms': pct(0.99), 'ms': [round(t, 1) for t in times]}))
    else:
        sys.exit(__doc__)
    return 0


if __name__ == '__main__':
    sys.exit(main())
