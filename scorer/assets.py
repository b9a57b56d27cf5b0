"""Static files: versioned URLs cached for a year, and compressed responses everywhere.

Every page links a static file through `static_url`, which adds `?v=` and the first characters of
the file's SHA-256. A request carrying the current version is cached for a year; any other request
for the same file (an old version, or none) must be revalidated, so a changed file is never served
stale from a cache. Flask-Compress compresses pages, htmx fragments, JSON and static files (zstd,
Brotli or gzip, as the browser accepts) and adds `Vary: Accept-Encoding`.

WhiteNoise was the other candidate: it only serves compressed files that a build step wrote next to
the sources (and serves a stale one without noticing), and its cache lifetime is per file, not per
URL, so it cannot tell a versioned request from a plain one.
"""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache

from flask import Flask, Response, current_app, request, url_for

from .extensions import compress

ONE_YEAR = 365 * 24 * 60 * 60
VERSION_LENGTH = 12


def init_app(app: Flask) -> None:
    app.config.setdefault("COMPRESS_MIN_SIZE", 256)
    # Brotli first: at level 5 it beats zstd and gzip on htmx by a kilobyte, in about 2 ms.
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "zstd", "gzip", "deflate"])
    app.config.setdefault("COMPRESS_BR_LEVEL", 5)
    compress.init_app(app)
    app.add_template_global(static_url)
    app.after_request(_cache_static)


def static_url(filename: str) -> str:
    """The URL of a file in static/, with its content version: `/static/css/app.css?v=1a2b…`."""
    return url_for("static", filename=filename, v=static_version(filename))


def static_version(filename: str) -> str | None:
    """The first characters of the file's SHA-256, or None if static/ has no such file."""
    folder = current_app.static_folder
    if folder is None:
        return None
    path = os.path.realpath(os.path.join(folder, filename))
    if not path.startswith(os.path.realpath(folder) + os.sep):
        return None
    try:
        stat = os.stat(path)
    except OSError:
        return None
    # Keyed by modification time and size as well, so an edited file gets a new version at once.
    return _digest(path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=256)
def _digest(path: str, _mtime_ns: int, _size: int) -> str:
    with open(path, "rb") as file:
        return hashlib.file_digest(file, "sha256").hexdigest()[:VERSION_LENGTH]


def _cache_static(response: Response) -> Response:
    if request.endpoint != "static" or response.status_code not in (200, 304):
        return response
    if response.status_code == 200 and response.direct_passthrough:
        # Read the (small) file now and close it when the response closes: Flask-Compress then
        # compresses a plain body, where it would stream the file and leave it open.
        response.direct_passthrough = False
        response.get_data()
    filename = (request.view_args or {}).get("filename", "")
    version = request.args.get("v")
    if version and version == static_version(filename):
        response.cache_control.no_cache = None
        response.cache_control.public = True
        response.cache_control.max_age = ONE_YEAR
        response.cache_control.immutable = True
    else:
        response.cache_control.max_age = None
        response.cache_control.no_cache = True
        response.expires = None
    return response
