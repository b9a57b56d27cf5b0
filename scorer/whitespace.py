"""Pages and fragments sent without their templates' indentation and blank lines.

A line break between two elements renders as a space however many spaces follow it, and no page
has a <pre>, a <textarea> or CSS that keeps white space (tests/views/test_whitespace.py checks), so
dropping them changes nothing on screen: about 250 bytes of a compressed game page, the largest
response of a first visit (40 KB budget, BENCHMARKS.md), and of every fragment htmx swaps in.
"""

from __future__ import annotations

import re

from flask import Flask, Response

# A line break with the spaces, tabs and empty lines after it.
INDENTED_BREAK = re.compile(rb"\n\s+")


def init_app(app: Flask) -> None:
    """Call after assets.init_app: hooks run last registered first, so this runs before the
    compression."""
    app.after_request(_trim)


def _trim(response: Response) -> Response:
    if response.mimetype != "text/html" or response.direct_passthrough or response.is_streamed:
        return response
    if response.headers.get("Content-Encoding"):
        return response
    response.set_data(trimmed(response.get_data()))
    return response


def trimmed(html: bytes) -> bytes:
    return INDENTED_BREAK.sub(b"\n", html)
