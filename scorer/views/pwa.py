"""The installable app: its manifest, the service worker and the page it shows when offline."""

from __future__ import annotations

import hashlib

import rjsmin
from flask import Blueprint, Response, current_app, jsonify, make_response, render_template
from flask_babel import gettext as _

from ..assets import compressed_once, static_url, static_version
from ..languages import TRANSLATIONS, html_lang
from ..whitespace import trimmed

bp = Blueprint("pwa", __name__)

# What the service worker keeps for offline use: the look of the app and the offline page (and, at
# run time, the phone's copies of pages, in a cache named by the same release: see pwa/sw.js). Not
# stats.css nor setup.css: only pages around the game link them, and fetching them here would add
# them to a first visit to a game; those pages get them from the browser's cache like any file.
OFFLINE_ASSETS = (
    "css/app.css",
    "js/app.js",
    "vendor/htmx-2.0.11.min.js",
    "icons/icon.svg",
)
THEME_COLOR = "#b5121b"
BACKGROUND_COLOR = "#f4f1ec"


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    icon = "icons/icon-{}.png"
    response = jsonify(
        {
            "id": "/",
            "name": "UNO Scorer",
            "short_name": "UNO Scorer",
            "description": _("Keeps score for UNO played with real cards, on every phone."),
            "lang": html_lang(),
            "start_url": "/",
            "scope": "/",
            "display": "standalone",
            "theme_color": THEME_COLOR,
            "background_color": BACKGROUND_COLOR,
            "icons": [
                {"src": static_url(icon.format(192)), "sizes": "192x192", "type": "image/png"},
                {"src": static_url(icon.format(512)), "sizes": "512x512", "type": "image/png"},
                {
                    "src": static_url("icons/maskable-512.png"),
                    "sizes": "512x512",
                    "type": "image/png",
                    "purpose": "maskable",
                },
                {"src": static_url("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
            ],
        }
    )
    response.mimetype = "application/manifest+json"
    # Its description is in the reader's language, chosen as a page's is.
    response.vary.update(("Cookie", "Accept-Language"))
    return response


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, from the root so its scope is the whole app; never cached for long."""
    assets = [static_url(name) for name in OFFLINE_ASSETS]
    release = _release()
    script = render_template(
        "pwa/sw.js", cache=f"uno-scorer-{release}", pages=f"uno-pages-{release}", assets=assets
    )
    # Minified like our static scripts: a first visit downloads it too.
    response = make_response(rjsmin.jsmin(script))
    response.mimetype = "text/javascript"
    response.cache_control.no_cache = True
    return compressed_once(response)


@bp.get("/offline")
def offline() -> Response:
    return compressed_once(make_response(trimmed(render_template("pwa/offline.html").encode())))


def _release() -> str:
    """Changes whenever a cached asset or the offline page (or its words) does, so the worker
    updates its cache.

    The page copies' cache is named by it too: a copy links the assets of its release.
    """
    loader = current_app.jinja_env.loader
    assert loader is not None
    parts = [f"{name}={static_version(name)}" for name in OFFLINE_ASSETS]
    for template in ("pwa/offline.html", "base.html"):
        source, _filename, _uptodate = loader.get_source(current_app.jinja_env, template)
        parts.append(source)
    # The offline page the worker keeps is in the phone's language: new words are a new release.
    for catalog in sorted(TRANSLATIONS.glob("*/LC_MESSAGES/messages.mo")):
        parts.append(hashlib.sha256(catalog.read_bytes()).hexdigest())
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:12]
