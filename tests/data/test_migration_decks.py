"""Migration 0006_decks: games written without a deck get the default deck from the database."""

from __future__ import annotations

import flask_migrate
import pytest
import sqlalchemy as sa

from scorer.extensions import db
from scorer.services import games

# The migrations run on the database itself, step by step, outside any test transaction.
pytestmark = pytest.mark.fresh_database

INSERT = sa.text(
    "INSERT INTO games (mode, target, first_dealer, created_at, updated_at, version)"
    " VALUES ('standard', 100, 0, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 0)"
)
DECK = sa.text("SELECT deck_copies, blanks, blank_value FROM games ORDER BY id")


def test_a_game_row_without_a_deck_gets_the_default_deck(app):
    with app.app_context():
        with db.engine.begin() as connection:
            connection.execute(INSERT)
            assert connection.execute(DECK).all() == [(1, 4, 50)]
        db.session.remove()


def test_down_to_0005_and_up_again_keeps_each_games_deck(app):
    with app.app_context():
        game_id = games.create_game(db.session, "standard", ["Ann", "Bob"]).id
        with db.engine.begin() as connection:
            connection.execute(
                sa.text("UPDATE games SET deck_copies = 2, blanks = 0, blank_value = 20")
            )
        db.session.remove()
        flask_migrate.downgrade(revision="0005_accounts")
        with db.engine.begin() as connection:
            assert connection.execute(DECK).all() == [(2, 0, 20)]
            # Before 0006 the database has no default for a deck.
            try:
                with connection.begin_nested():
                    connection.execute(INSERT)
            except sa.exc.IntegrityError:
                pass
            else:
                raise AssertionError("0005 took a game without a deck")
        flask_migrate.upgrade()
        view = games.load_game(db.session, game_id)
        # Copying the games table (SQLite) left the seats that point at it alone.
        assert view.names == ("Ann", "Bob")
        assert view.state.rules.deck.copies == 2
        db.session.remove()
        with db.engine.connect() as connection:
            if connection.dialect.name == "sqlite":
                # ...and turned foreign keys back on for whoever uses the connection next.
                assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
