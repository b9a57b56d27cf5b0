"""Backups: `scorer export` writes everything as versioned JSON, `scorer import` restores it into an
empty database and nowhere else, and the hands go to a spreadsheet as CSV."""

from __future__ import annotations

import copy
import csv
import io
import json

import pytest
import sqlalchemy as sa
from document import error_for, parse
from factories import NAMES, make_game, record

from scorer import scoring
from scorer.cli import main
from scorer.extensions import db
from scorer.models import Game, GameResult, PeriodTotal, Player
from scorer.services import backup, cleanup, games, hands, leagues, players, roster, standings
from scorer.services.backup import BackupError
from scorer.services.backup_format import Backup

TABLES = ("players", "games", "seats", "teams", "hands", "hand_counts")
TABLES += ("leagues", "league_teams", "seasons", "fixtures", "game_results")


def fill(session) -> None:
    """Every kind of stored fact: all three modes, cards and typed totals, last cards, an edited
    hand, a finished game and its rematch, named and unnamed teams, an abandoned game, a player in
    no game."""
    standard = make_game(session, ["Ann", "Bob", "Cat"], target=100)
    record(session, standard, 0, {1: ["3", "skip"], 2: ["wild", "draw2"]})
    hands.record_hand(
        session, standard.id, 2, hands.HandEntry(1, {0: points(5), 2: points(7)}, "draw2")
    )
    hands.edit_hand(
        session, standard.id, 2, hands.HandEntry(2, {0: points(5), 1: points(7)}, "wild4")
    )
    record(session, standard, 0, {1: 4, 2: ["0", "1", "2"]})  # Ann reaches 100: the game is over
    rematch = games.rematch(session, standard.id)
    record(session, rematch, 2, {0: ["blank", "20"], 1: 12})
    partners = games.create_game(
        session, "partners", ["Dan", "Eve", "Fay", "Gus"], 300, 1, team_names=["Sharks", ""]
    )
    record(session, partners, 0, {1: 10, 3: ["wild4", "reverse"]})
    cleanup.abandon_game(session, partners.id)  # set aside, and restored so
    challenge = make_game(session, ["Hal", "Ivy", "@Kim"], mode="challenge", target=50)
    record(session, challenge, 0, {1: 60, 2: 10})  # Ivy is out
    record(session, challenge, 2, {0: ["9", "8"]})
    session.add(Player(name="Lou", name_key="lou"))
    session.commit()


def fill_leagues(session) -> int:
    """Leagues on top of `fill`: a season of four teams with fixtures won at home and away, one
    being played and the rest waiting; a rotation league with its season drawn; Lou archived.
    Gives the id of the teams league."""
    club = leagues.create_league(session, "Thursday club", 100)
    for first, second, name in [("Ann", "Bob", "Sharks"), ("Cat", "Dan", ""), ("Nia", "Oli", "")]:
        leagues.register_team(session, club.id, first, second, name)
    leagues.register_team(session, club.id, "Ros", "Pat")
    leagues.add_season(session, club.id, 1)
    fixtures = [view.fixture.id for view in leagues.load_season(session, club.id, 1).fixtures]
    home_win = leagues.start_fixture(session, fixtures[0])
    record(session, home_win, 0, {1: 60, 3: ["wild4"]})
    away_win = leagues.start_fixture(session, fixtures[1])
    record(session, away_win, 1, {0: 30, 2: 0})
    record(session, away_win, 3, {0: ["draw2", "skip"], 2: 50})
    record(session, leagues.start_fixture(session, fixtures[2]), 0, {1: 10, 3: 0})
    eights = leagues.create_league(session, "Eights", 200, "rotation")
    leagues.add_rotation_season(session, eights.id, NAMES[:8])
    lou = session.scalar(sa.select(Player.id).where(Player.name == "Lou"))
    roster.set_archived(session, lou, True)
    return club.id


def points(value: int) -> scoring.Count:
    return scoring.Count(points=value)


def states(session) -> dict[int, scoring.GameState]:
    ids = session.scalars(sa.select(Game.id).order_by(Game.id))
    return {game_id: games.load_game(session, game_id).state for game_id in ids}


def rows(session, table: str) -> list[tuple]:
    """The rows of players or games, every column, as the database holds them."""
    model = {"players": Player, "games": Game}[table]
    return [tuple(row) for row in session.execute(sa.select(model.__table__).order_by("id"))]


def row_counts(session) -> dict[str, int]:
    return {
        table: session.scalar(sa.select(sa.func.count()).select_from(sa.table(table)))
        for table in TABLES
    }


def snapshot(session) -> tuple:
    """Every game's state, the players and games rows, and how many rows each table holds."""
    session.remove()
    return states(session), rows(session, "players"), rows(session, "games"), row_counts(session)


# Ids a restore gives anew (nothing outside their parent points at them), and the columns that
# point at such ids: left out when the tables before and after a restore are compared.
GIVEN_ANEW = {
    "seats": {"id"},
    "teams": {"id"},
    "hands": {"id"},
    "hand_counts": {"id", "hand_id"},
    "seasons": {"id"},
    "fixtures": {"season_id"},
}


def every_row(session) -> dict[str, list[tuple]]:
    """Every column of every table a backup holds, as the database holds them, in a fixed order."""
    found = {}
    for table in db.metadata.sorted_tables:
        if table.name in LEFT_OUT:
            continue
        columns = [c for c in table.columns if c.name not in GIVEN_ANEW.get(table.name, ())]
        found[table.name] = sorted(
            (tuple(row) for row in session.execute(sa.select(*columns))),
            key=lambda row: [(value is None, str(value)) for value in row],
        )
    return found


def derived(session, league_id: int) -> dict:
    """What is worked out from the stored facts: results, ratings, standings, tables, records."""
    session.remove()
    result_columns = [c for c in GameResult.__table__.columns if c.name not in ("id", "seq")]
    everyone = standings.period("all")
    season = leagues.load_season(session, league_id, 1)
    return {
        "results": sorted(
            tuple(row)
            for row in session.execute(
                sa.select(*result_columns).order_by(GameResult.game_id, GameResult.player_id)
            )
        ),
        # Ratings depend on the order games finished in; seq numbers may close up their gaps.
        "rated in order": list(
            session.execute(
                sa.select(GameResult.game_id, GameResult.player_id).order_by(
                    GameResult.seq, GameResult.side, GameResult.player_id
                )
            )
        ),
        "standings": standings.standings(session, everyone),
        # Each player's totals per period, read by the standings (last_seq: as seq, above).
        "period totals": sorted(
            tuple(row)
            for row in session.execute(
                sa.select(*(c for c in PeriodTotal.__table__.columns if c.name != "last_seq"))
            )
        ),
        "league standings": standings.standings(session, everyone, league_id),
        "league table": season.table,
        "fixtures": [(view.fixture.id, view.state, view.result) for view in season.fixtures],
        "records": [(r.player.id, r.games, r.wins) for r in players.roster_entries(session)],
        "roster": [player.name for player in players.roster(session)],
    }


def without_date(data: dict) -> dict:
    return {key: value for key, value in data.items() if key != "exported_at"}


# The backup file


def test_a_backup_is_versioned_json_with_every_stored_fact(session):
    fill(session)
    data = backup.export_all(session)

    assert json.loads(json.dumps(data)) == data
    assert (data["format"], data["version"]) == ("uno-scorer", 1)
    assert [player["name"] for player in data["players"]][-1] == "Lou"
    assert {player["archived_at"] for player in data["players"]} == {None}
    assert data["leagues"] == []
    standard, rematch, partners, challenge = data["games"]
    assert rematch["rematch_of"] == standard["id"]
    assert standard["finished_at"] is not None and rematch["finished_at"] is None
    assert [len(game["seats"]) for game in data["games"]] == [3, 3, 4, 3]
    assert partners["teams"] == [{"side": 0, "name": "Sharks"}]
    first, edited, _ = standard["hands"]
    assert first["counts"] == [
        {"seat": 1, "cards": ["3", "skip"], "points": None},
        {"seat": 2, "cards": ["wild", "draw2"], "points": None},
    ]
    assert (edited["went_out"], edited["last_card"]) == (2, "wild4")
    assert edited["counts"][1] == {"seat": 1, "cards": None, "points": 7}
    assert edited["updated_at"] > edited["created_at"]
    assert edited["created_at"].endswith("+00:00")


def test_a_backup_restored_on_another_server_gives_back_every_game_and_player(app, other_app):
    with app.app_context():
        fill(db.session)
        data = json.loads(json.dumps(backup.export_all(db.session)))
        before = snapshot(db.session)
        db.session.remove()

    with other_app.app_context():
        assert backup.import_all(db.session, data) == {
            "players": 11,
            "games": 4,
            "hands": 7,
            "leagues": 0,
        }

        assert snapshot(db.session) == before
        assert without_date(backup.export_all(db.session)) == without_date(data)
        # The restored database goes on: new rows get new ids, restored games take new hands.
        assert make_game(db.session, ["Ann", "Nia"]).id == 5
        assert db.session.scalar(sa.select(Player.id).where(Player.name == "Nia")) == 12
        assert record(db.session, 2, 0, {1: 1, 2: 1}).state.next_hand_number == 3
        db.session.remove()


def test_leagues_archived_players_and_everything_derived_come_back(app, other_app):
    with app.app_context():
        fill(db.session)
        club = fill_leagues(db.session)
        data = json.loads(json.dumps(backup.export_all(db.session)))
        tables, before = every_row(db.session), derived(db.session, club)
        db.session.remove()
    teams, eights = data["leagues"]
    assert [team["players"] for team in teams["teams"]][0] == [1, 2]  # Ann and Bob, by id
    assert [fixture["game"] for fixture in teams["seasons"][0]["fixtures"]][:4] == [5, 6, 7, None]
    assert (len(eights["teams"]), len(eights["seasons"][0]["fixtures"])) == (28, 14)
    assert [player["name"] for player in data["players"] if player["archived_at"]] == ["Lou"]
    assert before["league table"][0].played == 1 and "Lou" not in before["roster"]
    assert len(before["period totals"]) > len(before["standings"])

    with other_app.app_context():
        counts = {"players": 15, "games": 7, "hands": 11, "leagues": 2}
        assert backup.import_all(db.session, data) == counts
        assert backup.describe(counts) == "15 players, 7 games, 11 hands and 2 leagues"

        assert every_row(db.session) == tables
        assert derived(db.session, club) == before
        assert without_date(backup.export_all(db.session)) == without_date(data)
        # The restored league goes on: a waiting fixture starts a game with a fresh id.
        waiting = teams["seasons"][0]["fixtures"][3]["id"]
        assert leagues.start_fixture(db.session, waiting).id == 8
        assert leagues.create_league(db.session, "Fridays", 100).id == 3
        db.session.remove()


def test_a_backup_is_never_restored_over_existing_data(session):
    fill(session)
    data = backup.export_all(session)
    before = row_counts(session)

    with pytest.raises(BackupError, match="already holds 11 players and 4 games"):
        backup.import_all(session, data)
    assert row_counts(session) == before


VALID = {
    "format": "uno-scorer",
    "version": 1,
    "exported_at": "2026-03-14T15:09:26.535897+00:00",
    "players": [
        {"id": 3, "name": "Ann", "created_at": "2026-03-14T15:00:00+00:00"},
        {"id": 7, "name": "Bob", "created_at": "2026-03-14T15:00:00.000001+00:00"},
    ],
    "games": [
        {
            "id": 2,
            "mode": "standard",
            "target": 100,
            "first_dealer": 1,
            "deck_copies": 1,
            "blanks": 4,
            "blank_value": 50,
            "created_at": "2026-03-14T15:01:00+00:00",
            "updated_at": "2026-03-14T15:05:00+00:00",
            "finished_at": "2026-03-14T15:05:00+00:00",
            "version": 2,
            "rematch_of": None,
            "seats": [7, 3],
            "teams": [],
            "hands": [
                {
                    "number": 1,
                    "went_out": 0,
                    "last_card": None,
                    "created_at": "2026-03-14T15:02:00+00:00",
                    "updated_at": "2026-03-14T15:02:00+00:00",
                    "counts": [{"seat": 1, "cards": ["wild4"], "points": None}],
                },
                {
                    "number": 2,
                    "went_out": 1,
                    "last_card": "draw2",
                    "created_at": "2026-03-14T15:05:00+00:00",
                    "updated_at": "2026-03-14T15:05:00+00:00",
                    "counts": [{"seat": 0, "cards": None, "points": 100}],
                },
            ],
        },
        {
            "id": 5,
            "mode": "standard",
            "target": 100,
            "first_dealer": 1,
            "deck_copies": 1,
            "blanks": 4,
            "blank_value": 50,
            "created_at": "2026-03-14T17:06:00+01:00",
            "updated_at": "2026-03-14T16:06:00",
            "finished_at": None,
            "version": 0,
            "rematch_of": 2,
            "seats": [7, 3],
            "teams": [],
            "hands": [],
        },
    ],
}


def test_a_backup_written_by_hand_is_restored_as_written(session):
    # Written before players could be archived and before leagues: those parts are optional.
    assert "leagues" not in VALID and "archived_at" not in VALID["players"][0]
    assert backup.import_all(session, copy.deepcopy(VALID)) == {
        "players": 2,
        "games": 2,
        "hands": 2,
        "leagues": 0,
    }
    session.remove()
    assert [player.name for player in players.roster(session)] == ["Ann", "Bob"]
    # Results were derived from the hands: the finished game counts in the standings.
    table = standings.standings(session, standings.period("all"))
    assert [(row.name, row.games, row.wins) for row in table] == [("Ann", 1, 1), ("Bob", 1, 0)]
    view = games.load_game(session, 2)
    assert view.names == ("Bob", "Ann")
    assert view.winner.seats == (1,)  # Ann reached 100 in hand 2; Bob has 50
    assert [side.score for side in view.state.sides] == [50, 100]
    rematch = games.load_game(session, 5).game
    assert rematch.rematch_of_id == 2
    # Times with an offset are stored in UTC, as the app stores them; times without one are UTC.
    assert str(rematch.created_at) == str(rematch.updated_at) == "2026-03-14 16:06:00"


def with_league(data: dict) -> dict:
    """VALID with two more players (one archived) and a league of two teams, a fixture to play."""
    moment = "2026-03-14T15:00:00+00:00"
    data["players"] += [
        {"id": 8, "name": "Cat", "created_at": moment, "archived_at": moment},
        {"id": 9, "name": "Dan", "created_at": moment, "archived_at": None},
    ]
    fixture = {"id": 4, "round": 1, "table": 1, "home": 1, "away": 2, "game": None}
    data["leagues"] = [
        {
            "id": 6,
            "name": "Thursday club",
            "format": "teams",
            "mode": "partners",
            "target": 100,
            "created_at": moment,
            "teams": [
                {"id": 1, "players": [7, 3], "name": "Sharks"},
                {"id": 2, "players": [8, 9], "name": None},
            ],
            "seasons": [{"number": 1, "legs": 1, "created_at": moment, "fixtures": [fixture]}],
        }
    ]
    return data


def test_a_league_written_by_hand_is_restored_as_written(session):
    assert backup.import_all(session, with_league(copy.deepcopy(VALID)))["leagues"] == 1
    session.remove()
    league = leagues.load_league(session, 6)
    assert [(t.id, t.first_player_id, t.second_player_id, t.name) for t in league.teams] == [
        (1, 3, 7, "Sharks"),  # a pair is stored lowest id first
        (2, 8, 9, None),
    ]
    (fixture,) = leagues.load_season(session, 6, 1).fixtures
    assert (fixture.fixture.id, fixture.state) == (4, "waiting")
    assert [player.name for player in players.roster(session)] == ["Ann", "Bob", "Dan"]


def test_league_and_team_names_are_stored_as_the_forms_store_them(session):
    data = with_league(copy.deepcopy(VALID))
    data["leagues"][0]["name"] = " Thursday\u200b  club "
    data["leagues"][0]["teams"][0]["name"] = "\uff33harks\u00ad"
    backup.import_all(session, data)
    session.remove()
    league = leagues.load_league(session, 6)
    assert league.name == "Thursday club"
    assert [team.name for team in league.teams] == ["Sharks", None]


def broken(change) -> dict:
    data = copy.deepcopy(VALID)
    change(data)
    return data


def broken_league(change) -> dict:
    return broken(lambda data: change(with_league(data)["leagues"][0]))


def first_hand(data: dict) -> dict:
    return data["games"][0]["hands"][0]


BROKEN = {
    "not a dict": ([VALID], "not an UNO scorer backup"),
    "another format": (broken(lambda d: d.update(format="uno")), "not an UNO scorer backup"),
    "a newer version": (broken(lambda d: d.update(version=2)), "version 2.*newer scorer"),
    "version as text": (broken(lambda d: d.update(version="1")), "version '1'"),
    "a missing list": (broken(lambda d: d.pop("players")), "players is missing"),
    "a missing name": (broken(lambda d: d["players"][1].pop("name")), r"players\[1\]: name is"),
    "a blank name": (
        broken(lambda d: d["players"][0].update(name=" ")),
        r"players\[0\]\.name: Type a name",
    ),
    "one name twice": (
        broken(lambda d: d["players"][1].update(name="ANN")),
        "player name 'ann' appears twice",
    ),
    "an id as text": (
        broken(lambda d: d["players"][0].update(id="3")),
        r"players\[0\]\.id: expected a whole number above 0, found '3'",
    ),
    "a bad date": (
        broken(lambda d: d["games"][0].update(created_at="yesterday")),
        r"games\[0\]\.created_at: 'yesterday' is not an ISO 8601",
    ),
    "an unknown player": (
        broken(lambda d: d["games"][0]["seats"].__setitem__(1, 99)),
        r"games\[0\]\.seats\[1\]: there is no player 99",
    ),
    "a player seated twice": (
        broken(lambda d: d["games"][0].update(seats=[3, 3])),
        r"games\[0\]\.seats: the player 3 appears twice",
    ),
    "an unknown mode": (
        broken(lambda d: d["games"][0].update(mode="speed")),
        r"games\[0\]\.mode: expected standard, partners, challenge or individual, found 'speed'",
    ),
    "a team in a standard game": (
        broken(lambda d: d["games"][0].update(teams=[{"side": 0, "name": "Sharks"}])),
        r"games\[0\]\.teams\[0\]\.side: this game has no team 0",
    ),
    "hands out of order": (
        broken(lambda d: first_hand(d).update(number=2)),
        r"games\[0\]\.hands\[0\]\.number: hands must be numbered 1, 2, 3",
    ),
    "an unknown card": (
        broken(lambda d: first_hand(d)["counts"][0].update(cards=["wild9"])),
        r"games\[0\] \(game 2\): hand 1: Not a card: wild9",
    ),
    "cards and points": (
        broken(lambda d: first_hand(d)["counts"][0].update(points=3)),
        r"games\[0\]\.hands\[0\]\.counts\[0\]: give either cards or points",
    ),
    "a count for who went out": (
        broken(lambda d: first_hand(d)["counts"][0].update(seat=0)),
        r"hand 1: The player who went out has no cards to count",
    ),
    "an unknown last card": (
        broken(lambda d: first_hand(d).update(last_card="skip")),
        r"hands\[0\]\.last_card: one of draw2, wild4, or null",
    ),
    "a finished game said to be playing": (
        broken(lambda d: d["games"][0].update(finished_at=None)),
        r"games\[0\]\.finished_at: the hands say the game is over",
    ),
    "a rematch of nothing": (
        broken(lambda d: d["games"][1].update(rematch_of=4)),
        r"games\[1\]\.rematch_of: there is no game 4",
    ),
    "an archived date that is not one": (
        broken(lambda d: d["players"][0].update(archived_at="soon")),
        r"players\[0\]\.archived_at: 'soon' is not an ISO 8601",
    ),
    "leagues that are not a list": (
        broken(lambda d: d.update(leagues={})),
        r"leagues: expected a list, found \{\}",
    ),
    "a league of another format": (
        broken_league(lambda league: league.update(format=["teams"])),
        r"leagues\[0\]\.format: expected teams or rotation, found \['teams'\]",
    ),
    "a league to no points": (
        broken_league(lambda league: league.update(target=0)),
        r"leagues\[0\]\.target: must be at least 1",
    ),
    "a team with an unknown player": (
        broken_league(lambda league: league["teams"][1].update(players=[8, 99])),
        r"leagues\[0\]\.teams\[1\]\.players\[1\]: there is no player 99",
    ),
    "a team of one player": (
        broken_league(lambda league: league["teams"][1].update(players=[8, 8])),
        r"leagues\[0\]\.teams\[1\]\.players: a team is two different players",
    ),
    "a pair registered twice": (
        broken_league(lambda league: league["teams"][1].update(players=[3, 7])),
        r"leagues\[0\]\.teams: the pair of players \(3, 7\) appears twice",
    ),
    "a team id used twice": (
        broken_league(lambda league: league["teams"][1].update(id=1)),
        r"leagues\[0\]\.teams: the team id 1 appears twice",
    ),
    "a fixture against an unknown team": (
        broken_league(lambda league: league["seasons"][0]["fixtures"][0].update(away=3)),
        r"leagues\[0\]\.seasons\[0\]\.fixtures\[0\]\.away: this league has no team 3",
    ),
    "a fixture played as an unknown game": (
        broken_league(lambda league: league["seasons"][0]["fixtures"][0].update(game=4)),
        r"fixtures\[0\]\.game: there is no game 4 in the backup",
    ),
    "one game for two fixtures": (
        broken_league(
            lambda league: league["seasons"][0]["fixtures"].extend(
                [
                    {"id": 5, "round": 2, "table": 1, "home": 2, "away": 1, "game": 2},
                    {"id": 7, "round": 3, "table": 1, "home": 1, "away": 2, "game": 2},
                ]
            )
        ),
        r"leagues: the fixture game 2 appears twice",
    ),
    "two fixtures at one table": (
        broken_league(
            lambda league: league["seasons"][0]["fixtures"].append(
                {"id": 5, "round": 1, "table": 1, "home": 2, "away": 1, "game": None}
            )
        ),
        r"seasons\[0\]\.fixtures: the round and table \(1, 1\) appears twice",
    ),
    "a season numbered twice": (
        broken_league(lambda league: league["seasons"].append(dict(league["seasons"][0]))),
        r"leagues\[0\]\.seasons: the season number 1 appears twice",
    ),
}


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_broken_backup_is_refused_saying_where_and_nothing_is_stored(session, subtests):
    # One database for every case (the checks are the same on each): subtests report each case.
    for case, (data, message) in BROKEN.items():
        with subtests.test(case):
            with pytest.raises(BackupError, match=message):
                backup.import_all(session, data)
            session.rollback()
            assert set(row_counts(session).values()) == {0}


# Columns a backup holds (ids of seats, teams, hands and counts are given anew: nothing points at
# them from outside the game) and tables it leaves out on purpose, each with the reason.
HELD = {
    # name_key: worked out from the name
    "players": {"id", "name", "name_key", "created_at", "archived_at"},
    "games": {
        *("id", "mode", "target", "first_dealer", "deck_copies", "blanks", "blank_value"),
        *("created_at", "updated_at", "finished_at", "abandoned_at", "version", "rematch_of_id"),
        "hand_limit",
        "sync_key",
    },
    "seats": {"id", "game_id", "player_id", "position"},
    "teams": {"id", "game_id", "side", "name"},
    "hands": {"id", "game_id", "number", "went_out", "last_card", "created_at", "updated_at"},
    "hand_counts": {"id", "hand_id", "position", "cards", "points"},
    "leagues": {"id", "name", "format", "mode", "target", "created_at"},
    "league_teams": {"id", "league_id", "first_player_id", "second_player_id", "name"},
    "seasons": {"id", "league_id", "number", "legs", "created_at"},
    "fixtures": {
        *("id", "season_id", "round", "table_number"),
        *("home_team_id", "away_team_id", "game_id"),
    },
}
LEFT_OUT: dict[str, str] = {
    "game_results": "derived from the hands; import_all rebuilds them (results.rebuild_all)",
    "rating_clock": "derived: the last rating sequence number, set again by rebuild_all",
    "period_totals": "derived from the results; import_all derives them again with the results",
    "result_ranks": "derived from the results; import_all derives them again with the results",
    "users": "server accounts, not score data: a restore goes into a server whose owner already"
    " exists or is added after",
    "api_tokens": "secrets of the server's accounts (see users), never to be copied around",
    "scorer_links": "secrets handed out for one night's tables; a restored server makes new ones",
}


def test_a_backup_holds_every_column_of_every_table():
    """A new table or column is lost by a backup until it is added to it (or, if it can be
    rebuilt from what a backup holds, to LEFT_OUT with the reason). That HELD is true is shown by
    test_leagues_archived_players_and_everything_derived_come_back, which compares every column
    of every table not left out before and after a restore."""
    missing = [
        f"{table.name}.{column.name}"
        for table in db.metadata.sorted_tables
        if table.name not in LEFT_OUT
        for column in table.columns
        if column.name not in HELD.get(table.name, ())
    ]
    assert not missing, f"scorer export would lose {', '.join(missing)}: see services/backup.py"


# The commands


@pytest.mark.fresh_database
def test_scorer_export_then_import_restores_everything(app, other_app, tmp_path):
    with app.app_context():
        fill(db.session)
        before = snapshot(db.session)
        db.session.remove()
    path = tmp_path / "backup.json"

    exported = app.test_cli_runner().invoke(main, ["export", str(path)])
    assert exported.exit_code == 0, exported.output
    assert "Exported 11 players, 4 games and 7 hands." in exported.stderr
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == "uno-scorer"

    refused = app.test_cli_runner().invoke(main, ["import", str(path)])
    assert refused.exit_code == 1
    assert "Nothing was restored. The database already holds 11 players" in refused.stderr

    restored = other_app.test_cli_runner().invoke(main, ["import", str(path)])
    assert restored.exit_code == 0, restored.output
    assert "Restored 11 players, 4 games and 7 hands." in restored.stdout
    with other_app.app_context():
        assert snapshot(db.session) == before
        db.session.remove()


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_scorer_import_refuses_a_file_that_is_not_a_backup(app, tmp_path):
    path = tmp_path / "notes.json"
    runner = app.test_cli_runner()

    path.write_text("Ann 120, Bob 80", encoding="utf-8")
    refused = runner.invoke(main, ["import", str(path)])
    assert refused.exit_code == 1
    assert "is not a JSON backup" in refused.stderr

    path.write_text(json.dumps({"format": "uno-scorer", "version": 9}), encoding="utf-8")
    refused = runner.invoke(main, ["import", str(path)])
    assert refused.exit_code == 1
    assert "version 9; this scorer reads version 1 only" in refused.stderr


# Spreadsheet


def test_hands_go_to_a_spreadsheet_one_row_per_counted_player(session):
    fill(session)
    table = list(csv.reader(io.StringIO(backup.hands_csv(session))))

    assert table[0] == ["game", "mode", "hand", "went_out", "player", "points", "cards"]
    by_game: dict[str, list[list[str]]] = {}
    for row in table[1:]:
        by_game.setdefault(row[0], []).append(row[2:])
    assert by_game["1"] == [
        ["1", "Ann", "Bob", "23", "3 skip"],
        ["1", "Ann", "Cat", "70", "wild draw2"],
        ["2", "Cat", "Ann", "5", ""],
        ["2", "Cat", "Bob", "7", ""],
        ["3", "Ann", "Bob", "4", ""],
        ["3", "Ann", "Cat", "3", "0 1 2"],
    ]
    assert by_game["2"] == [
        ["1", "Cat", "Ann", "70", "blank 20"],
        ["1", "Cat", "Bob", "12", ""],
    ]
    # Partners: only the other team's cards count. Challenge: a name a spreadsheet would take for a
    # formula is quoted, and a player who is out is no longer counted.
    assert by_game["3"] == [
        ["1", "Dan", "Eve", "10", ""],
        ["1", "Dan", "Gus", "70", "wild4 reverse"],
    ]
    assert by_game["4"] == [
        ["1", "Hal", "Ivy", "60", ""],
        ["1", "Hal", "'@Kim", "10", ""],
        ["2", "'@Kim", "Hal", "17", "9 8"],
    ]
    assert {row[1] for row in table[1:]} == {"standard", "partners", "challenge"}


# The names' rules are the forms' rules (scorer.field_rules): a restore refuses what a form refuses.

NAMES_THE_FORMS_REFUSE = {
    "a league name with a control character": (
        broken_league(lambda league: league.update(name="Thursday\x07club")),
        r"leagues\[0\]\.name: League names cannot contain control characters\.",
    ),
    "a league name too long": (
        broken_league(lambda league: league.update(name="x" * 61)),
        r"leagues\[0\]\.name: League names are at most 60 characters\.",
    ),
    "a blank league name": (
        broken_league(lambda league: league.update(name="  ")),
        r"leagues\[0\]\.name: Type a name for the league\.",
    ),
    "a league team name with a control character": (
        broken_league(lambda league: league["teams"][0].update(name="Sha\x1brks")),
        r"leagues\[0\]\.teams\[0\]\.name: Team names cannot contain control characters\.",
    ),
    "a game team name with a control character": (
        broken(
            lambda d: d["games"][0].update(
                mode="partners",
                seats=[7, 3, 8, 9],
                teams=[{"side": 0, "name": "Re\x00ds"}],
            )
        ),
        r"games\[0\]\.teams\[0\]\.name: Team names cannot contain control characters\.",
    ),
    "a player name with a lone surrogate": (
        broken(lambda d: d["players"][0].update(name="Ann\ud800")),
        r"players\[0\]\.name: Names cannot contain control characters\.",
    ),
    "a player name of zero-width characters": (
        broken(lambda d: d["players"][0].update(name="\u200b\u200d\u2060\u00ad")),
        r"players\[0\]\.name: Names need a letter, digit or sign that can be seen\.",
    ),
    "a player name of the Hangul filler": (
        broken(lambda d: d["players"][0].update(name="\u3164")),
        r"players\[0\]\.name: Names need a letter, digit or sign that can be seen\.",
    ),
    "a player name that turns the text around": (
        broken(lambda d: d["players"][0].update(name="Ann\u202egnp.exe")),
        r"players\[0\]\.name: Names cannot contain characters that change the direction",
    ),
    "a player name with a zero-width space": (
        broken(lambda d: d["players"][0].update(name="Ann\u200b")),
        r"players\[0\]\.name: not written as the app stores names",
    ),
    "a player name in full-width letters": (
        broken(lambda d: d["players"][0].update(name="\uff21\uff4e\uff4e")),
        r"players\[0\]\.name: not written as the app stores names",
    ),
    "a league name of braille blanks": (
        broken_league(lambda league: league.update(name="\u2800\u2800")),
        r"leagues\[0\]\.name: League names need a letter, digit or sign that can be seen\.",
    ),
    "a league team name that isolates its text": (
        broken_league(lambda league: league["teams"][0].update(name="\u2067Sharks\u2069")),
        r"leagues\[0\]\.teams\[0\]\.name: Team names cannot contain characters that change",
    ),
    "a game team name of combining marks": (
        broken(
            lambda d: d["games"][0].update(
                mode="partners",
                seats=[7, 3, 8, 9],
                teams=[{"side": 0, "name": "\u0301\u0308"}],
            )
        ),
        r"games\[0\]\.teams\[0\]\.name: Team names need a letter, digit or sign",
    ),
}


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_a_restore_refuses_names_the_forms_refuse_saying_where(session, subtests):
    for case, (data, message) in NAMES_THE_FORMS_REFUSE.items():
        with subtests.test(case):
            with pytest.raises(BackupError, match=message):
                backup.import_all(session, data)
            session.rollback()
            assert set(row_counts(session).values()) == {0}


def test_the_same_names_are_refused_by_the_league_service(session):
    # The words a restore uses are the service's (and so the forms') words.
    for name, message in [
        ("Thursday\x07club", "League names cannot contain control characters."),
        ("x" * 61, "League names are at most 60 characters."),
    ]:
        with pytest.raises(scoring.Rejected) as refused:
            leagues.create_league(session, name, 100)
        assert [problem.message for problem in refused.value.problems] == [message]


def test_an_export_is_what_the_declared_format_reads(session):
    fill(session)
    fill_leagues(session)
    data = json.loads(backup.dumps(backup.export_all(session)))

    read = Backup.model_validate(data)
    assert read.model_dump(mode="json") == data
    assert read.players[0].created_at.tzinfo is None  # stored as UTC without a zone
    assert Backup.model_json_schema()["required"] == ["players", "games"]


# Numbers, names and moments a database cannot hold are refused by the declared format, saying
# where, on every database: before, PostgreSQL said "integer out of range" or refused a NUL, and
# SQLite overflowed on ids of 1e20, all as a 500.

TOO_BIG = 2**31


def in_league(change):
    return broken_league(change)


def partners_with_team(name: str):
    def change(data: dict) -> None:
        data["players"] += [
            {"id": 8, "name": "Cat", "created_at": "2026-03-14T15:00:00+00:00"},
            {"id": 9, "name": "Dan", "created_at": "2026-03-14T15:00:00+00:00"},
        ]
        data["games"][1].update(mode="partners", seats=[7, 3, 8, 9])
        data["games"][1]["teams"] = [{"side": 0, "name": name}]

    return broken(change)


def league_team_named(name: str):
    return in_league(lambda league: league["teams"][0].update(name=name))


OUT_OF_BOUNDS = {
    "a player id of 2^31": (
        broken(lambda d: d["players"][0].update(id=TOO_BIG)),
        r"players\[0\]\.id: expected a whole number above 0",
    ),
    "a player id of 10^20": (
        broken(lambda d: d["players"][0].update(id=10**20)),
        r"players\[0\]\.id: expected a whole number above 0",
    ),
    "a player id of 1e20": (
        broken(lambda d: d["players"][0].update(id=1e20)),
        r"players\[0\]\.id: expected a whole number above 0",
    ),
    "a game id of 2^31": (
        broken(lambda d: d["games"][1].update(id=TOO_BIG)),
        r"games\[1\]\.id: expected a whole number above 0",
    ),
    "a seat of 2^31": (
        broken(lambda d: d["games"][1].update(seats=[7, TOO_BIG])),
        r"games\[1\]\.seats\[1\]",
    ),
    "a rematch of 10^20": (
        broken(lambda d: d["games"][1].update(rematch_of=10**20)),
        r"games\[1\]\.rematch_of",
    ),
    "a version of 2^31": (
        broken(lambda d: d["games"][1].update(version=TOO_BIG)),
        r"games\[1\]\.version: must be at most 2147483647",
    ),
    "a game target of 2^31": (
        broken(lambda d: d["games"][1].update(target=TOO_BIG)),
        r"games\[1\]\.target: must be at most 100000",
    ),
    "a first dealer of 2^31": (
        broken(lambda d: d["games"][1].update(first_dealer=TOO_BIG)),
        r"games\[1\]\.first_dealer: must be at most",
    ),
    "decks of 2^31": (
        broken(lambda d: d["games"][1].update(deck_copies=TOO_BIG)),
        r"games\[1\]\.deck_copies: must be at most",
    ),
    "blanks of 2^31": (
        broken(lambda d: d["games"][1].update(blanks=TOO_BIG)),
        r"games\[1\]\.blanks: must be at most",
    ),
    "a blank value of 2^31": (
        broken(lambda d: d["games"][1].update(blank_value=TOO_BIG)),
        r"games\[1\]\.blank_value: must be at most",
    ),
    "points of 2^31": (
        broken(lambda d: first_hand(d)["counts"][0].update(cards=None, points=TOO_BIG)),
        r"games\[0\]\.hands\[0\]\.counts\[0\]\.points",
    ),
    "a hand number of 2^31": (
        broken(lambda d: first_hand(d).update(number=TOO_BIG)),
        r"games\[0\]\.hands\[0\]\.number",
    ),
    "a league id of 2^31": (
        in_league(lambda league: league.update(id=TOO_BIG)),
        r"leagues\[0\]\.id: expected a whole number above 0",
    ),
    "a league target of 2^31": (
        in_league(lambda league: league.update(target=TOO_BIG)),
        r"leagues\[0\]\.target: must be at most 100000",
    ),
    "a league team id of 2^31": (
        in_league(lambda league: league["teams"][0].update(id=TOO_BIG)),
        r"leagues\[0\]\.teams\[0\]\.id: expected a whole number above 0",
    ),
    "legs of 2^31": (
        in_league(lambda league: league["seasons"][0].update(legs=TOO_BIG)),
        r"leagues\[0\]\.seasons\[0\]\.legs: must be at most",
    ),
    "a season number of 2^31": (
        in_league(lambda league: league["seasons"][0].update(number=TOO_BIG)),
        r"leagues\[0\]\.seasons\[0\]\.number: must be at most",
    ),
    "a fixture id of 2^31": (
        in_league(lambda league: league["seasons"][0]["fixtures"][0].update(id=TOO_BIG)),
        r"leagues\[0\]\.seasons\[0\]\.fixtures\[0\]\.id: expected a whole number above 0",
    ),
    "a round of 2^31": (
        in_league(lambda league: league["seasons"][0]["fixtures"][0].update(round=TOO_BIG)),
        r"leagues\[0\]\.seasons\[0\]\.fixtures\[0\]\.round: must be at most",
    ),
    "a table of 2^31": (
        in_league(lambda league: league["seasons"][0]["fixtures"][0].update(table=TOO_BIG)),
        r"leagues\[0\]\.seasons\[0\]\.fixtures\[0\]\.table: must be at most",
    ),
    "a NUL in a player name": (
        broken(lambda d: d["players"][0].update(name="A\x00nn")),
        r"players\[0\]\.name: Names cannot contain control characters\.",
    ),
    "a NUL in a league name": (
        in_league(lambda league: league.update(name="Thursday\x00club")),
        r"leagues\[0\]\.name: League names cannot contain control characters\.",
    ),
    "a NUL in a league team name": (
        league_team_named("Sha\x00rks"),
        r"leagues\[0\]\.teams\[0\]\.name: Team names cannot contain control characters\.",
    ),
    "a NUL in a game team name": (
        partners_with_team("Re\x00ds"),
        r"games\[1\]\.teams\[0\]\.name: Team names cannot contain control characters\.",
    ),
    "a NUL at the end of a game team name": (
        partners_with_team("Reds\x00"),
        r"games\[1\]\.teams\[0\]\.name: Team names cannot contain control characters\.",
    ),
    "a game created in year 1": (
        broken(lambda d: d["games"][1].update(created_at="0001-01-01T00:00:00+00:00")),
        r"games\[1\]\.created_at: must be from 1970 to 9998",
    ),
    "a game created in year 1 an hour east": (
        broken(lambda d: d["games"][1].update(created_at="0001-01-01T00:00:00+01:00")),
        r"games\[1\]\.created_at: must be from 1970 to 9998",
    ),
    "a game updated at the very end of year 9999, west": (
        broken(lambda d: d["games"][1].update(updated_at="9999-12-31T23:59:59-05:00")),
        r"games\[1\]\.updated_at: must be from 1970 to 9998",
    ),
    "a player made in year 1": (
        broken(lambda d: d["players"][1].update(created_at="0001-01-01T00:00:00")),
        r"players\[1\]\.created_at: must be from 1970 to 9998",
    ),
    "a player archived in year 1": (
        broken(lambda d: d["players"][1].update(archived_at="0001-01-01T00:00:00")),
        r"players\[1\]\.archived_at: must be from 1970 to 9998",
    ),
    "a hand made in year 1": (
        broken(lambda d: first_hand(d).update(created_at="0001-01-01T00:00:00+00:00")),
        r"games\[0\]\.hands\[0\]\.created_at: must be from 1970 to 9998",
    ),
    "a game finished in year 1": (
        broken(lambda d: d["games"][0].update(finished_at="0001-01-01T00:00:00+00:00")),
        r"games\[0\]\.finished_at: must be from 1970 to 9998",
    ),
    "a league made in year 1": (
        in_league(lambda league: league.update(created_at="0001-01-01T00:00:00+00:00")),
        r"leagues\[0\]\.created_at: must be from 1970 to 9998",
    ),
    "a season made in year 1": (
        in_league(lambda league: league["seasons"][0].update(created_at="0001-01-01T00:00:00")),
        r"leagues\[0\]\.seasons\[0\]\.created_at: must be from 1970 to 9998",
    ),
}


def test_what_a_database_cannot_hold_is_refused_saying_where(session, subtests):
    for case, (data, message) in OUT_OF_BOUNDS.items():
        with subtests.test(case):
            with pytest.raises(BackupError, match=message):
                backup.import_all(session, data)
            session.rollback()
            assert set(row_counts(session).values()) == {0}


def test_the_largest_numbers_a_database_holds_are_restored(session):
    data = with_league(copy.deepcopy(VALID))
    data["players"][0]["id"] = 2**31 - 1
    data["games"][0]["seats"] = [7, 2**31 - 1]
    data["games"][1].update(id=2**31 - 1, version=2**31 - 1, target=100_000, seats=[7, 2**31 - 1])
    data["games"][1]["created_at"] = "1970-01-01T00:00:00+00:00"
    data["leagues"][0]["teams"][0]["players"] = [7, 2**31 - 1]
    data["leagues"][0]["seasons"][0]["legs"] = 2**31 - 1
    backup.import_all(session, data)
    assert session.get(Game, 2**31 - 1).version == 2**31 - 1


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
@pytest.mark.parametrize(
    "text", ["[" * 100_000, '{"a":' * 100_000, "1" * 5000, '{"format": ' + "9" * 5000 + "}"]
)
def test_json_nested_too_deep_or_with_thousands_of_digits_is_refused(session, text):
    with pytest.raises(BackupError, match="not a JSON backup"):
        backup.loads(text.encode())


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_scorer_import_refuses_json_nested_too_deep_in_one_line(app, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000, encoding="utf-8")
    refused = app.test_cli_runner().invoke(main, ["import", str(path)])
    assert refused.exit_code == 1
    assert refused.stderr.count("\n") == 1
    assert "is not a JSON backup" in refused.stderr
    assert "Traceback" not in refused.output


def test_the_owner_page_refuses_them_with_a_422_saying_where(client, subtests):
    def upload(body: bytes):
        return client.post(
            "/backup/import", data={"file": (io.BytesIO(body), "backup.json", "application/json")}
        )

    cases = {
        "nested too deeply": (b"[" * 100_000, "nested too deeply"),
        "a NUL in a league name": (
            json.dumps(OUT_OF_BOUNDS["a NUL in a league name"][0]).encode(),
            "leagues[0].name: League names cannot contain control characters.",
        ),
        "a version of 2^31": (
            json.dumps(OUT_OF_BOUNDS["a version of 2^31"][0]).encode(),
            "games[1].version: must be at most 2147483647.",
        ),
        "a game created in year 1": (
            json.dumps(OUT_OF_BOUNDS["a game created in year 1"][0]).encode(),
            "games[1].created_at: must be from 1970 to 9998",
        ),
    }
    for case, (body, message) in cases.items():
        with subtests.test(case):
            response = upload(body)
            assert response.status_code == 422
            assert message in error_for(parse(response), "file")
            with client.application.app_context():
                assert set(row_counts(db.session).values()) == {0}


def test_a_restore_into_a_running_server_shows_the_restored_scores(app, client):
    def scores() -> list[str]:
        page = parse(client.get("/games/1"))
        return [node.text for node in page.find(id="scoreboard").find_all(class_="score")]

    with app.app_context():
        make_game(db.session, ["Ann", "Bob"], target=1000)
        record(db.session, 1, 0, {1: 10})
    assert scores() == ["score 10", "score 0"]
    with app.app_context():
        data = backup.export_all(db.session)
        # Emptied by hand, as an owner would before restoring: the server keeps running.
        for table in reversed(db.metadata.sorted_tables):
            if table.name not in ("users", "api_tokens"):
                db.session.execute(table.delete())
        db.session.commit()
    # The same game, created at the same moment, at the same version: other hands.
    data["games"][0]["hands"][0]["counts"] = [{"seat": 1, "cards": None, "points": 77}]
    body = io.BytesIO(backup.dumps(data).encode())
    response = client.post("/backup/import", data={"file": (body, "backup.json")})
    assert response.status_code == 303
    assert scores() == ["score 77", "score 0"]


def every_card(copies: int, blanks: int) -> list[str]:
    """Every card of `copies` decks with `blanks` blanks each, the longest tokens for each kind."""
    per_copy = ["0"] * 4 + [str(d) for d in range(1, 10) for _ in range(8)]
    per_copy += ["reverse"] * 8 + ["draw2"] * 8 + ["skip"] * 8 + ["wild4"] * 4 + ["wild"] * 4
    return (per_copy + ["blank"] * blanks) * copies


def one_hand_of(cards: list[str], copies: int, blanks: int) -> dict:
    def change(data: dict) -> None:
        data["games"][1].update(deck_copies=copies, blanks=blanks, target=100_000)
        data["games"][1]["hands"] = [
            dict(first_hand(data), counts=[{"seat": 1, "cards": cards, "points": None}])
        ]

    return broken(change)


def test_a_hand_of_every_card_of_the_largest_deck_is_restored(session):
    copies, blanks = max(scoring.DECK_COPIES), max(scoring.DECK_BLANKS)
    cards = every_card(copies, blanks)
    backup.import_all(session, one_hand_of(cards, copies, blanks))
    assert games.load_game(session, 5).hands[0].counts[1].cards == tuple(cards)


@pytest.mark.parametrize(
    ("copies", "blanks", "cards", "message"),
    [
        (3, 4, ["1"], r"games\[1\]\.deck_copies: .*one deck or two"),
        (1, 10, ["1"], r"games\[1\]\.blanks: .*0 or 4 blank cards"),
        (1, 4, ["x" * 2000], r"games\[1\] \(game 5\): hand 1: Not a card"),
        (1, 4, every_card(2, 4), r"games\[1\].*counted, but the deck has only"),
    ],
)
def test_a_deck_or_cards_past_the_bounds_are_refused_saying_where(
    session, copies, blanks, cards, message
):
    with pytest.raises(BackupError, match=message):
        backup.import_all(session, one_hand_of(cards, copies, blanks))
    session.rollback()
    assert set(row_counts(session).values()) == {0}


@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["games"][0].update(mode="x" * 100_000), r"games\[0\]\.mode: expected "),
        (lambda d: d["players"][0].update(id=[0] * 100_000), r"players\[0\]\.id: expected "),
        (lambda d: d["players"][0].update(created_at="9" * 100_000), r"players\[0\]\.created_at"),
    ],
)
def test_a_refusal_quotes_a_huge_value_only_in_part(session, change, message):
    with pytest.raises(BackupError, match=message) as refused:
        backup.import_all(session, broken(change))
    assert len(refused.value.message) < 200


def test_games_of_fixed_length_keep_their_length_through_a_backup(app, other_app):
    with app.app_context():
        individual = games.create_game(db.session, "individual", ["Ann", "Bob", "Cat", "Dan"])
        record(db.session, individual, 0, {1: 5, 2: 6, 3: 7})
        eights = leagues.create_league(db.session, "Eights", 200, "rotation")
        season = leagues.add_rotation_season(db.session, eights.id, NAMES[:8])
        fixture = leagues.load_season(db.session, eights.id, season.number).fixtures[0].fixture
        rotation_game = leagues.start_fixture(db.session, fixture.id)
        data = json.loads(json.dumps(backup.export_all(db.session)))
        limits = {game.id: game.hand_limit for game in db.session.scalars(sa.select(Game))}
        db.session.remove()
    assert limits == {individual.id: 12, rotation_game.id: 2}
    assert [game["hand_limit"] for game in data["games"]] == [12, 2]

    with other_app.app_context():
        backup.import_all(db.session, data)
        restored = {game.id: game.hand_limit for game in db.session.scalars(sa.select(Game))}
        assert restored == limits
        db.session.remove()


def test_a_game_of_a_number_of_hands_comes_back_as_one(app, other_app):
    with app.app_context():
        game_id = games.create_game(db.session, "challenge", ["Ann", "Bob"], 100, hands=3).id
        record(db.session, game_id, 0, {1: 7})
        data = json.loads(json.dumps(backup.export_all(db.session)))
        db.session.remove()
    assert [game["hand_limit"] for game in data["games"]] == [3]
    with other_app.app_context():
        backup.import_all(db.session, data)
        state = games.load_game(db.session, game_id).state
        assert (state.rules.hands, len(state.hands), state.finished) == (3, 1, False)
        assert without_date(backup.export_all(db.session)) == without_date(data)
        db.session.remove()


def test_a_restored_game_keeps_the_key_its_phones_queued_hands_name(app, other_app):
    with app.app_context():
        keyed = make_game(db.session, 2)
        old = make_game(db.session, 2)
        old.sync_key = None  # a game from before keys
        db.session.commit()
        keys = {keyed.id: keyed.sync_key, old.id: None}
        data = json.loads(json.dumps(backup.export_all(db.session)))
        db.session.remove()
    assert keys[keyed.id] and [game["sync_key"] for game in data["games"]] == list(keys.values())
    with other_app.app_context():
        backup.import_all(db.session, data)
        assert dict(db.session.execute(sa.select(Game.id, Game.sync_key)).all()) == keys
        db.session.remove()
    sent = other_app.test_client().post(
        f"/games/{keyed.id}/hands/1/sync",
        data={"number": "1", "went_out": "0", "counts-1-points": "5", "game_key": keys[keyed.id]},
    )
    assert sent.json == {"status": "stored", "already": False}


@pytest.mark.parametrize("key", ["", "x" * 33, "a b", 7])
def test_a_backup_with_a_game_key_that_is_none_is_refused(session, key):
    with pytest.raises(BackupError, match="game key"):
        backup.import_all(session, broken(lambda data: data["games"][0].update(sync_key=key)))
