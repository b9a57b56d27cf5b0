"""Setup keeps a typed name, the wake lock reads as a setting, the chart toggle looks tappable."""

from __future__ import annotations

import re

import pytest
from browser.targets import MIN_TARGET
from factories import make_game, record
from flask import Flask
from playwright.sync_api import Locator, Page, expect

from scorer.extensions import db

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 640}


@pytest.fixture
def game_id(live_app: Flask) -> int:
    """A game with one hand recorded, so it has a chart."""
    with live_app.app_context():
        game = make_game(db.session, ["Ann", "Bob", "Cat"])
        record(db.session, game, 0, {1: ["7", "skip"], 2: ["wild"]})
        return game.id


def seat(page: Page, live_server: str, names: list[str]) -> None:
    page.goto(f"{live_server}/games/new")
    for name in names:
        page.locator("#new_name").fill(name)
        page.get_by_role("button", name="Add", exact=True).tap()
        expect(page.locator(".seat-name", has_text=name)).to_be_visible()


def style(locator: Locator, prop: str) -> str:
    return locator.evaluate(f"(node) => getComputedStyle(node).getPropertyValue('{prop}')")


def assert_a_thumb_fits(locator: Locator) -> None:
    box = locator.bounding_box()
    assert box is not None
    assert box["height"] >= MIN_TARGET and box["width"] >= MIN_TARGET, box


def assert_no_sideways_scroll(page: Page) -> None:
    width, inner = page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"{width}px wide in {inner}px"


def test_a_name_typed_but_not_added_plays_when_start_is_tapped(phone: Page, live_server: str):
    seat(phone, live_server, ["Ann", "Bob"])
    phone.locator("#new_name").fill("Cat")
    phone.get_by_role("button", name="Start game").tap()
    phone.wait_for_url(re.compile(r"/games/\d+$"))
    expect(phone.locator(".standings .player")).to_contain_text(["Ann", "Bob", "Cat"])


def test_a_typed_name_that_cannot_play_is_refused_next_to_the_box(phone: Page, live_server: str):
    seat(phone, live_server, ["Ann", "Bob"])
    phone.locator("#new_name").fill("ann")
    phone.get_by_role("button", name="Start game").tap()
    expect(phone.locator("#new_name-error")).to_have_text("ann is already playing.")
    assert phone.url == f"{live_server}/games/new"
    expect(phone.locator(".seat-name")).to_have_count(2)
    expect(phone.locator("#new_name")).to_have_value("ann")
    expect(phone.locator("#new_name")).to_be_focused()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_keep_screen_on_is_a_quiet_switch_that_says_its_state(
    new_phone, live_server: str, game_id: int, scheme: str
):
    page = new_phone(color_scheme=scheme)
    page.goto(f"{live_server}/games/{game_id}")
    toggle = page.locator("[data-wake-lock]")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(toggle).to_have_text(re.compile(r"^\s*Keep screen on\s+On\s*$"), use_inner_text=True)
    # Its name stays the same whatever the state: aria-pressed says which.
    expect(toggle).to_have_accessible_name("Keep screen on")
    assert_a_thumb_fits(toggle)
    # Secondary: no fill, no border, smaller muted text, even while on.
    assert style(toggle, "background-color") == "rgba(0, 0, 0, 0)"
    assert style(toggle, "border-top-color") == "rgba(0, 0, 0, 0)"
    body = page.locator("body")
    assert float(style(toggle, "font-size")[:-2]) < float(style(body, "font-size")[:-2])
    assert style(toggle, "color") != style(body, "color")

    toggle.tap()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(toggle).to_have_text(re.compile(r"^\s*Keep screen on\s+Off\s*$"), use_inner_text=True)
    expect(toggle).to_have_accessible_name("Keep screen on")


def test_the_chart_toggle_looks_like_a_button_and_says_what_it_will_do(
    phone: Page, live_server: str, game_id: int
):
    phone.goto(f"{live_server}/games/{game_id}")
    toggle = phone.locator("#chart summary")
    chart = phone.locator("#chart img")
    expect(toggle).to_have_accessible_name("Show score chart")
    expect(toggle).to_have_text(re.compile(r"▸\s*Show score chart"), use_inner_text=True)
    expect(chart).to_be_hidden()
    assert_a_thumb_fits(toggle)
    assert style(toggle, "cursor") == "pointer"
    assert style(toggle, "border-top-style") == "solid"
    page_color = style(phone.locator("body"), "background-color")
    assert style(toggle, "background-color") not in (page_color, "rgba(0, 0, 0, 0)")
    # The arrow points right while closed, and turns down once open.
    arrow = toggle.locator(".disclosure")
    assert style(arrow, "transform") == "none"

    toggle.focus()
    phone.keyboard.press("Enter")
    expect(toggle).to_have_accessible_name("Hide score chart")
    expect(chart).to_be_visible()
    expect(phone.locator("#chart details")).to_have_attribute("open", "")
    assert style(arrow, "transform") != "none"

    phone.keyboard.press("Space")
    expect(toggle).to_have_accessible_name("Show score chart")
    expect(chart).to_be_hidden()


def test_nothing_scrolls_sideways_at_360_pixels(
    new_phone, live_server: str, game_id: int, live_app: Flask
):
    page = new_phone(viewport=NARROW)
    names = [f"Player with a long name {i}"[:40] for i in range(10)]
    seat(page, live_server, names)
    page.locator(".choice", has_text="Partners").tap()
    page.locator(".teams input").first.wait_for()
    page.locator("#new_name").fill("x" * 40)
    page.get_by_role("button", name="Start game").tap()
    expect(page.locator("#new_name-error")).to_be_visible()
    assert_no_sideways_scroll(page)

    page.goto(f"{live_server}/games/{game_id}")
    page.locator("#chart summary").tap()
    expect(page.locator("#chart img")).to_be_visible()
    assert_no_sideways_scroll(page)
