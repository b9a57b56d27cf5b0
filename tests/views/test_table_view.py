"""A game's table view: the scoreboard in large type for a tablet between the players, no pad."""

from __future__ import annotations

import json

from document import HTMX, parse
from views.test_budgets import headers_size

IDLE_POLL_BUDGET = 1024


def test_the_table_view_shows_scores_dealer_and_last_hand_and_follows_the_game(
    client, new_game, play
):
    game_id = new_game(["Ann", "Bob", "Cat"], target=200)
    play(game_id, 1, {0: 12, 2: 30})
    page = parse(client.get(f"/games/{game_id}/table"))
    assert page.by_id("hand-form") is None
    sides = [" ".join(side.text.split()) for side in page.select(".table-side")]
    assert sides[0].startswith("Bob score 42 158 to go · 1 hand won")
    assert "Bob deals hand 2." in page.by_id("table-board-title").parent.text
    assert " ".join(page.by_id("last-hand").text.split()) == "Last hand (1): Bob went out, +42."

    poller = page.by_id("poll")
    headers = {**HTMX, **json.loads(poller.attrs["hx-headers"])}
    idle = client.get(poller.attrs["hx-get"], headers=headers)
    assert idle.status_code == 304
    assert len(idle.get_data()) + headers_size(idle) <= IDLE_POLL_BUDGET

    play(game_id, 0, {1: 5, 2: 5})
    moved = client.get(poller.attrs["hx-get"], headers=headers)
    assert moved.status_code == 200
    fragment = parse(moved.get_data(as_text=True))
    assert fragment.by_id("scoreboard").attrs["hx-swap-oob"] == "true"
    assert "Last hand (2): Ann went out, +10." in " ".join(fragment.by_id("last-hand").text.split())
    assert client.get(poller.attrs["hx-get"]).status_code == 303


def test_the_share_page_links_to_the_table_view(client, new_game):
    game_id = new_game(2)
    share = parse(client.get(f"/games/{game_id}/share"))
    assert share.by_id("table-view-link").attrs["href"] == f"/games/{game_id}/table"
    assert client.get("/games/999/table").status_code == 404
