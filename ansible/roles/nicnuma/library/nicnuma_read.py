#!/usr/bin/python
# SPDX-License-Identifier: GPL-2.0-or-later
"""nicnuma_read: several read-only nicnuma --json commands in one module run.

The nicnuma role asks each host several questions in a row (status, enable
--dry-run and the desired state file; status, check and metrics for the
facts). One module run for each group instead of one per question: on a slow
host every module run is a Python start and an ssh round trip. It runs only
what it is given, each as argv (no shell), each with --root and --json, and
writes nothing.
"""

import errno
import json
import os

from ansible.module_utils.basic import AnsibleModule

DOCUMENTATION = r"""
module: nicnuma_read
short_description: Run read-only nicnuma commands and parse their JSON
description:
  - Runs each command as BIN [--root ROOT] --json ARGS..., in order, and
    returns its exit status, output and parsed JSON. Never reports changed.
  - A command that exits with a status not in its ok_rcs, or prints no JSON,
    fails the task, naming the command, its status and its stderr.
options:
  bin:
    description: The nicnuma command.
    type: path
    required: true
  root:
    description: Passed as --root to every command ('' for the host itself).
    type: str
    default: ''
  commands:
    description: The commands, run in this order.
    type: list
    elements: dict
    required: true
    suboptions:
      name:
        description: The key of its result under commands.
        type: str
        required: true
      args:
        description: The arguments after --json (the nicnuma command and its options).
        type: list
        elements: str
        required: true
      ok_rcs:
        description: Exit statuses that are a valid report.
        type: list
        elements: int
        default: [0, 1]
  desired_file_of:
    description:
      - The name of an 'enable --dry-run' command above; the desired state
        file its JSON names (enable.config, under root) is read too.
    type: str
"""

RETURN = r"""
commands:
  description: Per command name, rc, stdout, stderr and json (the parsed stdout).
  type: dict
  returned: always
desired_file:
  description: path, exists and content ('' when missing) of the desired state file.
  type: dict
  returned: when desired_file_of is set
"""


def run(module, p, cmd):
    argv = [p["bin"]] + (["--root", p["root"]] if p["root"] else []) + ["--json"] + cmd["args"]
    rc, out, err = module.run_command(argv)
    res = dict(cmd=argv, rc=rc, stdout=out, stderr=err)
    if rc not in cmd["ok_rcs"]:
        return res, "%s exited %d: %s" % (" ".join(argv), rc, err.strip())
    try:
        res["json"] = json.loads(out)
    except ValueError as e:
        return res, "%s printed no JSON (%s): %s" % (" ".join(argv), e, out[:200])
    return res, None


def read_desired(root, preview):
    try:
        path = root + preview["enable"]["config"]
    except (KeyError, TypeError):
        return None, "enable --dry-run --json names no enable.config"
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return dict(path=path, exists=True, content=f.read()), None
    except OSError as e:
        if e.errno == errno.ENOENT:
            return dict(path=path, exists=False, content=""), None
        return None, "%s: %s" % (path, os.strerror(e.errno))


def main():
    module = AnsibleModule(
        argument_spec=dict(
            bin=dict(type="path", required=True),
            root=dict(type="str", default=""),
            commands=dict(type="list", elements="dict", required=True, options=dict(
                name=dict(type="str", required=True),
                args=dict(type="list", elements="str", required=True),
                ok_rcs=dict(type="list", elements="int", default=[0, 1]),
            )),
            desired_file_of=dict(type="str"),
        ),
        supports_check_mode=True,
    )
    p = module.params
    result = dict(changed=False, commands={})
    for cmd in p["commands"]:
        res, msg = run(module, p, cmd)
        result["commands"][cmd["name"]] = res
        if msg:
            module.fail_json(msg=msg, **result)
    of = p["desired_file_of"]
    if of:
        if of not in result["commands"]:
            module.fail_json(msg="desired_file_of: no command named %s" % of, **result)
        desired, msg = read_desired(p["root"], result["commands"][of]["json"])
        if msg:
            module.fail_json(msg=msg, **result)
        result["desired_file"] = desired
    module.exit_json(**result)


if __name__ == "__main__":
    main()
