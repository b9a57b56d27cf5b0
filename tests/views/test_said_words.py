"""The rules', the field rules' and the forms' sentences are said in the request's language.

No catalog is needed: a stand-in translation marks every sentence it is asked for, so a sentence
said in English (not asked for) shows unmarked.
"""

from __future__ import annotations

import flask_babel
import pytest
from babel.support import NullTranslations
from flask import Flask

from scorer import field_rules, scoring
from scorer.extensions import db
from scorer.forms.games import SetupForm
from scorer.forms.hands import HandForm
from scorer.forms.leagues import LeagueForm
from scorer.services import games


class Marked(NullTranslations):
    """Every sentence between « and », its slots kept for the caller to fill."""

    def ugettext(self, message: str) -> str:
        return f"«{message}»"

    def ungettext(self, singular: str, plural: str, count: int) -> str:
        return f"«{singular if count == 1 else plural}»"

    gettext = ugettext
    ngettext = ungettext


@pytest.fixture
def marked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(flask_babel.Domain, "get_translations", lambda self: Marked())


def test_the_rules_say_their_problems_and_the_deck_in_the_readers_words(
    app: Flask, marked: None
) -> None:
    with app.test_request_context("/"):
        [players] = scoring.setup_problems("standard", 1, 500, 0)
        assert players.message == "«A game needs 2 to 10 players.»"
        [target] = scoring.setup_problems("standard", 2, scoring.MAX_TARGET + 1, 0)
        assert target.message == "«The target can be at most 100,000 points.»"
        assert scoring.Deck().name == "«retail 112 cards, blanks worth 50»"
        assert scoring.Deck(copies=2, blanks=0).name == "«two classic decks, 216 cards»"
        [overflow] = scoring.deck_overflows({0: ["blank"]}, scoring.Deck(blanks=0))
        # The kind stays English for the code that tells limits apart; the message says it.
        assert overflow.kind == "blank cards"
        assert overflow.message == "«This game's deck has no «blank cards».»"


def test_the_field_rules_say_each_refusal_whole_in_the_readers_words(
    app: Flask, marked: None
) -> None:
    with app.test_request_context("/"):
        assert field_rules.PLAYER_NAME.problem("x" * 41) == "«Names are at most 40 characters.»"
        assert field_rules.TEAM_NAME.problem("A\x07") == (
            "«Team names cannot contain control characters.»"
        )
        assert field_rules.LEAGUE_NAME.problem(" ") == "«Type a name for the league.»"
        assert field_rules.PLAYER_NAME.hint == "«Up to 40 characters.»"
        assert field_rules.target_problem(0) == (
            "«The target must be a whole number of points above 0.»"
        )


def test_a_forms_labels_hints_and_choices_made_at_import_speak_the_request(
    app: Flask, marked: None
) -> None:
    with app.test_request_context("/"):
        form = SetupForm(formdata=None)
        assert str(form.new_name.label.text) == "«Add a player»"
        assert str(form.new_name.description) == "«Up to 40 characters.»"
        assert [str(label) for _value, label, _checked, _render in form.mode.iter_choices()][
            0
        ] == "«Standard»"
        assert not form.apply("remove:7")
        assert [str(error) for error in form.form_errors] == [
            "«No player sits there. Nothing was changed.»"
        ]


def test_the_pad_sends_its_templates_in_the_readers_words_and_keeps_its_marks(
    app: Flask, marked: None
) -> None:
    with app.app_context():
        game_id = games.create_game(db.session, "standard", ["Ann", "Bob"], 100, 0).id
        view = games.load_game(db.session, game_id)
    with app.test_request_context("/"):
        form = HandForm.for_game(view, formdata=None)
        pad = form.pad_data()
        words = pad["words"]
        assert words["nobody"] == "«Tap who went out.»"
        assert words["one"] == "«{names} scores {total}»"
        assert words["none"] == "«This game's deck has no {kind}.»"
        assert (words["list"], words["tape"], words["blank"]) == (" · ", " · ", "—")
        assert pad["total"]["words"]["max"] == "«A total is at most {max}.»"
        assert ["«0s»", ["0"], 4] in pad["limits"]
        assert form.summary() == "«Tap who went out.»"
        assert form.keyboard_hint.startswith("«Keyboard: ")


def test_the_league_form_writes_the_highest_target_the_readers_way(
    app: Flask, marked: None
) -> None:
    with app.test_request_context("/", method="POST", data={"name": "Club", "target": "100001"}):
        form = LeagueForm(meta={"csrf": False})
        assert not form.validate()
        assert [str(error) for error in form.target.errors] == [
            "«The target can be at most 100,000 points.»"
        ]
