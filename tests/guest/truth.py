#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""tests/guest/truth.py - compare nicnuma's JSON with what the guest kernel says.

Runs inside the QEMU guest (scripts/testhost). Each subcommand reads one JSON
document that nicnuma printed and checks it against /sys and /proc read here,
directly, never through nicnuma. It prints one line per check:
  PASS name
  FAIL name: what differs
and exits 0 (the caller counts the lines).

  truth.py topo FILE                 nodes, CPUs, distances, hypervisor flag
  truth.py nics FILE                 the NIC on NN_GUEST_NIC_NODE, node 0, root bus
  truth.py same A B                  two topo/nics documents describe one host
  truth.py plan FILE [PCI]           queue IRQs of the local NIC (or PCI) on its
                                     node's CPUs; with PCI also every vector the
                                     driver names a queue vector (roles below)
  truth.py roles FILE PCI...         each NIC's IRQs as its driver names them
                                     (e1000e, vmxnet3, virtio_net formats) vs
                                     nicnuma's queue / dir, none left unknown
  truth.py isolated PLAN [TOPO|kernel]  nothing planned on the kernel's isolated
                                     CPUs, the plan's and topo's lists = the kernel's
                                     (kernel: only the kernel's side, and a note)
  truth.py queue-irq PCI             the first IRQ its driver names a queue vector
  truth.py genl FILE PCI...          queue -> NAPI -> IRQ from the kernel's
                                     netdev netlink family vs nics --json
  truth.py applied PLAN [SNAP]       /proc/irq readback equals the plan; an
                                     effective affinity still as in SNAP is a
                                     move pending until the IRQ next fires
  truth.py snap OUT                  every IRQ affinity and xps_cpus, as JSON
  truth.py unchanged SNAP            the live values equal a snap
"""
import glob
import json
import os
import re
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from kernel_lists import cpulist  # noqa: E402 (the tests' one cpulist parser)

# TRUTH_ROOT: read a captured tree instead of the live kernel (to try the
# checks on a fixture); empty inside the guest.
R = os.environ.get('TRUTH_ROOT', '')


def read(path):
    with open(path) as f:
        return f.read().strip()


def fmt(cpus):
    return ','.join(str(c) for c in sorted(cpus)) or '(none)'


class Report:
    """TRUTH_LABEL replaces the check names' prefix, so one comparison can
    serve several steps (rollback, dry run, after an irqbalance pass)."""

    def __init__(self):
        self.label = os.environ.get('TRUTH_LABEL')

    def check(self, name, ok, why=''):
        if self.label and ':' in name:
            name = self.label + ':' + name.split(':', 1)[1]
        print(f'PASS {name}' if ok else f'FAIL {name}: {why}', flush=True)

    def skip(self, name, why):
        print(f'SKIP {name}: {why}', flush=True)

    def eq(self, name, got, want):
        self.check(name, got == want, f'nicnuma says {got!r}, the kernel says {want!r}')


def nodes():
    ids = [int(os.path.basename(p)[4:]) for p in glob.glob(R + '/sys/devices/system/node/node[0-9]*')]
    return sorted(ids)


def node_cpus(n):
    return cpulist(read(R + f'/sys/devices/system/node/node{n}/cpulist'))


def pci_node(addr):
    return int(read(R + f'/sys/bus/pci/devices/{addr}/numa_node'))


def pci_netdev(addr):
    nets = glob.glob(R + f'/sys/bus/pci/devices/{addr}/virtio*/net/*') + \
        glob.glob(R + f'/sys/bus/pci/devices/{addr}/net/*')
    if nets:
        return os.path.basename(nets[0])
    # A capture keeps /sys/class/net links but not /sys/bus/pci.
    for n in glob.glob(R + '/sys/class/net/*'):
        if f'/{addr}/' in os.path.realpath(n):
            return os.path.basename(n)
    return None


def msi_irqs(addr):
    found = glob.glob(R + f'/sys/bus/pci/devices/{addr}/msi_irqs/*')
    if not found:  # a capture: reach the PCI function through the netdev
        dev = glob.glob(R + f'/sys/class/net/{pci_netdev(addr)}/device')
        if dev:
            fn = os.path.dirname(os.path.realpath(dev[0]))
            found = glob.glob(fn + '/msi_irqs/*')
    return sorted(int(os.path.basename(p)) for p in found)


def irq_names():
    """IRQ number -> action name (the last column of /proc/interrupts)."""
    out = {}
    with open(R + '/proc/interrupts') as f:
        for line in f:
            head, _, rest = line.partition(':')
            if not head.strip().isdigit():
                continue
            words = rest.split()
            out[int(head)] = words[-1] if words else ''
    return out


def pci_driver(addr):
    link = R + f'/sys/bus/pci/devices/{addr}/driver'
    return os.path.basename(os.readlink(link)) if os.path.islink(link) else None


def driver_roles(addr):
    """{irq: (role, queue)} from the driver's own IRQ name formats, read here
    independently of nicnuma: role 'rx', 'tx', 'rxtx' or 'misc' (queue None).
    e1000e (netdev.c, e1000_request_msix): "%.14s-rx-0", "%.14s-tx-0" and the
    bare netdev name for the other causes. vmxnet3 (vmxnet3_drv.c,
    vmxnet3_request_irqs): buddy sharing "%s-rxtx-%d" with the vector number,
    rx queue i on vector i; without it "%s-tx-%d" (vectors 0..ntx-1) then
    "%s-rx-%d" (vectors ntx..); "%s-event-%d" last. virtio_net:
    "virtioN-input.Q", "virtioN-output.Q", "virtioN-config"."""
    drv, names = pci_driver(addr), irq_names()
    irqs = [i for i in msi_irqs(addr) if i in names]
    ntx = sum(1 for i in irqs if re.search(r'-tx-\d+$', names[i]))
    roles = {}
    for i in irqs:
        n = names[i]
        m = None
        if drv == 'e1000e':
            m = re.search(r'-(rx|tx)-(\d+)$', n)
            roles[i] = (m.group(1), int(m.group(2))) if m else ('misc', None)
        elif drv == 'vmxnet3':
            m = re.search(r'-(rxtx|rx|tx)-(\d+)$', n)
            if not m:
                roles[i] = ('misc', None)
            elif m.group(1) == 'rx':
                roles[i] = ('rx', int(m.group(2)) - ntx)
            else:
                roles[i] = (m.group(1), int(m.group(2)))
        elif drv == 'virtio_net' or drv == 'virtio-pci':
            m = re.search(r'-(input|output)\.(\d+)$', n)
            roles[i] = ({'input': 'rx', 'output': 'tx'}[m.group(1)], int(m.group(2))) if m else ('misc', None)
        else:
            roles[i] = ('unknown driver ' + str(drv), None)
    return roles


def irq_affinity(irq):
    return cpulist(read(R + f'/proc/irq/{irq}/smp_affinity_list'))


def irq_effective(irq):
    return cpulist(read(R + f'/proc/irq/{irq}/effective_affinity_list'))


def load(path):
    with open(path) as f:
        return json.load(f)


def env(name):
    v = os.environ.get(name)
    if not v:
        sys.exit(f'truth.py: {name} unset (run inside scripts/testhost)')
    return v


def do_topo(r, path):
    d = load(path)
    want = nodes()
    got = [n['id'] for n in d.get('nodes', [])]
    r.eq('topo: node ids', got, want)
    for n in d.get('nodes', []):
        i = n['id']
        if i not in want:
            continue
        r.eq(f'topo: node {i} cpus', cpulist(n.get('cpus') or ''), node_cpus(i))
        row = [int(x) for x in read(R + f'/sys/devices/system/node/node{i}/distance').split()]
        r.eq(f'topo: node {i} distances', n.get('distances'), row)
    online = cpulist(read(R + '/sys/devices/system/cpu/online'))
    r.eq('topo: online cpus', cpulist(d.get('online', '')), online)
    wrong = []
    for c in d.get('cpus', []):
        kn = cpu_node(c['id'])
        if c.get('node') != kn:
            wrong.append(f"cpu{c['id']}: {c.get('node')} vs {kn}")
        pkg = int(read(R + f"/sys/devices/system/cpu/cpu{c['id']}/topology/physical_package_id"))
        if c.get('package') != pkg:
            wrong.append(f"cpu{c['id']} package {c.get('package')} vs {pkg}")
    r.check('topo: every cpu on its kernel node and package', not wrong and len(d.get('cpus', [])) == len(online),
            '; '.join(wrong) or f"{len(d.get('cpus', []))} cpus listed, {len(online)} online")
    hv = 'hypervisor' in read(R + '/proc/cpuinfo').split('flags', 1)[1].split('\n', 1)[0]
    knob = d.get('knobs', {}).get('hypervisor', {}).get('value')
    r.eq('topo: hypervisor flag (nodes are emulated)', knob, hv)


def nic_by_pci(d, addr):
    for n in d.get('nics', []):
        if n.get('pci') == addr:
            return n
    return None


def do_isolated(r, path, topo=None):
    """The planner keeps every planned IRQ and XPS mask off the CPUs the
    kernel isolated (isolcpus= / nohz_full=); "kernel" only checks (and
    reports) the kernel's side: for a nicnuma that does not read them yet;
    a topo --json document: its isolation.cpus and the plan's "isolated"
    are the kernel's."""
    iso = cpulist(read(R + '/sys/devices/system/cpu/isolated'))
    cmd = read(R + '/proc/cmdline')
    r.check(f'isolcpus: the kernel isolated CPUs {fmt(iso)} ({[w for w in cmd.split() if "isolcpus" in w]})',
            bool(iso), 'nothing in /sys/devices/system/cpu/isolated')
    if topo == 'kernel':
        irqs, _ = plan_irqs(load(path))
        on = sorted(i['irq'] for i in irqs if cpulist(i.get('cpus') or '') & iso)
        print(f'    isolcpus: this nicnuma plans {len(on)} IRQs onto isolated CPUs {fmt(iso)}: {on}', flush=True)
        return
    irqs, xps = plan_irqs(load(path))
    p = load(path).get('plan', load(path))
    on = [f"irq {i['irq']} ({i.get('nic')}) -> {i.get('cpus')}" for i in irqs
          if cpulist(i.get('cpus') or '') & iso]
    r.check(f'isolcpus: no IRQ planned on isolated CPUs {fmt(iso)} ({len(irqs)} planned)', irqs and not on,
            '; '.join(on) or 'nothing planned')
    onx = [f"{x.get('nic')} tx-{x.get('queue')} -> {x.get('cpus')}" for x in xps
           if cpulist(x.get('cpus') or '') & iso]
    r.check('isolcpus: no XPS mask on isolated CPUs', not onx, '; '.join(onx))
    hk = cpulist(p.get('housekeeping') or '')
    r.check(f'isolcpus: housekeeping {fmt(hk)} avoids isolated CPUs', not hk & iso, fmt(hk & iso))
    r.eq(f'isolcpus: the plan says it left out {fmt(iso)} ("isolated")', cpulist(p.get('isolated') or ''), iso)
    if topo:
        t = load(topo).get('isolation') or {}
        r.eq('isolcpus: topo --json isolation.cpus = /sys/devices/system/cpu/isolated',
             cpulist(t.get('cpus') or ''), iso)


def do_nics(r, path):
    d = load(path)
    local, node0, root = env('NN_GUEST_NIC_LOCAL'), env('NN_GUEST_NIC_NODE0'), env('NN_GUEST_NIC_ROOT')
    want_node = int(env('NN_GUEST_NIC_NODE'))
    # The guest itself must be what testhost promises, or every other check is moot.
    r.eq(f'guest: {local} on node {want_node}', pci_node(local), want_node)
    r.eq(f'guest: {root} numa_node -1', pci_node(root), -1)
    for addr, node in ((local, want_node), (node0, 0)):
        n = nic_by_pci(d, addr)
        if n is None:
            r.check(f'nics: {addr} listed', False, f'no NIC with pci {addr}')
            continue
        r.eq(f'nics: {addr} name', n.get('name'), pci_netdev(addr))
        r.eq(f'nics: {addr} numa_node', n.get('numa_node'), pci_node(addr))
        r.eq(f'nics: {addr} local cpus = node {node} cpus', cpulist(n.get('local_cpus') or ''), node_cpus(node))
        irqs = n.get('irqs', [])
        r.eq(f'nics: {addr} irqs = msi_irqs', sorted(i['irq'] for i in irqs), msi_irqs(addr))
        nq = len(glob.glob(R + f'/sys/class/net/{pci_netdev(addr)}/queues/rx-*'))
        r.eq(f'nics: {addr} rx queues', n.get('rx_queues'), nq)
        queues = sorted(i['queue'] for i in irqs if i.get('queue') is not None and i.get('dir') == 'rx')
        r.eq(f'nics: {addr} rx queue irqs 0..{nq - 1}', queues, list(range(nq)))
        bad = [f"{i['irq']}: {i.get('affinity')} vs {fmt(irq_affinity(i['irq']))}"
               for i in irqs if cpulist(i.get('affinity') or '') != irq_affinity(i['irq'])]
        r.check(f'nics: {addr} irq affinities = /proc/irq', not bad, '; '.join(bad))
    n = nic_by_pci(d, root)
    if n is None:
        r.check(f'nics: {root} listed', False, f'no NIC with pci {root}')
    else:
        r.check('nics: root-bus NIC has unknown node (null)', n.get('numa_node') in (None, -1),
                f"numa_node {n.get('numa_node')!r}")
        r.check('nics: root-bus NIC locality unknown', n.get('locality_known') is not True,
                f"locality_known {n.get('locality_known')!r}")


def project(d):
    """The parts of topo/nics that stay put between a capture and a live run."""
    p = {}
    if 'nodes' in d:
        p['nodes'] = [(n['id'], n.get('cpus'), n.get('distances')) for n in d['nodes']]
        p['cpus'] = [(c['id'], c.get('node'), c.get('package'), c.get('core')) for c in d.get('cpus', [])]
    if 'nics' in d:
        p['nics'] = [(n.get('name'), n.get('pci'), n.get('numa_node'), n.get('local_cpus'),
                      [(i['irq'], i.get('name'), i.get('queue')) for i in n.get('irqs', [])])
                     for n in d['nics']]
    return p


def do_same(r, a, b):
    pa, pb = project(load(a)), project(load(b))
    r.check(f'capture: replay of {os.path.basename(b)} = live', pa == pb and pa != {},
            f'live {json.dumps(pa)[:300]} vs replay {json.dumps(pb)[:300]}')


def plan_irqs(d):
    p = d.get('plan', d)
    return p.get('irqs', []), p.get('xps', [])


def cpu_node(cpu):
    link = glob.glob(R + f'/sys/devices/system/cpu/cpu{cpu}/node[0-9]*')
    if link:
        return int(os.path.basename(link[0])[4:])
    owners = [n for n in nodes() if cpu in node_cpus(n)]
    return owners[0] if owners else -1


def nearest_nodes(node):
    """Other nodes with CPUs at the smallest distance from node (the kernel's row)."""
    row = [int(x) for x in read(R + f'/sys/devices/system/node/node{node}/distance').split()]
    ids = nodes()
    cand = [(row[k], n) for k, n in enumerate(ids) if n != node and node_cpus(n)]
    if not cand:
        return set(), None
    best = min(d for d, _ in cand)
    return {n for d, n in cand if d == best}, best


def do_plan(r, path, pci=None):
    d = load(path)
    irqs, xps = plan_irqs(d)
    p = d.get('plan', d)
    local = pci or env('NN_GUEST_NIC_LOCAL')
    node = int(env('NN_GUEST_NIC_NODE'))
    name = pci_netdev(local)
    cpus = node_cpus(node)
    house = cpulist(p.get('housekeeping') or '')
    usable = cpus - house
    near, dist = nearest_nodes(node)
    near_cpus = set().union(*(node_cpus(n) for n in near)) if near else set()
    mine = [i for i in irqs if i.get('nic') == name and i.get('queue') is not None]
    nq = len({i['queue'] for i in mine})
    r.check(f'plan: {name} queue irqs planned', len(mine) > 0, f'no queue IRQ of {name} in the plan')
    # The rule: the NIC's own node; spill to the nearest nodes by distance only
    # when the node has fewer usable (non-housekeeping) CPUs than queues, and say so.
    bad, spilled = [], 0
    for i in mine:
        pc = cpulist(i.get('cpus') or '')
        if pc and pc <= usable:
            continue
        if pc and pc <= near_cpus and len(usable) < nq and 'spill' in (i.get('reason') or ''):
            spilled += 1
            continue
        bad.append(f"irq {i['irq']} -> {i.get('cpus')} ({i.get('reason')})")
    r.check(f'plan: {name} queue irqs on node {node} CPUs {fmt(usable)} (housekeeping {fmt(house)} kept free)'
            + (f', {spilled} IRQs spilled to nearest node(s) {sorted(near)} at distance {dist}' if spilled else ''),
            mine and not bad, '; '.join(bad) + f' [{len(usable)} usable CPUs, {nq} queues]')
    want = set(msi_irqs(local))
    queue_irqs = {i['irq'] for i in mine}
    r.check(f'plan: planned irqs belong to {local}', queue_irqs <= want, f'{sorted(queue_irqs - want)}')
    mx = [x for x in xps if x.get('nic') == name]
    allowed = usable | (near_cpus if spilled else set())
    badx = [f"tx-{x.get('queue')} -> {x.get('cpus')}" for x in mx if not cpulist(x.get('cpus') or '') <= allowed]
    # Single-queue devices have the file, but the kernel refuses it (ENOENT).
    xf = glob.glob(R + f'/sys/class/net/{name}/queues/tx-*/xps_cpus')
    has_xps = len(xf) > 1
    r.check(f'plan: {name} xps on the CPUs of its queue IRQs', (mx or not has_xps) and not badx,
            '; '.join(badx) or 'no XPS entries, yet the kernel has xps_cpus files')
    if pci is None:
        return
    # Every vector the driver itself names a queue vector, whatever nicnuma
    # made of its name: planned on the node, never on housekeeping.
    roles, names = driver_roles(pci), irq_names()
    by_irq = {i['irq']: i for i in irqs}
    badq = []
    for irq, (role, q) in sorted(roles.items()):
        if role not in ('rx', 'tx', 'rxtx'):
            continue
        i = by_irq.get(irq)
        pc = cpulist((i or {}).get('cpus') or '')
        if i is None:
            badq.append(f'{irq} {names.get(irq)} not planned')
        elif not pc or not pc <= (usable | (near_cpus if spilled else set())):
            badq.append(f"{irq} {names.get(irq)} -> {i.get('cpus')} ({i.get('reason')})")
    r.check(f'plan: {name} ({pci_driver(pci)}) every queue vector its driver names '
            f'({sum(1 for v in roles.values() if v[0] != "misc")}) on node {node} CPUs {fmt(usable)}, '
            f'none on housekeeping {fmt(house)}', not badq and roles, '; '.join(badq) or 'no IRQs')


def do_applied(r, path, snap=None):
    irqs, xps = plan_irqs(load(path))
    before = load(snap).get('_effective', {}) if snap else {}
    bad, bade, badx, pending, n = [], [], [], [], 0
    for i in irqs:
        if not os.path.exists(R + f"/proc/irq/{i['irq']}"):
            continue
        want = cpulist(i.get('cpus') or '')
        got, eff = irq_affinity(i['irq']), irq_effective(i['irq'])
        n += 1
        if got != want:
            bad.append(f"irq {i['irq']}: affinity {fmt(got)}, planned {fmt(want)}")
        # x86 without interrupt remapping moves an IRQ when it next fires: until
        # then effective_affinity_list keeps the old CPU. Only that is excused.
        if eff and eff <= want:
            continue
        if eff and str(i['irq']) in before and eff == cpulist(before[str(i['irq'])]):
            pending.append(i['irq'])
        else:
            bade.append(f"irq {i['irq']}: effective {fmt(eff)}, planned {fmt(want)}")
    r.check(f'apply: {n} planned irqs read back (smp_affinity_list)', n > 0 and not bad,
            '; '.join(bad) or 'no planned IRQ found')
    r.check(f'apply: effective_affinity_list within the plan ({len(pending)} moves pending until the IRQ fires)',
            n > 0 and not bade, '; '.join(bade))
    for x in xps:
        f = R + f"/sys/class/net/{x['nic']}/queues/tx-{x['queue']}/xps_cpus"
        if not os.path.exists(f):
            continue
        mask = int(read(f).replace(',', ''), 16)
        got = {c for c in range(mask.bit_length()) if mask >> c & 1}
        if got != cpulist(x.get('cpus') or ''):
            badx.append(f"{x['nic']} tx-{x['queue']}: {fmt(got)} vs {x.get('cpus')}")
    r.check('apply: xps_cpus read back', not badx, '; '.join(badx))


def snapshot():
    s, eff = {}, {}
    for p in glob.glob(R + '/proc/irq/[0-9]*/smp_affinity_list'):
        s[p] = read(p)
        try:
            eff[p.split('/')[3]] = read(p.replace('smp_affinity_list', 'effective_affinity_list'))
        except OSError:
            pass
    for p in glob.glob(R + '/sys/class/net/*/queues/tx-*/xps_cpus'):
        try:
            s[p] = read(p)
        except OSError:
            pass
    # Where each IRQ really fires now: not restored by anyone, kept apart.
    s['_effective'] = eff
    return s


def do_snap(r, out):
    with open(out, 'w') as f:
        json.dump(snapshot(), f)


def do_unchanged(r, path):
    before, now = load(path), snapshot()
    before.pop('_effective', None)
    diff = [f'{k}: {before[k]} -> {now.get(k)}' for k in sorted(before) if now.get(k) != before[k]]
    r.check(f'rollback: all {len(before)} affinity and xps values as before apply', not diff, '; '.join(diff[:8]))


def nic_irq(n, irq):
    return next((i for i in n.get('irqs', []) if i.get('irq') == irq), None)


def do_queue_irq(r, pci):
    """The first vector the driver names a queue vector (for a drift test)."""
    q = sorted(i for i, (role, _) in driver_roles(pci).items() if role != 'misc')
    if q:
        print(q[0])


def do_roles(r, path, *pcis):
    d = load(path)
    for addr in pcis:
        n = nic_by_pci(d, addr)
        drv = pci_driver(addr)
        label = f'nics: {addr} ({drv})'
        if n is None:
            r.check(f'{label} listed', False, f'no NIC with pci {addr}')
            continue
        r.eq(f'{label} name', n.get('name'), pci_netdev(addr))
        r.eq(f'{label} numa_node', n.get('numa_node'), pci_node(addr))
        r.eq(f'{label} irqs = msi_irqs', sorted(i['irq'] for i in n.get('irqs', [])), msi_irqs(addr))
        roles = driver_roles(addr)
        names = irq_names()
        queue_vecs = {i: rq for i, rq in roles.items() if rq[0] in ('rx', 'tx', 'rxtx')}
        r.check(f'{label} the driver named queue vectors', bool(queue_vecs),
                f'no queue vector among {[names.get(i) for i in roles]}')
        bad = []
        for irq, (role, q) in sorted(roles.items()):
            got = nic_irq(n, irq) or {}
            gq, gd = got.get('queue'), got.get('dir')
            if role == 'misc':
                if gq is not None:
                    bad.append(f'{irq} {names.get(irq)}: a misc vector, nicnuma says queue {gq} {gd}')
            elif (gq, gd) != (q, role):
                bad.append(f'{irq} {names.get(irq)}: the driver says {role} {q}, nicnuma {gd} {gq}')
        r.check(f'{label} every IRQ with its role as the driver names it '
                f'({len(queue_vecs)} queue, {len(roles) - len(queue_vecs)} misc)', not bad, '; '.join(bad))
        srcs = {i['irq']: i['source'] for i in n.get('irqs', []) if 'source' in i}
        if not srcs:
            r.skip(f'{label} no queue IRQ left unknown (per-IRQ source)',
                   'nics --json has no per-IRQ "source" key in this tree (issue 20 item 1, branch genl)')
        else:
            unk = [f'{i} {names.get(i)}' for i in queue_vecs if srcs.get(i) in (None, 'unknown')]
            r.check(f'{label} no queue IRQ left unknown (sources: {sorted(set(srcs.values()))})', not unk,
                    'source unknown for ' + ', '.join(unk))


# ---- netdev generic netlink, read here without nicnuma (Linux 6.3+: the
# family; queue-get and napi-get 6.8+) ------------------------------------
NLM_F_REQUEST, NLM_F_DUMP, NLMSG_ERROR, NLMSG_DONE = 1, 0x300, 2, 3
GENL_ID_CTRL, CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 0x10, 3, 1, 2
# include/uapi/linux/netdev.h (6.8): commands and attributes
NETDEV_CMD_QUEUE_GET, NETDEV_CMD_NAPI_GET = 10, 11
Q_ID, Q_IFINDEX, Q_TYPE, Q_NAPI_ID = 1, 2, 3, 4
N_IFINDEX, N_ID, N_IRQ, N_PID = 1, 2, 3, 4


def nl_attrs(buf):
    import struct
    out, off = {}, 0
    while off + 4 <= len(buf):
        ln, typ = struct.unpack_from('HH', buf, off)
        if ln < 4:
            break
        out[typ & 0x3fff] = buf[off + 4:off + ln]
        off += (ln + 3) & ~3
    return out


def genl_request(sock, family, cmd, attrs=b'', dump=True):
    import struct
    flags = NLM_F_REQUEST | (NLM_F_DUMP if dump else 0)
    body = struct.pack('BBH', cmd, 1, 0) + attrs
    sock.send(struct.pack('IHHII', 16 + len(body), family, flags, 1, 0) + body)
    msgs = []
    while True:
        data = sock.recv(1 << 20)
        off = 0
        while off + 16 <= len(data):
            ln, typ, _, _, _ = struct.unpack_from('IHHII', data, off)
            if typ == NLMSG_DONE:
                return msgs
            if typ == NLMSG_ERROR:
                err = struct.unpack_from('i', data, off + 16)[0]
                if err:
                    raise OSError(-err, os.strerror(-err))
                return msgs
            msgs.append(nl_attrs(data[off + 20:off + ln]))
            off += (ln + 3) & ~3
        if not dump:
            return msgs


def genl_netdev():
    """(queues, napis): queues [(ifindex, type, id, napi_id)], napis {id:
    (ifindex, irq, pid)}; None when the kernel has no netdev family."""
    import socket
    import struct
    u32 = lambda b: struct.unpack('I', b[:4])[0]  # noqa: E731
    s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 16)  # NETLINK_GENERIC
    try:
        name = b'netdev\0'
        a = struct.pack('HH', 4 + len(name), CTRL_ATTR_FAMILY_NAME) + name + b'\0' * (-len(name) % 4)
        try:
            fam = genl_request(s, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, a, dump=False)
        except OSError:
            return None
        fid = struct.unpack('H', fam[0][CTRL_ATTR_FAMILY_ID][:2])[0]
        try:
            qs = genl_request(s, fid, NETDEV_CMD_QUEUE_GET)
            ns = genl_request(s, fid, NETDEV_CMD_NAPI_GET)
        except OSError:
            return [], {}
        queues = [(u32(q[Q_IFINDEX]), ('rx', 'tx')[u32(q[Q_TYPE])] if u32(q[Q_TYPE]) < 2 else u32(q[Q_TYPE]),
                   u32(q[Q_ID]), u32(q[Q_NAPI_ID]) if Q_NAPI_ID in q else None) for q in qs]
        napis = {u32(n[N_ID]): (u32(n[N_IFINDEX]), u32(n[N_IRQ]) if N_IRQ in n else None,
                                u32(n[N_PID]) if N_PID in n else None) for n in ns}
        return queues, napis
    finally:
        s.close()


def do_genl(r, path, *pcis):
    d = load(path)
    g = genl_netdev()
    kernel = read('/proc/sys/kernel/osrelease')
    if g is None:
        r.check(f'genl: kernel {kernel} has no netdev genl family (expected before 6.3)',
                int(kernel.split('.')[0]) * 100 + int(kernel.split('.')[1]) < 603, 'the family is missing')
    queues, napis = g or ([], {})
    for addr in pcis:
        n = nic_by_pci(d, addr)
        dev = pci_netdev(addr)
        drv = pci_driver(addr)
        if n is None or dev is None:
            r.check(f'genl: {addr} listed', False, f'no NIC with pci {addr}')
            continue
        ifi = int(read(f'/sys/class/net/{dev}/ifindex'))
        kq = {(t, q): nid for i, t, q, nid in queues if i == ifi}
        linked = {(t, q): napis[nid][1] for (t, q), nid in kq.items() if nid in napis and napis[nid][1] is not None}
        mine = [k for k, v in napis.items() if v[0] == ifi]
        if g is not None:
            print(f'    kernel {kernel}, {dev} ({drv}): {len(kq)} queues from queue-get, '
                  f'{sum(1 for v in kq.values() if v)} linked to one of its {len(mine)} NAPIs, '
                  f'{len(linked)} queues with an IRQ {sorted(set(linked.values()))}', flush=True)
        if g is not None:
            nrx = len(glob.glob(R + f'/sys/class/net/{dev}/queues/rx-*'))
            ntx = len(glob.glob(R + f'/sys/class/net/{dev}/queues/tx-*'))
            got = (sum(1 for t, _ in kq if t == 'rx'), sum(1 for t, _ in kq if t == 'tx'))
            r.eq(f'genl: kernel {kernel} answers queue-get for {dev} ({drv}): (rx, tx) queues as in sysfs',
                 got, (nrx, ntx))
        srcs = {i['irq']: i.get('source') for i in n.get('irqs', [])}
        have_src = any(v is not None for v in srcs.values())
        if g is None:
            if 'queues' in n:
                r.eq(f'genl: {dev} ({drv}) "queues" null on a kernel without the family', n['queues'], None)
            if have_src:
                r.check(f'genl: {dev} ({drv}) no IRQ decided by netlink on a kernel without it',
                        'netlink' not in srcs.values(), f'sources {srcs}')
            else:
                r.skip(f'genl: {dev} ({drv}) sources on a kernel without the family',
                       'nics --json has no per-IRQ "source" key in this tree (branch genl)')
            continue
        # nicnuma's per-queue NAPI ids and IRQs vs the kernel's
        if 'queues' not in n:
            r.skip(f'genl: {dev} ({drv}) queue -> NAPI as the kernel says ({len(kq)} queues)',
                   'nics --json has no per-queue "queues" list in this tree (issue 20 item 1, branch genl)')
        else:
            nq = n['queues'] if isinstance(n['queues'], list) else []
            got = {(q.get('type'), q.get('id')): (q.get('napi_id'), q.get('irq')) for q in nq}
            want = {k: (v, napis[v][1] if v in napis else None) for k, v in kq.items()}
            r.check(f'genl: {dev} ({drv}) queue -> (NAPI id, IRQ) = the kernel\'s queue-get / napi-get '
                    f'({len(want)} queues)', n['queues'] is not None and got == want,
                    f'nicnuma {n["queues"] if n["queues"] is None else sorted(got.items())}, '
                    f'the kernel {sorted(want.items())}')
        # an IRQ the kernel links to a NAPI is decided by netlink
        if linked and have_src:
            bad = [f'{irq}: {srcs.get(irq)}' for irq in set(linked.values()) if srcs.get(irq) != 'netlink']
            r.check(f'genl: {dev} ({drv}) the {len(set(linked.values()))} IRQs the kernel links to NAPIs '
                    'have source netlink', not bad, '; '.join(bad))
        elif linked:
            r.skip(f'genl: {dev} ({drv}) IRQs linked by the kernel decided by netlink',
                   'nics --json has no per-IRQ "source" key in this tree (branch genl)')
        elif have_src:
            r.check(f'genl: {dev} ({drv}) links no NAPI to an IRQ: no IRQ claims source netlink',
                    'netlink' not in srcs.values(), f'sources {srcs}')


def main():
    if len(sys.argv) < 3 and sys.argv[1:] != ['queue-irq']:
        sys.exit(__doc__)
    r = Report()
    cmd, args = sys.argv[1], sys.argv[2:]
    fn = {'topo': do_topo, 'nics': do_nics, 'same': do_same, 'plan': do_plan,
          'applied': do_applied, 'snap': do_snap, 'unchanged': do_unchanged,
          'roles': do_roles, 'genl': do_genl, 'isolated': do_isolated,
          'queue-irq': do_queue_irq}.get(cmd)
    if not fn:
        sys.exit(f'truth.py: unknown subcommand {cmd}')
    try:
        fn(r, *args)
    except Exception as e:  # noqa: BLE001 - a broken check is a FAIL, never a silent gap
        r.check(f'{cmd}: {" ".join(args)} readable', False, f'{type(e).__name__}: {e}')


if __name__ == '__main__':
    main()
