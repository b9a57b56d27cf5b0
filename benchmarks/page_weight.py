"""Page weight on a phone: what the game page costs to load, to load again, and to enter a hand.

`scorer serve` (waitress) runs in a subprocess on a fresh SQLite database with a game of 4 players
and a few hands. Debian's chromium (driven by Playwright, never Playwright's own browser) opens it
as a 390x844 touch phone, through a small byte-counting proxy on 127.0.0.1, so every byte the phone
receives is counted, the service worker's own fetches included. Chrome DevTools Protocol network
events give each request of the page: its type, where it came from (network, cache, service
worker) and its encodedDataLength (headers and compressed body).

    .venv/bin/python benchmarks/page_weight.py [--throttled-runs 3]

Budgets: first visit at most 40 KB transferred (offline support included, and the page's script
in modules with every word it shows sent by the server) with htmx the only script besides our
own; each hand-entry interaction at most one request with at most 4 KB of response; on the
throttled phone (400 ms latency, 50 KiB/s, 4x CPU slowdown) loadEventEnd within 1.5 s on the first
visit and 0.6 s on a repeat visit.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import socket
import statistics
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from queue import Queue

sys.path.insert(0, str(Path(__file__).resolve().parent))

from support import (  # noqa: E402
    free_port,
    play_hands,
    print_machine,
    production_app,
    scorer_serve,
    scratch_folder,
    start_game,
    verdict,
)

CHROMIUM_PATH = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 3,
    "is_mobile": True,
    "has_touch": True,
}
# Chrome DevTools' throttling is in bytes per second.
SLOW_NETWORK = {
    "offline": False,
    "latency": 400,
    "downloadThroughput": 50 * 1024,
    "uploadThroughput": 50 * 1024,
}
CPU_SLOWDOWN = 4
PLAYERS = 4
HANDS = 8
FIRST_VISIT_BUDGET = 40 * 1000
INTERACTION_BUDGET = 4 * 1024
FIRST_LOAD_BUDGET_MS = 1500
REPEAT_LOAD_BUDGET_MS = 600
OUR_SCRIPTS = re.compile(
    r"/static/(vendor/htmx-[\d.]+\.min\.js|js/app\.js|js/offline\.js)\?|/sw\.js$"
)
REQUEST_LINE = re.compile(rb"(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) (\S+) HTTP/1\.[01]\r\n")


# Counting every byte between the browser and the server


class CountingProxy:
    """A TCP proxy on 127.0.0.1 that counts bytes each way and notes each HTTP request line.

    With `shape(latency, rate)` it is also a slow network for everything through it, the service
    worker's fetches included (DevTools' throttling applies to the page only): each chunk from
    the server arrives `latency` seconds late, and all connections share `rate` bytes a second.
    """

    PIECE = 4096

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = free_port()
        self.lock = threading.Lock()
        self.down = self.up = self.connections = 0
        self.requests: list[str] = []
        self.shaping: tuple[float, float] | None = None
        self.line_free_at = 0.0
        self.listener = socket.create_server(("127.0.0.1", self.port))
        self.listener.settimeout(0.2)
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def shape(self, latency: float, rate: float) -> None:
        self.shaping = (latency, rate)

    def unshape(self) -> None:
        self.shaping = None

    def reset(self) -> None:
        with self.lock:
            self.down = self.up = self.connections = 0
            self.requests = []

    def snapshot(self) -> tuple[int, int, int, list[str]]:
        with self.lock:
            return self.down, self.up, self.connections, list(self.requests)

    def close(self) -> None:
        self.stopped.set()
        self.thread.join(timeout=5)
        self.listener.close()

    def _accept(self) -> None:
        while not self.stopped.is_set():
            try:
                browser, _ = self.listener.accept()
            except TimeoutError:
                continue
            server = socket.create_connection(("127.0.0.1", self.target_port))
            with self.lock:
                self.connections += 1
            threading.Thread(target=self._upward, args=(browser, server), daemon=True).start()
            queue: Queue[tuple[float, bytes] | None] = Queue()
            threading.Thread(target=self._receive, args=(server, queue), daemon=True).start()
            threading.Thread(target=self._deliver, args=(queue, browser), daemon=True).start()

    def _upward(self, browser: socket.socket, server: socket.socket) -> None:
        try:
            while data := browser.recv(65536):
                with self.lock:
                    self.up += len(data)
                    self.requests += [
                        f"{method.decode()} {path.decode()}"
                        for method, path in REQUEST_LINE.findall(data)
                    ]
                server.sendall(data)
        except OSError:
            pass
        finally:
            _close(browser, server)

    def _receive(self, server: socket.socket, queue: Queue) -> None:
        try:
            while data := server.recv(65536):
                queue.put((time.monotonic(), data))
        except OSError:
            pass
        finally:
            queue.put(None)

    def _deliver(self, queue: Queue, browser: socket.socket) -> None:
        try:
            while (item := queue.get()) is not None:
                arrived, data = item
                shaping = self.shaping
                if shaping is None:
                    pieces = [data]
                else:
                    latency, _rate = shaping
                    time.sleep(max(0.0, arrived + latency - time.monotonic()))
                    pieces = [data[i : i + self.PIECE] for i in range(0, len(data), self.PIECE)]
                for piece in pieces:
                    if shaping is not None:
                        with self.lock:
                            start = max(time.monotonic(), self.line_free_at)
                            self.line_free_at = start + len(piece) / shaping[1]
                            done = self.line_free_at
                        time.sleep(max(0.0, done - time.monotonic()))
                    with self.lock:
                        self.down += len(piece)
                    browser.sendall(piece)
        except OSError:
            pass
        finally:
            _close(browser)


def _close(*ends: socket.socket) -> None:
    for end in ends:
        with contextlib.suppress(OSError):
            end.shutdown(socket.SHUT_RDWR)


# What the page itself asked for, from Chrome DevTools Protocol network events


@dataclass
class Fetch:
    url: str
    kind: str
    method: str
    status: int = 0
    source: str = "network"
    encoded: int = 0


@dataclass
class Recorder:
    """Every request of one page, as DevTools' Network panel would list it."""

    fetches: dict[str, Fetch] = field(default_factory=dict)

    @classmethod
    def attach(cls, context, page):
        recorder = cls()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.on("Network.requestWillBeSent", recorder._sent)
        cdp.on("Network.requestServedFromCache", recorder._memory)
        cdp.on("Network.responseReceived", recorder._received)
        cdp.on("Network.loadingFinished", recorder._finished)
        return recorder, cdp

    def _sent(self, event) -> None:
        request = event["request"]
        self.fetches[event["requestId"]] = Fetch(
            request["url"], event.get("type", "Other"), request["method"]
        )

    def _memory(self, event) -> None:
        if fetch := self.fetches.get(event["requestId"]):
            fetch.source = "memory cache"

    def _received(self, event) -> None:
        fetch = self.fetches.get(event["requestId"])
        if fetch is None:
            return
        response = event["response"]
        fetch.status = response["status"]
        if response.get("fromServiceWorker"):
            fetch.source = "service worker"
        elif response.get("fromDiskCache"):
            fetch.source = "disk cache"
        elif response.get("fromPrefetchCache"):
            fetch.source = "prefetch cache"

    def _finished(self, event) -> None:
        if fetch := self.fetches.get(event["requestId"]):
            fetch.encoded = int(event["encodedDataLength"])

    def mark(self) -> int:
        return len(self.fetches)

    def since(self, mark: int, polls: bool = False) -> list[Fetch]:
        found = list(self.fetches.values())[mark:]
        return [fetch for fetch in found if polls or not is_poll(fetch.url)]


def is_poll(url: str) -> bool:
    """Whether a URL or a request line is the game page's poll."""
    return bool(re.search(r"/games/\d+/live$", url))


def short(url: str) -> str:
    return re.sub(r"^https?://[^/]+", "", url)


def settle(page, quiet_ms: int = 600) -> None:
    """Wait until the page is loaded, its service worker is ready and the network is quiet."""
    page.wait_for_load_state("load")
    page.evaluate(
        """() => 'serviceWorker' in navigator
            ? Promise.race([navigator.serviceWorker.ready, new Promise(r => setTimeout(r, 5000))])
            : null"""
    )
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(quiet_ms)


# The measurements


def visit(context, proxy: CountingProxy, url: str, label: str, report: list[str]):
    """Open `url` in a new tab and list what it cost; returns the page, its recorder, the bytes."""
    page = context.new_page()
    recorder, _cdp = Recorder.attach(context, page)
    proxy.reset()
    page.goto(url)
    settle(page)
    down, up, connections, lines = proxy.snapshot()
    fetches = recorder.since(0)
    polls_on_wire = [line for line in lines if is_poll(line.split(" ", 1)[1])]
    report.append(f"\n### {label}\n")
    report.append("| request | type | from | status | bytes (encoded) |")
    report.append("| --- | --- | --- | ---: | ---: |")
    for fetch in fetches:
        report.append(
            f"| {fetch.method} {short(fetch.url)} | {fetch.kind} | {fetch.source} "
            f"| {fetch.status} | {fetch.encoded:,} |"
        )
    page_bytes = sum(fetch.encoded for fetch in fetches)
    sources = {}
    for fetch in fetches:
        sources[fetch.source] = sources.get(fetch.source, 0) + 1
    report.append(
        f"\nThe page's requests: {len(fetches)} ("
        + ", ".join(f"{count} from the {source}" for source, count in sources.items())
        + f"), {page_bytes:,} bytes. On the wire (everything the phone received, "
        f"the service worker's own fetches included): {down:,} bytes down, {up:,} up, "
        f"{len(lines)} HTTP requests on {connections} connections: {', '.join(lines)}."
    )
    if polls_on_wire:
        report.append(f"(Polls in that window: {len(polls_on_wire)}.)")
    return page, recorder, down, fetches


def interactions(page, recorder: Recorder, proxy: CountingProxy, report: list[str]) -> bool:
    """Enter a hand by tapping, counting the requests and response bytes of each step."""
    pad = page.locator("#hand-form")
    title = pad.locator(".pad-title").inner_text()
    number = int(re.search(r"\d+", title).group())
    went_out = pad.locator(".went-out .chip").first
    steps = [("tap who went out", lambda: went_out.tap())]
    for index in range(1, PLAYERS):
        row = pad.locator(".tally").nth(index)
        steps.append(
            (f"select player {index + 1}'s hand", lambda row=row: row.locator(".tally-pick").tap())
        )
        for card in ("7", "20", "50"):
            steps.append(
                (
                    f"tap card {card}",
                    lambda card=card: pad.locator(f'.keys [data-card="{card}"]').tap(),
                )
            )
    steps.append(("tap Save", lambda: pad.get_by_role("button", name="Save hand").tap()))

    report.append("\n### Entering a hand by tapping\n")
    report.append("| step | requests | response bytes (encoded) | budget |")
    report.append("| --- | ---: | ---: | --- |")
    ok = True
    summary: dict[str, tuple[int, int, int, bool]] = {}
    background: list[str] = []
    for name, action in steps:
        mark = recorder.mark()
        proxy.reset()
        action()
        if name == "tap Save":
            page.locator("#hand-form .pad-title").filter(
                has_text=f"Record hand {number + 1}"
            ).wait_for()
        page.wait_for_timeout(250)  # room for any request the tap would have sent
        fetches = recorder.since(mark)
        # What the page asked for is the tap's doing; anything else on the wire in that window
        # (the browser checking its service worker for an update, a poll) is listed below.
        asked = {f"{fetch.method} {short(fetch.url)}" for fetch in fetches}
        background += [
            line for line in proxy.snapshot()[3] if line not in asked and not is_poll(line)
        ]
        count = len(fetches)
        size = sum(fetch.encoded for fetch in fetches)
        passed = count <= 1 and size <= INTERACTION_BUDGET
        ok &= passed
        key = re.sub(r"\d+", "N", name) if name != "tap Save" else name
        runs, requests, biggest, all_passed = summary.get(key, (0, 0, 0, True))
        summary[key] = (runs + 1, max(requests, count), max(biggest, size), all_passed and passed)
    for key, (runs, requests, biggest, passed) in summary.items():
        times = f" ({runs} times)" if runs > 1 else ""
        report.append(
            f"| {key}{times} | {requests} | {biggest:,} | {verdict(passed)} (<= 1, <= 4 KiB) |"
        )
    report.append(
        "\nRequests counts the most in one tap, bytes the largest response. Not caused by a tap, "
        f"on the wire meanwhile: {', '.join(background) or 'nothing'} (polls not listed)."
    )
    return ok


NAVIGATION_TIMING = """() => {
    const t = performance.getEntriesByType('navigation')[0];
    return [t.responseStart, t.domContentLoadedEventEnd, t.loadEventEnd];
}"""


THROTTLING = {
    "devtools": "DevTools throttling (the page's requests), service worker on",
    "devtools-no-sw": "DevTools throttling, service worker blocked",
    "network": "slow network at the proxy (every request, the service worker's too)",
}


def throttled_loads(browser, proxy: CountingProxy, url: str, how: str) -> list[list[float]]:
    """Navigation timings of a first and a repeat visit in a fresh profile on the slow phone."""
    workers = "block" if how == "devtools-no-sw" else "allow"
    context = browser.new_context(service_workers=workers, **PHONE)
    if how == "network":
        proxy.shape(SLOW_NETWORK["latency"] / 1000, SLOW_NETWORK["downloadThroughput"])
    try:
        loads = []
        for _visit in ("first", "repeat"):
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            if how != "network":
                cdp.send("Network.emulateNetworkConditions", SLOW_NETWORK)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
            page.goto(url, timeout=60_000)
            loads.append(page.evaluate(NAVIGATION_TIMING))
            settle(page)
            page.close()
        return loads
    finally:
        proxy.unshape()
        context.close()


def throttled(browser, proxy: CountingProxy, url: str, runs: int, report: list[str]) -> list[str]:
    timings: dict[tuple[str, str], list[list[float]]] = {}
    for _run in range(runs):
        for how in THROTTLING:
            first, repeat = throttled_loads(browser, proxy, url, how)
            timings.setdefault((how, "first"), []).append(first)
            timings.setdefault((how, "repeat"), []).append(repeat)
    report.append("\n### Throttled phone\n")
    report.append(
        f"400 ms latency, 50 KiB/s, CPU {CPU_SLOWDOWN}x slower; {runs} runs of each, each in a "
        "fresh browser profile; the repeat visit is a new tab in the same profile. Times in ms "
        "from navigation start (medians): first byte of the page, DOMContentLoaded, "
        "loadEventEnd. DevTools' throttling does not slow the service worker's own fetches (on "
        "a repeat visit it fetches the page), so the slow network is also made at the proxy.\n"
    )
    report.append(
        "| throttling | visit | loadEventEnd, each run | first byte | DOMContentLoaded "
        "| loadEventEnd | budget |"
    )
    report.append("| --- | --- | --- | ---: | ---: | ---: | --- |")
    failed = []
    for (how, visit_name), values in timings.items():
        columns = [statistics.median(value[i] for value in values) for i in range(3)]
        budget = FIRST_LOAD_BUDGET_MS if visit_name == "first" else REPEAT_LOAD_BUDGET_MS
        ok = columns[2] <= budget
        if not ok and how != "devtools-no-sw":
            failed.append(f"throttled {visit_name} visit ({how})")
        runs_text = ", ".join(f"{value[2]:.0f}" for value in values)
        report.append(
            f"| {THROTTLING[how]} | {visit_name} | {runs_text} | {columns[0]:.0f} "
            f"| {columns[1]:.0f} | {columns[2]:.0f} | {verdict(ok)} (<= {budget}) |"
        )
    return failed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--throttled-runs", type=int, default=3)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    print_machine()
    report: list[str] = []
    failures: list[str] = []
    with scratch_folder("page-weight-") as folder:
        database = f"sqlite:///{folder / 'bench.sqlite'}"
        app = production_app(database, folder)
        from scorer.extensions import db

        with app.app_context():
            game = start_game(db.session, PLAYERS, target=500)
            play_hands(db.session, game.id, HANDS, PLAYERS)
            game_id = game.id
            db.session.remove()
            db.engine.dispose()

        with scorer_serve(database, folder) as server, sync_playwright() as playwright:
            proxy = CountingProxy(server.port)
            browser = playwright.chromium.launch(executable_path=CHROMIUM_PATH, args=CHROMIUM_ARGS)
            try:
                url = f"http://127.0.0.1:{proxy.port}/games/{game_id}"
                report.append(
                    f"Chromium {browser.version} at {PHONE['viewport']['width']}x"
                    f"{PHONE['viewport']['height']}, {PHONE['device_scale_factor']}x, touch; "
                    f"a standard game of {PLAYERS} players with {HANDS} hands; "
                    "scorer serve (waitress) on SQLite."
                )
                context = browser.new_context(**PHONE)
                page, _recorder, first_bytes, fetches = visit(
                    context, proxy, url, "First visit (empty cache)", report
                )
                scripts = [fetch for fetch in fetches if fetch.kind == "Script"]
                script_bytes = sum(fetch.encoded for fetch in scripts)
                foreign = [fetch.url for fetch in scripts if not OUR_SCRIPTS.search(fetch.url)]
                by_kind: dict[str, int] = {}
                for fetch in fetches:
                    by_kind[fetch.kind] = by_kind.get(fetch.kind, 0) + fetch.encoded
                report.append(
                    "By type (the page's requests): "
                    + ", ".join(f"{kind} {size:,}" for kind, size in by_kind.items())
                    + f". JavaScript: {script_bytes:,} bytes in {len(scripts)} files: "
                    + ", ".join(short(fetch.url) for fetch in scripts)
                    + "."
                )
                ok = first_bytes <= FIRST_VISIT_BUDGET and not foreign
                report.append(
                    f"\n**First visit: {first_bytes:,} bytes on the wire; scripts other than htmx "
                    f"and ours: {foreign or 'none'}. Budget <= {FIRST_VISIT_BUDGET // 1000} KB, "
                    f"htmx the only library: {verdict(ok)}.**"
                )
                if not ok:
                    failures.append("first visit weight")
                page.close()

                page, recorder, repeat_bytes, _ = visit(
                    context, proxy, url, "Repeat visit (a new tab, same phone)", report
                )
                report.append(f"\n**Repeat visit: {repeat_bytes:,} bytes on the wire.**")
                if not interactions(page, recorder, proxy, report):
                    failures.append("hand entry")
                context.close()

                failures += throttled(browser, proxy, url, args.throttled_runs, report)
            finally:
                browser.close()
                proxy.close()
    print("\n".join(report))
    print(f"\nBudgets failed: {', '.join(failures) or 'none'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
