"""Individual play on a 360 px phone: set up by tapping, the head-to-head table, no side scroll."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from factories import record
from flask import Flask
from playwright.sync_api import Page, expect

from scorer.extensions import db
from scorer.services import games

pytestmark = pytest.mark.browser

SMALL_PHONE = {"width": 360, "height": 640}
# Long names must wrap in the table's first column, not widen the page.
NAMES = ["Wolfeschlegelsteinhausen", "Bob", "Catherine-Anne", "Dan"]


def table_rows(page: Page) -> list[list[str]]:
    return [
        [" ".join(cell.text_content().split()) for cell in row.locator("th, td").all()]
        for row in page.locator(".head-to-head tbody tr").all()
    ]


def scrolls_sideways(page: Page) -> bool:
    width, inner = page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
    return width > inner


def test_an_individual_game_shows_head_to_head_points_on_a_small_phone(
    new_phone: Callable[..., Page], live_server: str, enter_hand, taps
):
    page = new_phone(SMALL_PHONE)
    page.goto(f"{live_server}/games/new")
    for name in NAMES:
        page.locator("#new_name").fill(name)
        page.get_by_role("button", name="Add", exact=True).tap()
        expect(page.locator(".seat-name", has_text=name)).to_be_visible()
    with page.expect_response(lambda response: response.request.method == "POST"):
        page.locator(".choice", has_text="Individual").tap()
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)
    expect(page.locator('input[name=mode][value="individual"]')).to_be_checked()
    # A game of 12 hands has no target to choose.
    expect(page.locator("#target")).to_have_count(0)
    expect(page.locator("#length-title")).to_have_text("Length")
    page.get_by_role("button", name="Start game").tap()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    expect(page.locator(".game-title")).to_contain_text("Individual · 12 hands")
    expect(page.locator(".head-to-head")).to_be_visible()

    # The tally pad works as in a standard game: the one who went out collects.
    enter_hand(
        page,
        taps,
        "Bob",
        {"Wolfeschlegelsteinhausen": ["50"], "Catherine-Anne": ["2"], "Dan": ["7"]},
    )
    expect(page.locator("[data-summary]")).to_have_text("Bob scores 59")
    taps(page.get_by_role("button", name="Save hand"))
    expect(page.locator(".pad-title")).to_contain_text("Record hand 2")

    assert table_rows(page) == [
        ["Wolfeschlegelsteinhausen", "·", "0", "0", "0", "0"],
        ["Bob", "50", "·", "2", "7", "1"],
        ["Catherine-Anne", "0", "0", "·", "0", "0"],
        ["Dan", "0", "0", "0", "·", "0"],
    ]
    expect(page.locator(".head-to-head thead abbr").first).to_have_attribute(
        "title", "against Wolfeschlegelsteinhausen"
    )
    assert not scrolls_sideways(page)
    table = page.locator(".head-to-head").bounding_box()
    assert table is not None and table["x"] >= 0 and table["x"] + table["width"] <= 360


def test_a_shared_win_is_announced_and_the_sharers_marked(
    new_phone: Callable[..., Page], live_server: str, live_app: Flask
):
    with live_app.app_context():
        game = games.create_game(db.session, "individual", ["Ann", "Bob", "Cat", "Dan"])
        for went_out in [0, 1] * 4 + [2, 2, 3, 3]:
            others = [seat for seat in range(4) if seat != went_out]
            record(db.session, game.id, went_out, dict.fromkeys(others, 1))
        game_id = game.id
    page = new_phone(SMALL_PHONE)
    page.goto(f"{live_server}/games/{game_id}")
    expect(page.locator("#result-title")).to_have_text("🏆 Ann and Bob share the win!")
    expect(page.locator(".head-to-head tr.is-winner th")).to_have_text(["Ann", "Bob"])
    expect(page.locator(".standings .is-winner .side-meta")).to_contain_text(
        ["shares the win", "shares the win"]
    )
    assert not scrolls_sideways(page)


def visible_meta(page: Page) -> list[str]:
    """What each scoreboard row shows beside its score (text hidden on screen left out)."""
    return [" ".join(meta.inner_text().split()) for meta in page.locator(".side-meta").all()]


def test_each_row_shows_its_hands_won_and_the_final_board_why_on_a_phone(
    phone: Page, live_server: str, live_app: Flask
):
    with live_app.app_context():
        game = games.create_game(db.session, "individual", ["Ann", "Bob", "Cat", "Dan"])
        for went_out, points in [(0, 1)] * 3 + [(2, 30)] * 2 + [(1, 1)] * 2 + [(3, 1)] * 4:
            record(db.session, game.id, went_out, others(went_out, points))
        game_id = game.id
    phone.goto(f"{live_server}/games/{game_id}")
    # Individual play ranks by hands won: each row shows them; the hand left is said once.
    expect(phone.locator(".game-title")).to_contain_text("1 hand left")
    assert visible_meta(phone) == [
        "4 hands won",
        "3 hands won",
        "2 hands won · points decide",
        "2 hands won · points decide",
    ]
    expect(phone.locator(".side-meta", has_text="left")).to_have_count(0)

    with live_app.app_context():
        record(db.session, game_id, 3, others(3, 1))
    phone.reload()
    expect(phone.locator("#result-title")).to_contain_text("Dan wins")
    # Ann (9 points) stands above Cat (180): the row says it is the hands won that count.
    assert [row.inner_text() for row in phone.locator(".standings .player").all()] == [
        "Dan",
        "Ann",
        "Cat",
        "Bob",
    ]
    assert visible_meta(phone) == [
        "winner · 5 hands won",
        "3 hands won",
        "2 hands won · points decide",
        "2 hands won · points decide",
    ]
    assert not scrolls_sideways(phone)


def others(went_out: int, points: int) -> dict[int, int]:
    return {seat: points for seat in range(4) if seat != went_out}
