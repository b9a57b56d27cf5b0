"""Does a change make the reopen faster? Reopens in alternating pairs: the code at a git revision
against the working tree.

Sets of 30 reopens of the same code, minutes apart, have differed in median by 40-90 ms on the
machines this project is measured on (BENCHMARKS.md), more than most changes are worth. Here two
servers run side by side, one from a worktree of `--base` (through PYTHONPATH) and one from the
working tree, and each pair is one reopen of each, in alternating order, so the machine's drift
falls on both. Each reopen is reopen.py's (Playwright, a fresh profile, the worker stopped, slow
network by DevTools). Two measures:

- the pad responds, as reopen.py times it, throttled as there (CPU 4x): the real thing, but
  single differences spread widely (standard deviation 60-215 ms seen), so an effect of 20 ms
  needs a hundred pairs or more;
- with `--cpu`, the renderer main thread's CPU time in the first 400 ms of a reopen without CPU
  throttling, from Chromium's trace (each task's thread time): the page's own work, all of it
  done by then. Its differences spread by about 10 ms, so 10 pairs find 5 ms. It does not count
  time spent waiting, on the browser process (font lookups on Linux) or the service worker, so it
  suits changes to markup, styles and scripts.

    .venv/bin/python benchmarks/reopen_pairs.py --base HEAD [--pairs 20] [--cpu]

Both servers use the working tree's migrations: a base with another schema is not comparable.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from page_weight import CHROMIUM_ARGS, CHROMIUM_PATH, CPU_SLOWDOWN, CountingProxy  # noqa: E402
from reopen import reopen, reopened_game  # noqa: E402
from support import ROOT, median_interval, print_machine, scorer_serve, scratch_folder  # noqa: E402

# All of a reopen's own work is done by then without CPU throttling (the pad is drawn at
# 120-220 ms), and the fresh page, a 400 ms round trip away, has not come yet.
CPU_WINDOW_MS = 400


def main_thread_cpu_ms(trace: Path, url: str, window_ms: float = CPU_WINDOW_MS) -> float:
    """CPU time of the tasks the page's renderer main thread ran in its first `window_ms`."""
    events = json.loads(trace.read_text())["traceEvents"]
    starts = [
        event
        for event in events
        if event.get("name") == "navigationStart"
        and event.get("args", {}).get("data", {}).get("documentLoaderURL") == url
    ]
    assert starts, f"no navigation to {url} in the trace"
    start = starts[-1]
    main = next(
        event["tid"]
        for event in events
        if event.get("name") == "thread_name"
        and event["pid"] == start["pid"]
        and event["args"]["name"] == "CrRendererMain"
    )
    tasks = sorted(
        (
            event
            for event in events
            if event.get("name") == "ThreadControllerImpl::RunTask"
            and event["pid"] == start["pid"]
            and event["tid"] == main
            and event.get("ph") == "X"
        ),
        key=lambda event: event["ts"],
    )
    cpu_us, ends_at = 0, -1
    for task in tasks:
        since_ms = (task["ts"] - start["ts"]) / 1000
        # A task inside another (a nested run loop) is counted with it.
        if 0 <= since_ms <= window_ms and task["ts"] >= ends_at:
            cpu_us += task.get("tdur", 0)
            ends_at = task["ts"] + task.get("dur", 0)
    return cpu_us / 1000


@contextlib.contextmanager
def worktree(revision: str):
    """A checkout of `revision` in a scratch folder, removed afterwards."""
    with scratch_folder("reopen-base-") as folder:
        path = folder / "base"
        subprocess.run(
            ["git", "worktree", "add", "--detach", "--quiet", str(path), revision],
            cwd=ROOT,
            check=True,
        )
        try:
            yield path
        finally:
            remove = ["git", "worktree", "remove", "--force", str(path)]
            subprocess.run(remove, cwd=ROOT, check=True)


@contextlib.contextmanager
def side(folder: Path, code: Path | None):
    """A game on a fresh database, served by the code at `code` (the working tree if None)."""
    app, database, path, record_hand = reopened_game(folder)
    from scorer.extensions import db

    def dispose() -> None:
        with app.app_context():
            db.engine.dispose()

    with contextlib.ExitStack() as stack:
        stack.callback(dispose)
        with python_path(code):
            server = stack.enter_context(scorer_serve(database, folder))
        proxy = CountingProxy(server.port)
        stack.callback(proxy.close)
        yield proxy, path, record_hand


@contextlib.contextmanager
def python_path(code: Path | None):
    """Servers started meanwhile import the project from `code` (unchanged if None)."""
    before = os.environ.get("PYTHONPATH")
    if code:
        os.environ["PYTHONPATH"] = str(code)
    try:
        yield
    finally:
        os.environ.pop("PYTHONPATH", None)
        if before is not None:
            os.environ["PYTHONPATH"] = before


def describe(name: str, values: list[float]) -> str:
    low, high = median_interval(values)
    return f"{name}: median {statistics.median(values):.1f} ms (95% {low:.1f}-{high:.1f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the git revision to compare with")
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="the main thread's CPU time, unthrottled, instead of the throttled pad",
    )
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    print_machine()
    measure = "main thread CPU, first 400 ms, unthrottled" if args.cpu else "the pad responds"
    results: dict[str, list[float]] = {"base": [], "working tree": []}
    with contextlib.ExitStack() as stack:
        base_code = stack.enter_context(worktree(args.base))
        sides = {
            "base": stack.enter_context(side(stack.enter_context(scratch_folder("a-")), base_code)),
            "working tree": stack.enter_context(
                side(stack.enter_context(scratch_folder("b-")), None)
            ),
        }
        trace = stack.enter_context(scratch_folder("trace-")) / "reopen.json"
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(executable_path=CHROMIUM_PATH, args=CHROMIUM_ARGS)
        stack.callback(browser.close)
        for pair in range(args.pairs):
            order = list(sides) if pair % 2 == 0 else list(reversed(sides))
            for name in order:
                proxy, path, record_hand = sides[name]
                url = f"http://127.0.0.1:{proxy.port}{path}"
                times = reopen(
                    browser,
                    proxy,
                    url,
                    path,
                    "devtools",
                    record_hand,
                    cpu_slowdown=1 if args.cpu else CPU_SLOWDOWN,
                    trace=trace if args.cpu else None,
                )
                results[name].append(main_thread_cpu_ms(trace, url) if args.cpu else times["pad"])
            base, ours = results["base"][-1], results["working tree"][-1]
            print(f"pair {pair + 1:3d}: base {base:6.1f}, ours {ours:6.1f}, {ours - base:+.1f}")

    pairs = zip(results["base"], results["working tree"], strict=True)
    differences = [ours - base for base, ours in pairs]
    mean = statistics.mean(differences)
    spread = statistics.stdev(differences) if len(differences) > 1 else float("nan")
    print(f"\n{measure}, {args.pairs} pairs, base {args.base}:")
    for name, values in results.items():
        print("  " + describe(name, values))
    print(
        f"  working tree - base: mean {mean:+.1f} ms, standard deviation {spread:.1f}, "
        f"standard error {spread / len(differences) ** 0.5:.1f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
