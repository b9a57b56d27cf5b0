"""Behind a reverse proxy: whose X-Forwarded-* headers to believe, and which Host names to answer.

The app decides this itself, the same way under waitress and gunicorn, so a site does not change
with `scorer serve --processes` (scorer/cli.py tells both servers to leave the headers alone).

TRUSTED_PROXY_HOPS is how many proxies stand in front of the app. With 1 or more, Werkzeug's
ProxyFix takes the client's address, the scheme (https) and the public host from that many
proxies' X-Forwarded-For, -Proto and -Host. With 0 nobody is believed, and the headers are
dropped, so a client cannot make itself look like someone else or like HTTPS.

TRUSTED_HOSTS is Flask's own: a request for any other Host gets a plain 400.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from flask import Flask, Response, request
from werkzeug.exceptions import SecurityError
from werkzeug.middleware.proxy_fix import ProxyFix

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

FORWARDED_HEADERS = (
    "HTTP_FORWARDED",
    "HTTP_X_FORWARDED_FOR",
    "HTTP_X_FORWARDED_PROTO",
    "HTTP_X_FORWARDED_HOST",
    "HTTP_X_FORWARDED_PORT",
    "HTTP_X_FORWARDED_PREFIX",
)
UNTRUSTED_HOST = "This server does not answer to that host name."


def init_app(app: Flask) -> None:
    """Call before the other extensions, so the host is checked before any of their hooks runs."""
    hops = app.config["TRUSTED_PROXY_HOPS"] = int(app.config.get("TRUSTED_PROXY_HOPS") or 0)
    if hops < 0:
        raise ValueError(f"TRUSTED_PROXY_HOPS must be 0 or more, not {hops}.")
    if hops:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops
        )
    else:
        app.wsgi_app = _WithoutForwardedHeaders(app.wsgi_app)  # type: ignore[method-assign]
    app.before_request(_refuse_untrusted_host)


def trusted_hosts(value: str | Iterable[str] | None) -> list[str] | None:
    """TRUSTED_HOSTS from the environment's comma-separated list, or as config.py gives it."""
    if value is None:
        return None
    names = value.split(",") if isinstance(value, str) else list(value)
    return [name.strip() for name in names if name.strip()] or None


class _WithoutForwardedHeaders:
    """Drops X-Forwarded-* and Forwarded, as no proxy's word is to be taken."""

    def __init__(self, wsgi_app: WSGIApplication) -> None:
        self.wsgi_app = wsgi_app

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        for name in FORWARDED_HEADERS:
            environ.pop(name, None)
        return self.wsgi_app(environ, start_response)


def _refuse_untrusted_host() -> Response | None:
    # Flask stores the Host check's failure as the routing error and raises it only after the
    # before_request hooks, some of which build URLs for this very host, as would the error page:
    # so answer here, and in plain text.
    if isinstance(request.routing_exception, SecurityError):
        return Response(UNTRUSTED_HOST + "\n", 400, mimetype="text/plain")
    return None
