"""CPU seconds per test file, the browsers and servers a test starts included: `-p cpu_times`.

Wall times say little on a shared machine; CPU time says what a file costs whoever runs it. A
test's CPU is that of its process and every process under it (Chromium, Playwright's driver, the
servers a test starts), and of those that ended, which their parents count once they reap them.
Each process writes its files' totals to build/cpu-times/<worker>.json; the controller prints
them, the costliest first, at the end of the run, and how long each worker sat idle at the end
while another still ran (what a file handed out late costs).
"""

from __future__ import annotations

import json
import os
import time
from collections import defaultdict
from pathlib import Path

import psutil
import pytest

FOLDER = Path("build/cpu-times")


def _cpu(process: psutil.Process) -> float:
    try:
        times = process.cpu_times()
    except psutil.Error:
        return 0.0
    return times.user + times.system + times.children_user + times.children_system


class CpuTimes:
    def __init__(self) -> None:
        self.me = psutil.Process()
        self.per_file: dict[str, float] = defaultdict(float)
        self.worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        self.last_end = 0.0

    def total(self) -> float:
        return _cpu(self.me) + sum(_cpu(child) for child in self.me.children(recursive=True))

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem):
        before = self.total()
        yield
        # Negative only when a process ended unreaped (its parent gone too): what it spent is lost.
        self.per_file[item.nodeid.split("::")[0]] += max(0.0, self.total() - before)
        self.last_end = time.time()

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        FOLDER.mkdir(parents=True, exist_ok=True)
        record = {"files": self.per_file, "last_end": self.last_end}
        (FOLDER / f"{self.worker}.json").write_text(json.dumps(record, indent=1))

    def pytest_terminal_summary(self, terminalreporter) -> None:
        if self.worker != "main":
            return
        totals: dict[str, float] = defaultdict(float)
        ends: dict[str, float] = {}
        for path in FOLDER.glob("*.json"):
            record = json.loads(path.read_text())
            for name, cpu in record["files"].items():
                totals[name] += cpu
            if record["last_end"]:
                ends[path.stem] = record["last_end"]
        terminalreporter.section("CPU seconds per file")
        for name, cpu in sorted(totals.items(), key=lambda pair: -pair[1]):
            terminalreporter.write_line(f"{cpu:8.1f}  {name}")
        terminalreporter.write_line(f"{sum(totals.values()):8.1f}  in all")
        for worker, end in sorted(ends.items()):
            idle = max(ends.values()) - end
            terminalreporter.write_line(f"{worker}: idle {idle:.1f} s at the end")


def pytest_configure(config: pytest.Config) -> None:
    if config.pluginmanager.hasplugin("cpu_times_recorder"):
        return
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        for old in FOLDER.glob("*.json"):
            old.unlink()
    config.pluginmanager.register(CpuTimes(), "cpu_times_recorder")
