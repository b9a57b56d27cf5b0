"""Sharing a game: a page with the game's link and its QR code, an SVG the strict CSP allows."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import cairosvg
import pytest
import zxingcpp
from document import parse
from PIL import Image

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


def read_qr_codes(svg: bytes, page_color: str) -> list[str]:
    """The texts a QR reader (zxing-cpp) finds in the SVG drawn at phone size on a page."""
    png = cairosvg.svg2png(bytestring=svg, output_width=300, background_color=page_color)
    return [code.text for code in zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))]


@pytest.mark.parametrize("page_color", ["white", "black"])  # the dark theme too
def test_a_qr_reader_finds_the_game_link_in_the_code(client, new_game, page_color):
    game_id = new_game(2)
    response = client.get(f"/games/{game_id}/qr.svg", base_url="http://192.168.1.20:8000")
    link = f"http://192.168.1.20:8000/games/{game_id}"
    assert read_qr_codes(response.data, page_color) == [link]
    assert f"QR code for {link}" in response.get_data(as_text=True)


def test_an_unknown_game_has_no_share_page_or_code(client):
    assert client.get("/games/9999/share").status_code == 404
    assert client.get("/games/9999/qr.svg").status_code == 404
