"""Reopening a game on a slow phone: how soon the pad responds, and how soon the state is fresh.

`scorer serve` (waitress) runs on a fresh SQLite database with a game of 4 players and a few hands.
Debian's chromium opens the game page twice on a fast network (the second visit, under the service
worker, leaves the phone's copy), then another phone records a hand, and the page is opened again
on the throttled profile (400 ms latency, 50 KiB/s down, 4x CPU slowdown), as a player reopening
the game from the home screen would. Measured from navigation start:

- the pad responds: the pad is on screen and answers a tap, whichever comes later of
  - the pad painted: Element Timing's render time of the pad's first row ("Who went out?") and
    of its Save button, whichever is later (the fresh page's pad where the copy's was never
    painted whole before it was replaced), and
  - the pad's script ready: app.js's `uno:pad-ready` mark, set once its tap handlers are in place
    (DOMContentLoaded's end where a page has no such mark); DOMContentLoaded's end, when htmx
    has started too and the pad was drawn from a tally kept on the phone, is shown beside it;
  a tap is then checked to change the pad's summary, untimed: Playwright's own checks before a
  tap run in the throttled page and would be counted too;
- the copy shows: the page parsed so far is the copy (html[data-copy-of]);
- the fresh state: the copy's mark is gone because the server's page replaced it (app.js),
  checked by the hand number the fresh pad shows.

The worker is stopped before the reopen, as it is when a phone reopens the app from its home
screen.

The same open with the service worker blocked (no copy: the network alone) is measured too, for
comparison. Throttling is made either by DevTools (the page's requests; navigation preload and the
worker's own fetches may escape it) or at a proxy in front of the server (every request).

    .venv/bin/python benchmarks/reopen.py [--runs 5] [--how devtools,network] [--phases]
                                          [--driver bare]

`--driver bare` drives Chromium over its DevTools pipe with nothing else (bare_chromium.py):
Playwright enables several DevTools domains in each tab and injects its scripts into pages, which
a phone does not run. It measures the reopens from the copy, without the untimed tap.

Budget (reopening a game from the phone's copy): the pad responds within 0.3 s; the fresh state
follows within one round trip.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bare_chromium import BareChromium  # noqa: E402
from page_weight import (  # noqa: E402
    CHROMIUM_ARGS,
    CHROMIUM_PATH,
    CPU_SLOWDOWN,
    PHONE,
    SLOW_NETWORK,
    CountingProxy,
    settle,
)
from support import (  # noqa: E402
    median_interval,
    play_hands,
    print_machine,
    production_app,
    scorer_serve,
    scratch_folder,
    start_game,
    verdict,
)

PLAYERS = 4
HANDS = 8
PAD_BUDGET_MS = 300
# How long the bare driver leaves a reopen alone before asking the page anything.
BARE_WAIT_S = 3
# When the copy showed, when the pad was painted and when the fresh page replaced the copy, in ms
# from navigation start, noted by the page itself as it happens.
# Element Timing times an element's first paint only if the element was named before then. Each
# end of the pad is named as soon as it is parsed, on its own: the parser may hand the pad's first
# row to a frame before it has reached Save, and a row painted unnamed is never timed. The pad
# the page opens with is "pad"; the one the fresh page puts in its place is "fresh", which counts
# only when the first one was never painted whole.
WATCH = """(() => {
  const times = (window.__reopen = {});
  const since = () => Math.round(performance.now());
  const ends = { first: '#hand-form .went-out legend', last: '#hand-form button[value=save]' };
  const named = new Set();
  const name = (pad) => {
    for (const [end, selector] of Object.entries(ends)) {
      const element = document.querySelector(selector);
      if (element && !named.has(`${pad}-${end}`)) {
        element.setAttribute('elementtiming', `${pad}-${end}`);
        named.add(`${pad}-${end}`);
      }
    }
    return named.has(`${pad}-first`) && named.has(`${pad}-last`);
  };
  const watch = new MutationObserver(() => {
    const html = document.documentElement;
    if (!html) return;
    if (html.hasAttribute('data-copy-of')) times.copy = times.copy || since();
    else if (times.copy && !times.fresh) times.fresh = since();
    // The copy is replaced in one go, mark and all: only the mark's removal matters until then.
    if (times.fresh ? name('fresh') : name('pad')) {
      watch.disconnect();
      const mark = { attributes: true, attributeFilter: ['data-copy-of'] };
      if (!times.fresh) watch.observe(html, mark);
    }
  });
  watch.observe(document, { childList: true, subtree: true });
  const whole = (pad) => times[`${pad}-first`] && times[`${pad}-last`]
    && Math.max(times[`${pad}-first`], times[`${pad}-last`]);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (!(entry.identifier in times)) times[entry.identifier] = Math.round(entry.renderTime);
    }
    times.painted = whole('pad') || whole('fresh') || undefined;
    if (times.painted) times.painted_by = whole('pad') ? 'pad' : 'fresh';
  }).observe({ type: 'element', buffered: true });
})()"""
TIMING = """() => {
  const t = performance.getEntriesByType('navigation')[0];
  const paints = performance.getEntriesByType('paint');
  const paint = Object.fromEntries(paints.map((p) => [p.name, p.startTime]));
  const ready = performance.getEntriesByName('uno:pad-ready')[0];
  return {
    ready: ready ? ready.startTime : null,
    dcl_end: t.domContentLoadedEventEnd, load: t.loadEventEnd, first_byte: t.responseStart,
    worker: t.workerStart, bytes_in: t.responseEnd, parsed: t.domInteractive,
    dcl_start: t.domContentLoadedEventStart,
    first_paint: paint['first-paint'], fcp: paint['first-contentful-paint'],
  };
}"""
# The page's own notes, once the pad has been painted and, on a reopen from the copy, the fresh
# state has replaced it; or whatever they hold after 10 s, for the checks to name what is missing.
SETTLED = """() => new Promise((done) => {
  const times = window.__reopen;
  const settled = () => times.painted && (!times.copy || times.fresh);
  const over = () => settled() || performance.now() > 10000;
  const check = () => (over() ? done(times) : setTimeout(check, 50));
  check();
})"""
# What a trace of the reopen needs: each task on the renderer's main thread, with its thread time.
TRACED = ["toplevel", "blink.user_timing", "loading"]
TITLE = "() => document.querySelector('#hand-form .pad-title').textContent"
COPIED = """(path) => caches.keys()
  .then((keys) => Promise.all(keys.map((key) => caches.open(key).then((c) => c.match(path)))))
  .then((found) => found.some(Boolean))"""


def throttled(send, proxy: CountingProxy, how: str, cpu_slowdown: float = CPU_SLOWDOWN) -> None:
    """The tab, through `send` (a DevTools command), made a slow phone reopening the app."""
    # A phone reopening the app from its home screen starts the worker too.
    send("ServiceWorker.enable")
    send("ServiceWorker.stopAllWorkers")
    if how == "network":
        proxy.shape(SLOW_NETWORK["latency"] / 1000, SLOW_NETWORK["downloadThroughput"])
    else:
        send("Network.enable")
        send("Network.emulateNetworkConditions", SLOW_NETWORK)
    send("Emulation.setCPUThrottlingRate", {"rate": cpu_slowdown})
    proxy.reset()


def measured(evaluate, proxy: CountingProxy, how: str, expected: int, path: str) -> dict:
    """The reopen's times, read with `evaluate` (a function's source to its value) once it is
    known to have been what it should; with "pad" added."""
    times = {**evaluate(SETTLED), **evaluate(TIMING)}
    title = evaluate(TITLE)
    requests = proxy.snapshot()[3]
    assert times.get("painted"), f"the pad's paint was not timed: {times}"
    assert times.get("ready") is not None, "the page has no uno:pad-ready mark"
    assert title.strip() == f"Record hand {expected}", f"not the fresh state: {title}"
    if how != "no-sw":
        assert times.get("copy") and times.get("fresh"), f"no copy, or it stayed: {times}"
        # The fresh state is the navigation preload: the page is asked for once, not twice.
        asked = requests.count(f"GET {path}")
        assert asked == 1, f"the page was asked for {asked} times: {requests}"
    times["pad"] = max(times["painted"], times["ready"])
    return times


def reopen(
    browser,
    proxy: CountingProxy,
    url: str,
    path: str,
    how: str,
    record_hand,
    cpu_slowdown: float = CPU_SLOWDOWN,
    trace: Path | None = None,
) -> dict:
    """One fresh phone: two fast visits, a hand recorded elsewhere, then the throttled reopen
    (with Chromium's trace of it written to `trace`, if given: reopen_pairs.py reads it)."""
    workers = "block" if how == "no-sw" else "allow"
    context = browser.new_context(service_workers=workers, **PHONE)
    try:
        if workers == "allow":
            for _visit in range(2):
                page = context.new_page()
                page.goto(url)
                settle(page, quiet_ms=200)
                page.close()
            page = context.new_page()
            page.goto(url)
            settle(page, quiet_ms=0)
            assert page.evaluate(COPIED, path), "no copy of the page was kept"
            page.close()
        expected = record_hand()

        page = context.new_page()
        page.add_init_script(WATCH)
        throttled(context.new_cdp_session(page).send, proxy, how, cpu_slowdown)
        # Playwright's locators first inject a script of 330 KB, 20-25 ms of the throttled page's
        # time, which landed before the pad's first paint when DOMContentLoaded came early: none
        # is used until the page is measured. Waiting for "load" and then evaluating a few lines
        # injects nothing. (Playwright's DevTools domains in the tab stay: see --driver bare.)
        tracing = contextlib.ExitStack()
        if trace:
            browser.start_tracing(path=str(trace), categories=TRACED)
            tracing.callback(browser.stop_tracing)
        with tracing:
            page.goto(url, wait_until="load", timeout=60_000)
            times = measured(page.evaluate, proxy, how, expected, path)
        # Not timed: the pad does answer a tap.
        page.locator("#hand-form .went-out .chip").first.tap()
        page.locator("#hand-form [data-summary]").filter(has_text="scores").wait_for()
        return times
    finally:
        proxy.unshape()
        context.close()


def reopen_bare(chromium, proxy: CountingProxy, url: str, path: str, how: str, record_hand) -> dict:
    """The same reopen as `reopen`, with Chromium driven over its bare DevTools pipe."""
    if how == "no-sw":
        raise ValueError("the bare driver measures reopens from the copy only")
    loaded = f"document.readyState === 'complete' && location.pathname === {json.dumps(path)}"
    context = chromium.new_context()
    try:
        for visit in range(3):
            tab = chromium.new_tab(context, PHONE)
            tab.navigate(url)
            tab.wait_for(loaded)
            tab.evaluate("navigator.serviceWorker.ready.then(() => true)", await_promise=True)
            if visit == 2:
                assert tab.evaluate(f"({COPIED})({json.dumps(path)})", await_promise=True), (
                    "no copy of the page was kept"
                )
            time.sleep(0.2)
            tab.close()
        expected = record_hand()

        tab = chromium.new_tab(context, PHONE)
        tab.send("Page.enable")  # for the script below, which Chromium runs in each new document
        tab.send("Page.addScriptToEvaluateOnNewDocument", {"source": WATCH})
        throttled(tab.send, proxy, how)
        tab.navigate(url)
        # Nothing is asked of the page until the reopen is over.
        time.sleep(BARE_WAIT_S)
        times = measured(
            lambda source: tab.evaluate(f"({source})()", await_promise=True),
            proxy,
            how,
            expected,
            path,
        )
        assert 0 < times["load"] < BARE_WAIT_S * 1000, (
            f"the page was asked before its reopen was over: loaded at {times['load']} ms"
        )
        return times
    finally:
        proxy.unshape()
        chromium.close_context(context)


def reopened_game(folder: Path):
    """A game of PLAYERS with HANDS hands on a fresh SQLite database in `folder`: the app, the
    database's URL, the game page's path, and `record_hand`, by which another phone records a
    hand and which gives the number the fresh pad then shows."""
    database = f"sqlite:///{folder / 'bench.sqlite'}"
    app = production_app(database, folder)
    from scorer.extensions import db
    from scorer.services import games

    with app.app_context():
        game_id = start_game(db.session, PLAYERS, target=100_000).id
        play_hands(db.session, game_id, HANDS, PLAYERS)
        db.session.remove()

    def record_hand() -> int:
        with app.app_context():
            play_hands(db.session, game_id, 1, PLAYERS)
            number = games.load_game(db.session, game_id).state.next_hand_number
            db.session.remove()
            return number

    return app, database, f"/games/{game_id}", record_hand


PHASES = (
    "worker",
    "first_byte",
    "bytes_in",
    "first_paint",
    "fcp",
    "parsed",
    "ready",
    "dcl_start",
    "dcl_end",
    "painted",
    "pad",
    "fresh",
)
DRIVERS = {"playwright": "driven by Playwright", "bare": "driven over its bare DevTools pipe"}
HOW = {
    "devtools": "DevTools throttling, from the copy",
    "network": "slow network at the proxy, from the copy",
    "no-sw": "DevTools throttling, service worker blocked (network only)",
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--how",
        default=",".join(HOW),
        help=f"which reopens, comma-separated: {', '.join(HOW)} (default: all)",
    )
    parser.add_argument(
        "--driver",
        choices=("playwright", "bare"),
        default="playwright",
        help="Playwright (with its untimed tap), or Chromium's bare DevTools pipe: nothing in the "
        "page but the timing script (reopens from the copy only)",
    )
    parser.add_argument(
        "--phases",
        action="store_true",
        help="also print each reopen's phases (worker start, bytes in, first paint, parsed, ...)",
    )
    args = parser.parse_args()
    hows = [how for how in args.how.split(",") if how]
    if unknown := set(hows) - set(HOW):
        parser.error(f"unknown --how: {', '.join(sorted(unknown))}")
    if args.driver == "bare" and "no-sw" in hows:
        if args.how != parser.get_default("how"):
            parser.error("--driver bare measures reopens from the copy only")
        hows.remove("no-sw")
    from playwright.sync_api import sync_playwright

    print_machine()
    report: list[str] = []
    failures: list[str] = []
    with scratch_folder("reopen-") as folder:
        app, database, path, record_hand = reopened_game(folder)
        from scorer.extensions import db

        with scorer_serve(database, folder) as server, contextlib.ExitStack() as stack:
            proxy = CountingProxy(server.port)
            stack.callback(proxy.close)
            if args.driver == "bare":
                driver = reopen_bare
                browser = stack.enter_context(BareChromium())
            else:
                driver = reopen
                playwright = stack.enter_context(sync_playwright())
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM_PATH, args=CHROMIUM_ARGS
                )
                stack.callback(browser.close)
            url = f"http://127.0.0.1:{proxy.port}{path}"
            results: dict[str, list[dict]] = {how: [] for how in hows}
            for _run in range(args.runs):
                for how in hows:
                    results[how].append(driver(browser, proxy, url, path, how, record_hand))
        with app.app_context():
            db.session.remove()
            db.engine.dispose()

    report.append(
        f"Chromium ({DRIVERS[args.driver]}) at "
        f"{PHONE['viewport']['width']}x{PHONE['viewport']['height']}, "
        f"{PHONE['device_scale_factor']}x, touch; a standard game of {PLAYERS} players with "
        f"{HANDS}+ hands; scorer serve (waitress) on SQLite; 400 ms latency, 50 KiB/s, CPU "
        f"{CPU_SLOWDOWN}x slower; {args.runs} runs of each, each in a fresh browser profile. "
        "Times in ms from navigation start, medians (each run in brackets).\n"
    )
    report.append(
        "| reopen | first byte | copy shows | pad painted | pad script ready "
        "| DOMContentLoaded ended | pad responds | fresh state | loadEventEnd | budget |"
    )
    report.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for how, runs in results.items():

        def column(name: str, runs=runs) -> str:
            values = [run[name] for run in runs if run.get(name)]
            if not values:
                return "-"
            each = ", ".join(f"{value:.0f}" for value in values)
            return f"{statistics.median(values):.0f} ({each})"

        pad = statistics.median(run["pad"] for run in runs)
        if how == "no-sw":
            budget = "(comparison)"
        else:
            # Within one round trip of the copy being on screen.
            fresh_late = statistics.median(run["fresh"] - run["copy"] for run in runs)
            ok = pad <= PAD_BUDGET_MS
            budget = (
                f"pad {verdict(ok)} (<= {PAD_BUDGET_MS}); fresh {fresh_late:.0f} ms after the "
                "copy showed"
            )
            if not ok:
                failures.append(f"pad on reopen ({how})")
        report.append(
            f"| {HOW[how]} | {column('first_byte')} | {column('copy')} | {column('painted')} "
            f"| {column('ready')} | {column('dcl_end')} | {column('pad')} | {column('fresh')} "
            f"| {column('load')} | {budget} |"
        )
    report.append("\nThe pad responds, over the runs:\n")
    report.append(
        "| reopen | runs | median, and its 95% interval | quartiles | within the budget "
        "| pad first painted whole by the fresh page |"
    )
    report.append("| --- | ---: | ---: | ---: | ---: | ---: |")
    for how, runs in results.items():
        pads = sorted(run["pad"] for run in runs)
        quartiles = statistics.quantiles(pads, n=4) if len(pads) > 1 else [pads[0]] * 3
        within = sum(pad <= PAD_BUDGET_MS for pad in pads) / len(pads)
        late = sum(run["painted_by"] == "fresh" for run in runs)
        low, high = median_interval(pads)
        report.append(
            f"| {HOW[how]} | {len(pads)} | {statistics.median(pads):.0f} ({low:.0f}-{high:.0f}) "
            f"| {quartiles[0]:.0f}-{quartiles[2]:.0f} | {within:.0%} | {late} |"
        )
    print("\n".join(report))
    if args.phases:
        print(f"\nPhases, ms from navigation start: {', '.join(PHASES)}")
        for how, runs in results.items():
            for run in runs:
                values = " ".join(f"{run.get(name) or 0:6.0f}" for name in PHASES)
                print(f"{how:9s} {values}")
    print(f"\nBudgets failed: {', '.join(failures) or 'none'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
