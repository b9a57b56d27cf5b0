"""Two phones on one game: what one records shows on the other within 5 seconds, in place.

The second phone may be in the middle of counting the same hand: its tally stays on its pad, it is
told that the hand was saved elsewhere, and saving it then counts nothing twice.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import pytest
from browser.polls import POLL_MS, poll_now
from browser.schemes import AXE
from browser.targets import offenders
from factories import make_game
from flask import Flask
from playwright.sync_api import Locator, Page, expect

from scorer.extensions import db

pytestmark = pytest.mark.browser

WITHIN_MS = 5_000
# Long enough for two polls; the tests that wait so long run the phone's clock on by it rather
# than sit it out.
POLL_WAIT_MS = POLL_MS * 5 // 2
# Counts the polls the page sends from now on, as it sends them: a phone's clock run on fires
# them at once, before their answers could come back.
COUNT_POLLS = """() => {
  window.__polls = 0;
  document.addEventListener("htmx:beforeSend", (event) => {
    if (event.detail.requestConfig.path.includes("/live")) window.__polls += 1;
  });
}"""


@pytest.fixture
def game_url(live_app: Flask, live_server: str) -> str:
    with live_app.app_context():
        return f"{live_server}/games/{make_game(db.session, ['Ann', 'Bob', 'Cat'], target=150).id}"


def open_game(new_phone: Callable[..., Page], url: str) -> Page:
    """A phone on the game, its clock installed so a test may run it on to a poll."""
    page = new_phone()
    page.clock.install()
    page.goto(url)
    # Marks this page: a full reload would lose it, an htmx swap keeps it.
    page.evaluate("window.__marker = 'no reload'")
    return page


def test_a_hand_saved_on_one_phone_appears_on_the_other_without_losing_its_tally(
    new_phone, game_url: str, enter_hand
):
    keeper, other = open_game(new_phone, game_url), open_game(new_phone, game_url)

    # The other phone starts counting hand 1 too: Ann went out, Bob holds a 7 and a Skip. While
    # nothing changes, its polls are answered 304, without a body.
    with other.expect_response(lambda response: "/live" in response.url) as first_poll:
        enter_hand(other, Locator.tap, "Ann", {"Bob": ["7", "20"]})
        expect(other.locator("[data-summary]")).to_have_text("Ann scores 27")
    assert first_poll.value.status == 304

    # Meanwhile the scorekeeper saves hand 1.
    enter_hand(keeper, Locator.tap, "Ann", {"Bob": ["7", "20"], "Cat": ["50"]})
    keeper.get_by_role("button", name="Save hand").tap()
    expect(keeper.locator(".pad-title")).to_have_text("Record hand 2")
    saved = time.monotonic()

    history = other.locator("#history .hand-head")
    expect(history).to_have_count(1, timeout=WITHIN_MS)
    delay = time.monotonic() - saved
    print(f"hand 1 reached the other phone {delay:.2f}s after it was saved")
    assert delay < WITHIN_MS / 1000
    expect(history.first).to_contain_text("Ann went out, +77")
    expect(other.locator(".standings .side").first).to_contain_text("Ann")
    assert other.evaluate("window.__marker") == "no reload"

    # The half-entered tally is still there, with a word about what happened.
    pad = other.locator("#hand-form")
    expect(pad.locator(".pad-title")).to_have_text("Record hand 1")
    expect(pad.locator('.tally[data-name="Bob"] [data-tape]')).to_have_text("7 · 20")
    expect(pad.locator("[data-summary]")).to_have_text("Ann scores 27")
    expect(pad.locator(".stale")).to_have_text(
        "Another phone has just saved hand 1. Saving this one will not count it twice."
    )
    # Recorded elsewhere, the hand is no longer kept on this phone for a reload.
    assert (
        other.evaluate("localStorage.getItem(`uno:tally:${location.pathname.split('/')[2]}:1`)")
        is None
    )
    # And the scores changing were announced, politely.
    expect(other.locator("#announcer")).to_have_text(
        "Scores: Ann 77, Bob 0, Cat 0. Bob deals hand 2."
    )

    # Saving it counts nothing twice: both versions are shown, and keeping theirs brings the pad
    # for hand 2.
    pad.get_by_role("button", name="Save hand").tap()
    race = other.locator("#race")
    expect(race.locator(".version")).to_have_text(
        [
            "Theirs: Ann +77 (Ann went out · Bob 27 · Cat 50)",
            "Ours: Ann +27 (Ann went out · Bob 27 · Cat 0)",
        ]
    )
    race.get_by_role("link", name="Keep theirs").tap()
    expect(race).to_have_count(0)
    expect(other.locator(".pad-title")).to_have_text("Record hand 2")
    expect(other.locator("#hand-form input[name=went_out]").first).to_be_focused()
    expect(other.locator("#history .hand-head")).to_have_count(1)
    assert other.evaluate("window.__marker") == "no reload"


def test_the_phone_that_loses_a_save_race_sees_both_versions_in_place_and_may_use_its_own(
    new_phone, game_url: str, enter_hand
):
    keeper, other = open_game(new_phone, game_url), open_game(new_phone, game_url)
    enter_hand(other, Locator.tap, "Bob", {"Cat": ["9"], "Ann": ["5"]})
    enter_hand(keeper, Locator.tap, "Ann", {"Bob": ["7"], "Cat": ["50"]})
    keeper.get_by_role("button", name="Save hand").tap()
    expect(keeper.locator(".pad-title")).to_have_text("Record hand 2")
    poll_now(other)
    expect(other.locator("#hand-form .stale")).to_be_visible(timeout=WITHIN_MS)

    play = other.locator("#play")
    where = (other.evaluate("scrollY"), play.bounding_box()["y"])
    other.locator("#hand-form").get_by_role("button", name="Save hand").tap()
    race = other.locator("#race")
    expect(race).to_be_focused()
    # The note takes the pad's place: nothing above it grew, and the page did not move.
    assert (other.evaluate("scrollY"), play.bounding_box()["y"]) == where
    expect(race).to_be_in_viewport(ratio=1)
    expect(race.locator(".version")).to_have_text(
        [
            "Theirs: Ann +57 (Ann went out · Bob 7 · Cat 50)",
            "Ours: Bob +14 (Bob went out · Ann 5 · Cat 9)",
        ]
    )
    expect(other.locator("#hand-form")).to_be_hidden()
    results = AXE.run(other)
    assert not results.violations_count, results.generate_report()
    assert offenders(other) == []

    race.get_by_role("button", name="Use ours").tap()
    expect(other.locator("#history .hand-head")).to_have_count(1)
    expect(other.locator("#history .hand-head").first).to_contain_text("Bob went out, +14")
    expect(other.locator("#race")).to_have_count(0)
    expect(other.locator(".pad-title")).to_have_text("Record hand 2")


def test_an_untouched_pad_moves_on_and_either_phone_can_record_the_next_hand(
    new_phone, game_url: str, enter_hand
):
    keeper, other = open_game(new_phone, game_url), open_game(new_phone, game_url)
    enter_hand(keeper, Locator.tap, "Bob", {"Cat": ["9"], "Ann": ["1"]})
    keeper.get_by_role("button", name="Save hand").tap()

    # The other phone had nothing on its pad, so it simply gets the pad for hand 2.
    poll_now(other)
    expect(other.locator(".pad-title")).to_have_text("Record hand 2", timeout=WITHIN_MS)
    expect(other.locator(".deal-line")).to_have_text("Bob deals hand 2.")
    expect(other.locator(".stale")).to_have_count(0)

    # It records hand 2; the scorekeeper's phone follows.
    enter_hand(other, Locator.tap, "Cat", {"Ann": ["20"], "Bob": ["5"]})
    other.get_by_role("button", name="Save hand").tap()
    expect(other.locator(".pad-title")).to_have_text("Record hand 3")
    poll_now(keeper)
    expect(keeper.locator("#history .hand-head")).to_have_count(2, timeout=WITHIN_MS)
    expect(keeper.locator(".pad-title")).to_have_text("Record hand 3")

    # An undo on one phone shows on the other as well.
    keeper.get_by_role("link", name="Undo hand 2").tap()
    keeper.get_by_role("button", name="Undo hand 2").tap()
    keeper.wait_for_url(re.compile(r"/games/\d+\?number=2&"))
    poll_now(other)
    expect(other.locator("#history .hand-head")).to_have_count(1, timeout=WITHIN_MS)
    expect(other.locator(".pad-title")).to_have_text("Record hand 2")
    assert other.evaluate("window.__marker") == "no reload"


def test_polling_stops_when_the_game_is_over(new_phone, game_url: str, enter_hand):
    keeper, other = open_game(new_phone, game_url), open_game(new_phone, game_url)
    enter_hand(keeper, Locator.tap, "Cat", {"Ann": ["50", "50"], "Bob": ["50"]})
    keeper.get_by_role("button", name="Save hand").tap()
    expect(keeper.locator("#result-title")).to_have_text("🏆 Cat wins with 150!")

    poll_now(other)
    expect(other.locator("#result-title")).to_have_text("🏆 Cat wins with 150!", timeout=WITHIN_MS)
    expect(other.locator("#hand-form")).to_have_count(0)
    expect(other.locator("#announcer")).to_have_text("Cat wins with 150.")
    # The poller is gone from both phones, and neither asks again.
    for page in (keeper, other):
        expect(page.locator("#poll[hx-trigger]")).to_have_count(0)
    for page in (keeper, other):
        page.evaluate(COUNT_POLLS)
        page.clock.run_for(POLL_WAIT_MS)
        assert page.evaluate("window.__polls") == 0


HIDE = """(hidden) => {
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_a_hidden_page_does_not_poll_and_asks_at_once_when_shown(new_phone, game_url: str):
    page = open_game(new_phone, game_url)
    page.evaluate(COUNT_POLLS)
    page.evaluate(HIDE, True)
    page.clock.run_for(POLL_WAIT_MS)
    assert page.evaluate("window.__polls") == 0
    with page.expect_response(lambda response: "/live" in response.url, timeout=1_000) as poll:
        page.evaluate(HIDE, False)
    assert poll.value.status == 304


def test_notes_about_a_hand_go_once_another_phone_undoes_it(new_phone, game_url: str, enter_hand):
    keeper, other = open_game(new_phone, game_url), open_game(new_phone, game_url)
    enter_hand(other, Locator.tap, "Ann", {"Bob": ["7"]})
    enter_hand(keeper, Locator.tap, "Ann", {"Bob": ["7"], "Cat": ["9"]})
    keeper.get_by_role("button", name="Save hand").tap()
    stale = other.locator("#hand-form .stale")
    poll_now(other)
    expect(stale).to_contain_text("Another phone has just saved hand 1", timeout=WITHIN_MS)

    # The keeper takes it back: the other phone's pad is for hand 1 again, and the note goes.
    keeper.locator("[data-toast]").get_by_role("button", name="Undo hand 1").tap()
    expect(keeper.locator(".history .hand")).to_have_count(0)
    poll_now(other)
    expect(stale).to_have_count(0, timeout=WITHIN_MS)
    expect(other.locator('.tally[data-name="Bob"] [data-tape]')).to_have_text("7")

    # Saved again by the keeper; the other phone's save is shown beside the keeper's...
    keeper.locator(".went-out .chip", has_text="Ann").tap()
    keeper.locator('.tally[data-name="Cat"] [data-typed]').fill("9")
    keeper.locator('.tally[data-name="Bob"] [data-typed]').fill("7")
    keeper.get_by_role("button", name="Save hand").tap()
    poll_now(other)
    expect(other.locator("#history .hand-head")).to_have_count(1, timeout=WITHIN_MS)
    other.get_by_role("button", name="Save hand").tap()
    race = other.locator("#race")
    expect(race).to_contain_text("Another phone saved hand 1 first.")
    # ...and once the keeper undoes it, that note no longer holds and goes too.
    keeper.locator("[data-toast]").get_by_role("button", name="Undo hand 1").tap()
    poll_now(other)
    expect(race).to_have_count(0, timeout=WITHIN_MS)
    expect(other.locator(".deal-line")).to_have_text("Ann deals hand 1.")
    assert other.evaluate("window.__marker") == "no reload"
