"""Skill ratings from finished games: OpenSkill's Plackett–Luce model with its default settings.

Each side of a game is an OpenSkill team (one player, or two partners) and its place is its rank, so
ties share a rank. A rating is (mu, sigma); the leaderboard ranks by the conservative estimate
mu − 3·sigma, which is 0 for a newcomer (25 − 3 × 25/3).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from openskill.models import PlackettLuce

MODEL = PlackettLuce()

Player = TypeVar("Player", bound=Hashable)


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative estimate mu − 3·sigma that players are ranked by."""
        return self.mu - 3 * self.sigma


NEWCOMER = Rating(MODEL.mu, MODEL.sigma)


@dataclass(frozen=True)
class Outcome(Generic[Player]):
    """A finished game for rating: the players of each side and each side's place (1 is best)."""

    sides: tuple[tuple[Player, ...], ...]
    places: tuple[int, ...]


def rate(prior: Mapping[Player, Rating], outcome: Outcome[Player]) -> dict[Player, Rating]:
    """Everyone's rating after `outcome`, from `prior` (a newcomer when missing)."""
    teams = [
        [MODEL.create_rating([rating.mu, rating.sigma]) for rating in _ratings(prior, side)]
        for side in outcome.sides
    ]
    rated = MODEL.rate(teams, ranks=list(outcome.places))
    return {
        player: Rating(after.mu, after.sigma)
        for side, team in zip(outcome.sides, rated, strict=True)
        for player, after in zip(side, team, strict=True)
    }


def _ratings(prior: Mapping[Player, Rating], side: Sequence[Player]) -> list[Rating]:
    return [prior.get(player, NEWCOMER) for player in side]
