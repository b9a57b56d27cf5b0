"""Migrations keep every row, and the models and the migrations describe the same schema."""

from __future__ import annotations

import ast
from datetime import datetime
from pathlib import Path

import flask_migrate
import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from factories import record

from scorer.cli import bring_database_up_to_date, main
from scorer.extensions import db
from scorer.services import games

# The migrations run on the database itself, step by step, outside any test transaction.
pytestmark = pytest.mark.fresh_database

VERSIONS = Path(__file__).parents[2] / "scorer" / "migrations" / "versions"

FIRST = "0001"

# The tables as migration 0001 made them, so the rows below are what that version could store.
players = sa.table(
    "players",
    sa.column("id", sa.Integer),
    sa.column("name", sa.String),
    sa.column("name_key", sa.String),
    sa.column("created_at", sa.DateTime),
)
games_table = sa.table(
    "games",
    *(sa.column(name, sa.Integer) for name in ("id", "target", "first_dealer", "deck_copies")),
    *(
        sa.column(name, sa.Integer)
        for name in ("blanks", "blank_value", "version", "rematch_of_id")
    ),
    sa.column("mode", sa.String),
    *(sa.column(name, sa.DateTime) for name in ("created_at", "updated_at", "finished_at")),
)
seats = sa.table(
    "seats", *(sa.column(name, sa.Integer) for name in ("id", "game_id", "player_id", "position"))
)
hands = sa.table(
    "hands",
    *(sa.column(name, sa.Integer) for name in ("id", "game_id", "number", "went_out")),
    sa.column("last_card", sa.String),
    sa.column("created_at", sa.DateTime),
    sa.column("updated_at", sa.DateTime),
)
hand_counts = sa.table(
    "hand_counts",
    *(sa.column(name, sa.Integer) for name in ("id", "hand_id", "position", "points")),
    sa.column("cards", sa.String),
)
TABLES = (players, games_table, seats, hands, hand_counts)


def insert(connection: sa.Connection, table: sa.TableClause, **values) -> int:
    """Insert one row, its id given by the database (so its sequences stay right), and return it."""
    return connection.execute(sa.insert(table).values(**values).returning(table.c.id)).scalar_one()


def fill_first_version(connection: sa.Connection) -> None:
    """A finished 2-player game and its rematch with one hand, as version 0001 stores them."""
    at = datetime(2026, 3, 14, 15, 9, 26, 535897)
    ids = [
        insert(connection, players, name=name, name_key=name.casefold(), created_at=at)
        for name in ("Ann", "Bjørn", "Zoë")
    ]
    settings = dict(mode="standard", target=100, deck_copies=1, blanks=4, blank_value=50)
    first = insert(
        connection,
        games_table,
        **settings,
        first_dealer=0,
        version=2,
        created_at=at,
        updated_at=at,
        finished_at=at,
        rematch_of_id=None,
    )
    second = insert(
        connection,
        games_table,
        **settings,
        first_dealer=1,
        version=1,
        created_at=at,
        updated_at=at,
        finished_at=None,
        rematch_of_id=first,
    )
    for game in (first, second):
        for position, player in enumerate(ids[:2]):
            insert(connection, seats, game_id=game, player_id=player, position=position)
    # Game 1: Ann 80 (cards), then 40 more (typed) after a Draw Two: 120, past the target of 100.
    for number, last_card, count in ((1, None, "wild draw2 9 1"), (2, "draw2", 40)):
        hand = insert(
            connection,
            hands,
            game_id=first,
            number=number,
            went_out=0,
            last_card=last_card,
            created_at=at,
            updated_at=at,
        )
        cards, points = (count, None) if isinstance(count, str) else (None, count)
        insert(connection, hand_counts, hand_id=hand, position=1, cards=cards, points=points)
    hand = insert(
        connection,
        hands,
        game_id=second,
        number=1,
        went_out=1,
        last_card="wild4",
        created_at=at,
        updated_at=at,
    )
    insert(connection, hand_counts, hand_id=hand, position=0, cards="skip reverse", points=None)


def everything(connection: sa.Connection) -> dict[str, list[tuple]]:
    return {
        table.name: [tuple(row) for row in connection.execute(sa.select(table).order_by("id"))]
        for table in TABLES
    }


def test_upgrading_from_the_first_migration_keeps_every_row_and_rates_finished_games(app):
    with app.app_context():
        flask_migrate.downgrade(revision="base")
        flask_migrate.upgrade(revision=FIRST)
        with db.engine.begin() as connection:
            fill_first_version(connection)
            before = everything(connection)
        assert [len(rows) for rows in before.values()] == [3, 2, 4, 3, 3]

        bring_database_up_to_date()  # what `scorer serve` does on start

        with db.engine.connect() as connection:
            assert everything(connection) == before
            assert connection.execute(sa.text("SELECT count(*) FROM teams")).scalar() == 0
            query = "SELECT game_id, player_id, seq, place, score FROM game_results ORDER BY id"
            results = connection.execute(sa.text(query)).all()
            clock = connection.execute(sa.text("SELECT last_seq FROM rating_clock")).all()
            totals = connection.execute(
                sa.text("SELECT period, player_id, games, wins, points FROM period_totals")
            ).all()
        # Only the finished game is rated: Ann won with 120, Bjørn has nothing.
        assert [tuple(row) for row in results] == [(1, 1, 1, 1, 120), (1, 2, 1, 2, 0)]
        # Their totals for all time, 2026 and March 2026 come with the results.
        assert sorted(tuple(row) for row in totals) == [
            (period, player, 1, int(player == 1), 120 if player == 1 else 0)
            for period in (0, 202600, 202603)
            for player in (1, 2)
        ]
        assert clock == [(1,)]
        finished, playing = games.load_game(db.session, 1), games.load_game(db.session, 2)
        assert finished.names == ("Ann", "Bjørn") and finished.winner.seats == (0,)
        assert [side.score for side in finished.state.sides] == [120, 0]
        assert finished.game.hands[1].last_card == "draw2"
        assert [side.score for side in playing.state.sides] == [0, 40]
        # The upgraded database takes new rows: its id sequences follow the rows it holds.
        assert record(db.session, 2, 0, {1: 5}).state.sides[0].score == 5
        assert games.create_game(db.session, "standard", ["Zoë", "Ann"]).id == 3
        db.session.remove()


def test_migrating_alone_leaves_results_to_scorer_rebuild_results(app):
    """The migrations keep no copy of the rules: the results of older games come afterwards."""
    with app.app_context():
        flask_migrate.downgrade(revision="base")
        flask_migrate.upgrade(revision=FIRST)
        with db.engine.begin() as connection:
            fill_first_version(connection)
        flask_migrate.upgrade()
        count = "SELECT count(*) FROM game_results"
        with db.engine.connect() as connection:
            assert connection.execute(sa.text(count)).scalar() == 0
        db.session.remove()
    rebuilt = app.test_cli_runner().invoke(main, ["rebuild-results"])
    assert rebuilt.exit_code == 0, rebuilt.output
    assert rebuilt.stdout == "Rated 1 finished games.\n"
    with app.app_context(), db.engine.connect() as connection:
        assert connection.execute(sa.text(count)).scalar() == 2


def test_the_upgrade_path_leaves_stored_results_alone(app, count_queries):
    with app.app_context():
        game = games.create_game(db.session, "standard", ["Ann", "Bob"], target=100)
        assert record(db.session, game.id, 0, {1: 100}).state.finished
        db.session.remove()
        with count_queries() as statements:
            bring_database_up_to_date()
        db.session.remove()
    writes = [s for s in statements if s.lstrip().upper().startswith(("DELETE", "INSERT"))]
    assert writes == []


def imported_modules(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.add("." * node.level + (node.module or ""))
    return found


def test_no_migration_imports_from_scorer():
    """A migration must do tomorrow what it did today, whatever the app's code becomes."""
    migrations = sorted(VERSIONS.glob("*.py"))
    assert len(migrations) >= 4
    imports = {path.name: imported_modules(path) for path in migrations}
    assert {
        name: sorted(module for module in modules if module.split(".")[0] in ("scorer", ""))
        for name, modules in imports.items()
    } == {name: [] for name in imports}


def schema_differences() -> list:
    """What `flask db migrate` would write: nothing, when models and migrations agree."""
    with db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        return compare_metadata(context, db.metadata)


def test_the_models_and_the_migrations_agree(app):
    with app.app_context():
        assert schema_differences() == []
        # `flask db check` says the same (it exits with an error when a migration is missing).
        flask_migrate.check()


def test_a_model_change_without_a_migration_is_noticed(app, monkeypatch):
    with app.app_context():
        changed = sa.MetaData(naming_convention=db.metadata.naming_convention)
        for table in db.metadata.sorted_tables:
            table.to_metadata(changed)
        changed.tables["hands"].append_column(sa.Column("note", sa.String(100)))
        monkeypatch.setitem(db.metadatas, None, changed)
        assert [difference[0] for difference in schema_differences()] == ["add_column"]
        with pytest.raises(SystemExit):
            flask_migrate.check()
