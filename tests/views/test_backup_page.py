"""The Backup page: everything as a JSON download, the hands as CSV, a restore into an empty
database; for whoever may keep score (anyone without an owner, else signed-in users)."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from conftest import make_app
from document import error_for, parse
from factories import make_game, record
from flask import Flask

from scorer.extensions import db, rate_limiter
from scorer.services import backup, leagues
from scorer.services.accounts import add_user

PASSWORD = "correct horse battery"
FILENAME = re.compile(r'attachment; filename="uno-scorer-\d{4}-\d\d-\d\d(-hands)?\.(json|csv)"')


@pytest.fixture(autouse=True)
def fresh_limits(app: Flask):
    with app.app_context():
        rate_limiter.reset()


@pytest.fixture
def filled(app: Flask) -> None:
    """A finished game, one being played, and a league whose first fixture was played."""
    with app.app_context():
        session = db.session
        game = make_game(session, ["Ann", "Bob"], target=50)
        record(session, game, 0, {1: ["wild", "3"]})
        make_game(session, ["Bob", "Cat", "Dan"])
        league = leagues.create_league(session, "Thursday club", 100)
        leagues.register_team(session, league.id, "Ann", "Bob", "Sharks")
        leagues.register_team(session, league.id, "Cat", "Dan")
        leagues.add_season(session, league.id, 1)
        fixture = leagues.load_season(session, league.id, 1).fixtures[0].fixture
        record(session, leagues.start_fixture(session, fixture.id), 1, {0: 120, 2: 0})
        assert game.id == 1
        db.session.remove()


def empty_the_database(app: Flask) -> None:
    """Every row of every table gone, as on a server that was just set up (accounts stay)."""
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            if table.name not in ("users", "api_tokens", "rating_clock"):
                db.session.execute(table.delete())
        db.session.commit()


def upload(client, body: bytes, name: str = "backup.json", **data):
    return client.post(
        "/backup/import", data={"file": (io.BytesIO(body), name, "application/json"), **data}
    )


def without_date(body: bytes) -> dict:
    data = json.loads(body)
    del data["exported_at"]
    return data


def test_the_page_states_the_largest_file_it_restores_and_the_command_for_bigger(client):
    page = client.get("/backup/").get_data(as_text=True)
    assert "at most 32 MB" in page and "<code>scorer import FILE</code>" in page


def test_the_page_offers_both_downloads_and_a_restore_form(client, filled):
    page = parse(client.get("/backup/"))

    assert "3 games" in page.find("section").text and "1 league" in page.find("section").text
    assert page.find("a", href="/backup/export.json") is not None
    assert page.find("a", href="/backup/hands.csv") is not None
    form = page.find("form", action="/backup/import")
    assert form.attrs["enctype"] == "multipart/form-data"
    assert form.find("input", type="file", name="file") is not None
    assert "already holds" in form.text  # a restore needs an empty database, and says so


def test_everything_downloads_as_json(app, client, filled):
    response = client.get("/backup/export.json")

    assert response.status_code == 200
    assert response.mimetype == "application/json"
    assert FILENAME.fullmatch(response.headers["Content-Disposition"])
    assert response.headers["Cache-Control"] == "no-store"
    data = response.json
    assert (data["format"], data["version"]) == ("uno-scorer", 1)
    assert [len(data["players"]), len(data["games"]), len(data["leagues"])] == [4, 3, 1]
    with app.app_context():
        assert without_date(response.data) == without_date(
            backup.dumps(backup.export_all(db.session)).encode()
        )


def test_the_hands_download_as_csv_for_a_spreadsheet(client, filled):
    response = client.get("/backup/hands.csv")

    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    assert FILENAME.fullmatch(response.headers["Content-Disposition"])
    text = response.get_data(as_text=True)
    assert text.startswith("\ufeff")  # so a spreadsheet reads the names as UTF-8
    table = list(csv.reader(io.StringIO(text[1:])))
    assert table[0] == ["game", "mode", "hand", "went_out", "player", "points", "cards"]
    assert table[1] == ["1", "standard", "1", "Ann", "Bob", "53", "wild 3"]


def test_a_download_is_restored_into_an_empty_database(app, client, filled, rows):
    exported = client.get("/backup/export.json").data
    empty_the_database(app)
    assert rows("games") == 0

    response = upload(client, exported)

    assert response.status_code == 303
    assert response.headers["Location"] == "/backup/"
    page = parse(client.get("/backup/"))
    assert "Restored 4 players, 3 games, 2 hands and 1 league." in page.find(role="status").text
    assert without_date(client.get("/backup/export.json").data) == without_date(exported)
    # Results were derived again, so the standings and the league table are back.
    assert rows("game_results") == 2 + 4
    season = parse(client.get("/leagues/1/seasons/1"))
    assert "Sharks" in season.text


def test_a_restore_into_a_database_with_data_is_refused_and_writes_nothing(client, filled, rows):
    exported = client.get("/backup/export.json").data

    response = upload(client, exported)

    assert response.status_code == 422
    message = error_for(parse(response), "file")
    assert message.startswith("Nothing was restored. The database already holds 4 players")
    assert parse(response).find("input", type="file").attrs["aria-invalid"] == "true"
    assert (rows("players"), rows("games"), rows("hands")) == (4, 3, 2)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"Ann 120, Bob 80", "This file is not a JSON backup"),
        (b"\xff\xfe", "This file is not a JSON backup"),
        (b'{"format": "uno-scorer", "version": 9}', "version 9; this scorer reads version 1"),
        (b'{"format": "uno-scorer", "version": 1, "players": [{"id": 1}]}', "players[0]: name"),
    ],
)
def test_a_file_that_is_not_a_backup_is_refused_next_to_the_field(client, rows, body, message):
    response = upload(client, body)

    assert response.status_code == 422
    assert message in error_for(parse(response), "file")
    assert rows("players") == 0


def test_a_restore_needs_a_file(client):
    response = client.post("/backup/import", data={})
    assert response.status_code == 422
    assert error_for(parse(response), "file") == "Choose a backup file (.json) made by this scorer."


def many_players(count: int) -> bytes:
    moment = "2026-03-14T15:00:00+00:00"
    players = [
        {"id": i, "name": f"Player {i:04d}", "created_at": moment, "archived_at": None}
        for i in range(1, count + 1)
    ]
    document = {"format": "uno-scorer", "version": 1, "exported_at": moment, "players": players}
    return backup.dumps(document | {"games": [], "leagues": []}).encode()


def test_a_backup_larger_than_a_form_may_be_is_restored(app, client, rows):
    body = many_players(1500)
    assert len(body) > app.config["MAX_CONTENT_LENGTH"]

    assert upload(client, body).status_code == 303
    assert rows("players") == 1500


@pytest.mark.fresh_database
def test_a_file_too_big_for_a_backup_is_refused(app, rows):
    # Small sizes: the test client keeps a larger upload in a temporary file it never closes.
    small = make_app(app.config["SQLALCHEMY_DATABASE_URI"], BACKUP_MAX_CONTENT_LENGTH=100 * 1024)
    try:
        response = upload(small.test_client(), b" " * (100 * 1024 + 1))
        assert response.status_code == 413
        message = error_for(parse(response), "file")
        assert "too big to restore here (at most 100 KB)" in message
        assert "scorer import" in message
        assert rows("players") == 0
    finally:
        with small.app_context():
            db.session.remove()
            db.engine.dispose()


# Owner mode


@pytest.fixture
def owner(app: Flask) -> None:
    with app.app_context():
        add_user(db.session, "Owner", PASSWORD)


def sign_in(client) -> None:
    response = client.post("/login", data={"name": "Owner", "password": PASSWORD, "next": "/"})
    assert response.status_code == 303


@pytest.mark.parametrize("url", ["/backup/", "/backup/export.json", "/backup/hands.csv"])
def test_in_owner_mode_a_visitor_cannot_download(client, owner, filled, url):
    response = client.get(url)

    assert response.status_code == 401
    assert "Content-Disposition" not in response.headers
    page = parse(response)
    assert "Only signed-in users can download or restore backups" in page.find("h1").text
    login = page.find("a", class_="primary")
    assert login.attrs["href"].startswith("/login?next=") and "Sign in" in login.text


def test_in_owner_mode_a_visitor_cannot_restore(client, owner, rows):
    response = upload(client, many_players(2))
    assert response.status_code == 401
    assert rows("players") == 0


def test_in_owner_mode_a_signed_in_user_backs_up_and_restores(app, client, owner, filled, rows):
    sign_in(client)
    exported = client.get("/backup/export.json")
    assert exported.status_code == 200
    assert client.get("/backup/hands.csv").status_code == 200
    empty_the_database(app)

    # The accounts stay: the database is empty of scores, which is what a restore needs.
    assert upload(client, exported.data).status_code == 303
    assert (rows("games"), rows("users")) == (3, 1)
    assert client.get("/backup/").status_code == 200  # still signed in


# CSRF


@pytest.fixture
def guarded(app: Flask):
    """The same app and database with CSRF protection on, as in production."""
    secured = make_app(app.config["SQLALCHEMY_DATABASE_URI"], WTF_CSRF_ENABLED=True)
    yield secured.test_client()
    with secured.app_context():
        db.session.remove()
        db.engine.dispose()


def test_a_restore_without_the_pages_csrf_token_is_refused(guarded, rows):
    response = upload(guarded, many_players(2))
    assert response.status_code == 400
    assert "This form is out of date" in parse(response).find("h1").text
    assert upload(guarded, many_players(2), csrf_token="not-the-token").status_code == 400
    assert rows("players") == 0


def test_a_restore_with_the_pages_csrf_token_is_made(guarded, rows):
    token = parse(guarded.get("/backup/")).value("csrf_token")
    assert upload(guarded, many_players(2), csrf_token=token).status_code == 303
    assert rows("players") == 2


def test_a_large_restore_is_still_checked_for_its_csrf_token(guarded, rows):
    # The app-wide check is skipped for this view (it would read the body under the smaller
    # limit); the view checks the token itself.
    assert upload(guarded, many_players(1500)).status_code == 400
    assert rows("players") == 0
