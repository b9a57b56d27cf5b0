"""Migration 0014_later_finishes: an existing database's rank rows get the nearest finishes of
their players' later results, filled from the rows it already holds, the same as the app keeps
them as games finish."""

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

BEFORE = "0013_result_ranks"


def rows(connection: sa.Connection) -> list[tuple]:
    return [
        tuple(row)
        for row in connection.execute(sa.text("SELECT * FROM result_ranks ORDER BY seq, player_id"))
    ]


def test_upgrading_fills_the_later_finishes_the_app_keeps(app, monkeypatch):
    with app.app_context():
        # The last game is played after the others but dated before two of them: a later result
        # that finished earlier, on both sides of other results.
        for moment, names, winner in (
            (datetime(2025, 11, 30, 22, 0), ["Ann", "Bob", "Cat"], 0),
            (datetime(2025, 12, 31, 23, 59), ["Ann", "Bob"], 1),
            (datetime(2026, 1, 1, 0, 0), ["Cat", "Dan", "Bob"], 2),
            (datetime(2025, 12, 10, 12, 0), ["Bob", "Ann"], 0),
        ):
            monkeypatch.setattr(games, "utcnow", lambda moment=moment: moment)
            game = make_game(db.session, names, target=50)
            record(
                db.session, game, winner, {seat: 60 for seat in range(len(names)) if seat != winner}
            )
        db.session.remove()
        with db.engine.connect() as connection:
            kept = rows(connection)
            columns = [
                column["name"] for column in sa.inspect(connection).get_columns("result_ranks")
            ]
        assert len(kept) == 10
        later = [columns.index("later_finish_at_or_after"), columns.index("later_finish_before")]
        # Some rows have a later result on each side, some on neither.
        assert any(row[later[0]] is not None for row in kept)
        assert any(row[later[1]] is not None for row in kept)
        assert any(row[later[0]] is None and row[later[1]] is None for row in kept)

        flask_migrate.downgrade(revision=BEFORE)
        with db.engine.connect() as connection:
            found = [
                column["name"] for column in sa.inspect(connection).get_columns("result_ranks")
            ]
        assert "later_finish_at_or_after" not in found
        flask_migrate.upgrade()
        with db.engine.connect() as connection:
            assert rows(connection) == kept

        # Read as before: Bob's last result from 1 to 31 December is the game played last.
        monkeypatch.setattr(standings_tables, "BUSY_RANGE", 1)
        span = standings.period("custom", date(2025, 12, 1), date(2025, 12, 31))
        table = standings.standings_page(db.session, span, sort="name").items
        assert {row.name: row.games for row in table} == {"Ann": 2, "Bob": 2}
        db.session.remove()
