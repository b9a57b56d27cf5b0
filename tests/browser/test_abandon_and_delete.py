"""Setting a game aside on a phone: abandoned from its options, listed apart on the home page,
resumed, then deleted after a confirmation that can be declined."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from scorer.extensions import db
from scorer.models import Game

pytestmark = pytest.mark.browser


def test_a_game_is_abandoned_resumed_and_deleted(
    phone: Page, live_app: Flask, live_server: str, start_game: Callable[..., str]
):
    page = phone
    start_game(page, ["Abandoner", "Bystander"])
    game_url = page.url
    # The options are closed by default, away from the pad.
    expect(page.locator("#abandon-game")).to_be_hidden()
    page.locator("#game-options summary").tap()
    page.locator("#abandon-game").tap()
    expect(page.locator("#resume-game")).to_be_visible()
    expect(page.locator("#hand-form")).to_have_count(0)

    page.goto(f"{live_server}/")
    abandoned = page.locator(".abandoned-list .game-link", has_text="Abandoner, Bystander")
    expect(abandoned).to_have_count(1)
    expect(abandoned.locator("time")).to_have_attribute("datetime", re.compile(r"Z$"))
    abandoned.tap()
    page.locator("#resume-game").tap()
    expect(page.locator("#hand-form")).to_be_visible()

    page.locator("#game-options summary").tap()
    page.locator("#delete-game").tap()
    expect(page.locator("h1")).to_have_text("Delete this game?")
    page.get_by_role("link", name="Keep it").tap()
    page.wait_for_url(game_url)
    page.locator("#game-options summary").tap()
    page.locator("#delete-game").tap()
    page.locator("#confirm-delete").tap()
    page.wait_for_url(f"{live_server}/")
    expect(page.locator(".game-link", has_text="Abandoner")).to_have_count(0)
    # Asked of the server itself: the page's service worker may answer from its cache.
    with live_app.app_context():
        assert db.session.get(Game, int(game_url.rsplit("/", 1)[1])) is None
