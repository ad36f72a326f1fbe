# SPDX-License-Identifier: GPL-2.0-or-later
"""nn_json: the play's results as one JSON document on stdout, for run.sh.

Debian's ansible-core ships no json callback (it lives in the ansible.posix
collection); this is the part of its format tests/ansible/run.sh reads:
{"plays": [{"tasks": [{"task": {"name"}, "hosts": {HOST: RESULT}}]}],
 "stats": {HOST: {"ok", "changed", "failures", "unreachable", "skipped"}}}
"""
import json

from ansible.plugins.callback import CallbackBase

DOCUMENTATION = r"""
name: nn_json
type: stdout
short_description: one JSON document of task results and stats (tests only)
description: The subset of ansible.posix.json that tests/ansible/run.sh reads.
"""


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "stdout"
    CALLBACK_NAME = "nn_json"

    def __init__(self, display=None):
        super().__init__(display)
        self.plays = []

    def v2_playbook_on_play_start(self, play):
        self.plays.append({"play": {"name": play.get_name()}, "tasks": []})

    def _task(self, task):
        self.plays[-1]["tasks"].append({"task": {"name": task.get_name()}, "hosts": {}})

    def v2_playbook_on_task_start(self, task, is_conditional):
        self._task(task)

    def v2_playbook_on_handler_task_start(self, task):
        self._task(task)

    def _record(self, result, **extra):
        res = dict(result._result)
        res.update(extra)
        self.plays[-1]["tasks"][-1]["hosts"][result._host.get_name()] = res

    def v2_runner_on_ok(self, result, **kwargs):
        self._record(result)

    def v2_runner_on_failed(self, result, ignore_errors=False, **kwargs):
        self._record(result, failed=True)

    def v2_runner_on_unreachable(self, result, **kwargs):
        self._record(result, unreachable=True)

    def v2_runner_on_skipped(self, result, **kwargs):
        self._record(result, skipped=True)

    def v2_playbook_on_stats(self, stats):
        hosts = {}
        for h in sorted(stats.processed.keys()):
            s = stats.summarize(h)
            hosts[h] = {"ok": s["ok"], "changed": s["changed"], "failures": s["failures"],
                        "unreachable": s["unreachable"], "skipped": s["skipped"]}
        self._display.display(json.dumps({"plays": self.plays, "stats": hosts},
                                         default=str, sort_keys=True))
