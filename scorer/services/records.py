"""Each roster player's record: games played and games won, wins read from the stored results."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ..models import GameResult, Player, Seat
from . import players
from .errors import NotFound


@dataclass(frozen=True)
class PlayerRecord:
    """A roster entry with how many games it sat in and how many of those its side won."""

    player: Player
    games: int
    wins: int


def player_records(session: Session) -> list[PlayerRecord]:
    """Everyone on the roster, most often seated first, in a fixed number of queries."""
    return _records(session, players.roster(session, archived=True), None)


def player_record(session: Session, player_id: int) -> PlayerRecord:
    """One roster entry's record; NotFound when there is no such player."""
    player = session.get(Player, player_id)
    if player is None:
        raise NotFound("There is no such player.")
    return _records(session, [player], player_id)[0]


def _records(session: Session, roster: list[Player], player_id: int | None) -> list[PlayerRecord]:
    # Games played count every game sat in, finished or not; only finished games have a winner,
    # and their results are stored (scorer.services.results) as the hand that ends them is saved.
    seats = select(Seat.player_id, func.count()).group_by(Seat.player_id)
    wins = (
        select(GameResult.player_id, func.count())
        .where(GameResult.won)
        .group_by(GameResult.player_id)
    )
    if player_id is not None:
        seats = seats.where(Seat.player_id == player_id)
        wins = wins.where(GameResult.player_id == player_id)
    played: dict[int, int] = {player: games for player, games in session.execute(seats)}
    won: dict[int, int] = {player: games for player, games in session.execute(wins)}
    return [
        PlayerRecord(player, played.get(player.id, 0), won.get(player.id, 0)) for player in roster
    ]
