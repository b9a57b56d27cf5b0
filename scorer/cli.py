"""The `scorer` command: `scorer serve` runs the app; `scorer export` and `scorer import` back it up
and restore it; the Flask commands (db, routes, shell) come too."""

from __future__ import annotations

import os
import socket

import click
import psutil
from flask import current_app
from flask.cli import FlaskGroup, with_appcontext

from . import create_app


@click.group(cls=FlaskGroup, create_app=create_app, add_version_option=False)
def main() -> None:
    """UNO score keeper."""


@main.command()
@click.option("--host", default="0.0.0.0", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    default=lambda: int(os.environ.get("PORT", "8000")),
    type=int,
    help="Port to listen on (PORT, default 8000).",
)
@click.option(
    "--processes",
    default=1,
    show_default=True,
    type=click.IntRange(min=1),
    help="Server processes. One is waitress; more are gunicorn workers (Linux and macOS only).",
)
@click.option("--threads", default=8, show_default=True, help="Worker threads in each process.")
@click.option(
    "--connection-limit",
    default=1000,
    show_default=True,
    help="Open connections accepted at once; each phone keeps one or more open between polls.",
)
@click.option(
    "--channel-timeout",
    default=30,
    show_default=True,
    help="Seconds before an idle connection is closed, freeing its place.",
)
@with_appcontext
def serve(
    host: str,
    port: int,
    processes: int,
    threads: int,
    connection_limit: int,
    channel_timeout: int,
) -> None:
    """Bring the database up to date and serve the app with a production WSGI server."""
    from flask_migrate import upgrade
    from waitress import serve as waitress_serve

    app = current_app._get_current_object()  # type: ignore[attr-defined]
    if processes > 1 and os.name != "posix":
        raise click.UsageError("More than one process needs Linux or macOS; use --processes 1.")
    upgrade()
    click.echo(f"Database: {app.config['SQLALCHEMY_DATABASE_URI'].split('@')[-1]}")
    click.echo(f"Instance folder: {app.instance_path}")
    for address in phone_addresses(host, port):
        click.echo(f"Open this on a phone on the same network: {address}")
    if processes > 1:
        from .server import serve_processes

        serve_processes(app, host, port, processes, threads, connection_limit, channel_timeout)
        return
    # waitress's own defaults (100 connections, 120 s idle) turn phones away at about 100.
    waitress_serve(
        app,
        host=host,
        port=port,
        threads=threads,
        connection_limit=connection_limit,
        channel_timeout=channel_timeout,
    )


@main.command("export")
@click.argument("file", type=click.File("w", encoding="utf-8", atomic=True))
@with_appcontext
def export_command(file) -> None:
    """Write every player, game, hand and league to FILE as JSON ("-" for standard output)."""
    from .extensions import db
    from .services import backup

    data = backup.export_all(db.session)
    file.write(backup.dumps(data))
    click.echo(f"Exported {backup.describe(backup.tally(data))}.", err=True)


@main.command("import")
@click.argument("file", type=click.File("rb"))
@with_appcontext
def import_command(file) -> None:
    """Restore a backup made by `scorer export` into an empty database."""
    from flask_migrate import upgrade

    from .extensions import db
    from .services import backup

    try:
        # The owner page's reader: the same refusals, one line each, never a traceback.
        data = backup.loads(file.read())
    except backup.BackupError as error:
        raise click.ClickException(f"{file.name}: {error.message}") from error
    upgrade()
    try:
        restored = backup.import_all(db.session, data)
    except backup.BackupError as error:
        raise click.ClickException(f"Nothing was restored. {error.message}") from error
    click.echo(f"Restored {backup.describe(restored)}.")


def phone_addresses(host: str, port: int) -> list[str]:
    """Addresses a phone on the same network can open: this machine's own, not loopback."""
    if host not in ("0.0.0.0", "::"):
        return [f"http://{host}:{port}/"]
    found = sorted(
        address.address
        for addresses in psutil.net_if_addrs().values()
        for address in addresses
        if address.family == socket.AF_INET and not address.address.startswith("127.")
    )
    return [f"http://{address}:{port}/" for address in found] or [f"http://localhost:{port}/"]


@main.group()
def users() -> None:
    """Owner accounts: once one exists, only signed-in users can change scores."""


@users.command("add")
@click.argument("name")
@click.password_option(help="Prompted for when not given.")
@with_appcontext
def add_user_command(name: str, password: str) -> None:
    """Create an account (the first one turns on owner mode)."""
    from .access import add_user
    from .extensions import db

    try:
        user = add_user(db.session, name, password)
    except ValueError as error:
        raise click.ClickException(str(error)) from error
    click.echo(f"Added {user.name}. Changing scores now needs a signed-in user.")


@users.command("token")
@click.argument("name")
@click.option("--label", default="", help="What the token is for, e.g. 'league bot'.")
@with_appcontext
def token_command(name: str, label: str) -> None:
    """Print a new API token for NAME (shown once; keep it secret)."""
    from sqlalchemy import select

    from .access import issue_token
    from .extensions import db
    from .models import User

    user = db.session.scalar(select(User).where(User.name == name))
    if user is None:
        raise click.ClickException(f"There is no user called {name}.")
    click.echo(issue_token(db.session, user, label))


@users.command("list")
@with_appcontext
def list_users_command() -> None:
    """List the accounts."""
    from sqlalchemy import select

    from .extensions import db
    from .models import User

    for user in db.session.scalars(select(User).order_by(User.name)):
        click.echo(user.name)
