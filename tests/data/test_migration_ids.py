"""Migration 0009_ids: an existing database keeps every row and id, and hands on no id after it."""

from __future__ import annotations

import flask_migrate
import pytest
import sqlalchemy as sa
from factories import make_game, record
from sqlalchemy.dialects import sqlite

from scorer.extensions import db
from scorer.services import games, leagues
from scorer.services.accounts import add_user, issue_token

# The migrations run on the database itself, step by step, outside any test transaction.
pytestmark = pytest.mark.fresh_database

PASSWORD = "correct horse battery"
# The tables whose ids leave the server, and the columns this migration adds or drops.
NEVER_REUSED = (
    "players",
    "games",
    "users",
    "api_tokens",
    "leagues",
    "league_teams",
    "seasons",
    "fixtures",
)
CHANGED = {"sync_key", "session_key", "session_generation", "language"}
# Tables later migrations add: not there at 0008, made again on the way up.
LATER = {"period_totals", "result_ranks"}


def fill(session) -> None:
    """Games with hands, a league with a season, and two accounts with a token."""
    first = make_game(session, ["Ann", "Bob", "Cat"], target=100)
    record(session, first.id, 0, {1: 30, 2: 40})
    record(session, first.id, 1, {0: 80, 2: 30})
    make_game(session, ["Dan", "Ann"])
    league = leagues.create_league(session, "Thursday", 200)
    leagues.register_team(session, league.id, "Ann", "Bob")
    leagues.register_team(session, league.id, "Cat", "Dan")
    leagues.add_season(session, league.id)
    add_user(session, "Owner", PASSWORD)
    issue_token(session, add_user(session, "Helper", PASSWORD), "bot")


def everything(connection: sa.Connection) -> dict[str, list[tuple]]:
    """Every row of every table, but for the columns this migration changes."""
    found = {}
    for table in sa.inspect(connection).get_table_names():
        if table in ("alembic_version", "sqlite_sequence", *LATER):
            continue
        columns = [
            column["name"]
            for column in sa.inspect(connection).get_columns(table)
            if column["name"] not in CHANGED
        ]
        query = f"SELECT {', '.join(columns)} FROM {table} ORDER BY {columns[0]}"
        found[table] = sorted(tuple(row) for row in connection.execute(sa.text(query)))
    return found


def test_upgrading_an_existing_database_keeps_every_row_and_hands_on_no_id(app):
    with app.app_context():
        fill(db.session)
        db.session.remove()
        flask_migrate.downgrade(revision="0008_tidy")
        with db.engine.begin() as connection:
            before = everything(connection)
            top = {
                table: connection.execute(sa.text(f"SELECT max(id) FROM {table}")).scalar()
                for table in NEVER_REUSED
            }
        assert before["hands"] and before["fixtures"] and before["api_tokens"]

        flask_migrate.upgrade()

        with db.engine.begin() as connection:
            assert everything(connection) == before
            # Games from before keep no key, as the hands their phones queued carry none.
            assert connection.execute(sa.text("SELECT sync_key FROM games")).scalars().all() == [
                None,
                None,
            ]
            keys = connection.execute(sa.text("SELECT session_key FROM users")).scalars().all()
            assert len(set(keys)) == 2 and all(len(key) >= 32 for key in keys)
            if connection.dialect.name == "sqlite":
                assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
                assert connection.exec_driver_sql("PRAGMA foreign_key_check").all() == []
                # Each table is declared AUTOINCREMENT, and counts on from its highest id.
                sequences = dict(
                    connection.exec_driver_sql("SELECT name, seq FROM sqlite_sequence").all()
                )
                assert {table: sequences.get(table) for table in NEVER_REUSED} == top
            # The highest game deleted, the next one still gets a new id.
            connection.execute(sa.text(f"DELETE FROM games WHERE id = {top['games']}"))
        assert games.create_game(db.session, "standard", ["Eve", "Fay"]).id == top["games"] + 1
        finished = games.load_game(db.session, 1)
        assert finished.names == ("Ann", "Bob", "Cat") and finished.state.finished
        db.session.remove()


def test_down_to_0008_and_up_again(app):
    """The way back works too: the tables copied once more, their rows and ids kept."""
    with app.app_context():
        fill(db.session)
        db.session.remove()
        with db.engine.connect() as connection:
            before = everything(connection)
        flask_migrate.downgrade(revision="0008_tidy")
        with db.engine.connect() as connection:
            assert everything(connection) == before
            columns = {c["name"] for c in sa.inspect(connection).get_columns("users")}
            assert "session_generation" in columns and "session_key" not in columns
        flask_migrate.upgrade()
        with db.engine.connect() as connection:
            assert everything(connection) == before
        db.session.remove()


def test_the_models_declare_the_same_tables_autoincrement():
    """A schema made from the models (as a test or a tool may make one) hands on no id either."""
    for table in NEVER_REUSED:
        created = str(
            sa.schema.CreateTable(db.metadata.tables[table]).compile(dialect=sqlite.dialect())
        )
        assert "PRIMARY KEY AUTOINCREMENT" in created, table
