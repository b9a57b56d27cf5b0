"""Load: 200 phones keeping score at once against the production server on PostgreSQL.

Creates a scratch PostgreSQL database (dropped afterwards), fills it through the services with one
game per table, starts `scorer serve` (waitress: one process, --threads threads) on 127.0.0.1, and
runs locust headless for a bounded time with the phones of benchmarks/locustfile.py: each polls
its game every 3 s and saves a hand every 30 s, two phones to a table taking turns. Reports
failures, median and 95th percentile, requests a second, and what the server process used.

    .venv/bin/python benchmarks/load.py [--phones 200] [--duration 90] [--threads 8]

Needs the `bench` extra (`pip install -e '.[bench]'`, for locust) and PostgreSQL at
--server-url (default postgresql://postgres@127.0.0.1:5432, as in CI).

Budget (issue 8): no errors, 95th percentile under 100 ms.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))

from support import (  # noqa: E402
    ROOT,
    play_hands,
    print_machine,
    production_app,
    scorer_serve,
    scratch_folder,
    start_game,
    verdict,
)

LOCUST = Path(sys.executable).with_name("locust")
P95_BUDGET_MS = 100
PLAYERS = 4


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=200)
    parser.add_argument("--phones-per-game", type=int, default=2)
    parser.add_argument("--duration", type=int, default=90, help="seconds, at most 300")
    parser.add_argument("--spawn-rate", type=float, default=20, help="phones started a second")
    parser.add_argument("--threads", type=int, default=8, help="waitress threads (scorer serve)")
    parser.add_argument("--hands", type=int, default=10, help="hands already in each game")
    parser.add_argument("--server-url", default="postgresql://postgres@127.0.0.1:5432")
    args = parser.parse_args()
    if not 10 <= args.duration <= 300:
        parser.error("--duration is 10 to 300 seconds")
    if "127.0.0.1" not in args.server_url and "localhost" not in args.server_url:
        parser.error("the database server must be on this machine (127.0.0.1)")
    if not LOCUST.exists():
        sys.exit("locust is not installed: pip install -e '.[bench]'")
    print_machine()

    name = f"uno_bench_{os.getpid()}"
    admin = f"{args.server_url}/postgres"
    database_url = f"{args.server_url}/{name}"
    run_sql(admin, f'CREATE DATABASE "{name}"')
    try:
        with scratch_folder("load-") as folder:
            return run(args, database_url, folder)
    finally:
        run_sql(admin, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def run(args, database_url: str, folder: Path) -> int:
    games = max(1, args.phones // args.phones_per_game)
    started = time.monotonic()
    app = production_app(database_url, folder)
    from scorer.extensions import db

    with app.app_context():
        game_ids = []
        for _ in range(games):
            game = start_game(db.session, PLAYERS)
            play_hands(db.session, game.id, args.hands, PLAYERS)
            game_ids.append(game.id)
        db.session.remove()
        db.engine.dispose()
    print(f"{games} games of {args.hands} hands made in {time.monotonic() - started:.0f} s.")

    counts_file = folder / "tallies.json"
    env = {
        **os.environ,
        "BENCH_GAMES": ",".join(map(str, game_ids)),
        "BENCH_PHONES_PER_GAME": str(args.phones_per_game),
        "BENCH_PLAYERS": str(PLAYERS),
        "BENCH_COUNTS": str(counts_file),
    }
    with scorer_serve(database_url, folder, threads=args.threads) as server:
        monitor = Monitor(server.process.pid)
        monitor.start()
        command = [
            str(LOCUST),
            "-f",
            str(ROOT / "benchmarks" / "locustfile.py"),
            "--headless",
            "--users",
            str(args.phones),
            "--spawn-rate",
            str(args.spawn_rate),
            "--run-time",
            f"{args.duration}s",
            "--stop-timeout",
            "5",
            "--host",
            server.url,
            "--csv",
            str(folder / "locust"),
            "--only-summary",
            "--loglevel",
            "WARNING",
        ]
        locust = subprocess.run(
            command, env=env, cwd=ROOT, capture_output=True, text=True, timeout=args.duration + 120
        )
        monitor.stop()
        server_exit = server.process.poll()
        server_log = server.log.read_text(errors="replace")

    stats = read_csv(folder / "locust_stats.csv")
    failures = read_csv(folder / "locust_failures.csv")
    tallies = json.loads(counts_file.read_text()) if counts_file.exists() else {}
    print(
        f"\n{args.phones} phones ({args.phones_per_game} to a game, {games} games of "
        f"{PLAYERS} players starting at {args.hands} hands), each polling every 3 s and saving "
        f"a hand every 30 s; started {args.spawn_rate:g} a second; {args.duration} s in all. "
        f"Server: scorer serve = waitress, 1 process, {args.threads} threads, PostgreSQL "
        f"on 127.0.0.1; locust {locust_version()} (FastHttpUser, 1 process) on the same machine."
    )
    print("\n| request | count | failures | median ms | p95 ms | p99 ms | max ms | req/s |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    total = None
    for row in stats:
        if row["Name"] == "Aggregated":
            total = row
        print(
            f"| {row['Type']} {row['Name']} | {row['Request Count']} | {row['Failure Count']} "
            f"| {row['50%']} | {row['95%']} | {row['99%']} | {float(row['Max Response Time']):.0f} "
            f"| {float(row['Requests/s']):.1f} |"
        )
    print(f"\nPolls and saves: {tallies}")
    print(f"Server process: {monitor.describe()}")
    if failures:
        print("\nFailures:")
        for row in failures:
            print(f"- {row['Method']} {row['Name']}: {row['Error']} ({row['Occurrences']} times)")
    overflows = server_log.count("reached the connection limit")
    if overflows:
        print(
            f"\nwaitress reached its connection limit {overflows} times and stopped accepting "
            "new connections meanwhile (its connection_limit, 100 by default, counts open "
            "keep-alive connections: one or more per phone)."
        )
    if server_exit is not None:
        print(f"\nThe server stopped during the run (exit code {server_exit}).")
    if "Traceback" in server_log or server_exit is not None or failures:
        print("\nThe end of the server's log:\n" + server_log[-3000:])
    if "CPU usage" in locust.stderr:
        print("\nLocust warned that it was short of CPU itself; its times include that.")
    if locust.returncode not in (0, 1):
        print(locust.stdout[-3000:], locust.stderr[-3000:])
    assert total is not None, locust.stderr[-3000:]
    errors = int(total["Failure Count"]) + ("Traceback" in server_log)
    p95 = float(total["95%"])
    ok = errors == 0 and p95 < P95_BUDGET_MS
    print(
        f"\n**Load: {errors} errors, p95 {p95:.0f} ms over {total['Request Count']} requests "
        f"({float(total['Requests/s']):.1f}/s). Budget: no errors and p95 < {P95_BUDGET_MS} ms: "
        f"{verdict(ok)}.**"
    )
    return 0 if ok else 1


def read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as file:
        return list(csv.DictReader(file))


def run_sql(url: str, statement: str) -> None:
    import psycopg

    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(statement)


def locust_version() -> str:
    from importlib.metadata import version

    return version("locust")


class Monitor(threading.Thread):
    """Samples the server process once a second: CPU, threads, memory."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.process = psutil.Process(pid)
        self.stopped = threading.Event()
        self.cpu: list[float] = []
        self.threads = 0
        self.rss = 0
        self.load: list[float] = []

    def run(self) -> None:
        self.process.cpu_percent(None)
        while not self.stopped.wait(1.0):
            try:
                self.cpu.append(self.process.cpu_percent(None))
                self.load.append(os.getloadavg()[0])
                self.threads = max(self.threads, self.process.num_threads())
                self.rss = max(self.rss, self.process.memory_info().rss)
            except psutil.Error:
                return

    def stop(self) -> None:
        self.stopped.set()
        self.join(timeout=5)

    def describe(self) -> str:
        if not self.cpu:
            return "no samples"
        mean = sum(self.cpu) / len(self.cpu)
        return (
            f"1 process, at most {self.threads} OS threads (waitress workers and its loop), "
            f"CPU {mean:.0f}% of one core on average (peak {max(self.cpu):.0f}%), "
            f"memory at most {self.rss / 2**20:.0f} MiB; the machine's 1-minute load average "
            f"during the run {min(self.load):.1f} to {max(self.load):.1f} on {os.cpu_count()} cores"
        )


if __name__ == "__main__":
    sys.exit(main())
