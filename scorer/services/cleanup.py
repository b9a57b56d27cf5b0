"""Clearing clutter: setting a game aside (abandoning it), taking it up again, deleting it.

An abandoned game keeps its hands but is neither in progress nor counted: only unfinished games can
be abandoned, and no hand can be recorded, edited or undone in one until it is resumed, so it never
has results while it is set aside. Deleting a finished game takes its results away and re-rates
every game after it, in the same transaction.
"""

from __future__ import annotations

from flask_babel import gettext as _
from sqlalchemy import update

from ..database import DbSession
from ..field_rules import is_id
from ..models import Game, utcnow
from . import results
from .errors import Conflict, NotFound
from .transactions import in_transaction, lock_game


def abandon_game(session: DbSession, game_id: int) -> Game:
    """Set an unfinished game aside; a game already set aside stays as it is."""
    with in_transaction(session):
        game = _locked(session, game_id)
        if game.abandoned_at is None:
            if game.finished_at is not None:
                raise Conflict(_("This game is over: only a game in progress can be abandoned."))
            game.abandoned_at = utcnow()
            _changed(game)
    return game


def resume_game(session: DbSession, game_id: int) -> Game:
    """Take an abandoned game up again: it is in progress once more."""
    with in_transaction(session):
        game = _locked(session, game_id)
        if game.abandoned_at is not None:
            game.abandoned_at = None
            _changed(game)
    return game


def delete_game(session: DbSession, game_id: int) -> None:
    """Delete a game with its hands; standings and ratings are computed again without it."""
    with in_transaction(session):
        game = _locked(session, game_id)
        seq = results.game_removed(session, game_id)
        # A rematch of this game stays, no longer pointing back at it.
        session.execute(
            update(Game)
            .where(Game.rematch_of_id == game_id)
            .values(rematch_of_id=None)
            .execution_options(synchronize_session=False)
        )
        session.delete(game)
        session.flush()
        if seq is not None:
            results.recompute_from(session, seq)


def refuse_if_abandoned(game: Game) -> None:
    """Conflict for a change to the hands of a game that was set aside."""
    if game.abandoned_at is not None:
        raise Conflict(_("This game was abandoned; resume it to record hands again."))


def _locked(session: DbSession, game_id: int) -> Game:
    """The game, its row held until the transaction ends."""
    if not is_id(game_id) or lock_game(session, game_id) is None:
        raise NotFound(_("There is no such game."))
    # Forget what this session read before the lock, so the game is read as the lock holds it.
    session.expire_all()
    game = session.get(Game, game_id)
    if game is None:
        raise NotFound(_("There is no such game."))
    return game


def _changed(game: Game) -> None:
    # Open pages poll the version: they see at once that the game was set aside or taken up.
    game.version += 1
    game.updated_at = utcnow()
