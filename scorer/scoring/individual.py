"""Four-player individual play: each player's points against each of the others.

The rule is written out in docs/rules.md#individual-play.

When a player goes out, every other player's cards score for that player against that one, so the
game keeps a 4×4 table of head-to-head points. Row i, column j holds the points seat i has scored
against seat j; the diagonal is 0, and row i adds up to seat i's total score.
"""

from __future__ import annotations

from .game import GameState


def head_to_head(state: GameState) -> tuple[tuple[int, ...], ...]:
    """Points scored by each seat (row) against each other seat (column), in card points."""
    seats = state.rules.players
    table = [[0] * seats for _ in range(seats)]
    for hand in state.hands:
        for seat, points in hand.counted.items():
            table[hand.went_out][seat] += points
    return tuple(tuple(row) for row in table)
