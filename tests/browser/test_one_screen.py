"""One screen per hand: on a phone the whole hand is recorded without scrolling, and the keypad
and Save stay under the thumb whichever row is being counted.

Every tap here is checked first (browser/thumb.py): the element must already be inside the
viewport and not under the docked keypad, and the page must not have scrolled by itself.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from browser.thumb import ThumbTaps, reference_hand
from factories import make_game
from flask import Flask
from playwright.sync_api import Page, expect

from scorer.extensions import db

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 360, "height": 640}
NAMES = ["Ann", "Bob", "Cat", "Dan"]
TEN = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"]
# Where the screenshots go when asked for (SHOTS_DIR=/tmp/shots), to look at the layout.
SHOTS_DIR = os.environ.get("SHOTS_DIR")


def shot(page: Page, name: str) -> None:
    if SHOTS_DIR:
        page.screenshot(path=str(Path(SHOTS_DIR) / f"{name}.png"), caret="initial")


@pytest.fixture
def game_url(live_app: Flask, live_server: str) -> Callable[[list[str]], str]:
    """A new standard game of these players; gives its address."""

    def make(names: list[str]) -> str:
        with live_app.app_context():
            return f"{live_server}/games/{make_game(db.session, names).id}"

    return make


# Each phone once and each scheme once: the scheme changes colours, not where anything is, and
# tests/browser/test_layout.py checks every screen in both schemes at both sizes.
@pytest.mark.parametrize(
    ("viewport", "scheme"), [(PHONE, "light"), (SMALL_PHONE, "dark")], ids=["390x844", "360x640"]
)
def test_the_reference_hand_and_the_next_need_no_scrolling(
    new_phone: Callable[..., Page], game_url, enter_hand, viewport, scheme
):
    page = new_phone(viewport, color_scheme=scheme)
    page.goto(game_url(NAMES))
    size = f"{viewport['width']}x{viewport['height']}-{scheme}"
    shot(page, f"open-{size}")
    taps = ThumbTaps(page)
    assert taps.scroll_y == 0
    reference_hand(page, taps)
    assert taps.count == 9
    expect(page.locator(".deal-line")).to_have_text("Bob deals hand 2.")
    expect(page.locator(".pad-title")).to_have_text("Record hand 2")
    expect(page.locator("[data-toast]")).to_contain_text("Hand 1 saved")
    shot(page, f"saved-{size}")
    assert page.evaluate("scrollY") == 0, "saving moved the page"

    # The next hand follows at once, from the same place: Bob out, Cat 9, Dan 5, Ann 7.
    pad = page.locator("#hand-form")
    enter_hand(page, taps, "Bob", {"Cat": ["9"], "Dan": ["5"], "Ann": ["7"]})
    expect(pad.locator("[data-summary]")).to_have_text("Bob scores 21")
    shot(page, f"counting-{size}")
    taps(page.get_by_role("button", name="Save hand"))
    expect(page.locator(".pad-title")).to_have_text("Record hand 3")
    assert page.evaluate("scrollY") == 0


# One phone for both games, a subtest each: each game's page opens at the top with a fresh pad.
def test_two_or_three_players_record_a_hand_without_scrolling(
    new_phone: Callable[..., Page], game_url, enter_hand, subtests
):
    page = new_phone(PHONE)
    for players in (2, 3):
        with subtests.test(players=players):
            page.goto(game_url(NAMES[:players]))
            taps = ThumbTaps(page)
            pad = page.locator("#hand-form")
            cards = {name: [str(number)] for number, name in enumerate(NAMES[1:players], start=1)}
            enter_hand(page, taps, "Ann", cards)
            expect(pad.locator("[data-summary]")).to_have_text(f"Ann scores {sum(range(players))}")
            taps(page.get_by_role("button", name="Save hand"))
            expect(page.locator(".pad-title")).to_have_text("Record hand 2")
            assert page.evaluate("scrollY") == 0


# A 360x640 phone must keep the keys and Save in view for 5 to 10 players: the fewest and the most,
# on one phone, a subtest each.
def test_many_players_keep_the_keypad_and_save_in_view_on_a_small_phone(
    new_phone: Callable[..., Page], game_url, subtests
):
    page = new_phone(SMALL_PHONE)
    for players in (5, 10):
        with subtests.test(players=players):
            many_players_keep_the_keypad_and_save_in_view(page, game_url, players)


def many_players_keep_the_keypad_and_save_in_view(page: Page, game_url, players: int) -> None:
    names = TEN[:players]
    page.goto(game_url(names))
    # At the top, as a phone of its own would open it: the last game's scroll is not carried over.
    assert page.evaluate("scrollY") == 0
    pad = page.locator("#hand-form")
    pad.locator(".went-out .chip", has_text="Ann").tap()
    save = page.get_by_role("button", name="Save hand")
    for number, name in enumerate(names[1:], start=1):
        row = pad.locator(f'.tally[data-name="{name}"]')
        # The rows may scroll; the thumb brings each into view, then never scrolls again.
        row.locator(".tally-pick").scroll_into_view_if_needed()
        taps = ThumbTaps(page)
        if number > 1:
            taps(row.locator(".tally-pick"))
        expect(row).to_have_class(re.compile(r"\bis-active\b"))
        taps(pad.locator(f'.keys [data-card="{number}"]'))
        taps.reachable(save)
        expect(row.locator("[data-points]")).to_have_text(str(number))
    shot(page, f"{players}-360x640")
    expect(pad.locator("[data-summary]")).to_have_text(f"Ann scores {sum(range(players))}")
    where = page.evaluate("scrollY")
    ThumbTaps(page)(save)
    expect(page.locator(".pad-title")).to_have_text("Record hand 2")
    # Saved where it was: the page does not jump back to the top.
    assert page.evaluate("scrollY") == where
    if players == 10:
        assert where > 0, "ten rows were expected to scroll"
