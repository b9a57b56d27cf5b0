"""The poll that keeps an open game page current: 304 while nothing changed, then the parts to swap.

The page's poller sends the game's version as If-None-Match; the server answers from one small
query, keeps no state between polls, and stops the polling once the game is over.
"""

from __future__ import annotations

import json

import pytest
from document import HTMX, parse

from scorer.extensions import db
from scorer.models import Game


def poller(page):
    return page.by_id("poll")


def if_none_match(page) -> str:
    """The If-None-Match header the page's poller sends."""
    return json.loads(poller(page).attrs["hx-headers"])["If-None-Match"]


def poll(client, game_id: int, tag: str | None, **headers):
    sent = {**HTMX, **headers}
    if tag is not None:
        sent["If-None-Match"] = tag
    return client.get(f"/games/{game_id}/live", headers=sent)


def test_the_game_page_polls_every_few_seconds_with_its_version(client, new_game):
    game_id = new_game(["Ann", "Bob", "Cat"])
    page = parse(client.get(f"/games/{game_id}"))
    element = poller(page)
    assert element.attrs["hx-get"] == f"/games/{game_id}/live"
    assert element.attrs["hx-trigger"].startswith("every 3s")
    assert element.attrs["hx-swap"] == "none"
    assert if_none_match(page) == f'W/"game-{game_id}-v0"'


def test_nothing_new_is_a_304_from_one_query_without_a_body(client, new_game, count_queries):
    game_id = new_game(["Ann", "Bob", "Cat"])
    tag = if_none_match(parse(client.get(f"/games/{game_id}")))
    poll(client, game_id, tag)  # anything cached on first use is cached now
    with count_queries() as statements:
        response = poll(client, game_id, tag)
    assert response.status_code == 304
    assert response.data == b""
    assert response.headers["ETag"] == tag
    assert len(statements) == 1
    assert "no-cache" in response.headers["Cache-Control"]


def test_a_hand_recorded_elsewhere_sends_the_parts_to_swap(client, new_game, play):
    game_id = new_game(["Ann", "Bob", "Cat"])
    tag = if_none_match(parse(client.get(f"/games/{game_id}")))
    play(game_id, 0, {1: ["3", "skip"], 2: ["wild"]})  # another phone: Ann 73

    response = poll(client, game_id, tag)
    assert response.status_code == 200
    assert response.headers["ETag"] == f'W/"game-{game_id}-v1"'
    part = parse(response)
    # Each part replaces its namesake on the page, out of band; nothing else is sent.
    swapped = [node.attrs["id"] for node in part.find_all(hx_swap_oob="true")]
    assert swapped == ["scoreboard", "play", "history", "chart", "poll"]
    assert part.find("html") is None and part.find("header") is None
    board = part.by_id("scoreboard")
    assert board.attrs["data-version"] == "1"
    assert board.attrs["data-announce"] == "Scores: Ann 73, Bob 0, Cat 0. Bob deals hand 2."
    assert "Hand 1 Ann went out, +73" in part.by_id("history").text
    # The pad for the next hand (the page keeps its own if a tally is being entered there).
    assert part.value("number") == "2"
    # The new poller asks from the new version on.
    assert if_none_match(part) == response.headers["ETag"]
    assert poll(client, game_id, response.headers["ETag"]).status_code == 304


@pytest.mark.parametrize("change", ["edit", "undo"])
def test_an_edit_or_an_undo_elsewhere_is_news_too(client, new_game, play, app, change):
    game_id = new_game(["Ann", "Bob"])
    play(game_id, 0, {1: 10})
    tag = if_none_match(parse(client.get(f"/games/{game_id}")))
    if change == "edit":
        form = {"number": "1", "went_out": "0", "counts-1-points": "12", "action": "save"}
        assert client.post(f"/games/{game_id}/hands/1/edit", data=form).status_code == 303
    else:
        assert client.post(f"/games/{game_id}/hands/1/undo").status_code == 303
    response = poll(client, game_id, tag)
    assert response.status_code == 200
    score = "12" if change == "edit" else "0"
    assert f"Ann {score}" in parse(response).by_id("scoreboard").attrs["data-announce"]


def test_the_poll_that_sees_the_end_stops_the_polling(client, new_game, play):
    game_id = new_game(["Ann", "Bob"], target=50)
    tag = if_none_match(parse(client.get(f"/games/{game_id}")))
    play(game_id, 1, {0: 60})
    part = parse(poll(client, game_id, tag))
    # The poller is replaced by an element with nothing to trigger, and the pad by the result.
    stopped = poller(part)
    assert stopped.attrs.get("hx-swap-oob") == "true"
    assert "hx-trigger" not in stopped.attrs and "hx-get" not in stopped.attrs
    assert part.by_id("result") is not None and part.find("form", id="hand-form") is None
    assert part.by_id("scoreboard").attrs["data-announce"] == "Bob wins with 60."
    # A finished game's page does not poll at all.
    assert poller(parse(client.get(f"/games/{game_id}"))) is None


def test_a_poll_without_a_version_gets_the_current_parts(client, new_game):
    game_id = new_game(2)
    response = poll(client, game_id, None)
    assert response.status_code == 200
    assert response.headers["ETag"] == f'W/"game-{game_id}-v0"'


def test_a_page_in_another_language_is_not_current(client, new_game):
    """The parts hold words: a page read in German is brought up to date in English, not told
    with a 304 that it is current."""
    game_id = new_game(2)
    response = poll(client, game_id, f'W/"game-{game_id}-v0.de"')
    assert response.status_code == 200
    assert response.headers["ETag"] == f'W/"game-{game_id}-v0"'


def test_the_poll_answers_vary_on_htmx_and_compression(client, new_game):
    game_id = new_game(2)
    for response in (poll(client, game_id, None), poll(client, game_id, 'W/"game-1-v0"')):
        vary = {value.strip() for value in response.headers["Vary"].split(",")}
        assert {"HX-Request", "Accept-Encoding"} <= vary


def test_a_plain_browser_is_sent_to_the_game_page(client, new_game):
    game_id = new_game(2)
    response = client.get(f"/games/{game_id}/live")
    assert response.status_code == 303
    assert response.headers["Location"] == f"/games/{game_id}"
    assert "HX-Request" in response.headers["Vary"]


def test_an_unknown_game_is_a_404(client):
    assert poll(client, 9999, None).status_code == 404
    assert poll(client, 10**12, None).status_code == 404


def test_the_version_moves_with_every_change_and_only_then(client, new_game, play, app):
    game_id = new_game(2)

    def version() -> int:
        with app.app_context():
            return db.session.get(Game, game_id).version

    client.get(f"/games/{game_id}")
    assert version() == 0
    play(game_id, 0, {1: 5})
    assert version() == 1
    client.get(f"/games/{game_id}/live", headers=HTMX)
    assert version() == 1
