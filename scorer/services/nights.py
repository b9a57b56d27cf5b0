"""A league night: the board of the round being played, its validator, and starting a round.

The board reads the season as the season page does (services.leagues.load_season) and the games
of the round on the board in one more statement, with their hands through the replay cache
(services.snapshots): the same statements for two tables or twelve.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext as _
from sqlalchemy import func, select

from ..database import DbSession
from ..field_rules import is_id
from ..models import Fixture, Game, Season
from ..scoring import nights
from . import leagues
from .errors import NotFound
from .snapshots import GameSnapshot, snapshots_of, with_players


@dataclass(frozen=True)
class BoardTable:
    """One table of the round on the board: its fixture, and its game once started."""

    fixture: leagues.FixtureSnapshot
    home: str
    away: str
    game: GameSnapshot | None

    @property
    def number(self) -> int:
        return self.fixture.fixture.table_number

    @property
    def finished(self) -> bool:
        return self.game is not None and self.game.state.finished


@dataclass(frozen=True)
class NightBoard:
    """The season, where its night stands, and the tables of the round on the board."""

    season: leagues.SeasonSnapshot
    phase: nights.NightPhase
    tables: tuple[BoardTable, ...]
    # The round just finished, between rounds or once the season is over.
    results: tuple[BoardTable, ...]

    @property
    def finished_tables(self) -> int:
        return sum(table.finished for table in self.tables)


def load_board(session: DbSession, league_id: int, number: int) -> NightBoard:
    """The season's board, in a fixed number of statements however many tables play."""
    season = leagues.load_season(session, league_id, number)
    rounds = dict(season.rounds)
    phase = nights.night_phase(
        {round_number: [item.state for item in items] for round_number, items in rounds.items()}
    )
    over = phase.round is None or phase.stage == nights.OVER
    shown = [] if over or phase.round is None else rounds[phase.round]
    done = rounds.get(phase.finished, []) if phase.finished is not None else []
    tables = _tables(session, season, [*shown, *done])
    return NightBoard(season, phase, tables[: len(shown)], tables[len(shown) :])


def round_tables(
    session: DbSession, league_id: int, number: int, round_number: int
) -> tuple[leagues.SeasonSnapshot, tuple[BoardTable, ...]]:
    """The season and the tables of one of its rounds, each with its game once started."""
    season = leagues.load_season(session, league_id, number)
    items = dict(season.rounds).get(round_number)
    if not items:
        raise NotFound(_("This season has no such round."))
    return season, _tables(session, season, items)


def start_round(session: DbSession, league_id: int, number: int, round_number: int) -> None:
    """Start the game of every table of the round not started yet (each as start_fixture does)."""
    _, tables = round_tables(session, league_id, number, round_number)
    for table in tables:
        if table.game is None:
            leagues.start_fixture(session, table.fixture.fixture.id)


def board_version(session: DbSession, league_id: int, number: int) -> str:
    """What the board shows depends on, in one statement of one row, however many fixtures.

    Every change to a game's hands (an abandon or a resume too) bumps its version, so the sum of
    the versions moves on with any of them; a fixture started adds its game, and a game deleted
    takes it away again (its id is never given to another game).
    """
    if not is_id(league_id) or not is_id(number):
        raise NotFound(_("This league has no such season."))
    row = session.execute(
        select(
            func.min(Season.id),
            func.count(Fixture.game_id),
            func.coalesce(func.sum(Fixture.game_id), 0),
            func.coalesce(func.sum(Game.version), 0),
        )
        .select_from(Season)
        .join(Fixture, Fixture.season_id == Season.id, isouter=True)
        .join(Game, Game.id == Fixture.game_id, isouter=True)
        .where(Season.league_id == league_id, Season.number == number)
    ).one()
    season_id, started, games, versions = row
    if season_id is None:
        raise NotFound(_("This league has no such season."))
    return f"board-{season_id}-{started}-{games}-{versions}"


def _tables(
    session: DbSession, season: leagues.SeasonSnapshot, items: list[leagues.FixtureSnapshot]
) -> tuple[BoardTable, ...]:
    snapshots = _snapshots(session, items)
    rotation = season.league.format == "rotation"

    def table(item: leagues.FixtureSnapshot) -> BoardTable:
        fixture = item.fixture
        home, away = (
            (leagues.members(fixture.home), leagues.members(fixture.away))
            if rotation
            else (season.names[fixture.home_team_id], season.names[fixture.away_team_id])
        )
        game = snapshots.get(fixture.game_id) if fixture.game_id is not None else None
        return BoardTable(item, home, away, game)

    return tuple(map(table, items))


def _snapshots(session: DbSession, items: list[leagues.FixtureSnapshot]) -> dict[int, GameSnapshot]:
    game_ids = sorted({item.fixture.game_id for item in items if item.fixture.game_id})
    if not game_ids:
        return {}
    found = session.scalars(select(Game).where(Game.id.in_(game_ids)).options(*with_players()))
    return {snapshot.game.id: snapshot for snapshot in snapshots_of(session, found.unique().all())}
