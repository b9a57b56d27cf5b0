"""stats.css: linked by exactly the pages it styles, and never by the game page.

Every page links app.css; a page adds its own stylesheet through base.html's head block. A page that
links stats.css without using it makes a phone wait for one more stylesheet; a page that uses it
without linking it is unstyled. Each page the app serves is checked both ways, by matching the rules
of stats.css against its markup.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from document import Node, parse
from factories import make_game, record
from flask import url_for

from scorer.extensions import db
from scorer.services import leagues

STATS_CSS = Path(__file__).resolve().parents[2] / "static" / "css" / "stats.css"
LINK = re.compile(r"/static/css/stats\.css\?v=")
# Routes that answer with something other than a page, or that need a form post first.
NOT_PAGES = ("static", "api.", "backup.export", "charts.", "games.qr", "games.live", "pwa.manifest")
NOT_PAGES += ("pwa.service_worker",)
# What each kind of id in a route means in the data below.
IDS = {"game_id": 1, "player_id": 1, "league_id": 1, "number": 1, "mode": "standard"}


@dataclass(frozen=True)
class Compound:
    """One element in a selector: tag, classes and attributes (pseudo-classes are ignored)."""

    tag: str | None
    classes: frozenset[str]
    attributes: tuple[tuple[str, str | None], ...]

    @classmethod
    def parse(cls, text: str) -> Compound:
        text = re.sub(r"::?[\w-]+(\([^)]*\))?", "", text)
        tag = re.match(r"[a-z][\w-]*", text)
        attributes = tuple(
            (name, value or None)
            for name, value in re.findall(r'\[([\w-]+)(?:="?([^\]"]*)"?)?\]', text)
        )
        return cls(tag and tag.group(), frozenset(re.findall(r"\.([\w-]+)", text)), attributes)

    def matches(self, node: Node) -> bool:
        if self.tag and node.tag != self.tag:
            return False
        if not self.classes <= set(node.attrs.get("class", "").split()):
            return False
        return all(
            name in node.attrs and (value is None or node.attrs[name] == value)
            for name, value in self.attributes
        )


def stats_selectors() -> list[list[Compound]]:
    """Every selector of stats.css, media queries' too, as compounds from the outermost in."""
    text = re.sub(r"/\*.*?\*/", "", STATS_CSS.read_text(), flags=re.S)
    text = re.sub(r"@media[^{]*\{", "", text)
    selectors = []
    for rule in re.finditer(r"([^{}]+)\{[^{}]*\}", text):
        for selector in rule.group(1).split(","):
            assert ">" not in selector and "+" not in selector and "~" not in selector, selector
            selectors.append([Compound.parse(part) for part in selector.split()])
    assert len(selectors) > 40
    return selectors


def uses(page: Node, selectors: list[list[Compound]]) -> list[str]:
    """The classes of the elements in `page` that some selector of stats.css matches."""
    found = []

    def walk(node: Node, ancestors: list[Node]) -> None:
        for selector in selectors:
            if selector[-1].matches(node) and within(ancestors, selector[:-1]):
                found.append(node.attrs.get("class") or node.tag)
                break
        for child in node.children:
            if isinstance(child, Node):
                walk(child, [*ancestors, node])

    walk(page, [])
    return found


def within(ancestors: list[Node], outer: list[Compound]) -> bool:
    """Whether the ancestors, nearest last, match the outer compounds in order."""
    remaining = list(outer)
    for node in reversed(ancestors):
        if not remaining:
            break
        if remaining[-1].matches(node):
            remaining.pop()
    return not remaining


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


def test_stats_css_is_linked_by_exactly_the_pages_that_use_it(app, client, club):
    selectors = stats_selectors()
    linking, using, checked = set(), set(), []
    for url in pages(app):
        response = client.get(url)
        if response.status_code != 200 or response.mimetype != "text/html":
            continue
        checked.append(url)
        page = parse(response)
        links = [node.attrs["href"] for node in page.find_all("link", rel="stylesheet")]
        if any(LINK.match(href) for href in links):
            linking.add(url)
        if uses(page.find("body"), selectors):
            using.add(url)
    assert {"/", "/games/1", "/games/new", "/players/", "/standings/", "/leagues/1"} <= {*checked}
    assert linking == using
    assert {"/players/", "/players/1", "/standings/", "/leagues/1", "/leagues/1/seasons/1"} <= using
    assert "/games/1" not in linking


def test_the_game_page_links_app_css_and_no_other_stylesheet(client, new_game, play):
    game_id = new_game(["Ann", "Bob", "Cat"])
    play(game_id, 0, {1: 30, 2: 20})
    page = parse(client.get(f"/games/{game_id}"))
    links = [node.attrs["href"] for node in page.find_all("link", rel="stylesheet")]
    assert [href.split("?")[0] for href in links] == ["/static/css/app.css"]
    assert not uses(page.find("body"), stats_selectors())
