"""Each page stylesheet (stats, setup, board): linked by exactly the pages it styles, not the game.

Every page links app.css; a page adds its own stylesheet through base.html's head block. A page that
links one without using it makes a phone wait for one more stylesheet; a page that uses it without
linking it is unstyled. Each page the app serves is checked both ways, by matching the rules of the
sheet (read with tinycss2) against its markup (with soupsieve, through BeautifulSoup).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import tinycss2
from document import Element, parse
from factories import make_game, record
from flask import url_for

from scorer.extensions import db
from scorer.services import leagues

# The service worker, static files and pages as sent: the same on any database.
pytestmark = pytest.mark.any_database

CSS = Path(__file__).resolve().parents[2] / "static" / "css"
# Routes that answer with something other than a page, or that need a form post first.
NOT_PAGES = ("static", "api.", "backup.export", "charts.", "games.qr", "games.live", "pwa.manifest")
NOT_PAGES += ("pwa.service_worker", "games.score", "nights.board_live", "table_view.live")
# What each kind of id in a route means in the data below.
IDS = {"game_id": 1, "player_id": 1, "league_id": 1, "number": 1, "mode": "standard"}
IDS |= {"round_number": 1}


# States no markup shows (hover, focus…) and pseudo-elements: the element is styled either way.
DYNAMIC = re.compile(
    r"::?(hover|focus|focus-visible|focus-within|active|visited|target|before|after"
    r"|-webkit-details-marker)(?![\w-])"
)


def stats_selectors() -> list[str]:
    return selectors_of("stats.css", at_least=40)


def selectors_of(sheet: str, at_least: int) -> list[str]:
    """Every selector of the sheet, media queries' too, read by a CSS parser."""
    selectors: list[str] = []

    def collect(rules) -> None:
        for rule in rules:
            if rule.type == "qualified-rule":
                prelude = tinycss2.serialize(rule.prelude)
                assert "(" not in prelude, prelude  # a comma inside :is(…) would split wrongly
                selectors.extend(DYNAMIC.sub("", part).strip() for part in prelude.split(","))
            elif rule.type == "at-rule" and rule.content is not None:
                collect(tinycss2.parse_rule_list(rule.content, True, True))

    collect(tinycss2.parse_stylesheet((CSS / sheet).read_text(), True, True))
    assert len(selectors) > at_least
    return selectors


def uses(page: Element, selectors: list[str]) -> list[Element]:
    """The elements of `page` that some of the selectors match (soupsieve's matching)."""
    return [element for selector in selectors for element in page.select(selector)]


@pytest.fixture
def club(app):
    """A game in progress (game 1, player 1 is Ann), finished games, a league with a season."""
    with app.app_context():
        session = db.session
        game = make_game(session, ["Ann", "Bob", "Cat"], target=500)
        record(session, game, 0, {1: 30, 2: 20})
        record(session, game, 1, {0: 10, 2: 20})
        finished = make_game(session, ["Ann", "Bob", "Cat", "Dan"], mode="partners", target=50)
        record(session, finished, 1, {0: 30, 2: 20})
        league = leagues.create_league(session, "Club", 50)
        for pair in (("Ann", "Bob"), ("Cat", "Dan"), ("Eve", "Fay"), ("Gus", "Hal")):
            leagues.register_team(session, league.id, *pair)
        leagues.add_season(session, league.id, 1)
        db.session.remove()


def pages(app) -> list[str]:
    """The address of every page the app serves, with the ids of the data above."""
    urls = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint.startswith(NOT_PAGES):
            continue
        with app.test_request_context():
            urls.append(url_for(rule.endpoint, **{name: IDS[name] for name in rule.arguments}))
    return sorted(set(urls))


@pytest.mark.parametrize(
    ("sheet", "at_least", "some_users"),
    [
        (
            "stats.css",
            40,
            {"/players/", "/players/1", "/standings/", "/leagues/1", "/leagues/1/seasons/1"},
        ),
        ("setup.css", 20, {"/games/new", "/rules/", "/games/1/share"}),
        (
            "board.css",
            20,
            {"/leagues/1/seasons/1/board", "/leagues/1/seasons/1/rounds/1/sheet", "/games/1/table"},
        ),
    ],
)
def test_a_page_stylesheet_is_linked_by_exactly_the_pages_that_use_it(
    app, client, club, sheet, at_least, some_users
):
    selectors = selectors_of(sheet, at_least)
    link = re.compile(rf"/static/css/{re.escape(sheet)}\?v=")
    linking, using, checked = set(), set(), []
    for url in pages(app):
        response = client.get(url)
        if response.status_code != 200 or response.mimetype != "text/html":
            continue
        checked.append(url)
        page = parse(response)
        links = [node.attrs["href"] for node in page.find_all("link", rel="stylesheet")]
        if any(link.match(href) for href in links):
            linking.add(url)
        if uses(page.find("body"), selectors):
            using.add(url)
    assert {"/", "/games/1", "/games/new", "/players/", "/standings/", "/leagues/1"} <= {*checked}
    assert linking == using
    assert some_users <= using
    assert not {"/", "/games/1", "/offline"} & linking


def test_the_game_page_links_app_css_and_no_other_stylesheet(client, new_game, play):
    game_id = new_game(["Ann", "Bob", "Cat"])
    play(game_id, 0, {1: 30, 2: 20})
    page = parse(client.get(f"/games/{game_id}"))
    links = [node.attrs["href"] for node in page.find_all("link", rel="stylesheet")]
    assert [href.split("?")[0] for href in links] == ["/static/css/app.css"]
    assert not uses(page.find("body"), stats_selectors())
    assert not uses(page.find("body"), selectors_of("setup.css", 20))
