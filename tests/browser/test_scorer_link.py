"""A scorer link's holder, on a phone with the script, fixes a hand recorded by mistake."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from factories import make_game
from flask import Flask
from playwright.sync_api import Page, expect

from scorer.extensions import db
from scorer.models import User
from scorer.services.accounts import add_user
from scorer.services.scorer_links import issue_scorer_link

pytestmark = pytest.mark.browser


@pytest.fixture
def link(live_app: Flask) -> Iterator[tuple[int, str]]:
    """Owner mode, and a game of three with a scorer link: the game's id and the link's path."""
    with live_app.app_context():
        add_user(db.session, "Owner", "correct horse battery")
        game_id = make_game(db.session, ["Ann", "Bob", "Cat"]).id
        token = issue_scorer_link(db.session, game_id)
        db.session.remove()
    yield game_id, f"/games/{game_id}/score/{token}"
    with live_app.app_context():
        db.session.execute(sa.delete(User))
        db.session.commit()
        db.session.remove()


def test_the_holder_undoes_and_edits_a_hand_recorded_by_mistake(
    phone: Page, live_server: str, link, enter_hand, taps
):
    game_id, path = link
    page = phone
    page.goto(live_server + path)
    page.wait_for_url(f"{live_server}/games/{game_id}")
    enter_hand(page, taps, "Ann", {"Bob": ["5"], "Cat": ["7"]})
    taps(page.get_by_role("button", name="Save hand"))
    expect(page.locator(".deal-line")).to_have_text("Bob deals hand 2.")

    # The note's Undo takes the hand back.
    taps(page.get_by_role("button", name="Undo hand 1"))
    expect(page.locator(".deal-line")).to_have_text("Ann deals hand 1.")
    expect(page.locator(".history .hand-head")).to_have_count(0)

    # The hand is back on the pad as it was saved: saved again as it stands.
    expect(page.locator('.tally[data-name="Cat"] [data-points]')).to_have_text("7")
    taps(page.get_by_role("button", name="Save hand"))
    expect(page.locator(".history .hand-head")).to_have_count(1)

    # Cat's 7 was a 9: the history's Edit fixes it.
    taps(page.get_by_role("link", name="Edit hand 1"))
    page.wait_for_url(re.compile(r"/hands/1/edit$"))
    pad = page.locator("#hand-form")
    taps(pad.locator('.tally[data-name="Cat"] .tally-pick'))
    taps(pad.locator('.keys [data-pad="back"]'))
    taps(pad.locator('.keys [data-card="9"]'))
    taps(pad.get_by_role("button", name="Save hand 1"))
    page.wait_for_url(f"{live_server}/games/{game_id}?updated=1")
    expect(page.locator(".history .hand-head").first).to_contain_text("+14")
