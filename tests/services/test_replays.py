"""Replays kept by game and version: used when current, never once the game has moved on."""

from datetime import datetime

import pytest
import sqlalchemy as sa
from factories import entry, make_game, record

from scorer.models import Game
from scorer.services import games, hands, snapshots


def scores(view) -> list[int]:
    return [side.score for side in view.state.sides]


def reads_of_hands(statements: list[str]) -> list[str]:
    return [statement for statement in statements if "hand_counts" in statement]


def test_a_game_read_again_at_the_same_version_is_not_replayed_again(session, count_queries):
    game = make_game(session, 3)
    record(session, game, 0, {1: 10, 2: 20})
    session.expire_all()
    with count_queries() as statements:
        view = games.load_game(session, game.id)
    assert reads_of_hands(statements) == []
    assert scores(view) == [30, 0, 0]


def test_every_change_is_seen_at_once(session):
    game = make_game(session, 3, target=1000)
    record(session, game, 0, {1: 10, 2: 20})
    assert scores(games.load_game(session, game.id)) == [30, 0, 0]
    hands.edit_hand(session, game.id, 1, entry(1, {0: 5, 2: 5}))
    assert scores(games.load_game(session, game.id)) == [0, 10, 0]
    record(session, game, 2, {0: 7, 1: 8})
    assert scores(games.load_game(session, game.id)) == [0, 10, 15]
    hands.undo_last_hand(session, game.id, 2)
    assert scores(games.load_game(session, game.id)) == [0, 10, 0]


def test_a_version_never_replayed_is_read_from_the_database(session, count_queries):
    game = make_game(session, 2, target=1000)
    record(session, game, 0, {1: 10})
    games.load_game(session, game.id)
    session.execute(sa.update(Game).where(Game.id == game.id).values(version=Game.version + 1))
    session.commit()
    session.expire_all()
    with count_queries() as statements:
        view = games.load_game(session, game.id)
    assert reads_of_hands(statements) != []
    assert view.version == 2 and scores(view) == [10, 0]


def test_a_save_that_fails_leaves_nothing_behind(session, monkeypatch):
    game = make_game(session, 2, target=1000)
    record(session, game, 0, {1: 10})

    def fail() -> None:
        raise sa.exc.OperationalError("COMMIT", {}, Exception("disk I/O error"))

    monkeypatch.setattr(session, "commit", fail)
    with pytest.raises(sa.exc.OperationalError):
        hands.record_hand(session, game.id, 2, entry(1, {0: 99}))
    monkeypatch.undo()
    session.rollback()
    assert snapshots.kept_replay(session, game, 2) is None
    # Another phone's hand 2 then takes version 2: its own, not the failed one's.
    record(session, game, 0, {1: 5})
    assert scores(games.load_game(session, game.id)) == [15, 0]


def test_a_game_of_another_database_with_the_same_id_and_version_is_not_taken(session):
    game = make_game(session, 2, target=1000)
    record(session, game, 0, {1: 10})
    games.load_game(session, game.id)
    assert snapshots.kept_replay(session, game, 1) is not None
    restored = Game(id=game.id, created_at=datetime(2020, 1, 1), version=1)
    assert snapshots.kept_replay(session, restored, 1) is None
