"""Where a game stands in its league: the fixture it plays, and the fixture due after it."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.orm import joinedload

from ..database import DbSession
from ..models import Fixture, Game, LeagueTeam, Season
from .errors import Conflict
from .leagues import start_fixture, team_name
from .snapshots import load_game


@dataclass(frozen=True)
class FixturePlace:
    """A fixture game's league, season, round and table, and the next fixture not yet started."""

    league_id: int
    league_name: str
    season_number: int
    round: int
    table: int
    home: str
    away: str
    next_fixture_id: int | None = None
    next_home: str = ""
    next_away: str = ""


def place_of_game(session: DbSession, game_id: int) -> FixturePlace | None:
    """The fixture the game plays, or None for a casual game; two queries at most."""
    fixture = session.scalar(
        select(Fixture)
        .where(Fixture.game_id == game_id)
        .options(
            joinedload(Fixture.season).joinedload(Season.league),
            *_with_teams(),
        )
    )
    if fixture is None:
        return None
    after = _next_fixture(session, fixture.season_id)
    return FixturePlace(
        league_id=fixture.season.league_id,
        league_name=fixture.season.league.name,
        season_number=fixture.season.number,
        round=fixture.round,
        table=fixture.table_number,
        home=team_name(fixture.home),
        away=team_name(fixture.away),
        next_fixture_id=after.id if after else None,
        next_home=team_name(after.home) if after else "",
        next_away=team_name(after.away) if after else "",
    )


def play_next(session: DbSession, game_id: int) -> Game | None:
    """After a finished fixture game, the season's next fixture's game (started now if need be).

    None when every fixture of the season has been started. A league plays its fixtures in order:
    after one, the table goes on to the next, not to a casual game with the same seats.
    """
    if not load_game(session, game_id).state.finished:
        raise Conflict(
            _("This game is still being played; the next fixture starts when it is over.")
        )
    place = place_of_game(session, game_id)
    if place is None or place.next_fixture_id is None:
        return None
    return start_fixture(session, place.next_fixture_id)


def _next_fixture(session: DbSession, season_id: int) -> Fixture | None:
    return session.scalar(
        select(Fixture)
        .where(Fixture.season_id == season_id, Fixture.game_id.is_(None))
        .order_by(Fixture.round, Fixture.table_number)
        .limit(1)
        .options(*_with_teams())
    )


def _with_teams() -> tuple:
    return (
        joinedload(Fixture.home).joinedload(LeagueTeam.first_player),
        joinedload(Fixture.home).joinedload(LeagueTeam.second_player),
        joinedload(Fixture.away).joinedload(LeagueTeam.first_player),
        joinedload(Fixture.away).joinedload(LeagueTeam.second_player),
    )
