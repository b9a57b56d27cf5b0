"""Load: 200 phones keeping score at once against the production server on PostgreSQL.

Creates a scratch PostgreSQL database (dropped afterwards), fills it through the services with one
game per table, starts `scorer serve --processes 2 --threads 4` (gunicorn; `--processes 1` is
waitress) on 127.0.0.1, and runs locust headless for a bounded time with the phones of
benchmarks/locustfile.py: each polls its game every 3 s and saves a hand every 30 s, two phones to
a table taking turns. One more phone, the probe, is timed by a plain HTTP client in this script:
locust's own times include its event loop's delays on a machine it shares with the server (see
BENCHMARKS.md). Reports failures, median and 95th percentile, requests a second, and what the
server's processes used.

    .venv/bin/python benchmarks/load.py [--phones 200] [--duration 90] [--processes 2] [--threads 4]

Needs the `bench` extra (`pip install -e '.[bench]'`, for locust) and PostgreSQL at
--server-url (default postgresql://postgres@127.0.0.1:5432, as in CI).

Budget (200 phones, 2 to a game, on PostgreSQL): no errors, 95th percentile under 100 ms.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import re
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))

import standin  # noqa: E402
from support import (  # noqa: E402
    HTMX,
    ROOT,
    Client,
    Server,
    free_port,
    hand_form,
    play_hands,
    print_machine,
    production_app,
    scorer_serve,
    scratch_folder,
    start_game,
    summary_ms,
    verdict,
    wait_for_port,
)

LOCUST = Path(sys.executable).with_name("locust")
P95_BUDGET_MS = 100
PLAYERS = 4
PROBE_SAVE_SECONDS = 5


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=200)
    parser.add_argument("--phones-per-game", type=int, default=2)
    parser.add_argument("--duration", type=int, default=90, help="seconds, at most 300")
    parser.add_argument("--spawn-rate", type=float, default=20, help="phones started a second")
    parser.add_argument(
        "--processes", type=int, default=2, help="server processes (scorer serve --processes)"
    )
    parser.add_argument(
        "--threads", type=int, default=4, help="threads in each server process (scorer serve)"
    )
    parser.add_argument("--hands", type=int, default=10, help="hands already in each game")
    parser.add_argument("--server-url", default="postgresql://postgres@127.0.0.1:5432")
    parser.add_argument(
        "--probe-every", type=float, default=0.25, help="seconds between the probe phone's polls"
    )
    parser.add_argument(
        "--stand-in",
        action="store_true",
        help="a control run: the same phones against benchmarks/standin.py, which does no work",
    )
    args = parser.parse_args()
    if not 10 <= args.duration <= 300:
        parser.error("--duration is 10 to 300 seconds")
    if "127.0.0.1" not in args.server_url and "localhost" not in args.server_url:
        parser.error("the database server must be on this machine (127.0.0.1)")
    if not LOCUST.exists():
        sys.exit("locust is not installed: pip install -e '.[bench]'")
    print_machine()
    if args.stand_in:
        with scratch_folder("load-") as folder:
            return run(args, "", folder)

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
    if args.stand_in:
        game_ids, probe_game_id = list(range(1, games + 1)), games + 1
        args.hands = standin.FIRST_HAND - 1
        return measure(args, game_ids, probe_game_id, standin_serve(folder), folder)
    started = time.monotonic()
    app = production_app(database_url, folder)
    from scorer.extensions import db

    with app.app_context():
        game_ids = []
        for _ in range(games):
            game = start_game(db.session, PLAYERS)
            play_hands(db.session, game.id, args.hands, PLAYERS)
            game_ids.append(game.id)
        probe_game = start_game(db.session, PLAYERS)
        play_hands(db.session, probe_game.id, args.hands, PLAYERS)
        probe_game_id = probe_game.id
        db.session.remove()
        db.engine.dispose()
    print(f"{games} games of {args.hands} hands made in {time.monotonic() - started:.0f} s.")
    server = scorer_serve(database_url, folder, threads=args.threads, processes=args.processes)
    return measure(args, game_ids, probe_game_id, server, folder)


def measure(args, game_ids: list[int], probe_game_id: int, serving, folder: Path) -> int:
    """Run the phones and the probe against the server `serving` starts; print what they saw."""
    games = len(game_ids)
    counts_file = folder / "tallies.json"
    env = {
        **os.environ,
        "BENCH_GAMES": ",".join(map(str, game_ids)),
        "BENCH_PHONES_PER_GAME": str(args.phones_per_game),
        "BENCH_PLAYERS": str(PLAYERS),
        "BENCH_COUNTS": str(counts_file),
    }
    with serving as server:
        monitor = Monitor(server.process.pid)
        monitor.start()
        # The probe starts once every phone is up, and stops with them.
        probe = Probe(
            server.port,
            probe_game_id,
            args.hands + 1,
            start_after=args.phones / args.spawn_rate + 2,
            every=args.probe_every,
        )
        probe.start()
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
        probe.stop()
        server_exit = server.process.poll()
        server_log = server.log.read_text(errors="replace")

    stats = read_csv(folder / "locust_stats.csv")
    failures = read_csv(folder / "locust_failures.csv")
    tallies = json.loads(counts_file.read_text()) if counts_file.exists() else {}
    print(
        f"\n{args.phones} phones ({args.phones_per_game} to a game, {games} games of "
        f"{PLAYERS} players starting at {args.hands} hands), each polling every 3 s and saving "
        f"a hand every 30 s; started {args.spawn_rate:g} a second; {args.duration} s in all. "
        + (
            "Server: benchmarks/standin.py, which does no work (a control run); "
            if args.stand_in
            else f"Server: scorer serve --processes {args.processes} --threads {args.threads} "
            f"({'waitress' if args.processes == 1 else 'gunicorn'}), PostgreSQL "
            "on 127.0.0.1; "
        )
        + f"locust {locust_version()} (FastHttpUser, 1 process) on the same machine."
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
    print(
        f"\nThe probe phone (a plain HTTP client in another thread of this script, on its own "
        f"game, polling every {args.probe_every:g} s and saving a hand every "
        f"{PROBE_SAVE_SECONDS:g} s while the phones ran):\n"
    )
    print("| request | count | errors | median ms | p95 ms | max ms |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for kind, seconds in probe.times.items():
        if seconds:
            ms = summary_ms(seconds)
            print(
                f"| probe {kind} | {ms['n']} | {probe.errors[kind]} | {ms['median']:.1f} "
                f"| {ms['p95']:.1f} | {ms['max']:.1f} |"
            )
    probe_all = [value for seconds in probe.times.values() for value in seconds]
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
    errors = int(total["Failure Count"]) + ("Traceback" in server_log) + sum(probe.errors.values())
    p95 = float(total["95%"])
    probe_p95 = summary_ms(probe_all)["p95"] if probe_all else float("inf")
    ok = errors == 0 and probe_p95 < P95_BUDGET_MS
    print(
        f"\n**Load: {errors} errors; p95 {p95:.0f} ms as locust times it, over "
        f"{total['Request Count']} requests ({float(total['Requests/s']):.1f}/s); p95 "
        f"{probe_p95:.0f} ms as the probe phone sees it. Budget: no errors and p95 < "
        f"{P95_BUDGET_MS} ms (the probe's): {verdict(ok)}.**"
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


class Probe(threading.Thread):
    """One more phone, timed by a plain HTTP client rather than by locust.

    Locust's own times include the work of its event loop, which shares the machine's two cores
    with the server and the database; this phone is a separate thread doing nothing else, so its
    times are what a phone would see. It polls its own game often (for enough samples) and saves a
    hand every PROBE_SAVE_SECONDS.
    """

    def __init__(
        self, port: int, game_id: int, next_hand: int, start_after: float, every: float
    ) -> None:
        super().__init__(daemon=True)
        self.port, self.game_id, self.number = port, game_id, next_hand
        self.start_after, self.every = start_after, every
        self.stopped = threading.Event()
        self.times: dict[str, list[float]] = {"poll": [], "record hand": []}
        self.errors: Counter[str] = Counter()

    def run(self) -> None:
        if self.stopped.wait(self.start_after):
            return
        client = Client(self.port)
        page = client.open_page(f"/games/{self.game_id}")
        tag = version_tag(self.game_id, page.text)
        next_save = time.monotonic() + PROBE_SAVE_SECONDS
        while not self.stopped.wait(self.every):
            headers = {**HTMX, "If-None-Match": tag}
            reply = client.request("GET", f"/games/{self.game_id}/live", headers=headers)
            self.times["poll"].append(reply.seconds)
            if reply.status not in (200, 304):
                self.errors["poll"] += 1
            if time.monotonic() < next_save:
                continue
            next_save += PROBE_SAVE_SECONDS
            form = hand_form(self.number, PLAYERS)
            reply = client.request("POST", f"/games/{self.game_id}/hands", form, HTMX)
            self.times["record hand"].append(reply.seconds)
            if reply.status == 200:
                self.number += 1
                tag = version_tag(self.game_id, reply.text)
            else:
                self.errors["record hand"] += 1
        client.close()

    def stop(self) -> None:
        self.stopped.set()
        self.join(timeout=30)


@contextlib.contextmanager
def standin_serve(folder: Path) -> Iterator[Server]:
    """benchmarks/standin.py in a process of its own, as `scorer serve` would run."""
    port = free_port()
    log = folder / "standin.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(
            [sys.executable, str(Path(standin.__file__)), str(port)],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_for_port(port, process)
        yield Server(f"http://127.0.0.1:{port}", port, process, 4, log)
    finally:
        process.terminate()
        process.wait(timeout=10)


def version_tag(game_id: int, text: str) -> str:
    found = re.search(r'data-version="(\d+)"', text)
    return f'W/"game-{game_id}-v{found.group(1) if found else 0}"'


class Monitor(threading.Thread):
    """Samples the server once a second: CPU, threads and memory of its processes together."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.process = psutil.Process(pid)
        self.stopped = threading.Event()
        self.cpu: list[float] = []
        self.processes = 0
        self.threads = 0
        self.rss = 0
        self.load: list[float] = []
        self.known: dict[int, psutil.Process] = {}

    def tree(self) -> list[psutil.Process]:
        """The server and its workers, the same Process objects each time (for cpu_percent)."""
        found = [self.process, *self.process.children(recursive=True)]
        for process in found:
            self.known.setdefault(process.pid, process)
        return [self.known[process.pid] for process in found]

    def run(self) -> None:
        for process in self.tree():
            process.cpu_percent(None)
        while not self.stopped.wait(1.0):
            try:
                tree = self.tree()
                self.cpu.append(sum(process.cpu_percent(None) for process in tree))
                self.load.append(os.getloadavg()[0])
                self.processes = max(self.processes, len(tree))
                self.threads = max(self.threads, sum(process.num_threads() for process in tree))
                self.rss = max(self.rss, sum(process.memory_info().rss for process in tree))
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
            f"{self.processes} OS processes, {self.threads} OS threads in all, "
            f"CPU {mean:.0f}% of one core on average (peak {max(self.cpu):.0f}%), "
            f"memory at most {self.rss / 2**20:.0f} MiB; the machine's 1-minute load average "
            f"during the run {min(self.load):.1f} to {max(self.load):.1f} on {os.cpu_count()} cores"
        )


if __name__ == "__main__":
    sys.exit(main())
