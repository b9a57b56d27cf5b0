"""An organiser starts a league night's round from the board and shows its scorer links sheet:
each table's QR code opens that table's game for scoring; the board and the table view (a tablet
between the players) follow what it records."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from io import BytesIO

import pytest
import sqlalchemy as sa
import zxingcpp
from browser.fit import assert_fits_and_axe_finds_nothing
from flask import Flask
from PIL import Image
from playwright.sync_api import Page, expect

from scorer.extensions import db
from scorer.models import User
from scorer.services import leagues
from scorer.services.accounts import add_user

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1280, "height": 720}
PASSWORD = "correct horse battery"
WITHIN_MS = 5_000


@pytest.fixture
def season(live_app: Flask) -> Iterator[str]:
    """Owner mode, and a league of four teams with its first season drawn: the board's path."""
    with live_app.app_context():
        add_user(db.session, "Owner", PASSWORD)
        league = leagues.create_league(db.session, "Friday club", 100)
        for first, second in (("Ann", "Bob"), ("Cat", "Dan"), ("Eve", "Fay"), ("Gus", "Hal")):
            leagues.register_team(db.session, league.id, first, second)
        number = leagues.add_season(db.session, league.id).number
        db.session.remove()
    yield f"/leagues/{league.id}/seasons/{number}/board"
    with live_app.app_context():
        db.session.execute(sa.delete(User))
        db.session.commit()
        db.session.remove()


def decoded(page: Page) -> list[str]:
    """The texts zxing-cpp reads in the QR codes of the page as the screen shows it."""
    image = Image.open(BytesIO(page.screenshot(full_page=True)))
    return sorted(code.text for code in zxingcpp.read_barcodes(image))


def test_the_organiser_starts_the_round_and_each_table_scans_its_scorer_link(
    new_phone: Callable[..., Page], live_server: str, season: str
):
    organiser = new_phone(LAPTOP, is_mobile=False, has_touch=False, device_scale_factor=1)
    organiser.goto(f"{live_server}/login?next={season}")
    organiser.locator("#name").fill("Owner")
    organiser.locator("#password").fill(PASSWORD)
    organiser.get_by_role("button", name="Sign in").click()
    organiser.wait_for_url(re.compile(r"/board$"))
    expect(organiser.locator(".board-status")).to_have_text("Round 1 is about to start.")
    assert_fits_and_axe_finds_nothing(organiser)
    # Issuing links is a write: without the form's CSRF token, even a signed-in post is refused.
    sheet = organiser.locator("#sheet-link").get_attribute("href")
    forged = organiser.request.post(f"{live_server}{sheet}", max_redirects=0)
    assert forged.status == 400
    organiser.reload()
    expect(organiser.locator(".board-status")).to_have_text("Round 1 is about to start.")

    # One tap: the round starts and its sheet shows a QR code per table.
    organiser.get_by_role("button", name="Start round 1 and show the scorer links").click()
    cards = organiser.locator(".sheet-table")
    expect(cards).to_have_count(2)
    links = sorted(
        link.get_attribute("href") or "" for link in cards.locator(".sheet-link a").all()
    )
    assert all(re.fullmatch(rf"{live_server}/games/\d+/score/[\w-]+", link) for link in links)
    assert decoded(organiser) == links
    assert_fits_and_axe_finds_nothing(organiser)
    # Printed, the sheet is the cards alone: no menu, no buttons.
    organiser.emulate_media(media="print")
    expect(organiser.locator(".topbar")).to_be_hidden()
    expect(organiser.locator("#make-sheet")).to_be_hidden()
    expect(cards.first.locator("img.qr")).to_be_visible()
    organiser.emulate_media(media="screen")

    # The board, on the organiser's laptop, follows the tables.
    organiser.goto(f"{live_server}{season}")
    board_table = organiser.locator('.board-table[data-table="1"]')
    expect(board_table).to_contain_text("0 hands played")

    # Table 1 scans its code: that phone, not signed in, records a hand there.
    table_one = new_phone()
    table_one.goto(links[0])
    table_one.wait_for_url(re.compile(r"/games/\d+$"))
    pad = table_one.locator("#hand-form")
    pad.locator(".went-out .chip").first.tap()
    for field in pad.locator("input[name$='-points']").all():
        if field.is_enabled() and field.is_visible():
            field.fill("10")
    pad.get_by_role("button", name="Save hand").tap()
    expect(table_one.locator(".pad-title")).to_have_text("Record hand 2")
    board_table = organiser.locator(".board-table", has_text="1 hand played")
    expect(board_table).to_have_count(1, timeout=WITHIN_MS)

    # A tablet between the players, from the board's link: the scores in large type, no pad, and
    # the next hand the phone records shows there without a reload, in portrait and in landscape.
    table_url = board_table.get_by_role("link", name=re.compile("^Table view")).get_attribute(
        "href"
    )
    tablet = new_phone({"width": 800, "height": 1280}, device_scale_factor=2)
    tablet.goto(f"{live_server}{table_url}")
    tablet.evaluate("window.__marker = 'no reload'")
    expect(tablet.locator("#hand-form")).to_have_count(0)
    expect(tablet.locator("#last-hand")).to_contain_text("Last hand (1)")
    score = tablet.locator(".table-side-score").first.bounding_box()
    assert score and score["height"] >= 48
    assert_fits_and_axe_finds_nothing(tablet)
    pad.locator(".went-out .chip").nth(1).tap()
    for field in pad.locator("input[name$='-points']").all():
        if field.is_enabled() and field.is_visible():
            field.fill("5")
    pad.get_by_role("button", name="Save hand").tap()
    expect(tablet.locator("#last-hand")).to_contain_text("Last hand (2)", timeout=WITHIN_MS)
    assert tablet.evaluate("window.__marker") == "no reload"
    tablet.set_viewport_size({"width": 1280, "height": 800})
    sides = tablet.locator(".table-side")
    first, second = sides.nth(0).bounding_box(), sides.nth(1).bounding_box()
    assert first and second and first["y"] == second["y"]  # side by side in landscape
    assert_fits_and_axe_finds_nothing(tablet)
