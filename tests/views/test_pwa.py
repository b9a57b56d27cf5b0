"""The installable app: the manifest and its icons, the service worker and the offline page."""

from __future__ import annotations

import gzip
import json
import re
import struct

import brotli
import pytest
from document import parse


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_every_page_links_the_manifest_and_the_icons(client):
    page = parse(client.get("/"))
    links = {node.attrs["rel"]: node.attrs["href"] for node in page.find_all("link")}
    assert links["manifest"] == "/manifest.webmanifest"
    assert links["icon"].startswith("/static/icons/icon.svg?v=")
    assert links["apple-touch-icon"].startswith("/static/icons/apple-touch-icon.png?v=")
    colours = {
        node.attrs.get("media"): node.attrs["content"]
        for node in page.find_all("meta", name="theme-color")
    }
    assert colours == {
        "(prefers-color-scheme: light)": "#b5121b",
        "(prefers-color-scheme: dark)": "#ff5a5f",
    }
    assert page.find("html").attrs["data-service-worker"] == "/sw.js"


def test_the_manifest_makes_a_standalone_app_with_every_icon(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    manifest = json.loads(response.data)
    assert manifest["name"] == "UNO Scorer"
    assert manifest["short_name"] == "UNO Scorer"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#b5121b"
    assert manifest["background_color"] == "#f4f1ec"
    pngs = [icon for icon in manifest["icons"] if icon["type"] == "image/png"]
    assert {(icon["sizes"], icon.get("purpose", "any")) for icon in pngs} == {
        ("192x192", "any"),
        ("512x512", "any"),
        ("512x512", "maskable"),
    }
    for icon in pngs:
        with client.get(icon["src"]) as image:
            assert image.status_code == 200
            assert image.mimetype == "image/png"
            width, height = png_size(image.data)
        assert f"{width}x{height}" == icon["sizes"]


def test_the_service_worker_comes_from_the_root_and_is_always_checked(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert "no-cache" in response.headers["Cache-Control"]
    script = response.get_data(as_text=True)
    # It keeps the versioned assets and the offline page, each named exactly as the pages link them.
    assets = json.loads(re.search(r"const ASSETS=(\[.*?\]);", script).group(1))
    page = parse(client.get("/"))
    linked = [node.attrs["href"] for node in page.find_all("link", rel="stylesheet")]
    linked += [node.attrs["src"] for node in page.find_all("script")]
    assert set(linked) <= set(assets)
    for url in assets:
        with client.get(url) as asset:
            assert asset.status_code == 200
    assert 'const OFFLINE="/offline";' in script
    assert any(url.startswith("/static/js/app.js?v=") for url in assets)


def test_the_service_worker_keeps_copies_of_the_home_and_game_pages_only(client):
    script = client.get("/sw.js").get_data(as_text=True)
    copied = re.compile(re.search(r"const COPIED=/(.+?)/;", script).group(1).replace("\\/", "/"))
    assert [path for path in ("/", "/games/12") if copied.match(path)] == ["/", "/games/12"]
    for path in ("/games/12/live", "/games/12/hands", "/games/new", "/players", "/api/games"):
        assert not copied.match(path), path
    # A copy is shown marked, and stored only from a successful page of our own.
    assert "data-copy-of=" in script
    assert '!response.ok||response.redirected||response.type!=="basic"' in script
    # Fragments, polls and saves never come from a cache: only a page's copy, the offline page
    # (when a page cannot be fetched) and versioned static files are ever looked up.
    lookups = re.findall(r"caches?\.match\((\w+)", script)
    assert lookups == ["page", "page", "OFFLINE", "OFFLINE", "request"]
    assert 'url.pathname.startsWith("/static/")&&url.searchParams.has("v")' in script
    assert "navigationPreload.enable()" in script


def test_signing_in_or_out_drops_the_copies_first(client):
    script = client.get("/sw.js").get_data(as_text=True)
    assert 'const SIGN_IN_OUT=["/login","/logout"];' in script
    assert "caches.delete(PAGES).then(()=>fetch(request))" in script


def test_copies_are_named_by_the_release_like_the_assets(client):
    script = client.get("/sw.js").get_data(as_text=True)
    cache = re.search(r'const CACHE="uno-scorer-(\w+)"', script).group(1)
    assert f'const PAGES="uno-pages-{cache}";' in script


def test_a_new_asset_version_renames_the_cache(client, app, monkeypatch):
    first = re.search(r'const CACHE="([^"]+)"', client.get("/sw.js").get_data(as_text=True))
    from scorer import assets

    monkeypatch.setattr(assets, "static_version", lambda name: "changed")
    monkeypatch.setattr("scorer.views.pwa.static_version", lambda name: "changed")
    second = re.search(r'const CACHE="([^"]+)"', client.get("/sw.js").get_data(as_text=True))
    assert first.group(1) != second.group(1)


def test_the_offline_page_is_friendly_and_holds_no_token(client):
    response = client.get("/offline")
    assert response.status_code == 200
    page = parse(response)
    assert page.find("h1").text == "The scorer can't be reached"
    assert "hx-headers" not in page.find("body").attrs
    assert page.find("a", class_="primary").text == "Try again"


def test_a_copied_page_has_a_hidden_copy_mark_and_the_script_deferred(client):
    # Only the pages the worker keeps a copy of carry the mark; others keep their own status.
    assert parse(client.get("/rules/")).by_id("copy-mark") is None
    page = parse(client.get("/"))
    mark = page.by_id("copy-mark")
    # Shown only on a copy (html[data-copy-of], which the worker adds), with the time it was seen
    # in place of {seen}; in the top bar, which a fresh page replaces with its own, before the
    # brand it stands in for.
    assert mark.attrs["role"] == "status" and "hidden" in mark.attrs
    assert mark.text == "Last seen {seen} · updating…"
    assert page.find("header").find("p") is mark
    assert mark.find_next_sibling("a").attrs["class"] == "brand"
    scripts = {node.attrs["src"].split("?")[0]: node.attrs for node in page.find_all("script")}
    assert "defer" in scripts["/static/js/app.js"]


@pytest.mark.parametrize("path", ["/sw.js", "/offline"])
def test_the_worker_and_the_offline_page_come_compressed_at_the_highest_level(client, path):
    """Every first visit downloads both; they change only with a release, so they are compressed
    once, as the static files are, not per request."""
    plain = client.get(path).get_data()
    response = client.get(path, headers={"Accept-Encoding": "gzip, deflate, br, zstd"})
    assert response.headers["Content-Encoding"] == "br"
    assert "Accept-Encoding" in response.headers["Vary"]
    assert brotli.decompress(response.data) == plain
    assert len(response.data) == len(brotli.compress(plain, quality=11))
    gzipped = client.get(path, headers={"Accept-Encoding": "gzip"})
    assert gzip.decompress(gzipped.data) == plain
