"""The roster, profile, standings and league pages in every language: words and dates."""

from __future__ import annotations

import re

import pytest
from document import parse
from factories import make_game, record

from scorer.extensions import db
from scorer.languages import LANGUAGES
from scorer.services import leagues

PAGES = [
    "/",
    "/players/",
    "/players/1",
    "/players/1/rename",
    "/players/1/merge",
    "/standings/",
    "/standings/?q=a&sort=win_rate",
    "/leagues/",
    "/leagues/new",
    "/leagues/1",
    "/leagues/1/seasons/1",
    "/leagues/1/seasons/1/board",
    "/leagues/1/seasons/1/rounds/1/sheet",
    "/backup/",
    "/login",
]


@pytest.fixture
def club(app):
    with app.app_context():
        session = db.session
        league = leagues.create_league(session, "Club", 50)
        for pair in (("Ann", "Bob"), ("Cat", "Dan"), ("Eve", "Fay"), ("Gus", "Hal")):
            leagues.register_team(session, league.id, *pair)
        leagues.add_season(session, league.id, 1)
        game = make_game(session, ["Ann", "Bob", "Cat"], target=50)
        record(session, game, 0, {1: 30, 2: 20})
        make_game(session, ["Ann", "Bob", "Cat", "Dan"], mode="partners", target=500)
        db.session.remove()


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_page_answers_in_every_language(client, club, language):
    for url in PAGES:
        response = client.get(url, headers={"Accept-Language": language})
        assert response.status_code == 200, url


@pytest.mark.parametrize(
    ("language", "shape"),
    [
        ("en", r"[A-Z][a-z]{2} \d{1,2}, \d{4}"),
        ("de", r"\d{2}\.\d{2}\.\d{4}"),
    ],
)
def test_dates_follow_the_reader_s_language(client, club, language, shape):
    headers = {"Accept-Language": language}
    roster = parse(client.get("/players/", headers=headers))
    last_played = roster.find(class_="roster-meta").text
    assert re.search(rf"· \S+ {shape}$", last_played), last_played
    profile = parse(client.get("/players/1", headers=headers))
    first_game = profile.find(class_="recent-table").find("tbody").find("a").text
    assert re.fullmatch(shape, first_game), first_game


def test_english_counts_pick_the_singular_or_the_plural(client, club):
    roster = [entry.text for entry in parse(client.get("/players/")).find_all(class_="roster-meta")]
    assert any(re.match(r"2 games ·", text) for text in roster), roster
    assert "1 game" in roster, roster
    home = parse(client.get("/")).find(class_="game-meta").text
    assert re.match(r"\s*Partners to 500 · no hands yet", home), home
