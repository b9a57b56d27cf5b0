"""Static files: versioned links cached for a year, everything else revalidated, all compressed."""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import brotli
import pytest
from document import HTMX, parse

from scorer import assets
from scorer.assets import served_body
from scorer.bundles import join_modules

# The service worker, static files and pages as sent: the same on any database.
pytestmark = pytest.mark.any_database

STATIC = Path(__file__).resolve().parents[2] / "static"


def source_of(name: str) -> bytes:
    """A static file as the app reads it: the page's script joined from its modules."""
    if name in assets.BUNDLES:
        return join_modules(STATIC / assets.BUNDLES[name]).encode()
    return (STATIC / name).read_bytes()


def version_of(name: str) -> str:
    return hashlib.sha256(source_of(name)).hexdigest()[:12]


def get(client, url: str, **headers):
    """A response with its body read and its file closed."""
    with client.get(url, headers=headers) as response:
        response.get_data()
        return response


def test_pages_link_static_files_by_content_version(client):
    page = parse(client.get("/"))
    urls = [node.attrs["href"] for node in page.find_all("link", rel="stylesheet")]
    urls += [node.attrs["src"] for node in page.find_all("script")]
    assert urls == [
        f"/static/css/app.css?v={version_of('css/app.css')}",
        f"/static/vendor/htmx-2.0.11.min.js?v={version_of('vendor/htmx-2.0.11.min.js')}",
        f"/static/js/app.js?v={version_of('js/app.js')}",
    ]


def test_a_versioned_file_is_cached_for_a_year(client):
    response = get(client, f"/static/css/app.css?v={version_of('css/app.css')}")
    assert response.status_code == 200
    cache = response.cache_control
    assert cache.public and cache.immutable
    assert cache.max_age == 365 * 24 * 60 * 60
    assert not cache.no_cache


@pytest.mark.parametrize("query", ["", "?v=", "?v=0123456789ab"])
def test_any_other_request_for_it_must_be_revalidated(client, query):
    response = get(client, f"/static/css/app.css{query}")
    assert response.status_code == 200
    assert response.cache_control.no_cache
    assert response.cache_control.max_age is None
    assert response.headers.get("ETag")
    # ...and the revalidation is cheap: the same ETag gets a 304.
    again = get(
        client, f"/static/css/app.css{query}", **{"If-None-Match": response.headers["ETag"]}
    )
    assert again.status_code == 304


@pytest.mark.parametrize(
    ("encoding", "decompress"),
    [("br", brotli.decompress), ("gzip", gzip.decompress)],
    ids=["br", "gzip"],
)
def test_pages_and_fragments_are_compressed(client, new_game, encoding, decompress):
    game_id = new_game(["Ann", "Bob", "Cat"])
    plain = client.get(f"/games/{game_id}").get_data()
    page = client.get(f"/games/{game_id}", headers={"Accept-Encoding": encoding})
    assert page.headers["Content-Encoding"] == encoding
    # The same page (its CSRF token is signed with the time, so it can differ by a second).
    assert decompress(page.data).split(b"hx-headers=")[0] == plain.split(b"hx-headers=")[0]
    assert len(page.data) < len(plain) / 3
    # An htmx fragment too, and each says what it varies on.
    fragment = client.get(f"/games/{game_id}/live", headers={**HTMX, "Accept-Encoding": encoding})
    assert fragment.headers["Content-Encoding"] == encoding
    assert b'id="scoreboard"' in decompress(fragment.data)
    for response in (page, fragment):
        vary = {value.strip() for value in response.headers["Vary"].split(",")}
        assert {"HX-Request", "Accept-Encoding"} <= vary


def test_static_files_are_compressed_when_the_browser_accepts_it(client):
    name = "vendor/htmx-2.0.11.min.js"
    url = f"/static/{name}?v={version_of(name)}"
    for encoding in ("br", "zstd"):
        response = get(client, url, **{"Accept-Encoding": encoding})
        assert response.headers["Content-Encoding"] == encoding
        assert "Accept-Encoding" in response.headers["Vary"]
        assert len(response.data) < (STATIC / name).stat().st_size / 2
    assert (
        brotli.decompress(get(client, url, **{"Accept-Encoding": "br"}).data)
        == (STATIC / name).read_bytes()
    )
    # Without Accept-Encoding the file is sent as it is.
    assert "Content-Encoding" not in get(client, url).headers


def test_json_from_the_api_is_compressed_too(client):
    plain = client.get("/api/v1/openapi.json").get_data()
    response = client.get("/api/v1/openapi.json", headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200
    assert response.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(response.data) == plain


def test_a_tiny_response_is_not_worth_compressing(client, new_game):
    game_id = new_game(2)
    response = client.get(
        f"/games/{game_id}/live",
        headers={**HTMX, "Accept-Encoding": "gzip", "If-None-Match": f'W/"game-{game_id}-v0"'},
    )
    assert response.status_code == 304
    assert "Content-Encoding" not in response.headers


# Our scripts and stylesheets as served: minified, then compressed once at the highest levels.

OURS = ["js/app.js", "css/app.css", "css/stats.css"]


def versioned(name: str) -> str:
    return f"/static/{name}?v={version_of(name)}"


@pytest.mark.parametrize("name", OURS)
def test_our_scripts_and_stylesheets_are_sent_minified(client, name):
    source = source_of(name)
    served = get(client, versioned(name)).data
    assert served == served_body(source, name)
    assert len(served) < len(source) * 0.85
    # The comments stay in the file, not in what a phone downloads.
    assert source.count(b"/*") + source.count(b"// ") > 5
    assert b"/*" not in served and b"// " not in served


def test_the_scripts_version_follows_each_of_its_modules(client, tmp_path, monkeypatch):
    (tmp_path / "main.js").write_text('import { a } from "./a.js";\nconsole.log(a);\n')
    module = tmp_path / "a.js"
    module.write_text("export const a = 1;\n")
    # An absolute entry stands in for the one under static/.
    monkeypatch.setitem(assets.BUNDLES, "js/app.js", str(tmp_path / "main.js"))
    with client.application.test_request_context():
        first = assets.static_url("js/app.js")
        assert assets.static_url("js/app.js") == first
        module.write_text("export const a = 22;\n")
        second = assets.static_url("js/app.js")
    assert second != first
    # The minifier renames the module's constant, but not its value.
    assert b"=22" in get(client, second).data


def test_a_vendored_file_is_sent_as_it_is(client):
    name = "vendor/htmx-2.0.11.min.js"
    assert get(client, versioned(name)).data == (STATIC / name).read_bytes()


@pytest.mark.skipif(not shutil.which("node"), reason="needs node to parse JavaScript")
def test_the_minified_script_is_still_valid_javascript(client, tmp_path):
    script = tmp_path / "app.min.js"
    script.write_bytes(get(client, versioned("js/app.js")).data)
    checked = subprocess.run(["node", "--check", str(script)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


# A page with nothing on it for the script but the server's words: the script must start, listen,
# and mark the pad ready without touching anything the page lacks.
FAKE_PAGE = """
const vm = require("node:vm");
const fs = require("node:fs");
const listening = [];
const marks = [];
const element = () => null;
const page = {
  readyState: "interactive",
  hidden: false,
  documentElement: { dataset: { client: process.argv[2] } },
  addEventListener: (type) => listening.push(type),
  querySelector: element,
  querySelectorAll: () => [],
  getElementById: element,
};
const context = {
  document: page,
  location: { pathname: "/", search: "" },
  navigator: { onLine: true },
  performance: { mark: (name) => marks.push(name) },
  localStorage: { getItem: () => null, setItem: () => {}, removeItem: () => {}, length: 0 },
  setTimeout,
  clearTimeout,
  console,
};
context.window = Object.assign(context, { addEventListener: (type) => listening.push(type) });
vm.runInNewContext(fs.readFileSync(process.argv[1], "utf8"), context);
console.log(JSON.stringify({ listening, marks }));
"""


@pytest.mark.skipif(not shutil.which("node"), reason="needs node to run JavaScript")
def test_the_served_script_starts_on_a_page(client, tmp_path):
    script = tmp_path / "app.min.js"
    script.write_bytes(get(client, versioned("js/app.js")).data)
    page = parse(client.get("/"))
    ran = subprocess.run(
        ["node", "-e", FAKE_PAGE, str(script), page.find("html").attrs["data-client"]],
        capture_output=True,
        text=True,
    )
    assert ran.returncode == 0, ran.stderr
    started = json.loads(ran.stdout)
    assert started["marks"] == ["uno:pad-ready"]
    assert {"click", "input", "htmx:load", "htmx:sendError", "htmx:afterSettle", "online"} <= set(
        started["listening"]
    )


@pytest.mark.parametrize(
    ("encoding", "decompress"),
    [("br", brotli.decompress), ("gzip", gzip.decompress)],
    ids=["br", "gzip"],
)
@pytest.mark.parametrize("name", ["js/app.js", "vendor/htmx-2.0.11.min.js"])
def test_static_files_are_sent_compressed_and_cached_per_encoding(
    client, name, encoding, decompress
):
    body = served_body(source_of(name), name)
    response = get(client, versioned(name), **{"Accept-Encoding": f"{encoding}, deflate"})
    assert response.headers["Content-Encoding"] == encoding
    assert "Accept-Encoding" in response.headers["Vary"]
    assert decompress(response.data) == body
    assert len(response.data) < len(body) / 2
    assert response.cache_control.immutable
    # Never revalidated, so no ETag: the unversioned URL has one per encoding, and revalidating
    # with it is a 304 without a body.
    assert "ETag" not in response.headers
    etag = get(client, f"/static/{name}", **{"Accept-Encoding": encoding}).headers["ETag"]
    assert etag.endswith(f':{encoding}"')
    plain = get(client, f"/static/{name}")
    assert plain.headers["ETag"] != etag and "Content-Encoding" not in plain.headers
    again = get(client, f"/static/{name}", **{"Accept-Encoding": encoding, "If-None-Match": etag})
    assert again.status_code == 304
    assert again.data == b""
    assert again.cache_control.no_cache


@pytest.mark.parametrize("name", ["js/app.js", "css/app.css", "vendor/htmx-2.0.11.min.js"])
def test_a_browser_that_takes_brotli_gets_fewer_bytes_than_with_gzip(client, name):
    """Why Brotli is offered first: the same file, smaller, whatever level makes it so."""
    sizes = {
        encoding: len(get(client, versioned(name), **{"Accept-Encoding": encoding}).data)
        for encoding in ("br", "gzip")
    }
    assert sizes["br"] < sizes["gzip"]
    both = get(client, versioned(name), **{"Accept-Encoding": "gzip, deflate, br"})
    assert both.headers["Content-Encoding"] == "br"


def test_the_etag_follows_the_bytes_sent(client, monkeypatch):
    first = get(client, "/static/js/app.js").headers["ETag"]
    # A different minifier (a new version of it, say) makes a different ETag for the same file.
    monkeypatch.setitem(assets.MINIFIERS, ".js", lambda data: data.strip())
    assets.served_body.cache_clear()
    try:
        assert get(client, "/static/js/app.js").headers["ETag"] != first
    finally:
        assets.served_body.cache_clear()


def test_a_static_file_is_sent_whole_with_no_header_a_phone_has_no_use_for(client):
    name = "js/app.js"
    response = get(client, versioned(name), Range="bytes=0-99")
    assert response.status_code == 200
    assert response.data == served_body(source_of(name), name)
    for header in ("Accept-Ranges", "Content-Range", "Last-Modified", "Content-Disposition"):
        assert header not in response.headers
    # Nor what only a page or a changing file needs; a session, made by a page, changes nothing.
    client.get("/")
    assert client.get_cookie("session")
    response = get(client, versioned(name), **{"Accept-Encoding": "br"})
    for header in ("ETag", "Referrer-Policy", "Set-Cookie"):
        assert header not in response.headers
    assert response.headers["Vary"] == "Accept-Encoding"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_a_missing_static_file_is_still_a_404(client):
    response = get(client, "/static/js/missing.js", **{"Accept-Encoding": "br"})
    assert response.status_code == 404
