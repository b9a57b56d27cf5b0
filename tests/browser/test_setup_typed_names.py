"""Setup on a phone: a name typed but not added plays when Start is tapped (or is refused next to
its box), and a crowded setup and an open chart do not scroll sideways at 360 px."""

from __future__ import annotations

import re

import pytest
from browser.fit import NARROW, assert_no_sideways_scroll
from flask import Flask
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def seat(page: Page, live_server: str, names: list[str]) -> None:
    page.goto(f"{live_server}/games/new")
    for name in names:
        page.locator("#new_name").fill(name)
        page.get_by_role("button", name="Add", exact=True).tap()
        expect(page.locator(".seat-name", has_text=name)).to_be_visible()


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


def test_nothing_scrolls_sideways_at_360_pixels(
    new_phone, live_server: str, game_with_a_chart: int, live_app: Flask
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

    page.goto(f"{live_server}/games/{game_with_a_chart}")
    page.locator("#chart summary").tap()
    expect(page.locator("#chart img")).to_be_visible()
    assert_no_sideways_scroll(page)
