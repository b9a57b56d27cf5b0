"""A first visit to a game in another language: as light as in English, and in that language only.

German has the longest words of the app's languages and Korean the most bytes per character (three
in UTF-8, where Brotli finds fewer repeats): each must stay within the first visit's 40 KB, counted
as tests/views/test_budgets.py counts English. And the page, its script, its stylesheets and the
offline page the worker fetches carry that language's words only: no sentence of another
language's catalog, nor the English one where the language says it otherwise; the page's script
must not bring every language along.
"""

from __future__ import annotations

import html
import json
import re
from functools import cache

import pytest
from babel.messages.pofile import read_po
from document import parse
from pseudo_language import TRANSLATIONS, fresh_template
from views.test_budgets import FIRST_VISIT_BUDGET, PLAYERS, first_visit, play_hands

from scorer.languages import COOKIE, DEFAULT_LANGUAGE, LANGUAGES

# A piece of a sentence this long, between its slots, is found in another language's text only by
# being that sentence; a shorter one ("Undo", "Total") may be a loan word or a name.
LONG_ENOUGH = 12
SLOTS = re.compile(r"%\(\w+\)[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]|\{\w+\}|<[^<>]*>")


@cache
def sentences(code: str) -> dict[tuple, str]:
    """Each message's text in a language (the source for English), the first form of a plural."""
    if code == DEFAULT_LANGUAGE:
        catalog = fresh_template()
    else:
        with (TRANSLATIONS / code / "LC_MESSAGES" / "messages.po").open("rb") as file:
            catalog = read_po(file, locale=code)
    said = {}
    for message in catalog:
        if not message.id:
            continue
        ids = tuple(message.id) if isinstance(message.id, (list, tuple)) else (message.id,)
        if code == DEFAULT_LANGUAGE:
            text = ids[0]
        else:
            strings = (
                message.string if isinstance(message.string, (list, tuple)) else [message.string]
            )
            text = strings[0] if strings else ""
        if text:
            said[message.context, ids] = text
    return said


def foreign_pieces(language: str) -> dict[str, str]:
    """Pieces of other languages' sentences, each with its language, that `language` never says."""
    own = sentences(language)
    # A piece the language says too, inside its own sentences (a command, a brand), is its own.
    everything_own = "\n".join(html.unescape(text) for text in own.values())
    pieces = {}
    for other in [DEFAULT_LANGUAGE, *LANGUAGES]:
        if other == language:
            continue
        for key, text in sentences(other).items():
            if own.get(key) == text:
                continue  # the same words in both languages
            for piece in SLOTS.split(html.unescape(text)):
                piece = piece.strip()
                if len(piece) >= LONG_ENOUGH and " " in piece and piece not in everything_own:
                    pieces[piece] = other
    return pieces


def client_words(client, game_id: int) -> dict:
    page = parse(client.get(f"/games/{game_id}"))
    return json.loads(page.find("html").attrs["data-client"])["words"]


@pytest.mark.parametrize("language", ["de", "ko"])
def test_a_first_visit_in_another_language_stays_within_40_kb_and_in_that_language(
    app, new_game, play, language: str
):
    game_id = new_game(PLAYERS)
    play_hands(play, game_id, 8)
    english = client_words(app.test_client(), game_id)

    client = app.test_client()
    client.set_cookie(COOKIE, language)
    total, urls = first_visit(client, game_id)
    assert total <= FIRST_VISIT_BUDGET, f"{total} bytes in {language}"

    page = parse(client.get(f"/games/{game_id}"))
    assert page.find("html").attrs["lang"] == language
    words = client_words(client, game_id)
    same = [
        key
        for key, text in words.items()
        if text == english.get(key) and re.search(r"[^\W\d_]", SLOTS.sub("", text))
    ]
    assert not same, f"the script's words in English on a page in {language}: {same}"

    pieces = foreign_pieces(language)
    found = []
    for url in urls:
        # Closed at once: a static file's answer holds the file open.
        with client.get(url) as response:
            text = html.unescape(response.get_data().decode("utf-8", "replace"))
        found += [f"{url}: {piece!r} ({other})" for piece, other in pieces.items() if piece in text]
    assert not found, "\n".join(found)
