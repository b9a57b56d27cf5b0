"""Starting, loading and listing games, each with its state derived from the stored hands."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, joinedload, object_session

from .. import scoring
from ..limits import ID_MAX, TEAM_NAME
from ..models import Game, Hand, HandCount, Seat, Team, utcnow
from . import players, replays, results
from .errors import Conflict, NotFound

RECENT_FINISHED = 10


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
class GameView:
    """A game as stored, with its hands in order and everything derived from them."""

    game: Game
    hands: tuple[StoredHand, ...]
    state: scoring.GameState
    # The game's version when its hands were read. `game.version` is the ORM object's, which a later
    # change in the same session moves on; this one stays with the hands the view holds.
    version: int

    # Cached on first use: the templates ask for names many times a page. A cached_property writes
    # the instance's __dict__ directly, so it works on a frozen dataclass; a view is built per
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
        raise NotFound(f"This game has no hand {number}.")

    def with_hands(self, hands: Sequence[StoredHand], state: scoring.GameState) -> GameView:
        """The same game after a change to its hands."""
        return GameView(self.game, tuple(hands), state, self.version)

    def players_of(self, side: scoring.SideState) -> str:
        """The side's players: "Ann", or "Ann & Cat" for partners."""
        return " & ".join(self.names[seat] for seat in side.seats)

    @property
    def winner(self) -> scoring.SideState | None:
        return None if self.state.winner is None else self.state.sides[self.state.winner]

    @property
    def leader(self) -> scoring.SideState:
        return self.state.ranking()[0]


def rules_of(game: Game) -> scoring.Rules:
    deck = scoring.Deck(copies=game.deck_copies, blanks=game.blanks, blank_value=game.blank_value)
    return scoring.Rules(
        scoring.Mode(game.mode), len(game.seats), game.target, game.first_dealer, deck
    )


def hand_of(hand: Hand) -> scoring.Hand:
    counts = {count.position: count_of(count.cards, count.points) for count in hand.counts}
    return scoring.Hand(hand.went_out, counts)


def count_of(cards: str | None, points: int | None) -> scoring.Count:
    """A stored count: card tokens separated by spaces, or a typed total."""
    return scoring.Count(cards=tuple(cards.split()) if cards is not None else None, points=points)


def views_of(session: Session, found: Sequence[Game]) -> list[GameView]:
    """Views of these games, replaying only the ones not replayed at their version before."""
    known = {game.id: replays.get(session, game, game.version) for game in found}
    read = stored_hands(session, [game_id for game_id, replay in known.items() if replay is None])
    views = []
    for game in found:
        replay, version = known[game.id], game.version
        if replay is None:
            version, hands = read[game.id]
            # The stored hands were checked against the rules when they were saved (record, edit,
            # undo and a backup's import each replay or check them), so they are not checked again.
            state = scoring.replay(rules_of(game), [hand.facts for hand in hands], check=False)
            replay = (tuple(hands), state)
            replays.put(session, game, version, replay)
        views.append(GameView(game, *replay, version))
    return views


def state_before(view: GameView, number: int) -> scoring.GameState:
    """The game as it stood when hand `number` was dealt."""
    earlier = [hand.facts for hand in view.hands[: number - 1]]
    return scoring.replay(view.state.rules, earlier, check=False)


def _with_players():
    # Joined, not a statement each: a game has at most ten seats and five teams.
    return (joinedload(Game.seats).joinedload(Seat.player), joinedload(Game.teams))


def load_game(session: Session, game_id: int) -> GameView:
    """A game with its players and hands, loaded in a fixed number of queries."""
    if not 0 < game_id <= ID_MAX:
        raise NotFound("There is no such game.")
    game = (
        session.scalars(select(Game).where(Game.id == game_id).options(*_with_players()))
        .unique()
        .one_or_none()
    )
    if game is None:
        raise NotFound("There is no such game.")
    return views_of(session, [game])[0]


def stored_hands(
    session: Session, game_ids: Sequence[int]
) -> dict[int, tuple[int, list[StoredHand]]]:
    """The version and the hands in order of each of these games, by game.

    One statement for all three, so they are read at one moment: read apart, a hand could come from
    before an edit and its counts from after it, which no rule accepts, or the hands from another
    version than the one they would be kept under (see replays). Plain rows rather than ORM
    objects: a game page reads every hand, and building a tracked object per hand and per count
    took most of its time.
    """
    found: dict[int, tuple[int, list[StoredHand]]] = {}
    if not game_ids:
        return found
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
    counts: dict[int, scoring.Count] = {}
    previous = None
    for game_id, version, number, went_out, last_card, position, cards, points in rows:
        hands = found.setdefault(game_id, (version, []))[1]
        if number is None:
            continue  # a game without hands yet
        if (game_id, number) != previous:
            previous = (game_id, number)
            counts = {}
            hands.append(StoredHand(number, scoring.Hand(went_out, counts), last_card))
        if position is not None:
            counts[position] = count_of(cards, points)
    return found


def version_of(session: Session, game_id: int) -> int:
    """A game's version (see mark_changed) in one small query, for the phones that poll it."""
    if not 0 < game_id <= ID_MAX:
        raise NotFound("There is no such game.")
    version = session.scalar(select(Game.version).where(Game.id == game_id))
    if version is None:
        raise NotFound("There is no such game.")
    return version


def list_games(session: Session) -> tuple[list[GameView], list[GameView]]:
    """Games in progress, newest first, and the most recently finished ones."""
    playing = (
        session.scalars(
            select(Game)
            .where(Game.finished_at.is_(None))
            .order_by(Game.updated_at.desc(), Game.id.desc())
            .options(*_with_players())
        )
        .unique()
        .all()
    )
    finished = (
        session.scalars(
            select(Game)
            .where(Game.finished_at.is_not(None))
            .order_by(Game.finished_at.desc(), Game.id.desc())
            .limit(RECENT_FINISHED)
            .options(*_with_players())
        )
        .unique()
        .all()
    )
    views = views_of(session, [*playing, *finished])
    return views[: len(playing)], views[len(playing) :]


def create_game(
    session: Session,
    mode: str,
    names: Sequence[str],
    target: int = scoring.DEFAULT_TARGET,
    first_dealer: int = 0,
    rematch_of_id: int | None = None,
    team_names: Sequence[str] = (),
) -> Game:
    """Start a game with `names` in seat order; new names join the roster.

    `team_names` name the partners teams in order (seat i with seat i + n/2); blank ones keep the
    players' names.
    """
    problems = scoring.setup_problems(mode, len(names), target, first_dealer)
    problems += [
        scoring.Problem(problem, "players")
        for problem in filter(None, map(players.name_problem, names))
    ]
    problems += players.duplicate_problems(names)
    team_names = [players.clean_name(name) for name in team_names] if mode == "partners" else []
    team_problems = dict.fromkeys(filter(None, map(TEAM_NAME.problem, team_names)))
    problems += [scoring.Problem(problem, "teams") for problem in team_problems]
    if problems:
        raise scoring.Rejected(problems)
    for attempt in range(2):
        game = Game(
            mode=mode, target=target, first_dealer=first_dealer, rematch_of_id=rematch_of_id
        )
        game.seats = [
            Seat(position=position, player=player)
            for position, player in enumerate(players.find_or_add(session, names))
        ]
        game.teams = [
            Team(side=side, name=name)
            for side, name in enumerate(team_names[: len(names) // 2])
            if name
        ]
        session.add(game)
        try:
            session.commit()
            return game
        except IntegrityError:
            # Someone added one of these names to the roster at the same moment; use theirs.
            session.rollback()
            if attempt:
                raise
    raise AssertionError("unreachable")


def rematch(session: Session, game_id: int) -> Game:
    """A new game with the same seats and settings, dealt first by whoever deals next."""
    finished = load_game(session, game_id)
    if not finished.state.finished:
        raise Conflict("This game is still being played; a rematch starts when it is over.")
    game = finished.game
    return create_game(
        session,
        game.mode,
        finished.names,
        game.target,
        finished.state.dealer,
        rematch_of_id=game.id,
        team_names=_team_names(game),
    )


def _team_names(game: Game) -> list[str]:
    named = {team.side: team.name for team in game.teams}
    return [named.get(side, "") for side in range(len(game.seats) // 2)]


def mark_changed(view: GameView) -> GameView:
    """Record that the hands changed: a new version, whether the game is now over, its results.

    Gives the view at the new version.
    """
    game = view.game
    was_finished = game.finished_at is not None
    game.version += 1
    game.updated_at = utcnow()
    if view.state.finished:
        game.finished_at = game.finished_at or utcnow()
    else:
        game.finished_at = None
    # Standings and ratings follow a finished game's hands in the same transaction.
    results.game_changed(object_session(game), view, was_finished)
    return replace(view, version=game.version)
