"""Answering htmx and plain browsers from the same views."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Response, make_response, redirect, render_template, request

# Re-exported: the views answer htmx through this module.
from ..fragments import wants_fragment
from ..languages import DEFAULT_LANGUAGE, html_lang


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


def poll_answer(
    page: str, current_tag: Callable[[], str], fragment: Callable[[str], tuple[str, str]]
) -> Response:
    """The answer to a page's poll (htmx sends If-None-Match with the tag of what the page shows):
    304 while `current_tag()` is still that tag, else the fragment that brings the page up to
    date, which `fragment(tag)` gives with the tag it shows. Both tags are in the request's
    language (`in_language`, which the page's own If-None-Match follows too). A browser that asks
    is sent to `page`, and nothing is read for it."""
    if not wants_fragment():
        response = make_response(redirect(page, 303))
    else:
        tag = current_tag()
        if request.if_none_match.contains_weak(in_language(tag)):
            response = make_response("", 304)
        else:
            body, tag = fragment(tag)
            response = make_response(body)
        response.set_etag(in_language(tag), weak=True)
        # Ask every time: a page must never be shown an old game or board from a cache.
        response.cache_control.no_cache = True
    response.vary.add("HX-Request")
    return response


def in_language(tag: str) -> str:
    """A page's tag, told apart by the language it is written in: a page that switched language
    is never told that what it shows in the old one is current. English, the language the app is
    written in, keeps the bare tag: pages opened before there were languages stay current."""
    language = html_lang()
    return tag if language == DEFAULT_LANGUAGE else f"{tag}.{language}"
