#!/usr/bin/python
# SPDX-License-Identifier: GPL-2.0-or-later
"""nicnuma_preview: report what nicnuma enable/disable would change, as a diff.

The nicnuma role's check-mode step. It reads and writes nothing on the host:
its inputs come from read-only commands (nicnuma status --json, nicnuma enable
--dry-run --json) and the desired state file as it is. It reports changed when
there is a reason (the role's comparison found a difference), and a diff of
the desired state file followed by the live values the apply would write, so
'ansible-playbook --check --diff' shows them.
"""

from ansible.module_utils.basic import AnsibleModule

DOCUMENTATION = r"""
module: nicnuma_preview
short_description: Report the changes nicnuma enable or disable would make
description:
  - Pure report for check mode; touches nothing on the host.
options:
  path:
    description: The desired state file (shown as the diff's header).
    type: str
    required: true
  before:
    description: The file's content now ('' when missing).
    type: str
    default: ''
  after:
    description: The content nicnuma enable would write ('' when removed).
    type: str
    default: ''
  values:
    description: The values of 'nicnuma enable --dry-run --json' with status would_change.
    type: list
    elements: dict
    default: []
  reasons:
    description: Why the role would act; empty means nothing to do.
    type: list
    elements: str
    default: []
  action:
    description: The nicnuma command that would run.
    type: str
    choices: [enable, disable]
    required: true
"""


def value_lines(values, key):
    lines = []
    for v in values:
        where = v.get("path") or "%s %s" % (v.get("kind"), v.get("nic"))
        lines.append("%s = %s\n" % (where, v.get(key)))
    return "".join(lines)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            path=dict(type="str", required=True),
            before=dict(type="str", default=""),
            after=dict(type="str", default=""),
            values=dict(type="list", elements="dict", default=[]),
            reasons=dict(type="list", elements="str", default=[]),
            action=dict(type="str", choices=["enable", "disable"], required=True),
        ),
        supports_check_mode=True,
    )
    p = module.params
    before, after = p["before"], p["after"]
    if p["values"]:
        sep = "# live values (nicnuma enable --dry-run)\n"
        before += sep + value_lines(p["values"], "before")
        after += sep + value_lines(p["values"], "planned")
    changed = bool(p["reasons"])
    result = dict(changed=changed, reasons=p["reasons"], would_change=len(p["values"]))
    if changed:
        result["msg"] = "nicnuma %s would run: %s" % (p["action"], "; ".join(p["reasons"]))
        result["diff"] = dict(before=before, after=after,
                              before_header=p["path"],
                              after_header="%s (after nicnuma %s)" % (p["path"], p["action"]))
    else:
        result["msg"] = "nothing to do: the host is as desired"
    module.exit_json(**result)


if __name__ == "__main__":
    main()
