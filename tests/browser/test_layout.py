"""Every screen fits a small phone: no sideways scrolling, every control big enough for a thumb.

Checked at 360x640 and 390x844, in light and dark mode, each screen as it stands after one visit:
home; setup with four players seated, in standard and in partners mode; a game with a hand
recorded, before and after tapping who went out; sharing it; the edit and undo pages; a finished
game; the rules; the offline page; and every other page the app serves at an address without an
id.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from browser.schemes import each_scheme
from browser.targets import offenders
from factories import make_game, record
from flask import Flask
from playwright.sync_api import Page

from scorer.extensions import db

pytestmark = pytest.mark.browser

SMALL_PHONE = {"width": 360, "height": 640}
PHONE = {"width": 390, "height": 844}
LONG_NAME = "Wolfeschlegelsteinhausenbergerdorff"  # 35 letters, no space to break at


@pytest.fixture(scope="module")
def games(live_app: Flask) -> tuple[int, int]:
    """Seeded through the services: a game with one hand recorded, and a finished game."""
    with live_app.app_context():
        game = make_game(db.session, ["Ann", "Bob", "Cat", LONG_NAME])
        record(db.session, game, 0, {1: ["3", "skip"], 2: ["wild", "draw2"], 3: ["8"]})
        finished = make_game(db.session, ["Maximiliana", "Bartholomew"], target=100)
        record(db.session, finished, 1, {0: ["wild4", "wild", "9"]})
        return game.id, finished.id


def screens(page: Page, base: str, games: tuple[int, int], others: list[str]) -> Iterator[str]:
    """Visits each screen in turn and yields its name once it is ready to measure."""
    game_id, finished_id = games
    page.goto(f"{base}/")
    yield "home"
    page.goto(f"{base}/games/new")
    for name in ("Ann", "Bob", "Cat", LONG_NAME):
        page.locator(".roster .chip", has_text=name).tap()
        page.locator(".seat-name", has_text=name).wait_for()
    yield "setup with four players"
    page.locator(".choice", has_text="Partners").tap()
    page.locator(".teams input").first.wait_for()
    yield "setup for partners, with team names"
    page.goto(f"{base}/games/{game_id}")
    yield "game"
    page.locator("#hand-form .went-out .chip", has_text="Bob").tap()
    page.locator('.tally.is-active[data-name="Cat"]').wait_for()
    yield "game, after tapping who went out"
    page.goto(f"{base}/games/{game_id}/share")
    page.locator("img.qr").evaluate("image => image.decode()")
    yield "share"
    page.goto(f"{base}/games/{game_id}/hands/1/edit")
    yield "edit hand 1"
    page.goto(f"{base}/games/{game_id}/hands/1/undo")
    yield "undo hand 1"
    page.goto(f"{base}/games/{finished_id}")
    yield "finished game"
    page.goto(f"{base}/rules/partners")
    yield "rules"
    page.goto(f"{base}/offline")
    yield "offline"
    for path in others:
        response = page.goto(f"{base}{path}")
        if response and response.ok and "text/html" in response.headers.get("content-type", ""):
            yield path


def test_screens_fit_the_phone(
    new_phone: Callable[..., Page],
    live_server: str,
    games: tuple[int, int],
    plain_pages: list[str],
):
    page = new_phone(SMALL_PHONE)
    problems = []
    for screen in screens(page, live_server, games, plain_pages):
        # Each phone and scheme on the screen as it stands: one tour, the same state in each.
        for viewport in (SMALL_PHONE, PHONE):
            page.set_viewport_size(viewport)
            for scheme in each_scheme(page):
                where = f"{screen} at {viewport['width']}x{viewport['height']}, {scheme}"
                # Against the phone's width, not innerWidth: on a phone the layout viewport grows
                # to fit what overflows, so innerWidth grows with the very overflow looked for.
                wide = page.evaluate("document.scrollingElement.scrollWidth")
                if wide > viewport["width"]:
                    problems.append(f"{where}: scrolls sideways, {wide}px wide")
                for offender in offenders(page):
                    problems.append(f"{where}: {offender}")
        page.set_viewport_size(SMALL_PHONE)
    assert not problems, "\n".join(problems)
