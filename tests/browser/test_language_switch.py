"""The language switch in a real browser: the menu on a small phone, and the phone's copies,
which never show a page in the language the phone no longer reads."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from catalogs import GERMAN
from factories import make_game
from flask import Flask
from playwright.sync_api import Page, expect

from scorer.extensions import db

pytestmark = pytest.mark.browser

READY = "navigator.serviceWorker.ready.then((registration) => !!registration.active)"
COPIES = """caches.keys()
  .then((keys) => Promise.all(keys.filter((key) => key.startsWith("uno-pages-"))
    .map((key) => caches.open(key).then((cache) => cache.matchAll()))))
  .then((lists) => lists.flat().map((page) => page.headers.get("Content-Language")))"""
OFFLINE_LANGUAGE = """caches.match("/offline", { ignoreVary: true })
  .then((page) => page && page.headers.get("Content-Language"))"""
# What a phone without a server logs about the requests it could not make.
UNREACHABLE = re.compile(
    r"net::ERR_(INTERNET_DISCONNECTED|CONNECTION_REFUSED|FAILED)"
    r"|the server responded with a status of 4\d\d"
    r"|^htmx:(sendError|afterRequest), \[object HTMLDivElement\]$"
)


@pytest.fixture
def game_url(live_app: Flask, live_server: str) -> str:
    with live_app.app_context():
        return f"{live_server}/games/{make_game(db.session, ['Ann', 'Bob']).id}"


def switch_to(page: Page, name: str) -> None:
    """Open the language page from the menu and tap the language `name`, as a thumb does."""
    page.locator(".menu summary").tap()
    page.locator('.menu-items a[href^="/language"]').tap()
    page.locator(".language-choices button", has_text=name).tap()


def wait_for(page: Page, script: str, expected) -> None:
    """Wait until `script` gives `expected` (the page's CSP forbids wait_for_function's eval)."""
    for _ in range(100):
        if page.evaluate(script) == expected:
            return
        page.wait_for_timeout(50)
    assert page.evaluate(script) == expected


@pytest.mark.parametrize("width", [320, 360])
def test_the_switch_fits_a_small_phone_and_works_without_a_script(
    new_phone: Callable[..., Page], live_server: str, width: int
):
    page = new_phone({"width": width, "height": 740}, java_script_enabled=False)
    page.goto(f"{live_server}/rules/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.locator(".menu summary").tap()
    page.locator('.menu-items a[href^="/language"]').tap()
    buttons = page.locator(".language-choices button")
    expect(buttons).to_have_count(6)
    for index in range(6):
        box = buttons.nth(index).bounding_box()
        assert box is not None
        assert box["width"] >= 44 and box["height"] >= 44, box
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width

    buttons.filter(has_text="Deutsch").tap()
    page.wait_for_url(f"{live_server}/rules/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator(".menu summary")).to_have_text(GERMAN["Menu"])
    # Back to English the same way, from the German menu.
    switch_to(page, "English")
    expect(page.locator("html")).to_have_attribute("lang", "en")


def test_a_reopened_page_never_shows_a_copy_in_the_language_the_phone_left(
    new_phone: Callable[..., Page], live_server: str, game_url: str
):
    page = new_phone(console_allowed=UNREACHABLE)
    home = f"{live_server}/"
    # The worker installs, then keeps English copies of the home page and of a game.
    page.goto(game_url)
    assert page.evaluate(READY)
    page.goto(home)
    page.goto(game_url)
    wait_for(page, f"{COPIES}.then((languages) => languages.length)", 2)
    assert page.evaluate(COPIES) == ["en", "en"]

    switch_to(page, "Deutsch")
    page.wait_for_url(game_url)
    expect(page.locator("html")).to_have_attribute("lang", "de")
    # The worker has fetched the offline page again, in German.
    wait_for(page, OFFLINE_LANGUAGE, "de")

    page.context.set_offline(True)
    for url in (game_url, home):
        page.goto(url)
        expect(page.locator("html")).to_have_attribute("lang", "de")
    # The home page had only an English copy: the offline page, in German, stands in for it.
    expect(page.locator("h1")).to_have_text(GERMAN["The scorer can't be reached"])
    # The game's copy is the German page the switch led back to, marked as a copy.
    page.goto(game_url)
    expect(page.locator("html")).to_have_attribute("data-copy-of", re.compile(r"^\d\d:\d\d$"))
    offline_mark = GERMAN["Offline · last seen {seen}"].split("{seen}")[0]
    expect(page.locator("#copy-mark")).to_contain_text(offline_mark)
    page.context.set_offline(False)
