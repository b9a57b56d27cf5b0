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
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator
from itertools import accumulate
from types import SimpleNamespace as Row
from typing import IO, Any

import ijson  # type: ignore[import-untyped]
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_babel import ngettext, pgettext
from sqlalchemy import func, insert, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from .. import scoring
from ..database import DbSession
from ..field_rules import name_key
from ..models import (
    Fixture,
    Game,
    GameResult,
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
from . import results
from .backup_format import FORMAT, VERSION
from .errors import ServiceError
from .snapshots import forget_all, hand_of, rules_of

CSV_COLUMNS = ("game", "mode", "hand", "went_out", "player", "points", "cards")
# A spreadsheet takes a cell starting with one of these for a formula; a name is never one.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class BackupError(ServiceError):
    """A backup that cannot be restored, or a database it cannot be restored into."""


class NotJson(BackupError):
    """A file that is not JSON at all."""


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
        raise NotJson(_too_deep()) from None
    except ValueError as error:
        # Not UTF-8, not JSON, or a number of thousands of digits (past Python's int limit).
        raise NotJson(_("This file is not a JSON backup (%(error)s).", error=error)) from error


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


# Rows written at once: big enough that a statement's cost is spread, small enough that a batch of
# games with their hands and counts stays a few megabytes however big the file.
BATCH = 500

# Told the counts so far, the section being read and the share of the file read in this pass.
Progress = Callable[[dict[str, int], str, float], None]


def import_all(
    session: DbSession, data: object, progress: Progress | None = None
) -> dict[str, int]:
    """Restore a backup made by export_all into an empty database, with the results and ratings
    derived from it; how many players, games, hands and leagues (see `tally`).

    `data` is the parsed file, or a binary file to read an entry at a time (see `import_file`).
    Raises BackupError, having stored nothing, when the backup is not one this version can read,
    does not hold together (a seat for an unknown player, a hand the rules refuse), or the
    database is not empty. Problems are reported as the file is read, in its order: the first
    one met is named. `progress`, when given, is told the counts so far and the section being
    read, after each batch.
    """
    source = data if isinstance(data, _Source) else _Entries(data)
    _check_header(source)
    restore = _Restore(session, source, progress or (lambda counts, section, share: None))
    try:
        restore.run()
    except IntegrityError as error:
        session.rollback()
        raise BackupError(
            _("Someone used the app while the backup was being restored; nothing was restored.")
        ) from error
    except BaseException:
        # Rows already written in this transaction go with it: nothing or everything.
        session.rollback()
        raise
    # Only once committed: a restore rolled back leaves the database, and so its replays, as
    # they were.
    forget_all(session)
    return restore.counts


def open_file(file: IO[bytes]) -> _Source:
    """A backup file too big to hold, for import_all to read an entry at a time, a section a
    pass; BackupError at once when it is not JSON or not a backup this version reads.

    Memory holds one batch of entries, the ids seen (to check references) and each player's
    rating, never the file. A file that cannot be read again (standard input) is copied to a
    temporary file first.
    """
    if not file.seekable():
        copy = tempfile.TemporaryFile()  # noqa: SIM115 (closed when the source is dropped)
        shutil.copyfileobj(file, copy)
        file = copy
    source = _Stream(file)
    _check_header(source)
    return source


class _Source:
    """Where a backup's entries come from: a parsed file, or a file read as it goes."""

    def header(self) -> dict[str, Any]:
        """The top level with every section left out: format, version, exported_at."""
        raise NotImplementedError

    def entries(self, section: str) -> Iterator[object]:
        """The entries of a section, in order; none when it is missing or not a list."""
        raise NotImplementedError

    def top(self) -> object:
        """The top level with each section's entries left out (a list kept a list): what is
        missing, or not a list, is reported from it."""
        raise NotImplementedError

    def share_read(self) -> float:
        return 0.0


SECTIONS = ("players", "games", "leagues")


class _Entries(_Source):
    def __init__(self, data: object) -> None:
        self.data = data

    def header(self) -> dict[str, Any]:
        if not isinstance(self.data, dict):
            return {}
        return {key: value for key, value in self.data.items() if key not in SECTIONS}

    def entries(self, section: str) -> Iterator[object]:
        found = self.data.get(section) if isinstance(self.data, dict) else None
        return iter(found if isinstance(found, list) else ())

    def top(self) -> object:
        if not isinstance(self.data, dict):
            return self.data
        return {
            key: [] if key in SECTIONS and isinstance(value, list) else value
            for key, value in self.data.items()
        }


class _Stream(_Source):
    """A backup file read with ijson: each pass reads the file once, building one entry at a
    time (in C); only the header and the shape of the top level are read event by event."""

    def __init__(self, file: IO[bytes]) -> None:
        self.file = file
        self.size = max(1, file.seek(0, io.SEEK_END))
        self._top: object = None
        self._header: dict[str, Any] | None = None

    def _start(self) -> _DepthGuard:
        self.file.seek(0)
        # utf-8-sig: an editor on Windows may have saved the file with a byte order mark.
        if self.file.read(3) != b"\xef\xbb\xbf":
            self.file.seek(0)
        return _DepthGuard(self.file)

    def share_read(self) -> float:
        return min(1.0, self.file.tell() / self.size)

    def header(self) -> dict[str, Any]:
        if self._header is None:
            self._header = self._read_header()
        return self._header

    def _read_header(self) -> dict[str, Any]:
        found: dict[str, Any] = {}
        wanted = {"format", "version", "exported_at"}
        with _unreadable():
            events = ijson.parse(self._start(), use_float=True)
            first = next(events, None)
            if first is None or first[1] != "start_map":
                return {}  # not an object at all: `top` says so
            for prefix, event, value in events:
                if prefix in wanted and event not in _CONTAINER_EVENTS:
                    found[prefix] = value
                    # An export writes these first: the entries need not be read to find them.
                    if wanted <= found.keys():
                        break
        return found

    def entries(self, section: str) -> Iterator[object]:
        with _unreadable():
            yield from ijson.items(self._start(), f"{section}.item", use_float=True)

    def top(self) -> object:
        if self._top is None:
            self._top = self._read_top()
        return self._top

    def _read_top(self) -> object:
        builder = ijson.ObjectBuilder()
        with _unreadable():
            for prefix, event, value in ijson.parse(self._start(), use_float=True):
                # A section's list is kept empty: only its being a list matters here.
                head = prefix.split(".", 1)[0]
                if (
                    head in SECTIONS
                    and prefix.startswith(f"{head}.item")
                    and isinstance(builder.value, dict)
                    and isinstance(builder.value.get(head), list)
                ):
                    continue
                builder.event(event, value)
        return getattr(builder, "value", None)


_CONTAINER_EVENTS = ("start_map", "end_map", "start_array", "end_array")

# A backup nests eight deep at most; the reader names each value by its path, so a file nested
# thousands deep would take memory by the square of its depth before any entry is read.
MAX_DEPTH = 100
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = b"[]{}"
_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
_OTHERS = bytes(set(range(256)) - set(_BRACKETS))


class _DepthGuard:
    """The file as ijson reads it, refused once its lists and objects nest past MAX_DEPTH.

    Brackets are counted outside strings; a string still open at the end of a chunk is carried
    over as its opening quote (and a backslash, when one escapes the next chunk's first byte).
    """

    def __init__(self, file: IO[bytes]) -> None:
        self.file = file
        self.depth = 0
        self.carry = b""

    def read(self, size: int = -1) -> bytes:
        data = self.file.read(size)
        text = _STRING.sub(b"", self.carry + data)
        self.carry = b""
        opened = text.find(b'"')
        if opened >= 0:
            tail = text[opened + 1 :]
            escaped = (len(tail) - len(tail.rstrip(b"\\"))) % 2
            self.carry = b'"' + b"\\" * escaped
            text = text[:opened]
        brackets = text.translate(None, _OTHERS)
        if brackets:
            steps = list(accumulate(map(_STEP.__getitem__, brackets), initial=self.depth))
            self.depth = steps[-1]
            if max(steps) > MAX_DEPTH:
                raise NotJson(_too_deep())
        return data


class _Unreadable:
    def __enter__(self) -> None:
        return None

    def __exit__(self, kind, error, trace) -> None:
        if isinstance(error, RecursionError):
            raise NotJson(_too_deep()) from None
        if isinstance(error, (ijson.JSONError, ValueError)) and not isinstance(error, BackupError):
            raise NotJson(_("This file is not a JSON backup (%(error)s).", error=error)) from error


def _too_deep() -> str:
    return _("This file is not a JSON backup (its lists or objects are nested too deeply).")


def _unreadable() -> _Unreadable:
    return _Unreadable()


def _check_header(source: _Source) -> None:
    header = source.header()
    if not header:
        top = source.top()
        header = top if isinstance(top, dict) else {}
        if not isinstance(top, dict):
            header = {"format": None}
    if header.get("format") != FORMAT:
        raise BackupError(_('This is not an UNO scorer backup (its format is not "uno-scorer").'))
    version = header.get("version")
    if version != VERSION:
        newer = isinstance(version, int) and not isinstance(version, bool) and version > VERSION
        if newer:
            refusal = _(
                "This backup is version %(version)s; this scorer reads version %(known)s only. "
                "It was made by a newer scorer.",
                version=form.quoted(version),
                known=VERSION,
            )
        else:
            refusal = _(
                "This backup is version %(version)s; this scorer reads version %(known)s only.",
                version=form.quoted(version),
                known=VERSION,
            )
        raise BackupError(refusal)
    if "exported_at" in header:
        _read(form.Backup, {"players": [], "games": [], "exported_at": header["exported_at"]})


def _read(model: type[form.Entry], value: object, *where: str | int) -> Any:
    try:
        return form.read_entry(model, value, where)
    except form.Unreadable as error:
        raise BackupError(str(error)) from None


class _Restore:
    """One restore: the sections read in turn, checked an entry at a time, written in batches."""

    def __init__(self, session: DbSession, source: _Source, progress: Progress) -> None:
        self.session = session
        self.source = source
        self.progress = progress
        self.pending: list[dict[str, Any]] = []
        self.checked_empty = False
        self.counts = {"players": 0, "games": 0, "hands": 0, "leagues": 0}
        self.player_ids: set[int] = set()
        self.game_ids: set[int] = set()
        # (finished_at, id) of each finished game: the order they are rated in.
        self.finishing: list[tuple[Any, int]] = []
        self.rematches: list[tuple[int, int, int]] = []

    def run(self) -> None:
        self._players()
        self._flush_players()
        self._games()
        self._leagues()
        _follow_ids(self.session)
        self._rate()
        self.session.commit()

    def _section(self, name: str) -> Iterator[tuple[int, object]]:
        found = False
        for i, entry in enumerate(self.source.entries(name)):
            found = True
            yield i, entry
        if not found:
            # Missing, not a list, or empty: the whole file's shape says which.
            top = self.source.top()
            if not isinstance(top, dict):
                raise BackupError(
                    _('This is not an UNO scorer backup (its format is not "uno-scorer").')
                )
            shell: dict[str, Any] = {"players": [], "games": []}
            if name in top:
                shell[name] = top[name]
            else:
                shell.pop(name, None)  # missing: "games is missing."; leagues may be
            _read(form.Backup, shell)

    def _tell(self, section: str) -> None:
        self.progress(dict(self.counts), section, self.source.share_read())

    # Players: held until the database is known to be empty, as ids and name keys.

    def _players(self) -> None:
        names: set[str] = set()
        twice_id = twice_name = None
        for i, entry in self._section("players"):
            player = _read(form.PlayerEntry, entry, "players", i)
            key = name_key(player.name)
            if player.id in self.player_ids and twice_id is None:
                twice_id = player.id
            if key in names and twice_name is None:
                twice_name = key
            self.player_ids.add(player.id)
            names.add(key)
            self.pending.append(
                {
                    "id": player.id,
                    "name": player.name,
                    "name_key": key,
                    "created_at": player.created_at,
                    "archived_at": player.archived_at,
                }
            )
            if len(self.pending) >= BATCH * 20 and twice_id is None and twice_name is None:
                self._flush_players()
        if twice_id is not None:
            raise BackupError(_("players: the player id %(id)r appears twice.", id=twice_id))
        if twice_name is not None:
            raise BackupError(
                _("players: the player name %(name)r appears twice.", name=twice_name)
            )

    def _flush_players(self) -> None:
        if not self.checked_empty:
            _check_empty(self.session)
            self.checked_empty = True
        if not self.pending:
            return
        self.session.execute(insert(Player.__table__), self.pending)
        self.counts["players"] += len(self.pending)
        self.pending = []
        self._tell("players")

    # Games: checked against the players, written with their seats, teams, hands and counts,
    # and the results of those finished (rated once every game is in).

    def _games(self) -> None:
        batch: list[tuple[form.GameEntry, Any, Any]] = []
        twice = None
        for i, entry in self._section("games"):
            game_entry = _read(form.GameEntry, entry, "games", i)
            game, state = _game(game_entry, f"games[{i}]", self.player_ids)
            if game.id in self.game_ids and twice is None:
                twice = game.id
            self.game_ids.add(game.id)
            if game_entry.rematch_of is not None:
                self.rematches.append((i, game.id, game_entry.rematch_of))
            batch.append((game_entry, game, state))
            if len(batch) >= BATCH and twice is None:
                self._write_games(batch)
                batch = []
        if twice is not None:
            raise BackupError(_("games: the game id %(id)r appears twice.", id=twice))
        self._write_games(batch)
        for i, _game_id, rematch_of in self.rematches:
            if rematch_of not in self.game_ids:
                raise BackupError(
                    _(
                        "games[%(i)s].rematch_of: there is no game %(game)s in the backup.",
                        i=i,
                        game=rematch_of,
                    )
                )
        # Rematches point at another game: set once every game exists, whatever their order.
        for start in range(0, len(self.rematches), BATCH * 20):
            self.session.execute(
                update(Game),
                [
                    {"id": game_id, "rematch_of_id": rematch_of}
                    for _, game_id, rematch_of in self.rematches[start : start + BATCH * 20]
                ],
            )

    def _write_games(self, batch: list[tuple[form.GameEntry, Any, Any]]) -> None:
        if not batch:
            return
        session = self.session
        session.execute(
            insert(Game.__table__), [_game_row(entry, game) for entry, game, _ in batch]
        )
        seats = [
            {"game_id": game.id, "player_id": seat.player_id, "position": seat.position}
            for _, game, _ in batch
            for seat in game.seats
        ]
        if seats:
            session.execute(insert(Seat.__table__), seats)
        teams = [
            {"game_id": game.id, "side": team.side, "name": team.name}
            for _, game, _ in batch
            for team in game.teams
        ]
        if teams:
            session.execute(insert(Team.__table__), teams)
        hands = [(game.id, hand) for _, game, _ in batch for hand in game.hands]
        if hands:
            ids = session.scalars(
                insert(Hand.__table__).returning(Hand.__table__.c.id, sort_by_parameter_order=True),
                [
                    {
                        "game_id": game_id,
                        "number": hand.number,
                        "went_out": hand.went_out,
                        "last_card": hand.last_card,
                        "created_at": hand.created_at,
                        "updated_at": hand.updated_at,
                    }
                    for game_id, hand in hands
                ],
            ).all()
            counts = [
                {
                    "hand_id": hand_id,
                    "position": count.position,
                    "cards": count.cards,
                    "points": count.points,
                }
                for hand_id, (_, hand) in zip(ids, hands, strict=True)
                for count in hand.counts
            ]
            if counts:
                session.execute(insert(HandCount.__table__), counts)
        rows = []
        for _entry, game, state in batch:
            if state.finished:
                self.finishing.append((game.finished_at, game.id))
                # seq is given once every game is in, in the order they finished.
                rows += results.result_rows(game, state, 0)
        if rows:
            session.execute(insert(GameResult.__table__), rows)
        self.counts["games"] += len(batch)
        self.counts["hands"] += len(hands)
        self._tell("games")

    # Leagues: few, each small; checked and added as objects, as before.

    def _leagues(self) -> None:
        league_rows = []
        for i, entry in self._section("leagues"):
            league_entry = _read(form.LeagueEntry, entry, "leagues", i)
            league_rows.append(
                _league(league_entry, f"leagues[{i}]", self.player_ids, self.game_ids)
            )
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
            [fixture.game_id for fixture in fixtures if fixture.game_id is not None],
            "leagues",
            "fixture game",
        )
        self.session.add_all(league_rows)
        self.session.flush()
        self.counts["leagues"] = len(league_rows)
        self._tell("leagues")

    # Standings, ratings and league tables are read from stored results: derived now, in the
    # same transaction, so the restore is all there or not at all.

    def _rate(self) -> None:
        finishing, self.finishing = self.finishing, []
        results.rate_restored(self.session, finishing, lambda: self._tell("ratings"))


def _game_row(entry: form.GameEntry, game: Any) -> dict[str, Any]:
    return {
        "id": game.id,
        "mode": game.mode,
        "target": game.target,
        "first_dealer": game.first_dealer,
        "deck_copies": game.deck_copies,
        "blanks": game.blanks,
        "blank_value": game.blank_value,
        "hand_limit": game.hand_limit,
        "created_at": game.created_at,
        "updated_at": game.updated_at,
        "finished_at": game.finished_at,
        "abandoned_at": game.abandoned_at,
        # NULL, not the model's default, for a game from before keys: as it was.
        "sync_key": entry.sync_key,
        "version": game.version,
    }


def hands_csv(session: DbSession) -> str:
    """Every hand for a spreadsheet: a row per counted player, with the points their cards made."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(_csv_headings())
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


def _csv_headings() -> list[str]:
    """CSV_COLUMNS in the reader's language: a spreadsheet is read by a person, whereas the JSON
    backup's keys are its format and stay as they are."""
    return [
        pgettext("spreadsheet column", "game"),
        pgettext("spreadsheet column", "mode"),
        pgettext("spreadsheet column", "hand"),
        pgettext("spreadsheet column", "went_out"),
        pgettext("spreadsheet column", "player"),
        pgettext("spreadsheet column", "points"),
        pgettext("spreadsheet column", "cards"),
    ]


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


def _many(count: int, what: str) -> str:
    """`count` players, games, hands or leagues, in words."""
    if what == "players":
        return ngettext("%(num)s player", "%(num)s players", count)
    if what == "games":
        return ngettext("%(num)s game", "%(num)s games", count)
    if what == "hands":
        return ngettext("%(num)s hand", "%(num)s hands", count)
    return ngettext("%(num)s league", "%(num)s leagues", count)


def _listed(parts: list[str]) -> str:
    if len(parts) == 1:
        return parts[0]
    return _("%(names)s and %(last)s", names=", ".join(parts[:-1]), last=parts[-1])


# Reading a backup: form.read checks each entry; what follows checks what needs several entries
# (ids, references, the rules), naming where in the file the problem is, as "games[2].seats[1]".


def _league(
    entry: form.LeagueEntry,
    where: str,
    known_players: set[int],
    known_games: set[int],
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


def _league_team(entry: form.LeagueTeamEntry, where: str, known_players: set[int]) -> LeagueTeam:
    pair = entry.players
    if len(pair) != 2:
        raise BackupError(_("%(where)s.players: a team is two players.", where=where))
    for i, player_id in enumerate(pair):
        _known(player_id, known_players, f"{where}.players[{i}]", "player")
    if pair[0] == pair[1]:
        raise BackupError(_("%(where)s.players: a team is two different players.", where=where))
    # Stored lowest id first (the pair is unordered).
    low, high = sorted(pair)
    return LeagueTeam(id=entry.id, first_player_id=low, second_player_id=high, name=entry.name)


def _season(
    entry: form.SeasonEntry,
    where: str,
    known_teams: dict[int, LeagueTeam],
    known_games: set[int],
) -> Season:
    season = Season(number=entry.number, legs=entry.legs, created_at=entry.created_at)
    for i, fixture in enumerate(entry.fixtures):
        at = f"{where}.fixtures[{i}]"
        for key, team_id in (("home", fixture.home), ("away", fixture.away)):
            if team_id not in known_teams:
                raise BackupError(
                    _(
                        "%(where)s.%(key)s: this league has no team %(team)s.",
                        where=at,
                        key=key,
                        team=team_id,
                    )
                )
        if fixture.game is not None:
            _known(fixture.game, known_games, f"{at}.game", "game")
        season.fixtures.append(
            Fixture(
                id=fixture.id,
                round=fixture.round,
                table_number=fixture.table,
                home=known_teams[fixture.home],
                away=known_teams[fixture.away],
                game_id=fixture.game,
            )
        )
    _unique(
        [(fixture.round, fixture.table_number) for fixture in season.fixtures],
        f"{where}.fixtures",
        "round and table",
    )
    return season


def _game(
    entry: form.GameEntry, where: str, known_players: set[int]
) -> tuple[Any, scoring.GameState]:
    """The game an entry describes, as plain rows (not mapped objects: a mapped object costs
    more to make than the rules take to check it), and where its hands leave it."""
    game: Any = Row(
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
        sync_key=entry.sync_key,
        version=entry.version,
    )
    for i, player_id in enumerate(entry.seats):
        _known(player_id, known_players, f"{where}.seats[{i}]", "player")
    _unique(entry.seats, f"{where}.seats", "player")
    game.seats = [
        Row(position=position, player_id=player_id)
        for position, player_id in enumerate(entry.seats)
    ]
    try:
        rules = rules_of(game)
    except (scoring.Rejected, ValueError) as error:
        raise BackupError(
            _("%(where)s (game %(game)s): %(problem)s", where=where, game=game.id, problem=error)
        ) from error
    for i, team in enumerate(entry.teams):
        if rules.mode is not scoring.Mode.PARTNERS or not 0 <= team.side < len(rules.sides):
            raise BackupError(
                _(
                    "%(where)s.teams[%(i)s].side: this game has no team %(side)s.",
                    where=where,
                    i=i,
                    side=team.side,
                )
            )
    game.teams = [Row(side=team.side, name=team.name) for team in entry.teams]
    _unique([team.side for team in game.teams], f"{where}.teams", "side")
    game.hands = [_hand(hand, f"{where}.hands[{i}]", i + 1) for i, hand in enumerate(entry.hands)]
    try:
        state = scoring.replay(rules, [hand_of(hand) for hand in game.hands])
    except scoring.Rejected as rejected:
        problem = rejected.problems[0]
        raise BackupError(
            _(
                "%(where)s (game %(game)s): hand %(hand)s: %(problem)s",
                where=where,
                game=game.id,
                hand=problem.hand,
                problem=problem.message,
            )
        ) from rejected
    if state.finished != (entry.finished_at is not None):
        if state.finished:
            refusal = _("%(where)s.finished_at: the hands say the game is over.", where=where)
        else:
            refusal = _(
                "%(where)s.finished_at: the hands say the game is still being played.",
                where=where,
            )
        raise BackupError(refusal)
    if state.finished and entry.abandoned_at is not None:
        raise BackupError(
            _(
                "%(where)s.abandoned_at: only a game still being played is abandoned.",
                where=where,
            )
        )
    return game, state


def _hand(entry: form.HandEntry, where: str, number: int) -> Any:
    if entry.number != number:
        raise BackupError(
            _("%(where)s.number: hands must be numbered 1, 2, 3… in order.", where=where)
        )
    _unique([count.seat for count in entry.counts], f"{where}.counts", "seat")
    return Row(
        number=number,
        went_out=entry.went_out,
        last_card=entry.last_card,
        created_at=entry.created_at,
        updated_at=entry.updated_at,
        counts=[
            Row(
                position=count.seat,
                cards=" ".join(count.cards) if count.cards is not None else None,
                points=count.points,
            )
            for count in sorted(entry.counts, key=lambda count: count.seat)
        ],
    )


# A reference to what the backup lacks, and a value it holds twice, by what they are: whole
# sentences, so each reads right in every language.
MISSING = {
    "player": _l("%(where)s: there is no player %(value)r in the backup."),
    "game": _l("%(where)s: there is no game %(value)r in the backup."),
}
TWICE = {
    "player": _l("%(where)s: the player %(value)r appears twice."),
    "side": _l("%(where)s: the side %(value)r appears twice."),
    "seat": _l("%(where)s: the seat %(value)r appears twice."),
    "pair of players": _l("%(where)s: the pair of players %(value)r appears twice."),
    "team id": _l("%(where)s: the team id %(value)r appears twice."),
    "season number": _l("%(where)s: the season number %(value)r appears twice."),
    "round and table": _l("%(where)s: the round and table %(value)r appears twice."),
    "league id": _l("%(where)s: the league id %(value)r appears twice."),
    "fixture id": _l("%(where)s: the fixture id %(value)r appears twice."),
    "fixture game": _l("%(where)s: the fixture game %(value)r appears twice."),
}


def _known(key: int, known: set[int] | dict[int, Any], where: str, what: str) -> None:
    if key not in known:
        raise BackupError(str(MISSING[what]) % {"where": where, "value": key})


def _unique(values: list, where: str, what: str) -> None:
    seen = set()
    for value in values:
        if value in seen:
            raise BackupError(str(TWICE[what]) % {"where": where, "value": value})
        seen.add(value)


# Restoring.


def _check_empty(session: DbSession) -> None:
    held = stored_counts(session)
    del held["hands"]  # a hand is never without its game
    if any(held.values()):
        found = _listed([_many(count, what) for what, count in held.items() if count])
        raise BackupError(
            _(
                "The database already holds %(found)s. A backup is restored only into an empty "
                "database, so nothing is overwritten or mixed.",
                found=found,
            )
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
