"""The roster: players are matched by name, ignoring case, so the same person is one entry."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..limits import PLAYER_NAME, clean_name
from ..models import Player, Seat
from ..scoring import Problem


def name_key(name: str) -> str:
    """What two names must share to be the same roster entry."""
    return clean_name(name).casefold()


def name_problem(name: str) -> str | None:
    """Why a player's name cannot be used, or None."""
    return PLAYER_NAME.problem(name)


def duplicate_problems(names: Sequence[str]) -> list[Problem]:
    """A problem for every name that appears twice (ignoring case) in one game."""
    seen: set[str] = set()
    problems = []
    for name in names:
        key = name_key(name)
        if key in seen:
            problems.append(Problem(f"{clean_name(name)} is already playing.", "players"))
        seen.add(key)
    return problems


def roster(session: Session, archived: bool = False) -> list[Player]:
    """Everyone on the roster, most often seated first, then by name; the archived only if asked."""
    games_played = func.count(Seat.id)
    query = (
        select(Player)
        .outerjoin(Seat, Seat.player_id == Player.id)
        .group_by(Player.id)
        .order_by(games_played.desc(), Player.name_key)
    )
    if not archived:
        query = query.where(Player.archived_at.is_(None))
    return list(session.scalars(query))


def find_or_add(session: Session, names: Sequence[str]) -> list[Player]:
    """The roster entries for `names`, in order, adding those not on the roster yet."""
    keys = [name_key(name) for name in names]
    known = {
        player.name_key: player
        for player in session.scalars(select(Player).where(Player.name_key.in_(keys)))
    }
    players = []
    for name, key in zip(names, keys, strict=True):
        if key not in known:
            known[key] = Player(name=clean_name(name), name_key=key)
            session.add(known[key])
        players.append(known[key])
    return players
