"""The JSON documents the API answers with, written from what the services derive.

Nothing is computed here that the scoring code does not already give: scores, distances to the
target, eliminations, the dealer and the winner all come from the replayed GameState. The shape of
each document is declared in scorer.api.schemas.
"""

from __future__ import annotations

from typing import Literal

from .. import scoring
from ..models import Seat
from ..services.pages import GameRow
from ..services.players import RosterEntry
from ..services.snapshots import GameSnapshot
from . import schemas


def game_document(view: GameSnapshot) -> schemas.Game:
    """A game with its players, teams (partners only), hands and standing."""
    state = view.state
    names = view.names
    partners = state.rules.mode is scoring.Mode.PARTNERS
    winner = view.winner
    hands_won = [0] * state.rules.players
    for hand in state.hands:
        hands_won[hand.went_out] += 1
    against = scoring.head_to_head(state) if state.rules.mode is scoring.Mode.INDIVIDUAL else None
    return schemas.Game(
        id=view.game.id,
        mode=state.rules.mode.value,
        target=state.rules.target,
        deck=schemas.Deck(
            copies=state.rules.deck.copies,
            blanks=state.rules.deck.blanks,
            blank_value=state.rules.deck.blank_value,
        ),
        status="finished" if state.finished else "in_progress",
        hand_limit=state.rules.hands,
        winner=None if winner is None else _winner(view, winner),
        shared=[_winner(view, side) for side in view.sharers],
        dealer=names[state.dealer],
        hand_count=len(state.hands),
        players=[_player(view, seat, partners, hands_won, against) for seat in view.game.seats],
        teams=[
            schemas.Team(
                name=view.side_name(side),
                players=[names[seat] for seat in side.seats],
                score=side.score,
                to_target=side.to_target,
            )
            for side in state.sides
        ]
        if partners
        else [],
        hands=[
            schemas.HandResult(
                number=hand.number,
                went_out=names[hand.went_out],
                counts={names[seat]: points for seat, points in hand.counted.items()},
                points=hand.gain,
            )
            for hand in state.hands
        ],
    )


def _player(
    view: GameSnapshot,
    seat: Seat,
    partners: bool,
    hands_won: list[int],
    against: tuple[tuple[int, ...], ...] | None,
) -> schemas.GamePlayer:
    side = view.state.side_of(seat.position)
    ids = [other.player_id for other in view.game.seats]
    return schemas.GamePlayer(
        id=seat.player_id,
        name=seat.player.name,
        seat=seat.position,
        score=side.score,
        to_target=side.to_target,
        eliminated=side.eliminated,
        team=view.side_name(side) if partners else None,
        hands_won=hands_won[seat.position],
        against=None
        if against is None
        else {
            str(ids[other]): points
            for other, points in enumerate(against[seat.position])
            if other != seat.position
        },
    )


def _winner(view: GameSnapshot, side: scoring.SideState) -> schemas.Winner:
    return schemas.Winner(
        name=view.side_name(side), players=[view.names[seat] for seat in side.seats]
    )


def game_summary(row: GameRow) -> schemas.GameSummary:
    """A game in a list: its players and how far it went, not its hands."""
    status: Literal["in_progress", "finished", "abandoned"]
    if row.abandoned:
        status = "abandoned"
    elif row.finished:
        status = "finished"
    else:
        status = "in_progress"
    return schemas.GameSummary(
        id=row.id,
        mode=row.mode,
        status=status,
        players=row.players,
        hand_count=row.hand_count,
        created_at=row.created_at.isoformat(timespec="seconds") + "Z",
    )


def player_document(record: RosterEntry) -> schemas.Player:
    """A roster player with the games they sat in and the games their side won."""
    return schemas.Player(
        id=record.player.id, name=record.player.name, games=record.games, wins=record.wins
    )
