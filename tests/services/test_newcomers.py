"""Which typed names are new to the roster, and the roster names they resemble."""

from __future__ import annotations

from factories import make_game

from scorer.services import newcomers, roster


def test_names_on_the_roster_in_any_case_are_not_asked_about(session):
    make_game(session, ["Ann", "Bob"])
    assert newcomers.question(session, [("first", "ann"), ("second", " BOB ")], ()) is None


def test_the_first_new_name_is_asked_about_with_close_roster_names(session):
    make_game(session, ["Ann", "Anna", "Bob", "Zoe"])
    asked = newcomers.question(session, [("first", "Bob"), ("second", "annn")], ())
    assert asked == newcomers.NewNameQuestion("second", "annn", ("Ann", "Anna"))


def test_a_confirmed_name_is_not_asked_about_again(session):
    make_game(session, ["Ann", "Bob"])
    typed = [("first", "Annn"), ("second", "Gus")]
    assert newcomers.question(session, typed, ["ANNN"]).field == "second"
    assert newcomers.question(session, typed, ["annn", "gus"]) is None


def test_archived_players_are_not_suggested(session):
    make_game(session, ["Ann", "Bob"])
    roster.set_archived(session, 1, True)
    assert newcomers.close_names(session, "Annn") == ()
