"""The phone screens hold up in German (the longest words) and Korean (another script).

The browser asks for the language as a phone set to it does (Accept-Language, the context's
locale). On a 320, 360 and 390 px wide phone: home, setup with four players seated, the game page
with its pad counting a hand, and the standings do not scroll sideways, and every
control stays big enough for a thumb; axe finds nothing on each, in light and dark (at 360 px: what
axe checks does not change with the width). And the reference hand still takes nine taps and no
scrolling (browser/thumb.py) on the phones where it does in English.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator

import pytest
from browser.schemes import assert_axe_finds_nothing
from browser.targets import offenders
from browser.thumb import ScrollingThumb, ThumbTaps, reference_hand
from document import parse
from factories import make_game, record
from flask import Flask
from playwright.sync_api import Page, expect

from scorer.extensions import db

pytestmark = pytest.mark.browser

# The phone's locale, as Accept-Language sends it, and the page's lang attribute it gives.
LANGUAGES = {"de": "de-DE", "ko": "ko-KR"}
# The reference hand is held to the phones the app promises it on in English (test_one_screen):
# on a 320 px phone the English page already scrolls while the hand is counted, so there the
# language must add no scroll to English's.
HAND_PHONES = ["360", "390"]
PHONES = {
    "320": {"width": 320, "height": 568},
    "360": {"width": 360, "height": 640},
    "390": {"width": 390, "height": 844},
}
AXE_PHONE = "360"
NAMES = ["Ann", "Bob", "Cat", "Dan"]


@pytest.fixture(scope="module")
def game_id(live_app: Flask) -> int:
    """A game with a hand recorded, so its history and the standings have a row."""
    with live_app.app_context():
        game = make_game(db.session, NAMES)
        record(db.session, game, 0, {1: ["3", "skip"], 2: ["wild", "draw2"], 3: ["8"]})
        return game.id


def in_language(new_phone: Callable[..., Page], language: str, phone: str) -> Page:
    return new_phone(PHONES[phone], locale=LANGUAGES[language])


def script_words(page: Page) -> dict:
    """The words the server gives the page's script, in the page's language."""
    return json.loads(page.locator("html").get_attribute("data-client") or "{}")["words"]


def english_words(page: Page, base: str) -> dict:
    """The same words as an English phone gets them."""
    answer = page.request.get(f"{base}/", headers={"Accept-Language": "en"})
    markup = parse(answer.text())
    return json.loads(markup.find("html").attrs["data-client"])["words"]


def screens(page: Page, base: str, game_id: int) -> Iterator[str]:
    """Visits each screen in turn and yields its name once it is ready to measure."""
    page.goto(f"{base}/")
    yield "home"
    page.goto(f"{base}/games/new")
    for name in NAMES:
        page.locator(".roster .chip", has_text=name).tap()
        page.locator(".seat-name", has_text=name).wait_for()
    yield "setup with four players"
    page.goto(f"{base}/games/{game_id}")
    pad = page.locator("#hand-form")
    pad.locator(".went-out .chip", has_text="Bob").tap()
    page.locator('.tally.is-active[data-name="Cat"]').wait_for()
    pad.locator('.keys [data-card="20"]').tap()
    pad.locator('.keys [data-card="7"]').tap()
    yield "game, counting a hand on the pad"
    page.goto(f"{base}/standings/")
    yield "standings"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_screens_fit_small_phones_in_the_language(
    new_phone: Callable[..., Page], live_server: str, game_id: int, language: str
):
    page = in_language(new_phone, language, AXE_PHONE)
    problems = []
    for screen in screens(page, live_server, game_id):
        assert page.locator("html").get_attribute("lang") == language, screen
        if screen == "home" and script_words(page) == english_words(page, live_server):
            problems.append(f"{screen}: in English, not {language} (no catalog yet?)")
        for phone, viewport in PHONES.items():
            page.set_viewport_size(viewport)
            where = f"{screen} at {phone} px"
            # Against the phone's width, not innerWidth, which grows with what overflows.
            wide = page.evaluate("document.scrollingElement.scrollWidth")
            if wide > viewport["width"]:
                problems.append(f"{where}: scrolls sideways, {wide}px wide")
            problems += [f"{where}: {offender}" for offender in offenders(page)]
        page.set_viewport_size(PHONES[AXE_PHONE])
        try:
            assert_axe_finds_nothing(page)
        except AssertionError as found:
            problems.append(f"{screen}: axe {found}")
    assert not problems, "\n".join(problems)


def play_the_reference_hand(
    page: Page, thumb: ThumbTaps, live_app: Flask, live_server: str, code: str
) -> None:
    """The reference hand, in a new game, on `page` in the language `code`: nine taps, and the
    game then deals hand 2."""
    with live_app.app_context():
        url = f"{live_server}/games/{make_game(db.session, NAMES).id}"
    page.goto(url)
    assert page.locator("html").get_attribute("lang") == code
    # The summary in the page's words; its score is the same in every language.
    reference_hand(page, thumb, re.compile(r"(?<!\d)101(?!\d)"))
    assert thumb.count == 9
    expect(page.locator("#scoreboard")).to_have_attribute("data-next", "2")


@pytest.mark.parametrize("phone", HAND_PHONES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_reference_hand_takes_nine_taps_and_no_scrolling_in_the_language(
    new_phone: Callable[..., Page], live_app: Flask, live_server: str, language: str, phone: str
):
    page = in_language(new_phone, language, phone)
    play_the_reference_hand(page, ThumbTaps(page), live_app, live_server, language)
    assert page.evaluate("scrollY") == 0, "saving moved the page"


def scrolls_on_a_320_px_phone(
    new_phone: Callable[..., Page], live_app: Flask, live_server: str, locale: str, code: str
) -> int:
    """How often the reference hand scrolls on a 320x568 phone in the locale's language."""
    page = new_phone(PHONES["320"], locale=locale)
    thumb = ScrollingThumb(page)
    play_the_reference_hand(page, thumb, live_app, live_server, code)
    return thumb.scrolls


@pytest.fixture(scope="module")
def english_scrolls() -> dict[str, int]:
    """English's count, taken by the first language's test and compared with by every other:
    the same English page and hand each time, so the same count."""
    return {}


@pytest.mark.parametrize("language", LANGUAGES)
def test_on_a_320_px_phone_the_reference_hand_needs_no_more_scrolling_than_in_english(
    new_phone: Callable[..., Page],
    live_app: Flask,
    live_server: str,
    language: str,
    english_scrolls: dict[str, int],
):
    """The pad does not fit a 320x568 phone in English either: the hand still takes 9 taps, and
    the language adds no scroll to those English needs."""
    if "en" not in english_scrolls:
        english_scrolls["en"] = scrolls_on_a_320_px_phone(
            new_phone, live_app, live_server, "en-US", "en"
        )
    scrolls = {
        "en": english_scrolls["en"],
        language: scrolls_on_a_320_px_phone(
            new_phone, live_app, live_server, LANGUAGES[language], language
        ),
    }
    assert scrolls[language] <= scrolls["en"], scrolls
