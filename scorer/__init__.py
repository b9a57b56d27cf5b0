"""UNO score keeper: the application factory."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy.engine import make_url

from . import proxy

PACKAGE = Path(__file__).resolve().parent


def shipped(folder: str) -> Path:
    """A folder of files the app reads as it runs (`templates`, `static`).

    The repository keeps them at its top level, where they are edited, and a checkout or an
    editable install reads them there; a wheel carries them inside the package (pyproject.toml
    maps them at build time).
    """
    inside = PACKAGE / folder
    return inside if inside.is_dir() else PACKAGE.parent / folder


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app; settings from test_config, else instance/config.py and the environment."""
    instance_path = os.environ.get("SCORER_INSTANCE_PATH")
    app = Flask(
        __name__,
        instance_relative_config=True,
        # Flask's own default without it: instance/ next to the package in a checkout, and
        # <virtualenv>/var/scorer-instance when installed from a wheel, never site-packages.
        instance_path=os.path.abspath(instance_path) if instance_path else None,
        template_folder=shipped("templates"),
        static_folder=shipped("static"),
    )
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI="sqlite:///" + os.path.join(app.instance_path, "scorer.sqlite"),
        # A connection for each of `scorer serve`'s 8 threads and a few more: the default pool of 5
        # made busy threads open and close PostgreSQL connections over and over, and a new
        # connection's first queries are slow.
        SQLALCHEMY_ENGINE_OPTIONS={"pool_size": 10, "max_overflow": 10},
        MAX_CONTENT_LENGTH=64 * 1024,
        SESSION_COOKIE_SAMESITE="Lax",
        WTF_CSRF_TIME_LIMIT=None,
        # How often an open game page asks whether another phone changed the game.
        LIVE_POLL_SECONDS=3,
        # How often a league night's board reloads itself where it runs no script.
        BOARD_REFRESH_SECONDS=30,
        # How many of the latest hands the game page lists; the rest are on the game's hands page.
        RECENT_HANDS=10,
        # How many reverse proxies stand in front of the app, whose X-Forwarded-* headers to
        # believe (scorer/proxy.py); 0 believes none.
        TRUSTED_PROXY_HOPS=0,
        # Werkzeug's method for password hashes: scrypt, slow to guess, with a salt per password.
        # The tests choose a cheap one, as they would otherwise spend a tenth of their time on it.
        PASSWORD_HASH_METHOD="scrypt",
    )
    if test_config is None:
        Path(app.instance_path).mkdir(parents=True, exist_ok=True)
        app.config.from_pyfile("config.py", silent=True)
        if os.environ.get("DATABASE_URL"):
            app.config["SQLALCHEMY_DATABASE_URI"] = os.environ["DATABASE_URL"]
        for name in ("TRUSTED_PROXY_HOPS", "TRUSTED_HOSTS"):
            if os.environ.get(name):
                app.config[name] = os.environ[name]
        if not app.config.get("SECRET_KEY"):
            app.config["SECRET_KEY"] = instance_secret_key(Path(app.instance_path))
    else:
        app.config.from_mapping(test_config)
    app.config["SQLALCHEMY_DATABASE_URI"] = with_driver(app.config["SQLALCHEMY_DATABASE_URI"])
    if make_url(app.config["SQLALCHEMY_DATABASE_URI"]).get_backend_name() != "sqlite":
        # A database server ends connections (a restart, a failover, an idle timeout, an
        # administrator): each pooled one is checked before a request gets it, and replaced if it
        # was ended, instead of failing the request. A SQLite file has no connection to lose.
        options = app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {}
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {"pool_pre_ping": True, **options}
    app.config["TRUSTED_HOSTS"] = proxy.trusted_hosts(app.config.get("TRUSTED_HOSTS"))
    keep_sqlite_file_private(app.config["SQLALCHEMY_DATABASE_URI"])
    proxy.init_app(app)

    from . import access, assets, database, languages, rate_limits, routing, security, whitespace
    from .api import routes as api
    from .extensions import csrf, db, migrate
    from .views import (
        auth,
        backup,
        charts,
        errors,
        games,
        hands,
        home,
        leagues,
        nights,
        players,
        pwa,
        rules,
        standings,
        sync,
        table_view,
    )
    from .views import (
        languages as language_switch,
    )

    routing.init_app(app)
    db.init_app(app)
    migrate.init_app(app, db)
    csrf.init_app(app)
    database.init_app(app)
    security.init_app(app)
    rate_limits.init_app(app)
    access.init_app(app)
    languages.init_app(app)
    assets.init_app(app)
    whitespace.init_app(app)
    blueprints = (
        errors.bp,
        auth.bp,
        home.bp,
        games.bp,
        hands.bp,
        rules.bp,
        pwa.bp,
        api.bp,
        # Hands a phone kept while the server was out of reach.
        sync.bp,
        backup.bp,
        players.bp,
        standings.bp,
        leagues.bp,
        nights.bp,
        table_view.bp,
        charts.bp,
        language_switch.bp,
    )
    for blueprint in blueprints:
        app.register_blueprint(blueprint)
    return app


def instance_secret_key(instance: Path) -> str:
    """The secret key kept in the instance folder, made on first use so it is never in the repo."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


def keep_sqlite_file_private(url: str) -> None:
    """Make a SQLite database file readable by its owner alone: it holds the password hashes.

    SQLite gives its journal and write-ahead log the database file's permissions.
    """
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return
    path = Path(parsed.database)
    if not path.parent.is_dir() or os.name != "posix":
        return
    try:
        # An empty file is an empty SQLite database; creating it here is what sets its mode.
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        # Files made by earlier versions were 0644: tighten them, when they are ours to change.
        status = path.stat()
        if status.st_mode & 0o077 and status.st_uid == os.getuid():
            path.chmod(0o600)


def with_driver(url: str) -> str:
    """Point a plain postgresql:// URL (as hosting services give it) at the psycopg 3 driver."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url
