"""Database connection settings that every engine of the app needs."""

import sqlite3

from flask import Flask
from sqlalchemy import event
from sqlalchemy.engine import Engine


def init_app(app: Flask) -> None:
    if not event.contains(Engine, "connect", _tune_sqlite):
        event.listen(Engine, "connect", _tune_sqlite)


def _tune_sqlite(dbapi_connection: object, _record: object) -> None:
    if not isinstance(dbapi_connection, sqlite3.Connection):
        return
    cursor = dbapi_connection.cursor()
    # WAL lets phones read the scoreboard while another phone saves a hand; foreign keys are off in
    # SQLite unless asked for; the busy timeout makes a second writer wait instead of failing.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()
