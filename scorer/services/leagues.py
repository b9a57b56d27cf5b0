"""Partner leagues: teams of two, seasons of round-robin fixtures, and their tables.

A fixture is played as a partners game: home seats 1 and 3, away seats 2 and 4, so side 0 is the
home team and side 1 the away team. The table is read from the stored results of the fixtures'
finished games, so a result counts as soon as the hand that ends the game is saved, and is
corrected when a hand is edited.

The official eight-player format is a league of format "rotation": a season takes eight players,
pairs each with every other once (28 pairs, stored as teams) and plays 7 rounds at two tables. Each
of its fixtures is a partners game of fixed length, 2 hands (7 rounds × 2 tables × 2 hands = the
sheet's 28 hands), not a game to the league's target; players are ranked by the points their
partnerships won.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext
from sqlalchemy import case, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import joinedload, selectinload

from ..database import DbSession
from ..field_rules import (
    LEAGUE_NAME,
    TEAM_NAME,
    clean_name,
    duplicate_problems,
    is_id,
    name_key,
    name_problem,
    target_problem,
)
from ..models import (
    Fixture,
    Game,
    GameResult,
    League,
    LeagueTeam,
    Player,
    Season,
)
from ..scoring import Mode, Problem, Rejected
from ..scoring import leagues as tables
from . import games, players
from .errors import Conflict, NotFound
from .transactions import in_transaction, lock_fixture

# The values are the stored formats; the words are said in the reader's language where shown.
FORMATS = {"teams": _l("Teams of two"), "rotation": _l("Eight players, rotating partners")}
# Hands each table plays per round of the eight-player format (docs/rules.md#leagues).
ROTATION_FIXTURE_HANDS = 2
LEGS = {1: _l("Once"), 2: _l("Twice (home and away)")}


def team_name(team: LeagueTeam) -> str:
    """The name the team registered with, else "Ann & Bob"."""
    return team.name or members(team)


def members(team: LeagueTeam) -> str:
    return f"{team.first_player.name} & {team.second_player.name}"


@dataclass(frozen=True)
class FixtureSnapshot:
    """A fixture with its result once its game is over."""

    fixture: Fixture
    result: tables.FixtureResult | None

    @property
    def state(self) -> str:
        """ "waiting", "playing" or "played"."""
        if self.result is not None:
            return "played"
        return "playing" if self.fixture.game_id is not None else "waiting"


@dataclass(frozen=True)
class SeasonSnapshot:
    """A season's fixtures and table, as stored."""

    league: League
    season: Season
    fixtures: tuple[FixtureSnapshot, ...]
    table: tuple[tables.TableRow, ...]
    names: dict

    @property
    def rounds(self) -> list[tuple[int, list[FixtureSnapshot]]]:
        by_round: dict[int, list[FixtureSnapshot]] = {}
        for view in self.fixtures:
            by_round.setdefault(view.fixture.round, []).append(view)
        return sorted(by_round.items())

    @property
    def played(self) -> int:
        return sum(view.state == "played" for view in self.fixtures)


def create_league(session: DbSession, name: str, target: int, format: str = "teams") -> League:
    """A new league of partners games to `target`."""
    problems = []
    if problem := LEAGUE_NAME.problem(name or ""):
        problems.append(Problem(problem, "name"))
    name = clean_name(name or "")
    if problem := target_problem(target):
        problems.append(Problem(problem, "target"))
    if format not in FORMATS:
        problems.append(Problem(_("Choose teams of two or the eight-player rotation."), "format"))
    if problems:
        raise Rejected(problems)
    with in_transaction(session):
        league = League(name=name, target=target, format=format, mode=Mode.PARTNERS.value)
        session.add(league)
    return league


def load_league(session: DbSession, league_id: int) -> League:
    """A league with its teams (and their players) and seasons."""
    if not is_id(league_id):
        raise NotFound(_("There is no such league."))
    league = session.scalar(
        select(League)
        .where(League.id == league_id)
        .options(
            selectinload(League.teams).joinedload(LeagueTeam.first_player),
            selectinload(League.teams).joinedload(LeagueTeam.second_player),
            selectinload(League.seasons),
        )
    )
    if league is None:
        raise NotFound(_("There is no such league."))
    return league


def register_team(
    session: DbSession, league_id: int, first: str, second: str, name: str = ""
) -> LeagueTeam:
    """Register two players (by name; new names join the roster) as a team of the league."""
    try:
        with in_transaction(session):
            return _register_team(session, league_id, first, second, name)
    except IntegrityError:
        raise Rejected([Problem(_("That team was registered just now."), "second")]) from None


def _register_team(
    session: DbSession, league_id: int, first: str, second: str, name: str
) -> LeagueTeam:
    league = load_league(session, league_id)
    if league.format != "teams":
        raise Conflict(_("In the eight-player format the partners rotate; there are no teams."))
    problems = [
        Problem(problem, field)
        for field, typed in (("first", first), ("second", second))
        if (problem := name_problem(typed or ""))
    ]
    if problem := TEAM_NAME.problem(name or ""):
        problems.append(Problem(problem, "name"))
    name = clean_name(name or "")
    if not problems and name_key(first) == name_key(second):
        problems.append(Problem(_("A team is two different players."), "second"))
    if problems:
        raise Rejected(problems)
    one, two = players.find_or_add(session, [first, second])
    session.flush()
    for team in league.teams:
        pair = {team.first_player_id, team.second_player_id}
        if pair == {one.id, two.id}:
            problems.append(
                Problem(
                    _(
                        "%(first)s and %(second)s are already registered, as %(team)s.",
                        first=one.name,
                        second=two.name,
                        team=team_name(team),
                    ),
                    "second",
                )
            )
            break
        for player, field in ((one, "first"), (two, "second")):
            if player.id in pair:
                problems.append(
                    Problem(
                        _(
                            "%(player)s already plays for %(team)s.",
                            player=player.name,
                            team=team_name(team),
                        ),
                        field,
                    )
                )
    if problems:
        raise Rejected(problems)
    low, high = sorted((one, two), key=lambda player: player.id)
    team = LeagueTeam(league=league, first_player=low, second_player=high, name=name or None)
    session.add(team)
    return team


def add_season(session: DbSession, league_id: int, legs: int = 1) -> Season:
    """A new season in which every registered team meets every other `legs` times."""
    return _saved_season(session, lambda: _add_season(session, league_id, legs))


def _add_season(session: DbSession, league_id: int, legs: int) -> Season:
    league = load_league(session, league_id)
    if league.format != "teams":
        raise Conflict(_("Seasons of the eight-player format are started with their players."))
    if legs not in LEGS:
        raise Rejected([Problem(_("Teams meet once or twice."), "legs")])
    if len(league.teams) < 2:
        raise Rejected([Problem(_("Register at least two teams first."), "legs")])
    season = _new_season(league, legs)
    for number, fixtures in enumerate(tables.round_robin(list(league.teams), legs), start=1):
        for table, (home, away) in enumerate(fixtures, start=1):
            season.fixtures.append(Fixture(round=number, table_number=table, home=home, away=away))
    session.add(season)
    return season


def add_rotation_season(session: DbSession, league_id: int, names: Sequence[str]) -> Season:
    """A season of the eight-player format for these players (new names join the roster)."""
    return _saved_season(session, lambda: _add_rotation_season(session, league_id, names))


def _add_rotation_season(session: DbSession, league_id: int, names: Sequence[str]) -> Season:
    league = load_league(session, league_id)
    if league.format != "rotation":
        raise Conflict(_("This league plays registered teams; start its seasons with them."))
    names = [name for name in names if (name or "").strip()]
    problems = [Problem(problem, "players") for problem in filter(None, map(name_problem, names))]
    problems += duplicate_problems(names)
    if len(names) != tables.ROTATION_PLAYERS:
        problems.append(
            Problem(
                ngettext(
                    "The format needs exactly %(num)s player.",
                    "The format needs exactly %(num)s players.",
                    tables.ROTATION_PLAYERS,
                ),
                "players",
            )
        )
    if problems:
        raise Rejected(problems)
    roster = players.find_or_add(session, names)
    session.flush()
    known = {(team.first_player_id, team.second_player_id): team for team in league.teams}

    def pair(a: Player, b: Player) -> LeagueTeam:
        low, high = sorted((a, b), key=lambda player: player.id)
        key = (low.id, high.id)
        if key not in known:
            known[key] = LeagueTeam(league=league, first_player=low, second_player=high)
        return known[key]

    season = _new_season(league, 1)
    for number, round_tables in enumerate(tables.rotation(roster), start=1):
        for table, (home, away) in enumerate(round_tables, start=1):
            season.fixtures.append(
                Fixture(round=number, table_number=table, home=pair(*home), away=pair(*away))
            )
    session.add(season)
    return season


def load_season(session: DbSession, league_id: int, number: int) -> SeasonSnapshot:
    """A season's fixtures (with their teams) and table, in a fixed number of queries."""
    league = load_league(session, league_id)
    season = next((s for s in league.seasons if s.number == number), None)
    if season is None:
        raise NotFound(_("This league has no such season."))
    fixtures = list(
        session.scalars(
            select(Fixture)
            .where(Fixture.season_id == season.id)
            .order_by(Fixture.round, Fixture.table_number)
            .options(joinedload(Fixture.game))
        )
    )
    teams = {team.id: team for team in league.teams}
    results = _results(session, season.id, fixtures)
    views = tuple(FixtureSnapshot(fixture, results.get(fixture.id)) for fixture in fixtures)
    played = [result for result in results.values()]
    if league.format == "rotation":
        member_ids = {
            team_id: (team.first_player_id, team.second_player_id)
            for team_id, team in teams.items()
        }
        names = {
            player.id: player.name
            for team in teams.values()
            for player in (team.first_player, team.second_player)
        }
        table = tables.individual_table(played, member_ids, names)
    else:
        entered = sorted(
            {f.home_team_id for f in fixtures} | {f.away_team_id for f in fixtures},
            key=lambda team_id: team_name(teams[team_id]).casefold(),
        )
        names = {team_id: team_name(teams[team_id]) for team_id in entered}
        table = tables.league_table(entered, played, names)
    return SeasonSnapshot(league, season, views, tuple(table), names)


def start_fixture(session: DbSession, fixture_id: int) -> Game:
    """The fixture's partners game: started now, or the one already started (on another phone).

    A rotation fixture's game lasts ROTATION_FIXTURE_HANDS hands; a team fixture's goes to the
    league's target.
    """
    if not is_id(fixture_id):
        raise NotFound(_("There is no such fixture."))
    with in_transaction(session):
        return _start_fixture(session, fixture_id)


def _start_fixture(session: DbSession, fixture_id: int) -> Game:
    lock_fixture(session, fixture_id)
    fixture = session.scalar(
        select(Fixture)
        .where(Fixture.id == fixture_id)
        .options(
            joinedload(Fixture.season).joinedload(Season.league),
            joinedload(Fixture.home).joinedload(LeagueTeam.first_player),
            joinedload(Fixture.home).joinedload(LeagueTeam.second_player),
            joinedload(Fixture.away).joinedload(LeagueTeam.first_player),
            joinedload(Fixture.away).joinedload(LeagueTeam.second_player),
            joinedload(Fixture.game),
        )
    )
    if fixture is None:
        raise NotFound(_("There is no such fixture."))
    if fixture.game is not None:
        return fixture.game
    home, away = fixture.home, fixture.away
    seated = [home.first_player, away.first_player, home.second_player, away.second_player]
    league = fixture.season.league
    game = games.add_game(
        session,
        Mode.PARTNERS.value,
        [player.name for player in seated],
        league.target,
        team_names=[home.name or "", away.name or ""],
        hands=ROTATION_FIXTURE_HANDS if league.format == "rotation" else None,
    )
    fixture.game = game
    return game


def _new_season(league: League, legs: int) -> Season:
    number = max((season.number for season in league.seasons), default=0) + 1
    return Season(league=league, number=number, legs=legs)


def _saved_season(session: DbSession, add: Callable[[], Season]) -> Season:
    try:
        with in_transaction(session):
            return add()
    except IntegrityError:
        raise Conflict(_("Another season was started just now; have a look at it first.")) from None


def _results(
    session: DbSession, season_id: int, fixtures: list[Fixture]
) -> dict[int, tables.FixtureResult]:
    rows = session.execute(
        select(
            Fixture.id,
            GameResult.side,
            func.max(GameResult.score),
            func.max(case((GameResult.won, 1), else_=0)),
        )
        .join(GameResult, GameResult.game_id == Fixture.game_id)
        .where(Fixture.season_id == season_id)
        .group_by(Fixture.id, GameResult.side)
    ).all()
    sides: dict[int, dict[int, tuple[int, int]]] = {}
    for fixture_id, side, score, won in rows:
        sides.setdefault(fixture_id, {})[side] = (score, won)
    results = {}
    for fixture in fixtures:
        found = sides.get(fixture.id)
        if not found or set(found) != {0, 1}:
            continue
        (home_score, home_won), (away_score, away_won) = found[0], found[1]
        results[fixture.id] = tables.FixtureResult(
            fixture.home_team_id,
            fixture.away_team_id,
            home_score,
            away_score,
            bool(home_won),
            shared=bool(home_won and away_won),
        )
    return results
