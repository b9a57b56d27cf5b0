"""Migration 0013_result_ranks: an existing database gets each result's rank row, filled from the
results it already holds, the same rows the app keeps as games finish."""

from __future__ import annotations

from datetime import date, datetime

import flask_migrate
import pytest
import sqlalchemy as sa
from factories import make_game, record

from scorer.extensions import db
from scorer.services import games, standings, standings_tables

# The migrations run on a database of their own: under a shared app's rolled-back transaction
# Alembic would find no engine to migrate.
pytestmark = pytest.mark.fresh_database

BEFORE = "0012_account_language"


def rows(connection: sa.Connection) -> list[tuple]:
    return [
        tuple(row)
        for row in connection.execute(sa.text("SELECT * FROM result_ranks ORDER BY seq, player_id"))
    ]


def test_upgrading_fills_the_rank_rows_the_app_keeps(app, monkeypatch):
    with app.app_context():
        for moment, names, winner in (
            (datetime(2025, 11, 30, 22, 0), ["Ann", "Bob", "Cat"], 0),
            (datetime(2025, 12, 31, 23, 59), ["Ann", "Bob"], 1),
            (datetime(2026, 1, 1, 0, 0), ["Cat", "Dan", "Bob"], 2),
        ):
            monkeypatch.setattr(games, "utcnow", lambda moment=moment: moment)
            game = make_game(db.session, names, target=50)
            record(
                db.session, game, winner, {seat: 60 for seat in range(len(names)) if seat != winner}
            )
        db.session.remove()
        with db.engine.connect() as connection:
            kept = rows(connection)
        assert len(kept) == 8

        flask_migrate.downgrade(revision=BEFORE)
        with db.engine.connect() as connection:
            assert "result_ranks" not in sa.inspect(connection).get_table_names()
        flask_migrate.upgrade()
        with db.engine.connect() as connection:
            assert rows(connection) == kept

        # Read as before: a busy range ranked from the rows the migration made.
        monkeypatch.setattr(standings_tables, "BUSY_RANGE", 1)
        span = standings.period("custom", date(2025, 11, 15), date(2026, 1, 10))
        table = standings.standings(db.session, span)
        assert {row.name: row.games for row in table} == {"Ann": 2, "Bob": 3, "Cat": 2, "Dan": 1}
        db.session.remove()
