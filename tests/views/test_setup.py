"""The setup builder at /games/new: every tap is a post that gets the form back changed."""

import pytest
from document import HTMX, error_for, parse
from factories import make_game

from scorer.extensions import db
from scorer.services import games

URL = "/games/new"


def setup_data(names=(), action="start", mode="standard", target="500", dealer=0, new_name=""):
    """What the setup form posts: one hidden field per seat, then the settings and the tap."""
    data = {f"players-{seat}": name for seat, name in enumerate(names)}
    data.update(
        action=action, mode=mode, target=str(target), first_dealer=str(dealer), new_name=new_name
    )
    return data


def seats(page) -> list[str]:
    """Names in seat order, as the form will post them back."""
    inputs = [node for node in page.find_all("input") if node.attrs["name"].startswith("players-")]
    assert [node.attrs["name"] for node in inputs] == [f"players-{i}" for i in range(len(inputs))]
    return [node.attrs["value"] for node in inputs]


def dealer(page) -> int:
    first = int(page.value("first_dealer"))
    marked = [node.find("input").attrs["value"] for node in page.find_all("li", class_="is-dealer")]
    assert marked == [seats(page)[first]]
    return first


@pytest.fixture
def nothing_saved(rows):
    """Asserts, after the test body, that setup taps and refused starts left the database alone."""
    before = {table: rows(table) for table in ("players", "games", "seats")}
    yield
    assert {table: rows(table) for table in before} == before


def test_the_empty_builder(client):
    response = client.get(URL)
    assert response.status_code == 200
    page = parse(response)
    assert page.find("form", id="setup") is not None
    assert seats(page) == []
    assert page.value("target") == "500"
    assert page.find("input", name="mode", value="standard").attrs.get("checked") is not None


def test_adding_players_trims_names_and_keeps_seat_order(client, nothing_saved):
    response = client.post(URL, data=setup_data(["Ann"], "add", new_name="   Mary   Jane "))
    assert response.status_code == 200
    page = parse(response)
    assert seats(page) == ["Ann", "Mary Jane"]
    # The name box is emptied for the next name.
    assert page.value("new_name") == ""


@pytest.mark.parametrize("name", ["Zoë", "José Ñúñez", "🦄", "李雷", "x" * 40])
def test_accents_emoji_and_forty_characters_are_fine(client, name, nothing_saved):
    response = client.post(URL, data=setup_data(["Ann"], "add", new_name=name))
    assert response.status_code == 200
    assert seats(parse(response)) == ["Ann", name]


@pytest.mark.parametrize(
    ("names", "new_name", "message"),
    [
        (["Ann"], "", "Type a name."),
        (["Ann"], "    ", "Type a name."),
        (["Ann"], "x" * 41, "Names are at most 40 characters."),
        (["Ann", "Bob"], " ann ", "ann is already playing."),
        (["Ann", "Bob"], "BOB", "BOB is already playing."),
        ([f"P{i}" for i in range(10)], "Kim", "A game has at most 10 players."),
        (
            ["Ann"],
            "\u200b\u200d\u2060\u00ad",
            "Names need a letter, digit or sign that can be seen.",
        ),
        (["Ann"], "\u3164", "Names need a letter, digit or sign that can be seen."),
        (["Ann"], "\u2800", "Names need a letter, digit or sign that can be seen."),
        (["Ann"], "\u0301\u0301", "Names need a letter, digit or sign that can be seen."),
        (
            ["Ann"],
            "Bob\u202egnp.exe",
            "Names cannot contain characters that change the direction of text.",
        ),
        (["Ann"], "Ann\u200b", "Ann is already playing."),
        (["Ann"], "\uff21\uff4e\uff4e", "Ann is already playing."),
    ],
)
def test_a_name_that_cannot_be_added_is_refused_next_to_the_name_box(
    client, names, new_name, message, nothing_saved
):
    response = client.post(URL, data=setup_data(names, "add", new_name=new_name))
    assert response.status_code == 422
    page = parse(response)
    assert error_for(page, "new_name") == message
    assert page.find("input", id="new_name").attrs["aria-invalid"] == "true"
    assert seats(page) == names


def test_picking_from_the_roster_adds_and_picking_again_removes(client, app, rows):
    with app.app_context():
        make_game(db.session, ["Ann", "Bob", "Cat"])
    assert (rows("players"), rows("games")) == (3, 1)
    page = parse(client.get(URL))
    roster = [
        node.text for node in page.find_all("button", class_="chip") if node.attrs.get("data-name")
    ]
    assert roster == ["Ann", "Bob", "Cat"]

    page = parse(client.post(URL, data=setup_data(["Dan"], "pick:Cat")))
    assert seats(page) == ["Dan", "Cat"]
    assert page.find("button", value="pick:Cat").attrs["aria-pressed"] == "true"
    assert page.find("button", value="pick:Ann").attrs["aria-pressed"] == "false"

    # Matching ignores case: the roster's "Cat" is the "cat" already seated.
    page = parse(client.post(URL, data=setup_data(["Dan", "cat", "Ann"], "pick:Cat", dealer=2)))
    assert seats(page) == ["Dan", "Ann"]
    assert dealer(page) == 1
    # Taps change the form only: Dan joins the roster when a game starts with him.
    assert (rows("players"), rows("games")) == (3, 1)


def test_picking_a_player_when_ten_are_seated_is_refused(client, app):
    with app.app_context():
        make_game(db.session, ["Ann", "Bob"])
    names = [f"P{i}" for i in range(10)]
    response = client.post(URL, data=setup_data(names, "pick:Ann"))
    assert response.status_code == 422
    assert error_for(parse(response), "new_name") == "A game has at most 10 players."


def test_moving_a_player_up_swaps_seats_and_the_dealer_stays_with_the_person(client):
    page = parse(client.post(URL, data=setup_data(["Ann", "Bob", "Cat"], "up:2", dealer=2)))
    assert seats(page) == ["Ann", "Cat", "Bob"]
    assert dealer(page) == 1

    page = parse(client.post(URL, data=setup_data(["Ann", "Bob", "Cat"], "up:1", dealer=2)))
    assert seats(page) == ["Bob", "Ann", "Cat"]
    assert dealer(page) == 2

    # The first seat cannot move further up.
    page = parse(client.post(URL, data=setup_data(["Ann", "Bob"], "up:0")))
    assert seats(page) == ["Ann", "Bob"]


@pytest.mark.parametrize(
    ("remove", "dealer_before", "names_after", "dealer_after"),
    [
        (0, 2, ["Bob", "Cat", "Dan"], 1),  # Cat still deals, now from seat 1
        (3, 2, ["Ann", "Bob", "Cat"], 2),
        (2, 2, ["Ann", "Bob", "Dan"], 0),  # the dealer left: the first seat deals
    ],
)
def test_removing_a_player(client, remove, dealer_before, names_after, dealer_after):
    data = setup_data(["Ann", "Bob", "Cat", "Dan"], f"remove:{remove}", dealer=dealer_before)
    page = parse(client.post(URL, data=data))
    assert seats(page) == names_after
    assert dealer(page) == dealer_after


def test_choosing_the_first_dealer(client):
    page = parse(client.post(URL, data=setup_data(["Ann", "Bob", "Cat"], "dealer:2")))
    assert dealer(page) == 2
    chosen = page.find("button", value="dealer:2")
    assert chosen.attrs["aria-pressed"] == "true"
    assert chosen.text == "Deals first"


def test_a_target_preset_fills_the_target(client):
    page = parse(client.post(URL, data=setup_data(["Ann", "Bob"], "target:300", target="")))
    assert page.value("target") == "300"
    assert page.find("button", value="target:300").attrs["aria-pressed"] == "true"
    assert page.find("button", value="target:500").attrs["aria-pressed"] == "false"


def test_changing_the_mode_redraws_the_form(client):
    names = ["Ann", "Bob", "Cat", "Dan"]
    data = setup_data(names, action="", mode="partners")
    response = client.post(URL, data=data)
    assert response.status_code == 200
    page = parse(response)
    assert page.find("input", name="mode", value="partners").attrs.get("checked") is not None
    # Partners sit opposite: seat 1 with 3, 2 with 4.
    teams = [node.text for node in page.find(class_="teams").find_all("label")]
    assert teams == ["Team A: Ann & Cat", "Team B: Bob & Dan"]


def test_partners_teams_can_be_named(client, app):
    data = setup_data(["Ann", "Bob", "Cat", "Dan"], mode="partners")
    data.update({"teams-0": "  The   Reds ", "teams-1": ""})
    response = client.post(URL, data=data)
    assert response.status_code == 303
    with app.app_context():
        (view,) = games.list_games(db.session)[0]
        sides = view.state.sides
        assert [view.side_name(side) for side in sides] == ["The Reds", "Bob & Dan"]


def test_a_tap_from_htmx_gets_only_the_form(client):
    response = client.post(URL, data=setup_data(["Ann"], "add", new_name="Bob"), headers=HTMX)
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert body.lstrip().startswith('<form id="setup"')
    assert "<html" not in body
    assert "HX-Request" in response.vary
    assert seats(parse(body)) == ["Ann", "Bob"]


def test_start_creates_the_game_and_goes_to_it(client, app, rows):
    data = setup_data(["Ann", "Bob", "Cat"], target=300, dealer=1)
    response = client.post(URL, data=data)
    assert response.status_code == 303
    with app.app_context():
        (view,) = games.list_games(db.session)[0]
        assert response.headers["Location"] == f"/games/{view.game.id}"
        assert view.names == ("Ann", "Bob", "Cat")
        assert view.game.mode == "standard"
        assert view.game.target == 300
        assert view.state.dealer == 1
    assert rows("players") == 3


def test_start_from_htmx_redirects_on_the_client(client, app):
    response = client.post(URL, data=setup_data(["Ann", "Bob"], mode="challenge"), headers=HTMX)
    assert response.status_code == 200
    with app.app_context():
        (view,) = games.list_games(db.session)[0]
        assert view.game.mode == "challenge"
    assert response.headers["HX-Redirect"] == f"/games/{view.game.id}"


def test_a_name_on_the_roster_is_reused_whatever_its_case(client, app, rows):
    with app.app_context():
        make_game(db.session, ["Ann", "Bob"])
    assert rows("players") == 2
    response = client.post(URL, data=setup_data(["ann", "Zoë 🦄"]))
    assert response.status_code == 303
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        assert games.load_game(db.session, game_id).names == ("Ann", "Zoë 🦄")
    assert rows("players") == 3
    page = parse(client.get(f"/games/{game_id}"))
    assert "Zoë 🦄" in page.find(class_="standings").text


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        (setup_data(["Ann"]), "new_name", "A game needs 2 to 10 players."),
        (setup_data([]), "new_name", "A game needs 2 to 10 players."),
        (setup_data([f"P{i}" for i in range(11)]), "new_name", "A game needs 2 to 10 players."),
        (setup_data(["Ann", "Bob", "ann"]), "new_name", "ann is already playing."),
        (setup_data(["Ann", "x" * 41]), "new_name", "Names are at most 40 characters."),
        (setup_data(["Ann", "Bob"], target="0"), "target", "above 0"),
        (setup_data(["Ann", "Bob"], target="-5"), "target", "above 0"),
        (setup_data(["Ann", "Bob"], target="1.5"), "target", "whole number"),
        (setup_data(["Ann", "Bob"], target="abc"), "target", "whole number"),
        (setup_data(["Ann", "Bob"], target=""), "target", "whole number"),
        (
            setup_data(["Ann", "Bob"], mode="poker"),
            "mode",
            "Choose Standard, Partners, Challenge or Individual.",
        ),
        (setup_data(["Ann", "Bob", "Cat"], mode="partners"), "new_name", "even number"),
        (setup_data(["A", "B", "C", "D", "E"], mode="partners"), "new_name", "even number"),
        (setup_data(["Ann", "Bob"], mode="partners"), "new_name", "even number"),
        (setup_data(["A", "B", "C"], mode="individual"), "new_name", "exactly 4 players"),
        (setup_data(["A", "B", "C", "D", "E"], mode="individual"), "new_name", "exactly 4"),
    ],
)
def test_a_bad_start_is_refused_next_to_the_field_and_saves_nothing(
    client, data, field, message, nothing_saved
):
    response = client.post(URL, data=data)
    assert response.status_code == 422
    page = parse(response)
    shown = error_for(page, field)
    assert message in shown
    # Said once, not once per validator.
    assert shown.count(message) == 1
    # The form comes back as it was, ready to fix.
    assert seats(page) == [data[f"players-{i}"] for i in range(len(seats(page)))]


def test_a_bad_start_from_htmx_gets_the_form_with_its_errors(client, nothing_saved):
    response = client.post(URL, data=setup_data(["Ann", "Bob"], target="abc"), headers=HTMX)
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    assert "<html" not in body
    assert "whole number" in error_for(parse(body), "target")
    assert parse(body).value("target") == "abc"


def test_a_name_typed_but_not_added_plays_when_start_is_tapped(client, app):
    response = client.post(URL, data=setup_data(["Ann", "Bob"], new_name="  Cat "))
    assert response.status_code == 303
    with app.app_context():
        (view,) = games.list_games(db.session)[0]
        assert view.names == ("Ann", "Bob", "Cat")


def test_a_typed_name_makes_up_the_players_a_game_needs(client, app):
    response = client.post(URL, data=setup_data(["Ann"], new_name="Bob"), headers=HTMX)
    assert response.status_code == 200
    with app.app_context():
        (view,) = games.list_games(db.session)[0]
        assert view.names == ("Ann", "Bob")


@pytest.mark.parametrize(
    ("names", "new_name", "message"),
    [
        (["Ann", "Bob"], "x" * 41, "Names are at most 40 characters."),
        (["Ann", "Bob"], " ann ", "ann is already playing."),
        ([f"P{i}" for i in range(10)], "Kim", "A game has at most 10 players."),
    ],
)
def test_a_typed_name_that_cannot_play_stops_the_start_and_says_why(
    client, names, new_name, message, nothing_saved
):
    response = client.post(URL, data=setup_data(names, new_name=new_name))
    assert response.status_code == 422
    page = parse(response)
    assert message in error_for(page, "new_name")
    # Nothing moved: the seats as they were, the name still there to correct.
    assert seats(page) == names
    assert page.value("new_name") == new_name
    assert page.find("input", name="new_name").attrs.get("autofocus") is not None


def test_picking_from_the_roster_empties_the_filter_so_it_is_not_seated_too(client, app):
    with app.app_context():
        make_game(db.session, ["Ann", "Bob"])
    page = parse(client.post(URL, data=setup_data(["Bob"], "pick:Ann", new_name="an")))
    assert seats(page) == ["Bob", "Ann"]
    assert page.value("new_name") == ""


HUGE = "9" * 5000


@pytest.mark.parametrize("verb", ["up", "remove", "dealer"])
@pytest.mark.parametrize("argument", [HUGE, "2", "²", "-1", "1.0"])
def test_a_tap_on_a_seat_that_is_not_there_is_refused_and_changes_nothing(
    client, verb, argument, nothing_saved
):
    data = setup_data(["Ann", "Bob"], f"{verb}:{argument}", dealer=1)
    response = client.post(URL, data=data)
    assert response.status_code == 422
    page = parse(response)
    assert "No player sits there." in page.find(class_="form-error").text
    assert seats(page) == ["Ann", "Bob"]
    assert page.value("first_dealer") == "1"


@pytest.mark.parametrize(
    ("argument", "message"),
    [(HUGE, "at most"), ("0", "above 0"), ("²", "above 0"), ("", "above 0")],
)
def test_a_target_tap_out_of_bounds_is_refused_next_to_the_target(
    client, argument, message, nothing_saved
):
    response = client.post(URL, data=setup_data(["Ann", "Bob"], f"target:{argument}", target=300))
    assert response.status_code == 422
    page = parse(response)
    assert message in error_for(page, "target")
    assert seats(page) == ["Ann", "Bob"]


def test_a_typed_target_of_thousands_of_digits_is_refused(client, nothing_saved):
    response = client.post(URL, data=setup_data(["Ann", "Bob"], target=HUGE))
    assert response.status_code == 422
    assert error_for(parse(response), "target")


@pytest.mark.parametrize("index", [HUGE, "²", "1" * 5])
def test_a_seat_field_with_an_index_no_form_makes_is_ignored(client, index, nothing_saved):
    data = setup_data(["Ann", "Bob"], "add", new_name="Cat")
    data[f"players-{index}"] = "Zed"
    response = client.post(URL, data=data)
    assert response.status_code == 200
    assert seats(parse(response)) == ["Ann", "Bob", "Cat"]


def test_a_team_name_field_with_an_index_no_form_makes_is_ignored(client, app):
    data = setup_data(["Ann", "Bob", "Cat", "Dan"], mode="partners")
    data.update({f"teams-{HUGE}": "Zeds", "teams-²": "Twos", "teams-0": "Reds"})
    response = client.post(URL, data=data)
    assert response.status_code == 303
    with app.app_context():
        game = games.load_game(db.session, 1)
        assert [team.name for team in game.game.teams] == ["Reds"]


def test_a_name_that_differs_from_a_roster_name_only_by_width_is_that_player(client, app, rows):
    with app.app_context():
        make_game(db.session, ["Ann", "Bob"])
    response = client.post(URL, data=setup_data(["\uff21\uff4e\uff4e", "Bob\u200b"]))
    assert response.status_code == 303
    game_id = int(response.headers["Location"].rsplit("/", 1)[1])
    with app.app_context():
        assert games.load_game(db.session, game_id).names == ("Ann", "Bob")
    assert rows("players") == 2
