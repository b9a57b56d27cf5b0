"""The roster: one entry per person, matched by name (the name rules are tests/test_names.py)."""

import pytest
import sqlalchemy as sa
from factories import make_game, record

from scorer.models import Player
from scorer.services import players, profiles, standings


def test_find_or_add_reuses_roster_entries_ignoring_case(session):
    ann = players.find_or_add(session, ["Ann"])[0]
    session.commit()
    found = players.find_or_add(session, ["ann", "  ANN", "Bob"])
    assert found[0] is ann
    assert found[1] is ann
    assert found[2].name == "Bob"
    session.commit()
    assert session.scalar(sa.select(sa.func.count()).select_from(Player)) == 2
    # The roster keeps the spelling it was first given.
    assert ann.name == "Ann"


def test_roster_lists_the_most_seated_first_then_by_name(session):
    make_game(session, ["Cat", "bob"])
    make_game(session, ["Cat", "Dan", "ann"])
    make_game(session, ["Dan", "Cat"])
    # Cat sat 3 times, Dan 2, then ann and bob once each, in name order ignoring case.
    assert [player.name for player in players.roster(session)] == ["Cat", "Dan", "ann", "bob"]


def test_roster_includes_players_who_never_sat(session):
    players.find_or_add(session, ["Zed"])
    session.commit()
    make_game(session, ["Ann", "Bob"])
    assert [player.name for player in players.roster(session)] == ["Ann", "Bob", "Zed"]


def test_roster_entries_count_games_wins_and_the_last_game_in_one_query(session, count_queries):
    first = make_game(session, ["Ann", "Bob"], target=50)
    record(session, first, 0, {1: 50})
    make_game(session, ["Ann", "Cat"])
    players.find_or_add(session, ["Zed"])
    session.commit()
    with count_queries() as statements:
        found = [
            (entry.player.name, entry.games, entry.wins, entry.last_played is not None)
            for entry in players.roster_entries(session)
        ]
    assert len(statements) == 1
    assert found == [
        ("Ann", 2, 1, True),
        ("Bob", 1, 0, True),
        ("Cat", 1, 0, False),
        ("Zed", 0, 0, False),
    ]
    assert players.roster_entry(session, 2).games == 1
    assert [entry.player.name for entry in players.entries_by_name(session)][0] == "Ann"


def test_a_profile_gives_the_rating_as_the_standings_do(session):
    game = make_game(session, ["Ann", "Bob"], target=50)
    record(session, game, 0, {1: 50})
    rows = standings.standings(session, standings.period("all"))
    (row,) = [row for row in rows if row.name == "Ann"]
    assert isinstance(row.rating, float)
    assert profiles.profile(session, 1).rating == row.rating


def test_adding_to_the_roster_holds_only_this_schemas_roster_on_postgresql(
    session, backend, databases, tmp_path
):
    """The roster's lock is taken while names are added, until the transaction ends; another
    schema's roster (another app's, another test process's) is not held by it."""
    if backend != "postgresql":
        pytest.skip("SQLite takes one writer at a time: there is no roster lock to hold")
    players.find_or_add(session, ["Ann"])  # a new name: the lock is held until the test ends
    # The test's own schema, and a second one (an empty, migrated "other" database), each seen
    # from a connection of its own.
    ours = session.connection().engine.url
    other = sa.make_url(databases.fresh(backend, tmp_path, second=True))
    held = sa.text(
        "SELECT pg_try_advisory_xact_lock(:space, 'players'::regclass::oid::int4)"
    ).bindparams(space=players.ROSTER_LOCK)
    taken = {}
    for name, url in (("ours", ours), ("other", other)):
        engine = sa.create_engine(url, poolclass=sa.NullPool)
        with engine.connect() as connection:
            taken[name] = connection.scalar(held)
        engine.dispose()
    assert taken == {"ours": False, "other": True}
