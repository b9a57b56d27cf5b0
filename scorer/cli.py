"""The `scorer` command: `scorer serve` runs the app; `scorer export` and `scorer import` back it up
and restore it; `scorer rebuild-results` derives results again; the Flask commands (db, routes,
shell) come too."""

from __future__ import annotations

import errno
import logging
import os
import socket
import sys
from typing import TYPE_CHECKING

import click
import psutil
from flask import current_app
from flask.cli import FlaskGroup, with_appcontext

from . import create_app

if TYPE_CHECKING:
    from .models import User


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
    from waitress.server import create_server

    app = current_app._get_current_object()  # type: ignore[attr-defined]
    if processes > 1 and os.name != "posix":
        raise click.UsageError("More than one process needs Linux or macOS; use --processes 1.")
    bring_database_up_to_date()
    try:
        if processes > 1:
            ensure_port_free(host, port)
        else:
            # scorer/proxy.py decides which X-Forwarded-* headers to believe; waitress would drop
            # them all before the app sees them.
            # waitress's own defaults (100 connections, 120 s idle) turn phones away at about 100.
            server = create_server(
                app,
                host=host,
                port=port,
                threads=threads,
                connection_limit=connection_limit,
                channel_timeout=channel_timeout,
                clear_untrusted_proxy_headers=False,
            )
    except OSError as error:
        raise click.ClickException(cannot_listen(host, port, error)) from None
    click.echo(f"Database: {app.config['SQLALCHEMY_DATABASE_URI'].split('@')[-1]}")
    click.echo(f"Instance folder: {app.instance_path}")
    click.echo(f"Open this on this computer: {local_address(host, port)}")
    for address in phone_addresses(host, port):
        click.echo(f"Open this on a phone on the same network: {address}")
    click.echo("Press Ctrl+C to stop.")
    if processes > 1:
        from .server import serve_processes

        serve_processes(app, host, port, processes, threads, connection_limit, channel_timeout)
        return
    # As waitress.serve does, so that waitress's warnings (a full task queue) are shown.
    logging.basicConfig()
    server.run()


def ensure_port_free(host: str, port: int) -> None:
    """Raise OSError when (host, port) cannot be listened on, as the server would find later."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        # As servers bind: a port whose last connections are still closing is free.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((host, port))


def cannot_listen(host: str, port: int, error: OSError) -> str:
    """One line on why the server could not start, and what to do."""
    if error.errno == errno.EADDRINUSE:
        return (
            f"Port {port} is in use by another program (another `scorer serve`?). "
            f"Stop it, or pick another port: scorer serve --port {port + 1}"
        )
    return f"Cannot listen on {host}:{port}: {error.strerror or error}"


def local_address(host: str, port: int) -> str:
    """The address to open on the machine the server runs on."""
    if host in ("0.0.0.0", "::", "127.0.0.1", "localhost"):
        return f"http://localhost:{port}/"
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


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
    """Restore a backup made by `scorer export` into an empty database.

    The file is read an entry at a time and written in batches, in one transaction, so memory
    stays bounded however big it is. On a terminal, a line on standard error shows the progress.
    """
    from .extensions import db
    from .services import backup

    try:
        # The owner page's refusals, one line each, never a traceback.
        source = backup.open_file(file)
    except backup.BackupError as error:
        raise click.ClickException(f"{file.name}: {error.message}") from error
    bring_database_up_to_date()
    line = ProgressLine(sys.stderr)
    try:
        restored = backup.import_all(db.session, source, line.show)
    except backup.BackupError as error:
        line.end()
        if isinstance(error, backup.NotJson):
            raise click.ClickException(f"{file.name}: {error.message}") from error
        raise click.ClickException(f"Nothing was restored. {error.message}") from error
    line.end()
    click.echo(f"Restored {backup.describe(restored)}.")


class ProgressLine:
    """The counts of a restore so far, on one line of a terminal rewritten in place; nothing at
    all when standard error is not a terminal (a pipe, a log, a test)."""

    # A terminal is redrawn at most this often: a line per batch would cost more than it shows.
    EVERY = 0.2

    def __init__(self, stream) -> None:
        self.stream = stream
        self.shown = False
        self.last = 0.0
        try:
            self.live = stream.isatty()
        except (AttributeError, ValueError):
            self.live = False

    def show(self, counts: dict[str, int], section: str, share: float) -> None:
        import time

        now = time.monotonic()
        if not self.live or now - self.last < self.EVERY:
            return
        self.last = now
        self.stream.write("\r\x1b[K" + self.text(counts, section, share))
        self.stream.flush()
        self.shown = True

    @staticmethod
    def text(counts: dict[str, int], section: str, share: float) -> str:
        shown = " · ".join(f"{what} {counts[what]:,}" for what in counts)
        doing = "rating games" if section == "ratings" else f"reading {section} {share:.0%}"
        return f"{shown} · {doing}"

    def end(self) -> None:
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


@main.command("rebuild-results")
@with_appcontext
def rebuild_results_command() -> None:
    """Derive every finished game's results and every rating again from the hands."""
    from .extensions import db
    from .services import results

    click.echo(f"Rated {results.rebuild_all(db.session)} finished games.")


def bring_database_up_to_date() -> None:
    """Migrate, then derive the results that are missing: migrations change only the schema.

    A database older than the results tables (migration 0003) has finished games without results.
    """
    from flask_migrate import upgrade

    from .extensions import db
    from .services import results

    upgrade()
    if results_missing(db.session):
        click.echo(f"Rated {results.rebuild_all(db.session)} finished games.")


def results_missing(session) -> bool:
    """Whether some finished game has no stored results."""
    from sqlalchemy import exists, select

    from .models import Game, GameResult

    without = ~exists().where(GameResult.game_id == Game.id)
    found = session.scalar(select(Game.id).where(Game.finished_at.is_not(None), without).limit(1))
    # End the read: the server must not start with a transaction (on SQLite, a read lock) open.
    session.rollback()
    return found is not None


def phone_addresses(host: str, port: int) -> list[str]:
    """Addresses a phone on the same network can open: this machine's own, not loopback."""
    if host in ("localhost", "::1") or host.startswith("127."):
        return []
    if host not in ("0.0.0.0", "::"):
        return [local_address(host, port)]
    found = sorted(
        address.address
        for addresses in psutil.net_if_addrs().values()
        for address in addresses
        if address.family == socket.AF_INET and not address.address.startswith("127.")
    )
    return [f"http://{address}:{port}/" for address in found]


@main.group()
def users() -> None:
    """Owner accounts: once one exists, only signed-in users can change scores."""


@users.command("add")
@click.argument("name")
@click.password_option(help="Prompted for when not given.")
@with_appcontext
def add_user_command(name: str, password: str) -> None:
    """Create an account (the first one turns on owner mode)."""
    from .extensions import db
    from .services.accounts import add_user

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

    from .extensions import db
    from .models import User
    from .services.accounts import issue_token

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


@users.command("remove")
@click.argument("name")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@with_appcontext
def remove_user_command(name: str, yes: bool) -> None:
    """Delete the account NAME and its API tokens (scores stay)."""
    from sqlalchemy import func, select

    from .extensions import db
    from .models import User
    from .services.accounts import remove_user

    user = _user_called(name)
    others = db.session.scalar(select(func.count()).select_from(User).where(User.id != user.id))
    tokens = len(user.tokens)
    question = f"Remove {user.name} and their {tokens} API token{'' if tokens == 1 else 's'}?"
    if not others:
        question += " No account will be left: anyone who reaches the server could change scores."
    if not yes:
        click.confirm(question, abort=True)
    remove_user(db.session, user)
    click.echo(f"Removed {name}.")
    if not others:
        click.echo("No accounts are left: anyone who reaches the server can change scores again.")


@users.command("passwd")
@click.argument("name")
@click.password_option(help="Prompted for when not given.")
@with_appcontext
def passwd_command(name: str, password: str) -> None:
    """Give NAME a new password; every session they have signed in is ended."""
    from .extensions import db
    from .services.accounts import set_password

    user = _user_called(name)
    try:
        set_password(db.session, user, password)
    except ValueError as error:
        raise click.ClickException(str(error)) from error
    click.echo(f"Changed the password of {name}; they are signed out everywhere.")


def _user_called(name: str) -> User:
    """The account called NAME, or a usage error the command line shows."""
    from sqlalchemy import select

    from .extensions import db
    from .models import User

    user = db.session.scalar(select(User).where(User.name == " ".join(name.split())))
    if user is None:
        raise click.ClickException(f"There is no user called {name}.")
    return user


@main.group()
def tokens() -> None:
    """API tokens (made with `scorer users token NAME`)."""


@tokens.command("list")
@with_appcontext
def list_tokens_command() -> None:
    """Show each token's id, user, label and last use."""
    from sqlalchemy import select

    from .extensions import db
    from .models import ApiToken, User

    rows = db.session.execute(
        select(ApiToken.id, User.name, ApiToken.label, ApiToken.last_used_at)
        .join(User, User.id == ApiToken.user_id)
        .order_by(ApiToken.id)
    ).all()
    if not rows:
        click.echo("No API tokens.")
        return
    table = [("ID", "USER", "LABEL", "LAST USED (UTC)")]
    table += [
        (str(id_), user, label or "-", used.strftime("%Y-%m-%d %H:%M") if used else "never")
        for id_, user, label, used in rows
    ]
    widths = [max(len(row[column]) for row in table) for column in range(3)]
    for row in table:
        click.echo("  ".join([*(row[c].ljust(widths[c]) for c in range(3)), row[3]]))


@tokens.command("revoke")
@click.argument("token_id", metavar="ID", type=int)
@with_appcontext
def revoke_token_command(token_id: int) -> None:
    """Revoke the API token with this ID (see `scorer tokens list`); it stops working at once."""
    from .extensions import db
    from .services.accounts import revoke_token

    if not revoke_token(db.session, token_id):
        raise click.ClickException(f"There is no API token with id {token_id}.")
    click.echo(f"Revoked token {token_id}.")
