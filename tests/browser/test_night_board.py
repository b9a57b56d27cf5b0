"""A league night's board on a laptop, a TV and a phone: the tables follow every hand recorded,
edited or undone without a reload, and the next round starts from the board when one ends."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from browser.fit import assert_fits_and_axe_finds_nothing
from browser.polls import poll_now
from factories import entry, record
from flask import Flask
from playwright.sync_api import Page, expect

from scorer.extensions import db
from scorer.services import hands, leagues, nights

pytestmark = pytest.mark.browser

WITHIN_MS = 5_000
LAPTOP = {"width": 1280, "height": 720}
TV = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}


def make_season(app: Flask, name: str) -> tuple[str, list[int]]:
    """Four teams to 100, round 1 started: the board's path and the round's games by table."""
    with app.app_context():
        league = leagues.create_league(db.session, name, 100)
        for first, second in (("Ann", "Bob"), ("Cat", "Dan"), ("Eve", "Fay"), ("Gus", "Hal")):
            leagues.register_team(db.session, league.id, first, second)
        season = leagues.add_season(db.session, league.id)
        nights.start_round(db.session, league.id, season.number, 1)
        _, tables = nights.round_tables(db.session, league.id, season.number, 1)
        games = [table.fixture.fixture.game_id for table in tables]
        return f"/leagues/{league.id}/seasons/{season.number}/board", games


@pytest.mark.parametrize("viewport", [LAPTOP, TV, PHONE], ids=["1280x720", "1920x1080", "390x844"])
def test_the_board_follows_each_table_and_moves_on_to_the_next_round(
    new_phone: Callable[..., Page], live_app: Flask, live_server: str, viewport
):
    path, (first, second) = make_season(live_app, f"Club {viewport['width']}")
    phone = viewport is PHONE
    page = new_phone(
        viewport, is_mobile=phone, has_touch=phone, device_scale_factor=3 if phone else 1
    )
    # Its clock is run on to the next poll after each change, so it asks at once.
    page.clock.install()
    if phone:
        # Reached from the season page by a link anyone can see.
        page.goto(f"{live_server}{path.removesuffix('/board')}")
        page.get_by_role("link", name="The night's board").click()
        page.wait_for_url(re.compile(r"/board$"))
    else:
        page.goto(f"{live_server}{path}")
    page.evaluate("window.__marker = 'no reload'")
    table = page.locator('.board-table[data-table="1"]')
    expect(table).to_contain_text("0 hands played")
    expect(page.locator(".board-status")).to_contain_text("0 of 2 tables finished")
    assert_fits_and_axe_finds_nothing(page)
    if not phone:
        # Large type for a room: a score is at least 40 px high, a name at least 20.
        score = table.locator(".board-score").first.bounding_box()
        assert score and score["height"] >= 40
        name = page.evaluate(
            "parseFloat(getComputedStyle(document.querySelector('.board-name')).fontSize)"
        )
        assert name >= 20
        # Every table of the round is on screen at once.
        box = page.locator('.board-table[data-table="2"]').bounding_box()
        assert box and box["y"] + box["height"] <= viewport["height"]

    # A hand recorded at table 1: Ann (home) went out, Cat holds 30, Dan 12.
    with live_app.app_context():
        record(db.session, first, 0, {1: 30, 3: 12})
    poll_now(page)
    expect(table).to_contain_text("1 hand played", timeout=WITHIN_MS)
    expect(table.locator(".board-side").first).to_contain_text("42")
    expect(table.locator(".board-side").first).to_contain_text("58 to go")
    # Edited: Cat held 40.
    with live_app.app_context():
        hands.edit_hand(db.session, first, 1, entry(0, {1: 40, 3: 12}))
    poll_now(page)
    expect(table.locator(".board-side").first).to_contain_text("52", timeout=WITHIN_MS)
    # Undone.
    with live_app.app_context():
        hands.undo_last_hand(db.session, first, 1)
    poll_now(page)
    expect(table).to_contain_text("0 hands played", timeout=WITHIN_MS)
    expect(table.locator(".board-score").first).to_have_text(re.compile(r"\b0$"))

    # Both tables finish: the results, the table and the next round's pairings.
    with live_app.app_context():
        for game_id in (first, second):
            record(db.session, game_id, 0, {1: 100, 3: 0})
    poll_now(page)
    expect(page.locator("#results-title")).to_have_text("Round 1 results", timeout=WITHIN_MS)
    expect(page.locator(".league-table tbody tr")).to_have_count(4)
    expect(page.locator("#next-title")).to_have_text("Round 2 pairings")
    assert page.evaluate("window.__marker") == "no reload"
    assert_fits_and_axe_finds_nothing(page)

    # One tap starts round 2.
    page.get_by_role("button", name="Start round 2").click()
    expect(page.locator(".board-status")).to_contain_text("0 of 2 tables finished")
    expect(page.locator("#board-title")).to_contain_text("round 2")
