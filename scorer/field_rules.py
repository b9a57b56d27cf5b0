"""Limits on names and numbers, with the words that explain them: one place for all the doors.

The setup and league forms, the services behind them, the JSON API and a backup being restored all
read their name and number rules from here, so a name one of them refuses is refused by every one,
in the same words; and every one stores and compares a name the same way (clean_name, name_key).
Pure Python: nothing from Flask, SQLAlchemy or WTForms.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from .scoring import MAX_TARGET, Problem, target_too_high_words, target_words
from .scoring.words import N_
from .scoring.words import gettext as _

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

# Unicode categories no name needs and databases may refuse: control characters (NUL among them)
# and lone surrogates, which cannot be encoded as UTF-8.
CONTROL_CATEGORIES = ("Cc", "Cs")

# Unicode's default-ignorable code points (DerivedCoreProperties.txt): characters a font draws as
# nothing, such as zero-width spaces and joiners, the soft hyphen, the Hangul fillers, direction
# marks and variation selectors. Python's unicodedata does not expose the property, and the list
# changes rarely. A name is compared without them, and they are not stored where they join nothing.
_IGNORABLE_RANGES = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
# Drawn as an empty cell, so a name of them looks blank: taken as white space.
BLANK_LOOKING: dict[str, str | int | None] = {"\u2800": " "}  # braille pattern blank
# Embeddings, overrides and isolates reorder the text around them: "Ann\u202egnp.exe" shows as
# "Annexe.png". A name never needs them, so they are refused rather than dropped, to say why.
DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Ignorables that change how the visible character before them is drawn: joiners that make one
# emoji of several or join letters in Arabic and Indic scripts, variation selectors, emoji tags.
# Kept after a visible character (joiners only between two), dropped anywhere else.
_JOINERS = frozenset("\u200c\u200d")


def _is_ignorable(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _IGNORABLE_RANGES)


def _modifies_previous(char: str) -> bool:
    code = ord(char)
    return 0xFE00 <= code <= 0xFE0F or 0xE0020 <= code <= 0xE007F or 0xE0100 <= code <= 0xE01EF


def is_visible(char: str) -> bool:
    """Whether `char` shows something by itself: not white space, not a mark that only changes
    the character before it, not a control or format character, nor one drawn as nothing."""
    if _is_ignorable(char) or char in BLANK_LOOKING or char.isspace():
        return False
    return unicodedata.category(char)[0] not in "MCZ" or unicodedata.category(char) in ("Co", "Cn")


def _without_stray_ignorables(text: str) -> str:
    kept: list[str] = []
    for index, char in enumerate(text):
        if char in DIRECTION_CONTROLS or not _is_ignorable(char):
            kept.append(char)
            continue
        before = kept[-1] if kept else ""
        after = text[index + 1] if index + 1 < len(text) else ""
        attached = bool(before) and (is_visible(before) or _modifies_previous(before))
        joins = char in _JOINERS and bool(after) and is_visible(after)
        if attached and (joins or _modifies_previous(char)):
            kept.append(char)
    return "".join(kept)


def clean_name(name: str) -> str:
    """A name as stored: compatibility-normalised (NFKC: full-width letters become the ordinary
    ones), characters drawn as nothing dropped unless they join two visible ones, trimmed, and
    inner runs of white space made one space.

    Direction controls are kept, so that the rule can refuse a name holding them."""
    text = unicodedata.normalize("NFKC", name).translate(str.maketrans(BLANK_LOOKING))
    return " ".join(_without_stray_ignorables(" ".join(text.split())).split())


def name_key(name: str) -> str:
    """What two names must share to be the same name: the cleaned name without any character drawn
    as nothing, ignoring case and width. Ann, ANN, "Ann\u200b" and full-width "Ａｎｎ" share one."""
    visible = "".join(char for char in clean_name(name) if not _is_ignorable(char))
    folded = unicodedata.normalize("NFKC", " ".join(visible.split()).casefold())
    return " ".join(folded.split())


def has_control_characters(text: str) -> bool:
    """Whether `text` holds a control character or a lone surrogate."""
    return any(unicodedata.category(char) in CONTROL_CATEGORIES for char in text)


def has_direction_controls(text: str) -> bool:
    """Whether `text` holds a character that reorders the text around it."""
    return any(char in DIRECTION_CONTROLS for char in text)


@dataclass(frozen=True)
class NameWords:
    """What is said of a name of one kind that breaks the rule, each sentence whole, in English
    (a language may agree its words with the kind of name), said in the reader's language when a
    name is refused. `%(max)s` in `too_long` is the rule's length."""

    too_long: str
    unseen: str
    control: str
    direction: str


@dataclass(frozen=True)
class NameRule:
    """What a name of one kind may be: its length once cleaned, something to see, no control
    characters nor any that turn text around, and whether blank is allowed (`blank` is the
    message when it is not, in English, said in the reader's language when refused)."""

    max_length: int
    blank: str | None
    words: NameWords

    @property
    def too_long(self) -> str:
        return _(self.words.too_long, max=self.max_length)

    @property
    def hint(self) -> str:
        """The limit, said where the name is typed. Boxes take any length rather than cut a pasted
        name short without a word (as maxlength does); a longer one is refused, saying why."""
        return _("Up to %(max)s characters.", max=self.max_length)

    @property
    def unseen(self) -> str:
        return _(self.words.unseen)

    @property
    def control(self) -> str:
        return _(self.words.control)

    @property
    def direction(self) -> str:
        return _(self.words.direction)

    def problem(self, name: str) -> str | None:
        """Why `name`, once cleaned, cannot be stored, or None."""
        cleaned = clean_name(name)
        if not cleaned:
            # Characters drawn as nothing are no name, and say so; white space alone is blank.
            if name.split():
                return self.unseen
            return None if self.blank is None else _(self.blank)
        if len(cleaned) > self.max_length:
            return self.too_long
        if has_control_characters(cleaned):
            return self.control
        if has_direction_controls(cleaned):
            return self.direction
        if not any(map(is_visible, cleaned)):
            return self.unseen
        return None

    def stored_problem(self, name: str) -> str | None:
        """Why `name`, exactly as given (as a restore stores it, without cleaning), cannot be
        stored, or None."""
        return self.too_long if len(name) > self.max_length else self.problem(name)


PLAYER_NAME = NameRule(
    NAME_MAX_LENGTH,
    N_("Type a name."),
    NameWords(
        too_long=N_("Names are at most %(max)s characters."),
        unseen=N_("Names need a letter, digit or sign that can be seen."),
        control=N_("Names cannot contain control characters."),
        direction=N_("Names cannot contain characters that change the direction of text."),
    ),
)
TEAM_NAME = NameRule(
    TEAM_NAME_MAX_LENGTH,
    None,
    NameWords(
        too_long=N_("Team names are at most %(max)s characters."),
        unseen=N_("Team names need a letter, digit or sign that can be seen."),
        control=N_("Team names cannot contain control characters."),
        direction=N_("Team names cannot contain characters that change the direction of text."),
    ),
)
LEAGUE_NAME = NameRule(
    TEAM_NAME_MAX_LENGTH,
    N_("Type a name for the league."),
    NameWords(
        too_long=N_("League names are at most %(max)s characters."),
        unseen=N_("League names need a letter, digit or sign that can be seen."),
        control=N_("League names cannot contain control characters."),
        direction=N_("League names cannot contain characters that change the direction of text."),
    ),
)
USER_NAME = NameRule(
    NAME_MAX_LENGTH,
    N_("Type a user name."),
    NameWords(
        too_long=N_("User names are at most %(max)s characters."),
        unseen=N_("User names need a letter, digit or sign that can be seen."),
        control=N_("User names cannot contain control characters."),
        direction=N_("User names cannot contain characters that change the direction of text."),
    ),
)


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
            problems.append(Problem(already_playing(name), "players"))
        seen.add(key)
    return problems


def already_playing(name: str) -> str:
    """Why `name` cannot be seated twice in one game, in the reader's language."""
    return _("%(name)s is already playing.", name=clean_name(name))


def target_problem(target: object) -> str | None:
    """Why `target` cannot be a league's target, or None: the words of scorer.scoring's
    setup_problems, which checks a game's target (a test holds the two together), so the forms and
    the league service say them before the rules are asked."""
    if isinstance(target, bool) or not isinstance(target, int) or target < 1:
        return target_words()
    return target_too_high_words() if target > MAX_TARGET else None


def is_id(value: object) -> bool:
    """Whether `value` can be a row id: a whole number from 1 to ID_MAX (never a bool)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= ID_MAX
