"""The game read model: a game's stored hands, loaded one way, and what the rules derive from them.

A leaf of the services: it reads the database and calls scorer.scoring, and imports no other
service, so every service may build on it.

Replays already made are kept in memory by game and version, so a page need not replay them again.
A game's page, a save and every phone's poll after a change replay the same hands at the same
version. What a replay gives depends only on the game's rules, which never change, and its hands,
which change only together with its version (services.games.mark_changed, in the same transaction):
so (game id, version) names one replay for good, and an entry is never stale. Entries come only
from reads that saw the version and the hands in one statement, or from a change once committed.
The key holds the game's creation time too, so that a database emptied and restored from another
backup under a running server cannot match a game of the old one. One cache per database engine, so
two apps (or two test databases) never share entries; each server process has its own.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from cachetools import LRUCache
from flask_babel import gettext as _
from sqlalchemy import select
from sqlalchemy.orm import joinedload

from .. import scoring
from ..database import DbSession
from ..field_rules import is_id
from ..models import Game, Hand, HandCount, Seat
from .errors import NotFound

# Games in play at once on one server; a 60-hand game takes about 100 KB.
GAMES_KEPT = 256
# Games read in one statement by stored_hands; SQLite allows 32,766 bound values in one.
GAMES_PER_READ = 500
# How many hands ahead a game page knows its dealers: more than ever wait on one phone to send.
DEALERS_AHEAD = 20


@dataclass(frozen=True)
class StoredHand:
    """A hand as stored: its number, what the rules need of it, and the last card if noted."""

    number: int
    facts: scoring.Hand
    last_card: str | None = None

    @property
    def went_out(self) -> int:
        return self.facts.went_out

    @property
    def counts(self) -> Mapping[int, scoring.Count]:
        return self.facts.counts


@dataclass(frozen=True)
class GameSnapshot:
    """A game as stored at one version, with its hands in order and everything derived from them."""

    game: Game
    hands: tuple[StoredHand, ...]
    state: scoring.GameState
    # The game's version when its hands were read. `game.version` is the ORM object's, which a later
    # change in the same session moves on; this one stays with the hands the snapshot holds.
    version: int

    # Cached on first use: the templates ask for names many times a page. A cached_property writes
    # the instance's __dict__ directly, so it works on a frozen dataclass; a snapshot is built per
    # request and never outlives the game's names.
    @cached_property
    def names(self) -> tuple[str, ...]:
        """Player names by seat."""
        return tuple(seat.player.name for seat in self.game.seats)

    @cached_property
    def side_names(self) -> tuple[str, ...]:
        """side_name of every side, by side index."""
        return tuple(self._side_name(side) for side in self.state.sides)

    def side_name(self, side: scoring.SideState) -> str:
        """The name the table gave the team, else "Ann" for a player or "Ann & Cat" for partners."""
        return self.side_names[side.index]

    def _side_name(self, side: scoring.SideState) -> str:
        for team in self.game.teams:
            if team.side == side.index:
                return team.name
        return self.players_of(side)

    def hand(self, number: int) -> StoredHand:
        """The stored hand with this number; NotFound when the game has none."""
        # Hands are numbered 1, 2, 3… without gaps: a hand is only ever added or removed last.
        if 0 < number <= len(self.hands):
            return self.hands[number - 1]
        raise NotFound(_("This game has no hand %(number)s.", number=number))

    def with_hands(self, hands: Sequence[StoredHand], state: scoring.GameState) -> GameSnapshot:
        """The same game after a change to its hands."""
        return GameSnapshot(self.game, tuple(hands), state, self.version)

    def players_of(self, side: scoring.SideState) -> str:
        """The side's players: "Ann", or "Ann & Cat" for partners."""
        return " & ".join(self.names[seat] for seat in side.seats)

    @property
    def winner(self) -> scoring.SideState | None:
        return None if self.state.winner is None else self.state.sides[self.state.winner]

    @property
    def sharers(self) -> tuple[scoring.SideState, ...]:
        """The sides that share the win of a game of fixed length ended level; else empty."""
        return tuple(self.state.sides[index] for index in self.state.shared)

    @property
    def sharer_names(self) -> str:
        """Who shares the win, as "Ann and Bob" (or "Ann, Bob and Cat")."""
        names = [self.side_name(side) for side in self.sharers]
        if len(names) < 2:
            return "".join(names)
        return _("%(names)s and %(last)s", names=", ".join(names[:-1]), last=names[-1])

    @property
    def dealers_ahead(self) -> tuple[int | None, ...]:
        """Who deals each of the next hands (None where it is not known yet): the page shows the
        dealer of the hand its pad counts, which runs ahead of the game while hands wait to send."""
        return scoring.dealers_ahead(self.state, DEALERS_AHEAD)

    @property
    def leader(self) -> scoring.SideState:
        return self.state.ranking()[0]


def rules_of(game: Game) -> scoring.Rules:
    deck = scoring.Deck(copies=game.deck_copies, blanks=game.blanks, blank_value=game.blank_value)
    return scoring.Rules(
        scoring.Mode(game.mode),
        len(game.seats),
        game.target,
        game.first_dealer,
        deck,
        game.hand_limit,
    )


def hand_of(hand: Hand) -> scoring.Hand:
    """What the rules need of a hand held as an ORM object (a backup's, before it is stored)."""
    counts = {count.position: count_of(count.cards, count.points) for count in hand.counts}
    return scoring.Hand(hand.went_out, counts, hand.last_card)


def count_of(cards: str | None, points: int | None) -> scoring.Count:
    """A stored count: card tokens separated by spaces, or a typed total."""
    return scoring.Count(cards=tuple(cards.split()) if cards is not None else None, points=points)


def with_players() -> tuple:
    """Loader options for a game's seats, players and teams."""
    # Joined, not a statement each: a game has at most ten seats and five teams.
    return (joinedload(Game.seats).joinedload(Seat.player), joinedload(Game.teams))


def load_game(session: DbSession, game_id: int) -> GameSnapshot:
    """A game with its players and hands, loaded in a fixed number of queries."""
    if not is_id(game_id):
        raise NotFound(_("There is no such game."))
    game = (
        session.scalars(select(Game).where(Game.id == game_id).options(*with_players()))
        .unique()
        .one_or_none()
    )
    if game is None:
        raise NotFound(_("There is no such game."))
    return snapshots_of(session, [game])[0]


def snapshots_of(session: DbSession, found: Sequence[Game]) -> list[GameSnapshot]:
    """Snapshots of these games, replaying only the ones not replayed at their version before."""
    known = {game.id: kept_replay(session, game, game.version) for game in found}
    read = stored_hands(session, [game_id for game_id, replay in known.items() if replay is None])
    snapshots = []
    for game in found:
        replay, version = known[game.id], game.version
        if replay is None:
            version, hands = read[game.id]
            # The stored hands were checked against the rules when they were saved (record, edit,
            # undo and a backup's import each replay or check them), so they are not checked again.
            state = scoring.replay(rules_of(game), [hand.facts for hand in hands], check=False)
            replay = (tuple(hands), state)
            _keep(session, _key(game, version), replay)
        snapshots.append(GameSnapshot(game, *replay, version))
    return snapshots


def state_before(snapshot: GameSnapshot, number: int) -> scoring.GameState:
    """The game as it stood when hand `number` was dealt."""
    earlier = [hand.facts for hand in snapshot.hands[: number - 1]]
    return scoring.replay(snapshot.state.rules, earlier, check=False)


def stored_hands(
    session: DbSession, game_ids: Sequence[int]
) -> dict[int, tuple[int, list[StoredHand]]]:
    """The version and the hands in order of each of these games, by game.

    One statement for all three, so they are read at one moment: read apart, a hand could come from
    before an edit and its counts from after it, which no rule accepts, or the hands from another
    version than the one they would be kept under.
    """
    found: dict[int, tuple[int, list[StoredHand]]] = {}
    for start in range(0, len(game_ids), GAMES_PER_READ):
        found.update(_stored_hands(session, game_ids[start : start + GAMES_PER_READ]))
    return found


def _stored_hands(
    session: DbSession, game_ids: Sequence[int]
) -> dict[int, tuple[int, list[StoredHand]]]:
    rows = session.execute(
        select(
            Game.id,
            Game.version,
            Hand.number,
            Hand.went_out,
            Hand.last_card,
            HandCount.position,
            HandCount.cards,
            HandCount.points,
        )
        .outerjoin(Hand, Hand.game_id == Game.id)
        .outerjoin(HandCount, HandCount.hand_id == Hand.id)
        .where(Game.id.in_(game_ids))
        .order_by(Game.id, Hand.number, HandCount.position)
    )
    found: dict[int, tuple[int, list[StoredHand]]] = {}
    counts: dict[int, scoring.Count] = {}
    previous = None
    for game_id, version, number, went_out, last_card, position, cards, points in rows:
        hands = found.setdefault(game_id, (version, []))[1]
        if number is None:
            continue  # a game without hands yet
        if (game_id, number) != previous:
            previous = (game_id, number)
            counts = {}
            hands.append(StoredHand(number, scoring.Hand(went_out, counts, last_card), last_card))
        if position is not None:
            counts[position] = count_of(cards, points)
    return found


Replay = tuple[tuple[StoredHand, ...], scoring.GameState]


@dataclass(frozen=True)
class ChangedReplay:
    """A change's replay with the key it will be kept under, taken before the commit."""

    key: tuple
    replay: Replay


def changed_replay(snapshot: GameSnapshot) -> ChangedReplay:
    """What `remember` keeps of a change; taken inside its transaction, while the game is loaded."""
    return ChangedReplay(_key(snapshot.game, snapshot.version), (snapshot.hands, snapshot.state))


def remember(session: DbSession, changed: ChangedReplay) -> None:
    """Keep a change's replay for the reads after it; only once the change is committed."""
    # A change rolled back must not leave its replay behind under a version that the next change
    # will then take.
    _keep(session, changed.key, changed.replay)


_caches: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_caches_lock = threading.Lock()


class _Replays:
    def __init__(self) -> None:
        self.entries: LRUCache = LRUCache(maxsize=GAMES_KEPT)
        self.lock = threading.Lock()


def _replays_of(session: DbSession) -> _Replays:
    engine = session.get_bind()
    with _caches_lock:
        replays = _caches.get(engine)
        if replays is None:
            replays = _caches[engine] = _Replays()
        return replays


def forget_all(session: DbSession) -> None:
    """Drop every replay kept for this session's database: a restore may have brought back a game
    with the same id, creation time and version as one kept, but other hands."""
    replays = _replays_of(session)
    with replays.lock:
        replays.entries.clear()


def kept_replay(session: DbSession, game: Game, version: int) -> Replay | None:
    replays = _replays_of(session)
    with replays.lock:
        return replays.entries.get(_key(game, version))


def _keep(session: DbSession, key: tuple, replay: Replay) -> None:
    replays = _replays_of(session)
    with replays.lock:
        replays.entries[key] = replay


def _key(game: Game, version: int) -> tuple:
    return (game.id, game.created_at, version)
