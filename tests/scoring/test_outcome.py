"""A hand in words: one function says it for the form, the sync answer and the pad's templates."""

from __future__ import annotations

import pytest

from scorer.scoring import Mode, Rules, describe_hand, fill

WORDS = {
    "nobody": "Tap who went out.",
    "one": "{names} scores {total}",
    "many": "{names} score {total}",
    "challenge": "The others take {total} points between them.",
    "and": " & ",
    "effect": "{names} +{points}",
    "list": " · ",
    "went": "{name} went out",
    "count": "{name} {points}",
}
NAMES = ("Ann", "Bob", "Cat", "Dan")


@pytest.mark.parametrize(
    ("mode", "went_out", "counted", "summary", "effects", "gains"),
    [
        (Mode.STANDARD, 0, {1: 60, 2: 41, 3: 0}, "Ann scores 101", ("Ann +101",), {0: 101}),
        (Mode.PARTNERS, 2, {1: 60, 3: 41}, "Ann & Cat score 101", ("Ann & Cat +101",), {0: 101}),
        (
            Mode.CHALLENGE,
            1,
            {0: 7, 2: 12, 3: 0},
            "The others take 19 points between them.",
            ("Ann +7", "Cat +12", "Dan +0"),
            {0: 7, 2: 12, 3: 0},
        ),
        (Mode.INDIVIDUAL, 3, {0: 5, 1: 6, 2: 7}, "Dan scores 18", ("Dan +18",), {3: 18}),
    ],
)
def test_each_mode_says_what_a_hand_gives(mode, went_out, counted, summary, effects, gains):
    outcome = describe_hand(WORDS, Rules(mode, 4), NAMES, went_out, counted)
    assert outcome.summary == summary
    assert outcome.effects == effects
    assert outcome.brief == " · ".join(effects)
    assert outcome.gains == gains


def test_the_detail_names_who_went_out_and_each_count():
    outcome = describe_hand(WORDS, Rules(Mode.STANDARD, 3), NAMES[:3], 1, {0: 30, 2: 0})
    assert outcome.detail == "Bob went out · Ann 30 · Cat 0"


def test_nobody_chosen_yet_asks_who_went_out():
    outcome = describe_hand(WORDS, Rules(Mode.STANDARD, 3), NAMES[:3], None, {})
    assert (outcome.summary, outcome.effects, outcome.gains) == ("Tap who went out.", (), {})


def test_a_name_with_braces_is_filled_in_once_as_the_script_does():
    # The script replaces each placeholder once and never reads a value for placeholders.
    outcome = describe_hand(WORDS, Rules(Mode.STANDARD, 2), ("{total}", "Bob"), 0, {1: 5})
    assert outcome.summary == "{total} scores 5"
    assert fill("{a} and {a}", a="x") == "x and x"
