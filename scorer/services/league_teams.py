"""Tidying a league's teams: renaming one, or removing one that has not played yet.

A team that has started a fixture stays: its games and the season's table depend on it. Removing
one that has not takes its waiting fixtures with it, so its would-be opponents sit those rounds out.
"""

from __future__ import annotations

from flask_babel import gettext as _
from sqlalchemy import delete, exists, select

from ..database import DbSession
from ..field_rules import TEAM_NAME, clean_name, is_id
from ..models import Fixture, LeagueTeam
from ..scoring import Problem, Rejected
from .errors import Conflict, NotFound
from .transactions import in_transaction


def rename_team(session: DbSession, team_id: int, name: str) -> LeagueTeam:
    """Give a team a new name; a blank one calls it after its players again."""
    if problem := TEAM_NAME.problem(name or ""):
        raise Rejected([Problem(problem, "name")])
    name = clean_name(name or "")
    with in_transaction(session):
        team = load_team(session, team_id)
        team.name = name or None
    return team


def remove_team(session: DbSession, team_id: int) -> int:
    """Remove a team that has started no fixture, with its waiting fixtures; gives its league."""
    with in_transaction(session):
        team = load_team(session, team_id)
        if has_played(session, team_id):
            raise Conflict(
                _("This team has played (or started) a fixture, so it stays in the league.")
            )
        league_id = team.league_id
        session.execute(
            delete(Fixture)
            .where((Fixture.home_team_id == team_id) | (Fixture.away_team_id == team_id))
            .execution_options(synchronize_session=False)
        )
        session.delete(team)
    return league_id


def has_played(session: DbSession, team_id: int) -> bool:
    """Whether any fixture of the team has a game."""
    return bool(
        session.scalar(
            select(
                exists().where(
                    (Fixture.home_team_id == team_id) | (Fixture.away_team_id == team_id),
                    Fixture.game_id.is_not(None),
                )
            )
        )
    )


def played_teams(session: DbSession, league_id: int) -> set[int]:
    """The ids of the league's teams that have started a fixture: they cannot be removed."""
    rows = session.execute(
        select(Fixture.home_team_id, Fixture.away_team_id)
        .join(LeagueTeam, LeagueTeam.id == Fixture.home_team_id)
        .where(LeagueTeam.league_id == league_id, Fixture.game_id.is_not(None))
    )
    return {team_id for pair in rows for team_id in pair}


def load_team(session: DbSession, team_id: int) -> LeagueTeam:
    if not is_id(team_id):
        raise NotFound(_("There is no such team."))
    team = session.get(LeagueTeam, team_id)
    if team is None:
        raise NotFound(_("There is no such team."))
    return team
