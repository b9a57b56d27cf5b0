"""Accessible to everyone: axe-core finds nothing on any page, light or dark; a keyboard is enough.

axe-core comes bundled in axe-playwright-python, so the check runs offline. Besides the screens
listed here, every other page the app serves at a plain address (no id in it) is checked too, so a
new page is covered the day it is added.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from browser.schemes import axe_in, each_scheme
from factories import make_game, record
from flask import Flask
from playwright.sync_api import Page, expect

from scorer.extensions import db

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def seeded(live_app: Flask) -> tuple[int, int]:
    """A game with two hands recorded (the tour saves a third), and a finished partners game."""
    with live_app.app_context():
        game = make_game(db.session, ["Ann", "Bob", "Cat", "Dan"])
        record(db.session, game, 0, {1: ["3", "skip"], 2: ["wild", "draw2"], 3: ["8"]})
        record(db.session, game, 2, {0: ["5"], 1: ["wild4"], 3: ["9", "reverse"]})
        finished = make_game(db.session, ["Eve", "Fay", "Gus", "Hal"], mode="partners", target=50)
        record(db.session, finished, 1, {0: 40, 2: 30})
        return game.id, finished.id


def screens(page: Page, base: str, others: list[str], seeded: tuple[int, int]) -> Iterator[str]:
    """Visits each screen, in each state worth checking, and yields its name when it is ready."""
    game_id, finished_id = seeded
    page.goto(f"{base}/")
    yield "home"
    page.goto(f"{base}/games/new")
    yield "setup, empty"
    for name in ("Ann", "Bob", "Cat", "Dan"):
        page.locator(".roster .chip", has_text=name).tap()
        page.locator(".seat-name", has_text=name).wait_for()
    page.locator(".choice", has_text="Partners").tap()
    page.locator(".teams input").first.wait_for()
    yield "setup, four partners"
    page.goto(f"{base}/games/{game_id}")
    yield "game"
    page.locator("#hand-form .went-out .chip", has_text="Bob").tap()
    page.locator('.keys [data-card="7"]').tap()
    yield "game, counting a hand"
    page.get_by_role("button", name="Save hand").tap()
    page.locator(".tally .error").first.wait_for()
    yield "game, a hand refused"
    for name, card in (("Ann", "5"), ("Dan", "9")):
        page.locator(f'#hand-form .tally[data-name="{name}"] .tally-pick').tap()
        page.locator(f'#hand-form .keys [data-card="{card}"]').tap()
    page.get_by_role("button", name="Save hand").tap()
    page.locator("[data-toast]").wait_for()
    yield "game, a hand just saved"
    page.goto(f"{base}/games/{game_id}/share")
    yield "share"
    page.goto(f"{base}/games/{game_id}/hands/1/edit")
    yield "edit hand 1"
    page.goto(f"{base}/games/{game_id}/hands/3/undo")
    yield "undo hand 3"
    page.goto(f"{base}/games/{finished_id}")
    yield "finished game"
    for mode in ("standard", "partners", "challenge"):
        page.goto(f"{base}/rules/{mode}")
        yield f"rules, {mode}"
    page.goto(f"{base}/offline")
    yield "offline"
    page.goto(f"{base}/games/999999")
    yield "not found"
    for path in others:
        response = page.goto(f"{base}{path}")
        if response and response.ok and "text/html" in response.headers.get("content-type", ""):
            yield path


def test_axe_finds_nothing_on_any_page_light_or_dark(
    new_phone: Callable[..., Page], live_server: str, plain_pages: list[str], seeded
):
    page = new_phone(color_scheme="light")
    reports = []
    visited = []
    for screen in screens(page, live_server, plain_pages, seeded):
        visited.append(screen)
        # Both schemes on the screen as it stands: one tour, and the same state checked in each.
        for scheme in each_scheme(page):
            results = axe_in(page, scheme)
            if results.violations_count:
                reports.append(f"--- {screen} ({scheme})\n{results.generate_report()}")
    assert len(visited) >= 15
    assert not reports, "\n".join(reports)


def test_a_hand_can_be_recorded_with_the_keyboard_alone(
    new_phone: Callable[..., Page], live_app: Flask, live_server: str
):
    with live_app.app_context():
        game_id = make_game(db.session, ["Ann", "Bob", "Cat"]).id
    page = new_phone(has_touch=False, is_mobile=False)
    page.goto(f"{live_server}/games/{game_id}")
    keyboard = page.keyboard

    def tab_to(locator, limit: int = 60) -> None:
        """Presses Tab until `locator` has the focus, as someone without a mouse would."""
        for _ in range(limit):
            if locator.evaluate("element => element === document.activeElement"):
                return
            keyboard.press("Tab")
        raise AssertionError(f"Tab never reached {locator}")

    pad = page.locator("#hand-form")
    # Saving an empty pad: the focus goes to the first thing to fix.
    tab_to(pad.get_by_role("button", name="Save hand"))
    keyboard.press("Enter")
    expect(pad.locator("input[name=went_out]").first).to_be_focused()
    expect(page.locator("#went_out-error")).to_be_visible()

    # Who went out: arrow keys move through the choices, as in any radio group.
    keyboard.press("ArrowRight")
    expect(pad.locator("input[name=went_out][value='1']")).to_be_checked()
    expect(pad.locator('.tally[data-name="Cat"]')).to_have_class(re.compile(r"\bis-active\b"))
    # Cat's cards on the pad's keys, by their names.
    for key in ("Add a 9", "Add 20: Skip, Reverse or Draw Two"):
        tab_to(pad.get_by_role("button", name=key, exact=True))
        keyboard.press("Enter")
    expect(pad.locator('.tally[data-name="Cat"] [data-points]')).to_have_text("29")
    # Ann's hand as a typed total; Enter moves on to the next total, then to Save.
    tab_to(pad.get_by_role("textbox", name="Total for Ann"))
    keyboard.type("12")
    keyboard.press("Enter")
    expect(pad.get_by_role("textbox", name="Total for Cat")).to_be_focused()
    keyboard.press("Enter")
    expect(pad.get_by_role("button", name="Save hand")).to_be_focused()
    expect(pad.locator("[data-summary]")).to_have_text("Bob scores 41")
    keyboard.press("Enter")

    # Saved: the view stays put, the focus is on the next hand's first choice (the pad is where it
    # was), and the change is announced.
    expect(page.locator("#hand-form input[name=went_out]").first).to_be_focused()
    assert page.evaluate("scrollY") == 0
    expect(page.locator("#announcer")).to_have_text(
        "Scores: Bob 41, Ann 0, Cat 0. Bob deals hand 2."
    )
    expect(page.locator(".pad-title")).to_have_text("Record hand 2")


def test_setting_up_from_the_keyboard_keeps_the_focus_in_place(
    new_phone: Callable[..., Page], live_server: str
):
    page = new_phone(has_touch=False, is_mobile=False)
    page.goto(f"{live_server}/games/new")
    name = page.locator("#new_name")
    # htmx puts the focus back as it swaps, but wires the new form up only as it settles, 20 ms
    # later: a key pressed in between posts the form as a page (no person types that fast).
    settled = page.locator(".htmx-request, .htmx-swapping, .htmx-settling")
    for player in ("Kim", "Lou", "Max"):
        name.focus()
        page.keyboard.type(player)
        page.keyboard.press("Enter")
        expect(page.locator(".seat-name", has_text=player)).to_be_visible()
        expect(name).to_be_focused()
        expect(settled).to_have_count(0)
    # Each button press redraws the form; the focus stays on the button that was pressed.
    lou = page.get_by_role("button", name="Lou deals first")
    lou.focus()
    page.keyboard.press("Enter")
    expect(lou).to_have_attribute("aria-pressed", "true")
    expect(lou).to_be_focused()
    expect(settled).to_have_count(0)
    # Pressing it again keeps Lou as the dealer. The button is focused before the redraw too, so
    # wait for the redraw itself, or the next key could land on a button about to be replaced.
    with page.expect_response(lambda response: response.request.method == "POST"):
        page.keyboard.press("Space")
    # A locator, not wait_for_function: the page's CSP forbids the eval that one would need.
    expect(settled).to_have_count(0)
    expect(page.get_by_role("button", name="Lou deals first")).to_be_focused()
    target = page.locator(".target .chip", has_text="300")
    target.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#target")).to_have_value("300")
    expect(target).to_be_focused()


def test_every_control_has_a_name(phone: Page, live_server: str, seeded):
    """Buttons, links and fields all say what they are, including the pad's keys."""
    game_id, _ = seeded
    phone.goto(f"{live_server}/games/{game_id}")
    keys = phone.locator("#hand-form .keys button")
    names = [key.get_attribute("aria-label") for key in keys.all()]
    assert names[:3] == ["Add a 7", "Add a 8", "Add a 9"]
    assert "Add 20: Skip, Reverse or Draw Two" in names
    assert "Add 50: Wild or Wild Draw Four" in names
    # The keys come in reading order, five a line, the tools at the end of the first two lines.
    assert names[4] == "Remove the last card"
    assert names[9] == "Clear this hand"
    nameless = phone.evaluate(
        """() => [...document.querySelectorAll("a, button, input:not([type=hidden])")]
          .filter((element) => element.checkVisibility())
          .filter((element) => !(element.ariaLabel || element.labels?.[0]?.innerText.trim()
                                 || element.innerText.trim()
                                 || element.getAttribute("aria-labelledby")))
          .map((element) => element.outerHTML.slice(0, 80))"""
    )
    assert nameless == []
