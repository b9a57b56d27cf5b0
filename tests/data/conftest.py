"""Fixtures for the data-safety tests: what the database holds, read straight from its tables."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator

import pytest
import sqlalchemy as sa
from flask import Flask
from flask_migrate import upgrade

from scorer import create_app, scoring, with_driver
from scorer.extensions import db
from scorer.models import Game, Hand, HandCount
from scorer.services import snapshots


def consistency_problems(session, game_id: int) -> list[str]:
    """Everything wrong with a stored game: each fact is checked against the tables themselves.

    Hands numbered 1..n without gaps, each a hand the rules accept after the ones before it, every
    count belonging to a stored hand, and `finished_at` agreeing with the replayed game.
    """
    session.expire_all()
    game = session.get(Game, game_id)
    numbers = list(
        session.scalars(sa.select(Hand.number).where(Hand.game_id == game_id).order_by(Hand.number))
    )
    problems = []
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append(f"hand numbers {numbers}")
    orphans = session.scalar(
        sa.select(sa.func.count())
        .select_from(HandCount)
        .outerjoin(Hand, Hand.id == HandCount.hand_id)
        .where(Hand.id.is_(None))
    )
    if orphans:
        problems.append(f"{orphans} counts without a hand")
    # Replayed hand by hand here: load_game refuses a game that does not fit the rules.
    state = scoring.new_game(snapshots.rules_of(game))
    for row in game.hands:
        hand = snapshots.hand_of(row)
        for problem in scoring.hand_problems(state, hand, row.number):
            problems.append(f"hand {row.number}: {problem.message}")
        state = scoring.play(state, hand)
    if (game.finished_at is not None) != state.finished:
        problems.append(f"finished_at {game.finished_at} but finished={state.finished}")
    return problems


@pytest.fixture
def check(app: Flask) -> Callable[[int], list[str]]:
    """consistency_problems of a game, in a session of its own."""

    def problems(game_id: int) -> list[str]:
        with app.app_context():
            try:
                return consistency_problems(db.session, game_id)
            finally:
                db.session.remove()

    return problems


@pytest.fixture
def other_app(backend: str, tmp_path) -> Iterator[Flask]:
    """A second server: the app on another empty, migrated database of the same kind as `app`'s."""
    if backend == "postgresql":
        url = with_driver(os.environ["TEST_DATABASE_URL"])
        schema = f"test_{os.getpid()}_other_{uuid.uuid4().hex[:8]}"
        admin = sa.create_engine(url, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
        separator = "&" if "?" in url else "?"
        url = f"{url}{separator}options=-csearch_path%3D{schema}"
    else:
        url = f"sqlite:///{tmp_path / 'other.sqlite'}"
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test secret",
            "SQLALCHEMY_DATABASE_URI": url,
            "WTF_CSRF_ENABLED": False,
        }
    )
    try:
        with app.app_context():
            upgrade()
        yield app
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
        if backend == "postgresql":
            with admin.connect() as connection:
                connection.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
            admin.dispose()
