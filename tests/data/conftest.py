"""Fixtures for the data-safety tests: what the database holds, read straight from its tables."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
import sqlalchemy as sa
from conftest import close, make_app
from flask import Flask

from scorer import scoring
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
def other_app(backend: str, databases, tmp_path) -> Iterator[Flask]:
    """A second server: the app on another empty, migrated database of the same kind as `app`'s."""
    app = make_app(databases.fresh(backend, tmp_path, second=True), migrate=False)
    yield app
    close(app)
