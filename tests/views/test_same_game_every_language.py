"""The same game, played through the app in every language, stands the same in every language.

Each language (chosen by the phone's cookie) plays the same hands through the pad's form, in each
mode, and the game page is read where the markup says it without words: each side's score, its
place in the ranking, the progress bar's target and value (the distance to the target), the
numbers in each row's status and in each hand of the history, the next hand's number and who deals
the next hands (data-next, data-dealers), and the dealer's name on the deal line. A language that
only changes words shows the same numbers; one that does not translate at all is caught too.
"""

from __future__ import annotations

import re

import pseudo_language
import pytest
from document import Element, parse
from factories import hand_form
from flask import Flask
from flask.testing import FlaskClient

from scorer.languages import COOKIE, DEFAULT_LANGUAGE, LANGUAGES

OTHERS = [code for code in LANGUAGES if code != DEFAULT_LANGUAGE]
NUMBER = re.compile(r"\d+")
# Each mode's players and hands, by seat: who went out, then the others' cards or totals.
GAMES = {
    "standard": (
        ["Ann", "Bob", "Cat", "Dan"],
        500,
        [
            (0, {1: ["3", "skip"], 2: ["wild", "draw2"], 3: ["8"]}),
            (2, {0: ["5"], 1: ["wild4"], 3: 29}),
            (1, {0: 12, 2: ["9", "reverse"], 3: ["blank"]}),
        ],
    ),
    "partners": (
        ["Ann", "Bob", "Cat", "Dan"],
        500,
        [(0, {1: 30, 3: ["7", "wild"]}), (3, {0: ["draw2"], 2: 41})],
    ),
    "challenge": (
        ["Ann", "Bob", "Cat"],
        200,
        [(0, {1: ["wild4", "wild4", "wild", "draw2"], 2: ["9"]}), (2, {0: 20, 1: 33})],
    ),
    "individual": (
        ["Ann", "Bob", "Cat", "Dan"],
        500,
        [(1, {0: ["7"], 2: ["skip"], 3: 15}), (3, {0: 4, 1: ["wild"], 2: 6})],
    ),
}


def numbers(text: str) -> list[int]:
    """The numbers in a text, in order, whatever the words around them."""
    return [int(number) for number in NUMBER.findall(text)]


def own_text(element: Element) -> str:
    """The element's text outside its child elements (a score beside its hidden label)."""
    return "".join(child for child in element.children if isinstance(child, str))


def standing(page: Element) -> dict:
    """What the game page says about where the game stands, read without reading words."""
    board = page.by_id("scoreboard")
    assert board is not None
    rows = []
    for side in board.select(".standings > .side"):
        progress = side.select_one("progress")
        meta = side.select_one(".side-meta")
        rows.append(
            {
                "side": side.attrs["data-side"],
                "seats": [player.attrs["data-seat"] for player in side.select(".player")],
                "score": numbers(own_text(side.select_one(".score"))),
                "to go": None
                if progress is None
                else int(progress.attrs["max"]) - int(progress.attrs["value"]),
                "status": sorted(numbers(meta.text)) if meta else [],
            }
        )
    deal_line = board.select_one(".deal-line strong")
    history = page.select(".history .hand-counts, .history .hand-head")
    return {
        "sides": rows,
        "next": board.attrs.get("data-next"),
        "dealers": board.attrs.get("data-dealers"),
        "dealer": deal_line.text if deal_line else None,
        "hands": [sorted(numbers(hand.text)) for hand in history],
    }


def words(page: Element) -> str:
    """The scoreboard's and the pad's words, without the names and numbers in them."""
    text = " ".join(page.select_one("main").get_text(" ").split())
    for name in ("Ann", "Bob", "Cat", "Dan"):
        text = text.replace(name, "")
    return NUMBER.sub("", text)


def play_in(client: FlaskClient, mode: str, language: str) -> tuple[str, dict]:
    """Starts the mode's game on the setup form and plays its hands, in `language`."""
    client.set_cookie(COOKIE, language)
    names, target, hands = GAMES[mode]
    form = {f"players-{seat}": name for seat, name in enumerate(names)}
    form.update(action="start", mode=mode, target=str(target), first_dealer="0", new_name="")
    started = client.post("/games/new", data=form)
    assert started.status_code in (302, 303), started.get_data(as_text=True)[:500]
    url = started.headers["Location"]
    game_id = int(url.rstrip("/").rsplit("/", 1)[-1])
    for number, (went_out, counts) in enumerate(hands, start=1):
        saved = client.post(f"/games/{game_id}/hands", data=hand_form(went_out, counts, number))
        assert saved.status_code in (302, 303), saved.get_data(as_text=True)[:500]
    page = client.get(f"/games/{game_id}")
    assert page.status_code == 200
    parsed = parse(page)
    assert parsed.find("html").attrs["lang"] == language.replace("_", "-")
    return words(parsed), standing(parsed)


@pytest.mark.parametrize("mode", GAMES)
def test_the_pseudo_language_changes_every_word_and_no_number(
    app: Flask, mode: str, monkeypatch: pytest.MonkeyPatch, tmp_path
):
    """Where the test below reads a page holds in a language whose every marked word differs."""
    pseudo_language.add_to(app, tmp_path, monkeypatch)
    english_words, english = play_in(app.test_client(), mode, DEFAULT_LANGUAGE)
    said, stands = play_in(app.test_client(), mode, pseudo_language.CODE)
    assert stands == english
    assert said != english_words, "no word on the game page is marked for translation"


@pytest.mark.parametrize("mode", GAMES)
def test_the_same_hands_stand_the_same_in_every_language(app: Flask, mode: str):
    english_words, english = play_in(app.test_client(), mode, DEFAULT_LANGUAGE)
    assert english["sides"] and all(side["score"] for side in english["sides"])
    assert len(english["hands"]) >= len(GAMES[mode][2])
    untranslated = []
    for language in OTHERS:
        said, stands = play_in(app.test_client(), mode, language)
        assert stands == english, f"{mode} in {language}"
        if said == english_words:
            untranslated.append(language)
    assert not untranslated, f"the {mode} game page is in English in {', '.join(untranslated)}"
