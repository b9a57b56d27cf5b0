"""An evening on a phone: set up four players, record three hands, undo the last, fix the first."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def standings(page: Page) -> list[str]:
    """The scoreboard, a line per place: "rank name [deals] score | meta", as a reader sees it."""
    lines = []
    for side in page.locator(".standings .side").all():
        names = " ".join(side.locator(".side-names").text_content().split())
        score = side.locator(".score").inner_text().removeprefix("score").strip()
        # Hands won are in the text but shown only where the line has room (not on a phone).
        meta = " ".join(side.locator(".side-meta").text_content().split())
        lines.append(f"{side.locator('.rank').inner_text()} {names} {score} | {meta}")
    return lines


def test_four_players_three_hands_an_undo_and_an_edit(phone: Page, start_game, enter_hand, taps):
    page = phone
    game_url = start_game(page, ["Ann", "Bob", "Cat", "Dan"])
    expect(page.locator(".deal-line")).to_have_text("Ann deals hand 1.")

    # A marker that a full page load would wipe: every save below must be swapped in by htmx.
    page.evaluate("window.__marker = 1")
    # Saving an empty pad is refused in place (a 422 that htmx swaps in), with the reason.
    taps(page.get_by_role("button", name="Save hand"))
    expect(page.locator("#went_out-error")).to_be_visible()
    assert page.evaluate("window.__marker") == 1

    # Hand 1: Ann goes out; Bob holds 3 + Skip, Cat Wild + Draw Two, Dan an 8: 101 for Ann.
    enter_hand(page, taps, "Ann", {"Bob": ["3", "20"], "Cat": ["50", "20"], "Dan": ["8"]})
    expect(page.locator("[data-summary]")).to_have_text("Ann scores 101")
    taps(page.get_by_role("button", name="Save hand"))
    expect(page.locator(".deal-line")).to_have_text("Bob deals hand 2.")
    assert page.evaluate("window.__marker") == 1, "saving reloaded the page instead of swapping"
    assert page.url == game_url
    expect(page.locator(".pad-title")).to_have_text("Record hand 2")
    assert standings(page)[0] == "1 Ann 101 | 399 to go · 1 hand won"

    # Hand 2: Bob goes out; the pad starts on Cat.
    enter_hand(page, taps, "Bob", {"Cat": ["5"], "Dan": ["9"], "Ann": ["7"]})
    expect(page.locator("[data-summary]")).to_have_text("Bob scores 21")
    taps(page.get_by_role("button", name="Save hand"))
    expect(page.locator(".deal-line")).to_have_text("Cat deals hand 3.")

    # Hand 3: Cat goes out with Dan stuck on a Wild Draw Four.
    enter_hand(page, taps, "Cat", {"Dan": ["50"], "Ann": ["1"], "Bob": ["2"]})
    taps(page.get_by_role("button", name="Save hand"))
    expect(page.locator(".deal-line")).to_have_text("Dan deals hand 4.")
    assert page.evaluate("window.__marker") == 1
    assert standings(page) == [
        "1 Ann 101 | 399 to go · 1 hand won",
        "2 Cat 53 | 447 to go · 1 hand won",
        "3 Bob 21 | 479 to go · 1 hand won",
        "4 Dan deals 0 | 500 to go · 0 hands won",
    ]

    # Undo hand 3 through its confirm page.
    taps(page.get_by_role("link", name="Undo hand 3"))
    page.wait_for_url(re.compile(r"/hands/3/undo$"))
    expect(page.locator("#undo-title")).to_have_text("Undo hand 3?")
    expect(page.locator("#undo")).to_contain_text("Cat went out and scored 53.")
    taps(page.get_by_role("button", name="Undo hand 3"))
    # Back on the game, with the hand on the pad as it was counted, to be fixed and saved again.
    page.wait_for_url(re.compile(re.escape(game_url) + r"\?number=3&"))
    expect(page.locator("#hand-form .went-out input[value='2']")).to_be_checked()

    expect(page.locator(".deal-line")).to_have_text("Cat deals hand 3.")
    assert standings(page) == [
        "1 Ann 101 | 399 to go · 1 hand won",
        "2 Bob 21 | 479 to go · 1 hand won",
        "3 Cat deals 0 | 500 to go · 0 hands won",
        "4 Dan 0 | 500 to go · 0 hands won",
    ]
    history = page.locator(".history .hand-head")
    expect(history).to_have_count(2)
    expect(history.first).to_contain_text("Hand 2")
    expect(page.locator(".pad-title")).to_have_text("Record hand 3")

    # Dan's 8 in hand 1 was a 9: edit it; the pad comes back filled with the hand as saved.
    taps(page.get_by_role("link", name="Edit hand 1"))
    page.wait_for_url(re.compile(r"/hands/1/edit$"))
    pad = page.locator("#hand-form")
    expect(pad.locator("[data-summary]")).to_have_text("Ann scores 101")
    taps(pad.locator('.tally[data-name="Dan"] .tally-pick'))
    taps(pad.locator('.keys [data-pad="back"]'))
    taps(pad.locator('.keys [data-card="9"]'))
    expect(pad.locator('.tally[data-name="Dan"] [data-tape]')).to_have_text("9")
    taps(pad.get_by_role("button", name="Save hand 1"))
    page.wait_for_url(f"{game_url}?updated=1")
    expect(page.locator("[data-toast]")).to_have_text("Hand 1 updated")
    assert standings(page)[0] == "1 Ann 102 | 398 to go · 1 hand won"


def test_a_hand_left_uncounted_is_refused_and_marked(phone: Page, start_game, enter_hand, taps):
    page = phone
    start_game(page, ["Ann", "Bob", "Cat"])
    enter_hand(page, taps, "Cat", {"Ann": ["3", "20"]})
    taps(page.get_by_role("button", name="Save hand"))

    bob = page.locator('.tally[data-name="Bob"]')
    expect(bob.locator(".error")).to_have_text("Count this hand or type its total.")
    total = bob.locator("[data-typed]")
    expect(total).to_have_attribute("aria-invalid", "true")
    error_color = page.evaluate(
        "getComputedStyle(document.querySelector('#hand-form .error')).color"
    )
    expect(total).to_have_css("border-top-color", error_color)
    expect(page.locator(".history .hand")).to_have_count(0)
    # What was tapped survives the refusal.
    expect(page.locator('.tally[data-name="Ann"] [data-points]')).to_have_text("23")


def test_htmx_starts_up_on_the_few_elements_that_use_it(new_phone, start_game):
    # htmx initialises every [type=submit] it finds; the pad's keys are submit buttons by default
    # instead, so a page load (slow on a phone) processes only the body, the pad and the poller.
    # From the network: a page reopened from the phone's copy processes the fresh game as well.
    page = new_phone(service_workers="block")
    start_game(page, ["Ann", "Bob", "Cat", "Dan"])
    page.add_init_script(
        """document.addEventListener("htmx:afterProcessNode",
               (event) => (window.__processed = (window.__processed || []).concat(
                   event.target.id || event.target.tagName)));"""
    )
    page.reload()
    expect(page.get_by_role("button", name="Save hand")).to_be_visible()
    # Polled with evaluate: wait_for_function needs an eval that the page's CSP forbids.
    for _ in range(50):
        if page.evaluate("window.__processed !== undefined && !!window.htmx"):
            break
        page.wait_for_timeout(100)
    assert sorted(page.evaluate("window.__processed")) == ["BODY", "hand-form", "poll"]
