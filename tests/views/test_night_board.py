"""A league night's board: the round being played, live; between rounds; the scorer links sheet."""

from __future__ import annotations

import base64
import io
import json
import re
import urllib.parse

import cairosvg
import pytest
import zxingcpp
from document import HTMX, parse
from factories import record
from flask import Flask
from PIL import Image
from views.test_budgets import headers_size, queries_for

from scorer.extensions import db
from scorer.services import cleanup, leagues, nights

IDLE_POLL_BUDGET = 1024


def make_season(app: Flask, teams: int, target: int = 100) -> tuple[int, int]:
    """A league of `teams` teams of two with its first season drawn: (league id, season number)."""
    with app.app_context():
        league = leagues.create_league(db.session, f"League of {teams}", target)
        for index in range(teams):
            leagues.register_team(db.session, league.id, f"P{index}a", f"P{index}b")
        season = leagues.add_season(db.session, league.id)
        return league.id, season.number


def round_games(app: Flask, league_id: int, number: int, round_number: int) -> list[int]:
    with app.app_context():
        _, tables = nights.round_tables(db.session, league_id, number, round_number)
        return [table.fixture.fixture.game_id for table in tables]


def finish(app: Flask, game_id: int, target: int = 100) -> None:
    """Home goes out holding the away pair's points past the target: home wins."""
    with app.app_context():
        record(db.session, game_id, 0, {1: target, 3: 0})


def board_path(league_id: int, number: int) -> str:
    return f"/leagues/{league_id}/seasons/{number}/board"


def tables_on(page) -> list[str]:
    return [" ".join(item.text.split()) for item in page.select(".board-table")]


def test_the_board_follows_a_round_from_its_start_to_the_next_round(app, client):
    league_id, number = make_season(app, 4)
    path = board_path(league_id, number)
    before = parse(client.get(path))
    assert "Round 1 is about to start." in before.text
    assert len(before.select(".board-results li")) == 2  # the pairings of round 1

    started = client.post(f"/leagues/{league_id}/seasons/{number}/rounds/1/start")
    assert started.status_code == 303
    assert started.headers["Location"] == path
    first, second = round_games(app, league_id, number, 1)
    assert first and second

    with app.app_context():
        record(db.session, first, 0, {1: 30, 3: 12})
    page = parse(client.get(path))
    assert "0 of 2 tables finished" in page.text
    assert page.by_id("start-rest") is None
    table_one, table_two = tables_on(page)
    # Home (P0, as drawn) has 42 after a hand, 58 to go; the dealer has moved on to seat 2.
    assert re.search(
        r"Table 1 .*42 .*58 to go .*0 .*100 to go .*1 hand played · \S+ deals", table_one
    )
    assert "0 hands played" in table_two

    finish(app, first)
    finish(app, second)
    between = parse(client.get(path))
    text = between.text
    assert "Round 1 is over. Next: round 2." in text
    assert "Round 1 results" in text and "Round 2 pairings" in text
    assert len(between.select(".league-table tbody tr")) == 4
    assert between.by_id("start-round")
    # One tap starts every table of the next round.
    client.post(f"/leagues/{league_id}/seasons/{number}/rounds/2/start")
    assert all(round_games(app, league_id, number, 2))
    assert "0 of 2 tables finished" in parse(client.get(path)).text


def test_the_poll_answers_304_while_nothing_moved_and_the_board_once_a_hand_is_recorded(
    app, client
):
    league_id, number = make_season(app, 4)
    client.post(f"/leagues/{league_id}/seasons/{number}/rounds/1/start")
    path = board_path(league_id, number)
    poller = parse(client.get(path)).by_id("poll")
    live = poller.attrs["hx-get"]
    headers = {**HTMX, **json.loads(poller.attrs["hx-headers"])}
    idle = client.get(live, headers=headers)
    assert idle.status_code == 304
    assert len(idle.get_data()) + headers_size(idle) <= IDLE_POLL_BUDGET

    game_id = round_games(app, league_id, number, 1)[0]
    with app.app_context():
        record(db.session, game_id, 0, {1: 30, 3: 12})
    moved = client.get(live, headers=headers)
    assert moved.status_code == 200
    fragment = moved.get_data(as_text=True)
    assert 'id="board"' in fragment and 'hx-swap-oob="true"' in fragment
    assert "<html" not in fragment
    assert "1 hand played" in fragment
    assert moved.headers["ETag"] != idle.headers["ETag"]
    # Without htmx the poll's address is the board itself.
    assert client.get(live).status_code == 303


@pytest.mark.parametrize("budget_path", ["", "/live"])
def test_the_board_runs_the_same_queries_for_2_tables_and_for_12(
    app, client, count_queries, budget_path
):
    def queries(teams: int) -> int:
        league_id, number = make_season(app, teams)
        client.post(f"/leagues/{league_id}/seasons/{number}/rounds/1/start")
        for game_id in round_games(app, league_id, number, 1):
            with app.app_context():
                record(db.session, game_id, 0, {1: 30, 3: 12})
        # A stale version: the poll answers with the whole board.
        headers = {**HTMX, "If-None-Match": 'W/"stale"'} if budget_path else {}
        return queries_for(
            client, count_queries, board_path(league_id, number) + budget_path, **headers
        )

    few = queries(4)
    assert queries(24) == few > 0


def test_an_unknown_season_has_no_board(client):
    assert client.get("/leagues/999/seasons/1/board").status_code == 404
    assert client.get("/leagues/999/seasons/1/board/live", headers=HTMX).status_code == 404


def read_qr(data_uri: str) -> list[str]:
    svg = urllib.parse.unquote(data_uri.split(",", 1)[1])
    if data_uri.startswith("data:image/svg+xml;base64,"):
        svg = base64.b64decode(data_uri.split(",", 1)[1]).decode()
    png = cairosvg.svg2png(bytestring=svg.encode(), output_width=300, background_color="white")
    return [code.text for code in zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))]


def test_the_sheet_gives_each_table_a_scorer_link_its_qr_code_decodes_to(app, organiser, client):
    league_id, number = make_season(app, 6)
    sheet = f"/leagues/{league_id}/seasons/{number}/rounds/1/sheet"
    # A visitor cannot issue links: a write, refused before anything starts.
    assert client.post(sheet).status_code == 401
    assert not any(round_games(app, league_id, number, 1))

    page = parse(organiser.get(sheet))
    assert page.by_id("make-sheet")
    made = organiser.post(sheet)
    assert made.status_code == 201
    assert made.headers["Cache-Control"] == "no-store"
    page = parse(made)
    cards = page.select(".sheet-table")
    assert len(cards) == 3
    games = round_games(app, league_id, number, 1)
    for card, game_id in zip(cards, games, strict=True):
        link = card.select(".sheet-link a")[0].attrs["href"]
        assert re.fullmatch(rf"http://localhost/games/{game_id}/score/[\w-]+", link)
        assert read_qr(card.select("img.qr")[0].attrs["src"]) == [link]
        # The link works: a phone that opens it may score that game.
        assert app.test_client().get(link).status_code == 303


def test_the_season_page_and_a_fixtures_share_page_link_to_the_board_and_the_sheet(app, client):
    league_id, number = make_season(app, 4)
    board = board_path(league_id, number)
    sheet = f"/leagues/{league_id}/seasons/{number}/rounds/1/sheet"
    season_page = parse(client.get(f"/leagues/{league_id}/seasons/{number}"))
    hrefs = {link.attrs["href"] for link in season_page.find_all("a")}
    assert {board, sheet} <= hrefs
    client.post(f"/leagues/{league_id}/seasons/{number}/rounds/1/start")
    game_id = round_games(app, league_id, number, 1)[0]
    season_page = parse(client.get(f"/leagues/{league_id}/seasons/{number}"))
    assert f"/games/{game_id}/table" in {link.attrs["href"] for link in season_page.find_all("a")}
    share = parse(client.get(f"/games/{game_id}/share"))
    assert share.by_id("night-board-link").attrs["href"] == board
    assert share.by_id("night-sheet-link").attrs["href"] == sheet
    # Without owners anyone keeps score: the sheet shows each game's own link as a QR code.
    codes = parse(client.get(sheet)).select(".sheet-table img.qr")
    assert [read_qr(code.attrs["src"]) for code in codes] == [
        [f"http://localhost/games/{game}"] for game in round_games(app, league_id, number, 1)
    ]


def test_a_rotation_night_names_the_players_and_counts_the_hands_left(app, client):
    with app.app_context():
        league = leagues.create_league(db.session, "Eights", 500, "rotation")
        names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
        number = leagues.add_rotation_season(db.session, league.id, names).number
        league_id = league.id
    client.post(f"/leagues/{league_id}/seasons/{number}/rounds/1/start")
    first, second = round_games(app, league_id, number, 1)
    with app.app_context():
        record(db.session, first, 0, {1: 30, 3: 12})
    page = parse(client.get(board_path(league_id, number)))
    assert page.by_id("start-rest") is None  # every table of the round has started
    table_one = tables_on(page)[0]
    assert re.search(r"\w+ & \w+ .*42 .*\w+ & \w+ .*0 .*1 hand played · 1 hand left", table_one)
    assert "to go" not in table_one
    # Without a script the board reloads itself now and then.
    assert page.select('noscript meta[http-equiv="refresh"]')

    # Every round played: the season is over, its last results and the players' table stay.
    with app.app_context():
        season = leagues.load_season(db.session, league_id, number)
        fixture_ids = [item.fixture.id for item in season.fixtures]
    for fixture_id in fixture_ids:
        with app.app_context():
            game = leagues.start_fixture(db.session, fixture_id)
            state = record(db.session, game.id, 0, {1: 5, 3: 5}).state
            if not state.finished:
                record(db.session, game.id, 1, {0: 5, 2: 5})
    over = parse(client.get(board_path(league_id, number)))
    assert "Season over: every round has been played." in over.text
    assert "Round 7 results" in over.text
    assert len(over.select(".league-table tbody tr")) == 8
    assert over.by_id("start-round") is None and over.by_id("sheet-link") is None


def test_a_table_started_on_its_own_starts_the_round_and_the_others_follow_in_one_post(app, client):
    league_id, number = make_season(app, 4)
    with app.app_context():
        _, tables = nights.round_tables(db.session, league_id, number, 1)
        leagues.start_fixture(db.session, tables[0].fixture.fixture.id)
    page = parse(client.get(board_path(league_id, number)))
    assert "Not started" in tables_on(page)[1]
    form = page.by_id("start-rest").find_parent("form")
    assert client.post(form.attrs["action"]).status_code == 303
    assert all(round_games(app, league_id, number, 1))
    assert page.by_id("start-rest") is not None
    assert parse(client.get(board_path(league_id, number))).by_id("start-rest") is None


def test_a_table_set_aside_says_so_and_the_round_waits_for_it(app, client):
    league_id, number = make_season(app, 4)
    client.post(f"/leagues/{league_id}/seasons/{number}/rounds/1/start")
    first, second = round_games(app, league_id, number, 1)
    with app.app_context():
        record(db.session, first, 0, {1: 30, 3: 12})
        cleanup.abandon_game(db.session, first)
    finish(app, second)
    page = parse(client.get(board_path(league_id, number)))
    set_aside, finished = tables_on(page)
    assert "Set aside after 1 hand" in set_aside and "deals" not in set_aside
    assert "Finished" in finished
    # No result for the table set aside: the round is still the one on the board.
    assert "1 of 2 tables finished" in page.text
    assert "round 1" in page.find("h1").text
