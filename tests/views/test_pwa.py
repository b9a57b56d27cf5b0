"""The installable app: the manifest and its icons, the service worker and the offline page."""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import struct
import subprocess
from pathlib import Path

import brotli
import pytest
from document import parse

# The service worker, static files and pages as sent: the same on any database.
pytestmark = pytest.mark.any_database

ROOT = Path(__file__).resolve().parents[2]


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


def constant(script: str, name: str):
    """A value the server filled into the worker's script, read back from it."""
    found = re.search(rf"const {name}\s*=\s*(.+?);", script)
    assert found, name
    return json.loads(found.group(1))


def test_the_service_worker_comes_from_the_root_and_is_always_checked(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert "no-cache" in response.headers["Cache-Control"]
    script = response.get_data(as_text=True)
    # It keeps the versioned assets and the offline page, each named exactly as the pages link them.
    assets = constant(script, "ASSETS")
    page = parse(client.get("/"))
    linked = [node.attrs["href"] for node in page.find_all("link", rel="stylesheet")]
    linked += [node.attrs["src"] for node in page.find_all("script")]
    assert set(linked) <= set(assets)
    for url in assets:
        with client.get(url) as asset:
            assert asset.status_code == 200
    assert constant(script, "OFFLINE") == "/offline"
    assert any(url.startswith("/static/js/app.js?v=") for url in assets)
    assert constant(script, "SIGN_IN_OUT") == ["/login", "/logout"]


@pytest.mark.skipif(not shutil.which("node"), reason="needs node to run the worker")
def test_the_service_worker_as_served_keeps_copies_and_the_offline_page_as_it_should(
    client, tmp_path
):
    """Its behaviour, run under Node with a fake network and caches (tests/js): copies of the
    home and game pages only, marked when shown; the offline page; fragments, polls and saves
    never from a cache; copies dropped before a sign-in or -out."""
    script = tmp_path / "sw.js"
    script.write_bytes(client.get("/sw.js").get_data())
    result = subprocess.run(
        ["node", "--test", str(ROOT / "tests/js/service_worker.test.js")],
        capture_output=True,
        text=True,
        env={**os.environ, "SERVICE_WORKER": str(script)},
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"^# pass [1-9]", result.stdout, re.M), result.stdout


def test_copies_are_named_by_the_release_like_the_assets(client):
    script = client.get("/sw.js").get_data(as_text=True)
    cache = constant(script, "CACHE")
    assert cache.startswith("uno-scorer-")
    assert constant(script, "PAGES") == "uno-pages-" + cache.removeprefix("uno-scorer-")


def test_a_new_asset_version_renames_the_cache(client, app, monkeypatch):
    first = constant(client.get("/sw.js").get_data(as_text=True), "CACHE")
    from scorer import assets

    monkeypatch.setattr(assets, "static_version", lambda name: "changed")
    monkeypatch.setattr("scorer.views.pwa.static_version", lambda name: "changed")
    second = constant(client.get("/sw.js").get_data(as_text=True), "CACHE")
    assert first != second


def test_the_offline_page_is_friendly_and_holds_no_token(client):
    response = client.get("/offline")
    assert response.status_code == 200
    page = parse(response)
    assert page.find("h1").text == "The scorer can't be reached"
    assert "hx-headers" not in page.find("body").attrs
    assert page.find("a", class_="primary").text == "Try again"


def test_a_copied_page_has_a_hidden_copy_mark_and_the_script_async(client):
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
    # Async: the pad answers as soon as the parser has passed it, before the rest is parsed.
    assert "async" in scripts["/static/js/app.js"]


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
