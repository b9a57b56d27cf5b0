"""Names a person can see and tell apart: the one rule the forms, the API and a restore share."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer import field_rules
from scorer.field_rules import (
    LEAGUE_NAME,
    PLAYER_NAME,
    TEAM_NAME,
    clean_name,
    duplicate_problems,
    name_key,
    name_problem,
)

# Characters a font draws as nothing, each of a different kind.
INVISIBLE = [
    "\u200b",  # zero-width space
    "\u200c",  # zero-width non-joiner
    "\u200d",  # zero-width joiner
    "\u2060",  # word joiner
    "\u00ad",  # soft hyphen
    "\ufeff",  # byte order mark
    "\u200e",  # left-to-right mark
    "\u200f",  # right-to-left mark
    "\u3164",  # Hangul filler
    "\u115f",  # Hangul choseong filler
    "\u1160",  # Hangul jungseong filler
    "\uffa0",  # half-width Hangul filler
    "\u034f",  # combining grapheme joiner
]
# Drawn as an empty cell: white space, so it parts words like a space.
BRAILLE_BLANK = "\u2800"
DIRECTION = [
    "\u202a",
    "\u202b",
    "\u202c",
    "\u202d",
    "\u202e",
    "\u2066",
    "\u2067",
    "\u2068",
    "\u2069",
]
RULES = [PLAYER_NAME, TEAM_NAME, LEAGUE_NAME]
# No deadline: on a machine shared with other work a slow example is not a wrong one.
PROPERTY = settings(deadline=None)

zero_width = st.lists(st.sampled_from(INVISIBLE), min_size=1, max_size=6).map("".join)
unseen = st.lists(st.sampled_from([*INVISIBLE, BRAILLE_BLANK]), min_size=1, max_size=6).map("".join)
visible_text = st.text(
    st.characters(codec="utf-8", categories=["L", "N", "P", "S"]), min_size=1, max_size=12
).filter(lambda text: any(map(field_rules.is_visible, clean_name(text))))


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize(
    "name",
    [
        "\u200b",
        "\u200d",
        "\u2060",
        "\u00ad",
        "\u200b\u200d\u2060\u00ad",
        "\u3164",
        "\u115f\u1160",
        "\u2800",
        "\u0301",
        "\u0301\u0308\u20dd",
        " \u200b ",
    ],
)
def test_a_name_with_nothing_to_see_is_refused(rule, name):
    assert rule.problem(name) == rule.unseen


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize("control", DIRECTION)
def test_a_name_that_turns_text_around_is_refused(rule, control):
    problem = rule.problem(f"Ann{control}gnp.exe")
    assert problem == rule.direction
    assert problem.endswith(" cannot contain characters that change the direction of text.")


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("Ann\u200b", "Ann"),
        ("\u200bAnn", "Ann"),
        ("A\u00adnn", "Ann"),
        ("Ann\u200f", "Ann"),
        ("\uff21\uff4e\uff4e", "Ann"),  # full-width
        ("Ann \u3000 Lee", "Ann Lee"),  # ideographic space
        ("Ann\u2800Lee", "Ann Lee"),
        ("Ann \u200b Lee", "Ann Lee"),
        ("\ufb01fi", "fifi"),  # ligature
        ("Zoe\u0308", "Zo\u00eb"),
        # Joiners and selectors that change the character before them stay.
        (
            "\U0001f468\u200d\U0001f469\u200d\U0001f467",
            "\U0001f468\u200d\U0001f469\u200d\U0001f467",
        ),
        ("\u2764\ufe0f", "\u2764\ufe0f"),
        (
            "\u0645\u06cc\u200c\u062e\u0648\u0627\u0645",
            "\u0645\u06cc\u200c\u062e\u0648\u0627\u0645",
        ),
    ],
)
def test_a_name_is_stored_normalised_without_characters_that_show_nothing(typed, stored):
    assert clean_name(typed) == stored
    assert PLAYER_NAME.problem(typed) is None


@pytest.mark.parametrize(
    "other", ["Ann\u200b", "ANN", "\uff21\uff4e\uff4e", "A\u200dnn", "Ann\u2800", "\u3164Ann"]
)
def test_a_name_that_differs_only_by_invisible_characters_width_or_case_is_the_same_name(other):
    assert name_key(other) == name_key("Ann")


def test_names_that_look_different_stay_different():
    assert len({name_key(name) for name in ["Ann", "Anne", "Ann Lee", "AnnLee", "Än", "An"]}) == 6


@PROPERTY
@given(visible_text)
def test_cleaning_is_idempotent_and_keeps_the_key(name):
    cleaned = clean_name(name)
    assert clean_name(cleaned) == cleaned
    assert name_key(cleaned) == name_key(name)
    assert unicodedata.is_normalized("NFKC", cleaned)


@PROPERTY
@given(visible_text, zero_width, st.integers(min_value=0, max_value=12))
def test_invisible_characters_anywhere_never_make_another_name(name, invisible, at):
    at = min(at, len(name))
    assert name_key(name[:at] + invisible + name[at:]) == name_key(name)


@PROPERTY
@given(visible_text)
def test_full_width_letters_are_the_same_name(name):
    wide = "".join(chr(ord(char) + 0xFEE0) if "!" <= char <= "~" else char for char in name)
    assert name_key(wide) == name_key(name)


@PROPERTY
@given(unseen)
def test_no_mix_of_invisible_characters_is_a_name(name):
    for rule in RULES:
        assert rule.problem(name) == rule.unseen


@PROPERTY
@given(visible_text, st.sampled_from(DIRECTION))
def test_a_direction_control_anywhere_is_refused(name, control):
    assert PLAYER_NAME.problem(name[:1] + control + name[1:]) is not None
    assert PLAYER_NAME.problem(name[:1] + control + name[1:]) != PLAYER_NAME.unseen


@PROPERTY
@given(st.text(max_size=60))
def test_a_name_the_rule_takes_has_something_to_see_and_nothing_that_turns_text(name):
    if PLAYER_NAME.problem(name) is None:
        cleaned = clean_name(name)
        assert any(map(field_rules.is_visible, cleaned))
        assert not field_rules.has_direction_controls(cleaned)
        assert 0 < len(cleaned) <= PLAYER_NAME.max_length
        assert cleaned == cleaned.strip()


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("  Ann  ", "Ann"),
        ("Mary   Jane", "Mary Jane"),
        ("\tZoë\n", "Zoë"),
        # "e" followed by a combining acute accent is stored as the single character "é".
        ("Rene\u0301", "Ren\u00e9"),
        ("🦄 Uni", "🦄 Uni"),
    ],
)
def test_clean_name_trims_and_normalises(typed, stored):
    assert clean_name(typed) == stored


def test_name_key_ignores_case_and_spacing():
    assert name_key(" ANN ") == name_key("ann") == "ann"
    assert name_key("Straße") == name_key("STRASSE")
    assert name_key("Ann") != name_key("Anne")


@pytest.mark.parametrize("name", ["", "   ", "\t\n"])
def test_a_blank_name_is_refused(name):
    assert name_problem(name) == "Type a name."


def test_names_are_one_to_forty_characters():
    assert name_problem("A") is None
    assert name_problem("x" * 40) is None
    # Surrounding spaces are trimmed before the length is checked.
    assert name_problem("  " + "x" * 40 + "  ") is None
    assert name_problem("x" * 41) == "Names are at most 40 characters."


@pytest.mark.parametrize("name", ["Ann\x00", "B\x07ob", "\ud800Cat"])
def test_a_name_with_control_characters_is_refused(name):
    assert name_problem(name) == "Names cannot contain control characters."


def test_duplicate_problems_name_each_repeat_ignoring_case():
    problems = duplicate_problems(["Ann", "Bob", "ann ", "Cat", "BOB"])
    assert [problem.message for problem in problems] == [
        "ann is already playing.",
        "BOB is already playing.",
    ]
    assert {problem.field for problem in problems} == {"players"}
    assert duplicate_problems(["Ann", "Anne", "Bob"]) == []
