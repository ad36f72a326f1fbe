#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""vocabulary.py - one word per idea across the commands (docs/cli.md)

    vocabulary.py NICNUMA SRCDIR           check the binary against the tables
    vocabulary.py NICNUMA SRCDIR --bites   the same, then plant each kind of
                                           second spelling in a copy of what the
                                           binary said and check it is caught

The tables of docs/cli.md (Options, Values, JSON keys) are the input. The
options and their values come from `nicnuma --json --help` (the C option
tables); the JSON keys from the commands themselves, run with --json on
fixture trees (tests/fixtures/mkhost.py, observe_tree.py, procmap/root).
Exit 0 when everything agrees, 1 naming each disagreement, 2 when the input
cannot be had.
"""
import collections
import copy
import json
import os
import re
import subprocess
import sys
import tempfile

CODE = re.compile(r'`([^`]+)`')


def cells(line):
    return [c.strip() for c in line.strip().strip('|').split('|')]


def section_rows(text, title):
    """The rows (lists of cells) of the first table under '## TITLE'."""
    rows, inside, seen_table = [], False, False
    for line in text.splitlines():
        if line.startswith('## '):
            if inside:
                break
            inside = line[3:].strip() == title
            continue
        if not inside:
            continue
        if line.startswith('|'):
            seen_table = True
            c = cells(line)
            if set(''.join(c)) <= set('-: '):
                continue
            rows.append(c)
        elif seen_table:
            break
    if not rows:
        sys.exit('vocabulary.py: no table under "## %s" in docs/cli.md' % title)
    return rows[1:]		# the header


def old_spellings(cell):
    """`--watch`, `-w` (check --pid) -> [('--watch', 'check --pid'), ...];
    `expected` (check: old, until the next release) -> [('expected', 'check')]."""
    out = []
    for m in re.finditer(r'((?:`[^`]+`(?:, )?)+)(?: \(([^)]*)\))?', cell):
        where = (m.group(2) or '').split(':')[0].strip() or None
        for w in CODE.findall(m.group(1)):
            out.append((w, where))
    return out


def parse_tables(text):
    t = {'options': {}, 'values': {}, 'keys': {}}
    for c in section_rows(text, 'Options'):
        idea, opt, val, cmds, old = (c + [''] * 5)[:5]
        names = CODE.findall(opt)
        if not names:
            sys.exit('vocabulary.py: Options row without an option: %r' % c)
        argname, per = None, {}
        if val and val != '—':
            parts = [p.strip() for p in val.split(';')]
            argname = parts[0]
            for p in parts[1:]:
                k, v = p.split(':', 1)
                per[k.strip()] = v.strip()
        t['options'][names[0]] = {
            'idea': idea, 'short': names[1] if len(names) > 1 else None,
            'arg': argname, 'per': per,
            'commands': {x.strip() for x in cmds.split(',') if x.strip()},
            'old': old_spellings(old)}
    for c in section_rows(text, 'Values'):
        idea, opt, word, old = (c + [''] * 4)[:4]
        o, w = CODE.findall(opt)[0], CODE.findall(word)[0]
        t['values'][(o, w)] = {'idea': idea, 'old': old_spellings(old)}
    for c in section_rows(text, 'JSON keys'):
        idea, key, cmds, bad = (c + [''] * 4)[:4]
        k = CODE.findall(key)[0]
        t['keys'][k] = {'commands': {x.strip() for x in cmds.split(',') if x.strip()},
                        'not': old_spellings(bad)}
    return t


def run(*argv):
    return subprocess.run(list(argv), capture_output=True, text=True, timeout=120)


def collect_keys(nn, src):
    """{key: {command or mode}} from --json runs on fixture trees."""
    tmp = tempfile.mkdtemp(prefix='nicnuma-vocab.')
    fx = os.path.join(src, 'tests', 'fixtures')
    x, e = os.path.join(tmp, 'x'), os.path.join(tmp, 'e')
    for shape, d in (('xeon-2s-smt', x), ('even-odd', e)):
        if run('python3', os.path.join(fx, 'mkhost.py'), 'build', shape, d).returncode:
            sys.exit('vocabulary.py: mkhost.py build %s failed' % shape)
    if run('python3', os.path.join(fx, 'observe_tree.py'), 'write', e).returncode:
        sys.exit('vocabulary.py: observe_tree.py write failed')
    plan = os.path.join(tmp, 'p.json')
    with open(plan, 'w') as f:
        f.write(run(nn, '--root', x, '--json', 'plan', '--hugepages', '2M:8').stdout)
    runs = {
        'topo': (x, 'topo'), 'nics': (x, 'nics'), 'plan': (x, 'plan', '--hugepages', '2M:8'),
        'check': (x, 'check', '--plan', plan),
        'apply': (x, 'apply', '--plan', plan, '--dry-run'),
        'hugepages show': (x, 'hugepages', 'show'),
        'hugepages reserve': (x, 'hugepages', 'reserve', '--nodes', '0', '--size', '2M',
                              '--count', '2', '--dry-run'),
        'layout': (x, 'layout', '--service', 's', '--exec', '/bin/true', '--dry-run'),
        'enable': (x, 'enable', '--dry-run'),
        'status': (x, 'status'),
        'observe': (e, 'observe', '--count', '1', '--interval', '2'),
        'metrics': (x, 'metrics'),
        'check --pid': (os.path.join(fx, 'procmap', 'root'), 'check', '--pid', '100'),
    }
    keys = collections.defaultdict(set)

    def walk(v, cmd):
        if isinstance(v, dict):
            for k, w in v.items():
                keys[k].add(cmd)
                walk(w, cmd)
        elif isinstance(v, list):
            for w in v:
                walk(w, cmd)
    for cmd, a in runs.items():
        r = run(nn, '--root', a[0], '--json', *a[1:])
        docs = []
        for line in (r.stdout.splitlines() if cmd == 'observe' else [r.stdout]):
            try:
                docs.append(json.loads(line))
            except ValueError:
                pass
        if not docs:
            sys.exit('vocabulary.py: nicnuma %s --json printed no JSON (exit %d): %s'
                     % (cmd, r.returncode, r.stderr.strip()[:300]))
        for d in docs:
            walk(d, cmd)
    subprocess.run(['rm', '-rf', tmp])
    return keys


def check(t, dump, keys):
    """Every disagreement between the tables @t, the option dump and @keys."""
    errs = []
    live = collections.defaultdict(dict)	# option -> {command: row}
    dead = collections.defaultdict(dict)	# old spelling -> {command: row}
    for c in dump['commands']:
        for o in c['options']:
            (dead if o.get('deprecated') else live)[o['long']][c['name']] = o
    # options
    for name, where in sorted(live.items()):
        if len(where) > 1 and name not in t['options']:
            errs.append('option %s is shared by %s and has no row in docs/cli.md'
                        % (name, ', '.join(sorted(where))))
    for name, row in sorted(t['options'].items()):
        have = set(live.get(name, {}))
        if have != row['commands']:
            errs.append('option %s: in %s, the table says %s' % (
                name, ', '.join(sorted(have)) or 'no command', ', '.join(sorted(row['commands']))))
        shorts = {o['short'] for o in live.get(name, {}).values() if o['short']}
        if len(shorts) > 1 or (row['short'] and shorts - {row['short']}):
            errs.append('option %s: short letters %s, the table says %s' % (
                name, ', '.join(sorted(shorts)), row['short'] or 'none'))
        for cmd, o in sorted(live.get(name, {}).items()):
            want = row['per'].get(cmd, row['arg'])
            if o['arg'] != want:
                errs.append('option %s of %s takes %s, the table says %s'
                            % (name, cmd, o['arg'] or 'no value', want or 'no value'))
        # an old spelling names its command when the word lives on elsewhere
        # as another idea (check --dpdk's --timeout is a deadline)
        for old, where in row['old']:
            for cmd, o in sorted(live.get(old, {}).items()):
                if where is None or cmd == where.split()[0]:
                    errs.append('%s: %s is live, an old spelling of %s (docs/cli.md)'
                                % (cmd, old, name))
            for cmd, o in sorted(dead.get(old, {}).items()):
                if o['deprecated'] != name:
                    errs.append('%s: %s is deprecated for %s, the table says %s'
                                % (cmd, old, o['deprecated'], name))
    # values
    for name, where in sorted(live.items()):
        sets = {cmd: tuple(o['values']) for cmd, o in where.items() if o.get('values')}
        if len(set(sets.values())) > 1:
            errs.append('option %s takes different words: %s' % (name, '; '.join(
                '%s: %s' % (c, ' '.join(v)) for c, v in sorted(sets.items()))))
        if len(where) < 2:
            continue
        for cmd, vals in sorted(sets.items()):
            for v in vals:
                if (name, v) not in t['values']:
                    errs.append('%s %s %s has no row under Values' % (cmd, name, v))
        for cmd, o in sorted(where.items()):
            for old, new in sorted((o.get('old_values') or {}).items()):
                row = t['values'].get((name, new))
                if not row or old not in [w for w, _ in row['old']]:
                    errs.append('%s %s %s -> %s: no such old spelling under Values'
                                % (cmd, name, old, new))
    for (name, word), row in sorted(t['values'].items()):
        for cmd, o in sorted(live.get(name, {}).items()):
            if o.get('values') and word not in o['values']:
                errs.append('%s %s does not take %s (docs/cli.md)' % (cmd, name, word))
            for old, _ in row['old']:
                if old in (o.get('values') or []):
                    errs.append('%s %s takes %s, an old spelling of %s' % (cmd, name, old, word))
    # JSON keys
    for k, cmds in sorted(keys.items()):
        if len(cmds) > 1 and k not in t['keys']:
            errs.append('JSON key "%s" is printed by %s and has no row in docs/cli.md'
                        % (k, ', '.join(sorted(cmds))))
    for k, row in sorted(t['keys'].items()):
        missing = row['commands'] - keys.get(k, set())
        if missing:
            errs.append('JSON key "%s": not printed by %s (docs/cli.md says it is)'
                        % (k, ', '.join(sorted(missing))))
        for bad, where in row['not']:
            for cmd in sorted(keys.get(bad, set())):
                if cmd != where:
                    errs.append('%s prints JSON key "%s" for the idea of "%s"' % (cmd, bad, k))
    return errs


def old_spellings_work(nn, dump):
    """Each old spelling the dump names still works for one release: given
    before --help, it prints the warning naming the new one on stderr and
    the exit status stays 0. The problems found."""
    errs = []
    for c in dump['commands']:
        for o in c['options']:
            tries = []
            if o.get('deprecated'):
                tries.append(([o['long']] + (['1'] if o['arg'] else []),
                              '%s is deprecated, use %s' % (o['long'], o['deprecated'])))
                if o['short']:
                    tries.append(([o['short']] + (['1'] if o['arg'] else []),
                                  '%s is deprecated, use %s' % (o['short'], o['deprecated'])))
            for old, new in sorted((o.get('old_values') or {}).items()):
                tries.append(([o['long'], old], '%s %s is deprecated, use %s %s'
                              % (o['long'], old, o['long'], new)))
            for words, want in tries:
                seen = []
                for mode in c['modes']:
                    argv = []
                    for w in mode.split():
                        argv += [w, '1'] if w == '--pid' else [w]
                    r = run(nn, *argv, *words, '--help')
                    seen.append((mode, r.returncode, r.stderr.strip()[:200]))
                    if r.returncode == 0 and ('warning: %s: %s' % (mode, want)) in r.stderr:
                        break
                else:
                    errs.append('%s %s: no warning "%s" with exit 0 (%s)' % (
                        c['name'], ' '.join(words), want, seen))
    return errs


def bites(t, dump, keys):
    """Each planted second spelling must be caught. Returns the misses."""
    def cmd(d, name):
        return next(c for c in d['commands'] if c['name'] == name)

    def opt(d, name, long):
        return next(o for o in cmd(d, name)['options'] if o['long'] == long)

    def live_again(d):	# watch's --timeout live again beside --duration
        opt(d, 'watch', '--timeout')['deprecated'] = None

    def other_value(d):	# enable takes leave again where the others take ignore
        opt(d, 'enable', '--irqbalance')['values'] = ['stop', 'ban', 'leave']

    def other_short(d):	# --interval with two letters
        opt(d, 'observe', '--interval')['short'] = '-n'

    def other_arg(d):	# --duration's value spelled two ways
        opt(d, 'watch', '--duration')['arg'] = 'SEC'

    def new_shared(d):	# a new option in two commands, no row
        for c in ('bench', 'observe'):
            cmd(d, c)['options'].append({'long': '--out-dir', 'short': None, 'arg': 'DIR',
                                         'values': None, 'old_values': None,
                                         'deprecated': None})

    def old_value_unlisted(d):	# an old value the table does not know
        opt(d, 'plan', '--policy')['old_values'] = {'near': 'local'}

    def bad_key(k):	# a NIC named iface by one command
        k['iface'].add('nics')

    def new_key(k):	# a key two commands print, no row
        k['cpu_mask'] |= {'topo', 'plan'}

    def key_gone(k):	# a row's command stops printing its key
        k['nic'].discard('check')

    def old_key(k):	# the old key back where it was never allowed
        k['expected'].add('apply')

    # each plant, and the words of the message that must name it
    plants = [(live_again, None, 'watch: --timeout is live, an old spelling of --duration'),
              (other_value, None, 'option --irqbalance takes different words'),
              (other_short, None, 'option --interval: short letters'),
              (other_arg, None, 'option --duration of watch takes SEC'),
              (new_shared, None, 'option --out-dir is shared by bench, observe'),
              (old_value_unlisted, None, 'plan --policy near -> local'),
              (None, bad_key, 'nics prints JSON key "iface" for the idea of "nic"'),
              (None, new_key, 'JSON key "cpu_mask" is printed by plan, topo'),
              (None, key_gone, 'JSON key "nic": not printed by check'),
              (None, old_key, 'apply prints JSON key "expected" for the idea of "planned"')]
    misses = []
    for fd, fk, want in plants:
        d, k = copy.deepcopy(dump), collections.defaultdict(set, copy.deepcopy(dict(keys)))
        (fd or fk)(d if fd else k)
        name = (fd or fk).__name__
        hit = [e for e in check(t, d, k) if want in e]
        if hit:
            print('ok: planted %s caught: %s' % (name, hit[0]))
        else:
            misses.append(name)
            print('FAIL: planted %s not caught' % name)
    # and a table row taken out: its words are shared, so the gap shows
    t2 = copy.deepcopy(t)
    del t2['options']['--interval']
    del t2['keys']['node']
    errs = check(t2, dump, keys)
    if len([e for e in errs if '--interval' in e or '"node"' in e]) < 2:
        misses.append('row_removed')
        print('FAIL: rows taken out of the table not caught')
    else:
        print('ok: rows taken out of the table caught')
    return misses


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    nn, src = sys.argv[1], sys.argv[2]
    with open(os.path.join(src, 'docs', 'cli.md'), encoding='utf-8') as f:
        t = parse_tables(f.read())
    r = run(nn, '--json', '--help')
    if r.returncode:
        print('error: nicnuma --json --help failed: %s' % r.stderr, file=sys.stderr)
        return 2
    dump = json.loads(r.stdout)
    keys = collect_keys(nn, src)
    errs = check(t, dump, keys) + old_spellings_work(nn, dump)
    for e in errs:
        print('FAIL: %s' % e)
    if errs:
        return 1
    print('ok: %d options, %d values and %d JSON keys shared by commands, one word each; '
          'every old spelling still works, warned' % (len(t['options']), len(t['values']),
                                                      len(t['keys'])))
    if '--bites' in sys.argv[3:]:
        if bites(t, dump, keys):
            return 1
        print('ok: every planted second spelling is caught')
    return 0


if __name__ == '__main__':
    sys.exit(main())
