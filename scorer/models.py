"""Tables and relationships. Stored facts only: who sat where, and what was counted in each hand.

Scores, winners and dealers are derived by scorer.scoring; `Game.finished_at` and `Game.version` are
rewritten by the services in the same transaction as every change to a game's hands.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .extensions import Model
from .field_rules import NAME_MAX_LENGTH, TEAM_NAME_MAX_LENGTH


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def new_secret() -> str:
    """A random key nobody can guess, for a row to be named by where its id is not enough."""
    return secrets.token_urlsafe(24)


def secret_digest(secret: str) -> str:
    """What is stored of a secret shown once (an API token, a scorer link): its SHA-256, so a copy
    of the database does not hold a working one."""
    return hashlib.sha256(secret.encode()).hexdigest()


def new_game_key() -> str:
    """A random key telling one game from every other: 96 bits, in 16 characters a page sends."""
    return secrets.token_urlsafe(12)


# For the tables whose ids leave the server (in addresses, sessions, a phone's queued hands, the
# token list): SQLite otherwise gives a deleted row's id to the next row, so a bookmark, a cookie or
# a queued hand would name a row it never meant. PostgreSQL's sequences never go back anyway.
NEVER_REUSE_IDS = {"sqlite_autoincrement": True}


class Player(Model):
    __tablename__ = "players"
    __table_args__ = NEVER_REUSE_IDS

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX_LENGTH))
    # The name folded to lower case: "ann" and "Ann" are the same person on the roster.
    name_key: Mapped[str] = mapped_column(String(NAME_MAX_LENGTH * 3), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Archived players are left out of the pickers; their games and results stay.
    archived_at: Mapped[datetime | None]

    seats: Mapped[list[Seat]] = relationship(back_populates="player")


# Rows a list reads a page of, in its own order, through an index (services.pages).
GAMES_PLAYING = "finished_at IS NULL AND abandoned_at IS NULL"


class Game(Model):
    __tablename__ = "games"
    __table_args__ = (
        # The home page's games in progress, the latest played first: in progress are few.
        Index(
            "ix_games_playing",
            "updated_at",
            "id",
            postgresql_where=text(GAMES_PLAYING),
            sqlite_where=text(GAMES_PLAYING),
        ),
        Index("ix_games_finished_at", "finished_at", "id"),
        Index("ix_games_abandoned_at", "abandoned_at", "id"),
        NEVER_REUSE_IDS,
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    mode: Mapped[str] = mapped_column(String(16))
    target: Mapped[int]
    first_dealer: Mapped[int]
    # The deck (scoring.Deck): copies shuffled together, blank cards per copy, a blank's points.
    # Defaults in the database too, so a row written without them has the default deck.
    deck_copies: Mapped[int] = mapped_column(default=1, server_default="1")
    blanks: Mapped[int] = mapped_column(default=4, server_default="4")
    blank_value: Mapped[int] = mapped_column(default=50, server_default="50")
    # Hands a game of fixed length lasts (it then ends whatever the target); None: to the target.
    hand_limit: Mapped[int | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None]
    # Set aside by the table: kept, but neither in progress nor counted, until it is resumed.
    abandoned_at: Mapped[datetime | None]
    # Bumped on every change to the hands, so another phone can tell the game has moved on.
    version: Mapped[int] = mapped_column(default=0)
    rematch_of_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))
    # Sent with every hand a phone keeps while offline, so the hand can only land in this game.
    # None for games made before there were keys (see scorer.views.sync).
    sync_key: Mapped[str | None] = mapped_column(String(32), default=new_game_key)

    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.position", cascade="all, delete-orphan"
    )
    hands: Mapped[list[Hand]] = relationship(
        back_populates="game", order_by="Hand.number", cascade="all, delete-orphan"
    )
    teams: Mapped[list[Team]] = relationship(
        back_populates="game", order_by="Team.side", cascade="all, delete-orphan"
    )


class Seat(Model):
    __tablename__ = "seats"
    __table_args__ = (
        UniqueConstraint("game_id", "position"),
        UniqueConstraint("game_id", "player_id"),
        # A player's latest games, for the setup page's "who plays with whom".
        Index("ix_seats_player_id_game_id", "player_id", "game_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    position: Mapped[int]

    game: Mapped[Game] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship(back_populates="seats")


class Team(Model):
    """A name the table gave a partners team; unnamed teams are called after their players."""

    __tablename__ = "teams"
    __table_args__ = (UniqueConstraint("game_id", "side"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    side: Mapped[int]
    name: Mapped[str] = mapped_column(String(TEAM_NAME_MAX_LENGTH))

    game: Mapped[Game] = relationship(back_populates="teams")


class Hand(Model):
    __tablename__ = "hands"
    # One row per hand number: two phones saving the same hand cannot both succeed.
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int]
    went_out: Mapped[int]
    last_card: Mapped[str | None] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)

    game: Mapped[Game] = relationship(back_populates="hands")
    counts: Mapped[list[HandCount]] = relationship(
        back_populates="hand", order_by="HandCount.position", cascade="all, delete-orphan"
    )


class HandCount(Model):
    __tablename__ = "hand_counts"
    __table_args__ = (
        UniqueConstraint("hand_id", "position"),
        CheckConstraint("(cards IS NULL) <> (points IS NULL)", name="cards_or_points"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id", ondelete="CASCADE"))
    position: Mapped[int]
    # Card tokens separated by spaces ("3 skip 50") when counted card by card; else `points`, typed.
    cards: Mapped[str | None] = mapped_column(String(1000))
    points: Mapped[int | None]

    hand: Mapped[Hand] = relationship(back_populates="counts")


# Standings, ratings and leagues. Results are derived, but stored: they are rewritten by
# scorer.services.results in the same transaction as every change to a finished game's hands, so
# standings are read with aggregate queries instead of replaying every hand.


class GameResult(Model):
    """One player's part in a finished game, and their rating after it."""

    __tablename__ = "game_results"
    __table_args__ = (
        UniqueConstraint("game_id", "player_id"),
        Index("ix_game_results_player_id_seq", "player_id", "seq"),
        # Covers the standings' totals per player, so they are summed from the index alone.
        Index(
            "ix_game_results_player_totals",
            "player_id",
            "finished_at",
            "won",
            "points_won",
            "hands_won",
            "game_id",
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    # The game's place in the order ratings are computed in: the order games finished.
    seq: Mapped[int] = mapped_column(index=True)
    finished_at: Mapped[datetime] = mapped_column(index=True)
    mode: Mapped[str] = mapped_column(String(16))
    side: Mapped[int]
    place: Mapped[int]
    won: Mapped[bool]
    score: Mapped[int]
    hands_won: Mapped[int]
    points_won: Mapped[int]
    biggest_hand: Mapped[int]
    mu: Mapped[float]
    sigma: Mapped[float]
    # mu − 3·sigma after this game minus the same before it.
    change: Mapped[float]


# The standings' orders: (column, descending). Each is read a page at a time from an index in
# that order, ties going to the better rated, then by name (services.standings).
STANDINGS_ORDERS = (
    ("games", True),
    ("games", False),
    ("wins", True),
    ("wins", False),
    ("win_rate", True),
    ("win_rate", False),
    ("points", True),
    ("points", False),
    ("rating", True),
    ("rating", False),
)


class PeriodTotal(Model):
    """One player's totals over one period (all time, a year, a month: scoring.periods), and their
    rating after their last game in it.

    Derived from game_results and rewritten with them, in the same transaction
    (services.period_totals), so a standings page reads a page of an index instead of summing
    every result. The name's key is copied here so that ties sort by name within the index.
    """

    __tablename__ = "period_totals"
    __table_args__ = (
        Index("ix_period_totals_name", "period", "name_key"),
        # A player's rows by period with their sums: a range's totals for a few players are read
        # from this index alone.
        Index(
            "ix_period_totals_player",
            "player_id",
            "period",
            "games",
            "wins",
            "points",
            "hands_won",
            "last_seq",
            "rating",
        ),
        Index("ix_period_totals_last_seq", "last_seq"),
    )

    period: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    name_key: Mapped[str] = mapped_column(String(NAME_MAX_LENGTH * 3))
    games: Mapped[int]
    wins: Mapped[int]
    win_rate: Mapped[float]
    points: Mapped[int]
    hands_won: Mapped[int]
    # The seq of the player's last game in the period: the result the rating is read from.
    last_seq: Mapped[int]
    mu: Mapped[float]
    sigma: Mapped[float]
    change: Mapped[float]
    # mu − 3·sigma, stored to be sorted by.
    rating: Mapped[float]


def _standings_index(column: str, descending: bool) -> Index:
    """The index a page of the standings is read from in this order: the column, then the better
    rated, then the name (as services.standings sorts)."""
    table = PeriodTotal.__table__
    first = table.c[column].desc() if descending else table.c[column]
    leading = [first] if column == "rating" else [first, table.c.rating.desc()]
    name = f"ix_period_totals_{column}_{'desc' if descending else 'asc'}"
    return Index(name, table.c.period, *leading, table.c.name_key)


for _column, _descending in STANDINGS_ORDERS:
    _standings_index(_column, _descending)


# What the indexes of result_ranks hold after their order: all a range needs to tell a player's
# last result in it, and the row's keys, so that neither database reads the table.
_RANK_INDEXED = (
    "name_key",
    "finished_at",
    "later_finish_at_or_after",
    "later_finish_before",
    "player_id",
    "seq",
)


class ResultRank(Model):
    """One stored result with its player's name key and their rating after it.

    Derived from game_results and players, rewritten with them in the same transaction
    (services.period_totals). A range of days ranked by rating or by name reads each player's
    last result in the range from an index in that order, instead of summing every player's
    totals in the range before the first row is known (services.standings_tables).

    Whether a row is its player's last result in a range is told by the row alone: it is when it
    finished in the range and no later result of the player's (by seq) did, that is when the
    nearest finishes of those later results on either side of this one's both lie outside it.
    """

    __tablename__ = "result_ranks"
    __table_args__ = (
        # A player's other results, by seq.
        Index("ix_result_ranks_player", "player_id", "seq", "finished_at"),
        Index("ix_result_ranks_rating_asc", "rating", *_RANK_INDEXED),
        Index("ix_result_ranks_name", *_RANK_INDEXED),
        # The rows a search finds, wherever they lie in the table: on PostgreSQL the name key's
        # trigrams (pg_trgm) when the extension could be installed; else a plain index.
        Index(
            "ix_result_ranks_name_trigrams",
            "name_key",
            postgresql_using="gin",
            postgresql_ops={"name_key": "gin_trgm_ops"},
        ),
    )

    # A game's results share its seq: the game's rows are found by it.
    seq: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    finished_at: Mapped[datetime]
    name_key: Mapped[str] = mapped_column(String(NAME_MAX_LENGTH * 3))
    # mu − 3·sigma after the game.
    rating: Mapped[float]
    # Of the player's later results (by seq), the earliest finish at or after this one's and the
    # latest before it; None when there is none. Later results mostly finish later, so the second
    # is mostly None.
    later_finish_at_or_after: Mapped[datetime | None]
    later_finish_before: Mapped[datetime | None]


# The best rated first, ties by name: an index of its own, as neither database reads one index in
# a mixed order backwards.
Index(
    "ix_result_ranks_rating_desc",
    ResultRank.__table__.c.rating.desc(),
    *(ResultRank.__table__.c[name] for name in _RANK_INDEXED),
)


class RatingClock(Model):
    """A single row: the last rating sequence number given out, and the lock for rating changes."""

    __tablename__ = "rating_clock"

    id: Mapped[int] = mapped_column(primary_key=True)
    last_seq: Mapped[int] = mapped_column(default=0)


class League(Model):
    __tablename__ = "leagues"
    __table_args__ = (Index("ix_leagues_name_id", "name", "id"), NEVER_REUSE_IDS)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(TEAM_NAME_MAX_LENGTH))
    # "teams": registered teams of two play round-robin fixtures; "rotation": the official
    # eight-player format with partners rotating.
    format: Mapped[str] = mapped_column(String(16), default="teams")
    mode: Mapped[str] = mapped_column(String(16), default="partners")
    target: Mapped[int]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    teams: Mapped[list[LeagueTeam]] = relationship(
        back_populates="league", order_by="LeagueTeam.id", cascade="all, delete-orphan"
    )
    seasons: Mapped[list[Season]] = relationship(
        back_populates="league", order_by="Season.number", cascade="all, delete-orphan"
    )


class LeagueTeam(Model):
    """Two players registered together; the pair is unordered, so it is stored lowest id first."""

    __tablename__ = "league_teams"
    __table_args__ = (
        UniqueConstraint("league_id", "first_player_id", "second_player_id"),
        CheckConstraint("first_player_id < second_player_id", name="pair_in_order"),
        NEVER_REUSE_IDS,
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    first_player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    second_player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    name: Mapped[str | None] = mapped_column(String(TEAM_NAME_MAX_LENGTH))

    league: Mapped[League] = relationship(back_populates="teams")
    first_player: Mapped[Player] = relationship(foreign_keys=[first_player_id])
    second_player: Mapped[Player] = relationship(foreign_keys=[second_player_id])


class Season(Model):
    __tablename__ = "seasons"
    __table_args__ = (UniqueConstraint("league_id", "number"), NEVER_REUSE_IDS)

    id: Mapped[int] = mapped_column(primary_key=True)
    league_id: Mapped[int] = mapped_column(ForeignKey("leagues.id", ondelete="CASCADE"))
    number: Mapped[int]
    legs: Mapped[int] = mapped_column(default=1)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    league: Mapped[League] = relationship(back_populates="seasons")
    fixtures: Mapped[list[Fixture]] = relationship(
        back_populates="season",
        order_by=lambda: [Fixture.round, Fixture.table_number],
        cascade="all, delete-orphan",
    )


class Fixture(Model):
    """Two teams due to meet; played as a partners game, which links back here."""

    __tablename__ = "fixtures"
    __table_args__ = (UniqueConstraint("season_id", "round", "table_number"), NEVER_REUSE_IDS)

    id: Mapped[int] = mapped_column(primary_key=True)
    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id", ondelete="CASCADE"))
    round: Mapped[int]
    # Which table (or which match) of the round, from 1.
    table_number: Mapped[int]
    home_team_id: Mapped[int] = mapped_column(ForeignKey("league_teams.id"))
    away_team_id: Mapped[int] = mapped_column(ForeignKey("league_teams.id"))
    game_id: Mapped[int | None] = mapped_column(
        ForeignKey("games.id", ondelete="SET NULL"), unique=True
    )

    season: Mapped[Season] = relationship(back_populates="fixtures")
    home: Mapped[LeagueTeam] = relationship(foreign_keys=[home_team_id])
    away: Mapped[LeagueTeam] = relationship(foreign_keys=[away_team_id])
    game: Mapped[Game | None] = relationship()


class User(Model):
    """Someone allowed to change scores once the server has an owner (see scorer.access)."""

    __tablename__ = "users"
    __table_args__ = NEVER_REUSE_IDS

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX_LENGTH), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # What a signed-in session names the account by, instead of its id: a new one (sign-out, a new
    # password) ends every session, even a cookie copied before, and a removed account's cookie
    # names no account made after it.
    session_key: Mapped[str] = mapped_column(String(64), unique=True, default=new_secret)
    # The language the user chose in the menu (a code of scorer.languages.LANGUAGES), which every
    # phone they sign in on then speaks; None until they choose.
    language: Mapped[str | None] = mapped_column(String(16))

    tokens: Mapped[list[ApiToken]] = relationship(
        back_populates="user", cascade="all, delete-orphan"
    )

    # Flask-Login's user protocol.
    is_active = True
    is_anonymous = False

    @property
    def is_authenticated(self) -> bool:
        return True

    def get_id(self) -> str:
        return self.session_key


class ApiToken(Model):
    """A token for writing through the API; only its SHA-256 is kept, the token is shown once."""

    __tablename__ = "api_tokens"
    __table_args__ = NEVER_REUSE_IDS

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(NAME_MAX_LENGTH), default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # Written at most once a minute, so a busy bot does not turn every write into two.
    last_used_at: Mapped[datetime | None]

    user: Mapped[User] = relationship(back_populates="tokens")


class ScorerLink(Model):
    """Lets whoever holds the link record hands in one game, until it is revoked or the game ends.

    Only the SHA-256 of the link's token is kept, as for API tokens; one link per game.
    """

    __tablename__ = "scorer_links"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), unique=True)
    digest: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
