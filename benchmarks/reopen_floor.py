"""Reopening to a tap answered, against Chromium's floor: the game page and the least page a
service worker can serve, reopened in alternating pairs on the same machine.

The floor is `benchmarks/floor/`: a page with one button, kept by its own minimal worker when it
is installed and served from that copy first. The benchmark serves it on 127.0.0.1 itself. The
game page is `scorer serve` (waitress) on a fresh SQLite database, a game of 4 players and a few
hands. Each side goes through a byte-counting proxy.

Each reopen, of either page, is the same: a fresh browser profile (a new renderer) opens the page
three times on a fast network, so the worker has a copy of it; for the game another phone then
records a hand; the phone rests (REST_S, `--rest`); the worker is stopped, as when a phone reopens
the app from its home screen; and the page is opened again on the throttled profile (400 ms
latency, 50 KiB/s down, CPU 4x slower).
From the navigation on, real touches (DevTools' Input.dispatchTouchEvent, a touch start and end)
land on the same spot, one at a time: the next 16 ms after the last, or once the browser has taken
the last (it holds touches back until the new page's first frame, and a busy page takes them
late), until the page has answered one:

- the game: the first "Who went out?" chip; answered when its radio is checked and the pad's
  summary names that player (the pad has added it up);
- the floor: its button; answered when its click handler has written its note.

"A tap answered" is the moment, in ms from navigation start, at which the page's DOM changed in
answer: a MutationObserver, put in each new document by the benchmark before the page's own code
(Page.addScriptToEvaluateOnNewDocument), notes performance.now() when the page first shows the
answer. It is the same few lines on both sides; the page carries nothing for it. Chromium is
driven over its bare DevTools pipe (bare_chromium.py): nothing of a test driver runs in the page.
The throttled tab shows a blank page at the phone's width before the reopen, as the phone's screen
would: see PHONE_SCREEN.

Beside the answer it prints each side's phases (Navigation Timing, the paints, when the new
document started and when the target was parsed) and their paired differences: where one side's
time goes that the other's does not.

    .venv/bin/python benchmarks/reopen_floor.py [--pairs 20] [--base REV] [--rest 5] [--how network]
    .venv/bin/python benchmarks/reopen_floor.py --first-visit --base REV [--pairs 20]
    .venv/bin/python benchmarks/reopen_floor.py --pairs 3 --trace DIR
    .venv/bin/python benchmarks/trace_tasks.py DIR/game-1.json

Each round's line gives each side's answer, when a tap first reached the target, the taps made
and how many landed off the target first (on a page not yet drawn, they land on its root).
`--trace DIR` writes Chromium's trace of each reopen into DIR, the floor's too, to set beside the
game's (floor-1.json, game-1.json...); trace_tasks.py lists its renderer main thread's long tasks
and what each spent its time on.

With `--base REV` the game page is also served by the code at that git revision (a worktree, as
in reopen_pairs.py), and each round reopens all three in turn. With `--first-visit` there is no
copy and no floor: each side's game page is opened for the first time in a fresh profile, on the
throttled profile, and tapped the same way; the working tree against `--base`.

Budgets: a reopen to a tap answered takes at most Chromium's floor + 0.15 s (the paired
differences' median); a first visit is no slower to a tap answered than the base revision (the
paired differences' 95% interval does not lie above zero).
"""

from __future__ import annotations

import argparse
import contextlib
import http.server
import json
import statistics
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bare_chromium import BareChromium, Tab  # noqa: E402
from page_weight import CPU_SLOWDOWN, PHONE, CountingProxy  # noqa: E402
from reopen import COPIED, throttled  # noqa: E402
from reopen_pairs import side, worktree  # noqa: E402
from support import median_interval, print_machine, scratch_folder, verdict  # noqa: E402

FLOOR = Path(__file__).resolve().parent / "floor"
BUDGET_MS = 150
TAP_EVERY_S = 0.016
# How often the benchmark asks the page whether it has answered yet, to stop tapping: each
# question is a little work on the page's main thread, so not at every tap.
LOOK_EVERY_S = 0.1
ANSWER_TIMEOUT_S = 15
SETTLE_TIMEOUT_S = 15
# How long the phone rests between its last visit and the reopen. A page reopened at once is helped
# by what the browser still holds from the visit, the game much more than the floor (paired: the
# game answered about 0.25 s later after 5 s than at once, the floor about 0.07 s), and a phone
# reopening the app from its home screen comes back later than that.
REST_S = 5.0

# Notes, in the page, of when a tap first reached the target, when the page first answered one,
# and whether it later took the answer away; `target` is the selector of what is tapped,
# `answered` a function that is true while the page shows the answer. The observer runs on every
# change to the document: a microtask per batch of changes, the same few lines on both sides.
WATCH = """(() => {
  const target = %(target)s;
  const answered = %(answered)s;
  const notes = (window.__tap = { started: performance.now(), missed: 0 });
  addEventListener('click', (event) => {
    if (notes.reached) return;
    if (event.target.closest && event.target.closest(target)) notes.reached = performance.now();
    else notes.missed += 1;
  }, { capture: true, passive: true });
  const watch = new MutationObserver(() => {
    if (!notes.target_parsed && document.querySelector(target)) {
      notes.target_parsed = performance.now();
    }
    if (notes.answered) {
      // Then only whether the page takes the answer away again (a later tap may restore it).
      if (!answered()) {
        notes.lost = performance.now();
        watch.disconnect();
      }
      return;
    }
    if (!answered()) return;
    notes.answered = performance.now();
    notes.on_copy = document.documentElement.hasAttribute('data-copy-of');
    requestAnimationFrame(() => { notes.frame = performance.now(); });
  });
  watch.observe(document, { childList: true, characterData: true, subtree: true });
})()"""
TIMING = """(() => {
  const t = performance.getEntriesByType('navigation')[0];
  const paints = Object.fromEntries(
    performance.getEntriesByType('paint').map((paint) => [paint.name, paint.startTime]));
  return { ...window.__tap, load: t.loadEventEnd, worker: t.workerStart, fetch: t.fetchStart,
           first_byte: t.responseStart, bytes_in: t.responseEnd, parsed: t.domInteractive,
           dcl_end: t.domContentLoadedEventEnd, first_paint: paints['first-paint'],
           fcp: paints['first-contentful-paint'],
           pad_ready: (performance.getEntriesByName('uno:pad-ready')[0] || {}).startTime };
})()"""
# A reopen's phases, ms from navigation start, in the order they usually come: the worker started,
# the fetch event dispatched to it, the copy's first and last bytes in, the new document's first
# script (the navigation committed), the target parsed, the first paints, the document parsed, its
# DOMContentLoaded handlers done, the game's pad drawn by its script (the uno:pad-ready mark), the
# first tap that reached the target, the answer, loaded.
PHASES = (
    "worker",
    "fetch",
    "first_byte",
    "bytes_in",
    "started",
    "target_parsed",
    "first_paint",
    "fcp",
    "parsed",
    "dcl_end",
    "pad_ready",
    "reached",
    "answered",
    "load",
)


@dataclass
class Page:
    """One side of the pairs: a page to reopen (or open) and tap, and how to know it answered."""

    name: str
    proxy: CountingProxy
    path: str
    target: str
    answered: str
    # For the game: another phone records a hand; gives the next hand's number, the fresh
    # scoreboard's (the pad tapped on the copy keeps its hand, as a tally being counted does).
    record_hand: Callable[[], int] | None = None
    # The fresh state is in: given the hand number, a JavaScript expression true once it is.
    fresh: Callable[[int], str] | None = None
    x: float = 0
    y: float = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.proxy.port}{self.path}"

    def watch(self) -> str:
        return WATCH % {"target": json.dumps(self.target), "answered": self.answered}


def game_page(name: str, proxy: CountingProxy, path: str, record_hand) -> Page:
    """The game page, tapped on the first "Who went out?" chip."""
    chip = "#hand-form .went-out label"
    # Checked, and the summary names the player: the pad has answered this tap, not drawn
    # itself, and not been handed a checked radio by a kept tally (there is none here).
    answered = f"""() => {{
      const chip = document.querySelector({json.dumps(chip)});
      const summary = document.querySelector('#hand-form [data-summary]');
      const radio = chip && chip.querySelector('input');
      return !!(radio && radio.checked && summary
        && summary.textContent.includes(chip.textContent.trim()));
    }}"""

    def fresh(number: int) -> str:
        return (
            "document.readyState === 'complete' && !document.documentElement.hasAttribute("
            f"'data-copy-of') && document.getElementById('scoreboard').dataset.next === '{number}'"
        )

    return Page(name, proxy, path, chip, answered, record_hand, fresh)


def floor_page(proxy: CountingProxy) -> Page:
    answered = (
        "() => { const out = document.getElementById('out'); return !!(out && out.textContent); }"
    )
    return Page("floor", proxy, "/", "#tap", answered)


class FloorHandler(http.server.BaseHTTPRequestHandler):
    """Serves a folder's files, its index.html at "/", never to be cached by HTTP: what keeps
    them is the folder's worker (sw.js). The floor is one such folder; reopen_parts.py makes
    others."""

    protocol_version = "HTTP/1.1"
    folder = FLOOR
    KINDS = {
        ".html": "text/html; charset=utf-8",
        ".js": "text/javascript; charset=utf-8",
        ".css": "text/css; charset=utf-8",
    }

    def do_GET(self) -> None:  # noqa: N802 - the name http.server calls
        path = self.path.split("?")[0]
        file = self.folder / ("index.html" if path == "/" else path.lstrip("/"))
        if "/" in path.lstrip("/") or file.suffix not in self.KINDS or not file.is_file():
            self.send_error(404)
            return
        body = file.read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", self.KINDS[file.suffix])
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args) -> None:
        pass


class FloorServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        # A browser profile closed with a request on its way: nothing to report.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@contextlib.contextmanager
def floor_site(
    folder: Path = FLOOR, page: Callable[[CountingProxy], Page] = floor_page
) -> Iterator[Page]:
    """A folder's page and worker (the floor's by default), served on 127.0.0.1 behind a
    counting proxy."""
    handler = type("FolderHandler", (FloorHandler,), {"folder": folder})
    server = FloorServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    proxy = CountingProxy(server.server_address[1])
    try:
        yield page(proxy)
    finally:
        proxy.close()
        server.shutdown()
        server.server_close()


# Driving the phone


def loaded(tab: Tab, page: Page) -> None:
    tab.wait_for(
        f"document.readyState === 'complete' && location.pathname === {json.dumps(page.path)}"
    )


def locate(chromium: BareChromium, page: Page) -> None:
    """Where the page's target is on the phone's screen, from one fast visit in a scratch
    profile: the taps go to its middle."""
    context = chromium.new_context()
    try:
        tab = chromium.new_tab(context, PHONE)
        tab.navigate(page.url)
        loaded(tab, page)
        box = tab.evaluate(
            f"(() => {{ const r = document.querySelector({json.dumps(page.target)})"
            ".getBoundingClientRect(); return [r.left, r.top, r.width, r.height, innerHeight]; })()"
        )
        left, top, width, height, screen = box
        assert width >= 44 or height >= 44, f"{page.name}: the target is {width}x{height} px"
        assert top + height <= screen, f"{page.name}: the target is below the first screen"
        page.x, page.y = left + width / 2, top + height / 2
    finally:
        chromium.close_context(context)


def tap(tab: Tab, page: Page) -> int:
    """Posts one touch on the target's spot, as a finger's, down and up at once; gives the id
    of the up, answered once the browser has taken the touch."""
    point = [{"x": page.x, "y": page.y}]
    tab.post("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": point}, keep=False)
    return tab.post("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})


def open_and_tap(tab: Tab, page: Page) -> int:
    """Navigates to the page and taps it until it has answered; gives the number of taps.

    One touch at a time: the next goes TAP_EVERY_S after the last, or as soon as the browser has
    taken the last (before the new page's first frame it holds touches back). The benchmark asks
    the page whether it has answered every LOOK_EVERY_S without holding the taps back."""
    tab.navigate(page.url)
    start = time.monotonic()
    next_tap = next_look = start
    touch = look = None
    taps = 0
    while time.monotonic() - start < ANSWER_TIMEOUT_S:
        now = time.monotonic()
        if touch is not None and tab.answer(touch) is not None:
            touch = None
        if touch is None and now >= next_tap:
            touch = tap(tab, page)
            taps += 1
            next_tap = now + TAP_EVERY_S
        if look is None and now >= next_look:
            expression = "!!(window.__tap && window.__tap.answered)"
            look = tab.post("Runtime.evaluate", {"expression": expression, "returnByValue": True})
            next_look = now + LOOK_EVERY_S
        elif look is not None and (seen := tab.answer(look)) is not None:
            look = None
            # An error (no "result") is a question asked between two documents: not yet.
            if seen.get("result", {}).get("result", {}).get("value"):
                return taps
        time.sleep(0.002)
    notes = tab.evaluate("JSON.stringify(window.__tap || null)")
    raise TimeoutError(f"{page.name}: no tap answered in {ANSWER_TIMEOUT_S} s: {notes}")


# The page the phone shows before the reopen: one laid out at the phone's width. A new tab's
# about:blank has no viewport, so Chromium lays it out 980 px wide at scale 0.4, and the touches it
# holds back until the next page's first frame were placed with that scale: the first tap landed at
# 0.4 times its spot (on the game, on the scoreboard above the chip; on the floor, still on its
# button at the top left), and only the next one, a round of taps later, on the target.
PHONE_SCREEN = "data:text/html,<meta name=viewport content='width=device-width, initial-scale=1'>"


def watched_tab(chromium: BareChromium, context: str, page: Page, how: str) -> Tab:
    tab = chromium.new_tab(context, PHONE)
    tab.navigate(PHONE_SCREEN)
    tab.wait_for("document.readyState === 'complete' && visualViewport.scale === 1")
    tab.send("Page.enable")  # for the script below, which Chromium runs in each new document
    tab.send("Page.addScriptToEvaluateOnNewDocument", {"source": page.watch()})
    throttled(tab.send, page.proxy, how)
    return tab


def settled(tab: Tab, page: Page, expected: int | None) -> dict:
    """The page's notes once it is loaded and, for the game, the fresh state is in."""
    done = "document.readyState === 'complete'"
    if page.fresh and expected is not None:
        done = page.fresh(expected)
    tab.wait_for(done, timeout_s=SETTLE_TIMEOUT_S)
    return tab.evaluate(TIMING)


def tapped(tab: Tab, page: Page, expected: int | None, trace: Path | None) -> dict:
    """The page opened in `tab` and tapped until it answers, then its notes once it has settled,
    with the taps made; with `trace`, Chromium's trace of all that is written there."""
    if trace:
        tab.start_trace()
    taps = open_and_tap(tab, page)
    notes = settled(tab, page, expected)
    if trace:
        tab.end_trace(trace)
    return {**notes, "taps": taps}


def reopen(
    chromium: BareChromium,
    page: Page,
    how: str,
    trace: Path | None = None,
    rest_s: float = REST_S,
) -> dict:
    """One fresh phone: three fast visits (the worker keeps a copy), for the game a hand recorded
    elsewhere, `rest_s` seconds of rest, then the throttled reopen, tapped until it answers; with
    `trace`, Chromium's trace of the reopen, from the navigation until the page has settled, is
    written there."""
    context = chromium.new_context()
    try:
        for visit in range(3):
            tab = chromium.new_tab(context, PHONE)
            tab.navigate(page.url)
            loaded(tab, page)
            tab.evaluate("navigator.serviceWorker.ready.then(() => true)", await_promise=True)
            if visit == 2:
                kept = tab.evaluate(f"({COPIED})({json.dumps(page.path)})", await_promise=True)
                assert kept, f"{page.name}: no copy of the page was kept"
            time.sleep(0.2)
            tab.close()
        expected = page.record_hand() if page.record_hand else None
        time.sleep(rest_s)
        notes = tapped(watched_tab(chromium, context, page, how), page, expected, trace)
        assert notes["worker"] > 0, f"{page.name}: the worker did not answer the reopen"
        return notes
    finally:
        page.proxy.unshape()
        chromium.close_context(context)


def first_visit(chromium: BareChromium, page: Page, how: str, trace: Path | None = None) -> dict:
    """One fresh phone opening the page for the first time, throttled, tapped until it answers;
    with `trace`, Chromium's trace of it is written there."""
    context = chromium.new_context()
    try:
        notes = tapped(watched_tab(chromium, context, page, how), page, None, trace)
        assert not notes["worker"], f"{page.name}: a worker answered a first visit"
        return notes
    finally:
        page.proxy.unshape()
        chromium.close_context(context)


# The report


def describe(values: list[float]) -> str:
    if not values:
        return "-"
    low, high = median_interval(values)
    return f"{statistics.median(values):.0f} ms (95% {low:.0f}-{high:.0f})"


def compare(name: str, ours: list[float], theirs: list[float]) -> tuple[float, float, float]:
    differences = [a - b for a, b in zip(ours, theirs, strict=True)]
    low, high = median_interval(differences)
    median = statistics.median(differences)
    print(f"  {name}: median {median:+.0f} ms (95% {low:+.0f} to {high:+.0f})")
    return median, low, high


def print_phases(results: dict[str, list[dict]]) -> None:
    """Each phase's median on each side and the paired differences' medians with their 95%
    intervals: of each side against the first (the floor) and, with a base revision, of the
    working tree against it. Where one side's time goes that the other's does not."""
    names = list(results)
    comparisons = [(name, names[0]) for name in names[1:]]
    if len(names) > 2:
        comparisons.append((names[-1], names[1]))
    print("Phases, ms from navigation start (medians; paired differences: median, 95% interval):")
    print("  phase          " + "".join(f"{name:>16}" for name in names))
    for phase in PHASES:
        cells = []
        for name in names:
            values = [notes[phase] for notes in results[name] if notes.get(phase)]
            cells.append(f"{statistics.median(values):16.0f}" if values else f"{'-':>16}")
        line = f"  {phase:<15}" + "".join(cells)
        for ours_name, theirs_name in comparisons:
            pairs = [
                (ours[phase], theirs[phase])
                for ours, theirs in zip(results[ours_name], results[theirs_name], strict=True)
                if ours.get(phase) and theirs.get(phase)
            ]
            if len(pairs) < 2:
                continue
            differences = [ours - theirs for ours, theirs in pairs]
            low, high = median_interval(differences)
            median = statistics.median(differences)
            line += f"   {ours_name} - {theirs_name} {median:+.0f} ({low:+.0f} to {high:+.0f})"
        print(line)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument(
        "--base", help="also serve the game page from this git revision, and pair it with ours"
    )
    parser.add_argument(
        "--first-visit",
        action="store_true",
        help="first visits (no copy, no floor): the working tree against --base",
    )
    parser.add_argument(
        "--rest",
        type=float,
        default=REST_S,
        help="seconds between the last visit and the reopen (0: at once, which flatters the game)",
    )
    parser.add_argument(
        "--how",
        choices=("devtools", "network"),
        default="devtools",
        help="throttle the network by DevTools (the page's requests) or at the proxy (all)",
    )
    parser.add_argument(
        "--trace",
        type=Path,
        help="write Chromium's trace of each reopen (or visit), the floor's too, into this folder",
    )
    args = parser.parse_args()
    if args.trace:
        args.trace.mkdir(parents=True, exist_ok=True)
    if args.first_visit and not args.base:
        parser.error("--first-visit compares with a revision: give --base")

    print_machine()
    results: dict[str, list[dict]] = {}
    with contextlib.ExitStack() as stack:
        pages: list[Page] = []
        if not args.first_visit:
            pages.append(stack.enter_context(floor_site()))
        if args.base:
            base_code = stack.enter_context(worktree(args.base))
            folder = stack.enter_context(scratch_folder("base-"))
            proxy, path, record_hand = stack.enter_context(side(folder, base_code))
            pages.append(game_page(f"game at {args.base}", proxy, path, record_hand))
        proxy, path, record_hand = stack.enter_context(
            side(stack.enter_context(scratch_folder("ours-")), None)
        )
        pages.append(game_page("game", proxy, path, record_hand))
        chromium = stack.enter_context(BareChromium())
        for page in pages:
            locate(chromium, page)
        results = {page.name: [] for page in pages}
        for pair in range(args.pairs):
            # Each side goes first in turn, so the machine's drift falls on all of them.
            shift = pair % len(pages)
            order = pages[shift:] + pages[:shift]
            line = []
            for page in order:
                trace = None
                if args.trace:
                    trace = args.trace / f"{page.name.replace(' ', '-')}-{pair + 1}.json"
                if args.first_visit:
                    notes = first_visit(chromium, page, args.how, trace)
                else:
                    notes = reopen(chromium, page, args.how, trace, args.rest)
                results[page.name].append(notes)
            for page in pages:
                notes = results[page.name][-1]
                line.append(
                    f"{page.name} {notes['answered']:5.0f} (reached {notes.get('reached', 0):4.0f},"
                    f" {notes['taps']:3d} taps, {notes.get('missed', 0)} off it)"
                )
            first, last = (results[page.name][-1]["answered"] for page in (pages[0], pages[-1]))
            line.append(f"{last - first:+.0f}")
            print(f"round {pair + 1:3d}: " + "; ".join(line), flush=True)

    kind = "first visit" if args.first_visit else "reopen"
    print(
        f"\nA {kind} to a tap answered, ms from navigation start; Chromium over its bare DevTools "
        f"pipe at {PHONE['viewport']['width']}x{PHONE['viewport']['height']}, touch; 400 ms "
        f"latency, 50 KiB/s, CPU {CPU_SLOWDOWN}x ({args.how}); {args.pairs} rounds, alternating:"
    )
    answered = {name: [notes["answered"] for notes in runs] for name, runs in results.items()}
    for name, runs in results.items():
        reached = [notes["reached"] for notes in runs if notes.get("reached")]
        frame = [notes["frame"] for notes in runs if notes.get("frame")]
        on_copy = sum(bool(notes.get("on_copy")) for notes in runs)
        lost = [notes["lost"] for notes in runs if notes.get("lost")]
        print(
            f"  {name}: answered {describe(answered[name])}; first tap on the target "
            f"{describe(reached)}; next frame {describe(frame)}; answered on the copy "
            f"{on_copy}/{len(runs)}; the answer taken away again {len(lost)}/{len(runs)}, "
            f"at {describe(lost)}"
        )
    print_phases(results)
    print("Paired differences:")
    ok = True
    if args.first_visit:
        _median, low, _high = compare(
            f"game - game at {args.base}", answered["game"], answered[f"game at {args.base}"]
        )
        ok = low <= 0
        print(f"First visit no slower than {args.base} (interval not above 0): {verdict(ok)}")
    else:
        median, low, high = compare("game - floor", answered["game"], answered["floor"])
        ok = median <= BUDGET_MS
        clearly = "clearly" if (high <= BUDGET_MS if ok else low > BUDGET_MS) else "not clearly"
        print(f"Reopen within floor + {BUDGET_MS} ms: {verdict(ok)} ({clearly}: the interval)")
        if args.base:
            base = f"game at {args.base}"
            compare(f"game - {base}", answered["game"], answered[base])
            compare(f"{base} - floor", answered[base], answered["floor"])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
