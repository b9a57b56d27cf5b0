"""Form fields whose index or id is digits no form sends (superscripts, thousands of digits):
ignored or refused like any wrong value, never a 500 from int()."""

from __future__ import annotations

import pytest

HUGE = "9" * 5000


@pytest.mark.parametrize("league", [HUGE, "²", "0", "abc"])
def test_a_standings_filter_that_is_no_league_id_shows_every_league(client, league):
    response = client.get(f"/standings/?league={league}")
    assert response.status_code == 200


@pytest.mark.parametrize("index", [HUGE, "²", "123"])
def test_a_rotation_player_field_with_an_index_no_form_makes_is_ignored(client, rows, index):
    response = client.post(
        "/leagues/new", data={"name": "Club", "target": "100", "format": "rotation"}
    )
    assert response.status_code == 303
    data = {f"players-{i}": f"P{i}" for i in range(8)}
    data[f"players-{index}"] = "Zed"
    assert client.post("/leagues/1/seasons", data=data).status_code == 303
    assert rows("players") == 8
