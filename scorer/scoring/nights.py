"""A league night: which round the room is playing, from the state of each round's fixtures.

A fixture is "waiting" (not started), "playing" or "played". The night's round is the first round
with a fixture not yet played. Before any of its tables has started, the room is between rounds
(after the previous round's last table finished), or before the first round; once every round is
played, the season is over and the last round stays on the board.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

BEFORE = "before"
PLAYING = "playing"
BETWEEN = "between"
OVER = "over"


@dataclass(frozen=True)
class NightPhase:
    """Where the night stands: `stage` (one of the names above) and the round it is about.

    `finished` is the round whose results the board shows: the round just played between rounds,
    the last round once the season is over, else None.
    """

    stage: str
    round: int | None
    finished: int | None = None


def night_phase(rounds: Mapping[int, Sequence[str]]) -> NightPhase:
    """The phase of a season whose fixtures' states are given round by round."""
    numbers = sorted(number for number, states in rounds.items() if states)
    if not numbers:
        return NightPhase(OVER, None)
    for index, number in enumerate(numbers):
        states = rounds[number]
        if all(state == "played" for state in states):
            continue
        if any(state != "waiting" for state in states):
            return NightPhase(PLAYING, number)
        if index == 0:
            return NightPhase(BEFORE, number)
        return NightPhase(BETWEEN, number, numbers[index - 1])
    return NightPhase(OVER, numbers[-1], numbers[-1])
