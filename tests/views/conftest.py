"""Fixtures for view tests."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import sqlalchemy as sa
from factories import make_game, record
from flask import Flask
from flask.testing import FlaskClient

from scorer.extensions import db, rate_limiter
from scorer.scoring import GameState
from scorer.services import games
from scorer.services.accounts import add_user


@pytest.fixture
def rows(app: Flask) -> Callable[[str], int]:
    """How many rows a table holds right now, read outside any request's session."""

    def count(table: str) -> int:
        with app.app_context():
            return db.session.scalar(sa.select(sa.func.count()).select_from(sa.table(table)))

    return count


@pytest.fixture
def new_game(app: Flask) -> Callable[..., int]:
    """Start a game through the services (see factories.make_game) and give its id."""

    def start(*args, **kwargs) -> int:
        with app.app_context():
            return make_game(db.session, *args, **kwargs).id

    return start


@pytest.fixture
def play(app: Flask) -> Callable[..., GameState]:
    """Record the next hand of a game through the services (see factories.record)."""

    def record_next(game_id: int, went_out: int, counts, number: int | None = None) -> GameState:
        with app.app_context():
            return record(db.session, game_id, went_out, counts, number).state

    return record_next


@pytest.fixture
def state_of(app: Flask) -> Callable[[int], GameState]:
    """A game's state as the database has it now."""

    def load(game_id: int) -> GameState:
        with app.app_context():
            return games.load_game(db.session, game_id).state

    return load


# The owner's password in the view tests that sign in.
PASSWORD = "correct horse battery"


@pytest.fixture
def organiser(app: Flask) -> FlaskClient:
    """A signed-in user on a server in owner mode."""
    with app.app_context():
        rate_limiter.reset()
        add_user(db.session, "Owner", PASSWORD)
    client = app.test_client()
    signed_in = client.post("/login", data={"name": "Owner", "password": PASSWORD, "next": "/"})
    assert signed_in.status_code == 303
    return client
