"""Sharing a game: a page with the game's link and its QR code, an SVG the strict CSP allows."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest
import segno
from document import parse

SVG = "{http://www.w3.org/2000/svg}"


def test_the_game_page_has_a_share_button(client, new_game):
    game_id = new_game(2)
    link = parse(client.get(f"/games/{game_id}")).by_id("share-game")
    assert link.attrs["href"] == f"/games/{game_id}/share"
    assert link.text == "Share"


def test_the_share_page_shows_the_link_and_the_code(client, new_game):
    game_id = new_game(["Ann", "Bob"])
    page = parse(client.get(f"/games/{game_id}/share", base_url="http://192.168.1.20:8000"))
    link = f"http://192.168.1.20:8000/games/{game_id}"
    assert page.by_id("game-link").attrs["href"] == link
    image = page.find("img", class_="qr")
    assert image.attrs["src"] == f"/games/{game_id}/qr.svg"
    assert image.attrs["alt"] == f"QR code for {link}"
    assert page.find(class_="notice") is None  # an address other phones can reach


@pytest.mark.parametrize("host", ["localhost:8000", "127.0.0.1:8000", "[::1]:8000"])
def test_a_page_opened_as_localhost_says_that_link_only_works_here(client, new_game, host):
    game_id = new_game(2)
    page = parse(client.get(f"/games/{game_id}/share", base_url=f"http://{host}"))
    assert "only works on this computer" in page.find(class_="notice").text


def test_the_qr_code_is_an_svg_without_style_or_script(client, new_game):
    game_id = new_game(2)
    response = client.get(f"/games/{game_id}/qr.svg", base_url="http://192.168.1.20:8000")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    root = ET.fromstring(response.data)
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox")  # scales to the size the page gives it
    for element in root.iter():
        assert element.tag not in (f"{SVG}style", f"{SVG}script", f"{SVG}foreignObject")
        assert "style" not in element.attrib
        assert not any(name.startswith("on") for name in element.attrib)


def test_the_qr_code_holds_the_game_link(client, new_game):
    game_id = new_game(2)
    link = f"http://192.168.1.20:8000/games/{game_id}"
    response = client.get(f"/games/{game_id}/qr.svg", base_url="http://192.168.1.20:8000")
    # segno makes the same symbol from the same text, so compare with a code made here.
    expected = io.BytesIO()
    segno.make_qr(link, error="m").save(
        expected,
        kind="svg",
        border=4,
        omitsize=True,
        dark="#000",
        light="#fff",
        xmldecl=False,
        title=f"QR code for {link}",
    )
    assert response.data == expected.getvalue()
    assert f"QR code for {link}" in response.get_data(as_text=True)


def test_an_unknown_game_has_no_share_page_or_code(client):
    assert client.get("/games/9999/share").status_code == 404
    assert client.get("/games/9999/qr.svg").status_code == 404
