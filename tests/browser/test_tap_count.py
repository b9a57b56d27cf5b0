"""How many taps the reference hand takes, from the game screen to the saved hand.

The reference hand: four players, Ann (A) went out; Bob holds a 3 and a Skip, Cat a Wild and a
Draw Two, Dan an 8. Ann scores 3 + 20 + 50 + 20 + 8 = 101.
"""

from __future__ import annotations

import pytest
from browser.thumb import ThumbTaps, reference_hand
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bob", "Cat", "Dan"]
# Counts what really reached the page, to check the helper's own count.
COUNTERS = """() => {
  window.__touches = 0;
  window.__keys = 0;
  document.addEventListener("touchstart", () => { window.__touches += 1; }, true);
  document.addEventListener("keydown", () => { window.__keys += 1; }, true);
}"""


def counted(page: Page) -> tuple[int, int]:
    return page.evaluate("[window.__touches, window.__keys]")


def expect_saved(page: Page) -> None:
    expect(page.locator(".deal-line")).to_have_text("Bob deals hand 2.")
    ann = page.locator(".standings .side").first
    expect(ann.locator(".side-names")).to_have_text("Ann")
    expect(ann.locator(".score")).to_have_text("score 101")
    expect(page.locator(".history .hand-head")).to_contain_text("Ann went out, +101")


def test_reference_hand_by_cards_takes_nine_taps_and_no_scrolling(phone: Page, start_game):
    page = phone
    start_game(page, NAMES)
    page.evaluate(COUNTERS)
    page.evaluate(
        "window.__scrolls = 0; addEventListener('scroll', () => { window.__scrolls += 1; })"
    )
    # Each tap only on what is already in view, where the page opened.
    taps = ThumbTaps(page)
    reference_hand(page, taps)
    expect_saved(page)

    touches, keys = counted(page)  # also proves the page was swapped in place, not reloaded
    print(f"reference hand by cards: {taps.count} taps, {keys} keys")
    assert taps.count == 9
    # Nothing on the pad was out of reach, so neither the taps nor the page scrolled.
    assert page.evaluate("[window.__scrolls, window.scrollY]") == [0, 0]
    assert touches == taps.count
    assert keys == 0


def test_reference_hand_by_typed_totals(phone: Page, start_game, taps):
    page = phone
    start_game(page, NAMES)
    page.evaluate(COUNTERS)
    pad = page.locator("#hand-form")
    totals = {"Bob": "23", "Cat": "70", "Dan": "8"}

    taps(pad.locator(".went-out .chip", has_text="Ann"))
    for name, total in totals.items():
        taps(pad.locator(f'.tally[data-name="{name}"] [data-typed]'))
        page.keyboard.type(total)
    expect(pad.locator("[data-summary]")).to_have_text("Ann scores 101")
    taps(page.get_by_role("button", name="Save hand"))
    expect_saved(page)

    touches, keys = counted(page)
    typed = sum(len(total) for total in totals.values())
    print(f"reference hand by typed totals: {taps.count} taps + {keys} keys")
    assert taps.count <= 5
    assert touches == taps.count
    assert keys == typed == 5
