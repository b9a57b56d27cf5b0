"""What a game means beyond its own evening: places, each player's part, streaks, score lines.

Places are 1-based and shared by a tie ("competition ranking": 1, 2, 2, 4). In a standard game the
winner is first and the other sides follow by final score; in a partners game the same, per team;
in Challenge UNO the survivor is first and the others follow in reverse order of elimination,
sides eliminated in the same hand sharing a place (docs/rules.md#standings-and-ratings). In a
game of fixed length the winners come first, the others in the order the game ranks them
(individual play: hands won, then points). Everyone who shares a win is placed first and counts it
as a win. Points are whole card points.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from .game import GameState, Mode


class _Record(Protocol):
    # Read-only, so a record may hold them as fields or work them out as properties.
    @property
    def wins(self) -> int: ...

    @property
    def games(self) -> int: ...


class WinRate:
    """Mixed into a record of `wins` out of `games`: the share won, 0 before the first game."""

    @property
    def win_rate(self: _Record) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True)
class SeatResult:
    """One seat's part in a finished game.

    `score` is the side's final score (points won, or in Challenge points against); `hands_won`,
    `points_won` and `biggest_hand` count only hands this seat itself went out in, and points are
    won only in standard and partners games.
    """

    seat: int
    side: int
    place: int
    won: bool
    score: int
    hands_won: int
    points_won: int
    biggest_hand: int


def places(state: GameState) -> tuple[int, ...]:
    """The place of every side, by side index; the game must be finished."""
    if not state.finished:
        raise ValueError("An unfinished game has no places.")
    if state.rules.mode is Mode.CHALLENGE:
        # The winners first, then whoever lasted longest; out in the same hand, placed together.
        # A game of fixed length can end with several still in: the fewer points, the better.
        fixed = state.rules.hands is not None
        outlasted = {
            side.index: (
                side.index not in state.winners,
                side.eliminated,
                -(side.eliminated_in or 0),
                side.score if fixed and not side.eliminated else 0,
            )
            for side in state.sides
        }
        return competition_ranks([outlasted[side.index] for side in state.sides])
    winners = state.winners
    if state.rules.mode is Mode.INDIVIDUAL:
        return competition_ranks(
            [(side.index not in winners, -side.hands_won, -side.score) for side in state.sides]
        )
    return competition_ranks([(side.index not in winners, -side.score) for side in state.sides])


def competition_ranks(keys: Sequence[tuple]) -> tuple[int, ...]:
    """1-based ranks of `keys` (smaller is better), equal keys sharing the best rank among them."""
    ordered = sorted(keys)
    return tuple(ordered.index(key) + 1 for key in keys)


def seat_results(state: GameState) -> tuple[SeatResult, ...]:
    """Every seat's result in a finished game, by seat."""
    placed = places(state)
    scores_points = state.rules.mode is not Mode.CHALLENGE
    hands_won = [0] * state.rules.players
    points_won = [0] * state.rules.players
    biggest = [0] * state.rules.players
    for hand in state.hands:
        hands_won[hand.went_out] += 1
        if scores_points and hand.gain is not None:
            points_won[hand.went_out] += hand.gain
            biggest[hand.went_out] = max(biggest[hand.went_out], hand.gain)
    results = []
    for seat in range(state.rules.players):
        side = state.rules.side_of(seat)
        results.append(
            SeatResult(
                seat=seat,
                side=side,
                place=placed[side],
                won=side in state.winners,
                score=state.sides[side].score,
                hands_won=hands_won[seat],
                points_won=points_won[seat],
                biggest_hand=biggest[seat],
            )
        )
    return tuple(results)


def score_lines(state: GameState) -> tuple[tuple[int, ...], ...]:
    """Each side's score before the first hand and after every hand, by side index."""
    rules = state.rules
    scores = [0] * len(state.sides)
    lines: list[list[int]] = [[0] for _ in state.sides]
    for hand in state.hands:
        if rules.mode is Mode.CHALLENGE:
            for seat, points in hand.counted.items():
                scores[rules.side_of(seat)] += points
        elif hand.gain is not None:
            scores[rules.side_of(hand.went_out)] += hand.gain
        for side, score in enumerate(scores):
            lines[side].append(score)
    return tuple(tuple(line) for line in lines)


def streaks(wins: Sequence[bool]) -> tuple[int, int]:
    """(current, longest) run of consecutive wins in games given oldest first."""
    current = longest = 0
    for won in wins:
        current = current + 1 if won else 0
        longest = max(longest, current)
    return current, longest


@dataclass(frozen=True)
class Rivalry:
    """One opponent as a player met them: games against, and who finished ahead how often."""

    opponent: int
    games: int
    ahead: int
    behind: int


def nemesis(rivalries: Sequence[Rivalry]) -> Rivalry | None:
    """The opponent who finished ahead of the player most often (then most often in proportion).

    None when nobody ever finished ahead of them.
    """
    beaten_by = [rivalry for rivalry in rivalries if rivalry.behind > 0]
    if not beaten_by:
        return None
    return min(
        beaten_by,
        key=lambda rivalry: (-rivalry.behind, -rivalry.behind / rivalry.games, rivalry.opponent),
    )
