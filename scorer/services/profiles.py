"""A player's profile: their record per mode, hands and points, streaks, rivals and partners.

Read from the stored results in a fixed number of aggregate queries, however many games they played.
Opponents are players on another side of the same game; one finished "ahead" when their side's
place was better. Partners are players on the same side of a partners game.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import case, func, select
from sqlalchemy.orm import aliased

from ..database import DbSession
from ..models import GameResult, Player
from ..scoring import Mode
from ..scoring.ratings import Rating
from ..scoring.standings import Rivalry, WinRate, nemesis, streaks
from . import players

RECENT_GAMES = 10
CHART_GAMES = 100
POINTS_CHART_GAMES = 30


@dataclass(frozen=True)
class ModeRecord(WinRate):
    mode: str
    games: int
    wins: int


@dataclass(frozen=True)
class Opponent:
    player_id: int
    name: str
    games: int
    ahead: int
    behind: int


@dataclass(frozen=True)
class Partner(WinRate):
    player_id: int
    name: str
    games: int
    wins: int


@dataclass(frozen=True)
class RecentGame:
    game_id: int
    finished_at: datetime
    mode: str
    place: int
    won: bool
    score: int
    points_won: int
    mu: float
    sigma: float

    @property
    def rating(self) -> float:
        return Rating(self.mu, self.sigma).ordinal


@dataclass(frozen=True)
class Profile(WinRate):
    player: Player
    modes: tuple[ModeRecord, ...]
    hands_won: int
    points: int
    scoring_hands: int
    biggest_hand: int
    current_streak: int
    longest_streak: int
    # The rating (mu - 3 sigma) after the player's last game, as in the standings.
    rating: float | None
    change: float | None
    opponents: tuple[Opponent, ...]
    partners: tuple[Partner, ...]
    recent: tuple[RecentGame, ...]

    @property
    def games(self) -> int:
        return sum(record.games for record in self.modes)

    @property
    def wins(self) -> int:
        return sum(record.wins for record in self.modes)

    @property
    def points_per_hand(self) -> float | None:
        """Average points per hand won, over hands won in modes that score points."""
        return self.points / self.scoring_hands if self.scoring_hands else None

    @property
    def favourite_partner(self) -> Partner | None:
        """The partner played with most often (then the one won with most, then by name)."""
        if not self.partners:
            return None
        return min(self.partners, key=lambda p: (-p.games, -p.wins, p.name.casefold()))

    @property
    def nemesis(self) -> Opponent | None:
        """The opponent who finished ahead of this player most often."""
        found = nemesis([Rivalry(o.player_id, o.games, o.ahead, o.behind) for o in self.opponents])
        if found is None:
            return None
        return next(o for o in self.opponents if o.player_id == found.opponent)


def profile(session: DbSession, player_id: int) -> Profile:
    """Everything the profile page shows, in a fixed number of queries."""
    player = players.load_player(session, player_id)
    mine = GameResult.player_id == player_id
    wins = func.sum(case((GameResult.won, 1), else_=0))
    scoring_hands = func.sum(
        case((GameResult.mode != Mode.CHALLENGE.value, GameResult.hands_won), else_=0)
    )
    by_mode = session.execute(
        select(
            GameResult.mode,
            func.count(),
            wins,
            func.sum(GameResult.hands_won),
            func.sum(GameResult.points_won),
            scoring_hands,
            func.max(GameResult.biggest_hand),
        )
        .where(mine)
        .group_by(GameResult.mode)
    ).all()
    order = [mode.value for mode in Mode]
    modes = tuple(
        ModeRecord(mode, games, won or 0)
        for mode, games, won, *_ in sorted(by_mode, key=lambda row: order.index(row[0]))
    )
    won_in_order = session.scalars(select(GameResult.won).where(mine).order_by(GameResult.seq))
    current, longest = streaks(list(won_in_order))
    latest = session.execute(
        select(GameResult.mu, GameResult.sigma, GameResult.change)
        .where(mine)
        .order_by(GameResult.seq.desc())
        .limit(1)
    ).one_or_none()
    recent = session.execute(
        select(
            GameResult.game_id,
            GameResult.finished_at,
            GameResult.mode,
            GameResult.place,
            GameResult.won,
            GameResult.score,
            GameResult.points_won,
            GameResult.mu,
            GameResult.sigma,
        )
        .where(mine)
        .order_by(GameResult.seq.desc())
        .limit(RECENT_GAMES)
    ).all()
    return Profile(
        player=player,
        modes=modes,
        hands_won=sum(row[3] or 0 for row in by_mode),
        points=sum(row[4] or 0 for row in by_mode),
        scoring_hands=sum(row[5] or 0 for row in by_mode),
        biggest_hand=max((row[6] or 0 for row in by_mode), default=0),
        current_streak=current,
        longest_streak=longest,
        rating=Rating(latest.mu, latest.sigma).ordinal if latest else None,
        change=latest.change if latest else None,
        opponents=_opponents(session, player_id),
        partners=_partners(session, player_id),
        recent=tuple(RecentGame(*row) for row in recent),
    )


def rating_history(session: DbSession, player_id: int) -> list[tuple[int, float]]:
    """(game id, mu − 3·sigma after it) for the player's last games, oldest first; 0 to start."""
    players.load_player(session, player_id)
    rows = session.execute(
        select(GameResult.game_id, GameResult.mu, GameResult.sigma)
        .where(GameResult.player_id == player_id)
        .order_by(GameResult.seq.desc())
        .limit(CHART_GAMES)
    ).all()
    return [(game, Rating(mu, sigma).ordinal) for game, mu, sigma in reversed(rows)]


def points_history(session: DbSession, player_id: int) -> list[tuple[int, str, int]]:
    """(game id, mode, points the player scored) for their last games, oldest first."""
    players.load_player(session, player_id)
    rows = session.execute(
        select(GameResult.game_id, GameResult.mode, GameResult.points_won)
        .where(GameResult.player_id == player_id)
        .order_by(GameResult.seq.desc())
        .limit(POINTS_CHART_GAMES)
    ).all()
    return [tuple(row) for row in reversed(rows)]  # type: ignore[misc]


def _opponents(session: DbSession, player_id: int) -> tuple[Opponent, ...]:
    me, them = aliased(GameResult), aliased(GameResult)
    rows = session.execute(
        select(
            them.player_id,
            Player.name,
            func.count(),
            func.sum(case((me.place < them.place, 1), else_=0)),
            func.sum(case((me.place > them.place, 1), else_=0)),
        )
        .select_from(me)
        .join(them, (them.game_id == me.game_id) & (them.side != me.side))
        .join(Player, Player.id == them.player_id)
        .where(me.player_id == player_id)
        .group_by(them.player_id, Player.name)
    ).all()
    opponents = [Opponent(*row) for row in rows]
    return tuple(sorted(opponents, key=lambda o: (-o.games, o.name.casefold())))


def _partners(session: DbSession, player_id: int) -> tuple[Partner, ...]:
    me, them = aliased(GameResult), aliased(GameResult)
    rows = session.execute(
        select(
            them.player_id,
            Player.name,
            func.count(),
            func.sum(case((me.won, 1), else_=0)),
        )
        .select_from(me)
        .join(
            them,
            (them.game_id == me.game_id)
            & (them.side == me.side)
            & (them.player_id != me.player_id),
        )
        .join(Player, Player.id == them.player_id)
        .where(me.player_id == player_id)
        .group_by(them.player_id, Player.name)
    ).all()
    partners = [Partner(*row) for row in rows]
    return tuple(sorted(partners, key=lambda p: (-p.games, -p.wins, p.name.casefold())))
