"""Without JavaScript each button is a plain form post, and the server redraws the form."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


@pytest.fixture
def page(new_phone) -> Page:
    return new_phone(java_script_enabled=False)


def test_a_game_and_a_hand_with_plain_form_posts(page: Page, live_server: str):
    page.goto(f"{live_server}/games/new")
    assert page.evaluate("1 + 1") == 2  # Playwright's own evaluation still works...
    assert page.locator("script[src*=htmx]").count() == 1  # ...while the page's scripts never ran.

    for name in ("Ann", "Bob", "Cat", "Dan"):
        page.locator("#new_name").fill(name)
        page.get_by_role("button", name="Add", exact=True).tap()
        expect(page.locator(".seat-name", has_text=name)).to_be_visible()
    page.get_by_role("button", name="Dan deals first").tap()
    expect(page.get_by_role("button", name="Dan deals first")).to_have_attribute(
        "aria-pressed", "true"
    )
    page.get_by_role("button", name="Start game").tap()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    game_url = page.url
    expect(page.locator(".deal-line")).to_have_text("Dan deals hand 1.")

    pad = page.locator("#hand-form")
    # Choosing who went out sends nothing; the first key does, and the pad comes back on Bob.
    pad.locator(".went-out .chip", has_text="Ann").tap()
    for key in ("3", "20"):
        pad.locator(f'.keys [data-card="{key}"]').tap()
        page.wait_for_load_state()
    bob = pad.locator('.tally[data-name="Bob"]')
    expect(bob).to_have_class(re.compile(r"\bis-active\b"))
    expect(bob.locator("[data-points]")).to_have_text("23")
    expect(bob.locator("[data-tape]")).to_have_text("3 · 20")

    pad.locator('.tally[data-name="Cat"] .tally-pick').tap()
    expect(pad.locator('.tally[data-name="Cat"]')).to_have_class(re.compile(r"\bis-active\b"))
    for key in ("50", "20", "9"):
        pad.locator(f'.keys [data-card="{key}"]').tap()
        page.wait_for_load_state()
    pad.locator('.keys [data-pad="back"]').tap()  # the 9 was a mistake
    expect(pad.locator('.tally[data-name="Cat"] [data-points]')).to_have_text("70")

    # Dan's hand as a typed total, then save.
    pad.locator('.tally[data-name="Dan"] [data-typed]').fill("8")
    expect(pad.locator("[data-summary]")).to_have_text("Ann scores 93")  # Dan not yet sent
    pad.get_by_role("button", name="Save hand").tap()
    # The game page says which hand was saved, through its address, until the next thing done.
    page.wait_for_url(f"{game_url}?saved=1")
    expect(page.locator("[data-toast]")).to_contain_text("Hand 1 saved")

    ann = page.locator(".standings .side").first
    expect(ann.locator(".side-names")).to_have_text(re.compile(r"^\s*Ann deals\s*$"))
    expect(ann.locator(".score")).to_have_text("score 101")
    expect(page.locator(".history .hand-head")).to_contain_text("Ann went out, +101")
    expect(page.locator(".deal-line")).to_have_text("Ann deals hand 2.")

    # Dan's 8 was a 9: the edit page fixes it, and the game page says so in the note's place.
    page.get_by_role("link", name="Edit hand 1").tap()
    page.wait_for_url(re.compile(r"/hands/1/edit$"))
    page.locator('.tally[data-name="Dan"] [data-typed]').fill("9")
    page.get_by_role("button", name="Save hand 1").tap()
    page.wait_for_url(f"{game_url}?updated=1")
    expect(page.locator(".standings .side").first.locator(".score")).to_have_text("score 102")
    expect(page.locator("[data-toast]")).to_have_text("Hand 1 updated")

    # Hand 2, then its Undo from the note: a plain form post too.
    pad.locator(".went-out .chip", has_text="Bob").tap()
    pad.locator('.keys [data-card="5"]').tap()
    page.wait_for_load_state()
    expect(pad.locator('.tally[data-name="Cat"] [data-points]')).to_have_text("5")
    pad.locator('.tally[data-name="Dan"] [data-typed]').fill("6")
    pad.locator('.tally[data-name="Ann"] [data-typed]').fill("7")
    pad.get_by_role("button", name="Save hand").tap()
    page.wait_for_url(f"{game_url}?saved=2")
    expect(page.locator(".history .hand")).to_have_count(2)
    page.locator("[data-toast]").get_by_role("button", name="Undo hand 2").tap()
    # The hand is back on the pad as it was saved, to be fixed and saved again.
    page.wait_for_url(re.compile(re.escape(game_url) + r"\?number=2&"))
    expect(page.locator(".history .hand")).to_have_count(1)
    expect(pad.locator('.tally[data-name="Cat"] [data-points]')).to_have_text("5")
    expect(pad.locator('.tally[data-name="Dan"] [data-typed]')).to_have_value("6")
    expect(page.locator(".deal-line")).to_have_text("Ann deals hand 2.")
    expect(page.locator("[data-toast]")).to_have_count(0)


def test_the_count_boxes_are_ordinary_inputs_before_anyone_goes_out(page: Page, live_server: str):
    page.goto(f"{live_server}/games/new")
    for name in ("Ann", "Bob", "Cat"):
        page.locator("#new_name").fill(name)
        page.get_by_role("button", name="Add", exact=True).tap()
    page.get_by_role("button", name="Start game").tap()
    page.wait_for_url(re.compile(r"/games/\d+$"))

    pad = page.locator("#hand-form")
    for name in ("Ann", "Bob", "Cat"):
        row = pad.locator(f'.tally[data-name="{name}"]')
        expect(row.locator("[data-typed]")).to_be_enabled()
        expect(row.locator(".tally-pick")).to_be_enabled()
        # Nothing about the row looks switched off: no fading, no dashed border.
        look = row.locator(".tally-pick").evaluate(
            "(node) => { const s = getComputedStyle(node); return [s.opacity, s.borderTopStyle]; }"
        )
        assert look == ["1", "solid"], f"{name}'s row looks disabled: {look}"
    # Totals typed first, then who went out: one post saves the hand.
    pad.locator('.tally[data-name="Bob"] [data-typed]').fill("12")
    pad.locator('.tally[data-name="Cat"] [data-typed]').fill("30")
    pad.locator(".went-out .chip", has_text="Ann").tap()
    pad.get_by_role("button", name="Save hand").tap()
    page.wait_for_url(re.compile(r"\?saved=1$"))
    expect(page.locator(".history .hand-head")).to_contain_text("Ann went out, +42")
