"""Test data made through the services, so it is always data the app itself could have made."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sqlalchemy.orm import Session

from scorer import scoring
from scorer.models import Game
from scorer.services import games, hands
from scorer.services.snapshots import GameSnapshot

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon")


def make_game(
    session: Session,
    players: int | Sequence[str] = 4,
    mode: str = "standard",
    target: int = 500,
    first_dealer: int = 0,
) -> Game:
    names = NAMES[:players] if isinstance(players, int) else players
    return games.create_game(session, mode, list(names), target, first_dealer)


def record(
    session: Session,
    game: Game | int,
    went_out: int,
    counts: Mapping[int, int | Sequence[str]],
    number: int | None = None,
) -> GameSnapshot:
    """Record the next hand: counts are typed totals (int) or card tokens, by seat."""
    game_id = game if isinstance(game, int) else game.id
    if number is None:
        number = games.load_game(session, game_id).state.next_hand_number
    return hands.record_hand(session, game_id, number, entry(went_out, counts))


def entry(went_out: int | None, counts: Mapping[int, int | Sequence[str]]) -> hands.HandEntry:
    return hands.HandEntry(
        went_out,
        {
            seat: scoring.Count(points=value)
            if isinstance(value, int)
            else scoring.Count(cards=tuple(value))
            for seat, value in counts.items()
        },
    )


def hand_form(went_out: int | None, counts: Mapping[int, int | Sequence[str]], number: int) -> dict:
    """The form fields the tally pad posts for a hand."""
    data = {"number": str(number), "action": "save", "last_card": ""}
    if went_out is not None:
        data["went_out"] = str(went_out)
    for seat, value in counts.items():
        if isinstance(value, int):
            data[f"counts-{seat}-points"] = str(value)
        else:
            data[f"counts-{seat}-cards"] = " ".join(value)
    return data
