"""The installable app in a real browser: manifest, service worker, offline page, wake lock."""

from __future__ import annotations

import pytest
from factories import make_game
from flask import Flask, request, request_started
from playwright.sync_api import Browser, Page, expect

from scorer.extensions import db

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
READY = "navigator.serviceWorker.ready.then((registration) => registration.active.scriptURL)"
CACHED = """caches.keys()
  .then((keys) => Promise.all(keys.map((key) => caches.open(key).then((cache) => cache.keys()))))
  .then((lists) => lists.flat().map((request) => request.url))"""


@pytest.fixture
def game_id(live_app: Flask) -> int:
    with live_app.app_context():
        return make_game(db.session, ["Ann", "Bob"]).id


def test_the_manifest_and_the_service_worker_load(phone: Page, live_server: str, game_id: int):
    phone.goto(f"{live_server}/games/{game_id}")
    manifest = phone.evaluate(
        "fetch(document.querySelector('link[rel=manifest]').href).then((r) => r.json())"
    )
    assert (manifest["display"], manifest["start_url"]) == ("standalone", "/")
    for icon in manifest["icons"]:
        kind = phone.evaluate(
            "(src) => fetch(src).then((r) => r.ok && r.headers.get('Content-Type').split(';')[0])",
            icon["src"],
        )
        assert kind == icon["type"]

    assert phone.evaluate(READY) == f"{live_server}/sw.js"
    cached = phone.evaluate(CACHED)
    assert f"{live_server}/offline" in cached
    for asset in (
        "css/app.css?v=",
        "js/app.js?v=",
        "vendor/htmx-2.0.11.min.js?v=",
    ):
        assert any(f"{live_server}/static/{asset}" in url for url in cached), asset
    # The first visit, before the worker ran, leaves no copy of the page; polls are never kept.
    assert not [url for url in cached if "/games/" in url]

    # Chromium's own check before it offers "Install app": nothing missing but a normal profile.
    session = phone.context.new_cdp_session(phone)
    errors = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert {error["errorId"] for error in errors} <= {"in-incognito"}
    assert session.send("Page.getAppManifest")["errors"] == []


PRELOAD_ENABLED = (
    "navigator.serviceWorker.ready"
    ".then((registration) => registration.navigationPreload.getState())"
    ".then((state) => state.enabled)"
)


def test_a_page_is_asked_for_once_while_the_worker_starts(
    phone: Page, live_server: str, live_app: Flask, game_id: int
):
    """Navigation preload: the browser asks the server for the page as the worker boots, and the
    worker answers with that response rather than asking again."""
    phone.goto(f"{live_server}/games/{game_id}")
    phone.evaluate(READY)
    for _ in range(100):  # enabled as the worker activates, just after it is ready
        if phone.evaluate(PRELOAD_ENABLED):
            break
        phone.wait_for_timeout(50)
    assert phone.evaluate(PRELOAD_ENABLED)

    asked: list[str | None] = []

    def record(_sender, **_extra) -> None:
        if request.path == f"/games/{game_id}":
            asked.append(request.headers.get("Service-Worker-Navigation-Preload"))

    request_started.connect(record, live_app)
    try:
        phone.goto(f"{live_server}/games/{game_id}")
        expect(phone.locator("#scoreboard")).to_be_visible()
        assert phone.evaluate("navigator.serviceWorker.controller !== null")
    finally:
        request_started.disconnect(record, live_app)
    assert asked == ["true"]


def test_the_offline_page_shows_when_the_server_is_stopped(
    browser: Browser, stoppable_server, live_app: Flask
):
    url, stop = stoppable_server
    with live_app.app_context():
        game = make_game(db.session, ["Ann", "Bob"]).id
    # A context of its own: with the server gone, failed requests in the console are expected.
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(f"{url}/")
        page.evaluate(READY)
        stop()

        page.goto(f"{url}/games/{game}")
        expect(page.locator("h1")).to_have_text("The scorer can't be reached")
        assert page.url == f"{url}/games/{game}"
        # Styled by the cached stylesheet: the red bar at the top, the button.
        expect(page.locator(".topbar")).to_have_css("background-color", "rgb(181, 18, 27)")
        expect(page.get_by_role("link", name="Try again")).to_be_visible()
        page.get_by_role("link", name="Try again").tap()
        expect(page.locator("h1")).to_have_text("The scorer can't be reached")
        assert errors == []
    finally:
        context.close()


RECORD_LOCKS = """() => {
  window.__locks = [];
  if (!navigator.wakeLock) return;
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = (type) => request(type).then((lock) => {
    window.__locks.push(lock);
    return lock;
  });
}"""
HELD = "window.__locks.filter((lock) => !lock.released).length"


def wait_for_locks(page, held: int) -> None:
    """Wait until `held` wake locks are held. Polled with evaluate, which the page's CSP allows;
    wait_for_function's repeated checks need an eval the CSP forbids."""
    for _ in range(100):
        if page.evaluate(HELD) == held:
            return
        page.wait_for_timeout(50)
    assert page.evaluate(HELD) == held


@pytest.mark.full_browser
def test_the_screen_stays_on_during_a_game_with_a_toggle(new_phone, live_server: str, game_id: int):
    page = new_phone()
    page.add_init_script(f"({RECORD_LOCKS})()")
    page.goto(f"{live_server}/games/{game_id}")
    toggle = page.get_by_role("button", name="Keep screen on")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    wait_for_locks(page, 1)

    toggle.tap()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    wait_for_locks(page, 0)
    # The choice is remembered for the next game page.
    page.reload()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("window.__locks.length") == 0
    toggle.press("Enter")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    wait_for_locks(page, 1)


def test_without_the_wake_lock_api_there_is_no_toggle_and_no_error(
    new_phone, live_server: str, game_id: int
):
    page = new_phone()
    page.add_init_script("delete Navigator.prototype.wakeLock")
    page.goto(f"{live_server}/games/{game_id}")
    assert page.evaluate("'wakeLock' in navigator") is False
    expect(page.locator("[data-wake-lock]")).to_be_hidden()
    expect(page.get_by_role("link", name="Share")).to_be_visible()
