#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""tests/arch/apply_order.py [--bites] SRCDIR - apply's executor enters irq/ and
hugepages/ once each, in the documented order (man/nicnuma-apply.8.scd).

Reads nicnuma/act/apply.c (comments and strings left out) and checks:
  - nn_apply_run, its steps (run_*) read where it calls them: the pools' walk up to its check (hp_check: the hugepage
    state read and every target checked, nothing written), read the values
    (nn_apply_collect), inspect irqbalance, save the snapshot (nn_tx_save),
    then the write passes (write_val, irqbalance acted on in the irq pass),
    then the walk's write of the pools (nn_hp_walk_write), with no irq/ call
    before the check or after the write; each once, and hp_check writes
    nothing (nn_hp_walk_plan: read, drift, check; no nn_hp_walk_write);
  - the write passes run phase by phase (for ph ... NPHASES, each value only
    in its val_phase) and the phases are channels, irq, rss in that order,
    with IRQ, XPS and NAPI values in the irq phase (their rows of the kinds
    table): irq/ is entered once;
  - write_irq, write_xps and write_napi are called from write_val only
    (through the kinds table: no direct call).
With --bites it plants breakages in a copy of apply.c's text and exits 1
unless every one of them is caught: the check can fail.
"""
import re
import sys

IRQ_CALL = re.compile(r"\b(nn_irq_\w+|nn_xps_\w+|nn_napi_thread_set|nn_irqb_act|write_val|"
                      r"write_irq|write_xps|write_napi)\s*\(")


def strip(text):
    """C text without comments and string/char literals (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("\n" * text.count("\n", i, j))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def function(text, name):
    """The body of the top-level function @name (from its '{' to the closing
    '}' at column 0), or None."""
    m = re.search(r"^[a-z][^\n;]*\b%s\([^;{]*\)\s*\n\{" % re.escape(name), text, re.M)
    if not m:
        return None
    end = text.find("\n}", m.end())
    return text[m.end():end if end >= 0 else len(text)]


def expand(text, body, depth=0):
    """@body with each call of one of nn_apply_run's steps (run_*, functions
    of apply.c) replaced by that step's body, in place: the order read is
    the order run."""
    def step(m):
        inner = function(text, m.group(1))
        if inner is None or depth > 3:
            return m.group(0)
        return "{" + expand(text, inner, depth + 1) + "}"
    return re.sub(r"\b(run_\w+)\s*\([^;{]*?\)", step, body)


def check(src):
    """The list of problems with apply.c's text @src (empty: ok)."""
    text = strip(src)
    bad = []
    run = function(text, "nn_apply_run")
    if run is None:
        return ["no nn_apply_run in nicnuma/act/apply.c"]
    run = expand(text, run)

    def at(pattern, what):
        pos = [m.start() for m in re.finditer(pattern, run)]
        if not pos:
            bad.append(f"nn_apply_run: no {what}")
        return pos

    chk = at(r"\bhp_check\s*\(", "hp_check call (the pools' state and checks)")
    wr = at(r"\bnn_hp_walk_write\s*\(", "nn_hp_walk_write call (the pools' write)")
    hp = chk[:1] + wr[:1]
    steps = [("the hugepage check", chk),
             ("nn_apply_collect", at(r"\bnn_apply_collect\s*\(", "nn_apply_collect call")),
             ("nn_irqb_prepare", at(r"\bnn_irqb_prepare\s*\(", "nn_irqb_prepare call")),
             ("nn_tx_save", at(r"\bnn_tx_save\s*\(", "nn_tx_save call")),
             ("nn_irqb_act", at(r"\bnn_irqb_act\s*\(", "nn_irqb_act call")),
             ("write_val", at(r"\bwrite_val\s*\(", "write_val call")),
             ("the hugepage write", wr)]
    hc = function(text, "hp_check")
    if hc is None:
        bad.append("no hp_check in nicnuma/act/apply.c")
    elif not re.search(r"\bnn_hp_walk_plan\s*\(", hc) \
            or re.search(r"\bnn_hp_walk_write\s*\(|\bnn_hugepages_\w+\s*\(", hc):
        bad.append("hp_check: not the walk's read and check alone (it must write nothing)")
    last = None
    for name, pos in steps:
        if len(pos) > 1:
            bad.append(f"nn_apply_run: {name} called {len(pos)} times (once is the order)")
        if pos and last and pos[0] < last[1]:
            bad.append(f"nn_apply_run: {name} comes before {last[0]}")
        if pos:
            last = (name, pos[0])
    if hp:
        before = IRQ_CALL.search(run[:hp[0]]) or re.search(r"\b(nn_apply_collect)\s*\(", run[:hp[0]])
        if before:
            bad.append(f"nn_apply_run: {before.group(1)} called before the hugepage check "
                       "(irq/ entered on both sides of it)")
    if len(hp) == 2:
        after = IRQ_CALL.search(run, hp[1])
        if after:
            bad.append(f"nn_apply_run: {after.group(1)} called after the hugepage write "
                       "(irq/ entered again)")
    # The write passes: one loop over the phases, a value only in its own.
    wv = [m.start() for m in re.finditer(r"\bwrite_val\s*\(", run)]
    loop = list(re.finditer(r"\bfor\s*\(\s*ph\s*=\s*0\s*;\s*ph\s*<\s*NPHASES\b", run))
    if wv and not [m for m in loop if m.start() < wv[0]]:
        bad.append("nn_apply_run: write_val is not inside a 'for (ph = 0; ph < NPHASES' loop")
    elif wv:
        head = run[[m for m in loop if m.start() < wv[0]][-1].start():wv[0]]
        if not re.search(r"\bval_phase\s*\(\s*v\s*\)\s*!=\s*\(enum write_phase\)\s*ph\b", head):
            bad.append("nn_apply_run: the write pass does not skip values of another phase "
                       "(val_phase(v) != ph)")
        ia = [m.start() for m in re.finditer(r"\bnn_irqb_act\s*\(", head)]
        if not ia or not re.search(r"\bph\s*==\s*PHASE_IRQ\b", head[:ia[0]]):
            bad.append("nn_apply_run: irqbalance is not acted on at the start of the irq pass "
                       "(ph == PHASE_IRQ)")
    # The phases and which value goes where.
    m = re.search(r"\benum\s+write_phase\s*\{([^}]*)\}", text)
    if not m or [w.strip() for w in m.group(1).split(",")] != \
            ["PHASE_CHANNELS", "PHASE_IRQ", "PHASE_RSS", "NPHASES"]:
        bad.append("enum write_phase is not { PHASE_CHANNELS, PHASE_IRQ, PHASE_RSS, NPHASES }")
    vp = function(text, "val_phase")
    if vp is None or not re.search(r"\breturn\s+kinds\s*\[\s*v->kind\s*\]\s*\.phase\s*;", vp):
        bad.append("no val_phase reading the kinds table in nicnuma/act/apply.c")
    else:
        kinds = {m.group(1): m.group(2) for m in
                 re.finditer(r"\[\s*(NN_VAL_\w+)\s*\]\s*=\s*\{\s*(\w+)", text)}
        want = {"NN_VAL_CHANNELS": "PHASE_CHANNELS", "NN_VAL_IRQ": "PHASE_IRQ",
                "NN_VAL_XPS": "PHASE_IRQ", "NN_VAL_NAPI": "PHASE_IRQ", "NN_VAL_RSS": "PHASE_RSS"}
        for k, p in want.items():
            if kinds.get(k) != p:
                bad.append(f"val_phase: {k} goes to {kinds.get(k)}, not {p}")
    # The irq/ writers only from write_val.
    body = function(text, "write_val") or ""
    for w in ("write_irq", "write_xps", "write_napi"):
        calls = len(re.findall(r"\b%s\s*\(" % w, text)) - 1	# less its definition
        inside = len(re.findall(r"\b%s\s*\(" % w, body))
        if calls != inside:
            bad.append(f"{w} called outside write_val ({calls - inside} times)")
    return bad


def move_hp_write(src):
    """apply.c with the hugepage write cut from the end and put before the
    write passes."""
    m = re.search(r"\tif \(r->hp_pending && !rep->fatal && nn_hp_walk_write\(ctx, &r->hpw, r->up, 0\)\) \{\n[^}]*\}\n", src)
    if not m:
        return src
    cut = src[:m.start()] + src[m.end():]
    return cut.replace("\tnn_apply_views_open(&ctx->root, &views);",
                       m.group(0) + "\tnn_apply_views_open(&ctx->root, &views);", 1)


def bites(src):
    """Every planted breakage must be caught."""
    plants = [
        ("hugepage write moved before the writes", move_hp_write),
        ("the hugepage check after the values are read",
         lambda s: s.replace("\tif (plan->nhugepages) {", "\tnn_apply_collect(ctx, plan, NULL, NULL, false, NULL, NULL);\n"
                             "\tif (plan->nhugepages) {", 1)),
        ("an irq/ call after the hugepage write",
         lambda s: s.replace("count:\n", "\tnn_irq_probe(&ctx->root, 0, NULL);\ncount:\n", 1)),
        ("NAPI threads in the RSS pass",
         lambda s: s.replace("[NN_VAL_NAPI] = { PHASE_IRQ,", "[NN_VAL_NAPI] = { PHASE_RSS,", 1)),
        ("val_phase not reading the table",
         lambda s: s.replace("\treturn kinds[v->kind].phase;", "\treturn PHASE_IRQ;", 1)),
        ("RSS before the irq pass",
         lambda s: s.replace("enum write_phase { PHASE_CHANNELS, PHASE_IRQ, PHASE_RSS, NPHASES };",
                             "enum write_phase { PHASE_CHANNELS, PHASE_RSS, PHASE_IRQ, NPHASES };", 1)),
        ("irqbalance acted on in the channels pass",
         lambda s: s.replace("if (ph == PHASE_IRQ && !rep->irqb.noop)",
                             "if (ph == PHASE_CHANNELS && !rep->irqb.noop)", 1)),
        ("one pass over all values",
         lambda s: s.replace("if (val_phase(v) != (enum write_phase)ph || v->status != NN_VAL_PENDING)",
                             "if (v->status != NN_VAL_PENDING)", 1)),
        ("snapshot saved after the writes",
         lambda s: re.sub(r"(\tif \(!err && \(!r\.ext \|\| r\.up->nchanges > r\.n0\)\)\n\t\terr = nn_tx_save\(r\.tx\);\n)",
                          "", s, count=1).replace("count:\n", "\tnn_tx_save(r.tx);\ncount:\n", 1)),
        ("the pools written in the check",
         lambda s: s.replace("\tint err = nn_hp_walk_plan(ctx, w, plan->hugepages, rep->nhp, rep->hp, why, sizeof(why));\n",
                             "\tint err = nn_hp_walk_plan(ctx, w, plan->hugepages, rep->nhp, rep->hp, why, sizeof(why));\n"
                             "\tif (!err)\n\t\terr = nn_hp_walk_write(ctx, w, NULL, NN_HP_DRY_RUN);\n", 1)),
        ("the hugepage write twice",
         lambda s: s.replace("count:\n", "\tnn_hp_walk_write(ctx, &r.hpw, r.up, 0);\ncount:\n", 1)),
        ("a NAPI thread written outside write_val",
         lambda s: s + "\nstatic int x(struct nn_ctx *c, struct nn_apply_val *v)\n{\n"
                       "\treturn write_napi(c, v);\n}\n"),
    ]
    fail = 0
    if check(src):
        print("FAIL: apply.c as it is does not pass:", *check(src), sep="\n  ")
        return 1
    for name, plant in plants:
        planted = plant(src)
        if planted == src:
            print(f"FAIL: could not plant '{name}' (apply.c changed: update the plant)")
            fail = 1
            continue
        found = check(planted)
        if found:
            print(f"ok: planted {name}: caught ({found[0]})")
        else:
            print(f"FAIL: planted {name}: not caught")
            fail = 1
    return fail


def main():
    args = sys.argv[1:]
    mode_bites = bool(args) and args[0] == "--bites"
    if mode_bites:
        args = args[1:]
    if len(args) != 1:
        print("usage: apply_order.py [--bites] SRCDIR", file=sys.stderr)
        return 2
    path = args[0] + "/nicnuma/act/apply.c"
    try:
        src = open(path, encoding="utf-8").read()
    except OSError as e:
        print(f"error: {path}: {e}", file=sys.stderr)
        return 2
    if mode_bites:
        return bites(src)
    bad = check(src)
    for b in bad:
        print(f"FAIL: {path}: {b}")
    if bad:
        return 1
    print("ok: apply checks hugepages/, then enters irq/ once (channels, irq, rss passes), "
          "then writes hugepages/ last, after the snapshot")
    return 0


if __name__ == "__main__":
    sys.exit(main())
