"""Abandoning, resuming and deleting games; standings and ratings follow."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from factories import make_game, record

from scorer.models import Fixture, Game, GameResult, Hand
from scorer.services import cleanup, games, leagues, results, standings
from scorer.services.errors import Conflict, NotFound


def everyone(session) -> dict[str, int]:
    """Games counted in the all-time standings, by player name."""
    return {row.name: row.games for row in standings.standings(session, standings.period("all"))}


def ratings(session) -> dict[tuple[int, int], tuple[float, float]]:
    session.expire_all()
    rows = session.execute(
        sa.select(GameResult.game_id, GameResult.player_id, GameResult.mu, GameResult.sigma)
    )
    return {(game, player): (mu, sigma) for game, player, mu, sigma in rows}


def test_an_abandoned_game_leaves_the_games_in_progress_and_comes_back_when_resumed(session):
    game = make_game(session, ["Ann", "Bob"], target=100)
    record(session, game, 0, {1: 30})
    version = game.version

    cleanup.abandon_game(session, game.id)

    playing, _finished = games.list_games(session)
    assert [view.game.id for view in playing] == []
    assert [view.game.id for view in games.abandoned_games(session)] == [game.id]
    assert games.version_of(session, game.id) == version + 1
    # Kept with its hands.
    assert session.scalar(sa.select(sa.func.count()).select_from(Hand)) == 1

    cleanup.resume_game(session, game.id)

    playing, _finished = games.list_games(session)
    assert [view.game.id for view in playing] == [game.id]
    assert games.abandoned_games(session) == []
    assert games.version_of(session, game.id) == version + 2


def test_no_hand_is_recorded_in_an_abandoned_game_until_it_is_resumed(session):
    game = make_game(session, ["Ann", "Bob"], target=100)
    record(session, game, 0, {1: 30})
    cleanup.abandon_game(session, game.id)

    with pytest.raises(Conflict, match="abandoned"):
        record(session, game.id, 1, {0: 120})
    assert everyone(session) == {}

    cleanup.resume_game(session, game.id)
    record(session, game.id, 1, {0: 120})
    assert everyone(session) == {"Ann": 1, "Bob": 1}


def test_a_finished_game_cannot_be_abandoned(session):
    game = make_game(session, ["Ann", "Bob"], target=100)
    record(session, game, 0, {1: 120})
    with pytest.raises(Conflict):
        cleanup.abandon_game(session, game.id)
    assert session.get(Game, game.id).abandoned_at is None
    assert everyone(session) == {"Ann": 1, "Bob": 1}


def test_deleting_a_finished_game_recomputes_standings_and_later_ratings(session):
    first = make_game(session, ["Ann", "Bob"], target=100)
    record(session, first, 0, {1: 120})
    second = make_game(session, ["Ann", "Bob", "Cat"], target=100)
    record(session, second, 1, {0: 60, 2: 70})
    third = make_game(session, ["Bob", "Cat"], target=100)
    record(session, third, 1, {0: 150})
    rematch = games.rematch(session, first.id)

    cleanup.delete_game(session, first.id)

    assert session.get(Game, first.id) is None
    assert session.get(Game, rematch.id).rematch_of_id is None
    assert everyone(session) == {"Ann": 1, "Bob": 2, "Cat": 2}
    after_delete = ratings(session)
    # The same ratings as if the deleted game had never been played.
    results.rebuild_all(session)
    assert after_delete.keys() == ratings(session).keys()
    for key, values in ratings(session).items():
        assert after_delete[key] == pytest.approx(values, rel=1e-12), key
    assert {game for game, _player in after_delete} == {second.id, third.id}


def test_deleting_a_game_in_progress_leaves_the_rest_alone(session):
    finished = make_game(session, ["Ann", "Bob"], target=100)
    record(session, finished, 0, {1: 120})
    before = ratings(session)
    playing = make_game(session, ["Ann", "Bob"], target=100)
    record(session, playing, 0, {1: 20})

    cleanup.delete_game(session, playing.id)

    assert session.get(Game, playing.id) is None
    assert ratings(session) == before
    assert session.scalar(sa.select(sa.func.count()).select_from(Hand)) == 1


def test_a_missing_game_is_not_found(session):
    for change in (cleanup.abandon_game, cleanup.resume_game, cleanup.delete_game):
        with pytest.raises(NotFound):
            change(session, 999)
        with pytest.raises(NotFound):
            change(session, 2**80)


def test_deleting_a_fixture_game_leaves_the_fixture_waiting_to_be_played(session):
    league = leagues.create_league(session, "Club", 100)
    leagues.register_team(session, league.id, "Ann", "Bob")
    leagues.register_team(session, league.id, "Cat", "Dan")
    leagues.add_season(session, league.id)
    game = leagues.start_fixture(session, 1)
    record(session, game, 0, {1: 120, 3: 0})

    cleanup.delete_game(session, game.id)

    session.expire_all()
    assert session.get(Fixture, 1).game_id is None
    assert [view.state for view in leagues.load_season(session, league.id, 1).fixtures] == [
        "waiting"
    ]
    assert everyone(session) == {}
