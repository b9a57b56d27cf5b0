"""Behind a reverse proxy: TRUSTED_PROXY_HOPS, HTTPS (Secure cookie, HSTS, https share links) and
TRUSTED_HOSTS; and the SQLite file kept private. tests/deploy/test_caddy.py does the same through
a real Caddy."""

from __future__ import annotations

import io
import os
import stat
import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest
import segno
from conftest import make_app
from document import parse
from factories import hand_form
from flask import Flask

from scorer import create_app
from scorer.extensions import db, rate_limiter
from scorer.services.accounts import add_user

SVG = "{http://www.w3.org/2000/svg}"
FROM_PROXY = {
    "X-Forwarded-For": "203.0.113.7",
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "scores.example",
}
# Over HTTPS, Flask-WTF wants a same-site Referer on every form post, as browsers send it.
FROM_A_PAGE = FROM_PROXY | {"Referer": "https://scores.example/"}
PASSWORD = "correct horse battery"
ONE_EIGHTY_DAYS = 180 * 24 * 3600


@pytest.fixture
def configured(app: Flask) -> Iterator:
    """An app on the same database, with these settings on top of the tests' own."""
    made: list[Flask] = []

    def build(**config) -> Flask:
        made.append(make_app(app.config["SQLALCHEMY_DATABASE_URI"], **config))
        return made[-1]

    yield build
    for other in made:
        with other.app_context():
            db.session.remove()
            db.engine.dispose()


def qr_paths(svg: bytes) -> list[str]:
    """The drawing of a QR code made by segno: its paths' outlines (light, then dark modules)."""
    return [
        element.attrib["d"] for element in ET.fromstring(svg).iter() if element.tag == f"{SVG}path"
    ]


def qr_of(text: str) -> list[str]:
    """The drawing segno makes of `text` with the share page's colours."""
    svg = io.BytesIO()
    segno.make_qr(text, error="m").save(
        svg, kind="svg", border=4, dark="#000", light="#fff", xmldecl=False
    )
    return qr_paths(svg.getvalue())


def test_without_trusted_hops_forwarded_headers_are_ignored(client, new_game):
    game_id = new_game(2)
    response = client.get(f"/games/{game_id}/share", headers=FROM_PROXY)
    assert parse(response).by_id("game-link").attrs["href"] == f"http://localhost/games/{game_id}"
    assert "Strict-Transport-Security" not in response.headers
    assert "Secure" not in response.headers.get("Set-Cookie", "")


def test_behind_one_proxy_the_share_link_and_code_are_https_on_the_public_host(
    configured, new_game
):
    client = configured(TRUSTED_PROXY_HOPS=1).test_client()
    game_id = new_game(2)
    link = f"https://scores.example/games/{game_id}"
    page = parse(client.get(f"/games/{game_id}/share", headers=FROM_PROXY))
    assert page.by_id("game-link").attrs["href"] == link
    assert page.find("img", class_="qr").attrs["alt"] == f"QR code for {link}"
    assert page.find(class_="notice") is None
    code = client.get(f"/games/{game_id}/qr.svg", headers=FROM_PROXY)
    assert qr_paths(code.data) == qr_of(link)
    assert qr_paths(code.data) != qr_of(f"http://localhost/games/{game_id}")


def test_over_https_the_cookie_is_secure_and_hsts_is_sent(configured):
    client = configured(TRUSTED_PROXY_HOPS=1, WTF_CSRF_ENABLED=True).test_client()
    response = client.get("/games/new", headers=FROM_PROXY)
    assert response.status_code == 200
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("session=")
    assert "; Secure" in cookie
    assert "HttpOnly" in cookie
    hsts = response.headers["Strict-Transport-Security"]
    max_age = int(dict(part.strip().split("=") for part in hsts.split(";"))["max-age"])
    assert max_age >= ONE_EIGHTY_DAYS


def test_over_plain_http_through_the_proxy_there_is_no_hsts_or_secure_cookie(configured):
    client = configured(TRUSTED_PROXY_HOPS=1, WTF_CSRF_ENABLED=True).test_client()
    response = client.get("/games/new", headers=FROM_PROXY | {"X-Forwarded-Proto": "http"})
    assert "Strict-Transport-Security" not in response.headers
    assert "Secure" not in response.headers["Set-Cookie"]


def test_one_hop_believes_only_the_nearest_proxy(configured, new_game):
    """A client's own X-Forwarded-* comes first in the list; the proxy appends what it saw."""
    client = configured(TRUSTED_PROXY_HOPS=1).test_client()
    game_id = new_game(2)
    spoofed = {
        "X-Forwarded-For": "198.51.100.1, 203.0.113.7",
        "X-Forwarded-Proto": "http, https",
        "X-Forwarded-Host": "evil.example, scores.example",
    }
    page = parse(client.get(f"/games/{game_id}/share", headers=spoofed))
    assert page.by_id("game-link").attrs["href"] == f"https://scores.example/games/{game_id}"


def test_two_hops_take_the_address_the_outer_proxy_saw(configured, new_game):
    client = configured(TRUSTED_PROXY_HOPS=2).test_client()
    game_id = new_game(2)
    chain = {
        "X-Forwarded-For": "198.51.100.1, 10.0.0.2",
        "X-Forwarded-Proto": "https, http",
        "X-Forwarded-Host": "scores.example, internal:8000",
    }
    page = parse(client.get(f"/games/{game_id}/share", headers=chain))
    assert page.by_id("game-link").attrs["href"] == f"https://scores.example/games/{game_id}"


def test_the_address_the_proxy_saw_is_the_clients(configured):
    proxied = configured(TRUSTED_PROXY_HOPS=1)
    seen: list[str | None] = []

    @proxied.get("/test-remote-address")
    def remote_address() -> str:
        from flask import request

        seen.append(request.remote_addr)
        return ""

    proxied.test_client().get("/test-remote-address", headers=FROM_PROXY)
    assert seen == ["203.0.113.7"]


def test_signing_in_over_https_through_the_proxy(configured, new_game, rows):
    proxied = configured(TRUSTED_PROXY_HOPS=1, WTF_CSRF_ENABLED=True)
    with proxied.app_context():
        add_user(db.session, "Owner", PASSWORD)
        rate_limiter.reset()
    client = proxied.test_client()
    game_id = new_game(["Ann", "Bob"])

    def token() -> str:
        """The session's CSRF token, from the sign-in form (a page with a form at any time)."""
        return parse(client.get("/login", headers=FROM_PROXY)).value("csrf_token")

    def write_a_hand() -> int:
        hand = hand_form(0, {1: 10}, 1) | {"csrf_token": token()}
        return client.post(f"/games/{game_id}/hands", data=hand, headers=FROM_A_PAGE).status_code

    assert write_a_hand() == 401
    form = {"name": "Owner", "password": PASSWORD, "next": "/", "csrf_token": token()}
    signed_in = client.post("/login", data=form, headers=FROM_A_PAGE)
    assert signed_in.status_code in (302, 303)
    assert "; Secure" in signed_in.headers["Set-Cookie"]
    assert write_a_hand() == 303
    assert rows("hands") == 1


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/"),
        ("get", "/games/{game}/share"),
        ("get", "/no-such-page"),
        ("post", "/games/new"),
        ("get", "/api/v1/games"),
        ("post", "/api/v1/no-such-thing"),
    ],
)
def test_a_host_outside_trusted_hosts_gets_a_plain_400(configured, new_game, method, path):
    client = configured(TRUSTED_HOSTS=["scores.example"], WTF_CSRF_ENABLED=True).test_client()
    game_id = new_game(2)
    response = getattr(client, method)(path.format(game=game_id), headers={"Host": "evil.example"})
    assert response.status_code == 400
    assert response.mimetype == "text/plain"
    assert "evil.example" not in response.get_data(as_text=True)


def test_a_host_outside_trusted_hosts_gets_a_400_in_owner_mode_too(configured, new_game):
    secured = configured(TRUSTED_HOSTS=["scores.example"], WTF_CSRF_ENABLED=True)
    with secured.app_context():
        add_user(db.session, "Owner", PASSWORD)
    game_id = new_game(2)
    client = secured.test_client()
    for method, path in (("get", "/games/new"), ("post", f"/games/{game_id}/hands")):
        response = getattr(client, method)(path, headers={"Host": "evil.example"})
        assert (response.status_code, response.mimetype) == (400, "text/plain")


def test_a_listed_host_is_served_and_its_name_is_in_the_links(configured, new_game):
    client = configured(TRUSTED_HOSTS=["scores.example"]).test_client()
    game_id = new_game(2)
    page = client.get(f"/games/{game_id}/share", headers={"Host": "scores.example"})
    assert page.status_code == 200
    assert parse(page).by_id("game-link").attrs["href"] == f"http://scores.example/games/{game_id}"


def test_the_forwarded_host_is_checked_against_trusted_hosts(configured):
    client = configured(TRUSTED_PROXY_HOPS=1, TRUSTED_HOSTS=["scores.example"]).test_client()
    assert client.get("/", headers=FROM_PROXY).status_code == 200
    spoofed = FROM_PROXY | {"X-Forwarded-Host": "evil.example"}
    assert client.get("/", headers=spoofed).status_code == 400


def test_without_trusted_hosts_any_host_ends_up_in_the_share_link(client, new_game):
    """Why the README and docs/deploy.md tell a server on the internet to set TRUSTED_HOSTS."""
    game_id = new_game(2)
    page = parse(client.get(f"/games/{game_id}/share", headers={"Host": "evil.example"}))
    assert page.by_id("game-link").attrs["href"] == f"http://evil.example/games/{game_id}"


@pytest.fixture
def instance(tmp_path, monkeypatch) -> Iterator:
    """A fresh instance folder, the app configured as `scorer serve` would be, from the
    environment and instance/config.py."""
    monkeypatch.setenv("SCORER_INSTANCE_PATH", str(tmp_path))
    for name in ("DATABASE_URL", "TRUSTED_PROXY_HOPS", "TRUSTED_HOSTS"):
        monkeypatch.delenv(name, raising=False)
    yield tmp_path


def test_the_settings_come_from_the_environment(instance, monkeypatch):
    monkeypatch.setenv("TRUSTED_PROXY_HOPS", "1")
    monkeypatch.setenv("TRUSTED_HOSTS", "scores.example, .scores.example")
    app = create_app()
    assert app.config["TRUSTED_PROXY_HOPS"] == 1
    assert app.config["TRUSTED_HOSTS"] == ["scores.example", ".scores.example"]


def test_the_settings_come_from_instance_config(instance):
    (instance / "config.py").write_text(
        'TRUSTED_PROXY_HOPS = 2\nTRUSTED_HOSTS = ["scores.example"]\n'
    )
    app = create_app()
    assert app.config["TRUSTED_PROXY_HOPS"] == 2
    assert app.config["TRUSTED_HOSTS"] == ["scores.example"]


def test_by_default_no_proxy_is_trusted_and_every_host_is_answered(instance):
    app = create_app()
    assert app.config["TRUSTED_PROXY_HOPS"] == 0
    assert app.config["TRUSTED_HOSTS"] is None


def test_a_negative_hop_count_is_refused(instance, monkeypatch):
    monkeypatch.setenv("TRUSTED_PROXY_HOPS", "-1")
    with pytest.raises(ValueError, match="TRUSTED_PROXY_HOPS"):
        create_app()


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")
def test_the_sqlite_file_is_readable_by_its_owner_alone(instance):
    app = create_app()
    with app.app_context():
        from flask_migrate import upgrade

        upgrade()
        add_user(db.session, "Owner", PASSWORD)
        db.engine.dispose()
    database = instance / "scorer.sqlite"
    assert database.stat().st_size > 0
    assert stat.S_IMODE(database.stat().st_mode) == 0o600
    assert stat.S_IMODE((instance / "secret_key").stat().st_mode) == 0o600


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")
def test_an_older_world_readable_sqlite_file_is_made_private(instance):
    database = instance / "scorer.sqlite"
    database.touch()
    database.chmod(0o644)
    create_app()
    assert stat.S_IMODE(database.stat().st_mode) == 0o600


def test_https_without_a_proxy_gets_hsts_too(client):
    """A server given the certificate itself (or a WSGI server told it is HTTPS)."""
    response = client.get("/", base_url="https://scores.example")
    assert response.headers["Strict-Transport-Security"].startswith("max-age=")
