"""Partners and Challenge games played to the end by tapping, at a phone viewport."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def set_up(page: Page, live_server: str, mode: str, names: list[str], target: int) -> None:
    page.goto(f"{live_server}/games/new")
    for name in names:
        page.locator("#new_name").fill(name)
        page.get_by_role("button", name="Add", exact=True).tap()
        expect(page.locator(".seat-name", has_text=name)).to_be_visible()
    # Choosing a mode redraws the form from the server; wait for it before typing the target,
    # or the redrawn form would bring back the old one.
    with page.expect_response(lambda response: response.request.method == "POST"):
        page.locator(".choice", has_text=mode).tap()
    # A locator, not wait_for_function: the page's CSP forbids the eval that one would need.
    expect(page.locator(".htmx-request, .htmx-swapping, .htmx-settling")).to_have_count(0)
    expect(page.locator(f'input[name=mode][value="{mode.lower()}"]')).to_be_checked()
    page.locator("#target").fill(str(target))


def side_lines(page: Page) -> list[str]:
    """Each place on the scoreboard as one line, less the word "score" kept for screen readers."""
    return [
        " ".join(side.text_content().split()).replace(" score ", " ", 1)
        for side in page.locator(".standings .side").all()
    ]


def save(page: Page, taps, then: str) -> None:
    """Save the hand and wait until the page shows `then` ("Record hand 3", or the result)."""
    taps(page.get_by_role("button", name="Save hand"))
    expect(page.locator(".pad-title, #result-title").first).to_contain_text(then)


def test_a_partners_game_played_to_the_end(phone: Page, live_server, enter_hand, taps):
    page = phone
    set_up(page, live_server, "Partners", ["Ann", "Bob", "Cat", "Dan"], 200)
    # Partners sit opposite: Ann with Cat, Bob with Dan, as setup shows before the game starts.
    expect(page.locator('label[for="teams-0"]')).to_have_text("Team A: Ann & Cat")
    expect(page.locator('label[for="teams-1"]')).to_have_text("Team B: Bob & Dan")
    page.locator("#teams-0").fill("Sharks")
    page.get_by_role("button", name="Start game").tap()
    page.wait_for_url(re.compile(r"/games/\d+$"))

    # Ann goes out: her partner Cat's hand is not counted and cannot be entered.
    enter_hand(page, taps, "Ann", {"Bob": ["50", "50"], "Dan": ["50", "20", "9"]})
    cat = page.locator('.tally[data-name="Cat"]')
    expect(cat).to_have_class(re.compile(r"\bis-partner\b"))
    expect(cat.locator(".tally-pick")).to_be_disabled()
    expect(cat.locator("[data-note]")).to_have_text("partner, not counted")
    expect(page.locator("[data-summary]")).to_have_text("Ann & Cat score 179")
    save(page, taps, "Record hand 2")

    # Dan goes out for Bob & Dan: 9 + 8 from the Sharks.
    enter_hand(page, taps, "Dan", {"Ann": ["9"], "Cat": ["8"]})
    expect(page.locator("[data-summary]")).to_have_text("Bob & Dan score 17")
    save(page, taps, "Record hand 3")
    # The badge follows the team, naming its dealer: the team's name is never split.
    assert side_lines(page)[0] == "1 Sharks Ann & Cat Cat deals 179 21 to go · 1 hand won"

    # Cat goes out: 20 + 3 takes the Sharks from 179 to 202, past the target of 200.
    enter_hand(page, taps, "Cat", {"Bob": ["20"], "Dan": ["3"]})
    save(page, taps, "Sharks win")
    expect(page.locator("#result-title")).to_contain_text("Sharks win with 202!")
    expect(page.locator(".result .winners")).to_have_text("Ann & Cat")
    assert re.match(r"1 Sharks Ann & Cat 202 winner", side_lines(page)[0])
    assert re.match(r"2 Bob & Dan 17 183 to go", side_lines(page)[1])
    expect(page.locator("#hand-form")).to_have_count(0)


def test_the_dealer_badge_does_not_split_a_partners_team(phone: Page, live_server, taps):
    page = phone
    set_up(page, live_server, "Partners", ["Ann", "Bob", "Cat", "Dan"], 200)
    page.get_by_role("button", name="Start game").tap()
    page.wait_for_url(re.compile(r"/games/\d+$"))
    # Ann deals the first hand: her partner Cat's name still follows hers on the line.
    team = page.locator('.standings .side[data-side="0"] .side-names')
    expect(team).to_have_text(re.compile(r"^\s*Ann\s*&\s*Cat\s*Ann deals\s*$"))
    ann, amp, cat, badge = (
        team.locator(selector).bounding_box()
        for selector in (".player >> nth=0", ".amp", ".player >> nth=1", ".dealer-mark")
    )
    assert ann and amp and cat and badge
    assert ann["x"] < amp["x"] < cat["x"] < badge["x"]


def test_a_challenge_game_played_to_the_end(phone: Page, live_server, enter_hand, taps):
    page = phone
    set_up(page, live_server, "Challenge", ["Ann", "Bob", "Cat"], 100)
    page.get_by_role("button", name="Start game").tap()
    page.wait_for_url(re.compile(r"/games/\d+$"))

    # Ann goes out; Bob's own cards reach exactly 100 and put him out of the game.
    enter_hand(page, taps, "Ann", {"Bob": ["50", "50"], "Cat": ["9"]})
    expect(page.locator("[data-summary]")).to_have_text("The others take 109 points between them.")
    save(page, taps, "Record hand 2")
    # Bob dealt nothing yet but is out, so the deal skips him: Cat deals hand 2.
    expect(page.locator(".deal-line")).to_have_text("Cat deals hand 2.")
    assert side_lines(page) == [
        "1 Ann 0 100 left before out · 1 hand won",
        "2 Cat deals 9 91 left before out · 0 hands won",
        "3 Bob 100 out in hand 1 · 0 hands won",
    ]
    expect(page.locator(".standings .is-eliminated")).to_have_count(1)
    # Bob is no longer offered, neither as the one who went out nor on the pad.
    expect(page.locator(".went-out .chip", has_text="Bob")).to_have_count(0)
    expect(page.locator('.tally[data-name="Bob"]')).to_have_class(re.compile(r"\bis-eliminated\b"))

    # Cat goes out; Ann takes 20 against her. Lowest score ranks first.
    enter_hand(page, taps, "Cat", {"Ann": ["20"]})
    save(page, taps, "Record hand 3")
    assert [line.split()[1] for line in side_lines(page)] == ["Cat", "Ann", "Bob"]

    # Ann goes out twice; Cat reaches 99, then exactly 100, and Ann is the last one standing.
    enter_hand(page, taps, "Ann", {"Cat": ["50", "20", "20"]})
    save(page, taps, "Record hand 4")
    expect(page.locator(".deal-line")).to_have_text("Cat deals hand 4.")
    enter_hand(page, taps, "Ann", {"Cat": ["1"]})
    save(page, taps, "Ann wins")
    expect(page.locator("#result-title")).to_contain_text("Ann wins!")
    assert side_lines(page) == [
        "1 Ann 20 winner · 3 hands won",
        "2 Cat 100 out in hand 4 · 1 hand won",
        "3 Bob 100 out in hand 1 · 0 hands won",
    ]
