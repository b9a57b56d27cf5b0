"""The deck on a phone: the Blank key on the tally pad, limits that follow the deck, and the
setup form's one-line deck choice."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from browser.fit import PHONES, assert_no_sideways_scroll
from browser.targets import MIN_TARGET
from flask import Flask
from playwright.sync_api import Page, expect

from scorer import scoring
from scorer.extensions import db
from scorer.services import games

pytestmark = pytest.mark.browser


NAMES = ["Ann", "Bob", "Cat"]


@pytest.fixture
def deck_game(live_app: Flask, live_server: str) -> Callable[[scoring.Deck], str]:
    def make(deck: scoring.Deck) -> str:
        with live_app.app_context():
            game_id = games.create_game(db.session, "standard", NAMES, deck=deck).id
        return f"{live_server}/games/{game_id}"

    return make


def test_the_blank_key_adds_a_blank_at_the_games_value(phone: Page, deck_game):
    phone.goto(deck_game(scoring.Deck(blank_value=25)))
    pad = phone.locator("#hand-form")
    blank = pad.get_by_role("button", name="Add a blank card: 25 points")
    expect(blank).to_have_text("Blank 25")
    # The +50 key stays for the wild cards.
    expect(pad.get_by_role("button", name="Add 50: Wild or Wild Draw Four")).to_have_text("+50")
    # On a phone the Blank key is in the pad's grid, on the screen with the other keys.
    box, zero = blank.bounding_box(), pad.locator('.keys [data-card="0"]').bounding_box()
    assert box and zero and abs(box["y"] - zero["y"]) < 1 and box["x"] > zero["x"]
    assert box["x"] + box["width"] <= phone.viewport_size["width"]

    pad.locator(".went-out .chip", has_text="Ann").tap()
    bob = pad.locator('.tally[data-name="Bob"]')
    bob.locator(".tally-pick").tap()
    blank.tap()
    pad.locator('.keys [data-card="7"]').tap()
    expect(bob.locator("[data-tape]")).to_have_text("25 · 7")
    expect(bob.locator("[data-points]")).to_have_text("32")
    pad.locator('.tally[data-name="Cat"] [data-typed]').fill("5")
    expect(pad.locator("[data-summary]")).to_have_text("Ann scores 37")
    phone.get_by_role("button", name="Save hand").tap()
    expect(phone.locator(".history .hand-head")).to_contain_text("Ann went out, +37")


def test_a_fifth_blank_is_flagged_on_the_tap(phone: Page, deck_game):
    phone.goto(deck_game(scoring.DEFAULT_DECK))
    pad = phone.locator("#hand-form")
    pad.locator(".went-out .chip", has_text="Ann").tap()
    bob = pad.locator('.tally[data-name="Bob"]')
    cat = pad.locator('.tally[data-name="Cat"]')
    blank = pad.locator('.keys [data-card="blank"]')
    bob.locator(".tally-pick").tap()
    for _ in range(3):
        blank.tap()
    cat.locator(".tally-pick").tap()
    blank.tap()
    expect(cat.locator(".error")).to_have_count(0)
    blank.tap()
    message = "5 blank cards counted, but the deck has only 4."
    expect(bob.locator(".error")).to_have_text(message)
    expect(cat.locator(".error")).to_have_text(message)
    pad.locator('.keys [data-pad="back"]').tap()
    expect(bob.locator(".error")).to_have_count(0)


@pytest.mark.parametrize(("copies", "allowed"), [(1, 8), (2, 16)])
def test_the_plus_50_limit_follows_the_number_of_decks(phone: Page, deck_game, copies, allowed):
    phone.goto(deck_game(scoring.Deck(copies=copies, blanks=0)))
    pad = phone.locator("#hand-form")
    # A classic deck has no blanks: no Blank key.
    expect(pad.locator('.keys [data-card="blank"]')).to_have_count(0)
    pad.locator(".went-out .chip", has_text="Ann").tap()
    bob = pad.locator('.tally[data-name="Bob"]')
    bob.locator(".tally-pick").tap()
    plus_50 = pad.locator('.keys [data-card="50"]')
    for _ in range(allowed):
        plus_50.tap()
    expect(bob.locator("[data-points]")).to_have_text(str(50 * allowed))
    expect(bob.locator(".error")).to_have_count(0)
    plus_50.tap()
    expect(bob.locator(".error")).to_have_text(
        f"{allowed + 1} 50-point wild cards counted, but the deck has only {allowed}."
    )


def test_setup_keeps_the_deck_to_one_line_until_it_is_opened(phone: Page, live_server: str):
    phone.goto(f"{live_server}/games/new")
    choice = phone.locator("details.deck-choice")
    summary = choice.locator("summary")
    expect(summary).to_have_text("Deck: retail 112 cards, blanks worth 50 Change")
    expect(choice.get_by_role("radio", name="Classic: 108 cards, no blanks")).to_be_hidden()
    for name in ("Dee", "Eli"):
        phone.locator("#new_name").fill(name)
        phone.get_by_role("button", name="Add", exact=True).tap()
        expect(phone.locator(".seats")).to_contain_text(name)
    phone.locator("details.deck-choice summary").tap()
    phone.get_by_role("radio", name="Classic: 108 cards, no blanks").check()
    phone.get_by_role("radio", name="Two decks shuffled together (big tables)").check()
    phone.get_by_role("button", name="Start game").tap()
    expect(phone.locator(".deck-line")).to_have_text("Deck: two classic decks, 216 cards")
    expect(phone.locator('#hand-form .keys [data-card="blank"]')).to_have_count(0)


@pytest.mark.parametrize("viewport", PHONES)
def test_the_deck_line_follows_the_choice_and_change_looks_like_a_button(
    new_phone, live_server: str, viewport: dict
):
    page = new_phone(viewport=viewport)
    page.goto(f"{live_server}/games/new")
    choice = page.locator("details.deck-choice")
    change = choice.locator(".deck-change")
    box = change.bounding_box()
    assert box["height"] >= MIN_TARGET and box["width"] >= MIN_TARGET, box
    look = change.evaluate(
        "(node) => { const s = getComputedStyle(node), line = getComputedStyle(node.parentElement);"
        " return [s.borderTopStyle, s.backgroundColor, line.backgroundColor]; }"
    )
    assert look[0] == "solid" and look[1] != look[2], f"'Change' looks like plain text: {look}"

    name = choice.locator("summary strong")
    change.tap()
    page.get_by_role("radio", name="Classic: 108 cards, no blanks").check()
    expect(name).to_have_text("classic 108 cards")
    page.get_by_role("radio", name="Two decks shuffled together (big tables)").check()
    expect(name).to_have_text("two classic decks, 216 cards")
    expect(choice).to_have_attribute("open", "")  # the list stays open for the next choice
    assert_no_sideways_scroll(page)
