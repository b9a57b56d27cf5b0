"""The deck of each game in the backup file: written, restored, defaulted for old files, checked."""

from __future__ import annotations

import copy
import json

import pytest
from factories import record

from scorer import scoring
from scorer.extensions import db
from scorer.services import backup, games
from scorer.services.backup import BackupError

DECKS = (
    scoring.Deck(copies=2, blanks=0),
    scoring.Deck(blank_value=25),
    scoring.DEFAULT_DECK,
)


@pytest.fixture
def exported(app) -> dict:
    """A backup of three games, one per deck in DECKS, the second with a hand counting blanks."""
    with app.app_context():
        ids = [
            games.create_game(db.session, "standard", ["Ann", "Bob"], deck=deck).id
            for deck in DECKS
        ]
        record(db.session, ids[1], 0, {1: ["blank", "blank", "3"]})
        data = json.loads(json.dumps(backup.export_all(db.session)))
        db.session.remove()
    return data


def decks(session) -> list[scoring.Deck]:
    ids = sorted(view.game.id for group in games.list_games(session) for view in group)
    return [games.load_game(session, game_id).state.rules.deck for game_id in ids]


def test_the_file_carries_each_games_deck_and_a_restore_gives_it_back(exported, other_app):
    assert [
        (game["deck_copies"], game["blanks"], game["blank_value"]) for game in exported["games"]
    ] == [(2, 0, 50), (1, 4, 25), (1, 4, 50)]
    with other_app.app_context():
        backup.import_all(db.session, exported)
        assert decks(db.session) == list(DECKS)
        # The blanks count what the game says they are worth.
        assert [side.score for side in games.load_game(db.session, 2).state.sides] == [53, 0]
        db.session.remove()


def test_a_file_from_before_decks_restores_the_default_deck(exported, other_app):
    old = copy.deepcopy(exported)
    for game in old["games"]:
        for field in ("deck_copies", "blanks", "blank_value"):
            del game[field]
    # Its blanks were worth the default 50: the hand is still valid, and scores as such.
    with other_app.app_context():
        backup.import_all(db.session, old)
        assert decks(db.session) == [scoring.DEFAULT_DECK] * 3
        assert [side.score for side in games.load_game(db.session, 2).state.sides] == [103, 0]
        db.session.remove()


REFUSED = [
    ("deck_copies", 3, r"games\[0\]\.deck_copies: Play with one deck or two shuffled together"),
    ("deck_copies", 0, r"games\[0\]\.deck_copies: Play with one deck or two shuffled together"),
    ("blanks", 2, r"games\[0\]\.blanks: A deck has 0 or 4 blank cards"),
    ("blank_value", 501, r"games\[0\]\.blank_value: A blank card scores 0 to 500 points"),
    ("blank_value", -1, r"games\[0\]\.blank_value"),
    ("deck_copies", "2", r"games\[0\]\.deck_copies: expected a whole number"),
    ("blanks", None, r"games\[0\]\.blanks: expected a whole number"),
]


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_restore_checks_deck_bounds_like_the_api(exported, other_app, subtests):
    with other_app.app_context():
        for field, value, message in REFUSED:
            with subtests.test(f"{field}={value!r}"):
                data = copy.deepcopy(exported)
                data["games"][0][field] = value
                with pytest.raises(BackupError, match=message):
                    backup.import_all(db.session, data)
                db.session.rollback()
                assert games.list_games(db.session) == ([], [])
        db.session.remove()


def test_a_blank_in_a_game_whose_deck_has_none_is_refused(exported, other_app):
    data = copy.deepcopy(exported)
    data["games"][1]["blanks"] = 0
    with other_app.app_context():
        with pytest.raises(BackupError, match="This game's deck has no blank cards"):
            backup.import_all(db.session, data)
        db.session.remove()
