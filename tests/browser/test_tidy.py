"""Tidying up in a real browser: abandoning and deleting games, the league fixes, and no page that
scrolls sideways on a small phone, the pages with an id in their address included."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from factories import make_game, record
from flask import Flask
from playwright.sync_api import Page, expect

from scorer.extensions import db
from scorer.models import Game
from scorer.services import cleanup, leagues

pytestmark = pytest.mark.browser

WIDTHS = (320, 360, 390)
LONG_NAME = "Wolfeschlegelsteinhausenbergerdorff"  # 35 letters, no space to break at


@pytest.fixture(scope="module")
def seeded(live_app: Flask) -> dict[str, int]:
    """A night's data with long names: games in play, finished and abandoned, and a league."""
    with live_app.app_context():
        session = db.session
        playing = make_game(session, ["Ann", "Bob", "Cat", LONG_NAME])
        record(session, playing, 0, {1: ["3", "skip"], 2: ["wild", "draw2"], 3: ["8"]})
        finished = make_game(session, ["Maximiliana", LONG_NAME], target=100)
        record(session, finished, 1, {0: ["wild4", "wild", "9"]})
        set_aside = make_game(session, ["Ann", "Bob"], target=100)
        cleanup.abandon_game(session, set_aside.id)
        league = leagues.create_league(session, "Thursday Night Partners League", 100)
        leagues.register_team(session, league.id, "Ann", "Bob", "The Unstoppables")
        leagues.register_team(session, league.id, "Cat", LONG_NAME, "")
        leagues.register_team(session, league.id, "Maximiliana", "Dan", "")
        leagues.register_team(session, league.id, "Eve", "Fay", "")
        leagues.add_season(session, league.id)
        fixture_game = leagues.start_fixture(session, 1)
        return {
            "playing": playing.id,
            "finished": finished.id,
            "abandoned": set_aside.id,
            "league": league.id,
            "fixture_game": fixture_game.id,
            "long_player": 4,
        }


def pages_with_ids(seeded: dict[str, int]) -> list[str]:
    game, player, league = seeded["playing"], seeded["long_player"], seeded["league"]
    return [
        f"/games/{game}",
        f"/games/{seeded['finished']}",
        f"/games/{seeded['abandoned']}",
        f"/games/{seeded['fixture_game']}",
        f"/games/{game}/delete",
        f"/games/{game}/share",
        f"/players/{player}",
        f"/players/{player}/rename",
        f"/players/{player}/merge",
        "/players/1/merge",
        f"/leagues/{league}",
        f"/leagues/{league}/seasons/1",
        "/standings/?period=all",
    ]


def test_no_page_scrolls_sideways(
    new_phone: Callable[..., Page],
    live_server: str,
    seeded: dict[str, int],
    plain_pages: list[str],
):
    page = new_phone({"width": WIDTHS[0], "height": 740})
    problems = []
    for path in [*plain_pages, *pages_with_ids(seeded)]:
        page.set_viewport_size({"width": WIDTHS[0], "height": 740})
        response = page.goto(f"{live_server}{path}")
        if not (response and response.ok and "text/html" in response.headers["content-type"]):
            continue
        # Open every disclosure too: what it hides must fit as well.
        page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 740})
            # Measured against the phone's width, not innerWidth: on a phone the layout viewport
            # grows to fit what overflows, so innerWidth would hide the very overflow looked for.
            wide = page.evaluate("document.scrollingElement.scrollWidth")
            if wide > width:
                culprits = page.evaluate(WIDEST, width)
                problems.append(f"{path}: {wide}px wide in {width}px: {culprits}")
    assert not problems, "\n".join(problems)


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


def test_the_league_fixes(phone: Page, live_server: str, seeded: dict[str, int]):
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


# The elements reaching past the viewport's right edge, innermost first, to say what to fix.
WIDEST = """(view) => {
  const found = [];
  for (const element of document.body.querySelectorAll("*")) {
    const rect = element.getBoundingClientRect();
    const shown = element.checkVisibility({ visibilityProperty: true });
    const right = Math.max(rect.right, rect.left + element.scrollWidth);
    if (shown && right > view + 0.5 && element.children.length === 0) {
      found.push(`${element.tagName.toLowerCase()}.${element.className} ${Math.round(right)}`);
    }
  }
  return found.slice(0, 5).join(", ");
}"""
