"""One way to write: a change is committed whole or rolled back whole; games are locked by name."""

import pytest
import sqlalchemy as sa
from factories import make_game, record

from scorer.models import Player
from scorer.scoring import Rejected
from scorer.services import leagues
from scorer.services.transactions import in_transaction, lock_game


def names(session) -> list[str]:
    return list(session.scalars(sa.select(Player.name).order_by(Player.name)))


def test_a_block_that_ends_is_committed(session):
    with in_transaction(session):
        session.add(Player(name="Ann", name_key="ann"))
    session.rollback()
    assert names(session) == ["Ann"]


def test_a_block_that_raises_leaves_nothing_behind(session):
    with pytest.raises(LookupError), in_transaction(session):
        session.add(Player(name="Ann", name_key="ann"))
        session.flush()
        raise LookupError
    assert names(session) == []


def test_a_refused_change_is_rolled_back_by_the_service_itself(session):
    league = leagues.create_league(session, "Friday", 500)
    leagues.register_team(session, league.id, "Ann", "Bob")
    with pytest.raises(Rejected):
        # Cat joins the roster before Ann is found to play for a team already.
        leagues.register_team(session, league.id, "Ann", "Cat")
    assert "Cat" not in names(session)


def test_the_game_lock_gives_the_version_it_holds(session):
    game = make_game(session, 2, target=1000)
    record(session, game, 0, {1: 10})
    with in_transaction(session):
        assert lock_game(session, game.id) == 1
        assert lock_game(session, game.id + 1) is None
