"""Limits on names and numbers, with the words that explain them: one place for all the doors.

The setup and league forms, the services behind them, the JSON API and a backup being restored all
read their name and number rules from here, so a name one of them refuses is refused by every one,
in the same words. Pure Python: nothing from Flask, SQLAlchemy or WTForms.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from .scoring import MAX_TARGET

# Column sizes: a name is stored in a VARCHAR of this many characters.
NAME_MAX_LENGTH = 40
TEAM_NAME_MAX_LENGTH = 60
# The largest whole number an integer column holds on every database we support (ids, targets).
ID_MAX = 2**31 - 1
# The years of the moments a backup may hold (UTC): a score keeper has nothing from before 1970,
# and a moment near year 1 or 9999 overflows as soon as anything adds a time zone or a day to it.
FIRST_YEAR = 1970
LAST_YEAR = 9998
PASSWORD_MAX_LENGTH = 1024
PASSWORD_MIN_LENGTH = 8

# The same words as scorer.scoring.setup_problems, which checks a game's target (a test holds the
# two together): the forms and the league service say them before the rules are asked.
TARGET_MESSAGE = "The target must be a whole number of points above 0."
TARGET_TOO_HIGH = f"The target can be at most {MAX_TARGET:,} points."

# Unicode categories no name needs and databases may refuse: control characters (NUL among them)
# and lone surrogates, which cannot be encoded as UTF-8.
CONTROL_CATEGORIES = ("Cc", "Cs")


def clean_name(name: str) -> str:
    """A name as stored: Unicode-normalised, trimmed, inner runs of white space made one space."""
    return " ".join(unicodedata.normalize("NFC", name).split())


def has_control_characters(text: str) -> bool:
    """Whether `text` holds a control character or a lone surrogate."""
    return any(unicodedata.category(char) in CONTROL_CATEGORIES for char in text)


@dataclass(frozen=True)
class NameRule:
    """What a name of one kind may be: its length, no control characters, and whether blank is
    allowed (`blank` is the message when it is not)."""

    what: str
    max_length: int
    blank: str | None

    @property
    def too_long(self) -> str:
        return f"{self.what} are at most {self.max_length} characters."

    def problem(self, name: str) -> str | None:
        """Why `name`, once cleaned, cannot be stored, or None."""
        cleaned = clean_name(name)
        if not cleaned:
            return self.blank
        if len(cleaned) > self.max_length:
            return self.too_long
        if has_control_characters(cleaned):
            return f"{self.what} cannot contain control characters."
        return None

    def stored_problem(self, name: str) -> str | None:
        """Why `name`, exactly as given (as a restore stores it, without cleaning), cannot be
        stored, or None."""
        return self.too_long if len(name) > self.max_length else self.problem(name)


PLAYER_NAME = NameRule("Names", NAME_MAX_LENGTH, "Type a name.")
TEAM_NAME = NameRule("Team names", TEAM_NAME_MAX_LENGTH, None)
LEAGUE_NAME = NameRule("League names", TEAM_NAME_MAX_LENGTH, "Type a name for the league.")
USER_NAME = NameRule("User names", NAME_MAX_LENGTH, "Type a user name.")


def target_problem(target: object) -> str | None:
    """Why `target` cannot be a league's target, or None."""
    if isinstance(target, bool) or not isinstance(target, int) or target < 1:
        return TARGET_MESSAGE
    return TARGET_TOO_HIGH if target > MAX_TARGET else None


def is_id(value: object) -> bool:
    """Whether `value` can be a row id: a whole number from 1 to ID_MAX (never a bool)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= ID_MAX
