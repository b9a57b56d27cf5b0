"""Tables and relationships. Stored facts only: who sat where, and what was counted in each hand.

Scores, winners and dealers are derived by scorer.scoring; `Game.finished_at` and `Game.version` are
rewritten by the services in the same transaction as every change to a game's hands.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import CheckConstraint, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .extensions import db

NAME_MAX_LENGTH = 40
# The largest id an integer column holds on every database we support.
ID_MAX = 2**31 - 1
TEAM_NAME_MAX_LENGTH = 60


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Player(db.Model):
    __tablename__ = "players"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_MAX_LENGTH))
    # The name folded to lower case: "ann" and "Ann" are the same person on the roster.
    name_key: Mapped[str] = mapped_column(String(NAME_MAX_LENGTH * 3), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    seats: Mapped[list[Seat]] = relationship(back_populates="player")


class Game(db.Model):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(primary_key=True)
    mode: Mapped[str] = mapped_column(String(16))
    target: Mapped[int]
    first_dealer: Mapped[int]
    deck_copies: Mapped[int] = mapped_column(default=1)
    blanks: Mapped[int] = mapped_column(default=4)
    blank_value: Mapped[int] = mapped_column(default=50)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None]
    # Bumped on every change to the hands, so another phone can tell the game has moved on.
    version: Mapped[int] = mapped_column(default=0)
    rematch_of_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"))

    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.position", cascade="all, delete-orphan"
    )
    hands: Mapped[list[Hand]] = relationship(
        back_populates="game", order_by="Hand.number", cascade="all, delete-orphan"
    )
    teams: Mapped[list[Team]] = relationship(
        back_populates="game", order_by="Team.side", cascade="all, delete-orphan"
    )


class Seat(db.Model):
    __tablename__ = "seats"
    __table_args__ = (
        UniqueConstraint("game_id", "position"),
        UniqueConstraint("game_id", "player_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    position: Mapped[int]

    game: Mapped[Game] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship(back_populates="seats")


class Team(db.Model):
    """A name the table gave a partners team; unnamed teams are called after their players."""

    __tablename__ = "teams"
    __table_args__ = (UniqueConstraint("game_id", "side"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    side: Mapped[int]
    name: Mapped[str] = mapped_column(String(TEAM_NAME_MAX_LENGTH))

    game: Mapped[Game] = relationship(back_populates="teams")


class Hand(db.Model):
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


class HandCount(db.Model):
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
