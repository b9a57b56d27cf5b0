"""Backups: every stored fact as versioned JSON, restored only into an empty database; hands as CSV.

A backup holds what the database holds and nothing derived: players (and when they were archived);
games with their settings, seats, team names and timestamps; hands with who went out, the last card
and each count (card tokens, or a typed total); leagues with their registered teams, seasons and
fixtures (and the game each fixture was played as). Timestamps are ISO 8601 in UTC. Ids of
players, games, leagues, league teams and fixtures are kept, so addresses stay the same after a
restore; the ids of rows that nothing outside their parent points at are given anew.

Left out, on purpose: the stored results and ratings (game_results, rating_clock), which are derived
from the hands and rebuilt by `import_all` in the same transaction as the restore, so standings,
ratings and league tables come back as they were; and the server's accounts and API tokens (users,
api_tokens), which are not score data but secrets of one server: a backup is restored into a server
whose owner already exists, or is added after.

Format "uno-scorer", version 1, declared once in backup_format.py. A version only changes when the
meaning of a field already in the format changes. Sections and fields added since the first files
were written are optional, and a file without them reads as before: a player without "archived_at"
is not archived, a file without "leagues" has none. Readers refuse a version they do not know rather
than guess.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from sqlalchemy import func, null, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from .. import scoring
from ..database import DbSession
from ..models import (
    Fixture,
    Game,
    Hand,
    HandCount,
    League,
    LeagueTeam,
    Player,
    Season,
    Seat,
    Team,
    utcnow,
)
from . import backup_format as form
from . import players, results
from .backup_format import FORMAT, VERSION
from .errors import ServiceError
from .snapshots import forget_all, hand_of, rules_of

CSV_COLUMNS = ("game", "mode", "hand", "went_out", "player", "points", "cards")
# A spreadsheet takes a cell starting with one of these for a formula; a name is never one.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class BackupError(ServiceError):
    """A backup that cannot be restored, or a database it cannot be restored into."""


def export_all(session: DbSession) -> dict[str, Any]:
    """Everything stored, as a JSON-ready dict: {"format": "uno-scorer", "version": 1, ...}."""
    roster = session.scalars(select(Player).order_by(Player.id))
    backup = form.Backup.model_construct(
        format=FORMAT,
        version=VERSION,
        exported_at=utcnow(),
        players=[
            form.PlayerEntry.model_construct(
                id=player.id,
                name=player.name,
                created_at=player.created_at,
                archived_at=player.archived_at,
            )
            for player in roster
        ],
        games=[_game_entry(game) for game in _all_games(session)],
        leagues=[_league_entry(league) for league in _all_leagues(session)],
    )
    return backup.model_dump(mode="json")


def dumps(data: dict[str, Any]) -> str:
    """A backup as the text of a .json file: UTF-8 names as written, one item a line."""
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def loads(raw: bytes) -> object:
    """The JSON in an uploaded file; BackupError when it is not JSON at all."""
    try:
        # utf-8-sig: an editor on Windows may have saved the file with a byte order mark.
        return json.loads(raw.decode("utf-8-sig"))
    except RecursionError:
        raise BackupError(
            "This file is not a JSON backup (its lists or objects are nested too deeply)."
        ) from None
    except ValueError as error:
        # Not UTF-8, not JSON, or a number of thousands of digits (past Python's int limit).
        raise BackupError(f"This file is not a JSON backup ({error}).") from error


def tally(data: dict[str, Any]) -> dict[str, int]:
    """How many players, games, hands and leagues a backup holds."""
    return {
        "players": len(data["players"]),
        "games": len(data["games"]),
        "hands": sum(len(game["hands"]) for game in data["games"]),
        "leagues": len(data.get("leagues", ())),
    }


def describe(counts: dict[str, int]) -> str:
    """Counts in words, as "11 players, 4 games and 7 hands"; leagues only when there are any."""
    shown = ["players", "games", "hands"] + (["leagues"] if counts.get("leagues") else [])
    return _listed([_many(counts[what], what) for what in shown])


def stored_counts(session: DbSession) -> dict[str, int]:
    """How many players, games, hands and leagues the database holds."""
    return {
        what: session.scalar(select(func.count()).select_from(model)) or 0
        for what, model in (
            ("players", Player),
            ("games", Game),
            ("hands", Hand),
            ("leagues", League),
        )
    }


def import_all(session: DbSession, data: object) -> dict[str, int]:
    """Restore a backup made by export_all into an empty database, with the results and ratings
    derived from it; how many players, games, hands and leagues (see `tally`).

    Raises BackupError, having stored nothing, when the backup is not one this version can read,
    does not hold together (a seat for an unknown player, a hand the rules refuse), or the
    database is not empty.
    """
    backup = _parse(data)
    roster, game_rows, league_rows = _rows(backup)
    _check_empty(session)
    try:
        session.add_all(roster)
        session.add_all(game_rows)
        session.flush()
        # Rematches point at another game: set once every game exists, whatever their order.
        rematch_of = {game.id: game.rematch_of for game in backup.games}
        for game in game_rows:
            game.rematch_of_id = rematch_of[game.id]
        session.add_all(league_rows)
        session.flush()
        _follow_ids(session)
        # Standings, ratings and league tables are read from stored results: derive them now, in
        # the same transaction, so the restore is all there or not at all. This commits.
        results.rebuild_all(session)
    except IntegrityError as error:
        session.rollback()
        raise BackupError(
            "Someone used the app while the backup was being restored; nothing was restored."
        ) from error
    # Only once committed: a restore rolled back leaves the database, and so its replays, as
    # they were.
    forget_all(session)
    return tally(data)  # type: ignore[arg-type]


def hands_csv(session: DbSession) -> str:
    """Every hand for a spreadsheet: a row per counted player, with the points their cards made."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for game in _all_games(session):
        names = [seat.player.name for seat in game.seats]
        state = scoring.replay(rules_of(game), [hand_of(hand) for hand in game.hands])
        for hand, result in zip(game.hands, state.hands, strict=True):
            for count in hand.counts:
                writer.writerow(
                    [
                        game.id,
                        game.mode,
                        hand.number,
                        _cell(names[hand.went_out]),
                        _cell(names[count.position]),
                        result.counted[count.position],
                        count.cards or "",
                    ]
                )
    return out.getvalue()


def _all_games(session: DbSession) -> list[Game]:
    query = (
        select(Game)
        .order_by(Game.id)
        .options(
            selectinload(Game.seats).joinedload(Seat.player),
            selectinload(Game.teams),
            selectinload(Game.hands).joinedload(Hand.counts),
        )
    )
    return list(session.scalars(query))


def _all_leagues(session: DbSession) -> list[League]:
    query = (
        select(League)
        .order_by(League.id)
        .options(
            selectinload(League.teams), selectinload(League.seasons).selectinload(Season.fixtures)
        )
    )
    return list(session.scalars(query))


def _league_entry(league: League) -> form.LeagueEntry:
    return form.LeagueEntry.model_construct(
        id=league.id,
        name=league.name,
        format=league.format,
        mode=league.mode,
        target=league.target,
        created_at=league.created_at,
        teams=[
            form.LeagueTeamEntry.model_construct(
                id=team.id, players=[team.first_player_id, team.second_player_id], name=team.name
            )
            for team in league.teams
        ],
        seasons=[
            form.SeasonEntry.model_construct(
                number=season.number,
                legs=season.legs,
                created_at=season.created_at,
                fixtures=[
                    form.FixtureEntry.model_construct(
                        id=fixture.id,
                        round=fixture.round,
                        table=fixture.table_number,
                        home=fixture.home_team_id,
                        away=fixture.away_team_id,
                        game=fixture.game_id,
                    )
                    for fixture in season.fixtures
                ],
            )
            for season in league.seasons
        ],
    )


def _game_entry(game: Game) -> form.GameEntry:
    return form.GameEntry.model_construct(
        id=game.id,
        mode=game.mode,
        target=game.target,
        first_dealer=game.first_dealer,
        deck_copies=game.deck_copies,
        blanks=game.blanks,
        blank_value=game.blank_value,
        hand_limit=game.hand_limit,
        created_at=game.created_at,
        updated_at=game.updated_at,
        finished_at=game.finished_at,
        abandoned_at=game.abandoned_at,
        sync_key=game.sync_key,
        version=game.version,
        rematch_of=game.rematch_of_id,
        seats=[seat.player_id for seat in game.seats],
        teams=[
            form.TeamEntry.model_construct(side=team.side, name=team.name) for team in game.teams
        ],
        hands=[
            form.HandEntry.model_construct(
                number=hand.number,
                went_out=hand.went_out,
                last_card=hand.last_card,
                created_at=hand.created_at,
                updated_at=hand.updated_at,
                counts=[
                    form.CountEntry.model_construct(
                        seat=count.position,
                        cards=count.cards.split() if count.cards is not None else None,
                        points=count.points,
                    )
                    for count in hand.counts
                ],
            )
            for hand in game.hands
        ],
    )


def _cell(value: str) -> str:
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def _many(count: int, plural: str) -> str:
    return f"{count} {plural[:-1] if count == 1 else plural}"


def _listed(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


# Reading a backup: form.read checks each entry; what follows checks what needs several entries
# (ids, references, the rules), naming where in the file the problem is, as "games[2].seats[1]".


def _parse(data: object) -> form.Backup:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError('This is not an UNO scorer backup (its format is not "uno-scorer").')
    version = data.get("version")
    if version != VERSION:
        newer = isinstance(version, int) and not isinstance(version, bool) and version > VERSION
        raise BackupError(
            f"This backup is version {form.quoted(version)};"
            f" this scorer reads version {VERSION} only."
            + (" It was made by a newer scorer." if newer else "")
        )
    try:
        return form.read(data)
    except form.Unreadable as error:
        raise BackupError(str(error)) from None


def _rows(backup: form.Backup) -> tuple[list[Player], list[Game], list[League]]:
    roster = [_player(entry) for entry in backup.players]
    _unique([player.id for player in roster], "players", "player id")
    _unique([player.name_key for player in roster], "players", "player name")
    known_players = {player.id: player for player in roster}
    game_rows = [_game(entry, f"games[{i}]", known_players) for i, entry in enumerate(backup.games)]
    _unique([game.id for game in game_rows], "games", "game id")
    known_games = {game.id: game for game in game_rows}
    for i, entry in enumerate(backup.games):
        if entry.rematch_of is not None and entry.rematch_of not in known_games:
            raise BackupError(
                f"games[{i}].rematch_of: there is no game {entry.rematch_of} in the backup."
            )
    league_rows = [
        _league(entry, f"leagues[{i}]", known_players, known_games)
        for i, entry in enumerate(backup.leagues)
    ]
    _unique([league.id for league in league_rows], "leagues", "league id")
    _unique([team.id for league in league_rows for team in league.teams], "leagues", "team id")
    fixtures = [
        fixture
        for league in league_rows
        for season in league.seasons
        for fixture in season.fixtures
    ]
    _unique([fixture.id for fixture in fixtures], "leagues", "fixture id")
    _unique(
        [fixture.game.id for fixture in fixtures if fixture.game is not None],
        "leagues",
        "fixture game",
    )
    return roster, game_rows, league_rows


def _player(entry: form.PlayerEntry) -> Player:
    return Player(
        id=entry.id,
        name=entry.name,
        name_key=players.name_key(entry.name),
        created_at=entry.created_at,
        archived_at=entry.archived_at,
    )


def _league(
    entry: form.LeagueEntry,
    where: str,
    known_players: dict[int, Player],
    known_games: dict[int, Game],
) -> League:
    league = League(
        id=entry.id,
        name=entry.name,
        format=entry.format,
        mode=entry.mode,
        target=entry.target,
        created_at=entry.created_at,
    )
    league.teams = [
        _league_team(team, f"{where}.teams[{i}]", known_players)
        for i, team in enumerate(entry.teams)
    ]
    _unique(
        [(team.first_player_id, team.second_player_id) for team in league.teams],
        f"{where}.teams",
        "pair of players",
    )
    _unique([team.id for team in league.teams], f"{where}.teams", "team id")
    known_teams = {team.id: team for team in league.teams}
    league.seasons = [
        _season(season, f"{where}.seasons[{i}]", known_teams, known_games)
        for i, season in enumerate(entry.seasons)
    ]
    _unique([season.number for season in league.seasons], f"{where}.seasons", "season number")
    return league


def _league_team(
    entry: form.LeagueTeamEntry, where: str, known_players: dict[int, Player]
) -> LeagueTeam:
    pair = entry.players
    if len(pair) != 2:
        raise BackupError(f"{where}.players: a team is two players.")
    for i, player_id in enumerate(pair):
        _known(player_id, known_players, f"{where}.players[{i}]", "player")
    if pair[0] == pair[1]:
        raise BackupError(f"{where}.players: a team is two different players.")
    # Stored lowest id first (the pair is unordered); the ids are set as well as the players, so
    # the pair can be checked for duplicates before anything is flushed.
    low, high = sorted(pair)
    return LeagueTeam(
        id=entry.id,
        first_player_id=low,
        second_player_id=high,
        first_player=known_players[low],
        second_player=known_players[high],
        name=entry.name,
    )


def _season(
    entry: form.SeasonEntry,
    where: str,
    known_teams: dict[int, LeagueTeam],
    known_games: dict[int, Game],
) -> Season:
    season = Season(number=entry.number, legs=entry.legs, created_at=entry.created_at)
    for i, fixture in enumerate(entry.fixtures):
        at = f"{where}.fixtures[{i}]"
        for key, team_id in (("home", fixture.home), ("away", fixture.away)):
            if team_id not in known_teams:
                raise BackupError(f"{at}.{key}: this league has no team {team_id}.")
        if fixture.game is not None:
            _known(fixture.game, known_games, f"{at}.game", "game")
        season.fixtures.append(
            Fixture(
                id=fixture.id,
                round=fixture.round,
                table_number=fixture.table,
                home=known_teams[fixture.home],
                away=known_teams[fixture.away],
                game=None if fixture.game is None else known_games[fixture.game],
            )
        )
    _unique(
        [(fixture.round, fixture.table_number) for fixture in season.fixtures],
        f"{where}.fixtures",
        "round and table",
    )
    return season


def _game(entry: form.GameEntry, where: str, known_players: dict[int, Player]) -> Game:
    game = Game(
        id=entry.id,
        mode=entry.mode,
        target=entry.target,
        first_dealer=entry.first_dealer,
        deck_copies=entry.deck_copies,
        blanks=entry.blanks,
        blank_value=entry.blank_value,
        hand_limit=entry.hand_limit,
        created_at=entry.created_at,
        updated_at=entry.updated_at,
        finished_at=entry.finished_at,
        abandoned_at=entry.abandoned_at,
        # NULL, not the model's default, for a game from before keys: as it was.
        sync_key=null() if entry.sync_key is None else entry.sync_key,
        version=entry.version,
    )
    for i, player_id in enumerate(entry.seats):
        _known(player_id, known_players, f"{where}.seats[{i}]", "player")
    _unique(entry.seats, f"{where}.seats", "player")
    game.seats = [
        Seat(position=position, player=known_players[player_id])
        for position, player_id in enumerate(entry.seats)
    ]
    try:
        rules = rules_of(game)
    except (scoring.Rejected, ValueError) as error:
        raise BackupError(f"{where} (game {game.id}): {error}") from error
    for i, team in enumerate(entry.teams):
        if rules.mode is not scoring.Mode.PARTNERS or not 0 <= team.side < len(rules.sides):
            raise BackupError(f"{where}.teams[{i}].side: this game has no team {team.side}.")
    game.teams = [Team(side=team.side, name=team.name) for team in entry.teams]
    _unique([team.side for team in game.teams], f"{where}.teams", "side")
    game.hands = [_hand(hand, f"{where}.hands[{i}]", i + 1) for i, hand in enumerate(entry.hands)]
    try:
        state = scoring.replay(rules, [hand_of(hand) for hand in game.hands])
    except scoring.Rejected as rejected:
        problem = rejected.problems[0]
        raise BackupError(
            f"{where} (game {game.id}): hand {problem.hand}: {problem.message}"
        ) from rejected
    if state.finished != (entry.finished_at is not None):
        raise BackupError(
            f"{where}.finished_at: the hands say the game is"
            f" {'over' if state.finished else 'still being played'}."
        )
    if state.finished and entry.abandoned_at is not None:
        raise BackupError(f"{where}.abandoned_at: only a game still being played is abandoned.")
    return game


def _hand(entry: form.HandEntry, where: str, number: int) -> Hand:
    if entry.number != number:
        raise BackupError(f"{where}.number: hands must be numbered 1, 2, 3… in order.")
    _unique([count.seat for count in entry.counts], f"{where}.counts", "seat")
    return Hand(
        number=number,
        went_out=entry.went_out,
        last_card=entry.last_card,
        created_at=entry.created_at,
        updated_at=entry.updated_at,
        counts=[
            HandCount(
                position=count.seat,
                cards=" ".join(count.cards) if count.cards is not None else None,
                points=count.points,
            )
            for count in sorted(entry.counts, key=lambda count: count.seat)
        ],
    )


def _known(key: int, known: dict[int, Any], where: str, what: str) -> None:
    if key not in known:
        raise BackupError(f"{where}: there is no {what} {key!r} in the backup.")


def _unique(values: list, where: str, what: str) -> None:
    seen = set()
    for value in values:
        if value in seen:
            raise BackupError(f"{where}: the {what} {value!r} appears twice.")
        seen.add(value)


# Restoring.


def _check_empty(session: DbSession) -> None:
    held = stored_counts(session)
    del held["hands"]  # a hand is never without its game
    if any(held.values()):
        found = _listed([_many(count, what) for what, count in held.items() if count])
        raise BackupError(
            f"The database already holds {found}. "
            "A backup is restored only into an empty database, so nothing is overwritten or mixed."
        )


# Tables whose ids a restore keeps: a new row must not be given one of them.
KEPT_IDS = ("players", "games", "leagues", "league_teams", "fixtures")


def _follow_ids(session: DbSession) -> None:
    """Move PostgreSQL's id sequences past the ids restored, so new rows get fresh ones."""
    if session.get_bind().dialect.name != "postgresql":
        return  # SQLite gives a new row the highest id in its table plus one
    for table in KEPT_IDS:
        session.execute(
            text(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), max(id)) FROM {table}"
                " HAVING count(*) > 0"
            )
        )
