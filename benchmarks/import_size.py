"""A backup file at club size, for timing `scorer import`: the data of benchmarks/lists.py.

100,000 players; 100,000 standard games of two to four players and ten hands each (1,000,000
hands, typed totals), one in 200 in progress and one in 200 abandoned; 2,000 leagues. Written
straight to FILE as `scorer export` would write it, an entry at a time.

    .venv/bin/python benchmarks/import_size.py FILE [--scale 0.25]
    /usr/bin/time -v .venv/bin/scorer import FILE      # into an empty database

--scale writes that share of the players, games and leagues, to show how the import grows.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import lists  # noqa: E402


def moment(value: datetime) -> str:
    return value.isoformat() + "+00:00"


def game_entry(rng: random.Random, game: int) -> dict:
    seats = lists.seated(rng, game)
    size = len(seats)
    created = datetime(2022, 1, 1) + timedelta(minutes=10 * game)
    updated = created + timedelta(minutes=30)
    playing, abandoned = game % lists.EVERY == 0, game % lists.EVERY == 1
    finished = not (playing or abandoned)
    hands = []
    for number in range(1, lists.HANDS_PER_GAME + 1):
        last = number == lists.HANDS_PER_GAME and finished
        went_out = 0 if last else (number - 1) % size
        hands.append(
            {
                "number": number,
                "went_out": went_out,
                "last_card": None,
                "created_at": moment(updated),
                "updated_at": moment(updated),
                "counts": [
                    {
                        "seat": seat,
                        "cards": None,
                        "points": lists.TARGET if last and seat == 1 else 5 + (number + seat) % 10,
                    }
                    for seat in range(size)
                    if seat != went_out
                ],
            }
        )
    return {
        "id": game,
        "mode": "standard",
        "target": lists.TARGET,
        "first_dealer": 0,
        "deck_copies": 1,
        "blanks": 4,
        "blank_value": 50,
        "hand_limit": None,
        "created_at": moment(created),
        "updated_at": moment(updated),
        "finished_at": moment(updated) if finished else None,
        "abandoned_at": moment(updated) if abandoned else None,
        "sync_key": None,
        "version": lists.HANDS_PER_GAME,
        "rematch_of": None,
        "seats": seats,
        "teams": [],
        "hands": hands,
    }


def write(path: Path, scale: float) -> None:
    players = int(lists.PLAYERS * scale)
    games = int(lists.GAMES * scale)
    leagues = int(lists.LEAGUES * scale)
    lists.PLAYERS = players  # seated() picks among this many
    rng = random.Random(23)
    created = moment(datetime(2022, 1, 1))

    def listed(out, entries) -> None:
        first = True
        for entry in entries:
            out.write("\n" if first else ",\n")
            out.write(json.dumps(entry, ensure_ascii=False))
            first = False
        out.write("\n]")

    with path.open("w", encoding="utf-8") as out:
        out.write(f'{{"format": "uno-scorer", "version": 1, "exported_at": "{created}",\n')
        out.write('"players": [')
        names = lists.names()
        listed(
            out,
            (
                {"id": i, "name": name, "created_at": created, "archived_at": None}
                for i, name in zip(range(1, players + 1), names, strict=False)
            ),
        )
        out.write(',\n"games": [')
        listed(out, (game_entry(rng, game) for game in range(1, games + 1)))
        out.write(',\n"leagues": [')
        listed(
            out,
            (
                {
                    "id": number,
                    "name": f"League {number:04d}",
                    "format": "teams",
                    "mode": "partners",
                    "target": lists.TARGET,
                    "created_at": created,
                    "teams": [],
                    "seasons": [],
                }
                for number in range(1, leagues + 1)
            ),
        )
        out.write("}\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", type=Path)
    parser.add_argument("--scale", type=float, default=1.0)
    args = parser.parse_args()
    write(args.file, args.scale)
    print(f"Wrote {args.file} ({args.file.stat().st_size / 1e6:.0f} MB).")


if __name__ == "__main__":
    main()
