"""Lists that stay small however big the club: the roster page and the leagues page are read a
page at a time, with a More link that works as a plain link and through htmx, and a search."""

from __future__ import annotations

import pytest
from document import HTMX, parse
from flask import Flask

from scorer.extensions import db
from scorer.services import games, leagues, pages, players
from scorer.services.transactions import in_transaction


@pytest.fixture
def small_pages(monkeypatch) -> None:
    monkeypatch.setattr(pages, "PAGE_SIZE", 2)


def add_players(app: Flask, *names: str) -> None:
    with app.app_context(), in_transaction(db.session):
        players.find_or_add(db.session, list(names))


def names_on(page) -> list[str]:
    return [node.text for node in page.select(".roster-entry .roster-name")]


def more_link(page) -> str | None:
    link = page.select_one(".more a")
    return link["href"] if link else None


def test_the_roster_page_shows_a_page_and_a_more_link_to_the_rest(app, client, small_pages):
    add_players(app, "Eve", "dan", "Cat", "Bob", "Ann")
    page = parse(client.get("/players/"))
    assert names_on(page) == ["Ann", "Bob"]
    seen = names_on(page)
    while (link := more_link(page)) is not None:
        page = parse(client.get(link))
        seen += names_on(page)
    assert seen == ["Ann", "Bob", "Cat", "dan", "Eve"]


def test_through_htmx_more_answers_only_the_next_rows_to_append(app, client, small_pages):
    add_players(app, "Cat", "Bob", "Ann")
    link = more_link(parse(client.get("/players/")))
    response = client.get(link, headers=HTMX)
    body = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "<h1" not in body and body.lstrip().startswith("<li")
    assert names_on(parse(body)) == ["Cat"]
    assert more_link(parse(body)) is None


def test_a_player_added_between_pages_is_neither_repeated_nor_skipped(app, client, small_pages):
    add_players(app, "Ann", "Bob", "Dan", "Eve")
    first = parse(client.get("/players/"))
    add_players(app, "Aaron", "Cat")
    second = parse(client.get(more_link(first)))
    third = parse(client.get(more_link(second)))
    assert names_on(first) + names_on(second) + names_on(third) == [
        "Ann",
        "Bob",
        "Cat",
        "Dan",
        "Eve",
    ]


def test_the_roster_page_finds_names_with_a_plain_form_and_through_htmx(app, client, small_pages):
    add_players(app, "Annie", "Bob", "JoAnn", "Hanna", "Dan")
    page = parse(client.get("/players/"))
    search = page.select_one("form[role=search]")
    assert search["method"] == "get"
    assert search.select_one("input[name=q]")["hx-get"] == "/players/"
    page = parse(client.get("/players/?q=ANN"))
    assert names_on(page) == ["Annie", "Hanna"]
    assert names_on(parse(client.get(more_link(page)))) == ["JoAnn"]
    response = client.get("/players/?q=ann", headers=HTMX)
    assert names_on(parse(response)) == ["Annie", "Hanna"]
    nobody = parse(client.get("/players/?q=zz"))
    assert names_on(nobody) == [] and "Nobody on the roster" in nobody.text


def test_a_cursor_the_server_did_not_give_is_a_400(client):
    response = client.get("/players/?cursor=not-a-cursor")
    assert response.status_code == 400
    assert "first page" in response.get_data(as_text=True)


def test_the_roster_page_takes_the_same_queries_however_big_the_roster(app, client, count_queries):
    add_players(app, "Ann", "Bob")
    with app.app_context():
        games.create_game(db.session, "standard", ["Ann", "Bob"])
    with count_queries() as before:
        client.get("/players/")
    add_players(app, *(f"Player {number}" for number in range(120)))
    with app.app_context():
        games.create_game(db.session, "standard", ["Player 1", "Player 2", "Ann"])
    with count_queries() as after:
        response = client.get("/players/")
    assert len(after) == len(before)
    assert len(names_on(parse(response))) == pages.PAGE_SIZE


def test_the_leagues_page_is_paged_by_name_with_a_more_link(app, client, small_pages):
    with app.app_context():
        for name in ("Cup", "Autumn", "Spring"):
            leagues.create_league(db.session, name, 200)
    page = parse(client.get("/leagues/"))
    shown = [node.text for node in page.select(".game-list .game-names")]
    assert shown == ["Autumn", "Cup"]
    rest = client.get(more_link(page), headers=HTMX)
    assert [node.text for node in parse(rest).select(".game-names")] == ["Spring"]
    assert more_link(parse(rest)) is None


def test_the_home_page_shows_the_latest_games_in_progress_and_a_more_link(app, client, monkeypatch):
    monkeypatch.setattr(pages, "PLAYING_SHOWN", 2)
    with app.app_context():
        started = [games.create_game(db.session, "standard", ["Ann", "Bob"]).id for _ in range(3)]
    page = parse(client.get("/"))
    shown = [link["href"] for link in page.select(".game-list .game-link")]
    assert shown == [f"/games/{started[2]}", f"/games/{started[1]}"]
    rest = client.get(more_link(page), headers=HTMX)
    assert [link["href"] for link in parse(rest).select(".game-link")] == [f"/games/{started[0]}"]
    assert more_link(parse(rest)) is None
    assert client.get("/?cursor=WyJwbGF5aW5nIiwibm8iLDFd").status_code == 400


def test_a_league_page_offers_a_bounded_list_of_names_to_pick(app, client, monkeypatch):
    monkeypatch.setattr(pages, "NAMES_OFFERED", 3)
    add_players(app, "Ann", "Bob", "Cat", "Dan", "Eve")
    with app.app_context():
        league = leagues.create_league(db.session, "Cup", 200)
        games.create_game(db.session, "standard", ["Eve", "Dan"])
    offered = parse(client.get(f"/leagues/{league.id}")).select("datalist#roster-names option")
    assert [option["value"] for option in offered] == ["Dan", "Eve", "Ann"]


def test_the_merge_page_offers_a_bounded_choice_and_finds_the_others(app, client, monkeypatch):
    monkeypatch.setattr(pages, "CHOICES", 2)
    add_players(app, "Ann", "Bob", "Cat", "Zed", "Zack")

    def offered(response) -> list[str]:
        return [option.text for option in parse(response).select("select#other option")][1:]

    assert offered(client.get("/players/1/merge")) == ["Bob", "Cat"]
    assert offered(client.get("/players/1/merge?q=ZA")) == ["Zack"]
    # A player posted is accepted wherever the name sorts.
    with app.app_context():
        zed = players.find_or_add(db.session, ["Zed"])[0].id
    assert client.post("/players/1/merge", data={"other": str(zed)}).status_code == 303
