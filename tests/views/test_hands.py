"""Recording a hand from the tally pad, with and without htmx and JavaScript."""

import json

import pytest
from document import HTMX, error_for, form_errors, parse
from factories import hand_form


def hands_url(game_id: int) -> str:
    return f"/games/{game_id}/hands"


def scores(state) -> list[int]:
    return [side.score for side in state.sides]


def tally(page, seat: int):
    return page.find("div", class_="tally", data_seat=str(seat))


def tape(page, seat: int) -> tuple[str, str, str]:
    """(cards posted back, tape shown, points shown) for a seat's row on the pad."""
    row = tally(page, seat)
    return (
        page.value(f"counts-{seat}-cards"),
        row.find(data_tape="").text,
        row.find(data_points="").text,
    )


def test_saving_a_hand_redirects_to_the_game(client, new_game, state_of, rows):
    game_id = new_game()
    data = hand_form(0, {1: ["3", "skip"], 2: ["wild", "draw2"], 3: 8}, number=1)
    response = client.post(hands_url(game_id), data=data)
    assert response.status_code == 303
    # The address names the hand saved, so the page can say so until the next thing done.
    assert response.headers["Location"] == f"/games/{game_id}?saved=1"
    assert "HX-Request" in response.vary
    # 3 + 20, 50 + 20, and 8 typed: Ann scores 101.
    assert scores(state_of(game_id)) == [101, 0, 0, 0]
    assert rows("hands") == 1
    page = parse(client.get(response.headers["Location"]))
    assert page.find(class_="standings").find("li").find(class_="score").text == "score 101"
    note = page.find("p", class_="toast")
    assert note.find("span").text == "Hand 1 saved"
    undo = note.find("button")
    assert undo.attrs["form"] == "undo-saved"
    assert page.find("form", id="undo-saved").attrs["action"] == f"/games/{game_id}/hands/1/undo"


def test_the_saved_note_is_only_for_the_last_hand(client, new_game, play):
    game_id = new_game(3)
    play(game_id, 0, {1: 5, 2: 6})
    assert parse(client.get(f"/games/{game_id}")).find("p", class_="toast") is None
    assert parse(client.get(f"/games/{game_id}?saved=1")).find("p", class_="toast") is not None
    # An old address (the hand undone, or another hand saved since) says nothing.
    assert parse(client.get(f"/games/{game_id}?saved=2")).find("p", class_="toast") is None
    play(game_id, 1, {0: 5, 2: 6})
    assert parse(client.get(f"/games/{game_id}?saved=1")).find("p", class_="toast") is None


def test_saving_from_htmx_returns_the_game_fragment(client, new_game, state_of):
    game_id = new_game(3)
    response = client.post(hands_url(game_id), data=hand_form(1, {0: 12, 2: 30}, 1), headers=HTMX)
    assert response.status_code == 200
    assert "HX-Request" in response.vary
    body = response.get_data(as_text=True)
    assert body.lstrip().startswith('<div id="game"')
    assert "<html" not in body
    page = parse(body)
    # The fresh pad is for the next hand, empty, and says which hand was saved.
    assert page.value("number") == "2"
    assert page.find("input", name="went_out", checked="") is None
    assert page.find("p", class_="toast").find("span").text == "Hand 1 saved"
    assert scores(state_of(game_id)) == [0, 42, 0]


def test_a_boosted_request_gets_the_redirect_not_a_fragment(client, new_game):
    game_id = new_game(2)
    headers = {**HTMX, "HX-Boosted": "true"}
    response = client.post(hands_url(game_id), data=hand_form(0, {1: 5}, 1), headers=headers)
    assert response.status_code == 303


def test_the_last_card_is_shown_in_the_history(client, new_game):
    game_id = new_game(2)
    data = hand_form(0, {1: ["draw2", "4", "9"]}, 1) | {"last_card": "wild4"}
    assert client.post(hands_url(game_id), data=data).status_code == 303
    page = parse(client.get(f"/games/{game_id}"))
    assert page.find(class_="history").find(class_="badge").text == "ended on Wild Draw Four"


@pytest.mark.parametrize(
    ("counts", "field", "message"),
    [
        ({1: -1, 2: 3}, "counts-1", "A total cannot be negative."),
        ({1: 5, 2: "12.5"}, "counts-2", "Type a whole number of points, like 37."),
        ({1: "abc", 2: 3}, "counts-1", "Type a whole number of points, like 37."),
        # A classic deck and 4 blanks: 8×(1+…+9) + 24×20 + 8×50 + 4×50 = 1440 points in all.
        ({1: 1441, 2: 3}, "counts-1", "1441 is more than a whole deck holds (1440)."),
        ({1: 7}, "counts-2", "Count this hand or type its total."),
        ({1: ["7"] * 5, 2: ["7"] * 4}, "counts-2", "9 7s counted, but the deck has only 8."),
        (
            {1: ["skip"] * 8 + ["reverse"] * 8, 2: ["draw2"] * 8 + ["20"]},
            "counts-1",
            "25 20-point cards counted, but the deck has only 24.",
        ),
        (
            {1: ["wild"] * 4 + ["50"], 2: ["wild4"] * 4},
            "counts-2",
            "9 50-point wild cards counted, but the deck has only 8.",
        ),
    ],
)
def test_a_count_that_cannot_be_right_is_refused_next_to_it(
    client, new_game, rows, counts, field, message
):
    game_id = new_game(3)
    data = hand_form(0, {s: v for s, v in counts.items() if not isinstance(v, str)}, 1)
    data |= {f"counts-{s}-points": v for s, v in counts.items() if isinstance(v, str)}
    response = client.post(hands_url(game_id), data=data)
    assert response.status_code == 422
    page = parse(response)
    # A deck limit passed has a note of its own (with its numbers); the others share one.
    row = page.find("div", class_="tally", data_seat=field.removeprefix("counts-"))
    assert [note.text for note in row.select(".error")] == [message]
    assert page.find("input", name=f"{field}-points").attrs["aria-invalid"] == "true"
    # The seat that went out has nothing to fix.
    assert error_for(page, "counts-0") == ""
    assert rows("hands") == 0
    # What was typed comes back, so it can be corrected rather than retyped.
    assert page.find("input", name="went_out", value="0").attrs.get("checked") is not None


def test_a_deck_overflow_is_shown_on_every_hand_that_holds_those_cards(client, new_game, rows):
    game_id = new_game(4)
    data = hand_form(0, {1: ["7"] * 3, 2: ["7", "7", "3"], 3: ["7"] * 4}, 1)
    response = client.post(hands_url(game_id), data=data)
    assert response.status_code == 422
    page = parse(response)
    assert [page.by_id(f"counts-{seat}-deck-1").text for seat in (1, 2, 3)] == [
        "9 7s counted, but the deck has only 8."
    ] * 3
    assert tape(page, 2) == ("7 7 3", "7 · 7 · 3", "17")
    assert rows("hands") == 0


def test_who_went_out_is_required(client, new_game, rows):
    game_id = new_game(3)
    response = client.post(hands_url(game_id), data=hand_form(None, {1: 10, 2: 5}, 1))
    assert response.status_code == 422
    page = parse(response)
    assert error_for(page, "went_out") == "Tap who went out."
    assert page.find("fieldset", class_="went-out").attrs["aria-describedby"] == "went_out-error"
    assert rows("hands") == 0


def test_a_partners_count_is_refused(client, new_game, rows):
    game_id = new_game(4, mode="partners")
    # Ann (seat 0) went out; Cat (seat 2) is her partner.
    response = client.post(hands_url(game_id), data=hand_form(0, {1: 10, 2: 5, 3: 7}, 1))
    assert response.status_code == 422
    page = parse(response)
    assert "partner" in error_for(page, "counts-2")
    assert [error_for(page, f"counts-{seat}") for seat in (1, 3)] == ["", ""]
    assert rows("hands") == 0


def test_an_eliminated_players_count_is_refused(client, new_game, play, rows):
    game_id = new_game(3, mode="challenge", target=100)
    play(game_id, 0, {1: 100, 2: 10})  # Bob reaches 100 and is out
    response = client.post(hands_url(game_id), data=hand_form(2, {0: 5, 1: 3}, 2))
    assert response.status_code == 422
    assert "out of the game" in error_for(parse(response), "counts-1")
    response = client.post(hands_url(game_id), data=hand_form(1, {0: 5, 2: 3}, 2))
    assert response.status_code == 422
    assert "out of the game" in error_for(parse(response), "went_out")
    assert rows("hands") == 1


def test_an_invalid_hand_from_htmx_gets_the_fragment_with_errors(client, new_game):
    game_id = new_game(2)
    response = client.post(hands_url(game_id), data=hand_form(0, {1: -5}, 1), headers=HTMX)
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    assert body.lstrip().startswith('<div id="game"')
    assert "<html" not in body
    assert error_for(parse(body), "counts-1") == "A total cannot be negative."


def test_the_same_hand_posted_twice_counts_once(client, new_game, state_of, rows):
    game_id = new_game(3)
    first = client.post(hands_url(game_id), data=hand_form(0, {1: 10, 2: 20}, 1))
    assert first.status_code == 303
    # A second phone, still showing hand 1, saves it too.
    second = client.post(hands_url(game_id), data=hand_form(2, {0: 4, 1: 4}, 1), headers=HTMX)
    assert second.status_code == 409
    page = parse(second)
    # Both versions, in the pad's place, and no notice above the scoreboard to push it down.
    assert page.find(class_="notice") is None
    race = page.by_id("race")
    assert race.find("h2").text == "Another phone saved hand 1 first."
    assert [line.text for line in race.find_all(class_="version")] == [
        "Theirs: Ann +30 (Ann went out · Bob 10 · Cat 20)",
        "Ours: Cat +8 (Cat went out · Ann 4 · Bob 4)",
    ]
    # The answer shows the game as it is now, its pad ready for hand 2 behind the note.
    assert page.by_id("hand-form").value("number") == "2"
    assert page.select_one("[data-race-pad]").has_attr("hidden")
    assert rows("hands") == 1
    assert scores(state_of(game_id)) == [30, 0, 0]

    # "Use ours" posts ours again, as an edit of their hand 1.
    use_ours = race.find("form")
    fields = {node["name"]: node.get("value", "") for node in use_ours.find_all("input")}
    fields["action"] = "save"
    ours = client.post(use_ours["action"], data=fields)
    assert ours.status_code == 303
    assert rows("hands") == 1
    assert scores(state_of(game_id)) == [0, 0, 8]


def test_recording_into_a_finished_game_is_a_conflict(client, new_game, play, rows):
    game_id = new_game(2, target=20)
    play(game_id, 0, {1: 20})
    response = client.post(hands_url(game_id), data=hand_form(1, {0: 5}, 2))
    assert response.status_code == 409
    page = parse(response)
    assert "over" in page.find(class_="notice").text
    assert page.find(class_="result") is not None
    assert rows("hands") == 1


# The pad without JavaScript: each tap is a post that comes back with the tape changed.


def test_a_card_tap_adds_to_the_first_hand_after_the_one_who_went_out(client, new_game, rows):
    game_id = new_game(4)
    data = {"number": "1", "went_out": "2", "action": "card:7"}
    response = client.post(hands_url(game_id), data=data)
    assert response.status_code == 200
    page = parse(response)
    # Cat (seat 2) went out: Dan (seat 3) sits next, so the card goes to Dan.
    assert tape(page, 3) == ("7", "7", "7")
    assert page.value("active") == "3"
    assert tally(page, 3).find("button").attrs["aria-pressed"] == "true"
    assert rows("hands") == 0


def test_pad_taps_build_select_go_back_and_clear(client, new_game, rows):
    game_id = new_game(3)
    base = {"number": "1", "went_out": "0"}

    def tap(action: str, **fields: str):
        response = client.post(hands_url(game_id), data={**base, **fields, "action": action})
        assert response.status_code == 200
        return parse(response)

    page = tap("card:7", active="1")
    page = tap("card:20", active="1", **{"counts-1-cards": page.value("counts-1-cards")})
    assert tape(page, 1) == ("7 20", "7 · 20", "27")

    page = tap("select:2", **{"counts-1-cards": "7 20"})
    assert page.value("active") == "2"
    assert tape(page, 1) == ("7 20", "7 · 20", "27")
    page = tap("card:50", active="2", **{"counts-1-cards": "7 20"})
    assert tape(page, 2) == ("50", "50", "50")
    assert tape(page, 1) == ("7 20", "7 · 20", "27")
    assert "Ann scores 77" in page.find(class_="summary").text

    page = tap("back", active="1", **{"counts-1-cards": "7 20", "counts-2-cards": "50"})
    assert tape(page, 1) == ("7", "7", "7")
    assert tape(page, 2) == ("50", "50", "50")

    page = tap("clear", active="2", **{"counts-1-cards": "7", "counts-2-cards": "50"})
    assert tape(page, 2) == ("", "", "—")
    assert tape(page, 1) == ("7", "7", "7")
    assert rows("hands") == 0


def test_a_card_replaces_a_typed_total(client, new_game):
    game_id = new_game(2)
    data = {"number": "1", "went_out": "0", "counts-1-points": "40", "action": "card:5"}
    page = parse(client.post(hands_url(game_id), data=data))
    assert tape(page, 1) == ("5", "5", "5")
    assert page.value("counts-1-points") == ""


def test_a_pad_tap_from_htmx_gets_the_fragment(client, new_game, rows):
    game_id = new_game(2)
    data = {"number": "1", "went_out": "1", "action": "card:9"}
    response = client.post(hands_url(game_id), data=data, headers=HTMX)
    assert response.status_code == 200
    assert "<html" not in response.get_data(as_text=True)
    assert tape(parse(response), 0) == ("9", "9", "9")
    assert rows("hands") == 0


def test_the_tape_saves_as_the_hand(client, new_game, state_of):
    game_id = new_game(3)
    data = {"number": "1", "went_out": "1", "action": "save"}
    data |= {"counts-0-cards": "wild4 8 reverse", "counts-2-cards": "0 0 blank"}
    assert client.post(hands_url(game_id), data=data).status_code == 303
    # 50 + 8 + 20 and 0 + 0 + 50: Bob scores 128.
    assert scores(state_of(game_id)) == [0, 128, 0]


def test_form_errors_are_not_shown_on_a_clean_pad(client, new_game):
    game_id = new_game(2)
    page = parse(client.get(f"/games/{game_id}"))
    assert form_errors(page) == []
    assert page.find(class_="error") is None


def pad_data(page) -> dict:
    return json.loads(page.find("form", id="hand-form").attrs["data-pad"])


def test_the_pad_gets_its_rules_as_data(client, new_game):
    data = pad_data(parse(client.get(f"/games/{new_game(['Ann', 'Bob', 'Cat', 'Dan'])}")))
    assert data["mode"] == "standard"
    assert data["names"] == ["Ann", "Bob", "Cat", "Dan"]
    assert data["sides"] == [0, 1, 2, 3]
    # Counted in pad order: from the seat after the one who went out, round the table.
    assert data["counted"] == {"0": [1, 2, 3], "1": [2, 3, 0], "2": [3, 0, 1], "3": [0, 1, 2]}
    assert data["values"]["20"] == 20 and data["values"]["50"] == 50 and data["values"]["7"] == 7
    assert data["words"]["one"].format(names="Ann", total=101) == "Ann scores 101"
    assert data["words"]["nobody"] == "Tap who went out."
    # The limits on the cards its keys add; named cards are for editing a hand that has them.
    limits = {kind: (tokens, limit) for kind, tokens, limit in data["limits"]}
    assert limits["0s"] == (["0"], 4)
    # The last card played lies on the pile: it counts against the groups it belongs to.
    assert limits["20-point cards"] == (["20", "draw2"], 24)
    assert limits["50-point wild cards"] == (["50", "wild4"], 8)
    assert "Skips" not in limits and "skip" not in data["values"]


def test_an_edited_hands_named_cards_get_their_values_and_limits(client, new_game, play):
    game_id = new_game(3)
    play(game_id, 0, {1: ["skip", "3"], 2: 4})
    data = pad_data(parse(client.get(f"/games/{game_id}/hands/1/edit")))
    assert data["values"]["skip"] == 20
    limits = {kind: (tokens, limit) for kind, tokens, limit in data["limits"]}
    assert limits["Skips"] == (["skip"], 8)
    assert limits["20-point cards"] == (["20", "draw2", "skip"], 24)


def test_the_pad_data_of_partners_and_of_a_player_out_of_the_game(client, new_game, play):
    partners = pad_data(parse(client.get(f"/games/{new_game(4, mode='partners')}")))
    assert partners["sides"] == [0, 1, 0, 1]
    assert partners["counted"]["0"] == [1, 3]
    game_id = new_game(3, mode="challenge", target=100)
    play(game_id, 0, {1: 100, 2: 5})
    challenge = pad_data(parse(client.get(f"/games/{game_id}")))
    # Seat 1 is out of the game: never offered as who went out, never counted.
    assert challenge["counted"] == {"0": [2], "2": [0]}


def test_a_kept_tally_is_not_drawn_on_a_row_that_is_not_counted(client, new_game):
    game_id = new_game(3)
    # Bob's cards were counted before Bob was chosen as who went out: they are not posted by the
    # script, but a plain form posts what it has; the row shows "went out" only.
    data = {**hand_form(1, {1: ["3", "20"], 2: ["5"]}, 1), "action": "card:4"}
    page = parse(client.post(hands_url(game_id), data=data))
    bob = tally(page, 1)
    assert bob.find(data_note="").text == "went out"
    assert bob.find(data_tape="").text == ""
    assert bob.find(data_points="").text == ""


def test_a_player_not_yet_counted_shows_no_bare_zero(client, new_game):
    game_id = new_game(3)
    base = {"number": "1", "went_out": "0", "action": "card:3", "active": "1"}
    page = parse(client.post(hands_url(game_id), data={**base, "counts-2-points": "0"}))
    # Bob counted a 3, Cat typed 0: both counted. Nobody else is shown as 0.
    assert tape(page, 1) == ("3", "3", "3")
    assert tape(page, 2)[1:] == ("typed", "0")
    page = parse(client.post(hands_url(game_id), data=base))
    assert tape(page, 2) == ("", "", "—")
    assert tally(page, 2).find("button")["aria-label"] == "Cat, not counted yet, choose to count"
    assert tally(page, 1).find("button")["aria-label"] == "Bob, 3 points, being counted"


def test_a_total_that_is_not_one_claims_no_score(client, new_game, rows):
    game_id = new_game(3)
    for typed, message in [
        ("1a2b", "Type a whole number of points, like 37."),
        ("-5", "A total cannot be negative."),
    ]:
        data = hand_form(0, {1: ["3"]}, 1) | {"counts-2-points": typed}
        page = parse(client.post(hands_url(game_id), data=data))
        assert error_for(page, "counts-2") == message
        assert page.find(class_="summary").text == "Fix the total for Cat."
        assert tape(page, 2)[2] == "—"
    assert rows("hands") == 0


def test_the_pad_data_says_what_a_typed_total_may_be(client, new_game):
    data = pad_data(parse(client.get(f"/games/{new_game(3)}")))
    assert data["total"] == {
        "pattern": "^[0-9]+$",
        "max": 99999,
        "words": {
            "digits": "Type a whole number of points, like 37.",
            "negative": "A total cannot be negative.",
            "max": "A total is at most {max}.",
        },
    }
    page = parse(client.get(f"/games/{new_game(3)}"))
    assert page.find("input", name="counts-0-points").attrs["maxlength"] == "5"


def test_the_pad_data_maps_the_keyboard_to_the_pads_keys(client, new_game):
    page = parse(client.get(f"/games/{new_game(3)}"))
    keyboard = pad_data(page)["keyboard"]
    assert keyboard == {
        **{str(digit): str(digit) for digit in range(10)},
        "a": "20",
        "w": "50",
        "b": "blank",
        "Backspace": "back",
    }
    hint = page.find("p", id="pad-keyboard")
    # Said on screen by the script, which makes the keys work: hidden without it.
    assert hint.has_attr("hidden")
    assert "A adds 20, W adds 50" in hint.text
    assert "B adds a blank" in hint.text
