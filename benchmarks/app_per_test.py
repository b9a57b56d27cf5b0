"""What a new app costs each test, as tests/conftest.py makes one, against reusing one app.

Each round copies the migrated SQLite template, makes the app (tests/conftest.py's make_app), adds
a game through the services, GETs its page twice and closes the app. The first GET in a new app
pays for what each app keeps for itself (its Jinja environment loading every template the page
includes, its engine's first statements); the second is what a test would pay with one app for
many tests. Overhead per test = making the app + (first GET - second GET). Medians of --rounds.

    .venv/bin/python benchmarks/app_per_test.py [--rounds 30] [--without-workarounds]

--without-workarounds leaves out the test suite's two speed-ups: the patch of werkzeug's private
Rule._compile_builder and the Jinja bytecode cache shared by every app of a process.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from werkzeug.routing import Rule

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--without-workarounds", action="store_true")
    options = parser.parse_args()

    compile_builder = Rule._compile_builder
    import conftest  # applies the Rule._compile_builder patch as it is imported
    from factories import make_game
    from support import print_machine

    from scorer.extensions import db

    if options.without_workarounds:
        Rule._compile_builder = compile_builder  # type: ignore[method-assign]

    with tempfile.TemporaryDirectory() as folder:
        template = conftest.SqliteTemplate(Path(folder))

        def one_round(index: int) -> tuple[float, float, float]:
            started = time.perf_counter()
            app = conftest.make_app(template.copy(Path(folder) / f"{index}.sqlite"), migrate=False)
            if options.without_workarounds:
                app.jinja_env.bytecode_cache = None
            made = time.perf_counter() - started
            with app.app_context():
                game_id = make_game(db.session, ["Ann", "Bob", "Cat"]).id
            client = app.test_client()
            times = []
            for _ in range(2):
                started = time.perf_counter()
                with client.get(f"/games/{game_id}") as response:
                    assert response.status_code == 200
                times.append(time.perf_counter() - started)
            conftest.close(app)
            return made, times[0], times[1]

        one_round(-1)  # imports and the process's first compiles, left out
        rounds = [one_round(index) for index in range(options.rounds)]

    def median_ms(column: int) -> float:
        return statistics.median(row[column] for row in rounds) * 1000

    made, first, again = median_ms(0), median_ms(1), median_ms(2)
    print_machine()
    workarounds = "without" if options.without_workarounds else "with"
    print(f"{workarounds} the suite's workarounds, median of {options.rounds} rounds:")
    print(f"  copy the template and make the app  {made:6.1f} ms")
    print(f"  first GET of a game page            {first:6.1f} ms")
    print(f"  the same GET again in that app      {again:6.1f} ms")
    print(f"  overhead of a new app per test      {made + first - again:6.1f} ms")


if __name__ == "__main__":
    main()
