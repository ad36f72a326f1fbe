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
  truth.py plan FILE                 queue IRQs of the local NIC on its node's CPUs
  truth.py applied PLAN [SNAP]       /proc/irq readback equals the plan; an
                                     effective affinity still as in SNAP is a
                                     move pending until the IRQ next fires
  truth.py snap OUT                  every IRQ affinity and xps_cpus, as JSON
  truth.py unchanged SNAP            the live values equal a snap
"""
import glob
import json
import os
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


def do_plan(r, path):
    d = load(path)
    irqs, xps = plan_irqs(d)
    p = d.get('plan', d)
    local = env('NN_GUEST_NIC_LOCAL')
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
    has_xps = bool(glob.glob(R + f'/sys/class/net/{name}/queues/tx-*/xps_cpus'))
    r.check(f'plan: {name} xps on the CPUs of its queue IRQs', (mx or not has_xps) and not badx,
            '; '.join(badx) or 'no XPS entries, yet the kernel has xps_cpus files')


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


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    r = Report()
    cmd, args = sys.argv[1], sys.argv[2:]
    fn = {'topo': do_topo, 'nics': do_nics, 'same': do_same, 'plan': do_plan,
          'applied': do_applied, 'snap': do_snap, 'unchanged': do_unchanged}.get(cmd)
    if not fn:
        sys.exit(f'truth.py: unknown subcommand {cmd}')
    try:
        fn(r, *args)
    except Exception as e:  # noqa: BLE001 - a broken check is a FAIL, never a silent gap
        r.check(f'{cmd}: {" ".join(args)} readable', False, f'{type(e).__name__}: {e}')


if __name__ == '__main__':
    main()
