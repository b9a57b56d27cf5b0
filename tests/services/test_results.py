"""Results are stored when a game finishes; ratings follow, and are recomputed after any change."""

from __future__ import annotations

import flask_migrate
import pytest
import sqlalchemy as sa
from factories import entry, make_game, record
from openskill.models import PlackettLuce

from scorer.cli import bring_database_up_to_date
from scorer.extensions import db
from scorer.models import GameResult, RatingClock
from scorer.services import hands, results


def stored(session) -> list[tuple]:
    """Every stored result: (game, player, place, won, score, hands, points, biggest), in order."""
    session.expire_all()
    rows = session.execute(
        sa.select(
            GameResult.game_id,
            GameResult.player_id,
            GameResult.place,
            GameResult.won,
            GameResult.score,
            GameResult.hands_won,
            GameResult.points_won,
            GameResult.biggest_hand,
        ).order_by(GameResult.seq, GameResult.player_id)
    )
    return [tuple(row) for row in rows]


def ratings(session) -> dict[tuple[int, int], tuple[float, float, float]]:
    session.expire_all()
    rows = session.execute(
        sa.select(
            GameResult.game_id,
            GameResult.player_id,
            GameResult.mu,
            GameResult.sigma,
            GameResult.change,
        )
    )
    return {(game, player): (mu, sigma, change) for game, player, mu, sigma, change in rows}


def assert_same_ratings(found: dict, expected: dict) -> None:
    assert found.keys() == expected.keys()
    for key, values in expected.items():
        assert found[key] == pytest.approx(values, rel=1e-12, abs=1e-12), key


def a_few_evenings(session) -> list[int]:
    """Four finished games over five players in every mode, and one still being played."""
    first = make_game(session, ["Ann", "Bob", "Cat"], target=100)
    record(session, first, 0, {1: 60, 2: 50})
    second = make_game(session, ["Bob", "Cat", "Dan", "Eve"], mode="partners", target=100)
    record(session, second, 1, {0: 30, 2: 20})
    record(session, second, 0, {1: 70, 3: 40})
    third = make_game(session, ["Ann", "Dan", "Eve"], mode="challenge", target=50)
    record(session, third, 0, {1: 60, 2: 10})
    record(session, third, 2, {0: 55})
    fourth = make_game(session, ["Cat", "Ann"], target=50)
    record(session, fourth, 1, {0: 50})
    playing = make_game(session, ["Ann", "Bob"], target=500)
    record(session, playing, 0, {1: 10})
    return [first.id, second.id, third.id, fourth.id, playing.id]


def test_a_finished_game_stores_every_players_result(session):
    game = make_game(session, ["Ann", "Bob", "Cat"], target=100)
    record(session, game, 2, {0: 10, 1: 20})
    assert stored(session) == []
    record(session, game, 0, {1: 60, 2: 50})
    ann, bob, cat = (seat.player_id for seat in game.seats)
    assert stored(session) == [
        (game.id, ann, 1, True, 110, 1, 110, 110),
        (game.id, bob, 3, False, 0, 0, 0, 0),
        (game.id, cat, 2, False, 30, 1, 30, 30),
    ]
    assert session.get(RatingClock, 1).last_seq == 1


def test_recording_an_ordinary_hand_does_not_touch_results(session, count_queries):
    game = make_game(session, 3, target=500)
    with count_queries() as statements:
        record(session, game, 0, {1: 5, 2: 5})
    assert not [s for s in statements if "game_results" in s or "rating_clock" in s]


def test_ratings_are_openskill_called_directly_game_after_game(session):
    first = make_game(session, ["Ann", "Bob", "Cat"], target=100)
    record(session, first, 0, {1: 60, 2: 50})
    second = make_game(session, ["Cat", "Ann", "Bob", "Dan"], mode="partners", target=50)
    record(session, second, 0, {1: 30, 3: 30})
    ann, bob, cat = (seat.player_id for seat in first.seats)
    dan = second.seats[3].player_id

    model = PlackettLuce()
    # Bob and Cat both end on 0: they share second place.
    (a1,), (b1,), (c1,) = model.rate([[model.rating()] for _ in range(3)], ranks=[1, 2, 2])
    # Partners: Cat (seat 0) with Bob (seat 2) against Ann (seat 1) with Dan (seat 3).
    (c2, b2), (a2, d2) = model.rate([[c1, b1], [a1, model.rating()]], ranks=[1, 2])

    found = ratings(session)
    expected = {
        (first.id, ann): a1,
        (first.id, bob): b1,
        (first.id, cat): c1,
        (second.id, cat): c2,
        (second.id, bob): b2,
        (second.id, ann): a2,
        (second.id, dan): d2,
    }
    for key, rating in expected.items():
        assert found[key][:2] == pytest.approx((rating.mu, rating.sigma), rel=1e-12), key
    # The change is in the conservative estimate, from before the game to after it.
    assert found[(second.id, ann)][2] == pytest.approx(a2.ordinal() - a1.ordinal())
    assert found[(first.id, ann)][2] == pytest.approx(a1.ordinal() - 0, abs=1e-9)


def test_editing_a_finished_games_hand_recomputes_as_from_scratch(session):
    first, *_ = a_few_evenings(session)
    before = stored(session)
    # Hand 1 of the first game now went to Bob: he wins instead of Ann.
    hands.edit_hand(session, first, 1, entry(1, {0: 60, 2: 50}))
    after_edit = stored(session)
    assert after_edit != before
    assert [row[:4] for row in after_edit[:3]] == [
        (first, 1, 2, False),
        (first, 2, 1, True),
        (first, 3, 2, False),
    ]
    incremental = ratings(session)

    results.rebuild_all(session)
    assert stored(session) == after_edit
    assert_same_ratings(ratings(session), incremental)


def test_undoing_the_last_hand_of_a_finished_game_takes_its_results_away(session):
    ids = a_few_evenings(session)
    third = ids[2]
    hands.undo_last_hand(session, third, 2)
    assert third not in {row[0] for row in stored(session)}
    incremental = ratings(session)
    results.rebuild_all(session)
    assert_same_ratings(ratings(session), incremental)

    # Finished again, the game counts as finished now: after the games that finished meanwhile.
    record(session, third, 2, {0: 55})
    assert [row[0] for row in stored(session)][-3:] == [third] * 3
    incremental = ratings(session)
    results.rebuild_all(session)
    assert_same_ratings(ratings(session), incremental)


def test_rebuild_all_from_nothing_gives_what_the_games_gave(session):
    a_few_evenings(session)
    before, rated = stored(session), ratings(session)
    session.execute(sa.delete(GameResult))
    session.commit()
    assert results.rebuild_all(session) == 4
    assert stored(session) == before
    assert_same_ratings(ratings(session), rated)


@pytest.mark.fresh_database
def test_the_upgrade_path_rates_games_finished_before_the_results_tables(app):
    with app.app_context():
        session = db.session
        a_few_evenings(session)
        expected, rated = stored(session), ratings(session)
        session.remove()
        flask_migrate.downgrade(revision="0002")
        bring_database_up_to_date()
        assert stored(db.session) == expected
        assert_same_ratings(ratings(db.session), rated)
        assert db.session.get(RatingClock, 1).last_seq == 4
        db.session.remove()


def test_a_shared_individual_win_is_a_win_for_each_sharer_and_a_tie_in_the_rating(session):
    game = make_game(session, ["Ann", "Bob", "Cat", "Dan"], mode="individual")
    # Ann and Bob win 4 hands each, 3 points a hand; Cat and Dan 2 each, Cat with more points.
    for went_out in [0, 1] * 4 + [2, 2, 3, 3]:
        others = [seat for seat in range(4) if seat != went_out]
        record(session, game, went_out, dict.fromkeys(others, 2 if went_out == 2 else 1))
    ann, bob, cat, dan = (seat.player_id for seat in game.seats)
    assert stored(session) == [
        (game.id, ann, 1, True, 12, 4, 12, 3),
        (game.id, bob, 1, True, 12, 4, 12, 3),
        (game.id, cat, 3, False, 12, 2, 12, 6),
        (game.id, dan, 4, False, 6, 2, 6, 3),
    ]
    model = PlackettLuce()
    rated = model.rate([[model.rating()] for _ in range(4)], ranks=[1, 1, 3, 4])
    found = ratings(session)
    for player, (rating,) in zip((ann, bob, cat, dan), rated, strict=True):
        assert found[(game.id, player)][:2] == pytest.approx((rating.mu, rating.sigma), rel=1e-12)
    # 13 hands are refused, so the shared result stands; rebuilding from the hands agrees.
    before = stored(session)
    results.rebuild_all(session)
    assert stored(session) == before
