"""Answering htmx and plain browsers from the same views."""

from __future__ import annotations

from typing import Any

from flask import Response, make_response, redirect, render_template

# Re-exported: the views answer htmx through this module.
from ..fragments import wants_fragment


def render(page: str, fragment: str, status: int = 200, **context: Any) -> Response:
    """The fragment for htmx, else the whole page that includes it."""
    response = make_response(render_template(fragment if wants_fragment() else page, **context))
    response.status_code = status
    response.vary.add("HX-Request")
    return response


def see_other(url: str) -> Response:
    """Go to `url` after a change: a 303 for browsers, a client-side redirect for htmx."""
    if wants_fragment():
        response = make_response("", 200)
        response.headers["HX-Redirect"] = url
    else:
        # flask.redirect is typed as werkzeug's Response, though it makes the app's own class;
        # make_response hands that same object back, typed as what it is.
        response = make_response(redirect(url, 303))
    # The same post answers htmx and browsers differently, so caches must tell them apart.
    response.vary.add("HX-Request")
    return response
