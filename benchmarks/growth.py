"""Growth: a game's page costs the same however many other games there are, and grows no worse
than linearly with its own hands.

Two SQLite databases hold the same three games of 4 players, with 10, 60 and 200 hands, and one
short finished game, all made through the services. The second also holds 1,000 more games (950
finished, 50 still being played; over 30,000 hands), restored through the backup service from
games played through the services. For each database and game: the SQL statements the page runs
(counted in-process), and its time over HTTP from `scorer serve` (waitress) in a subprocess, one
request at a time, the two databases' servers taking turns so that other work on the machine
slows both alike. The home page is measured too: it lists every game in progress, so it is
expected to grow with them.

    .venv/bin/python benchmarks/growth.py [--requests 40]
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import gzip
import sys
import time
from pathlib import Path

import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).resolve().parent))

from support import (  # noqa: E402
    HTMX,
    Client,
    play_hands,
    print_machine,
    production_app,
    scorer_serve,
    scratch_folder,
    start_game,
    summary_ms,
    verdict,
)

PLAYERS = 4
SIZES = (10, 60, 200)
OTHER_GAMES = 1000
OTHERS_PLAYING_EVERY = 20  # one in 20 other games is still being played
OTHER_PLAYING_HANDS = 20


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=40, help="timed requests of each page")
    args = parser.parse_args()
    print_machine()
    results = {}
    with scratch_folder("growth-") as folder:
        alone_url = f"sqlite:///{folder / 'alone.sqlite'}"
        app = production_app(alone_url, folder)
        from scorer.extensions import db
        from scorer.services import backup

        started = time.monotonic()
        with app.app_context():
            # One short finished game, so the home page's list of finished games is not empty
            # here either (an empty list skips its loads, which would make the counts differ).
            finish_game(db.session, 2, target=50)
            game_ids = {}
            for hands in SIZES:
                game = start_game(db.session, PLAYERS)
                play_hands(db.session, game.id, hands, PLAYERS)
                game_ids[hands] = game.id
            ours = backup.export_all(db.session)
            db.session.remove()
        print(f"Games of {SIZES} hands made in {time.monotonic() - started:.0f} s.")
        paths = pages_of(game_ids)
        alone = "1 other game"
        results[alone] = count_queries(app, paths)
        first_views = time_first_views(app, game_ids)
        dispose(app)

        started = time.monotonic()
        crowded_data = with_other_games(folder, ours)
        crowded_url = f"sqlite:///{folder / 'crowded.sqlite'}"
        app = production_app(crowded_url, folder)
        with app.app_context():
            restored = backup.import_all(db.session, crowded_data)
            db.session.remove()
        print(f"Restored {restored} in {time.monotonic() - started:.0f} s.")
        crowded = f"{OTHER_GAMES + 1:,} other games"
        results[crowded] = count_queries(app, paths)
        dispose(app)

        with contextlib.ExitStack() as stack:
            servers = {
                label: stack.enter_context(
                    scorer_serve(url, folder, log=folder / f"server-{index}.log")
                )
                for index, (label, url) in enumerate(((alone, alone_url), (crowded, crowded_url)))
            }
            time_pages(servers, paths, args.requests, results)

    return report(results, first_views)


def finish_game(session, players: int, target: int = 500):
    """A game played through the services until someone wins."""
    from scorer.models import Game

    game = start_game(session, players, target=target)
    while not session.get(Game, game.id).finished_at:
        play_hands(session, game.id, 1, players)
    return game


def with_other_games(folder: Path, ours: dict) -> dict:
    """Our backup plus 1,000 other games: copies of a finished game and of one still played."""
    from scorer.extensions import db
    from scorer.services import backup

    app = production_app(f"sqlite:///{folder / 'templates.sqlite'}", folder)
    with app.app_context():
        finished = finish_game(db.session, PLAYERS)
        playing = start_game(db.session, PLAYERS)
        play_hands(db.session, playing.id, OTHER_PLAYING_HANDS, PLAYERS)
        templates = {game["id"]: game for game in backup.export_all(db.session)["games"]}
        finished_id, playing_id = finished.id, playing.id
        db.session.remove()
    dispose(app)
    seats = {player["name"]: player["id"] for player in ours["players"]}
    data = copy.deepcopy(ours)
    first_id = max(game["id"] for game in ours["games"]) + 1
    for index in range(OTHER_GAMES):
        template = playing_id if index % OTHERS_PLAYING_EVERY == 0 else finished_id
        game = copy.deepcopy(templates[template])
        game["id"] = first_id + index
        game["rematch_of"] = None
        # The same four players (ids as in our backup), so the roster stays as it is.
        game["seats"] = [seats[name] for name in ("Ann", "Bob", "Cat", "Dan")]
        data["games"].append(game)
    return data


def pages_of(game_ids: dict[int, int]) -> dict[str, str]:
    pages = {f"game page, {hands} hands": f"/games/{game}" for hands, game in game_ids.items()}
    pages["home page"] = "/"
    for hands, game in game_ids.items():
        pages[f"poll 200, {hands} hands"] = f"/games/{game}/live"
    return pages


def headers_for(name: str) -> dict[str, str]:
    """A poll from a page that shows an old version of the game gets the changed parts."""
    return {**HTMX, "If-None-Match": "-"} if name.startswith("poll") else {}


def time_first_views(app, game_ids: dict[int, int], runs: int = 30) -> dict[int, float]:
    """Median ms to read a game's hands and replay them: what the first view of each version
    costs. Every later view of that version is served from the replays a process keeps
    (scorer/services/snapshots.py), which is what the page and poll times above mostly show."""
    from scorer import scoring
    from scorer.extensions import db
    from scorer.services import games, snapshots

    found = {}
    with app.app_context():
        for hands, game_id in game_ids.items():
            game = games.load_game(db.session, game_id).game
            rules = snapshots.rules_of(game)
            times = []
            for _ in range(runs):
                started = time.perf_counter()
                _version, stored = snapshots.stored_hands(db.session, [game_id])[game_id]
                scoring.replay(rules, [hand.facts for hand in stored], check=False)
                times.append(time.perf_counter() - started)
                db.session.rollback()
            found[hands] = summary_ms(times)["median"]
        db.session.remove()
    return found


def count_queries(app, pages: dict[str, str]) -> dict[str, dict]:
    """The SQL statements each page runs, counted in-process, and its size."""
    from scorer.extensions import db

    found: dict[str, dict] = {}
    client = app.test_client()
    with app.app_context():
        engine = db.engine
    statements: list[str] = []

    def record(_conn, _cursor, statement, *_args) -> None:
        statements.append(statement)

    for name, path in pages.items():
        client.get(path, headers=headers_for(name))  # anything cached on first use is cached now
        statements.clear()
        sa.event.listen(engine, "before_cursor_execute", record)
        try:
            response = client.get(path, headers=headers_for(name))
        finally:
            sa.event.remove(engine, "before_cursor_execute", record)
        assert response.status_code == 200, (name, response.status_code)
        found[name] = {
            "queries": len(statements),
            "bytes": len(response.data),
            "gzip": len(gzip.compress(response.data)),
        }
    return found


def time_pages(servers: dict, pages: dict[str, str], requests: int, results: dict) -> None:
    """Each page's time over HTTP from each server, the servers taking turns request by request,
    so that other work on the machine slows both alike."""
    clients = {label: Client(server.port) for label, server in servers.items()}
    times: dict[tuple[str, str], list[float]] = {}
    for attempt in range(5 + requests):
        for name, path in pages.items():
            for label, client in clients.items():
                reply = client.request("GET", path, headers=headers_for(name))
                assert reply.status == 200, (label, name, reply.status)
                if attempt >= 5:
                    times.setdefault((label, name), []).append(reply.seconds)
    for (label, name), seconds in times.items():
        results[label][name].update(summary_ms(seconds))
    for client in clients.values():
        client.close()


def dispose(app) -> None:
    from scorer.extensions import db

    with app.app_context():
        db.session.remove()
        db.engine.dispose()


def report(results: dict[str, dict[str, dict]], first_views: dict[int, float]) -> int:
    print(
        "\nSQLite; scorer serve (waitress, 8 threads); each page requested one at a time "
        "over a keep-alive connection; times in ms. The fastest time is the one least disturbed "
        "by other work on the machine, so growth is judged on it. Bytes are the page as "
        "rendered, and gzipped.\n"
    )
    print("| page | other games | queries | min ms | median ms | p95 ms | bytes | gzip bytes |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    labels = list(results)
    for name in results[labels[0]]:
        for label in labels:
            row = results[label][name]
            print(
                f"| {name} | {label} | {row['queries']} | {row['min']:.1f} | {row['median']:.1f} "
                f"| {row['p95']:.1f} | {row['bytes']:,} | {row['gzip']:,} |"
            )
    alone, crowded = (results[label] for label in labels)
    checks = []
    for kind in ("game page", "poll 200"):
        names = [f"{kind}, {hands} hands" for hands in SIZES]
        queries = {results[label][name]["queries"] for label in labels for name in names}
        checks.append(
            (
                f"{kind}: the same number of queries for 10, 60 and 200 hands, with 1 or "
                f"{OTHER_GAMES + 1:,} other games ({sorted(queries)})",
                len(queries) == 1,
            )
        )
        for name in names:
            before, after = alone[name]["min"], crowded[name]["min"]
            checks.append(
                (
                    f"{name}: fastest with {OTHER_GAMES + 1:,} other games {after:.1f} ms vs "
                    f"{before:.1f} ms with 1 (within 25% or 2 ms)",
                    after <= max(before * 1.25, before + 2),
                )
            )
        times = [min(results[label][name]["min"] for label in labels) for name in names]
        early = (times[1] - times[0]) / (SIZES[1] - SIZES[0])
        late = (times[2] - times[1]) / (SIZES[2] - SIZES[1])
        checks.append(
            (
                f"{kind}: no worse than linear in its own hands: {late:.3f} ms a hand from 60 to "
                f"200 vs {early:.3f} ms a hand from 10 to 60 (at most 1.5 times, or 0.02 ms)",
                late <= max(early * 1.5, early + 0.02),
            )
        )
    print(
        "\nThe first view of each version (in-process: reading the hands and replaying them):"
        + "".join(f" {hands} hands {ms:.2f} ms;" for hands, ms in first_views.items())
    )
    sizes = sorted(first_views)
    early = (first_views[sizes[1]] - first_views[sizes[0]]) / (sizes[1] - sizes[0])
    late = (first_views[sizes[2]] - first_views[sizes[1]]) / (sizes[2] - sizes[1])
    checks.append(
        (
            f"first view: no worse than linear in the game's hands: {late:.4f} ms a hand from "
            f"{sizes[1]} to {sizes[2]} vs {early:.4f} ms from {sizes[0]} to {sizes[1]} "
            "(at most 1.5 times, or 0.005 ms)",
            late <= max(early * 1.5, early + 0.005),
        )
    )
    home = {results[label]["home page"]["queries"] for label in labels}
    checks.append(
        (
            f"home page: the same number of queries with 1 or {OTHER_GAMES + 1:,} other games "
            f"({sorted(home)})",
            len(home) == 1,
        )
    )
    print()
    for text, ok in checks:
        print(f"- {verdict(ok)}: {text}")
    return 0 if all(ok for _text, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
