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

Format "uno-scorer", version 1. A version only changes when the meaning of a field already in the
format changes. Sections and fields added since the first files were written are optional, and a
file without them reads as before: a player without "archived_at" is not archived, a file without
"leagues" has none. Readers refuse a version they do not know rather than guess.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, selectinload

from .. import scoring
from ..models import (
    TEAM_NAME_MAX_LENGTH,
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
from . import players, results
from .errors import ServiceError
from .hands import LAST_CARDS
from .leagues import FORMATS
from .snapshots import hand_of, rules_of

FORMAT = "uno-scorer"
VERSION = 1
CSV_COLUMNS = ("game", "mode", "hand", "went_out", "player", "points", "cards")
# A spreadsheet takes a cell starting with one of these for a formula; a name is never one.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class BackupError(ServiceError):
    """A backup that cannot be restored, or a database it cannot be restored into."""


def export_all(session: Session) -> dict[str, Any]:
    """Everything stored, as a JSON-ready dict: {"format": "uno-scorer", "version": 1, ...}."""
    roster = session.scalars(select(Player).order_by(Player.id))
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _timestamp(utcnow()),
        "players": [
            {
                "id": player.id,
                "name": player.name,
                "created_at": _timestamp(player.created_at),
                "archived_at": _timestamp(player.archived_at) if player.archived_at else None,
            }
            for player in roster
        ],
        "games": [_game_document(game) for game in _all_games(session)],
        "leagues": [_league_document(league) for league in _all_leagues(session)],
    }


def dumps(data: dict[str, Any]) -> str:
    """A backup as the text of a .json file: UTF-8 names as written, one item a line."""
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def loads(raw: bytes) -> object:
    """The JSON in an uploaded file; BackupError when it is not JSON at all."""
    try:
        # utf-8-sig: an editor on Windows may have saved the file with a byte order mark.
        return json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
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


def stored_counts(session: Session) -> dict[str, int]:
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


def import_all(session: Session, data: object) -> dict[str, int]:
    """Restore a backup made by export_all into an empty database, with the results and ratings
    derived from it; how many players, games, hands and leagues (see `tally`).

    Raises BackupError, having stored nothing, when the backup is not one this version can read,
    does not hold together (a seat for an unknown player, a hand the rules refuse), or the
    database is not empty.
    """
    roster, game_rows, league_rows = _read(data)
    _check_empty(session)
    try:
        session.add_all(roster)
        session.add_all(game_rows)
        session.flush()
        # Rematches point at another game: set once every game exists, whatever their order.
        rematch_of = {game["id"]: game["rematch_of"] for game in data["games"]}  # type: ignore[index]
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
    return tally(data)  # type: ignore[arg-type]


def hands_csv(session: Session) -> str:
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


def _all_games(session: Session) -> list[Game]:
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


def _all_leagues(session: Session) -> list[League]:
    query = (
        select(League)
        .order_by(League.id)
        .options(
            selectinload(League.teams), selectinload(League.seasons).selectinload(Season.fixtures)
        )
    )
    return list(session.scalars(query))


def _league_document(league: League) -> dict[str, Any]:
    return {
        "id": league.id,
        "name": league.name,
        "format": league.format,
        "mode": league.mode,
        "target": league.target,
        "created_at": _timestamp(league.created_at),
        "teams": [
            {
                "id": team.id,
                "players": [team.first_player_id, team.second_player_id],
                "name": team.name,
            }
            for team in league.teams
        ],
        "seasons": [
            {
                "number": season.number,
                "legs": season.legs,
                "created_at": _timestamp(season.created_at),
                "fixtures": [
                    {
                        "id": fixture.id,
                        "round": fixture.round,
                        "table": fixture.table_number,
                        "home": fixture.home_team_id,
                        "away": fixture.away_team_id,
                        "game": fixture.game_id,
                    }
                    for fixture in season.fixtures
                ],
            }
            for season in league.seasons
        ],
    }


def _game_document(game: Game) -> dict[str, Any]:
    return {
        "id": game.id,
        "mode": game.mode,
        "target": game.target,
        "first_dealer": game.first_dealer,
        "deck_copies": game.deck_copies,
        "blanks": game.blanks,
        "blank_value": game.blank_value,
        "created_at": _timestamp(game.created_at),
        "updated_at": _timestamp(game.updated_at),
        "finished_at": _timestamp(game.finished_at) if game.finished_at else None,
        "version": game.version,
        "rematch_of": game.rematch_of_id,
        "seats": [seat.player_id for seat in game.seats],
        "teams": [{"side": team.side, "name": team.name} for team in game.teams],
        "hands": [
            {
                "number": hand.number,
                "went_out": hand.went_out,
                "last_card": hand.last_card,
                "created_at": _timestamp(hand.created_at),
                "updated_at": _timestamp(hand.updated_at),
                "counts": [
                    {
                        "seat": count.position,
                        "cards": count.cards.split() if count.cards is not None else None,
                        "points": count.points,
                    }
                    for count in hand.counts
                ],
            }
            for hand in game.hands
        ],
    }


def _timestamp(moment: datetime) -> str:
    return moment.replace(tzinfo=UTC).isoformat()


def _cell(value: str) -> str:
    return "'" + value if value.startswith(FORMULA_STARTS) else value


def _many(count: int, plural: str) -> str:
    return f"{count} {plural[:-1] if count == 1 else plural}"


def _listed(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


# Reading a backup. Each check names where in the file the problem is, as "games[2].hands[0].seat".


def _read(data: object) -> tuple[list[Player], list[Game], list[League]]:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError('This is not an UNO scorer backup (its format is not "uno-scorer").')
    version = data.get("version")
    if version != VERSION:
        raise BackupError(
            f"This backup is version {version!r}; this scorer reads version {VERSION} only."
            + (" It was made by a newer scorer." if _is_int(version) and version > VERSION else "")
        )
    roster = [_player(entry, f"players[{i}]") for i, entry in enumerate(_list(data, "players", ""))]
    _unique([player.id for player in roster], "players", "player id")
    _unique([player.name_key for player in roster], "players", "player name")
    known_players = {player.id: player for player in roster}
    documents = _list(data, "games", "")
    game_rows = [_game(entry, f"games[{i}]", known_players) for i, entry in enumerate(documents)]
    _unique([game.id for game in game_rows], "games", "game id")
    known_games = {game.id: game for game in game_rows}
    for i, entry in enumerate(documents):
        rematch_of = _field(entry, "rematch_of", _is_int, "a game id or null", f"games[{i}]", True)
        if rematch_of is not None and rematch_of not in known_games:
            raise BackupError(
                f"games[{i}].rematch_of: there is no game {rematch_of} in the backup."
            )
    # Leagues came to the format after its first files: a file without them has none.
    league_documents = _list(data, "leagues", "") if "leagues" in data else []
    league_rows = [
        _league(entry, f"leagues[{i}]", known_players, known_games)
        for i, entry in enumerate(league_documents)
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


def _player(entry: object, where: str) -> Player:
    name = _field(entry, "name", _is_str, "a name", where)
    problem = players.name_problem(name)
    if problem or players.clean_name(name) != name:
        raise BackupError(f"{where}.name: {problem or 'spaces around or inside the name'}")
    return Player(
        id=_field(entry, "id", _is_id, "a whole number above 0", where),
        name=name,
        name_key=players.name_key(name),
        created_at=_moment(entry, "created_at", where),
        # Added to the format after its first files: missing means not archived.
        archived_at=_moment(entry, "archived_at", where, optional=True)
        if "archived_at" in entry  # type: ignore[operator]
        else None,
    )


def _league(
    entry: object, where: str, known_players: dict[int, Player], known_games: dict[int, Game]
) -> League:
    name = _field(entry, "name", _is_str, "a name", where)
    if not name.strip() or len(name) > TEAM_NAME_MAX_LENGTH:
        raise BackupError(f"{where}.name: 1 to {TEAM_NAME_MAX_LENGTH} characters.")
    target = _field(entry, "target", _is_int, "a whole number", where)
    if target < 1:
        raise BackupError(f"{where}.target: must be at least 1.")
    league = League(
        id=_field(entry, "id", _is_id, "a whole number above 0", where),
        name=name,
        format=_field(
            entry,
            "format",
            lambda value: isinstance(value, str) and value in FORMATS,
            " or ".join(FORMATS),
            where,
        ),
        mode=_field(entry, "mode", _is_mode, "standard, partners or challenge", where),
        target=target,
        created_at=_moment(entry, "created_at", where),
    )
    league.teams = [
        _league_team(team, f"{where}.teams[{i}]", known_players)
        for i, team in enumerate(_list(entry, "teams", where))
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
        for i, season in enumerate(_list(entry, "seasons", where))
    ]
    _unique([season.number for season in league.seasons], f"{where}.seasons", "season number")
    return league


def _league_team(entry: object, where: str, known_players: dict[int, Player]) -> LeagueTeam:
    pair = _list(entry, "players", where)
    if len(pair) != 2:
        raise BackupError(f"{where}.players: a team is two players.")
    for i, player_id in enumerate(pair):
        if not _is_int(player_id) or player_id not in known_players:
            raise BackupError(
                f"{where}.players[{i}]: there is no player {player_id!r} in the backup."
            )
    if pair[0] == pair[1]:
        raise BackupError(f"{where}.players: a team is two different players.")
    name = _field(entry, "name", _is_str, "a name or null", where, optional=True)
    if name is not None and not 0 < len(name) <= TEAM_NAME_MAX_LENGTH:
        raise BackupError(f"{where}.name: 1 to {TEAM_NAME_MAX_LENGTH} characters, or null.")
    # Stored lowest id first (the pair is unordered); the ids are set as well as the players, so
    # the pair can be checked for duplicates before anything is flushed.
    low, high = sorted(pair)
    return LeagueTeam(
        id=_field(entry, "id", _is_id, "a whole number above 0", where),
        first_player_id=low,
        second_player_id=high,
        first_player=known_players[low],
        second_player=known_players[high],
        name=name,
    )


def _season(
    entry: object, where: str, known_teams: dict[int, LeagueTeam], known_games: dict[int, Game]
) -> Season:
    def whole(key: str, within: object = entry, at: str = where) -> int:
        value = _field(within, key, _is_int, "a whole number", at)
        if value < 1:
            raise BackupError(f"{at}.{key}: must be at least 1.")
        return value

    season = Season(
        number=whole("number"), legs=whole("legs"), created_at=_moment(entry, "created_at", where)
    )
    for i, fixture in enumerate(_list(entry, "fixtures", where)):
        at = f"{where}.fixtures[{i}]"
        sides = {}
        for side in ("home", "away"):
            team_id = _field(fixture, side, _is_int, "a team id", at)
            if team_id not in known_teams:
                raise BackupError(f"{at}.{side}: this league has no team {team_id}.")
            sides[side] = known_teams[team_id]
        game_id = _field(fixture, "game", _is_int, "a game id or null", at, optional=True)
        if game_id is not None and game_id not in known_games:
            raise BackupError(f"{at}.game: there is no game {game_id} in the backup.")
        season.fixtures.append(
            Fixture(
                id=_field(fixture, "id", _is_id, "a whole number above 0", at),
                round=whole("round", fixture, at),
                table_number=whole("table", fixture, at),
                home=sides["home"],
                away=sides["away"],
                game=known_games[game_id] if game_id is not None else None,
            )
        )
    _unique(
        [(fixture.round, fixture.table_number) for fixture in season.fixtures],
        f"{where}.fixtures",
        "round and table",
    )
    return season


def _game(entry: object, where: str, known_players: dict[int, Player]) -> Game:
    def whole(key: str, minimum: int = 0) -> int:
        value = _field(entry, key, _is_int, "a whole number", where)
        if value < minimum:
            raise BackupError(f"{where}.{key}: must be at least {minimum}.")
        return value

    finished_at = _moment(entry, "finished_at", where, optional=True)
    game = Game(
        id=_field(entry, "id", _is_id, "a whole number above 0", where),
        mode=_field(entry, "mode", _is_mode, "standard, partners or challenge", where),
        target=whole("target"),
        first_dealer=whole("first_dealer"),
        deck_copies=whole("deck_copies", 1),
        blanks=whole("blanks"),
        blank_value=whole("blank_value"),
        created_at=_moment(entry, "created_at", where),
        updated_at=_moment(entry, "updated_at", where),
        finished_at=finished_at,
        version=whole("version"),
    )
    seat_ids = _list(entry, "seats", where)
    for i, player_id in enumerate(seat_ids):
        if not _is_int(player_id) or player_id not in known_players:
            raise BackupError(
                f"{where}.seats[{i}]: there is no player {player_id!r} in the backup."
            )
    _unique(seat_ids, f"{where}.seats", "player")
    game.seats = [
        Seat(position=position, player=known_players[player_id])
        for position, player_id in enumerate(seat_ids)
    ]
    try:
        rules = rules_of(game)
    except (scoring.Rejected, ValueError) as error:
        raise BackupError(f"{where} (game {game.id}): {error}") from error
    game.teams = [
        _team(team, f"{where}.teams[{i}]", rules)
        for i, team in enumerate(_list(entry, "teams", where))
    ]
    _unique([team.side for team in game.teams], f"{where}.teams", "side")
    game.hands = [
        _hand(hand, f"{where}.hands[{i}]", i + 1)
        for i, hand in enumerate(_list(entry, "hands", where))
    ]
    try:
        state = scoring.replay(rules, [hand_of(hand) for hand in game.hands])
    except scoring.Rejected as rejected:
        problem = rejected.problems[0]
        raise BackupError(
            f"{where} (game {game.id}): hand {problem.hand}: {problem.message}"
        ) from rejected
    if state.finished != (finished_at is not None):
        raise BackupError(
            f"{where}.finished_at: the hands say the game is"
            f" {'over' if state.finished else 'still being played'}."
        )
    return game


def _team(entry: object, where: str, rules: scoring.Rules) -> Team:
    side = _field(entry, "side", _is_int, "a side", where)
    name = _field(entry, "name", _is_str, "a name", where)
    if rules.mode is not scoring.Mode.PARTNERS or not 0 <= side < len(rules.sides):
        raise BackupError(f"{where}.side: this game has no team {side}.")
    if not name or len(name) > TEAM_NAME_MAX_LENGTH:
        raise BackupError(f"{where}.name: 1 to {TEAM_NAME_MAX_LENGTH} characters.")
    return Team(side=side, name=name)


def _hand(entry: object, where: str, number: int) -> Hand:
    if _field(entry, "number", _is_int, "a hand number", where) != number:
        raise BackupError(f"{where}.number: hands must be numbered 1, 2, 3… in order.")
    last_card = _field(entry, "last_card", _is_str, "a card or null", where, optional=True)
    if last_card is not None and last_card not in LAST_CARDS:
        raise BackupError(f"{where}.last_card: one of {', '.join(LAST_CARDS)}, or null.")
    counts = [
        _count(count, f"{where}.counts[{i}]")
        for i, count in enumerate(_list(entry, "counts", where))
    ]
    _unique([count.position for count in counts], f"{where}.counts", "seat")
    return Hand(
        number=number,
        went_out=_field(entry, "went_out", _is_int, "a seat", where),
        last_card=last_card,
        created_at=_moment(entry, "created_at", where),
        updated_at=_moment(entry, "updated_at", where),
        counts=sorted(counts, key=lambda count: count.position),
    )


def _count(entry: object, where: str) -> HandCount:
    cards = _field(entry, "cards", _is_card_list, "a list of cards or null", where, optional=True)
    points = _field(entry, "points", _is_int, "a whole number or null", where, optional=True)
    if (cards is None) == (points is None):
        raise BackupError(f"{where}: give either cards or points.")
    return HandCount(
        position=_field(entry, "seat", _is_int, "a seat", where),
        cards=" ".join(cards) if cards is not None else None,
        points=points,
    )


def _field(
    entry: object,
    key: str,
    valid: Callable[[object], bool],
    expected: str,
    where: str,
    optional: bool = False,
) -> Any:
    if not isinstance(entry, dict):
        raise BackupError(f"{where or 'The backup'}: expected an object.")
    if key not in entry:
        raise BackupError(f"{where}: {key} is missing." if where else f"{key} is missing.")
    value = entry[key]
    if (value is None and optional) or (value is not None and valid(value)):
        return value
    raise BackupError(f"{_at(where, key)}: expected {expected}, found {value!r}.")


def _list(entry: object, key: str, where: str) -> list:
    return _field(entry, key, lambda value: isinstance(value, list), "a list", where)


def _moment(entry: object, key: str, where: str, optional: bool = False) -> datetime | None:
    value = _field(entry, key, _is_str, "an ISO 8601 date and time", where, optional)
    if value is None:
        return None
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise BackupError(
            f"{_at(where, key)}: {value!r} is not an ISO 8601 date and time."
        ) from None
    # Stored as UTC without a zone; a time given with another offset is converted.
    return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment


def _unique(values: list, where: str, what: str) -> None:
    seen = set()
    for value in values:
        if value in seen:
            raise BackupError(f"{where}: the {what} {value!r} appears twice.")
        seen.add(value)


def _at(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_id(value: object) -> bool:
    return _is_int(value) and value > 0  # type: ignore[operator]


def _is_str(value: object) -> bool:
    return isinstance(value, str)


def _is_mode(value: object) -> bool:
    return value in tuple(scoring.Mode)


def _is_card_list(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(card, str) and card for card in value)


# Restoring.


def _check_empty(session: Session) -> None:
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


def _follow_ids(session: Session) -> None:
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
