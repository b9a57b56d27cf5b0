"""Every list at club size: 100,000 players, 100,000 games, 1,000,000 hands.

Builds a migrated database (a SQLite file in a scratch folder, or a schema of its own on a
PostgreSQL server) and fills it in bulk, straight into the tables: 100,000 players; 100,000
standard games of two to four players, ten hands each, each player seated with the same few
others again and again, one in 200 still in progress and one in 200 abandoned, the rest finished
with their results stored, and each player's totals per period derived from them as the app
derives them (period_totals.rebuild); 2,000 leagues. Then VACUUM ANALYZE on PostgreSQL (ANALYZE
on SQLite), as autovacuum or a maintenance run would after a restore.

Each page and API list is requested in-process through Flask's test client (routing, services,
queries, templates; no network): the median and the slowest of the runs, the body's size before
compression, and the number of SQL statements it ran. Pages that are not lists but show one
(the merge page's choice, a league's names to pick) are measured the same way, and so are the
standings: a page of each player's totals kept for all time, a year or a month, and ranges of
days, in several orders. The games were played from January 2022 to November 2023, so "this
year" is an empty table; a year and a month with games are asked for as dates. The app keeps
no table between requests: the first request for a range of days does what every later one does.

    .venv/bin/python benchmarks/lists.py [--database sqlite|postgresql://...] [--runs 15]
        [--keep FILE] [--reuse] [--only WORDS]

With PostgreSQL the data goes into the schema `bench_lists`, or --schema NAME (made again unless
--reuse finds it filled); with SQLite --keep FILE keeps the database, and --reuse reads FILE
instead of building. --only WORDS measures only the lists whose name holds WORDS.

Budget: every page and API list answers within 100 ms median on PostgreSQL and 300 ms on SQLite,
with a body of at most 200 KB.
"""

from __future__ import annotations

import argparse
import logging
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime, timedelta
from pathlib import Path

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from support import print_machine  # noqa: E402

PLAYERS = 100_000
GAMES = 100_000
HANDS_PER_GAME = 10
LEAGUES = 2_000
# One game in EVERY is still in progress, and one abandoned.
EVERY = 200
TARGET = 500
BUDGET_MS = {"postgresql": 100, "sqlite": 300}
BUDGET_BYTES = 200 * 1024
SCHEMA = "bench_lists"
CHUNK = 10_000
TABLES = ("players", "games", "seats", "hands", "hand_counts", "game_results")
FIRST = [
    "Ann",
    "Bob",
    "Cat",
    "Dan",
    "Eve",
    "Fay",
    "Gus",
    "Hal",
    "Ivy",
    "Jon",
    "Kim",
    "Lea",
    "Max",
    "Ned",
    "Oda",
    "Pat",
    "Quin",
    "Rae",
    "Sam",
    "Tom",
    "Uma",
    "Vic",
    "Wes",
    "Xia",
    "Yan",
    "Zoe",
    "Ada",
    "Ben",
    "Cleo",
    "Dora",
    "Emil",
    "Fern",
    "Gil",
    "Hana",
    "Ines",
    "Jack",
    "Kai",
    "Lars",
    "Mia",
    "Nora",
    "Otto",
    "Pia",
    "Raul",
    "Sara",
    "Theo",
    "Ugo",
    "Vera",
    "Will",
    "Yara",
    "Zed",
]
LAST = [f"{a}{b}" for a in ("Mor", "Fen", "Holt", "Brook", "Ash") for b in range(20)]


def names() -> Iterator[str]:
    """PLAYERS different names, like a club's: first name, family name, and a number past 5,000."""
    for number in range(PLAYERS):
        first, family = FIRST[number % len(FIRST)], LAST[(number // len(FIRST)) % len(LAST)]
        tail = number // (len(FIRST) * len(LAST))
        yield f"{first} {family}" + (f" {tail}" if tail else "")


def seated(rng: random.Random, game: int) -> list[int]:
    """Two to four player ids; a player sits mostly with the same few neighbours."""
    base = rng.randrange(PLAYERS)
    return [(base + offset) % PLAYERS + 1 for offset in rng.sample(range(12), 2 + game % 3)]


def rows(rng: random.Random) -> Iterator[tuple[str, list[dict]]]:
    """(table, rows) chunks: games with their seats, hands, counts and results."""
    start = datetime(2022, 1, 1)
    hand_id = 0
    chunk: dict[str, list[dict]] = {}
    for game in range(1, GAMES + 1):
        seats = seated(rng, game)
        size = len(seats)
        created = start + timedelta(minutes=10 * game)
        updated = created + timedelta(minutes=30)
        playing, abandoned = game % EVERY == 0, game % EVERY == 1
        finished = not (playing or abandoned)
        chunk.setdefault("games", []).append(
            {
                "id": game,
                "mode": "standard",
                "target": TARGET,
                "first_dealer": 0,
                "deck_copies": 1,
                "blanks": 4,
                "blank_value": 50,
                "hand_limit": None,
                "created_at": created,
                "updated_at": updated,
                "finished_at": updated if finished else None,
                "abandoned_at": updated if abandoned else None,
                "version": HANDS_PER_GAME,
                "rematch_of_id": None,
            }
        )
        chunk.setdefault("seats", []).extend(
            {"game_id": game, "player_id": player, "position": position}
            for position, player in enumerate(seats)
        )
        for number in range(1, HANDS_PER_GAME + 1):
            hand_id += 1
            last = number == HANDS_PER_GAME and finished
            # Small hands never reach the target; the last hand of a finished game puts seat 0
            # past it.
            went_out = 0 if last else (number - 1) % size
            chunk.setdefault("hands", []).append(
                {
                    "id": hand_id,
                    "game_id": game,
                    "number": number,
                    "went_out": went_out,
                    "last_card": None,
                    "created_at": updated,
                    "updated_at": updated,
                }
            )
            chunk.setdefault("hand_counts", []).extend(
                {
                    "hand_id": hand_id,
                    "position": seat,
                    "cards": None,
                    "points": TARGET if last and seat == 1 else 5 + (number + seat) % 10,
                }
                for seat in range(size)
                if seat != went_out
            )
        if finished:
            chunk.setdefault("game_results", []).extend(
                {
                    "game_id": game,
                    "player_id": player,
                    "seq": game,
                    "finished_at": updated,
                    "mode": "standard",
                    "side": seat,
                    "place": seat + 1,
                    "won": seat == 0,
                    "score": TARGET if seat == 0 else 0,
                    "hands_won": 1,
                    "points_won": TARGET if seat == 0 else 0,
                    "biggest_hand": TARGET if seat == 0 else 0,
                    "mu": 25.0,
                    "sigma": 8.3,
                    "change": 0.0,
                }
                for seat, player in enumerate(seats)
            )
        if game % CHUNK == 0:
            yield from chunk.items()
            chunk = {}
    yield from chunk.items()


def bulk(connection: sa.Connection, table: str, found: list[dict]) -> None:
    """Insert `found` into `table`: COPY on PostgreSQL, executemany on SQLite."""
    if not found:
        return
    if connection.dialect.name == "postgresql":
        columns = list(found[0])
        raw = connection.connection.driver_connection
        with raw.cursor() as cursor:
            listed = ", ".join(columns)
            with cursor.copy(f"COPY {table} ({listed}) FROM STDIN") as copy:
                for row in found:
                    copy.write_row([row[column] for column in columns])
    else:
        connection.execute(sa.table(table, *map(sa.column, found[0])).insert(), found)


def build(engine: sa.Engine) -> float:
    """Fill the database; the seconds it took."""
    from sqlalchemy.orm import Session

    from scorer.field_rules import name_key
    from scorer.services import period_totals

    began = time.perf_counter()
    rng = random.Random(23)
    with engine.begin() as connection:
        people = [{"id": i, "name": n, "name_key": name_key(n)} for i, n in enumerate(names(), 1)]
        moment = datetime(2022, 1, 1)
        for row in people:
            row["created_at"], row["archived_at"] = moment, None
        bulk(connection, "players", people)
        for table, found in rows(rng):
            bulk(connection, table, found)
        leagues = [
            {
                "id": number,
                "name": f"League {number:04d}",
                "format": "teams",
                "mode": "partners",
                "target": TARGET,
                "created_at": moment,
            }
            for number in range(1, LEAGUES + 1)
        ]
        bulk(connection, "leagues", leagues)
        if connection.dialect.name == "postgresql":
            for table in (*TABLES, "leagues"):
                connection.exec_driver_sql(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"(SELECT max(id) FROM {table}))"
                )
        # Each player's totals per period, derived from the results as the app derives them.
        with Session(bind=connection) as session:
            period_totals.rebuild(session)
            session.flush()
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        # Autovacuum does both after this many new rows: statistics for the planner, and the
        # visibility map that lets PostgreSQL answer from an index alone.
        vacuum = "VACUUM ANALYZE" if connection.dialect.name == "postgresql" else "ANALYZE"
        connection.exec_driver_sql(vacuum)
    return time.perf_counter() - began


def counted(engine: sa.Engine) -> dict[str, int]:
    with engine.connect() as connection:
        return {
            table: connection.scalar(sa.select(sa.func.count()).select_from(sa.table(table)))
            for table in ("players", "games", "hands", "hand_counts", "game_results", "leagues")
        }


def measure(client, method: str, url: str, data, headers, runs: int, count) -> dict:
    call = client.post if method == "POST" else client.get
    call(url, data=data, headers=headers)  # warm: templates compiled, caches filled
    with count() as statements:
        response = call(url, data=data, headers=headers)
    assert response.status_code == 200, (url, response.status_code)
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        response = call(url, data=data, headers=headers)
        body = response.get_data()
        times.append((time.perf_counter() - began) * 1000)
    return {
        "median": statistics.median(times),
        "slowest": max(times),
        "bytes": len(body),
        "queries": len(statements),
    }


def once(client, method: str, url: str, data, headers, count) -> dict:
    """One request, timed and its statements counted: for pages too slow to time again and again."""
    call = client.post if method == "POST" else client.get
    with count() as statements:
        began = time.perf_counter()
        response = call(url, data=data, headers=headers)
        body = response.get_data()
        took = (time.perf_counter() - began) * 1000
    assert response.status_code == 200, (url, response.status_code)
    return {"median": took, "slowest": took, "bytes": len(body), "queries": len(statements)}


def targets(app) -> tuple[list[tuple], list[tuple]]:
    """(name, method, url, form, headers): the lists with a budget, then the other pages."""
    from scorer.extensions import db
    from scorer.models import Player
    from scorer.services import pages, standings

    with app.app_context():
        middle = db.session.execute(
            sa.select(Player.name_key, Player.id)
            .order_by(Player.name_key, Player.id)
            .offset(PLAYERS // 2)
            .limit(1)
        ).one()
        players_cursor = pages.encode("players", list(middle))
        games_cursor = pages.encode("games", [GAMES // 2])
        leagues_cursor = pages.encode("leagues", [f"League {LEAGUES // 2:04d}", LEAGUES // 2])
        # The cursor the More link after the first 45 % of the table by name hands out.
        standings_cursor = standings.standings_page(
            db.session,
            standings.period("all"),
            sort="name",
            descending=False,
            size=PLAYERS * 45 // 100,
        ).next
        # Those 15 months: the second page of a search by most games; by fewest wins or points,
        # the page a reader paging on from the start reaches where the players with none end,
        # and the one after it.
        fifteen = standings.period("custom", date(2022, 3, 15), date(2023, 6, 10))
        most_games_cursor = standings.standings_page(
            db.session, fifteen, sort="games", search="fen1"
        ).next
        winless = _winless(db.session, fifteen)
        page = standings.PAGE_SIZE
        wins_begin = {
            sort: _cursor_after(db.session, fifteen, sort, winless // page * page)
            for sort in ("wins", "points")
        }
        after_wins_begin = standings.standings_page(
            db.session, fifteen, sort="wins", descending=False, cursor=wins_begin["wins"]
        ).next
        playing = pages.playing_page(db.session)
        home_cursor = playing.next
        two = [name for _, name in zip(range(2), names(), strict=False)]
    htmx = {"HX-Request": "true"}
    seat = {"players-0": two[0], "players-1": two[1], "mode": "standard", "target": "500"}
    typed = seat | {"action": "search", "new_name": "mor1"}
    lists = [
        # Not a list: one query, for how long any answer takes on the machine as it is now.
        ("Floor: API, one player", "GET", "/api/v1/players/1", None, {}),
        ("Home page", "GET", "/", None, {}),
        *(
            [("Home, more games in progress (htmx)", "GET", f"/?cursor={home_cursor}", None, htmx)]
            if home_cursor
            else []
        ),
        ("Roster page", "GET", "/players/", None, {}),
        (
            "Roster, a page from the middle (htmx)",
            "GET",
            f"/players/?cursor={players_cursor}",
            None,
            htmx,
        ),
        ("Roster, search 'fen1'", "GET", "/players/?q=fen1", None, {}),
        ("Roster, search with no match", "GET", "/players/?q=zzz", None, {}),
        ("Setup page", "GET", "/games/new", None, {}),
        ("Setup, a tap with two seated", "POST", "/games/new", seat | {"action": "dealer:1"}, {}),
        (
            "Setup, search as typed (htmx)",
            "POST",
            "/games/new",
            typed,
            htmx,
        ),
        ("Leagues page", "GET", "/leagues/", None, {}),
        (
            "Leagues, a page from the middle (htmx)",
            "GET",
            f"/leagues/?cursor={leagues_cursor}",
            None,
            htmx,
        ),
        ("API players", "GET", "/api/v1/players", None, {}),
        ("API players, limit 200", "GET", "/api/v1/players?limit=200", None, {}),
        (
            "API players, from the middle",
            "GET",
            f"/api/v1/players?cursor={players_cursor}",
            None,
            {},
        ),
        ("API players, search 'ann'", "GET", "/api/v1/players?q=ann", None, {}),
        ("API games", "GET", "/api/v1/games", None, {}),
        ("API games, limit 200", "GET", "/api/v1/games?limit=200", None, {}),
        ("API games, from the middle", "GET", f"/api/v1/games?cursor={games_cursor}", None, {}),
    ]
    lists += [
        ("Merge page, a choice of players", "GET", "/players/1/merge", None, {}),
        ("Merge page, search 'ash1'", "GET", "/players/1/merge?q=ash1", None, {}),
        ("A league's page, names offered", "GET", "/leagues/1", None, {}),
    ]
    # Derived and sorted over everyone who played in the period: read from each player's totals
    # kept per period, a page of rows back. The games were played from January 2022 to November
    # 2023, so "this year" is empty; a year and a month with games are asked for as dates. Dates
    # across months (85,000 players) are read in each order the page offers: by wins (the page's
    # first order), by rating and by name (each player's last result in the range), fewest games,
    # fewest wins, fewest points and by win rate both ways (the players on the least or the most a
    # range allows come first), and a search; and the pages of those orders that lie past their
    # quick start: a search's second page by most games, the pages by fewest wins or points where
    # the players with none end, and a search by rating whose rows lie deep in the table.
    lists += [
        ("Standings, all time by wins", "GET", "/standings/", None, {}),
        ("Standings, all time by rating", "GET", "/standings/?sort=rating", None, {}),
        (
            "Standings, by name, from the middle (htmx)",
            "GET",
            f"/standings/?sort=name&order=asc&cursor={standings_cursor}",
            None,
            htmx,
        ),
        ("Standings, search 'fen1'", "GET", "/standings/?q=fen1", None, {}),
        ("Standings, search with no match", "GET", "/standings/?q=zzz", None, {}),
        ("Standings, fewest games first", "GET", "/standings/?sort=games&order=asc", None, {}),
        ("Standings, this year", "GET", "/standings/?period=year", None, {}),
        (
            "Standings, 2023 (a year, as dates)",
            "GET",
            "/standings/?period=custom&first=2023-01-01&last=2023-12-31",
            None,
            {},
        ),
        (
            "Standings, March 2023 (a month, as dates)",
            "GET",
            "/standings/?period=custom&first=2023-03-01&last=2023-03-31",
            None,
            {},
        ),
        (
            "Standings, 15 Mar 2022 to 10 Jun 2023",
            "GET",
            "/standings/?period=custom&first=2022-03-15&last=2023-06-10",
            None,
            {},
        ),
        (
            "Standings, those 15 months by name",
            "GET",
            "/standings/?period=custom&first=2022-03-15&last=2023-06-10&sort=name&order=asc",
            None,
            {},
        ),
        (
            "Standings, those 15 months by rating",
            "GET",
            "/standings/?period=custom&first=2022-03-15&last=2023-06-10&sort=rating",
            None,
            {},
        ),
        (
            "Standings, those 15 months, fewest games first",
            "GET",
            "/standings/?period=custom&first=2022-03-15&last=2023-06-10&sort=games&order=asc",
            None,
            {},
        ),
        (
            "Standings, those 15 months by win rate",
            "GET",
            "/standings/?period=custom&first=2022-03-15&last=2023-06-10&sort=win_rate",
            None,
            {},
        ),
        (
            "Standings, those 15 months, lowest win rate",
            "GET",
            "/standings/?period=custom&first=2022-03-15&last=2023-06-10&sort=win_rate&order=asc",
            None,
            {},
        ),
        (
            "Standings, those 15 months, fewest wins",
            "GET",
            "/standings/?period=custom&first=2022-03-15&last=2023-06-10&sort=wins&order=asc",
            None,
            {},
        ),
        (
            "Standings, those 15 months, fewest points",
            "GET",
            "/standings/?period=custom&first=2022-03-15&last=2023-06-10&sort=points&order=asc",
            None,
            {},
        ),
        (
            "Standings, those 15 months, search 'fen1'",
            "GET",
            "/standings/?period=custom&first=2022-03-15&last=2023-06-10&q=fen1",
            None,
            {},
        ),
        (
            "Standings, those 15 months, 'fen1' most games, page 2 (htmx)",
            "GET",
            f"/standings/?period=custom&first=2022-03-15&last=2023-06-10&sort=games"
            f"&q=fen1&cursor={most_games_cursor}",
            None,
            htmx,
        ),
        (
            "Standings, those 15 months, fewest wins, where wins begin (htmx)",
            "GET",
            f"/standings/?period=custom&first=2022-03-15&last=2023-06-10&sort=wins&order=asc"
            f"&cursor={wins_begin['wins']}",
            None,
            htmx,
        ),
        (
            "Standings, those 15 months, fewest wins, the page after",
            "GET",
            f"/standings/?period=custom&first=2022-03-15&last=2023-06-10&sort=wins&order=asc"
            f"&cursor={after_wins_begin}",
            None,
            htmx,
        ),
        (
            "Standings, those 15 months, fewest points, where points begin (htmx)",
            "GET",
            f"/standings/?period=custom&first=2022-03-15&last=2023-06-10&sort=points&order=asc"
            f"&cursor={wins_begin['points']}",
            None,
            htmx,
        ),
        (
            "Standings, those 15 months by rating, search 'zed'",
            "GET",
            "/standings/?period=custom&first=2022-03-15&last=2023-06-10&sort=rating&q=zed",
            None,
            {},
        ),
        (
            "Standings, 15 to 25 March 2023",
            "GET",
            "/standings/?period=custom&first=2023-03-15&last=2023-03-25",
            None,
            {},
        ),
    ]
    others: list[tuple] = []
    return lists, others


def _cursor_after(session, span, sort: str, rows: int) -> str | None:
    """The cursor after the first `rows` of `span` by fewest `sort`, paged on a thousand at a
    time: the pages a reader's More link hands out lead to the same place."""
    from scorer.services import standings

    cursor = None
    while rows:
        size = min(rows, 1000)
        cursor = standings.standings_page(
            session, span, sort=sort, descending=False, cursor=cursor, size=size
        ).next
        rows -= size
    return cursor


def _winless(session, span) -> int:
    """How many players have results but no win in `span`: by fewest wins (or points, as only a
    winner scores here), they fill the table's first pages."""
    from scorer.models import GameResult

    within = sa.and_(GameResult.finished_at >= span.start, GameResult.finished_at < span.end)
    players = sa.select(sa.func.count(sa.distinct(GameResult.player_id))).where(within)
    winners = players.where(GameResult.won)
    return session.scalar(players) - session.scalar(winners)


def engine_for(
    database: str, folder: Path, keep: Path | None, schema: str = SCHEMA
) -> tuple[str, str]:
    """The URL to use and the dialect's name; a PostgreSQL schema of our own."""
    if database == "sqlite":
        path = keep or folder / "scorer.sqlite"
        return f"sqlite:///{path}", "sqlite"
    server = database.replace("postgresql://", "postgresql+psycopg://", 1)
    admin = sa.create_engine(server, isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)
    with admin.connect() as connection:
        connection.exec_driver_sql(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
    admin.dispose()
    separator = "&" if "?" in server else "?"
    return f"{server}{separator}options=-csearch_path%3D{schema}", "postgresql"


def drop_schema(url: str, schema: str = SCHEMA) -> None:
    server = url.split("?")[0]
    admin = sa.create_engine(server, isolation_level="AUTOCOMMIT", poolclass=sa.NullPool)
    with admin.connect() as connection:
        connection.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        connection.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    admin.dispose()


def report(name: str, found: dict, budget_ms: int | None) -> bool:
    within = budget_ms is None or (found["median"] <= budget_ms and found["bytes"] <= BUDGET_BYTES)
    mark = "" if budget_ms is None else ("PASS" if within else "FAIL")
    print(
        f"{name:<44} {found['median']:8.1f} {found['slowest']:8.1f} "
        f"{found['bytes'] / 1024:9.1f} {found['queries']:4d}  {mark}"
    )
    return within


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", default="sqlite", help="sqlite, or a postgresql:// URL")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--keep", type=Path, help="SQLite: keep the database in this file")
    parser.add_argument("--reuse", action="store_true", help="use the data already there")
    parser.add_argument("--schema", default=SCHEMA, help="PostgreSQL: the schema to fill")
    parser.add_argument("--scale", type=float, default=1.0, help="a share of the sizes, to try")
    parser.add_argument(
        "--only", default="", help="measure only the lists whose name holds this (any case)"
    )
    options = parser.parse_args()
    global PLAYERS, GAMES, LEAGUES
    PLAYERS, GAMES, LEAGUES = (
        max(100, int(value * options.scale)) for value in (PLAYERS, GAMES, LEAGUES)
    )
    logging.getLogger("alembic").setLevel(logging.WARNING)

    from flask_migrate import upgrade

    from scorer import create_app
    from scorer.extensions import db

    print_machine()
    with tempfile.TemporaryDirectory(prefix="lists-bench-") as folder:
        url, dialect = engine_for(options.database, Path(folder), options.keep, options.schema)
        if dialect == "postgresql" and not options.reuse:
            drop_schema(url, options.schema)
        if dialect == "sqlite" and options.keep and options.keep.exists() and not options.reuse:
            options.keep.unlink()
        app = create_app(
            {"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "benchmark", "WTF_CSRF_ENABLED": False}
        )
        with app.app_context():
            upgrade()
            engine = db.engine
            built = None
            if not (options.reuse and counted(engine)["players"] == PLAYERS):
                built = build(engine)
            found = counted(engine)
        print(", ".join(f"{value:,} {table}" for table, value in found.items()))
        if built is not None:
            print(f"Built in {built:.1f} s (bulk insert and ANALYZE)")

        @contextmanager
        def count():
            statements: list[str] = []

            def record(*args) -> None:
                statements.append(args[2])

            sa.event.listen(engine, "before_cursor_execute", record)
            try:
                yield statements
            finally:
                sa.event.remove(engine, "before_cursor_execute", record)

        client = app.test_client()
        lists, others = targets(app)
        if options.only:
            wanted = options.only.lower()
            lists = [target for target in lists if wanted in target[0].lower()]
            others = [target for target in others if wanted in target[0].lower()]
        budget = BUDGET_MS[dialect]
        print(f"\n{dialect}: budget {budget} ms median, {BUDGET_BYTES // 1024} KB")
        print(f"{'list':<44} {'median':>8} {'slowest':>8} {'KB':>9} {'SQL':>4}")
        results = [
            report(name, measure(client, *rest, options.runs, count), budget)
            for name, *rest in lists
        ]
        print("\nOther pages that show a list (no budget here; one request each):")
        for name, *rest in others:
            report(name, once(client, *rest, count), None)
        with app.app_context():
            db.session.remove()
            db.engine.dispose()
        return 0 if all(results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
