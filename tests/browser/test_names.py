"""Names on a small phone: the limit is shown where a name is typed, a name too long is refused
rather than cut, a likely typo is asked about, and a long name keeps to two lines on the pad."""

from __future__ import annotations

import pytest
from browser.schemes import axe_in, each_scheme
from browser.targets import offenders
from factories import make_game
from flask import Flask
from playwright.sync_api import Page, expect

from scorer.extensions import db

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 640}
# Forty characters each: words to break between, and one word with nowhere to break.
WORDS = "Maximiliana Konstantinopoulou Alexandrov"
ONE_WORD = "Wolfeschlegelsteinhausenbergerdorffvoral"
EIGHTY = "Bartholomew " * 6 + "Bartholo"


@pytest.fixture(scope="module")
def game_id(live_app: Flask) -> int:
    """A game of four with two forty-character names."""
    assert len(WORDS) == len(ONE_WORD) == 40 and len(EIGHTY) == 80
    with live_app.app_context():
        return make_game(db.session, ["Ann", WORDS, "Bob", ONE_WORD]).id


def test_a_long_name_takes_two_lines_at_most_on_the_pad(new_phone, live_server: str, game_id):
    page = new_phone(viewport=NARROW)
    page.goto(f"{live_server}/games/{game_id}")
    page.locator("#hand-form .went-out .chip", has_text="Ann").tap()
    for name in (WORDS, ONE_WORD):
        label = page.locator(f'.tally[data-name="{name}"] .tally-name')
        lines = label.evaluate(
            "(node) => node.getBoundingClientRect().height"
            " / parseFloat(getComputedStyle(node).lineHeight)"
        )
        assert lines <= 2.05, f"{name} takes {lines:.1f} lines"
        # Cut short on screen only: the row is still named in full.
        expect(page.locator(f'.tally[data-name="{name}"] .tally-pick')).to_contain_text(name)
    words = page.locator(f'.tally[data-name="{WORDS}"] .tally-name')
    # Broken between words, not inside one: two lines show whole words.
    assert words.evaluate("(node) => getComputedStyle(node).overflowWrap") != "anywhere"
    width, inner = page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
    assert width <= inner


def test_the_limit_is_shown_and_a_pasted_name_too_long_is_refused_not_cut(
    new_phone, live_server: str
):
    page = new_phone(viewport=NARROW)
    page.goto(f"{live_server}/games/new")
    expect(page.locator("#new_name-hint")).to_have_text("Up to 40 characters.")
    expect(page.locator("#new_name-hint")).to_be_visible()
    for scheme in each_scheme(page):
        results = axe_in(page, scheme)
        assert not results.violations_count, f"{scheme}\n{results.generate_report()}"
    box = page.locator("#new_name")
    box.focus()
    page.keyboard.insert_text(EIGHTY)  # as a paste does
    expect(box).to_have_value(EIGHTY)
    page.get_by_role("button", name="Add", exact=True).tap()
    expect(page.locator("#new_name-error")).to_have_text("Names are at most 40 characters.")
    expect(page.locator("#new_name")).to_have_value(EIGHTY)
    expect(page.locator(".seat-name")).to_have_count(0)


def test_a_typo_of_a_roster_name_is_asked_about_before_it_is_seated(
    phone: Page, live_server: str, game_id
):
    phone.goto(f"{live_server}/games/new")
    phone.locator("#new_name").fill("Anne")
    phone.get_by_role("button", name="Add", exact=True).tap()
    expect(phone.locator("#new-player-title")).to_have_text("Add new player Anne?")
    expect(phone.locator("#new-player-title")).to_be_focused()
    expect(phone.locator(".seat-name")).to_have_count(0)
    assert offenders(phone) == []
    for scheme in each_scheme(phone):
        results = axe_in(phone, scheme)
        assert not results.violations_count, f"{scheme}\n{results.generate_report()}"
    phone.locator(".suggestions .chip", has_text="Ann").tap()
    expect(phone.locator(".seat-name")).to_have_text(["Ann"])
    expect(phone.locator("#new-player")).to_have_count(0)

    phone.locator("#new_name").fill("Bobb")
    phone.get_by_role("button", name="Add", exact=True).tap()
    phone.get_by_role("button", name="Add new player Bobb").tap()
    expect(phone.locator(".seat-name")).to_have_text(["Ann", "Bobb"])
