"""What no cache may keep: pages made for a signed-in user or a scorer link's holder, and whatever
shows a secret, say `Cache-Control: no-store`; a visitor's pages and static files keep caching."""

from __future__ import annotations

import sqlalchemy as sa
from document import HTMX, parse

from scorer.assets import static_url
from scorer.extensions import db
from scorer.models import User
from scorer.services.accounts import set_password


def test_every_page_and_fragment_for_a_signed_in_user_is_no_store(organiser, new_game):
    game_id = new_game(2)
    answers = [
        organiser.get("/"),
        organiser.get(f"/games/{game_id}"),
        organiser.get(f"/games/{game_id}/share"),
        organiser.get("/games/new"),
        organiser.get("/players"),
        organiser.get(f"/games/{game_id}/live", headers=HTMX),
        organiser.get("/no-such-page"),
    ]
    assert [(a.mimetype, a.headers.get("Cache-Control")) for a in answers] == [
        ("text/html", "no-store")
    ] * len(answers)


def test_the_page_showing_a_new_scorer_links_token_and_opening_it_are_no_store(
    app, organiser, new_game
):
    game_id = new_game(2)
    made = organiser.post(f"/games/{game_id}/scorer-link")
    assert made.status_code == 201
    assert made.headers["Cache-Control"] == "no-store"
    path = parse(made).by_id("scorer-link").attrs["href"].removeprefix("http://localhost")
    table = app.test_client()
    opened = table.get(path)
    assert opened.status_code == 303 and opened.headers["Cache-Control"] == "no-store"
    # The holder's pages carry the CSRF token that lets them record: no-store too.
    assert table.get(f"/games/{game_id}").headers["Cache-Control"] == "no-store"
    # A used or wrong token is not kept either.
    assert app.test_client().get(path + "x").headers["Cache-Control"] == "no-store"


def test_a_visitors_pages_and_static_files_keep_caching(app, organiser, client, new_game):
    game_id = new_game(2)
    assert "no-store" not in client.get(f"/games/{game_id}").headers.get("Cache-Control", "")
    assert "no-store" not in client.get("/").headers.get("Cache-Control", "")
    with app.test_request_context():
        asset = static_url("css/app.css")
    for who in (client, organiser):
        with who.get(asset) as cached:
            assert cached.headers["Cache-Control"] == "public, max-age=31536000, immutable"


def test_a_signed_in_users_pages_say_whose_they_are_for_the_service_worker(app, organiser, client):
    mark = organiser.get("/").headers["X-Account"]
    assert len(mark) == 24 and organiser.get("/players").headers["X-Account"] == mark
    assert "X-Account" not in client.get("/").headers
    # Not the session key itself, and a new one once the session is ended.
    with app.app_context():
        user = db.session.scalar(sa.select(User))
        assert mark not in user.session_key
        set_password(db.session, user, "a brand new passphrase")
    assert "X-Account" not in organiser.get("/").headers
    again = app.test_client()
    again.post("/login", data={"name": "Owner", "password": "a brand new passphrase"})
    assert again.get("/").headers["X-Account"] not in ("", mark)
