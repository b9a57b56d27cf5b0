"""No page scrolls sideways on a small phone (320 to 390 px), with a night's data of long names:
every plain page and every page with an id in its address, its disclosures open."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from factories import make_game, record
from flask import Flask
from playwright.sync_api import Page

from scorer.extensions import db
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
