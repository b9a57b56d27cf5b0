"""`scorer import` of a big backup: memory that does not grow with the file, and a progress line
on a terminal only."""

from __future__ import annotations

import io
import json
import tracemalloc
from pathlib import Path

import pytest
from conftest import close, make_app

from scorer import cli
from scorer.cli import main
from scorer.services import backup, results

CREATED = "2024-05-01T10:00:00+00:00"


def write_backup(path: Path, games: int) -> None:
    """A backup of `games` finished two-player games of two hands each, written as an export
    writes it."""
    players = [
        {"id": i, "name": f"Player {i}", "created_at": CREATED, "archived_at": None}
        for i in range(1, games + 2)
    ]
    entries = []
    for number in range(1, games + 1):
        hand = {"last_card": None, "created_at": CREATED, "updated_at": CREATED}
        entries.append(
            {
                "id": number,
                "mode": "standard",
                "target": 100,
                "first_dealer": 0,
                "created_at": CREATED,
                "updated_at": CREATED,
                "finished_at": CREATED,
                "version": 2,
                "rematch_of": None,
                "seats": [number, number + 1],
                "teams": [],
                "hands": [
                    hand
                    | {
                        "number": 1,
                        "went_out": 1,
                        "counts": [{"seat": 0, "cards": None, "points": 5}],
                    },
                    hand
                    | {
                        "number": 2,
                        "went_out": 0,
                        "counts": [{"seat": 1, "cards": None, "points": 150}],
                    },
                ],
            }
        )
    data = {"format": "uno-scorer", "version": 1, "exported_at": CREATED}
    path.write_text(
        json.dumps(data | {"players": players, "games": entries, "leagues": []}, indent=1),
        encoding="utf-8",
    )


def peak_of_import(databases, tmp_path: Path, name: str, games: int) -> int:
    """The most memory Python held at once while `scorer import` restored `games` games."""
    folder = tmp_path / name
    folder.mkdir()
    path = folder / "backup.json"
    write_backup(path, games)
    app = make_app(databases.fresh("sqlite", folder), migrate=False)
    try:
        tracemalloc.start()
        restored = app.test_cli_runner().invoke(main, ["import", str(path)])
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    finally:
        close(app)
    assert restored.exit_code == 0, restored.output
    assert f"{games} games and {2 * games} hands" in restored.stdout
    return peak


def test_the_memory_an_import_takes_does_not_grow_with_the_file(databases, tmp_path, monkeypatch):
    # Small batches, so a few hundred games span many of them, as a club's 100,000 would.
    monkeypatch.setattr(backup, "BATCH", 20)
    monkeypatch.setattr(results, "RATE_BATCH", 50)
    peak_of_import(databases, tmp_path, "warm", 50)  # statements compiled, modules loaded
    small = peak_of_import(databases, tmp_path, "small", 200)
    big = peak_of_import(databases, tmp_path, "big", 800)
    # Four times the file; what grows is the ids kept to check references (a few dozen bytes
    # a game), not the entries: 1.3 MB and 1.6 MB. Reading the whole file first took 9 MB and 36 MB.
    assert big < small * 1.5, (small, big)


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_sees_the_counts_on_one_line_rewritten_in_place(session, tmp_path, monkeypatch):
    monkeypatch.setattr(cli.ProgressLine, "EVERY", 0)
    monkeypatch.setattr(backup, "BATCH", 2)
    path = tmp_path / "backup.json"
    write_backup(path, 5)
    terminal = Terminal()
    line = cli.ProgressLine(terminal)
    with path.open("rb") as file:
        restored = backup.import_all(session, backup.open_file(file), line.show)
    line.end()
    assert restored == {"players": 6, "games": 5, "hands": 10, "leagues": 0}
    shown = terminal.getvalue()
    assert "\n" not in shown
    updates = shown.split("\r\x1b[K")
    assert "players 6 · games 0 · hands 0 · leagues 0 · reading players" in updates[1]
    assert "players 6 · games 4 · hands 8 · leagues 0 · reading games" in shown
    assert "players 6 · games 5 · hands 10 · leagues 0 · rating games" in shown
    assert updates[-1] == ""  # the line is cleared for what the command says next


@pytest.mark.fresh_database
def test_a_pipe_or_a_log_sees_no_progress_line(app, tmp_path):
    path = tmp_path / "backup.json"
    write_backup(path, 5)
    restored = app.test_cli_runner().invoke(main, ["import", str(path)])
    assert restored.exit_code == 0, restored.output
    assert "Restored 6 players, 5 games and 10 hands." in restored.stdout
    assert "\r" not in restored.output
    assert "players 6" not in restored.stderr
