"""Asking before a typed name joins the roster: "Annn" is more often Ann mistyped than new."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from difflib import get_close_matches

from sqlalchemy import select

from ..database import DbSession
from ..models import Player
from .players import clean_name, name_key

# How many close roster names are offered, and how close they must be (difflib's ratio, 0..1).
SUGGESTIONS = 3
CLOSENESS = 0.6


@dataclass(frozen=True)
class NewNameQuestion:
    """ "Add new player Annn?": the field holding the name, and roster names it may have meant."""

    field: str
    name: str
    suggestions: tuple[str, ...]


def question(
    session: DbSession, typed: Sequence[tuple[str, str]], confirmed: Collection[str]
) -> NewNameQuestion | None:
    """The first (field, name) in `typed` not on the roster nor confirmed as new, or None.

    `confirmed` holds names the user already said are new; they are compared ignoring case.
    """
    keys = [name_key(name) for _field, name in typed]
    known = set(session.scalars(select(Player.name_key).where(Player.name_key.in_(keys))))
    agreed = {name_key(name) for name in confirmed}
    for (field, name), key in zip(typed, keys, strict=True):
        if key in known or key in agreed or not key:
            continue
        return NewNameQuestion(field, clean_name(name), close_names(session, name))
    return None


def close_names(session: DbSession, name: str) -> tuple[str, ...]:
    """Roster names (archived ones left out) that look like `name`, closest first."""
    names = {
        key: shown
        for key, shown in session.execute(
            select(Player.name_key, Player.name).where(Player.archived_at.is_(None))
        )
    }
    found = get_close_matches(name_key(name), list(names), n=SUGGESTIONS, cutoff=CLOSENESS)
    return tuple(names[key] for key in found)
