"""Migration 0011_period_totals: an existing database gets each player's totals per period, filled
from the results it already holds, the same rows the app keeps as games finish."""

from __future__ import annotations

from datetime import datetime

import flask_migrate
import pytest
import sqlalchemy as sa
from factories import entry, make_game, record

from scorer.extensions import db
from scorer.services import games, hands, standings

# The migrations run on a database of their own: under a shared app's rolled-back transaction
# Alembic would find no engine to migrate.
pytestmark = pytest.mark.fresh_database

BEFORE = "0010_list_indexes"


def fill(session, monkeypatch) -> None:
    """Games finished over two years and several months, one of them edited afterwards."""
    for moment, names, winner in (
        (datetime(2025, 11, 30, 22, 0), ["Ann", "Bob", "Cat"], 0),
        (datetime(2025, 12, 31, 23, 59), ["Ann", "Bob"], 1),
        (datetime(2026, 1, 1, 0, 0), ["Cat", "Dan", "Bob"], 2),
        (datetime(2026, 3, 14, 15, 9), ["Dan", "Ann"], 0),
    ):
        monkeypatch.setattr(games, "utcnow", lambda moment=moment: moment)
        game = make_game(session, names, target=50)
        record(session, game, winner, {seat: 60 for seat in range(len(names)) if seat != winner})
    hands.edit_hand(session, 1, 1, entry(1, {0: 40, 2: 20}))
    make_game(session, ["Eve", "Ann"], target=50)  # in progress: in no period yet


def rows(connection: sa.Connection) -> list[tuple]:
    return [
        tuple(row)
        for row in connection.execute(
            sa.text("SELECT * FROM period_totals ORDER BY period, player_id")
        )
    ]


def test_upgrading_fills_the_totals_the_app_keeps(app, monkeypatch):
    with app.app_context():
        fill(db.session, monkeypatch)
        db.session.remove()
        with db.engine.connect() as connection:
            kept = rows(connection)
        # All time, two years and four months, for the players of each.
        assert {row[0] for row in kept} == {0, 202500, 202511, 202512, 202600, 202601, 202603}

        flask_migrate.downgrade(revision=BEFORE)
        with db.engine.connect() as connection:
            assert "period_totals" not in sa.inspect(connection).get_table_names()

        flask_migrate.upgrade()

        with db.engine.connect() as connection:
            assert rows(connection) == kept
        # The upgraded database is read and kept up to date as before.
        table = standings.standings(db.session, standings.period("custom", None, None))
        assert [row.name for row in table][:1] and {row.name for row in table} == {
            "Ann",
            "Bob",
            "Cat",
            "Dan",
        }
        monkeypatch.setattr(games, "utcnow", lambda: datetime(2026, 3, 20))
        record(db.session, 5, 0, {1: 60})
        march = standings.standings(db.session, standings.period("custom", *march_days()))
        assert {row.name: row.games for row in march} == {"Ann": 2, "Dan": 1, "Eve": 1}
        db.session.remove()


def march_days():
    return datetime(2026, 3, 1).date(), datetime(2026, 3, 31).date()
