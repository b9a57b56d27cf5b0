"""The setup page's roster chips stay few however big the roster: the seated, the players a
table is likely to pick, and a search for the rest."""

from __future__ import annotations

from document import HTMX, parse
from factories import make_game

from scorer.extensions import db
from scorer.services import pages, players
from scorer.services.transactions import in_transaction

URL = "/games/new"


def setup_data(names, action, new_name=""):
    """What the setup form posts: a hidden field per seat, the settings and the tap."""
    seated = {f"players-{seat}": name for seat, name in enumerate(names)}
    return seated | {"action": action, "mode": "standard", "target": "500", "new_name": new_name}


# Names that sort before everyone who plays below, so the roster by name alone would show them.
IDLE = [f"Aaron {number:02d}" for number in range(40)]


def chips(page) -> list[str]:
    return [node.text for node in page.select("#setup-roster button.chip")]


def fill_roster(app) -> None:
    with app.app_context():
        with in_transaction(db.session):
            players.find_or_add(db.session, IDLE)
        make_game(db.session, ["Zoe", "Yan"])
        for _ in range(3):
            make_game(db.session, ["Ann", "Xia"])
        make_game(db.session, ["Ann", "Wes"])
        make_game(db.session, ["Vic", "Uma"])


def test_with_nobody_seated_the_latest_players_come_first_and_the_list_is_bounded(app, client):
    fill_roster(app)
    shown = chips(parse(client.get(URL)))
    assert shown[:4] == ["Uma", "Vic", "Ann", "Wes"]
    assert {"Xia", "Yan", "Zoe"} <= {*shown}
    assert len(shown) == pages.SUGGESTIONS


def test_who_plays_often_with_the_seated_comes_first(app, client):
    fill_roster(app)
    page = parse(client.post(URL, data=setup_data(["Ann"], "pick:Vic")))
    shown = chips(page)
    # The seated (pressed), then who played with them: Xia thrice, then Uma and Wes once each,
    # the latest first.
    assert shown[:5] == ["Ann", "Vic", "Xia", "Uma", "Wes"]
    pressed = [node.text for node in page.select("#setup-roster [aria-pressed=true]")]
    assert pressed == ["Ann", "Vic"]
    assert len(shown) == 2 + pages.SUGGESTIONS


def test_find_looks_the_typed_name_up_on_the_whole_roster(app, client):
    fill_roster(app)
    assert "Aaron 39" not in chips(parse(client.get(URL)))
    response = client.post(URL, data=setup_data(["Ann"], "search", new_name="ron 3"))
    assert response.status_code == 200
    page = parse(response)
    assert chips(page) == [f"Aaron {number}" for number in range(30, 40)]
    # A search seats nobody and keeps what was typed.
    assert page.value("new_name") == "ron 3"
    assert page.select_one("input[name=players-0]")["value"] == "Ann"
    nobody = parse(client.post(URL, data=setup_data([], "search", new_name="qq")))
    assert chips(nobody) == [] and "Nobody on the roster" in nobody.text


def test_the_name_box_searches_through_htmx_and_the_answer_holds_the_chips(app, client):
    fill_roster(app)
    page = parse(client.get(URL))
    box = page.select_one("input[name=new_name]")
    assert box["hx-post"] == URL and box["hx-target"] == box["hx-select"] == "#setup-roster"
    assert '"search"' in box["hx-vals"]
    response = client.post(URL, data=setup_data([], "search", new_name="ZO"), headers=HTMX)
    assert chips(parse(response)) == ["Zoe"]


def test_the_setup_page_takes_the_same_queries_however_big_the_roster(app, client, count_queries):
    with app.app_context():
        make_game(db.session, ["Ann", "Bob"])
    data = setup_data(["Ann"], "pick:Bob")
    with count_queries() as before:
        client.get(URL)
    with count_queries() as before_seated:
        client.post(URL, data=data)
    fill_roster(app)
    with count_queries() as after:
        client.get(URL)
    with count_queries() as after_seated:
        client.post(URL, data=data)
    assert (len(after), len(after_seated)) == (len(before), len(before_seated))


def test_a_seated_name_no_roster_can_hold_is_refused_not_looked_up(app, client):
    # PostgreSQL cannot compare a text holding NUL: looking it up on the roster was a 500.
    fill_roster(app)
    response = client.post(URL, data=setup_data(["Ann", "\x00"], "start"))
    assert response.status_code == 422
    with app.app_context():
        games = db.session.scalar(
            db.select(db.func.count()).select_from(db.metadata.tables["games"])
        )
    assert games == 6
