"""The deck in play on the game page, its tally pad and the rules page (no JavaScript)."""

import json

import pytest
from document import parse

from scorer import scoring
from scorer.extensions import db
from scorer.services import games

CLASSIC = scoring.Deck(blanks=0)


@pytest.fixture
def deck_game(app):
    """Start a game of `players` with `deck` and give its id."""

    def start(deck: scoring.Deck, players=("Ann", "Bob", "Cat")) -> int:
        with app.app_context():
            return games.create_game(db.session, "standard", list(players), deck=deck).id

    return start


def keys(page) -> list[str]:
    return [
        node.attrs["data-card"]
        for node in page.find("div", class_="keys").find_all("button")
        if "data-card" in node.attrs
    ]


def test_a_deck_with_blanks_has_a_blank_key_labelled_with_its_value(client, deck_game):
    game_id = deck_game(scoring.Deck(blank_value=25))
    page = parse(client.get(f"/games/{game_id}"))
    key = page.find("button", data_card="blank")
    assert key.text == "Blank 25"
    assert key.attrs["aria-label"] == "Add a blank card: 25 points"
    assert key.attrs["value"] == "card:blank"
    # The +50 key stays for the wild cards.
    assert (
        page.find("button", data_card="50").attrs["aria-label"] == "Add 50: Wild or Wild Draw Four"
    )
    pad = json.loads(page.find("form", id="hand-form").attrs["data-pad"])
    assert pad["values"]["blank"] == 25
    assert ["blank cards", ["blank"], 4] in pad["limits"]
    assert ["50-point wild cards", ["50", "wild4"], 8] in pad["limits"]


def test_a_classic_deck_has_no_blank_key(client, deck_game):
    page = parse(client.get(f"/games/{deck_game(CLASSIC)}"))
    assert page.find("button", data_card="blank") is None
    assert "blank" not in keys(page)
    pad = json.loads(page.find("form", id="hand-form").attrs["data-pad"])
    assert "blank" not in pad["values"]


def test_two_decks_double_the_pads_limits(client, deck_game):
    page = parse(client.get(f"/games/{deck_game(scoring.Deck(copies=2))}"))
    pad = json.loads(page.find("form", id="hand-form").attrs["data-pad"])
    assert ["0s", ["0"], 8] in pad["limits"]
    assert ["50-point wild cards", ["50", "wild4"], 16] in pad["limits"]
    assert ["blank cards", ["blank"], 8] in pad["limits"]


def test_tapping_blank_without_javascript_counts_its_value(client, deck_game, state_of):
    game_id = deck_game(scoring.Deck(blank_value=30), players=("Ann", "Bob"))
    url = f"/games/{game_id}/hands"
    data = {"number": "1", "went_out": "0", "active": "1", "counts-1-cards": "7"}
    page = parse(client.post(url, data=data | {"action": "card:blank"}))
    assert page.value("counts-1-cards") == "7 blank"
    row = page.find("div", class_="tally", data_seat="1")
    assert row.find(data_tape="").text == "7 · 30"
    assert row.find(data_points="").text == "37"
    response = client.post(url, data=data | {"counts-1-cards": "7 blank", "action": "save"})
    assert response.status_code == 303
    assert [side.score for side in state_of(game_id).sides] == [37, 0]


def test_a_fifth_blank_is_refused_next_to_the_hands_that_hold_them(client, deck_game, rows):
    game_id = deck_game(scoring.Deck())
    data = {
        "number": "1",
        "went_out": "0",
        "counts-1-cards": "blank blank blank",
        "counts-2-cards": "blank blank",
        "action": "save",
    }
    response = client.post(f"/games/{game_id}/hands", data=data)
    assert response.status_code == 422
    page = parse(response)
    for seat in (1, 2):
        error = page.by_id(f"counts-{seat}-deck-1")
        assert error.text == "5 blank cards counted, but the deck has only 4."
        assert (error["data-deck"], error["data-counted"], error["data-limit"]) == (
            "blank cards",
            "5",
            "4",
        )
        typed = page.find("input", name=f"counts-{seat}-points")
        assert typed["aria-describedby"].split() == [f"counts-{seat}-deck-1"]
    assert rows("hands") == 0


def test_a_deck_refusal_carries_its_numbers_for_the_script_to_match_against_the_pads_limits(
    client, deck_game, rows
):
    game_id = deck_game(scoring.Deck())
    data = {
        "number": "1",
        "went_out": "0",
        "counts-1-cards": "wild4 wild4 5",
        "counts-2-cards": "wild4 wild4",
        "last_card": "wild4",
        "action": "save",
    }
    response = client.post(f"/games/{game_id}/hands", data=data)
    assert response.status_code == 422
    page = parse(response)
    pad = json.loads(page.find("form", id="hand-form").attrs["data-pad"])
    assert pad["last_cards"]["wild4"] == "wild4"
    limits = {kind: (tokens, limit) for kind, tokens, limit in pad["limits"]}
    for seat in (1, 2):
        notes = page.find("div", class_="tally", data_seat=str(seat)).select(".error[data-deck]")
        assert [(note["data-deck"], note["data-counted"], note["data-pile"]) for note in notes] == [
            ("Wild Draw Fours", "4", "1")
        ]
        tokens, limit = limits[notes[0]["data-deck"]]
        assert ("wild4" in tokens, limit) == (True, int(notes[0]["data-limit"]))
        assert notes[0].text == (
            "4 Wild Draw Fours counted, but with the last card played the hands hold at most 3."
        )
    assert rows("hands") == 0
    del data["last_card"]
    assert client.post(f"/games/{game_id}/hands", data=data).status_code == 303


@pytest.mark.parametrize(
    ("deck", "line"),
    [
        (scoring.Deck(), "Deck: retail 112 cards, blanks worth 50"),
        (CLASSIC, "Deck: classic 108 cards"),
        (scoring.Deck(copies=2, blanks=0), "Deck: two classic decks, 216 cards"),
        (
            scoring.Deck(copies=2, blank_value=0),
            "Deck: two retail decks, 224 cards, blanks worth 0",
        ),
    ],
)
def test_the_game_page_says_which_deck_is_in_play_and_links_its_rules(
    client, deck_game, deck, line
):
    game_id = deck_game(deck)
    page = parse(client.get(f"/games/{game_id}"))
    shown = page.find("p", class_="deck-line")
    assert " ".join(shown.text.split()) == line
    rules = parse(client.get(shown.find("a").attrs["href"]))
    said = rules.find("p", class_="deck-in-play").text
    assert " ".join(said.split()) == f"This game plays the {deck.name}."
    assert f"{deck.max_points:,} points in all" in rules.find("section").text


def test_the_rules_page_without_a_game_names_the_default_deck(client):
    page = parse(client.get("/rules/"))
    said = " ".join(page.find("p", class_="deck-in-play").text.split())
    assert said.startswith("A new game plays the retail 112 cards, blanks worth 50")
    assert "One deck holds 4 zeros" in page.text
    said = " ".join(page.text.split())
    assert "a hand ending on a Wild Draw Four leaves at most 3 in the hands" in said
    assert "1,440 points in all" in page.text


@pytest.mark.parametrize(
    "query",
    ["copies=3&blanks=0&blank_value=50", "copies=1&blanks=4", "copies=x&blanks=0&blank_value=1"],
)
def test_the_rules_page_ignores_a_deck_no_game_could_have(client, query):
    page = parse(client.get(f"/rules/partners?{query}"))
    assert page.find("p", class_="deck-in-play").text.lstrip().startswith("A new game plays")


def test_two_decks_double_every_count_on_the_rules_page(client):
    page = parse(client.get("/rules/challenge?copies=2&blanks=4&blank_value=10"))
    assert "Two decks hold 8 zeros, 16 of each of 1–9" in page.text
    assert "and 8 blank cards: 2,560 points in all" in page.text
    assert "10 in this game" in page.text


def test_a_rematch_plays_the_same_deck(app, play):
    deck = scoring.Deck(copies=2, blanks=4, blank_value=10)
    with app.app_context():
        game_id = games.create_game(db.session, "standard", ["Ann", "Bob"], 10, deck=deck).id
    play(game_id, 0, {1: ["blank", "blank"]})
    with app.app_context():
        rematch = games.rematch(db.session, game_id)
        assert games.load_game(db.session, rematch.id).state.rules.deck == deck
