"""Each roster player's record: games played and games won, wins derived by replaying the hands."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from .. import scoring
from ..models import Game, Hand, Player, Seat
from . import players
from .errors import NotFound
from .games import hand_of, rules_of


@dataclass(frozen=True)
class PlayerRecord:
    """A roster entry with how many games it sat in and how many of those its side won."""

    player: Player
    games: int
    wins: int


def player_records(session: Session) -> list[PlayerRecord]:
    """Everyone on the roster, most often seated first, in a fixed number of queries."""
    return _records(session, players.roster(session), None)


def player_record(session: Session, player_id: int) -> PlayerRecord:
    """One roster entry's record; NotFound when there is no such player."""
    player = session.get(Player, player_id)
    if player is None:
        raise NotFound("There is no such player.")
    return _records(session, [player], player_id)[0]


def _records(session: Session, roster: list[Player], player_id: int | None) -> list[PlayerRecord]:
    seats = select(Seat.player_id, func.count()).group_by(Seat.player_id)
    # Only finished games have a winner, and only they need their hands replayed.
    finished = (
        select(Game)
        .where(Game.finished_at.is_not(None))
        .options(
            selectinload(Game.seats),
            selectinload(Game.hands).selectinload(Hand.counts),
        )
    )
    if player_id is not None:
        seats = seats.where(Seat.player_id == player_id)
        finished = finished.where(Game.seats.any(Seat.player_id == player_id))
    played: dict[int, int] = {player: games for player, games in session.execute(seats)}
    won: Counter[int] = Counter()
    for game in session.scalars(finished):
        winner = _winning_seats(game)
        if winner is not None:
            won.update(game.seats[position].player_id for position in winner)
    return [PlayerRecord(player, played.get(player.id, 0), won[player.id]) for player in roster]


def _winning_seats(game: Game) -> tuple[int, ...] | None:
    """The seats of the side that won `game`, or None while it is being played."""
    state = scoring.replay(rules_of(game), [hand_of(hand) for hand in game.hands])
    return None if state.winner is None else state.sides[state.winner].seats
