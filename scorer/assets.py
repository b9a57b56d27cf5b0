"""Static files: versioned URLs cached for a year, and compressed responses everywhere.

Every page links a static file through `static_url`, which adds `?v=` and the first characters of
the file's SHA-256. A request carrying the current version is cached for a year; any other request
for the same file (an old version, or none) must be revalidated, so a changed file is never served
stale from a cache. Flask-Compress compresses pages, htmx fragments and JSON (Brotli, zstd or gzip,
as the browser accepts) and adds `Vary: Accept-Encoding`.

A static file is sent as it is served many times over: our own scripts and stylesheets minified
(tdewolff/minify, which also shortens a script's local names; rcssmin), so the files in static/
keep their comments, and then compressed at the highest
Brotli and gzip levels, both worked out once per version of the file and kept in memory. Brotli 11
takes about 70 ms for htmx, too slow for every request but 1.2 KB smaller than the level pages get.
Both are kept for one budget, the first visit to a game within 40 KB (BENCHMARKS.md): without
minifying, the script and app.css come to about 4 KB more, which breaks it, and at the pages'
Brotli level to about 0.9 KB more.
The page's script is written as ES modules (static/js/src) and served as one file, joined by
scorer/bundles.py: `BUNDLES` maps the URL a page links to the entry module, and the joined script
is then minified, compressed and versioned (by the content of all its modules) like any file.

Minifying as the file is served, rather than committing a minified copy, means nothing can go
stale: the served bytes always follow the file. Ranges are not offered: the files are small.

WhiteNoise was the other candidate: it only serves compressed files that a build step wrote next to
the sources (and serves a stale one without noticing), and its cache lifetime is per file, not per
URL, so it cannot tell a versioned request from a plain one.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import brotli
import minify
import rcssmin
from flask import Flask, Response, current_app, request, url_for

from . import bundles
from .client_words import client_data
from .extensions import compress

ONE_YEAR = 365 * 24 * 60 * 60


def minify_script(source: bytes) -> bytes:
    """A script as small as it runs the same: no comments nor spaces, local names shortened."""
    return minify.string("application/javascript", source.decode()).encode()


VERSION_LENGTH = 12
# What is minified as it is served: our own files (vendored ones come minified, as `.min.js`).
MINIFIERS: dict[str, Callable[[bytes], bytes]] = {".js": minify_script, ".css": rcssmin.cssmin}
# Compressed once per file version at the highest levels; any other encoding a browser prefers is
# left to Flask-Compress.
# Files served joined from ES modules: the file a page links -> its entry module, both in static/.
BUNDLES = {"js/app.js": "js/src/main.js"}
PRECOMPRESSED: dict[str, Callable[[bytes], bytes]] = {
    "br": lambda data: brotli.compress(data, quality=11),
    "gzip": lambda data: gzip.compress(data, compresslevel=9, mtime=0),
}


def init_app(app: Flask) -> None:
    app.config.setdefault("COMPRESS_MIN_SIZE", 256)
    # Brotli first: at level 5 it beats zstd and gzip on htmx by a kilobyte, in about 2 ms.
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "zstd", "gzip", "deflate"])
    app.config.setdefault("COMPRESS_BR_LEVEL", 5)
    compress.init_app(app)
    app.add_template_global(static_url)
    app.add_template_global(client_data)
    _serve_bundles(app)
    app.before_request(_no_ranges)
    app.after_request(_cache_static)


def static_url(filename: str) -> str:
    """The URL of a file in static/, with its content version: `/static/css/app.css?v=1a2b…`."""
    return url_for("static", filename=filename, v=static_version(filename))


def static_version(filename: str) -> str | None:
    """The first characters of the file's SHA-256, or None if static/ has no such file."""
    folder = current_app.static_folder
    if folder is None:
        return None
    if filename in BUNDLES:
        return _current(filename).version
    path = os.path.realpath(os.path.join(folder, filename))
    if not path.startswith(os.path.realpath(folder) + os.sep):
        return None
    try:
        stat = os.stat(path)
    except OSError:
        return None
    # Keyed by modification time and size as well, so an edited file gets a new version at once.
    return _digest(path, stat.st_mtime_ns, stat.st_size)


@dataclass(frozen=True)
class _Built:
    """A joined script, with the modification time and size of each module it was joined from."""

    stamps: tuple[tuple[str, int, int], ...]
    body: bytes
    version: str


# Every page links the script, so its version is asked for on every page: checking the modules'
# stamps (a stat each) is cheap, finding and reading them again is not (milliseconds).
_built: dict[str, _Built] = {}


def _stamp(path: str) -> tuple[str, int, int]:
    stat = os.stat(path)
    return path, stat.st_mtime_ns, stat.st_size


def _current(filename: str) -> _Built:
    folder = current_app.static_folder
    assert folder is not None
    entry = os.path.join(folder, BUNDLES[filename])
    built = _built.get(entry)
    try:
        if built is not None and all(_stamp(stamp[0]) == stamp for stamp in built.stamps):
            return built
    except OSError:
        pass
    # Stamped before joining: a module edited meanwhile is joined again on the next request.
    stamps = tuple(_stamp(str(path)) for path in bundles.sources(Path(entry)))
    body = bundles.join_modules(Path(entry)).encode()
    built = _Built(stamps, body, hashlib.sha256(body).hexdigest()[:VERSION_LENGTH])
    _built[entry] = built
    return built


def bundle(filename: str) -> bytes:
    """The script a file of `BUNDLES` is joined into, from the modules as they are now."""
    return _current(filename).body


def _serve_bundles(app: Flask) -> None:
    """Serves each file of `BUNDLES` joined from its modules; other static files as they are."""

    def static(filename: str) -> Response:
        if filename not in BUNDLES:
            return app.send_static_file(filename)
        mimetype = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        return Response(bundle(filename), mimetype=mimetype)

    app.view_functions["static"] = static


@lru_cache(maxsize=256)
def _digest(path: str, _mtime_ns: int, _size: int) -> str:
    with open(path, "rb") as file:
        return hashlib.file_digest(file, "sha256").hexdigest()[:VERSION_LENGTH]


def _no_ranges() -> None:
    # A static file is sent whole (see the module's docstring): a range of the file on disk would
    # not be a range of what is sent.
    if request.endpoint == "static":
        request.environ.pop("HTTP_RANGE", None)


def _cache_static(response: Response) -> Response:
    if request.endpoint != "static" or response.status_code not in (200, 304):
        return response
    filename = (request.view_args or {}).get("filename", "")
    if response.status_code != 304:
        _send_served(response, filename)
    version = request.args.get("v")
    if version and version == static_version(filename):
        response.cache_control.no_cache = None
        response.cache_control.public = True
        response.cache_control.max_age = ONE_YEAR
        response.cache_control.immutable = True
        # Never revalidated (immutable, and a new version has a new URL), so an ETag is only bytes
        # on every first visit; the unversioned URL keeps one for its revalidations.
        response.headers.pop("ETag", None)
    else:
        response.cache_control.max_age = None
        response.cache_control.no_cache = True
        response.expires = None
    return response


def _send_served(response: Response, filename: str) -> None:
    """Put the file as served in the response: minified, compressed when the browser accepts it."""
    # Read the (small) file now; the response closes it when it closes.
    response.direct_passthrough = False
    body = served_body(response.get_data(), filename)
    # The ETag names the bytes sent, whatever minifier or compressor version made them; the file's
    # modification time would not, so it is not sent. Nor is the rest, which a phone would only
    # download: a file name to save it under, and an offer of ranges.
    etag = _etag(body)
    for header in ("Last-Modified", "Content-Disposition", "Accept-Ranges"):
        response.headers.pop(header, None)
    config = current_app.config
    encoding = None
    if (
        response.mimetype in config["COMPRESS_MIMETYPES"]
        and len(body) >= config["COMPRESS_MIN_SIZE"]
    ):
        # As Flask-Compress chooses: the browser's preference, then the order configured.
        encoding = request.accept_encodings.best_match(compress.enabled_algorithms)
    if encoding in PRECOMPRESSED:
        response.set_data(_compressed(body, encoding))
        response.headers["Content-Encoding"] = encoding
        response.set_etag(f"{etag}:{encoding}")
    else:
        response.set_data(body)
        response.set_etag(etag)
    if encoding is None or encoding in PRECOMPRESSED:
        # Otherwise Flask-Compress compresses it, names its ETag and answers If-None-Match.
        response.make_conditional(request)


@lru_cache(maxsize=64)
def served_body(data: bytes, filename: str) -> bytes:
    """A static file's content as it is sent: minified if it is our own script or stylesheet."""
    root, extension = os.path.splitext(filename)
    minifier = MINIFIERS.get(extension)
    if minifier is None or root.endswith(".min"):
        return data
    return minifier(data)


@lru_cache(maxsize=64)
def _etag(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()[:24]


def compressed_once(response: Response) -> Response:
    """A response the same for everyone until the next release (the service worker, the offline
    page), compressed as the static files are: once, at the highest level, which would be too slow
    for a page made per request. Every first visit downloads both."""
    encoding = request.accept_encodings.best_match(PRECOMPRESSED)
    response.vary.add("Accept-Encoding")
    if encoding:
        response.set_data(_compressed(response.get_data(), encoding))
        response.headers["Content-Encoding"] = encoding
    return response


@lru_cache(maxsize=128)
def _compressed(body: bytes, encoding: str) -> bytes:
    return PRECOMPRESSED[encoding](body)
