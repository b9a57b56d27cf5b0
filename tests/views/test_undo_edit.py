"""Correcting the score sheet: editing any hand, undoing the last one."""

import json

from document import HTMX, error_for, form_errors, parse
from factories import hand_form


def edit_url(game_id: int, number: int) -> str:
    return f"/games/{game_id}/hands/{number}/edit"


def undo_url(game_id: int, number: int) -> str:
    return f"/games/{game_id}/hands/{number}/undo"


def scores(state) -> list[int]:
    return [side.score for side in state.sides]


# Editing


def test_the_edit_page_is_filled_with_the_hand(client, new_game, play):
    game_id = new_game(["Ann", "Bob", "Cat"])
    play(game_id, 1, {0: ["3", "wild"], 2: 17})
    play(game_id, 0, {1: 5, 2: 5})
    response = client.get(edit_url(game_id, 1))
    assert response.status_code == 200
    page = parse(response)
    assert page.find(class_="pad-title").text == "Edit hand 1"
    assert page.find("form", id="hand-form").attrs["action"] == edit_url(game_id, 1)
    assert page.find("input", name="went_out", value="1").attrs.get("checked") is not None
    assert page.find("input", name="went_out", value="0").attrs.get("checked") is None
    assert page.value("counts-0-cards") == "3 wild"
    assert page.value("counts-2-points") == "17"
    assert "Bob scores 70" in page.find(class_="summary").text


def test_an_edit_recomputes_totals_and_who_won(client, new_game, play, state_of):
    game_id = new_game(["Ann", "Bob", "Cat"], target=100)
    play(game_id, 0, {1: 30, 2: 20})  # Ann 50
    play(game_id, 1, {0: 10, 2: 15})  # Bob 25
    play(game_id, 0, {1: 40, 2: 5})  # Ann 95
    assert scores(state_of(game_id)) == [95, 25, 0]

    # Hand 2 was really Cat going out, with a Wild left to Ann and a 9 and a Skip to Bob: 79.
    data = hand_form(2, {0: ["wild"], 1: ["9", "skip"]}, 2)
    response = client.post(edit_url(game_id, 2), data=data)
    assert response.status_code == 303
    # The game page names the hand that changed, to say so.
    assert response.headers["Location"] == f"/games/{game_id}?updated=2"
    state = state_of(game_id)
    assert scores(state) == [95, 0, 79]
    assert [side.hands_won for side in state.sides] == [2, 0, 1]
    assert state.winner is None

    # Hand 3 was worth 5 more: Ann reaches 100 exactly and wins.
    response = client.post(edit_url(game_id, 3), data=hand_form(0, {1: 45, 2: 5}, 3))
    assert response.status_code == 303
    state = state_of(game_id)
    assert scores(state) == [100, 0, 79]
    assert state.winner == 0
    page = parse(client.get(f"/games/{game_id}"))
    assert page.find(id="result-title").text == "🏆 Ann wins with 100!"


def test_an_edit_from_htmx_redirects_on_the_client(client, new_game, play):
    game_id = new_game(2)
    play(game_id, 0, {1: 10})
    response = client.post(edit_url(game_id, 1), data=hand_form(0, {1: 11}, 1), headers=HTMX)
    assert response.status_code == 200
    assert response.headers["HX-Redirect"] == f"/games/{game_id}?updated=1"


def test_an_edit_that_ends_the_game_before_later_hands_is_refused(client, new_game, play, state_of):
    game_id = new_game(2, target=100)
    play(game_id, 0, {1: 30})
    play(game_id, 1, {0: 10})
    play(game_id, 0, {1: 20})
    before = state_of(game_id)
    response = client.post(edit_url(game_id, 1), data=hand_form(0, {1: 100}, 1))
    assert response.status_code == 422
    messages = form_errors(parse(response))
    # Ann would have won in hand 1, so hands 2 and 3 could not have been played.
    assert any(message.startswith("Hand 2 ") for message in messages)
    assert any(message.startswith("Hand 3 ") for message in messages)
    assert state_of(game_id) == before
    assert scores(before) == [50, 10]


def test_an_edit_that_eliminates_a_player_counted_later_is_refused(
    client, new_game, play, state_of
):
    game_id = new_game(["Ann", "Bob", "Cat"], mode="challenge", target=100)
    play(game_id, 0, {1: 50, 2: 10})
    play(game_id, 0, {1: 20, 2: 10})
    before = state_of(game_id)
    # With 100 in hand 1, Bob would be out of the game, yet hand 2 counts his cards.
    response = client.post(edit_url(game_id, 1), data=hand_form(0, {1: 100, 2: 10}, 1))
    assert response.status_code == 422
    (message,) = form_errors(parse(response))
    assert message.startswith("Hand 2 ")
    assert "Bob" in message
    assert state_of(game_id) == before
    assert scores(before) == [0, 70, 20]


def test_an_edit_with_a_bad_count_is_refused_next_to_it(client, new_game, play, state_of):
    game_id = new_game(3)
    play(game_id, 0, {1: 30, 2: 20})
    before = state_of(game_id)
    response = client.post(edit_url(game_id, 1), data=hand_form(0, {1: 30, 2: 1441}, 1))
    assert response.status_code == 422
    page = parse(response)
    assert error_for(page, "counts-2") == "1441 is more than a whole deck holds (1440)."
    assert page.find(class_="pad-title").text == "Edit hand 1"
    response = client.post(edit_url(game_id, 1), data=hand_form(None, {1: 30, 2: 20}, 1))
    assert response.status_code == 422
    assert error_for(parse(response), "went_out") == "Tap who went out."
    assert state_of(game_id) == before


def test_pad_taps_on_the_edit_page_save_nothing(client, new_game, play, state_of):
    game_id = new_game(2)
    play(game_id, 0, {1: ["5"]})
    data = {"number": "1", "went_out": "0", "counts-1-cards": "5", "action": "card:8"}
    response = client.post(edit_url(game_id, 1), data=data)
    assert response.status_code == 200
    page = parse(response)
    assert page.value("counts-1-cards") == "5 8"
    assert scores(state_of(game_id)) == [5, 0]


def test_editing_a_hand_that_does_not_exist_is_404(client, new_game, play):
    game_id = new_game(2)
    play(game_id, 0, {1: 10})
    assert client.get(edit_url(game_id, 2)).status_code == 404
    assert client.post(edit_url(game_id, 2), data=hand_form(0, {1: 3}, 2)).status_code == 404


# Undoing


def test_the_undo_page_asks_first(client, new_game, play, state_of):
    game_id = new_game(["Ann", "Bob"])
    play(game_id, 1, {0: ["skip", "4"]})
    response = client.get(undo_url(game_id, 1))
    assert response.status_code == 200
    page = parse(response)
    assert page.find("h1").text == "Undo hand 1?"
    assert "Bob went out and scored 24." in page.text
    assert page.find("form", action=undo_url(game_id, 1)) is not None
    assert state_of(game_id).next_hand_number == 2


def test_undo_removes_the_last_hand_and_totals_go_back(client, new_game, play, state_of, rows):
    game_id = new_game(3, first_dealer=2)
    play(game_id, 0, {1: 30, 2: 20})
    play(game_id, 1, {0: 10, 2: 15})
    response = client.post(undo_url(game_id, 2))
    assert response.status_code == 303
    assert response.headers["Location"].startswith(f"/games/{game_id}?")
    state = state_of(game_id)
    assert scores(state) == [50, 0, 0]
    # Cat dealt hand 1, so Ann deals hand 2 again.
    assert state.dealer == 0
    assert rows("hands") == 1
    assert parse(client.get(f"/games/{game_id}")).value("number") == "2"


def test_an_undo_without_the_script_puts_the_hand_back_on_the_pad(client, new_game, play):
    # Saved with a mistake (5 typed for 50): undone from its confirmation page, the game page
    # shows the hand on the pad as it was saved, to be fixed and saved again, not an empty pad.
    game_id = new_game(["Ann", "Bob", "Cat"])
    play(game_id, 0, {1: 30, 2: 20})
    saved = client.post(
        f"/games/{game_id}/hands",
        data={**hand_form(2, {0: ["3", "wild4"], 1: 5}, 2), "last_card": "draw2"},
    )
    assert saved.status_code == 303
    response = client.post(undo_url(game_id, 2))
    assert response.status_code == 303
    page = parse(client.get(response.headers["Location"]))
    assert page.value("number") == "2"
    assert page.find("input", name="went_out", value="2").attrs.get("checked") is not None
    assert page.value("counts-0-cards") == "3 wild4"
    assert page.value("counts-1-points") == "5"
    assert page.find("input", name="last_card", value="draw2").attrs.get("checked") is not None
    assert "Cat scores 58" in page.find(class_="summary").text
    # Once the hand is saved again, the same address is old news: the pad starts empty.
    play(game_id, 2, {0: ["3", "wild4"], 1: 50})
    page = parse(client.get(response.headers["Location"]))
    assert page.value("number") == "3"
    assert page.select("input[name=went_out][checked]") == []
    assert page.value("counts-0-cards") == ""


def test_only_the_last_hand_can_be_undone(client, new_game, play, state_of, rows):
    game_id = new_game(2)
    play(game_id, 0, {1: 30})
    play(game_id, 1, {0: 10})
    response = client.post(undo_url(game_id, 1))
    assert response.status_code == 409
    assert "only the last" in parse(response).find(class_="notice").text
    assert rows("hands") == 2
    assert scores(state_of(game_id)) == [30, 10]


def test_undoing_the_winning_hand_puts_the_game_back_in_play(client, new_game, play, state_of):
    game_id = new_game(["Ann", "Bob"], target=50)
    play(game_id, 0, {1: 30})
    play(game_id, 0, {1: 20})
    assert state_of(game_id).winner == 0
    response = client.post(undo_url(game_id, 2), headers=HTMX)
    assert response.status_code == 200
    assert response.headers["HX-Redirect"].startswith(f"/games/{game_id}?")
    state = state_of(game_id)
    assert state.winner is None
    assert scores(state) == [30, 0]
    page = parse(client.get(f"/games/{game_id}"))
    assert page.find(class_="result") is None
    assert page.find("form", id="hand-form") is not None
    home = parse(client.get("/"))
    assert home.find("a", href=f"/games/{game_id}").text.endswith("Resume")


def test_an_undone_hand_is_back_on_the_pad_to_fix_and_save_again(client, new_game, state_of):
    game_id = new_game(["Ann", "Bob", "Cat", "Dan"])
    # Saved with a mistake: 5 typed for Dan's 8.
    mistake = {**hand_form(0, {1: ["3", "20"], 2: ["50", "20"], 3: 5}, 1), "last_card": "draw2"}
    # The Undo of the "Hand 1 saved" note.
    for headers in ({**HTMX, "HX-Target": "game"},):
        assert client.post(f"/games/{game_id}/hands", data=mistake).status_code == 303
        response = client.post(undo_url(game_id, 1), headers=headers)
        assert response.status_code == 200
        page = parse(response)
        pad = page.find("form", id="hand-form")
        assert pad.attrs["action"] == f"/games/{game_id}/hands"
        assert page.value("number") == "1"
        assert pad.find("input", name="went_out", value="0").has_attr("checked")
        assert pad.find("input", name="last_card", value="draw2").has_attr("checked")
        assert page.value("counts-1-cards") == "3 20"
        assert page.value("counts-2-cards") == "50 20"
        assert page.value("counts-3-points") == "5"
        assert pad.find(class_="summary").text == "Ann scores 98"
        assert state_of(game_id).next_hand_number == 1
    # Fixed (8 typed for 5) and saved again, from the pad as it came back.
    fields = {field["name"]: field.get("value", "") for field in pad.find_all("input")}
    fields.update({"went_out": "0", "last_card": "draw2", "counts-3-points": "8", "action": "save"})
    assert client.post(f"/games/{game_id}/hands", data=fields).status_code == 303
    assert scores(state_of(game_id))[0] == 101


def test_undoing_a_hand_that_does_not_exist_is_404(client, new_game):
    game_id = new_game(2)
    assert client.get(undo_url(game_id, 1)).status_code == 404
    assert client.post(undo_url(game_id, 1)).status_code == 404


def test_undo_from_the_saved_note_swaps_the_game_in_place(client, new_game, play, state_of):
    game_id = new_game(["Ann", "Bob"])
    play(game_id, 0, {1: 30})
    response = client.post(undo_url(game_id, 1), headers={**HTMX, "HX-Target": "game"})
    assert response.status_code == 200
    assert "HX-Redirect" not in response.headers
    body = response.get_data(as_text=True)
    assert body.lstrip().startswith('<div id="game"')
    page = parse(body)
    assert page.value("number") == "1"
    assert page.find("p", class_="toast") is None
    assert scores(state_of(game_id)) == [0, 0]


def test_the_edit_pad_counts_from_the_game_as_it_stood_before_the_hand(client, new_game, play):
    # Challenge: Bob is out after hand 1, yet hand 1's own pad still offers and counts him.
    game_id = new_game(["Ann", "Bob", "Cat"], mode="challenge", target=100)
    play(game_id, 0, {1: 100, 2: 5})
    play(game_id, 0, {2: 5})
    pad = parse(client.get(edit_url(game_id, 1))).find("form", id="hand-form")
    assert [chip.text for chip in pad.find_all("label", class_="radio-chip")][:3] == [
        "Ann",
        "Bob",
        "Cat",
    ]
    assert json.loads(pad.attrs["data-pad"])["counted"]["0"] == [1, 2]
    later = parse(client.get(edit_url(game_id, 2))).find("form", id="hand-form")
    assert json.loads(later.attrs["data-pad"])["counted"]["0"] == [2]
