"""Standings, profiles, league tables and charts at scale: 10,000 finished games, 100,000 hands.

Builds a fresh, migrated SQLite database (in a scratch folder, deleted afterwards) holding 10,000
finished games of 10 hands each over 40 players, in every mode, 112 of them the fixtures of two
seasons of an eight-team league, spread over three years. Games, seats, hands and counts are
written in bulk; their results and ratings are then derived by `results.rebuild_all`, the same
code that keeps them up to date, so that time is reported too. Every hand is one the rules
accept: rebuild_all replays each game through scorer.scoring and would raise otherwise.

Then each page is requested in-process through Flask's test client (routing, services, queries
and templates; no network) and timed: the median and the slowest of the runs, and the number of
SQL statements it ran. Finally: finishing one more game (its last hand saved, results written and
rated), and editing a hand of the oldest game (every later rating recomputed).

    .venv/bin/python benchmarks/standings.py [--games 10000] [--runs 20]

Budget: every standings, profile, chart and league page under 100 ms on SQLite.
"""

from __future__ import annotations

import argparse
import logging
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

HANDS_PER_GAME = 10
PLAYERS = 40
BUDGET_MS = 100


def build(session, games_wanted: int, rng: random.Random) -> dict:
    """Players, a league of two seasons, `games_wanted` finished games; ids of pages to visit."""
    from scorer.models import Fixture, Game, Hand, HandCount, Seat
    from scorer.services import leagues, players

    names = [f"Player {number:02d}" for number in range(1, PLAYERS + 1)]
    roster = players.find_or_add(session, names)
    session.commit()
    ids = [player.id for player in roster]

    league = leagues.create_league(session, "Benchmark league", 300)
    for number in range(8):
        leagues.register_team(session, league.id, names[2 * number], names[2 * number + 1])
    for _ in range(2):
        leagues.add_season(session, league.id, 2)
    fixtures = session.execute(
        sa.select(Fixture.id, Fixture.home_team_id, Fixture.away_team_id).order_by(Fixture.id)
    ).all()
    teams = {team.id: (team.first_player_id, team.second_player_id) for team in league.teams}

    start = datetime(2024, 1, 1)
    moments = sorted(
        start + timedelta(seconds=rng.randrange(3 * 365 * 86400)) for _ in range(games_wanted)
    )
    game_rows, seat_rows, hand_rows, count_rows, links = [], [], [], [], []
    hand_id = count_id = 0
    for game_id, finished_at in enumerate(moments, start=1):
        if game_id <= len(fixtures):
            fixture = fixtures[game_id - 1]
            home, away = teams[fixture.home_team_id], teams[fixture.away_team_id]
            mode, seated = "partners", [home[0], away[0], home[1], away[1]]
            links.append({"fixture": fixture.id, "game": game_id})
        else:
            mode = rng.choices(("standard", "partners", "challenge"), (6, 3, 2))[0]
            size = 4 if mode == "partners" else rng.randint(3, 6)
            seated = rng.sample(ids, size)
        target, hands = _hands(mode, len(seated), rng)
        game_rows.append(
            {
                "id": game_id,
                "mode": mode,
                "target": target,
                "first_dealer": 0,
                "deck_copies": 1,
                "blanks": 4,
                "blank_value": 50,
                "created_at": finished_at - timedelta(hours=1),
                "updated_at": finished_at,
                "finished_at": finished_at,
                "version": HANDS_PER_GAME,
            }
        )
        seat_rows += [
            {"game_id": game_id, "player_id": player, "position": position}
            for position, player in enumerate(seated)
        ]
        for number, (went_out, counts) in enumerate(hands, start=1):
            hand_id += 1
            hand_rows.append(
                {
                    "id": hand_id,
                    "game_id": game_id,
                    "number": number,
                    "went_out": went_out,
                    "created_at": finished_at,
                    "updated_at": finished_at,
                }
            )
            for seat, points in counts.items():
                count_id += 1
                count_rows.append(
                    {"id": count_id, "hand_id": hand_id, "position": seat, "points": points}
                )
    for table, rows in (
        (Game.__table__, game_rows),
        (Seat.__table__, seat_rows),
        (Hand.__table__, hand_rows),
        (HandCount.__table__, count_rows),
    ):
        session.execute(sa.insert(table), rows)
    fixture_table = Fixture.__table__
    session.execute(
        sa.update(fixture_table)
        .where(fixture_table.c.id == sa.bindparam("fixture"))
        .values(game_id=sa.bindparam("game")),
        links,
    )
    session.commit()
    return {"player": ids[0], "league": league.id, "game": len(fixtures) + 1}


def _hands(mode: str, size: int, rng: random.Random) -> tuple[int, list]:
    """A target and 10 hands that end the game exactly at the tenth."""
    sides = size // 2 if mode == "partners" else size

    def side_of(seat: int) -> int:
        return seat % sides if mode == "partners" else seat

    scores = [0] * sides
    hands = []
    for _ in range(HANDS_PER_GAME - 1):
        went_out = rng.randrange(size)
        counts = {
            seat: rng.randint(0, 30) for seat in range(size) if side_of(seat) != side_of(went_out)
        }
        if mode == "challenge":
            for seat, points in counts.items():
                scores[seat] += points
        else:
            scores[side_of(went_out)] += sum(counts.values())
        hands.append((went_out, counts))
    if mode == "challenge":
        # Everyone but seat 0 reaches the target in the last hand: seat 0 survives and wins.
        target = max(scores) + 1
        hands.append((0, {seat: target - scores[seat] for seat in range(1, size)}))
        return target, hands
    leader = max(range(sides), key=lambda side: scores[side])
    target = scores[leader] + 1
    counts = {seat: rng.randint(1, 30) for seat in range(size) if side_of(seat) != leader}
    hands.append((leader, counts))
    return target, hands


def measure(client, url: str, runs: int, count) -> tuple[float, float, int]:
    client.get(url)  # warm: templates compiled, caches filled
    with count() as statements:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        response = client.get(url)
        response.get_data()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times), max(times), len(statements)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=6)
    parser.add_argument("--keep", type=Path, help="also copy the database built to this file")
    options = parser.parse_args()
    logging.getLogger("alembic").setLevel(logging.WARNING)

    from contextlib import contextmanager

    from flask_migrate import upgrade

    from scorer import create_app
    from scorer.extensions import db
    from scorer.models import GameResult
    from scorer.scoring import Count
    from scorer.services import games, hands, results
    from scorer.services.hands import HandEntry

    with tempfile.TemporaryDirectory(prefix="standings-bench-") as folder:
        url = f"sqlite:///{os.path.join(folder, 'scorer.sqlite')}"
        app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "benchmark"})
        with app.app_context():
            upgrade()
            session = db.session
            began = time.perf_counter()
            ids = build(session, options.games, random.Random(options.seed))
            built = time.perf_counter() - began
            began = time.perf_counter()
            rated = results.rebuild_all(session)
            rebuilt = time.perf_counter() - began
            counts = {
                name: session.scalar(sa.select(sa.func.count()).select_from(sa.table(name)))
                for name in ("games", "hands", "hand_counts", "game_results")
            }
            db.session.remove()
        if options.keep:
            with app.app_context(), db.engine.connect() as connection:
                connection.exec_driver_sql(f"VACUUM INTO '{options.keep}'")

        @contextmanager
        def count():
            statements: list[str] = []

            def record(*args) -> None:
                statements.append(args[2])

            with app.app_context():
                engine = db.engine
            sa.event.listen(engine, "before_cursor_execute", record)
            try:
                yield statements
            finally:
                sa.event.remove(engine, "before_cursor_execute", record)

        print(f"Python {platform.python_version()}, SQLite {__import__('sqlite3').sqlite_version}")
        print(f"{platform.machine()}, {os.cpu_count()} cores")
        print(
            f"Data: {counts['games']:,} finished games, {counts['hands']:,} hands, "
            f"{counts['hand_counts']:,} counts, {counts['game_results']:,} results "
            f"({rated:,} games rated); bulk insert {built:.1f} s, "
            f"results and ratings from scratch {rebuilt:.1f} s"
        )
        client = app.test_client()
        player, league, game = ids["player"], ids["league"], ids["game"]
        pages = [
            ("Standings, all time", "/standings/"),
            ("Standings, this year", "/standings/?period=year"),
            (
                "Standings, 2025 by wins",
                "/standings/?period=custom&first=2025-01-01&last=2025-12-31&sort=wins",
            ),
            ("Standings, one league", f"/standings/?league={league}"),
            ("Player profile", f"/players/{player}"),
            ("Rating chart (SVG)", f"/players/{player}/rating.svg"),
            ("Points chart (SVG)", f"/players/{player}/points.svg"),
            ("Roster", "/players/"),
            ("League page", f"/leagues/{league}"),
            ("League table, season 1", f"/leagues/{league}/seasons/1"),
            ("Game score chart (SVG)", f"/games/{game}/chart.svg"),
        ]
        print("\n| page | median ms | slowest ms | queries |\n| --- | ---: | ---: | ---: |")
        over = []
        for label, address in pages:
            median, slowest, queries = measure(client, address, options.runs, count)
            print(f"| {label} | {median:.1f} | {slowest:.1f} | {queries} |")
            if median > BUDGET_MS:
                over.append(label)

        with app.app_context():
            session = db.session
            fresh = games.create_game(
                session, "standard", ["Player 01", "Player 02", "Player 03"], 100
            )
            hands.record_hand(
                session, fresh.id, 1, HandEntry(0, {1: Count(points=10), 2: Count(points=10)})
            )
            began = time.perf_counter()
            hands.record_hand(
                session, fresh.id, 2, HandEntry(0, {1: Count(points=50), 2: Count(points=40)})
            )
            finishing = (time.perf_counter() - began) * 1000
            oldest = session.scalar(sa.select(GameResult.game_id).order_by(GameResult.seq).limit(1))
            first = games.load_game(session, oldest).game.hands[0]
            again = HandEntry(
                first.went_out,
                {count.position: Count(points=count.points) for count in first.counts},
            )
            began = time.perf_counter()
            hands.edit_hand(session, oldest, 1, again)
            editing = (time.perf_counter() - began) * 1000
            db.session.remove()
        print(
            "\nSaving the hand that finishes a game (results written, game rated): "
            f"{finishing:.0f} ms"
        )
        print(
            f"Editing a hand of the oldest finished game (all {rated + 1:,} games re-rated): "
            f"{editing:.0f} ms"
        )
        if over:
            print(f"\nOver the {BUDGET_MS} ms budget: {', '.join(over)}")
            return 1
        print(f"\nEvery page under the {BUDGET_MS} ms budget.")
        return 0


if __name__ == "__main__":
    sys.exit(main())
