"""Starting, listing and finishing games; each game is read through services.snapshots."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import delete, select

from .. import scoring
from ..database import DbSession
from ..field_rules import TEAM_NAME, clean_name, duplicate_problems, is_id, name_problem
from ..models import Game, Player, ScorerLink, Seat, Team, utcnow
from . import pages, players, results
from .errors import Conflict, NotFound
from .snapshots import GameSnapshot, snapshots_of, with_players

# Re-exported: reading one game is part of what the views and the API ask of games.
from .snapshots import load_game as load_game
from .snapshots import state_before as state_before
from .transactions import in_transaction

RECENT_FINISHED = 10
RECENT_ABANDONED = 5


def version_of(session: DbSession, game_id: int) -> int:
    """A game's version (see mark_changed) in one small query, for the phones that poll it."""
    if not is_id(game_id):
        raise NotFound(_("There is no such game."))
    version = session.scalar(select(Game.version).where(Game.id == game_id))
    if version is None:
        raise NotFound(_("There is no such game."))
    return version


def list_games(
    session: DbSession, playing: pages.Page[Game] | None = None
) -> tuple[list[GameSnapshot], list[GameSnapshot]]:
    """Games in progress, the latest played first, and the most recently finished ones.

    The games in progress are `playing`'s, or the first page of them (services.pages).
    """
    if playing is None:
        playing = pages.playing_page(session)
    finished = (
        session.scalars(
            select(Game)
            .where(Game.finished_at.is_not(None))
            .order_by(Game.finished_at.desc(), Game.id.desc())
            .limit(RECENT_FINISHED)
            .options(*with_players())
        )
        .unique()
        .all()
    )
    views = snapshots_of(session, [*playing.items, *finished])
    return views[: len(playing.items)], views[len(playing.items) :]


def abandoned_games(session: DbSession) -> list[GameSnapshot]:
    """The most recently abandoned games, newest first: a short list, apart from the rest."""
    found = (
        session.scalars(
            select(Game)
            .where(Game.abandoned_at.is_not(None))
            .order_by(Game.abandoned_at.desc(), Game.id.desc())
            .limit(RECENT_ABANDONED)
            .options(*with_players())
        )
        .unique()
        .all()
    )
    return snapshots_of(session, found)


def create_game(
    session: DbSession,
    mode: str,
    names: Sequence[str],
    target: int = scoring.DEFAULT_TARGET,
    first_dealer: int = 0,
    rematch_of_id: int | None = None,
    team_names: Sequence[str] = (),
    deck: scoring.Deck = scoring.DEFAULT_DECK,
    hands: int | None = None,
    exact_teams: bool = False,
) -> Game:
    """Start a game with `names` in seat order; new names join the roster.

    `team_names` name the partners teams in order (seat i with seat i + n/2); blank ones keep the
    players' names. `deck` is the deck the table plays with; `hands` makes it a game of fixed
    length (individual play: 12 when not given). With `exact_teams`, team names outside Partners
    or more names than teams are refused rather than left unused: a caller that sends them means
    them, whereas the setup page keeps a team's box when the mode changes.
    """
    # A name another game adds at the same moment is shared, not a conflict: see find_or_add.
    with in_transaction(session):
        return add_game(
            session,
            mode,
            names,
            target,
            first_dealer,
            rematch_of_id,
            team_names,
            deck=deck,
            hands=hands,
            exact_teams=exact_teams,
        )


def add_game(
    session: DbSession,
    mode: str,
    names: Sequence[str],
    target: int = scoring.DEFAULT_TARGET,
    first_dealer: int = 0,
    rematch_of_id: int | None = None,
    team_names: Sequence[str] = (),
    deck: scoring.Deck = scoring.DEFAULT_DECK,
    hands: int | None = None,
    exact_teams: bool = False,
) -> Game:
    """create_game's checks and new game, in the caller's transaction, which commits it."""
    if hands is None and mode == scoring.Mode.INDIVIDUAL:
        hands = scoring.INDIVIDUAL_HANDS
    problems = scoring.setup_problems(mode, len(names), target, first_dealer, hands)
    problems += scoring.deck_problems(deck)
    problems += [
        scoring.Problem(problem, "players") for problem in filter(None, map(name_problem, names))
    ]
    problems += duplicate_problems(names)
    if exact_teams:
        problems += _team_count_problems(mode, len(names), len(team_names))
    team_names = list(team_names) if mode == "partners" else []
    team_problems = dict.fromkeys(filter(None, map(TEAM_NAME.problem, team_names)))
    team_names = [clean_name(name) for name in team_names]
    problems += [scoring.Problem(problem, "teams") for problem in team_problems]
    if problems:
        raise scoring.Rejected(problems)
    game = Game(
        mode=mode,
        target=target,
        first_dealer=first_dealer,
        rematch_of_id=rematch_of_id,
        deck_copies=deck.copies,
        blanks=deck.blanks,
        blank_value=deck.blank_value,
        hand_limit=hands,
    )
    seated: list[Player] = players.find_or_add(session, names)
    game.seats = [Seat(position=position, player=player) for position, player in enumerate(seated)]
    game.teams = [
        Team(side=side, name=name)
        for side, name in enumerate(team_names[: len(names) // 2])
        if name
    ]
    session.add(game)
    return game


def _team_count_problems(mode: str, players: int, names: int) -> list[scoring.Problem]:
    """Why `names` team names cannot all name teams of a game of `players` in `mode`."""
    if names and mode != scoring.Mode.PARTNERS:
        return [scoring.Problem(_("Only a Partners game has teams to name."), "teams")]
    teams = players // 2
    if mode == scoring.Mode.PARTNERS and names > teams:
        return [
            scoring.Problem(
                ngettext(
                    "%(players)s players make %(num)s team: give at most %(num)s team name.",
                    "%(players)s players make %(num)s teams: give at most %(num)s team names.",
                    teams,
                    players=players,
                ),
                "teams",
            )
        ]
    return []


def rematch(session: DbSession, game_id: int) -> Game:
    """A new game with the same seats and settings, dealt first by whoever deals next."""
    finished = load_game(session, game_id)
    if not finished.state.finished:
        raise Conflict(_("This game is still being played; a rematch starts when it is over."))
    game = finished.game
    return create_game(
        session,
        game.mode,
        finished.names,
        game.target,
        finished.state.dealer,
        rematch_of_id=game.id,
        team_names=_team_names(game),
        deck=finished.state.rules.deck,
        hands=game.hand_limit,
    )


def _team_names(game: Game) -> list[str]:
    named = {team.side: team.name for team in game.teams}
    return [named.get(side, "") for side in range(len(game.seats) // 2)]


def mark_changed(session: DbSession, view: GameSnapshot) -> GameSnapshot:
    """Record that the hands changed: a new version, whether the game is now over, its results.

    Gives the view at the new version.
    """
    game = view.game
    was_finished = game.finished_at is not None
    game.version += 1
    game.updated_at = utcnow()
    if view.state.finished:
        game.finished_at = game.finished_at or utcnow()
        if not was_finished:
            # A scorer link ends with its game, for good: undoing the final hand later (as a
            # signed-in user may) must not hand the table its pen back.
            session.execute(delete(ScorerLink).where(ScorerLink.game_id == game.id))
    else:
        game.finished_at = None
    # Standings and ratings follow a finished game's hands in the same transaction.
    results.game_changed(session, view, was_finished)
    return replace(view, version=game.version)
