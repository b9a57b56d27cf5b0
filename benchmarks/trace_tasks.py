"""Where a page's main thread spent its time: the long tasks in a Chromium trace, in order.

Reads a trace written by `reopen_floor.py --trace` (or DevTools' Performance panel, or any
Chromium JSON trace with the devtools.timeline categories), finds the renderer of the last
navigation to 127.0.0.1, and prints each of its main thread's tasks longer than `--longer-than`
ms: when it started (ms from that navigation's start, the clock performance.now() uses in the
page), how long it ran, and the events inside it that took the most time, such as ParseHTML,
UpdateLayoutTree (style), Layout, Paint, EvaluateScript, FunctionCall or an input's
EventDispatch. Nested events are each counted whole, so a task's parts add up to more than the
task. Then the input events the page handled, with their times.

    .venv/bin/python benchmarks/trace_tasks.py TRACE.json [--longer-than 6] [--until 1500]

A task run under CPU throttling (reopen_floor.py's 4x) takes about four times as long as it
would on the machine, which is what the page is held to: on a phone as slow.
"""

from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path

TASK_NAMES = {"ThreadControllerImpl::RunTask", "RunTask"}
INPUT_EVENTS = {"touchstart", "touchend", "pointerdown", "click", "change", "input"}


def load(path: Path) -> list[dict]:
    data = json.loads(path.read_text())
    return data["traceEvents"] if isinstance(data, dict) else data


def main_thread(events: list[dict]) -> tuple[tuple[int, int], float]:
    """The renderer main thread of the last navigation to the app, and that navigation's start
    (trace microseconds)."""
    navigations = [
        event
        for event in events
        if event.get("name") == "navigationStart"
        and "127.0.0.1" in json.dumps(event.get("args", {}))
    ]
    if not navigations:
        raise SystemExit("no navigation to 127.0.0.1 in this trace")
    navigation = navigations[-1]
    for event in events:
        if (
            event.get("ph") == "M"
            and event.get("name") == "thread_name"
            and event["pid"] == navigation["pid"]
            and event["args"].get("name") == "CrRendererMain"
        ):
            return (event["pid"], event["tid"]), navigation["ts"]
    raise SystemExit("no renderer main thread for that navigation")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trace", type=Path)
    parser.add_argument(
        "--longer-than", type=float, default=6, help="ms; shorter tasks are left out"
    )
    parser.add_argument("--until", type=float, default=1500, help="ms from the navigation's start")
    parser.add_argument("--parts", type=int, default=5, help="the largest events shown per task")
    args = parser.parse_args()

    events = load(args.trace)
    thread, start = main_thread(events)
    ours = sorted(
        (
            event
            for event in events
            if (event.get("pid"), event.get("tid")) == thread
            and event.get("ph") == "X"
            and start <= event["ts"] <= start + args.until * 1000
        ),
        key=lambda event: event["ts"],
    )
    # A task may be traced under both names, one inside the other: the outer one stands for both.
    tasks: list[dict] = []
    for event in ours:
        if event["name"] in TASK_NAMES:
            if tasks and event["ts"] < tasks[-1]["ts"] + tasks[-1].get("dur", 0):
                continue
            tasks.append(event)

    print(f"{args.trace}: tasks over {args.longer_than:g} ms, ms from the navigation's start")
    print("  start    ran  largest parts (ms)")
    busy = 0.0
    for task in tasks:
        ran = task.get("dur", 0) / 1000
        busy += ran
        if ran < args.longer_than:
            continue
        end = task["ts"] + task.get("dur", 0)
        parts: collections.Counter[str] = collections.Counter()
        for event in ours:
            if task["ts"] <= event["ts"] < end and event["name"] not in TASK_NAMES:
                parts[event["name"]] += event.get("dur", 0)
        largest = ", ".join(
            f"{name} {took / 1000:.0f}" for name, took in parts.most_common(args.parts)
        )
        print(f"  {(task['ts'] - start) / 1000:5.0f}  {ran:5.0f}  {largest}")
    print(f"  main thread busy in tasks: {busy:.0f} ms of the first {args.until:g}")

    print("input the page handled (type at ms):")
    handled = [
        f"{event['args']['data']['type']}@{(event['ts'] - start) / 1000:.0f}"
        for event in ours
        if event["name"] == "EventDispatch"
        and event.get("args", {}).get("data", {}).get("type") in INPUT_EVENTS
    ]
    print("  " + (" ".join(handled) or "none"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
