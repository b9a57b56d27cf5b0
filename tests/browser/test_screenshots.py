"""Screenshots of the main screens on a phone, in build/screenshots/ (git-ignored).

`make screenshots` takes them and copies them to docs/screenshots/, where the README shows them;
an ordinary test run leaves the committed images alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from factories import make_game, record
from flask import Flask
from playwright.sync_api import Locator, Page, Route, expect

from scorer.extensions import db
from scorer.services import leagues, nights

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
NAMES = ["Ann", "Bob", "Cat", "Dan"]
LAN = "http://192.168.1.20:8000"


def pass_to(route: Route, server: str) -> None:
    """Answers a request for the LAN address from the test server, which sees the LAN host."""
    url = route.request.url.replace(LAN, server, 1)
    host = urlsplit(LAN).netloc
    route.fulfill(response=route.fetch(url=url, headers={**route.request.headers, "host": host}))


def test_screenshots_of_the_main_screens(
    new_phone: Callable[..., Page], live_app: Flask, live_server: str, enter_hand
):
    # A finished game seeded through the services puts its players on the roster.
    with live_app.app_context():
        finished = make_game(db.session, ["Eve", "Fay", "Gus"], target=200)
        record(db.session, finished, 1, {0: ["wild", "draw2", "7"], 2: ["skip", "5"]})
        record(db.session, finished, 0, {1: ["wild4", "wild", "wild", "9"], 2: ["skip"] * 3})
        finished_id = finished.id
    SHOTS.mkdir(parents=True, exist_ok=True)
    for old in SHOTS.glob("*.png"):
        old.unlink()
    page = new_phone(device_scale_factor=2, reduced_motion="reduce")

    def shot(name: str) -> None:
        page.screenshot(path=SHOTS / f"{name}.png", animations="disabled", caret="hide")

    page.goto(f"{live_server}/games/new")
    for name in NAMES:
        page.locator("#new_name").fill(name)
        page.get_by_role("button", name="Add", exact=True).tap()
        expect(page.locator(".seat-name", has_text=name)).to_be_visible()
        # The swapped-in form puts the cursor back in the name field, ready for the next name.
        expect(page.locator("#new_name")).to_be_focused()
    expect(page.locator(".roster .chip")).to_have_count(3)
    page.locator("#new_name").blur()
    shot("setup")

    page.get_by_role("button", name="Start game").tap()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    hands = [
        ("Ann", {"Bob": ["3", "20"], "Cat": ["50", "20"], "Dan": ["8"]}),
        ("Cat", {"Dan": ["7", "2"], "Ann": ["20", "5"], "Bob": ["9", "9", "0"]}),
    ]
    for number, (went_out, cards) in enumerate(hands, start=1):
        enter_hand(page, Locator.tap, went_out, cards)
        page.get_by_role("button", name="Save hand").tap()
        expect(page.locator(".history .hand")).to_have_count(number)
    page.evaluate("window.scrollTo(0, 0)")
    shot("game")

    enter_hand(page, Locator.tap, "Bob", {"Cat": ["50", "4"], "Dan": ["20"]})
    page.locator("#hand-form .went-out").evaluate("element => element.scrollIntoView()")
    shot("pad")

    # The share screen as a phone at the table sees it: through the laptop's network address
    # (the test server only listens on 127.0.0.1, so requests to that address are passed to it).
    game_path = urlsplit(page.url).path
    page.route(f"{LAN}/**", lambda route: pass_to(route, live_server))
    page.goto(f"{LAN}{game_path}/share")
    expect(page.locator("#game-link")).to_have_text(f"{LAN}{game_path}")
    page.locator("img.qr").evaluate("image => image.decode()")
    shot("share")

    page.goto(f"{live_server}/games/{finished_id}")
    expect(page.locator("#result-title")).to_contain_text("wins")
    shot("finished")

    page.goto(f"{live_server}/")
    shot("home")

    # A league night's board, on the laptop in the room: three tables of round 1, two under way.
    with live_app.app_context():
        league = leagues.create_league(db.session, "Thursday Club", 200).id
        teams = (("Ann", "Bob"), ("Cat", "Dan"), ("Eve", "Fay"), ("Gus", "Hal"), ("Ivy", "Jon"))
        for first, second in (*teams, ("Kim", "Lou")):
            leagues.register_team(db.session, league, first, second)
        season = leagues.add_season(db.session, league).number
        nights.start_round(db.session, league, season, 1)
        _, tables = nights.round_tables(db.session, league, season, 1)
        first_table, second_table = (table.fixture.fixture.game_id for table in tables[:2])
        record(db.session, first_table, 0, {1: ["wild", "7"], 3: ["skip", "4"]})
        record(db.session, first_table, 1, {0: ["9", "2"], 2: ["5"]})
        record(db.session, second_table, 2, {1: ["draw2"], 3: ["8", "8"]})
    laptop = new_phone(
        {"width": 1280, "height": 720}, is_mobile=False, has_touch=False, device_scale_factor=1
    )
    laptop.goto(f"{live_server}/leagues/{league}/seasons/{season}/board")
    expect(laptop.locator(".board-table")).to_have_count(3)
    laptop.screenshot(path=SHOTS / "board.png", animations="disabled", caret="hide")

    written = sorted(path.name for path in SHOTS.glob("*.png"))
    assert written == [
        "board.png",
        "finished.png",
        "game.png",
        "home.png",
        "pad.png",
        "setup.png",
        "share.png",
    ]
    for path in SHOTS.glob("*.png"):
        assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert path.stat().st_size > 10_000
