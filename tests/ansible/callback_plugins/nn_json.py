# SPDX-License-Identifier: GPL-2.0-or-later
"""nn_json: the play's results as one JSON document on stdout, for run.sh.

Debian's ansible-core ships no json callback (it lives in the ansible.posix
collection); this is the part of its format tests/ansible/run.sh reads:
{"plays": [{"tasks": [{"task": {"name"}, "hosts": {HOST: RESULT}}]}],
 "stats": {HOST: {"ok", "changed", "failures", "unreachable", "skipped"}}}
Results go to their own task (by its id), not to the last one started: under
strategy free the hosts are at different tasks. Each host's result also
carries nn_seconds, that host's time on the task (from the task's start or
the host's previous result, whichever came later): where a slow fleet spends
its time.
"""
import json
import time

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
        self.tasks = {}      # task id -> (its entry in plays, its start)
        self.host_t = {}     # host -> time of its last result

    def v2_playbook_on_play_start(self, play):
        self.plays.append({"play": {"name": play.get_name()}, "tasks": []})

    def _task(self, task):
        if task._uuid in self.tasks:     # strategy free: once per host
            return
        entry = {"task": {"name": task.get_name()}, "hosts": {}}
        self.plays[-1]["tasks"].append(entry)
        self.tasks[task._uuid] = (entry, time.monotonic())

    def v2_playbook_on_task_start(self, task, is_conditional):
        self._task(task)

    def v2_playbook_on_handler_task_start(self, task):
        self._task(task)

    def _record(self, result, **extra):
        res = dict(result._result)
        res.update(extra)
        host = result._host.get_name()
        if result._task._uuid not in self.tasks:
            self._task(result._task)
        entry, t0 = self.tasks[result._task._uuid]
        now = time.monotonic()
        res["nn_seconds"] = round(now - max(t0, self.host_t.get(host, t0)), 2)
        self.host_t[host] = now
        entry["hosts"][host] = res

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
