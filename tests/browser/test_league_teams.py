"""A league's teams on a phone: a new name asked about with the roster names it resembles, a team
renamed and removed (only before it has played), and a fixture's game that names its place."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from playwright.sync_api import Page, expect

from scorer.extensions import db
from scorer.services import leagues

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def seeded(live_app: Flask) -> dict[str, int]:
    """A league of four teams whose season has started: its first fixture has a game."""
    with live_app.app_context():
        session = db.session
        league = leagues.create_league(session, "Thursday Night Partners League", 100)
        leagues.register_team(session, league.id, "Ann", "Bob", "The Unstoppables")
        leagues.register_team(session, league.id, "Cat", "Wolfeschlegelsteinhausenbergerdorff", "")
        leagues.register_team(session, league.id, "Maximiliana", "Dan", "")
        leagues.register_team(session, league.id, "Eve", "Fay", "")
        leagues.add_season(session, league.id)
        return {"league": league.id, "fixture_game": leagues.start_fixture(session, 1).id}


def test_teams_are_registered_renamed_and_removed_and_a_fixture_names_its_place(
    phone: Page, live_server: str, seeded: dict[str, int]
):
    page = phone
    league = f"{live_server}/leagues/{seeded['league']}"
    page.goto(league)

    # A typo is caught: one tap picks the roster name it resembles.
    page.locator("#first").fill("Gus")
    page.locator("#second").fill("Maximilana")
    page.get_by_role("button", name="Register").tap()
    expect(page.locator("#new-player-title")).to_have_text("Add new player Gus?")
    page.get_by_role("button", name="Add new player Gus").tap()
    expect(page.locator("#new-player-title")).to_have_text("Add new player Maximilana?")
    page.locator(".suggestions button", has_text="Maximiliana").tap()
    # Maximiliana already plays for a team, so the league says so instead of adding a second one.
    expect(page.locator("#second-error")).to_contain_text("Maximiliana already plays for")
    page.locator("#second").fill("Hal")
    page.get_by_role("button", name="Register").tap()
    page.get_by_role("button", name="Add new player Hal").tap()
    expect(page.locator(".team-list li")).to_have_count(5)

    # The new team is renamed, then removed: it has not played.
    newest = page.locator(".team-list li").last
    newest.locator("summary").tap()
    newest.get_by_label("Team name").fill("Late Entry")
    newest.get_by_role("button", name="Rename").tap()
    expect(page.locator(".team-list li").last.locator("strong")).to_have_text("Late Entry")
    newest = page.locator(".team-list li").last
    newest.locator("summary").tap()
    newest.get_by_role("button", name="Remove team").tap()
    expect(page.locator(".team-list li")).to_have_count(4)
    # A team that has started a fixture cannot be removed.
    first = page.locator(".team-list li").first
    first.locator("summary").tap()
    expect(first.get_by_role("button", name="Remove team")).to_have_count(0)

    # The fixture's game names its place and links back to its season.
    page.goto(f"{live_server}/games/{seeded['fixture_game']}")
    place = page.locator("#fixture-place")
    expect(place).to_contain_text("Season 1 · round 1, table 1")
    place.get_by_role("link", name="Season 1").tap()
    page.wait_for_url(re.compile(r"/seasons/1$"))
