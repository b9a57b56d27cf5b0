"""The home page (games to resume, then finished ones) and the rules summary."""

import re

import pytest
from document import parse


def game_links(section) -> list[str]:
    return [node.attrs["href"] for node in section.find_all("a", class_="game-link")]


def test_an_empty_home_page_offers_a_new_game(client):
    response = client.get("/")
    assert response.status_code == 200
    page = parse(response)
    assert page.find("a", href="/games/new") is not None
    assert "No game in progress." in page.text
    assert page.find(id="finished-title") is None


def test_games_in_progress_come_before_finished_ones(client, new_game, play):
    finished = new_game(["Ann", "Bob"], target=20)
    play(finished, 0, {1: 5})
    play(finished, 1, {0: 25})
    waiting = new_game(["Cat", "Dan", "Eve"])
    playing = new_game(["Fay", "Gus"])
    play(playing, 1, {0: ["skip", "3"]})

    page = parse(client.get("/"))
    links = game_links(page)
    assert links == [f"/games/{playing}", f"/games/{waiting}", f"/games/{finished}"]
    sections = page.find_all("section")
    assert sections[0].find("h1").text == "Games in progress"
    assert sections[1].find("h2").text == "Recently finished"
    assert game_links(sections[0]) == [f"/games/{playing}", f"/games/{waiting}"]
    assert game_links(sections[1]) == [f"/games/{finished}"]

    # When each game was played is checked in tests/views/test_cleanup.py.
    # In English, the medium date and the short time: "Dec 2, 2026, 4:10 AM".
    when = re.compile(r" (started|finished) \w{3} \d{1,2}, \d{4}, \d{1,2}:\d\d\s[AP]M UTC")
    texts = [when.sub("", node.text) for node in page.find_all("a", class_="game-link")]
    assert texts[0] == "Fay, Gus Standard to 500 · hand 2 · Gus leads with 23 Resume"
    assert texts[1] == "Cat, Dan, Eve Standard to 500 · no hands yet Resume"
    assert texts[2] == "Bob won Standard to 20 · 2 hands · Ann, Bob"


@pytest.mark.parametrize(
    ("path", "heading"),
    [
        ("/rules/", "Standard game"),
        ("/rules/partners", "Partners"),
        ("/rules/challenge", "Challenge UNO"),
        ("/rules/individual", "Individual play"),
    ],
)
def test_the_rules_of_each_mode(client, path, heading):
    response = client.get(path)
    assert response.status_code == 200
    page = parse(response)
    assert page.find("h2").text == heading
    values = {row.find("th").text: row.find("td").text for row in page.find("table").find_all("tr")}
    assert values["Skip, Reverse, Draw Two"] == "20 each"
    assert values["Wild, Wild Draw Four"] == "50 each"


def test_the_standard_rules_have_one_address(client):
    response = client.get("/rules/standard")
    assert response.status_code == 308
    assert response.headers["Location"].endswith("/rules/")


def test_an_unknown_mode_has_no_rules_page(client):
    assert client.get("/rules/poker").status_code == 404


def test_the_game_page_links_to_the_rules_of_its_mode(client, new_game):
    game_id = new_game(4, mode="partners")
    page = parse(client.get(f"/games/{game_id}"))
    # With the game's deck, so the rules page can say which deck is in play.
    rules = "/rules/partners?copies=1&blanks=4&blank_value=50"
    assert page.find("a", href=rules) is not None


def test_an_unknown_page_is_a_friendly_404(client):
    response = client.get("/no/such/page")
    assert response.status_code == 404
    assert parse(response).find("h1").text == "There is no such page."


def test_the_rules_say_how_individual_play_and_the_eight_player_rotation_end(client):
    individual = " ".join(parse(client.get("/rules/individual")).text.split())
    assert "lasts 12 hands" in individual
    assert "the most points in total decide" in individual
    assert "the win is shared" in individual
    partners = " ".join(parse(client.get("/rules/partners")).text.split())
    assert "28 hands" in partners and "7 rounds" in partners
    assert "each table plays 2 hands" in partners
    assert "ranked by the points their partnerships won" in partners
