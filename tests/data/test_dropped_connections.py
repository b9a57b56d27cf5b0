"""PostgreSQL ending the app's connections (a restart, a failover, an administrator) costs no
request: each pooled connection is checked before use and replaced when it was ended."""

from __future__ import annotations

import uuid

import pytest
import sqlalchemy as sa
from conftest import TEST_DATABASE_URL, close, make_app
from factories import hand_form, make_game

from scorer import with_driver
from scorer.extensions import db

ROUNDS = 12


def end_backends(name: str) -> int:
    """End every connection the app opened (by its application name); how many there were."""
    assert TEST_DATABASE_URL
    admin = sa.create_engine(
        with_driver(TEST_DATABASE_URL), isolation_level="AUTOCOMMIT", poolclass=sa.NullPool
    )
    with admin.connect() as connection:
        ended = connection.execute(
            sa.text(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE application_name = :name"
            ),
            {"name": name},
        ).scalar_one()
    admin.dispose()
    return ended


def test_ending_the_apps_connections_between_requests_gives_no_5xx(backend, databases, tmp_path):
    if backend != "postgresql":
        pytest.skip("a SQLite file has no connection a server could end")
    name = f"scorer-test-{uuid.uuid4().hex[:12]}"
    app = make_app(
        databases.fresh(backend, tmp_path),
        migrate=False,
        SQLALCHEMY_ENGINE_OPTIONS={"pool_size": 4, "connect_args": {"application_name": name}},
    )
    try:
        with app.app_context():
            game = make_game(db.session, 2, target=10_000)
            game_id, key = game.id, game.sync_key
            db.session.remove()
        client = app.test_client()
        statuses = []
        ended = 0
        for number in range(1, ROUNDS + 1):
            ended += end_backends(name)
            live = client.get(f"/games/{game_id}/live", headers={"HX-Request": "true"})
            ended += end_backends(name)
            data = hand_form(0, {1: 10}, number) | {"game_key": key or ""}
            sent = client.post(f"/games/{game_id}/hands/{number}/sync", data=data)
            statuses += [live.status_code, sent.status_code]
            assert sent.json["status"] == "stored"
        assert ended >= ROUNDS  # connections were there to end, every round
        assert [status for status in statuses if status >= 500] == []
    finally:
        close(app)
