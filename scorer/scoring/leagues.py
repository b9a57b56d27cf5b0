"""Leagues: round-robin fixtures, the official eight-player rotation, and league tables.

A fixture is (home, away). In a team league a result counts as a win for the team that won the
partners game, and its final score as points for it and against the other team. The table ranks by
games won; teams level on wins are ordered by the games won among themselves (head-to-head), then
by points difference, then by points scored, then by name.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T", bound=Hashable)
# A player of a team, in the eight-player format's table.
P = TypeVar("P", bound=Hashable)

ROTATION_PLAYERS = 8


def round_robin(teams: Sequence[T], legs: int = 1) -> list[list[tuple[T, T]]]:
    """Rounds of (home, away) fixtures in which every two teams meet `legs` times (1 or 2).

    The circle method: with an odd number of teams one sits out each round. In a second leg every
    fixture of the first comes again with home and away swapped.
    """
    if legs not in (1, 2):
        raise ValueError("Teams meet once or twice.")
    if len(set(teams)) != len(teams):
        raise ValueError("A team can be entered once.")
    order: list[T | None] = list(teams)
    if len(order) < 2:
        return []
    if len(order) % 2:
        order.append(None)
    size = len(order)
    rounds: list[list[tuple[T, T]]] = []
    for number in range(size - 1):
        fixtures = []
        for i in range(size // 2):
            home, away = order[i], order[size - 1 - i]
            if home is None or away is None:
                continue
            # The team that never moves would otherwise always be at home.
            if i == 0 and number % 2:
                home, away = away, home
            fixtures.append((home, away))
        rounds.append(fixtures)
        order = [order[0], order[-1], *order[1:-1]]
    if legs == 2:
        rounds += [[(away, home) for home, away in fixtures] for fixtures in rounds]
    return rounds


def rotation(players: Sequence[T]) -> list[list[tuple[tuple[T, T], tuple[T, T]]]]:
    """The official eight-player format: 7 rounds of two tables, each table two partner pairs.

    Every player partners every other player exactly once (docs/rules.md#leagues).
    """
    if len(players) != ROTATION_PLAYERS or len(set(players)) != ROTATION_PLAYERS:
        raise ValueError(f"The rotation needs {ROTATION_PLAYERS} different players.")
    rounds = []
    for pairs in round_robin(players):
        rounds.append([(pairs[0], pairs[1]), (pairs[2], pairs[3])])
    return rounds


@dataclass(frozen=True)
class FixtureResult(Generic[T]):
    """A played fixture: the final score of each team and whether the home team won.

    `shared`: a fixture of fixed length ended level, and each team counts the win
    (docs/rules.md#leagues).
    """

    home: T
    away: T
    home_score: int
    away_score: int
    home_won: bool
    shared: bool = False

    @property
    def away_won(self) -> bool:
        return self.shared or not self.home_won

    @property
    def winner(self) -> T:
        return self.home if self.home_won else self.away


@dataclass
class TableRow(Generic[T]):
    entrant: T
    played: int = 0
    won: int = 0
    lost: int = 0
    points_for: int = 0
    points_against: int = 0

    @property
    def difference(self) -> int:
        return self.points_for - self.points_against

    @property
    def win_rate(self) -> float | None:
        """Share of games won, 0 to 1; None before the first game."""
        return self.won / self.played if self.played else None

    def add(self, scored: int, conceded: int, won: bool) -> None:
        self.played += 1
        self.won += won
        self.lost += not won
        self.points_for += scored
        self.points_against += conceded


def league_table(
    teams: Sequence[T], results: Sequence[FixtureResult[T]], names: Mapping[T, str]
) -> list[TableRow[T]]:
    """One row per team, best first (see the module docstring for the order)."""
    rows = {team: TableRow(team) for team in teams}
    for result in results:
        rows.setdefault(result.home, TableRow(result.home))
        rows.setdefault(result.away, TableRow(result.away))
        rows[result.home].add(result.home_score, result.away_score, result.home_won)
        rows[result.away].add(result.away_score, result.home_score, result.away_won)

    ordered: list[TableRow[T]] = []
    for level in _levels(rows.values()):
        tied = {row.entrant for row in level}
        among = {team: 0 for team in tied}
        for result in results:
            if result.home in tied and result.away in tied:
                among[result.winner] += 1
        ordered += sorted(
            level,
            key=lambda row: (
                -among[row.entrant],
                -row.difference,
                -row.points_for,
                names.get(row.entrant, "").casefold(),
            ),
        )
    return ordered


def individual_table(
    results: Sequence[FixtureResult[T]],
    members: Mapping[T, Sequence[P]],
    names: Mapping[P, str],
) -> list[TableRow[P]]:
    """Each player's totals over games played as partners: most points scored first.

    A player's points for are their team's final scores, points against the other team's; ties
    are ordered by games won, then difference, then name.
    """
    rows: dict[P, TableRow[P]] = {}
    for result in results:
        for team, scored, conceded, won in (
            (result.home, result.home_score, result.away_score, result.home_won),
            (result.away, result.away_score, result.home_score, result.away_won),
        ):
            for player in members[team]:
                rows.setdefault(player, TableRow(player)).add(scored, conceded, won)
    return sorted(
        rows.values(),
        key=lambda row: (
            -row.points_for,
            -row.won,
            -row.difference,
            names.get(row.entrant, "").casefold(),
        ),
    )


def _levels(rows) -> list[list[TableRow]]:
    by_wins: dict[int, list[TableRow]] = {}
    for row in rows:
        by_wins.setdefault(row.won, []).append(row)
    return [by_wins[wins] for wins in sorted(by_wins, reverse=True)]
