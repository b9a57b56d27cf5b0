"""Standings on a phone: the table on the first screen, ranked by games won, every column without
sideways scrolling, and a name search that keeps each player's rank."""

from __future__ import annotations

import re

import pytest
from browser.fit import PHONES, assert_no_sideways_scroll
from factories import make_game, record
from flask import Flask
from playwright.sync_api import expect

from scorer.extensions import db

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def finished_games(live_app: Flask) -> None:
    """Three finished games: Bob wins two, Ann one; points and ratings differ."""
    with live_app.app_context():
        for winner in (1, 1, 0):
            game = make_game(db.session, ["Ann", "Bob", "Catherine", "Dan"], target=50)
            others = [seat for seat in range(4) if seat != winner]
            record(db.session, game, winner, {others[0]: 30, others[1]: 20, others[2]: 10})


# The first line of a cell's text, where it is on the screen.
TEXT_TOP = """(cell) => {
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT, (node) =>
    node.textContent.trim() ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP);
  const range = document.createRange();
  range.selectNodeContents(walker.nextNode());
  return range.getClientRects()[0].bottom;
}"""


@pytest.mark.parametrize("viewport", PHONES)
def test_standings_on_a_phone_open_on_the_table_ranked_by_games_won(
    new_phone, live_server: str, finished_games: None, viewport: dict
):
    page = new_phone(viewport=viewport)
    page.goto(f"{live_server}/standings/")
    # The filter is folded behind the period it shows; the table is on the first screen.
    summary = page.locator(".filter-box summary")
    expect(summary).to_have_text("Period: All time")
    expect(page.locator("#standings-filter .chips")).to_be_hidden()
    first_row = page.locator(".standings-table tbody tr").first
    assert first_row.bounding_box()["y"] + first_row.bounding_box()["height"] <= viewport["height"]

    # Games won first, in plain words; every column, points too, without sideways scrolling.
    expect(page.locator(".standings-table th[aria-sort]")).to_have_text(re.compile(r"^\s*Wins"))
    expect(page.locator(".standings-table tbody th")).to_have_text(
        ["Bob", "Ann", "Catherine", "Dan"]
    )
    for column in ("name", "games", "wins", "win_rate", "points", "rating"):
        expect(page.locator(f".standings-table thead .col-{column}")).to_be_visible()
    assert_no_sideways_scroll(page)

    # A name sits on the line of its figures.
    for row in page.locator(".standings-table tbody tr").all():
        name = row.locator("th").evaluate(TEXT_TOP)
        for cell in ("col-games", "col-wins", "col-points"):
            assert abs(row.locator(f".{cell}").evaluate(TEXT_TOP) - name) < 2

    # Choosing dates opens the filter, and its summary follows the choice.
    summary.tap()
    page.locator("#standings-filter .chip", has_text="This year").tap()
    expect(summary).to_have_text(re.compile(r"^\s*Period: \d{4}\s*$"))
    page.goto(f"{live_server}/standings/?period=custom&first=2020-01-01")
    expect(page.locator(".filter-box")).to_have_attribute("open", "")
    expect(page.locator("#standings-filter .chips")).to_be_visible()


def test_standings_name_search_follows_the_typing_and_keeps_the_rank(
    phone, live_server: str, finished_games: None
):
    phone.goto(f"{live_server}/standings/")
    phone.locator(".filter-box summary").tap()
    phone.locator("#standings-search").fill("cath")
    expect(phone.locator(".standings-table tbody th")).to_have_text(["Catherine"])
    expect(phone.locator(".standings-table tbody .rank-cell")).to_have_text(["3"])
    expect(phone.locator(".filter-box summary")).to_contain_text("“cath”")
    assert "q=cath" in phone.url
