"""Scorer links: a token a signed-in user hands a table, which lets whoever opens it record that
game's hands and nothing else, until it is revoked, replaced or the game ends.

Only the token's digest is stored. Which links a browser opened is kept in its session cookie
(scorer.access); this module answers whether a link still works.
"""

from __future__ import annotations

import hmac
import secrets

from sqlalchemy import delete, exists, select

from ..database import DbSession
from ..models import Game, ScorerLink, secret_digest
from .transactions import in_transaction


def issue_scorer_link(session: DbSession, game_id: int) -> str:
    """A new scorer link token for the game, replacing (so revoking) any it had; shown once."""
    token = secrets.token_urlsafe(32)
    with in_transaction(session):
        session.execute(delete(ScorerLink).where(ScorerLink.game_id == game_id))
        session.add(ScorerLink(game_id=game_id, digest=secret_digest(token)))
    return token


def issue_scorer_links(session: DbSession, game_ids: list[int]) -> dict[int, str]:
    """A new scorer link for each of these games at once (a round of a league night), replacing
    any each had: game id -> token, shown once."""
    tokens = {game_id: secrets.token_urlsafe(32) for game_id in game_ids}
    if not tokens:
        return tokens
    with in_transaction(session):
        session.execute(delete(ScorerLink).where(ScorerLink.game_id.in_(list(tokens))))
        session.add_all(
            ScorerLink(game_id=game_id, digest=secret_digest(token))
            for game_id, token in tokens.items()
        )
    return tokens


def revoke_scorer_link(session: DbSession, game_id: int) -> None:
    """The game's scorer link stops working, for every phone that opened it."""
    with in_transaction(session):
        session.execute(delete(ScorerLink).where(ScorerLink.game_id == game_id))


def has_scorer_link(session: DbSession, game_id: int) -> bool:
    """Whether the game has a scorer link out."""
    return bool(session.scalar(select(exists().where(ScorerLink.game_id == game_id))))


def scorer_link_holds(session: DbSession, game_id: int, digest: str) -> bool:
    """Whether `digest` is that of the game's scorer link, and the game is not over."""
    stored = session.scalar(
        select(ScorerLink.digest)
        .join(Game, Game.id == ScorerLink.game_id)
        .where(ScorerLink.game_id == game_id, Game.finished_at.is_(None))
    )
    return stored is not None and hmac.compare_digest(stored, digest)
