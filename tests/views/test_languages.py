"""The language a page is written in: who chooses it, the switch in the menu, and what the
responses say about it (Content-Language, Vary, the poll's tag)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from catalogs import GERMAN
from conftest import make_app
from document import HTMX, parse
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import gettext as _
from sqlalchemy import select

from scorer.extensions import db, rate_limiter
from scorer.languages import COOKIE_MAX_AGE
from scorer.models import User
from scorer.services.accounts import add_user

PASSWORD = "correct horse battery"


def lang(response) -> str:
    return parse(response).find("html").attrs["lang"]


@pytest.mark.parametrize(
    ("accept", "expected"),
    [
        (None, "en"),
        ("de", "de"),
        # A variety the app does not have reads the language it has.
        ("de-AT, en;q=0.5", "de"),
        ("pt", "pt-BR"),
        ("pt-PT", "pt-BR"),
        ("fr-CA;q=0.9, ko;q=1", "ko"),
        # A language the app does not have at all: the next the browser names, else English.
        ("nl-NL, es;q=0.4", "es"),
        ("nl-NL, sv", "en"),
    ],
)
def test_without_a_choice_the_browser_languages_choose(client, accept, expected):
    headers = {"Accept-Language": accept} if accept else {}
    response = client.get("/rules/", headers=headers)
    assert lang(response) == expected
    assert response.headers["Content-Language"] == expected


def test_the_phone_s_choice_comes_before_the_browser_s(client):
    client.set_cookie("language", "fr")
    assert lang(client.get("/", headers={"Accept-Language": "de"})) == "fr"
    # A cookie naming no language the app has is passed over.
    client.set_cookie("language", "tlh")
    assert lang(client.get("/", headers={"Accept-Language": "de"})) == "de"


def user_language(app: Flask, name: str = "Owner") -> str | None:
    with app.app_context():
        try:
            return db.session.scalar(select(User.language).where(User.name == name))
        finally:
            db.session.remove()


def set_user_language(app: Flask, language: str | None, name: str = "Owner") -> None:
    with app.app_context():
        user = db.session.scalar(select(User).where(User.name == name))
        assert user is not None
        user.language = language
        db.session.commit()
        db.session.remove()


def test_the_account_s_choice_comes_before_the_phone_s(app, organiser):
    organiser.set_cookie("language", "fr")
    headers = {"Accept-Language": "de"}
    assert lang(organiser.get("/", headers=headers)) == "fr"
    set_user_language(app, "es")
    assert lang(organiser.get("/", headers=headers)) == "es"
    # An account holding a language the app no longer has reads as if it had chosen none.
    set_user_language(app, "tlh")
    assert lang(organiser.get("/", headers=headers)) == "fr"


def test_pages_say_their_language_and_that_caches_must_tell_readers_apart(client):
    response = client.get("/", headers={"Accept-Language": "pt-BR"})
    assert response.headers["Content-Language"] == "pt-BR"
    assert {"Cookie", "Accept-Language"} <= set(response.vary)
    # A file that is the same in every language says nothing of the kind.
    with client.get(parse(response).find("script").attrs["src"]) as script:
        assert "Content-Language" not in script.headers
        assert "Accept-Language" not in script.vary


def test_the_menu_leads_to_every_language_in_its_own_name_the_current_one_marked(client):
    korean = {"Accept-Language": "ko"}
    menu = parse(client.get("/rules/", headers=korean)).find("ul", class_="menu-items")
    link = language_link(menu)
    assert link.attrs["href"] == "/language?next=/rules/"
    assert link.text.endswith("한국어")
    page = parse(client.get(link.attrs["href"], headers=korean))
    form = page.find("form", class_="language-choices")
    assert form.attrs["method"] == "post" and form.attrs["action"] == "/language"
    buttons = form.find_all("button")
    assert [(button.attrs["value"], button.text) for button in buttons] == [
        ("en", "English"),
        ("de", "Deutsch"),
        ("es", "Español"),
        ("fr", "Français"),
        ("pt_BR", "Português (Brasil)"),
        ("ko", "한국어"),
    ]
    assert all(button.attrs["name"] == "language" for button in buttons)
    assert [button.attrs["value"] for button in buttons if "aria-current" in button.attrs] == ["ko"]
    assert buttons[4].attrs["lang"] == "pt-BR"
    assert form.find("input", name="next").attrs["value"] == "/rules/"


def test_the_language_page_sends_nobody_elsewhere(client):
    for outside in ("https://evil.example/", "//evil.example/", "/\\evil.example/"):
        page = parse(client.get("/language", query_string={"next": outside}))
        assert page.find("input", name="next").attrs["value"] == "/"


def test_choosing_a_language_sets_the_cookie_for_a_year_and_goes_back(client):
    response = client.post("/language", data={"language": "de", "next": "/rules/"})
    assert response.status_code == 303
    assert response.headers["Location"] == "/rules/"
    cookie = client.get_cookie("language")
    assert cookie is not None and cookie.value == "de"
    header = response.headers["Set-Cookie"]
    assert f"Max-Age={COOKIE_MAX_AGE}" in header
    assert "HttpOnly" in header and "SameSite=Lax" in header
    # Plain HTTP on a home network: a Secure cookie would never come back.
    assert "Secure" not in header
    assert lang(client.get("/rules/", headers={"Accept-Language": "fr"})) == "de"


def test_over_https_the_cookie_is_secure(client):
    response = client.post(
        "/language", data={"language": "fr", "next": "/"}, base_url="https://localhost"
    )
    assert response.status_code == 303
    assert "Secure" in response.headers["Set-Cookie"]


@pytest.mark.parametrize("target", ["https://elsewhere.example/", "//elsewhere.example/", ""])
def test_only_a_page_of_this_site_is_gone_back_to(client, target):
    response = client.post("/language", data={"language": "es", "next": target})
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


def test_htmx_is_sent_to_the_whole_page_in_the_new_language(client):
    response = client.post("/language", data={"language": "ko", "next": "/players/"}, headers=HTMX)
    assert response.headers["HX-Redirect"] == "/players/"
    assert client.get_cookie("language").value == "ko"


@pytest.mark.parametrize("chosen", ["tlh", "", "de'; DROP", "pt-BR"])
def test_a_language_the_app_does_not_have_is_refused_with_a_message(app, organiser, chosen):
    organiser.set_cookie("language", "es")
    response = organiser.post("/language", data={"language": chosen, "next": "/rules/"})
    assert response.status_code == 422
    assert "language=" not in response.headers.get("Set-Cookie", "")
    message = parse(response).find("p", class_="error").text
    # Said in the language the phone reads, which stays Spanish.
    with app.test_request_context(headers={"Cookie": "language=es"}):
        refusals = (_("The scorer does not speak that language."), _("Choose a language."))
    assert message in refusals and "language" not in message
    assert organiser.get_cookie("language").value == "es"
    assert user_language(app) is None


def test_the_account_keeps_its_choice_for_a_new_phone(app, organiser):
    assert organiser.post("/language", data={"language": "ko", "next": "/"}).status_code == 303
    assert user_language(app) == "ko"
    # Another phone, which never chose and whose browser reads German: signed in, it reads Korean.
    phone = app.test_client()
    assert lang(phone.get("/", headers={"Accept-Language": "de"})) == "de"
    signed_in = phone.post("/login", data={"name": "Owner", "password": PASSWORD, "next": "/"})
    assert signed_in.status_code == 303
    assert phone.get_cookie("language") is None
    assert lang(phone.get("/", headers={"Accept-Language": "de"})) == "ko"
    # Signed out, the phone is the browser's again.
    phone.post("/logout")
    assert lang(phone.get("/", headers={"Accept-Language": "de"})) == "de"


def test_signed_out_a_choice_stays_on_the_phone(app, client):
    with app.app_context():
        rate_limiter.reset()
        add_user(db.session, "Owner", PASSWORD)
        db.session.commit()
        db.session.remove()
    assert client.post("/language", data={"language": "fr", "next": "/"}).status_code == 303
    assert user_language(app) is None
    assert lang(client.get("/")) == "fr"


def poll_tag(page) -> str:
    return json.loads(page.by_id("poll").attrs["hx-headers"])["If-None-Match"]


def test_the_poll_s_tag_follows_the_language(client, new_game):
    game_id = new_game(["Ann", "Bob"])
    url, live = f"/games/{game_id}", f"/games/{game_id}/live"
    english = poll_tag(parse(client.get(url)))
    german = poll_tag(parse(client.get(url, headers={"Accept-Language": "de"})))
    assert english != german
    # Each page's own language: nothing new.
    assert client.get(live, headers={**HTMX, "If-None-Match": english}).status_code == 304
    asked = {**HTMX, "If-None-Match": german, "Accept-Language": "de"}
    assert client.get(live, headers=asked).status_code == 304
    # The phone switched to German under the English page: the parts again, in German.
    switched = client.get(live, headers={**HTMX, "If-None-Match": english, "Accept-Language": "de"})
    assert switched.status_code == 200
    assert switched.headers["ETag"] == german
    assert switched.headers["Content-Language"] == "de"


def test_the_night_board_s_tag_follows_the_language_too(client):
    from scorer.views.nights import board_etag

    with client.application.test_request_context(headers={"Accept-Language": "fr"}):
        french = board_etag("board-1")
    with client.application.test_request_context():
        english = board_etag("board-1")
    assert french != english


def test_the_copy_mark_and_the_offline_page_are_in_the_page_s_language(client):
    offline = client.get("/offline", headers={"Accept-Language": "ko"})
    assert lang(offline) == "ko"
    assert offline.headers["Content-Language"] == "ko"
    assert {"Cookie", "Accept-Language"} <= set(offline.vary)
    mark = parse(client.get("/", headers={"Accept-Language": "ko"})).by_id("copy-mark")
    assert "{seen}" in mark.text


# --- With CSRF on, as a phone meets the app.


@pytest.fixture
def phone(app: Flask) -> Iterator[FlaskClient]:
    secured = make_app(app.config["SQLALCHEMY_DATABASE_URI"], migrate=False, WTF_CSRF_ENABLED=True)
    yield secured.test_client()
    with secured.app_context():
        db.session.remove()
        db.engine.dispose()


def language_link(page):
    """The menu's way to the language page."""
    return next(a for a in page.find_all("a") if a.attrs["href"].startswith("/language"))


def switch_form(phone: FlaskClient, path: str) -> dict[str, str]:
    """The hidden fields of the language page the menu leads to from `path`."""
    link = language_link(parse(phone.get(path)))
    form = parse(phone.get(link.attrs["href"])).find("form", class_="language-choices")
    return {node.attrs["name"]: node.attrs.get("value", "") for node in form.find_all("input")}


@pytest.mark.fresh_database
def test_the_switch_works_as_a_plain_form_post_with_its_token(phone):
    page = phone.get("/rules/")
    assert lang(page) == "en"
    assert parse(page).find("summary").text == "Menu"
    fields = switch_form(phone, "/rules/")
    assert fields["next"] == "/rules/" and fields["csrf_token"]
    response = phone.post("/language", data={**fields, "language": "de"})
    assert response.status_code == 303 and response.headers["Location"] == "/rules/"
    german = phone.get("/rules/")
    assert lang(german) == "de"
    assert parse(german).find("summary").text == GERMAN["Menu"]
    menu = parse(german).find("ul", class_="menu-items")
    assert language_link(menu).text == (GERMAN["Language"] + " · Deutsch")
    offline = parse(phone.get("/offline"))
    assert offline.find("h1").text == GERMAN["The scorer can't be reached"]
    # The script's words and the copy's mark come in German as well, its slot kept.
    page = parse(german)
    words = json.loads(page.find("html").attrs["data-client"])["words"]
    assert words["copyOffline"] == GERMAN["Offline · last seen {seen}"]
    assert page.by_id("copy-mark") is None or "{seen}" in page.by_id("copy-mark").text
    home = parse(phone.get("/"))
    assert home.by_id("copy-mark").text == GERMAN["Last seen %(seen)s · updating…"] % {
        "seen": "{seen}"
    }


@pytest.mark.fresh_database
def test_the_switch_without_its_token_changes_nothing(phone):
    phone.get("/")
    response = phone.post("/language", data={"language": "de", "next": "/"})
    assert response.status_code == 400
    assert "language=" not in response.headers.get("Set-Cookie", "")
    assert phone.get_cookie("language") is None
    assert lang(phone.get("/")) == "en"


def test_the_manifest_names_its_language(client):
    manifest = client.get("/manifest.webmanifest", headers={"Accept-Language": "pt-BR"})
    assert manifest.json["lang"] == "pt-BR"
    assert manifest.json["name"] == "UNO Scorer"
    assert {"Cookie", "Accept-Language"} <= set(manifest.vary)
