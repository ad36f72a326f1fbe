#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""help_opts.py - the options a --help text or an scdoc man page defines

    help_opts.py help < HELP_TEXT     one option a line (--long, -x), sorted
    help_opts.py man FILE.scd         the same from the page's definitions
    help_opts.py dups help|man [FILE] the options defined on more than one row
                                      (an option is defined once per text)
    help_opts.py table CMD < DUMP     the options of CMD ("global": nicnuma's own)
                                      in the option tables, from the JSON that
                                      `nicnuma --json --help` prints (the source:
                                      every option is one row of a C table)
    help_opts.py commands < DUMP      the commands the tables describe

In a --help text an option is defined by a row of the options table: a line
indented 2 or 6 spaces that starts with '-'; its tokens are the options before
the description (two spaces or, after upper-case metavariables, one).
In a page it is a line that starts with a bold option ('*--plan* _FILE_').
Options only mentioned in prose (another tool's --banirq) are not counted.
"""
import json
import re
import sys

TOK = re.compile(r'(?<![\w-])(--[a-z0-9][a-z0-9-]*|-[A-Za-z0-9])(?![\w-])')
ROW = re.compile(r'^(  |      )-[-A-Za-z0-9]')


def help_rows(text):
    """Each defining row's options (a list of sets)."""
    rows = []
    for line in text.splitlines():
        if not ROW.match(line):
            continue
        s = line.strip()
        m = re.match(r'^(.*?\S)(?: {2,}|\t)', s)
        if m:
            lead = m.group(1)
        else:
            toks, k = s.split(' '), 0
            while k < len(toks) and (toks[k].startswith('-') or toks[k].endswith(',') or
                                     re.match(r'^[A-Z][A-Z0-9_\[\],.|:]*$', toks[k])):
                k += 1
            lead = ' '.join(toks[:k])
        rows.append(set(TOK.findall(lead.split('=')[0] if '=' in lead and ' ' not in lead else lead)))
    return rows


def help_opts(text):
    return set().union(*help_rows(text))


def man_rows(text):
    return [set(TOK.findall(' '.join(re.findall(r'\*([^*]+)\*', line))))
            for line in text.splitlines() if line.startswith('*-')]


def man_opts(text):
    return set().union(*man_rows(text))


def dups(rows):
    seen, out = set(), set()
    for r in rows:
        out |= seen & r
        seen |= r
    return out


def table_opts(dump, cmd):
    """Long and short names of @cmd's options in the dump."""
    c = dump['global'] if cmd == 'global' else next(
        (c for c in dump['commands'] if c['name'] == cmd), None)
    if c is None:
        sys.exit('help_opts.py: no command %r in the option dump' % cmd)
    # an old spelling kept for one release (its row says "deprecated") is in
    # no --help, page or completion: only the option it became is
    now = [o for o in c['options'] if not o.get('deprecated')]
    return {o['long'] for o in now} | {o['short'] for o in now if o['short']}


if __name__ == '__main__':
    if sys.argv[1] == 'table':
        opts = table_opts(json.load(sys.stdin), sys.argv[2])
    elif sys.argv[1] == 'commands':
        opts = [c['name'] for c in json.load(sys.stdin)['commands']]
    elif sys.argv[1] == 'dups':
        opts = dups(help_rows(sys.stdin.read()) if sys.argv[2] == 'help'
                    else man_rows(open(sys.argv[3]).read()))
    elif sys.argv[1] == 'help':
        opts = help_opts(sys.stdin.read())
    else:
        opts = man_opts(open(sys.argv[2]).read())
    print('\n'.join(sorted(opts)))
