"""Server latency: the game page, saving a hand and the poll, through the production server.

`scorer serve` (waitress) runs in a subprocess on a fresh SQLite database holding a 60-hand game
for the page and the poll, and a 59-hand game whose hand 60 is saved and undone in turn, so every
save makes hand 60 of a game like the page's. One keep-alive client (http.client, gzip like a phone
over plain HTTP, the session cookie and the CSRF token the page gives htmx) sends the requests
round robin, one at a time, and times each from sending to the last byte read.

    .venv/bin/python benchmarks/latency.py [--requests 300] [--threads 8]

Budget: game page and record-hand median under 10 ms, 95th percentile under 25 ms.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from support import (  # noqa: E402
    HTMX,
    Client,
    hand_form,
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
MEDIAN_BUDGET_MS = 10
P95_BUDGET_MS = 25


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=300, help="timed requests of each kind")
    parser.add_argument("--warmup", type=int, default=20, help="untimed requests of each kind")
    parser.add_argument("--threads", type=int, default=8, help="waitress threads (scorer serve)")
    parser.add_argument("--hands", type=int, default=60, help="hands in the page's game")
    args = parser.parse_args()
    print_machine()

    with scratch_folder("latency-") as folder:
        url = f"sqlite:///{folder / 'bench.sqlite'}"
        app = production_app(url, folder)
        from scorer.extensions import db

        with app.app_context():
            shown = start_game(db.session, PLAYERS)
            play_hands(db.session, shown.id, args.hands, PLAYERS)
            saved = start_game(db.session, PLAYERS)
            play_hands(db.session, saved.id, args.hands - 1, PLAYERS)
            shown_id, saved_id = shown.id, saved.id
            db.session.remove()
            db.engine.dispose()

        with scorer_serve(url, folder, threads=args.threads) as server:
            client = Client(server.port)
            page = client.open_page(f"/games/{shown_id}")
            assert page.status == 200 and client.csrf_token, page.status
            current = page_etag(client, shown_id)
            number = args.hands
            kinds = {
                "game page (GET, full page)": lambda: client.request("GET", f"/games/{shown_id}"),
                f"record hand {number} (htmx POST)": lambda: client.request(
                    "POST", f"/games/{saved_id}/hands", hand_form(number, PLAYERS), HTMX
                ),
                "poll, nothing new (304)": lambda: client.request(
                    "GET", f"/games/{shown_id}/live", headers={**HTMX, "If-None-Match": current}
                ),
                f"undo hand {number} (htmx POST)": lambda: client.request(
                    "POST", f"/games/{saved_id}/hands/{number}/undo", {}, HTMX
                ),
                "poll, game changed (200)": lambda: client.request(
                    "GET",
                    f"/games/{shown_id}/live",
                    headers={**HTMX, "If-None-Match": f'W/"game-{shown_id}-v0"'},
                ),
            }
            expected = {name: 304 if "304" in name else 200 for name in kinds}
            times: dict[str, list[float]] = {name: [] for name in kinds}
            sizes: dict[str, int] = {}
            for round_number in range(args.warmup + args.requests):
                for name, send in kinds.items():
                    reply = send()
                    if reply.status != expected[name]:
                        raise SystemExit(f"{name}: status {reply.status}\n{reply.text[:2000]}")
                    if round_number >= args.warmup:
                        times[name].append(reply.seconds)
                        sizes[name] = len(reply.body)
            check_saves(client, saved_id, number)
            client.close()

    print(
        f"scorer serve (waitress, 1 process, {args.threads} threads), SQLite, "
        f"a {args.hands}-hand game of {PLAYERS} players; {args.requests} timed requests of each "
        f"kind after {args.warmup} untimed, one at a time over one keep-alive connection.\n"
    )
    print("| request | min ms | median ms | p95 ms | max ms | body bytes (gzip) | budget |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    failed = False
    for name, seconds in times.items():
        stats = summary_ms(seconds)
        budget = ""
        if name.startswith(("game page", "record hand")):
            ok = stats["median"] < MEDIAN_BUDGET_MS and stats["p95"] < P95_BUDGET_MS
            failed |= not ok
            budget = f"{verdict(ok)} (< {MEDIAN_BUDGET_MS} / < {P95_BUDGET_MS})"
        print(
            f"| {name} | {stats['min']:.1f} | {stats['median']:.1f} | {stats['p95']:.1f} "
            f"| {stats['max']:.1f} "
            f"| {sizes[name]:,} | {budget} |"
        )
    return 1 if failed else 0


def page_etag(client: Client, game_id: int) -> str:
    """The game's current poll tag, as the page's poller would send it."""
    reply = client.request("GET", f"/games/{game_id}/live", headers={**HTMX, "If-None-Match": "-"})
    return reply.headers["ETag"]


def check_saves(client: Client, game_id: int, number: int) -> None:
    """The saves really saved: one more and the game shows the hand after it."""
    reply = client.request("POST", f"/games/{game_id}/hands", hand_form(number, PLAYERS), HTMX)
    assert f"Record hand {number + 1}" in reply.text, reply.text[:500]


if __name__ == "__main__":
    sys.exit(main())
