"""Keeping the roster tidy: rename a player, merge two entries for one person, archive and restore.

A player's games, results and league teams point at the roster entry, so a new name shows on every
game they played. Merging moves everything of one entry to the other, deletes the empty entry and
re-rates every game from the first one the merged entry played.
"""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import delete, func, select, update

from ..database import DbSession
from ..field_rules import clean_name, name_key, name_problem
from ..models import Game, GameResult, LeagueTeam, Player, Seat, utcnow
from ..scoring import Problem, Rejected
from . import period_totals, players, results
from .transactions import in_transaction


def rename(session: DbSession, player_id: int, name: str) -> Player:
    """Give a player a new name; refused when it is blank, too long or another player's."""
    with in_transaction(session):
        return _rename(session, player_id, name)


def _rename(session: DbSession, player_id: int, name: str) -> Player:
    player = players.load_player(session, player_id)
    problem = name_problem(name)
    if problem:
        raise Rejected([Problem(problem, "name")])
    key = name_key(name)
    other = session.scalar(select(Player).where(Player.name_key == key, Player.id != player_id))
    if other is not None:
        raise Rejected(
            [
                Problem(
                    _(
                        "%(name)s is already on the roster. If they are the same person, "
                        "merge them instead.",
                        name=other.name,
                    ),
                    "name",
                )
            ]
        )
    # The locks in the order a game's writers take them: its row, then the rating lock, which
    # every writer of the totals holds. Without it a game finishing meanwhile could write the
    # player's totals with the old name after this rewrote them.
    _bump_games_of(session, player.id)
    results.lock(session)
    player.name = clean_name(name)
    player.name_key = key
    period_totals.renamed(session, player.id, key)
    return player


def _bump_games_of(session: DbSession, player_id: int) -> None:
    """A new version for every game the player sat in: they show the player's name.

    Open pages poll a game's version, and its chart is cached by version (scorer.views.charts), so
    without a new one they would keep showing the old name.
    """
    session.execute(
        update(Game)
        .where(Game.id.in_(select(Seat.game_id).where(Seat.player_id == player_id)))
        .values(version=Game.version + 1)
        .execution_options(synchronize_session=False)
    )


def set_archived(session: DbSession, player_id: int, archived: bool) -> Player:
    """Hide a player from the pickers (their history stays), or bring them back."""
    with in_transaction(session):
        player = players.load_player(session, player_id)
        player.archived_at = (player.archived_at or utcnow()) if archived else None
    return player


def merge(session: DbSession, keep_id: int, drop_id: int) -> Player:
    """Make `drop_id`'s games, results and teams `keep_id`'s, delete `drop_id`, and re-rate.

    Refused when they are the same entry, sat in the same game (two people, then) or are both in
    teams that would become the same team.
    """
    with in_transaction(session):
        return _merge(session, keep_id, drop_id)


def _merge(session: DbSession, keep_id: int, drop_id: int) -> Player:
    keep = players.load_player(session, keep_id)
    drop = players.load_player(session, drop_id)
    if keep.id == drop.id:
        raise Rejected([Problem(_("Choose another player to merge."), "other")])
    shared = session.scalar(
        select(func.count())
        .select_from(Seat)
        .where(
            Seat.player_id == keep.id,
            Seat.game_id.in_(select(Seat.game_id).where(Seat.player_id == drop.id)),
        )
    )
    if shared:
        raise Rejected(
            [
                Problem(
                    ngettext(
                        "%(kept)s and %(dropped)s played in the same game (%(num)s game), so "
                        "they are two people.",
                        "%(kept)s and %(dropped)s played in the same game (%(num)s games), so "
                        "they are two people.",
                        shared,
                        kept=keep.name,
                        dropped=drop.name,
                    ),
                    "other",
                )
            ]
        )
    # Ratings from the first game of the merged entry on are computed again, under the lock.
    results.lock(session)
    start = results.players_games_from(session, [drop.id])
    _move_teams(session, keep, drop)
    session.execute(update(Seat).where(Seat.player_id == drop.id).values(player_id=keep.id))
    session.execute(
        update(GameResult).where(GameResult.player_id == drop.id).values(player_id=keep.id)
    )
    period_totals.players_changed(session, [keep.id, drop.id])
    # The dropped entry's games now show the kept name.
    _bump_games_of(session, keep.id)
    session.expunge(drop)
    session.execute(delete(Player).where(Player.id == drop.id))
    if start is not None:
        results.recompute_from(session, start)
    return keep


def _move_teams(session: DbSession, keep: Player, drop: Player) -> None:
    def teams_of(player: Player) -> list[LeagueTeam]:
        return list(
            session.scalars(
                select(LeagueTeam).where(
                    (LeagueTeam.first_player_id == player.id)
                    | (LeagueTeam.second_player_id == player.id)
                )
            )
        )

    moving = teams_of(drop)
    if not moving:
        return
    if {team.league_id for team in moving} & {team.league_id for team in teams_of(keep)}:
        # One person in two teams of a league could be drawn against themselves.
        raise Rejected(
            [
                Problem(
                    _(
                        "%(kept)s and %(dropped)s are both in teams of one league.",
                        kept=keep.name,
                        dropped=drop.name,
                    ),
                    "other",
                )
            ]
        )
    for team in moving:
        partner = team.second_player_id if team.first_player_id == drop.id else team.first_player_id
        team.first_player_id, team.second_player_id = sorted((keep.id, partner))
    session.flush()
