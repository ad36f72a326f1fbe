#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""tests/arch/layer_link_bites.py BUILDDIR - the layer-check links
(nicnuma/meson.build) fail on a call planted the wrong way across each
boundary of act/'s split, and pass a call down: the link check can fail.

For each case the link command of nicnuma/layer-check-LAYER (from
`ninja -t commands`) is run again with one more object, compiled here, that
calls a function of another layer; the output goes to a scratch file. A call
up must fail naming the function as undefined; a call down must link."""
import os
import shlex
import subprocess
import sys
import tempfile

# (layer whose link check runs, function called, the layer it is in, want_fail)
CASES = [
    ("act", "nn_disable", "service", True),      # a transaction calling the service
    ("act", "nn_watch_state_read", "service", True),
    ("emit", "nn_rollback", "act", True),         # an emitter calling a transaction
    ("emit", "nn_claim_add", "service", True),
    ("service", "nn_rollback", "act", False),     # down: the service may call act
    ("act", "nn_script_write", "emit", False),    # down: act may call emit
]


def link_command(build, layer):
    out = subprocess.run(["ninja", "-C", build, "-t", "commands", "nicnuma/layer-check-" + layer],
                         capture_output=True, text=True, check=True).stdout
    for line in reversed(out.splitlines()):
        if "-o nicnuma/layer-check-" + layer + " " in line:
            return shlex.split(line)
    raise SystemExit("error: no link command for nicnuma/layer-check-" + layer)


def main():
    if len(sys.argv) != 2:
        print("usage: layer_link_bites.py BUILDDIR", file=sys.stderr)
        return 2
    build = os.path.abspath(sys.argv[1])
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for layer, fn, owner, want_fail in CASES:
            src, obj, exe = (os.path.join(tmp, fn + ext) for ext in (".c", ".o", ".out"))
            with open(src, "w") as f:
                # the planted caller; the layer-check main never calls it, the link still resolves it
                f.write("void %s(void);\nvoid nn_planted_%s(void);\nvoid nn_planted_%s(void) { %s(); }\n"
                        % (fn, fn, fn, fn))
            cmd = link_command(build, layer)
            cc = cmd[:cmd.index("-o")]    # the linker driver, a launcher (ccache) and all
            subprocess.run(cc + ["-c", "-o", obj, src], check=True)
            cmd[cmd.index("-o") + 1] = exe
            cmd.insert(cmd.index("-o") + 2, obj)
            r = subprocess.run(cmd, cwd=build, capture_output=True, text=True)
            failed = r.returncode != 0
            named = ("undefined reference to `%s'" % fn) in r.stderr or ("undefined symbol: %s" % fn) in r.stderr
            what = "%s -> %s (%s)" % (layer, owner, fn)
            if want_fail and not (failed and named):
                print("FAIL: a call up %s linked into layer-check-%s" % (what, layer))
                print(r.stderr[-2000:])
                bad = 1
            elif not want_fail and failed:
                print("FAIL: a call down %s does not link into layer-check-%s" % (what, layer))
                print(r.stderr[-2000:])
                bad = 1
            else:
                print("ok: %s %s" % (what, "caught by the link" if want_fail else "links"))
    if bad:
        return 1
    print("ok: the layer-check links catch a call up across emit < act < service and pass a call down")
    return 0


if __name__ == "__main__":
    sys.exit(main())
