"""Renaming a league's teams, and removing one that has not played."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from scorer.models import Fixture, LeagueTeam
from scorer.scoring import Rejected
from scorer.services import league_teams, leagues
from scorer.services.errors import Conflict, NotFound


@pytest.fixture
def league(session) -> int:
    league = leagues.create_league(session, "Club", 100)
    for pair in (("Ann", "Bob"), ("Cat", "Dan"), ("Eve", "Fay")):
        leagues.register_team(session, league.id, *pair)
    return league.id


def test_a_team_is_renamed_and_a_blank_name_calls_it_after_its_players(session, league):
    league_teams.rename_team(session, 1, "  The   Aces ")
    assert leagues.team_name(session.get(LeagueTeam, 1)) == "The Aces"
    league_teams.rename_team(session, 1, "")
    assert leagues.team_name(session.get(LeagueTeam, 1)) == "Ann & Bob"


def test_a_name_too_long_is_refused(session, league):
    with pytest.raises(Rejected) as refused:
        league_teams.rename_team(session, 1, "x" * 61)
    assert [problem.field for problem in refused.value.problems] == ["name"]
    assert session.get(LeagueTeam, 1).name is None


def test_a_team_that_has_not_played_is_removed_with_its_waiting_fixtures(session, league):
    leagues.add_season(session, league)
    assert session.scalar(sa.select(sa.func.count()).select_from(Fixture)) == 3

    assert league_teams.remove_team(session, 3) == league

    session.expire_all()
    assert [team.id for team in leagues.load_league(session, league).teams] == [1, 2]
    fixtures = session.scalars(sa.select(Fixture)).all()
    assert [(f.home_team_id, f.away_team_id) for f in fixtures] in ([(1, 2)], [(2, 1)])


def test_a_team_that_has_started_a_fixture_stays(session, league):
    leagues.add_season(session, league)
    fixture = session.scalars(sa.select(Fixture).order_by(Fixture.id)).first()
    leagues.start_fixture(session, fixture.id)
    assert league_teams.played_teams(session, league) == {
        fixture.home_team_id,
        fixture.away_team_id,
    }

    with pytest.raises(Conflict):
        league_teams.remove_team(session, fixture.home_team_id)
    assert session.get(LeagueTeam, fixture.home_team_id) is not None


def test_a_missing_team_is_not_found(session, league):
    with pytest.raises(NotFound):
        league_teams.rename_team(session, 99, "X")
    with pytest.raises(NotFound):
        league_teams.remove_team(session, 2**80)
