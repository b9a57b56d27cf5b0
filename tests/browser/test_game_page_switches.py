"""The game page's two switches on a phone: keeping the screen on reads as a quiet setting that says
its state, and the chart's toggle looks like a button and says what it will do."""

from __future__ import annotations

import re

import pytest
from browser.targets import MIN_TARGET
from playwright.sync_api import Locator, Page, expect

pytestmark = pytest.mark.browser


def style(locator: Locator, prop: str) -> str:
    return locator.evaluate(f"(node) => getComputedStyle(node).getPropertyValue('{prop}')")


def assert_a_thumb_fits(locator: Locator) -> None:
    box = locator.bounding_box()
    assert box is not None
    assert box["height"] >= MIN_TARGET and box["width"] >= MIN_TARGET, box


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_keep_screen_on_is_a_quiet_switch_that_says_its_state(
    new_phone, live_server: str, game_with_a_chart: int, scheme: str
):
    page = new_phone(color_scheme=scheme)
    page.goto(f"{live_server}/games/{game_with_a_chart}")
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
    phone: Page, live_server: str, game_with_a_chart: int
):
    phone.goto(f"{live_server}/games/{game_with_a_chart}")
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
