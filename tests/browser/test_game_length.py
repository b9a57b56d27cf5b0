"""A game of a number of hands, chosen in setup by tapping and counted down on the scoreboard."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def test_choose_three_hands_in_setup_and_the_scoreboard_counts_them_down(
    phone: Page, live_server: str, enter_hand, taps
):
    page = phone
    page.goto(f"{live_server}/games/new")
    for name in ["Ann", "Bob", "Cat"]:
        page.locator("#new_name").fill(name)
        page.get_by_role("button", name="Add", exact=True).tap()
        expect(page.locator(".seat-name", has_text=name)).to_be_visible()
    # With the script the hands box appears once the choice is made, and the target goes.
    expect(page.locator("#hands")).to_be_hidden()
    with page.expect_response(lambda response: response.request.method == "POST"):
        page.locator(".choice", has_text="A number of hands").tap()
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)
    expect(page.locator("#target")).to_have_count(0)
    hands = page.locator("#hands")
    expect(hands).to_be_visible()
    box = hands.bounding_box()
    assert box is not None and box["height"] >= 44
    hands.fill("3")
    page.get_by_role("button", name="Start game").tap()
    page.wait_for_url(re.compile(r"/games/\d+$"))

    expect(page.locator(".game-title")).to_contain_text("Standard · 3 hands")
    expect(page.locator(".hands-left")).to_have_text("· 3 hands left")
    expect(page.locator(".standings")).not_to_contain_text("to go")
    enter_hand(page, taps, "Ann", {"Bob": ["9"], "Cat": ["20"]})
    taps(page.get_by_role("button", name="Save hand"))
    expect(page.locator(".hands-left")).to_have_text("· 2 hands left")
    enter_hand(page, taps, "Bob", {"Cat": ["5"], "Ann": ["1"]})
    taps(page.get_by_role("button", name="Save hand"))
    expect(page.locator(".hands-left")).to_have_text("· 1 hand left")
    enter_hand(page, taps, "Cat", {"Ann": ["2"], "Bob": ["3"]})
    taps(page.get_by_role("button", name="Save hand"))
    # After the last hand the most points win: Ann's 29 against Bob's 6 and Cat's 5.
    expect(page.locator("#result-title")).to_contain_text("Ann wins with 29!")
    expect(page.locator(".game-title")).to_contain_text("finished after 3 hands")
    expect(page.locator("#hand-form")).to_have_count(0)
    width, inner = page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
    assert width <= inner
