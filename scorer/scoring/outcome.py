"""What a hand gives, in words: the pad's summary ("Ann scores 101") and each side's effect
("Ann +101", partners "Ann & Cat +101", in Challenge UNO "Bob +12" for every counted player).

The sentences are templates passed in, not written here: the forms own them, the page's script gets
the same ones in the pad's data, and both fill a template the same way (each `{name}` replaced by
its value, nothing else). So the form's summary, the sync answer and the script say a hand alike,
and a translation changes the templates only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .game import Mode, Rules
from .words import fill, ngettext


@dataclass(frozen=True)
class HandOutcome:
    """A hand in words. `gains` is the points each side's total moves by, by side index; `effects`
    says each of those gains ("Ann +101") in seat order, and `brief` all of them in one line;
    `detail` says who went out and each count ("Ann went out · Bob 3 · Cat 0")."""

    summary: str
    effects: tuple[str, ...]
    brief: str
    gains: Mapping[int, int]
    detail: str


def challenge_words(count: int) -> str:
    """A Challenge hand's summary before its total is filled in: what the others take. The pad's
    script is sent it in each plural form of the reader's language (forms.hands.PLURAL_WORDS)."""
    return ngettext(
        "The others take {total} point between them.",
        "The others take {total} points between them.",
        count,
    )


def describe_hand(
    words: Mapping[str, str],
    rules: Rules,
    names: tuple[str, ...] | list[str],
    went_out: int | None,
    counted: Mapping[int, int],
) -> HandOutcome:
    """What saving a hand gives: `counted` is the points of every counted seat, in seat order as
    the pad's rows stand; `names` the players by seat.

    Words used: nobody, one, many, and, effect, list, went, count.
    """
    if went_out is None:
        return HandOutcome(words["nobody"], (), "", {}, "")
    total = sum(counted.values())
    each = [fill(words["count"], name=names[seat], points=n) for seat, n in counted.items()]
    detail = words["list"].join([fill(words["went"], name=names[went_out]), *each])
    if rules.mode is Mode.CHALLENGE:
        gains: dict[int, int] = {}
        effects = []
        for seat, points in counted.items():
            side = rules.side_of(seat)
            gains[side] = gains.get(side, 0) + points
            effects.append(fill(words["effect"], names=names[seat], points=points))
        summary = fill(challenge_words(total), total=total)
        return HandOutcome(summary, tuple(effects), words["list"].join(effects), gains, detail)
    side = rules.side_of(went_out)
    seats = rules.sides[side]
    team = words["and"].join(names[seat] for seat in seats)
    summary = fill(words["many" if len(seats) > 1 else "one"], names=team, total=total)
    effect = fill(words["effect"], names=team, points=total)
    return HandOutcome(summary, (effect,), effect, {side: total}, detail)
