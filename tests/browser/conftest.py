"""Real-browser fixtures: the app served by waitress with CSRF on, Debian's chromium, a phone.

Playwright's own browser download is not used. The tests drive Debian's chromium-headless-shell
(CHROMIUM_SHELL_PATH, default /usr/bin/chromium-headless-shell): Chromium's own Blink and V8 in
its old headless shell, which is also what Playwright drives by default when headless. Opening a
page and counting a hand in it costs a third of the CPU the full browser (Debian's chromium) takes
in its new headless mode (8 s against 24 s for the same 12 phones), and the browser tests are most
of the suite's time on two cores. What only the full browser offers (the screen wake lock) is
tested in it, `full_browser`, at CHROMIUM_PATH (default /usr/bin/chromium); the benchmarks, which
measure what a phone does, drive the full browser too. Without a browser its tests are skipped,
or fail when CI is set.

Besides the page, every test checks that the server raised nothing (a warning in a request is an
error too, as everywhere in the suite) and that the page logged no script error or CSP violation.
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from browser.polls import LIVE_POLL_SECONDS
from conftest import make_app
from factories import make_game, record
from flask import Flask, got_request_exception
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Locator,
    Page,
    Playwright,
    expect,
    sync_playwright,
)
from waitress import create_server, wasyncore

from scorer.extensions import db

CHROMIUM_SHELL_PATH = os.environ.get("CHROMIUM_SHELL_PATH", "/usr/bin/chromium-headless-shell")
CHROMIUM_PATH = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
TIMEOUT_MS = 5_000
# Chrome logs every 4xx answer, and a 422 with the form's errors is expected; failed stylesheets,
# scripts and images are caught by their responses instead. htmx logs a request that did not
# succeed as an error too: a 4xx, or the setup's roster search cut short by Start (hx-sync abort,
# logged as it is sent or after). A 5xx still fails the test through Chrome's own line.
EXPECTED_CONSOLE = re.compile(
    r"^(Failed to load resource: the server responded with a status of 4"
    r"|htmx:(afterRequest|sendAbort)\b)"
)


@pytest.fixture(scope="module")
def live_settings() -> dict:
    """Settings a test module adds to its live app: a module overrides this fixture to add some."""
    return {}


@pytest.fixture(scope="module")
def live_app(databases, tmp_path_factory, live_settings: dict) -> Iterator[Flask]:
    """The real app (CSRF on) on a fresh, migrated SQLite file, one per test module."""
    url = databases.fresh("sqlite", tmp_path_factory.mktemp("live"))
    settings = {"WTF_CSRF_ENABLED": True, "TESTING": False, "LIVE_POLL_SECONDS": LIVE_POLL_SECONDS}
    app = make_app(url, migrate=False, **{**settings, **live_settings})
    app.extensions["browser_test_errors"] = errors = []

    def record(_sender, exception: BaseException, **_extra) -> None:
        errors.append(exception)

    got_request_exception.connect(record, app, weak=False)
    yield app
    got_request_exception.disconnect(record, app)
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@contextmanager
def serving(app: Flask) -> Iterator[tuple[str, Callable[[], None]]]:
    """Serves `app` with waitress in a daemon thread: its base URL, and a function that stops it."""
    server = create_server(app, host="127.0.0.1", port=0, threads=4)
    stop = threading.Event()

    def serve() -> None:
        # The loop closes the server itself, so no socket is closed under a running select().
        while not stop.is_set():
            wasyncore.loop(timeout=0.05, map=server._map, count=1)
        server.task_dispatcher.shutdown()
        wasyncore.close_all(server._map)

    thread = threading.Thread(target=serve, name="waitress", daemon=True)
    thread.start()

    def halt() -> None:
        stop.set()
        thread.join(timeout=10)

    try:
        yield f"http://127.0.0.1:{server.effective_port}", halt
    finally:
        halt()


@pytest.fixture(scope="module")
def live_server(live_app: Flask) -> Iterator[str]:
    """The base URL of `live_app`, served by waitress in a daemon thread."""
    with serving(live_app) as (url, _stop):
        yield url


# Addresses that are not pages, or pages the screen tests visit themselves, in a richer state.
# Downloads (the backup files) are not pages a browser shows.
NOT_PLAIN_PAGES = re.compile(
    r"^/(static/|api/|sw\.js$|manifest\.webmanifest$|$|games/new$|offline$"
    r"|backup/export\.json$|backup/hands\.csv$)"
)


@pytest.fixture(scope="module")
def plain_pages(live_app: Flask) -> list[str]:
    """Every other GET address the app serves without an id in it: new pages get checked too."""
    return sorted(
        {
            rule.rule
            for rule in live_app.url_map.iter_rules()
            if "GET" in rule.methods and not rule.arguments and not NOT_PLAIN_PAGES.match(rule.rule)
        }
    )


@pytest.fixture
def stoppable_server(live_app: Flask) -> Iterator[tuple[str, Callable[[], None]]]:
    """A second server on `live_app` for one test: its base URL, and a function that stops it."""
    with serving(live_app) as server:
        yield server


@pytest.fixture(autouse=True)
def no_server_errors(live_app: Flask) -> Iterator[None]:
    """Fails a test when a request raised on the server, with the exception, not a timeout."""
    errors: list[BaseException] = live_app.extensions["browser_test_errors"]
    errors.clear()
    yield
    if errors:
        pytest.fail(f"the server raised: {errors[0]!r}", pytrace=False)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


def _launched(playwright: Playwright, path: str, package: str, setting: str) -> Iterator[Browser]:
    if not Path(path).is_file():
        reason = f"no {package} at {path} (install Debian's {package} or set {setting})"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    browser = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
    try:
        yield browser
    finally:
        browser.close()


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """Chromium's headless shell: every phone of the browser tests, unless a test asks for
    `full_browser`."""
    yield from _launched(
        playwright, CHROMIUM_SHELL_PATH, "chromium-headless-shell", "CHROMIUM_SHELL_PATH"
    )


@pytest.fixture(scope="session")
def full_browser(playwright: Playwright) -> Iterator[Browser]:
    """The full Chromium, for what the headless shell lacks: it refuses every screen wake lock."""
    yield from _launched(playwright, CHROMIUM_PATH, "chromium", "CHROMIUM_PATH")


@pytest.fixture
def new_phone(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Callable[..., Page]]:
    """Makes a page in a fresh touch-phone context; keyword arguments go to `new_context`.

    In the full browser when the test is marked `full_browser`, else in the headless shell.

    Console errors fail the test unless `console_allowed` finds them expected.
    """
    if request.node.get_closest_marker("full_browser"):
        browser = request.getfixturevalue("full_browser")
    contexts: list[BrowserContext] = []
    problems: list[str] = []

    def make(
        viewport: dict[str, int] = PHONE, console_allowed: re.Pattern = EXPECTED_CONSOLE, **options
    ) -> Page:
        options = {"device_scale_factor": 3, "is_mobile": True, "has_touch": True, **options}
        context = browser.new_context(viewport=viewport, **options)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
        page.on(
            "response",
            lambda response: (
                response.status >= 400
                and response.request.resource_type not in ("document", "xhr", "fetch")
                and problems.append(f"{response.status} for {response.url}")
            ),
        )
        page.on(
            "console",
            lambda message: (
                message.type == "error"
                and not console_allowed.search(message.text)
                and problems.append(f"console: {message.text}")
            ),
        )
        return page

    yield make
    for context in contexts:
        context.close()
    assert not problems, "\n".join(problems)


@pytest.fixture
def phone(new_phone: Callable[..., Page]) -> Page:
    """A page on a 390x844 touch phone at 3x."""
    return new_phone()


class Taps:
    """Taps elements like a thumb would, and counts every tap."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, locator: Locator) -> None:
        locator.tap()
        self.count += 1


@pytest.fixture
def taps() -> Taps:
    return Taps()


@pytest.fixture
def start_game(live_server: str) -> Callable[..., str]:
    """Sets up a standard game on the setup page by tapping; returns the game's URL."""

    def start(page: Page, names: list[str], target: int | None = None) -> str:
        page.goto(f"{live_server}/games/new")
        for name in names:
            chip = page.locator(".roster .chip", has_text=re.compile(f"^{name}$"))
            if chip.count():
                chip.tap()
            else:
                page.locator("#new_name").fill(name)
                page.get_by_role("button", name="Add", exact=True).tap()
            expect(page.locator(".seat-name", has_text=name)).to_be_visible()
        if target is not None:
            page.locator(".target .chip", has_text=str(target)).tap()
            expect(page.locator("#target")).to_have_value(str(target))
        page.get_by_role("button", name="Start game").tap()
        page.wait_for_url(re.compile(r"/games/\d+$"))
        return page.url

    return start


@pytest.fixture
def enter_hand() -> Callable[..., None]:
    """Enters a hand on the pad with `tap`: who went out, then each listed hand's card keys.

    The pad starts on the player after the one who went out, so that row is not tapped first.
    """

    def enter(page: Page, tap: Callable[[Locator], None], went_out: str, cards: dict) -> None:
        pad = page.locator("#hand-form")
        tap(pad.locator(".went-out .chip", has_text=went_out))
        for name, keys in cards.items():
            row = pad.locator(f'.tally[data-name="{name}"]')
            if "is-active" not in (row.get_attribute("class") or "").split():
                tap(row.locator(".tally-pick"))
            expect(row).to_have_class(re.compile(r"\bis-active\b"))
            for key in keys:
                tap(pad.locator(f'.keys [data-card="{key}"]'))

    return enter


@pytest.fixture
def game_with_a_chart(live_app: Flask) -> int:
    """A game with one hand recorded, so it has a chart."""
    with live_app.app_context():
        game = make_game(db.session, ["Ann", "Bob", "Cat"])
        record(db.session, game, 0, {1: ["7", "skip"], 2: ["wild"]})
        return game.id
