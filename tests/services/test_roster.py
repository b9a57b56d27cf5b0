"""Renaming, archiving and merging roster entries."""

from __future__ import annotations

import pytest
from factories import make_game, record

from scorer.models import Player
from scorer.scoring import Rejected
from scorer.services import games, leagues, players, roster
from scorer.services.errors import NotFound


def test_a_rename_shows_on_every_game_played(session):
    game = make_game(session, ["Ann", "Bob"], target=10)
    record(session, game, 0, {1: 10})
    roster.rename(session, 1, "  Annie  ")
    session.expire_all()
    assert games.load_game(session, game.id).names == ("Annie", "Bob")
    assert session.get(Player, 1).name_key == "annie"
    # Ann's own name in another case is still her.
    roster.rename(session, 1, "ANNIE")
    assert session.get(Player, 1).name == "ANNIE"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "Type a name."),
        ("bob", "Bob is already on the roster. If they are the same person, merge them instead."),
        ("x" * 41, "Names are at most 40 characters."),
    ],
)
def test_a_rename_to_a_blank_long_or_taken_name_is_refused(session, name, message):
    make_game(session, ["Ann", "Bob"])
    with pytest.raises(Rejected) as refused:
        roster.rename(session, 1, name)
    assert [(p.message, p.field) for p in refused.value.problems] == [(message, "name")]


def test_archived_players_leave_the_pickers_but_keep_their_history(session):
    make_game(session, ["Ann", "Bob", "Cat"])
    roster.set_archived(session, 2, True)
    assert [p.name for p in players.roster(session)] == ["Ann", "Cat"]
    assert [p.name for p in players.roster(session, archived=True)] == ["Ann", "Bob", "Cat"]
    entries = {entry.player.name: entry for entry in players.entries_by_name(session)}
    assert entries["Bob"].archived and entries["Bob"].games == 1
    roster.set_archived(session, 2, False)
    assert [p.name for p in players.roster(session)] == ["Ann", "Bob", "Cat"]


def test_merge_moves_games_and_removes_the_other_entry(session):
    first = make_game(session, ["Ann", "Bob"], target=10)
    second = make_game(session, ["Annie", "Cat"], target=10)
    record(session, second, 0, {1: 10})
    roster.merge(session, 1, 3)
    session.expire_all()
    assert session.get(Player, 3) is None
    assert games.load_game(session, second.id).names == ("Ann", "Cat")
    assert games.load_game(session, first.id).names == ("Ann", "Bob")
    assert {entry.player.name: entry.games for entry in players.entries_by_name(session)} == {
        "Ann": 2,
        "Bob": 1,
        "Cat": 1,
    }


def test_merge_refuses_two_people_who_played_together(session):
    make_game(session, ["Ann", "Annie"])
    with pytest.raises(Rejected) as refused:
        roster.merge(session, 1, 2)
    assert "played in the same game" in refused.value.problems[0].message
    with pytest.raises(Rejected):
        roster.merge(session, 1, 1)
    with pytest.raises(NotFound):
        roster.merge(session, 1, 99)


def test_merge_moves_league_teams_and_refuses_one_person_in_two_teams(session):
    league = leagues.create_league(session, "Club", 100)
    team = leagues.register_team(session, league.id, "Zed", "Bob")
    make_game(session, ["Zoe", "Cat"])
    zed, zoe = team.first_player_id, 3
    roster.merge(session, zoe, zed)
    session.expire_all()
    moved = leagues.load_league(session, league.id).teams[0]
    assert {moved.first_player.name, moved.second_player.name} == {"Zoe", "Bob"}
    assert moved.first_player_id < moved.second_player_id

    leagues.register_team(session, league.id, "Cat", "Dan")
    with pytest.raises(Rejected) as refused:
        roster.merge(session, 3, 5)  # Zoe and Dan, in two teams of the club
    assert "both in teams of one league" in refused.value.problems[0].message


def test_a_rename_gives_every_game_of_the_player_a_new_version_and_no_other(session):
    played = make_game(session, ["Ann", "Bob"], target=10)
    record(session, played, 0, {1: 10})
    other = make_game(session, ["Bob", "Cat"], target=10)
    before = {game.id: games.version_of(session, game.id) for game in (played, other)}

    roster.rename(session, 1, "Annie")

    # Open pages and cached chart legends (keyed by version) show the new name.
    assert games.version_of(session, played.id) == before[played.id] + 1
    assert games.version_of(session, other.id) == before[other.id]


def test_a_merge_gives_the_merged_entrys_games_a_new_version(session):
    game = make_game(session, ["Annn", "Bob"], target=10)
    make_game(session, ["Ann", "Cat"], target=10)
    before = games.version_of(session, game.id)
    roster.merge(session, 3, 1)
    assert games.version_of(session, game.id) == before + 1
