"""Asking before a typed name joins the roster: "Annn" is more often Ann mistyped than new."""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from sqlalchemy import select

from ..database import DbSession
from ..field_rules import clean_name, name_key, name_problem
from ..models import Player

# How many close roster names are offered, and how close they must be (difflib's ratio, 0..1).
SUGGESTIONS = 3
CLOSENESS = 0.6
# Setup stops to ask only about a near miss: one letter off a name of three or more ("Anne",
# "Annn" for Ann), not two three-letter names sharing two letters (Ann and Dan).
SETUP_CLOSENESS = 0.75


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
        # A name that cannot be used is refused, saying why, rather than asked about.
        if key in known or key in agreed or not key or name_problem(name) is not None:
            continue
        return NewNameQuestion(field, clean_name(name), close_names(session, name))
    return None


def setup_question(
    session: DbSession, name: str, seated: Collection[str]
) -> NewNameQuestion | None:
    """Asked before a name typed in game setup is seated: a name new to the roster that resembles
    roster names not seated yet, with those names; None for any other name.

    Setup asks only about a likely typo, unlike the league form: a table's first game seats four
    new names, and four questions would stand between it and its first hand."""
    key = name_key(name)
    taken = {name_key(other) for other in seated}
    if not key or key in taken or name_problem(name) is not None:
        return None
    if session.scalar(select(Player.id).where(Player.name_key == key)) is not None:
        return None
    found = close_names(session, name, SETUP_CLOSENESS)
    close = tuple(known for known in found if name_key(known) not in taken)
    return NewNameQuestion("new_name", clean_name(name), close) if close else None


def close_names(session: DbSession, name: str, cutoff: float = CLOSENESS) -> tuple[str, ...]:
    """Roster names (archived ones left out) that look like `name`, closest first.

    Alike: spelt nearly the same once accents are set aside ("Annn", "Anne" and "Zoe" for Ann and
    Zoë: `cutoff` is how near), or one is the other's first name (Ann for "Ann Lee")."""
    names = {
        key: shown
        for key, shown in session.execute(
            select(Player.name_key, Player.name).where(Player.archived_at.is_(None))
        )
    }
    typed = _plain(name_key(name))
    scored = sorted(
        ((_closeness(typed, _plain(key)), shown) for key, shown in names.items()),
        key=lambda pair: (-pair[0], pair[1]),
    )
    return tuple(shown for score, shown in scored[:SUGGESTIONS] if score >= cutoff)


def _plain(key: str) -> str:
    """A name key without its accents: "zoë" is "zoe"."""
    parts = unicodedata.normalize("NFD", key)
    return unicodedata.normalize("NFC", "".join(c for c in parts if not unicodedata.combining(c)))


def _closeness(typed: str, known: str) -> float:
    """How alike two plain keys are, 0..1: difflib's ratio, or 1 when one is the other's first
    name ("ann" and "ann lee")."""
    if typed and known and (typed == known.split()[0] or known == typed.split()[0]):
        return 1.0
    return SequenceMatcher(None, typed, known).ratio()
