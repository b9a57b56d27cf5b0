"""Pages are sent without indentation or blank lines (scorer/whitespace.py): safe only while no
page keeps white space."""

from __future__ import annotations

import re
from pathlib import Path

from document import parse

ROOT = Path(__file__).resolve().parents[2]


def test_no_template_or_stylesheet_keeps_white_space():
    for template in (ROOT / "templates").rglob("*.html"):
        assert not re.search(r"<(pre|textarea)\b", template.read_text()), template
    for sheet in (ROOT / "static" / "css").glob("*.css"):
        assert not re.search(r"white-space:\s*(pre|break-spaces)", sheet.read_text()), sheet


def test_a_page_is_sent_without_indentation_and_reads_the_same(client, new_game, play):
    game_id = new_game(["Ann", "Bob", "Cat"])
    play(game_id, 0, {1: 10, 2: 5})
    for path in (f"/games/{game_id}", "/offline", "/"):
        body = client.get(path).get_data(as_text=True)
        assert not re.search(r"\n[ \t\n]", body), path
    page = parse(client.get(f"/games/{game_id}"))
    assert page.find("h1").text.split() == ["Standard", "to", "500"]
