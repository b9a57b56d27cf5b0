"""The app behind a real Caddy, run with the committed deploy/Caddyfile and Caddy's own internal
certificate authority: HTTPS pages with HSTS and a Secure cookie, https share links, and signing in.

Caddy comes from Debian's package (scripts/ensure-caddy.sh installs it). Without it these tests
are skipped, or fail when CI is set. Caddy runs on free local ports with its storage in a temporary
folder: it binds neither 80 nor 443 and installs its root certificate nowhere.
"""

from __future__ import annotations

import http.cookiejar
import io
import os
import shutil
import socket
import ssl
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import segno
from document import parse

CADDY = shutil.which(os.environ.get("CADDY_PATH") or "caddy")
DEPLOY_CADDYFILE = Path(__file__).resolve().parents[2] / "deploy" / "Caddyfile"
START_TIMEOUT = 30.0
PASSWORD = "correct horse battery"
ONE_EIGHTY_DAYS = 180 * 24 * 3600
SVG = "{http://www.w3.org/2000/svg}"
# Only what a test needs on top of the committed file: local ports, no admin endpoint, and
# certificates from Caddy's internal authority, whose root is trusted by the test client alone.
TEST_CADDYFILE = """\
{{
	admin off
	default_bind 127.0.0.1
	http_port {http_port}
	https_port {https_port}
	local_certs
	skip_install_trust
}}

import {deploy_caddyfile}
"""


@dataclass
class Site:
    """Caddy on https_port (and plain HTTP on http_port) in front of the app."""

    https_port: int
    http_port: int
    root_certificate: Path

    @property
    def origin(self) -> str:
        return f"https://127.0.0.1:{self.https_port}"


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *_args, **_kwargs):
        return None


class Browser:
    """Keeps cookies, trusts Caddy's root certificate, sends Referer as a browser does."""

    def __init__(self, site: Site) -> None:
        self.site = site
        self.cookies = http.cookiejar.CookieJar()
        context = ssl.create_default_context(cafile=str(site.root_certificate))
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPSHandler(context=context),
            urllib.request.HTTPCookieProcessor(self.cookies),
            NoRedirects(),
        )

    def request(self, path: str, fields: dict[str, str] | None = None):
        """The response to a GET (or a POST of `fields`), whatever its status."""
        url = self.site.origin + path
        data = urllib.parse.urlencode(fields).encode() if fields is not None else None
        headers = {"Referer": self.site.origin + "/"} if fields is not None else {}
        try:
            return self.opener.open(urllib.request.Request(url, data, headers), timeout=10)
        except urllib.error.HTTPError as error:
            return error

    def token(self) -> str:
        """The session's CSRF token, from the sign-in form."""
        with self.request("/login") as response:
            return parse(response.read().decode()).value("csrf_token")


def start_caddy(folder: Path, upstream: int, ports: tuple[int, int]) -> subprocess.Popen:
    http_port, https_port = ports
    caddyfile = folder / "Caddyfile"
    caddyfile.write_text(
        TEST_CADDYFILE.format(
            http_port=http_port, https_port=https_port, deploy_caddyfile=DEPLOY_CADDYFILE
        )
    )
    env = {
        **os.environ,
        # Caddy keeps its certificate authority and certificates under these.
        "HOME": str(folder),
        "XDG_DATA_HOME": str(folder / "data"),
        "XDG_CONFIG_HOME": str(folder / "config"),
        "SCORER_DOMAIN": "127.0.0.1",
        "SCORER_UPSTREAM": f"127.0.0.1:{upstream}",
    }
    with open(folder / "caddy.log", "wb") as log:
        return subprocess.Popen(
            [CADDY, "run", "--config", str(caddyfile), "--adapter", "caddyfile"],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def serving(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


@pytest.fixture(scope="module")
def site(module_scorer_server, free_port, tmp_path_factory) -> Iterator[Site]:
    if not CADDY:
        message = "Caddy is not installed: run scripts/ensure-caddy.sh (apt-get install caddy)"
        if os.environ.get("CI"):
            pytest.fail(message + "; CI must not skip the Caddy tests.")
        pytest.skip(message)
    app = module_scorer_server(TRUSTED_PROXY_HOPS="1", TRUSTED_HOSTS="127.0.0.1")
    app.start()
    app.command("users", "add", "Owner", "--password", PASSWORD)
    folder = tmp_path_factory.mktemp("caddy")
    root = folder / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
    # A free port can be taken by someone else before Caddy binds it: then try others.
    for _attempt in range(3):
        ports = (free_port(), free_port())
        caddy = start_caddy(folder, app.port, ports)
        deadline = time.monotonic() + START_TIMEOUT
        while caddy.poll() is None and time.monotonic() < deadline:
            if serving(ports[1]) and root.exists():
                break
            time.sleep(0.1)
        if caddy.poll() is None and serving(ports[1]):
            break
        stop(caddy)
    else:
        pytest.fail("Caddy did not start:\n" + (folder / "caddy.log").read_text(errors="replace"))
    try:
        yield Site(https_port=ports[1], http_port=ports[0], root_certificate=root)
    finally:
        stop(caddy)


def test_pages_come_over_https_with_hsts_and_a_secure_session_cookie(site):
    with Browser(site).request("/login") as response:
        assert response.status == 200
        assert response.url.startswith("https://")
        hsts = response.headers["Strict-Transport-Security"]
        max_age = int(dict(part.strip().split("=") for part in hsts.split(";"))["max-age"])
        assert max_age >= ONE_EIGHTY_DAYS
        cookie = response.headers["Set-Cookie"]
        assert cookie.startswith("session=")
        assert "; Secure" in cookie
        assert "HttpOnly" in cookie


def test_plain_http_is_sent_to_https(site):
    request = urllib.request.Request(f"http://127.0.0.1:{site.http_port}/games/new")
    opener = urllib.request.build_opener(NoRedirects())
    with pytest.raises(urllib.error.HTTPError) as redirected:
        opener.open(request, timeout=10)
    redirected.value.close()
    assert redirected.value.code == 308
    assert redirected.value.headers["Location"].startswith("https://127.0.0.1")
    assert "Strict-Transport-Security" not in redirected.value.headers


def test_signing_in_through_caddy_lets_the_owner_keep_score(site):
    browser = Browser(site)
    start = {"players-0": "Ann", "players-1": "Bob", "action": "start", "target": "500"}
    with browser.request("/games/new", start | {"csrf_token": browser.token()}) as refused:
        assert refused.status == 401

    form = {"name": "Owner", "password": PASSWORD, "next": "/", "csrf_token": browser.token()}
    with browser.request("/login", form) as signed_in:
        assert signed_in.status in (302, 303), signed_in.read().decode()[:2000]
    assert [cookie.secure for cookie in browser.cookies] == [True]

    with browser.request("/games/new", start | {"csrf_token": browser.token()}) as started:
        assert started.status == 303, started.read().decode()[:2000]
        game = urllib.parse.urlsplit(started.headers["Location"]).path
    with browser.request(game) as page:
        assert page.status == 200
        assert "Ann" in page.read().decode()


def test_the_share_link_and_code_are_the_public_https_address(site):
    browser = Browser(site)
    form = {"name": "Owner", "password": PASSWORD, "next": "/", "csrf_token": browser.token()}
    browser.request("/login", form).close()
    start = {"players-0": "Cat", "players-1": "Dan", "action": "start", "target": "500"}
    with browser.request("/games/new", start | {"csrf_token": browser.token()}) as started:
        game = urllib.parse.urlsplit(started.headers["Location"]).path

    link = site.origin + game
    with browser.request(game + "/share") as response:
        page = parse(response.read().decode())
    assert page.by_id("game-link").attrs["href"] == link
    with browser.request(game + "/qr.svg") as response:
        assert qr_paths(response.read()) == qr_of(link)


def qr_paths(svg: bytes) -> list[str]:
    """The drawing of a QR code made by segno: its paths' outlines."""
    return [e.attrib["d"] for e in ET.fromstring(svg).iter() if e.tag == f"{SVG}path"]


def qr_of(text: str) -> list[str]:
    """The drawing segno makes of `text` with the share page's colours."""
    svg = io.BytesIO()
    segno.make_qr(text, error="m").save(
        svg, kind="svg", border=4, dark="#000", light="#fff", xmldecl=False
    )
    return qr_paths(svg.getvalue())
