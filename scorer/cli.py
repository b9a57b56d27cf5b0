"""The `scorer` command: `scorer serve` runs the app; the Flask commands (db, routes, shell) come too."""

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
@click.option("--port", default=lambda: int(os.environ.get("PORT", "8000")), type=int,
              help="Port to listen on (PORT, default 8000).")
@click.option("--threads", default=8, show_default=True, help="Worker threads.")
@with_appcontext
def serve(host: str, port: int, threads: int) -> None:
    """Bring the database up to date and serve the app with a production WSGI server."""
    from flask_migrate import upgrade
    from waitress import serve as waitress_serve

    app = current_app._get_current_object()  # type: ignore[attr-defined]
    upgrade()
    click.echo(f"Database: {app.config['SQLALCHEMY_DATABASE_URI'].split('@')[-1]}")
    click.echo(f"Instance folder: {app.instance_path}")
    for address in phone_addresses(host, port):
        click.echo(f"Open this on a phone on the same network: {address}")
    waitress_serve(app, host=host, port=port, threads=threads)


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
