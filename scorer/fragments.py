"""Whether a request asks for part of a page: read by the views and by the write guard alike."""

from __future__ import annotations

from flask import request


def wants_fragment() -> bool:
    """Whether htmx asked for part of a page (not a boosted link or a history restore)."""
    headers = request.headers
    return (
        headers.get("HX-Request") == "true"
        and headers.get("HX-Boosted") != "true"
        and headers.get("HX-History-Restore-Request") != "true"
    )
