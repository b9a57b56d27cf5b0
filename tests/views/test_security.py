"""CSRF protection, escaping of names people type, and the headers every response carries."""

import json

import pytest
from conftest import make_app
from document import HTMX, parse
from factories import hand_form

from scorer.extensions import db

XSS_NAME = "<script>alert(1)</script>"


@pytest.fixture
def guarded(app):
    """The same app and database with CSRF protection on, as in production."""
    secured = make_app(app.config["SQLALCHEMY_DATABASE_URI"], WTF_CSRF_ENABLED=True)
    yield secured.test_client()
    with secured.app_context():
        db.session.remove()
        db.engine.dispose()


def page_token(client, url: str) -> str:
    """The CSRF token a page puts in its form."""
    return parse(client.get(url)).value("csrf_token")


def test_a_hand_posted_without_a_csrf_token_is_refused(guarded, new_game, rows):
    game_id = new_game(2)
    response = guarded.post(f"/games/{game_id}/hands", data=hand_form(0, {1: 10}, 1))
    assert response.status_code == 400
    assert "This form is out of date" in parse(response).find("h1").text
    assert rows("hands") == 0


def test_a_hand_posted_with_a_wrong_token_is_refused(guarded, new_game, rows):
    game_id = new_game(2)
    guarded.get(f"/games/{game_id}")
    data = hand_form(0, {1: 10}, 1) | {"csrf_token": "not-the-token"}
    assert guarded.post(f"/games/{game_id}/hands", data=data).status_code == 400
    assert rows("hands") == 0


def test_a_hand_posted_with_the_pages_token_is_saved(guarded, new_game, rows):
    game_id = new_game(2)
    token = page_token(guarded, f"/games/{game_id}")
    data = hand_form(0, {1: 10}, 1) | {"csrf_token": token}
    assert guarded.post(f"/games/{game_id}/hands", data=data).status_code == 303
    assert rows("hands") == 1


def test_htmx_sends_the_token_in_a_header_set_on_the_body(guarded, new_game, rows):
    game_id = new_game(2)
    body = parse(guarded.get(f"/games/{game_id}")).find("body")
    headers = json.loads(body.attrs["hx-headers"])
    response = guarded.post(
        f"/games/{game_id}/hands", data=hand_form(0, {1: 10}, 1), headers={**HTMX, **headers}
    )
    assert response.status_code == 200
    assert rows("hands") == 1


def test_every_other_post_needs_the_token_too(guarded, new_game, play, rows):
    finished = new_game(["Ann", "Bob"], target=10)
    play(finished, 0, {1: 10})
    start = {"players-0": "Cat", "players-1": "Dan", "action": "start", "target": "500"}
    assert guarded.post("/games/new", data=start).status_code == 400
    assert guarded.post(f"/games/{finished}/rematch").status_code == 400
    assert guarded.post(f"/games/{finished}/hands/1/undo").status_code == 400
    edit = hand_form(0, {1: 3}, 1)
    assert guarded.post(f"/games/{finished}/hands/1/edit", data=edit).status_code == 400
    assert (rows("games"), rows("players"), rows("hands")) == (1, 2, 1)

    token = page_token(guarded, "/games/new")
    assert guarded.post("/games/new", data=start | {"csrf_token": token}).status_code == 303
    assert rows("games") == 2


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/games/new",
        "/games/{game}",
        "/games/{game}/hands/1/edit",
        "/games/{game}/hands/1/undo",
    ],
)
def test_a_players_name_is_shown_as_text_never_run(client, new_game, play, path):
    game_id = new_game([XSS_NAME, "Bob"])
    play(game_id, 0, {1: 10})
    response = client.get(path.format(game=game_id))
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert XSS_NAME not in body
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body
    page = parse(body)
    # Every script on the page is one of ours, loaded from a file.
    assert all(script.attrs.get("src") for script in page.find_all("script"))
    assert XSS_NAME in page.text


def test_a_name_in_a_posted_form_comes_back_escaped(client):
    data = {"players-0": "Ann", "new_name": XSS_NAME, "action": "add", "target": "500"}
    response = client.post("/games/new", data=data)
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert XSS_NAME not in body
    assert parse(body).value("players-1") == XSS_NAME


@pytest.mark.parametrize(
    ("method", "path", "headers"),
    [
        ("get", "/", {}),
        ("get", "/games/new", {}),
        ("get", "/games/{game}", {}),
        ("get", "/rules/challenge", {}),
        ("get", "/games/9999", {}),
        ("post", "/games/{game}/hands", HTMX),
    ],
)
def test_every_response_carries_the_security_headers(client, new_game, method, path, headers):
    game_id = new_game(2)
    response = getattr(client, method)(path.format(game=game_id), headers=headers)
    csp = response.headers["Content-Security-Policy"]
    directives = dict(
        (part.split(" ", 1) + [""])[:2] for part in (d.strip() for d in csp.split(";")) if part
    )
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in csp
    assert "unsafe-eval" not in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"]


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/games/new",
        "/games/{game}",
        "/games/{game}/hands/1/edit",
        "/games/{game}/hands/1/undo",
        "/rules/",
    ],
)
def test_pages_need_no_inline_script_or_style(client, new_game, play, path):
    """What lets the Content-Security-Policy stay strict."""
    game_id = new_game(3)
    play(game_id, 0, {1: 10, 2: 5})
    page = parse(client.get(path.format(game=game_id)))
    for node in page.iter():
        if node.tag == "script":
            assert node.attrs.get("src") and not node.text, node
        assert node.tag != "style", node
        assert "style" not in node.attrs, node
        assert not [name for name in node.attrs if name.startswith("on")], node
        assert not node.attrs.get("href", "").startswith("javascript:"), node


def policy(response) -> dict[str, str]:
    csp = response.headers["Content-Security-Policy"]
    return dict((part.strip().split(" ", 1) + [""])[:2] for part in csp.split(";") if part.strip())


def test_a_static_file_opened_as_a_document_may_load_and_run_nothing(client):
    """An SVG is a document when opened on its own: it gets the strictest policy."""
    with client.get("/static/icons/icon.svg") as svg:
        svg.get_data()
    assert policy(svg) == {"default-src": "'none'", "frame-ancestors": "'none'"}
    assert svg.headers["X-Content-Type-Options"] == "nosniff"


def test_the_worker_may_fetch_and_import_from_the_site_only(client):
    worker = policy(client.get("/sw.js"))
    # connect-src and script-src, the directives that apply to a worker, fall back to default-src.
    assert worker == {"default-src": "'self'"}
