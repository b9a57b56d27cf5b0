"""Roster, profile, standings, league pages and charts: what they show, and how many queries."""

from __future__ import annotations

import re

import pytest
from document import HTMX, error_for, parse
from factories import make_game, record
from flask import render_template

from scorer.extensions import db
from scorer.services import games, leagues, standings

PAGES = [
    "/players/",
    "/players/1",
    "/standings/",
    "/standings/?period=year&sort=wins&order=asc",
    "/standings/?league=1",
    "/leagues/",
    "/leagues/1",
    "/leagues/1/seasons/1",
    "/players/1/rating.svg",
    "/players/1/points.svg",
    "/games/1/chart.svg",
]


def add_evenings(app, times: int) -> None:
    """`times` more finished games of every mode, and one more played league fixture."""
    with app.app_context():
        session = db.session
        for _ in range(times):
            game = make_game(session, ["Ann", "Bob", "Cat"], target=50)
            record(session, game, 0, {1: 30, 2: 20})
            game = make_game(session, ["Ann", "Bob", "Cat", "Dan"], mode="partners", target=50)
            record(session, game, 1, {0: 30, 2: 20})
            game = make_game(session, ["Ann", "Bob", "Eve"], mode="challenge", target=50)
            record(session, game, 0, {1: 60, 2: 60})
        view = leagues.load_season(session, 1, 1)
        waiting = next(item for item in view.fixtures if item.state == "waiting")
        game = leagues.start_fixture(session, waiting.fixture.id)
        record(session, game.id, 0, {1: 60, 3: 0})
        db.session.remove()


@pytest.fixture
def club(app):
    with app.app_context():
        session = db.session
        league = leagues.create_league(session, "Club", 50)
        for pair in (("Ann", "Bob"), ("Cat", "Dan"), ("Eve", "Fay"), ("Gus", "Hal")):
            leagues.register_team(session, league.id, *pair)
        leagues.add_season(session, league.id, 2)
        db.session.remove()
    add_evenings(app, 1)


def test_every_page_answers_in_a_fixed_number_of_queries(app, client, club, count_queries):
    def counts() -> list[int]:
        found = []
        for url in PAGES:
            with count_queries() as statements:
                response = client.get(url)
            assert response.status_code == 200, url
            found.append(len(statements))
        return found

    few = counts()
    add_evenings(app, 4)
    assert counts() == few
    assert max(few) <= 8


def test_standings_page_ranks_and_sorts(client, club):
    page = parse(client.get("/standings/?sort=games&order=desc"))
    names = [row.find("th").text for row in page.find("tbody").find_all("tr")]
    assert names[:2] == ["Ann", "Bob"] or names[:2] == ["Bob", "Ann"]
    sorted_by = page.find("th", aria_sort="descending")
    assert "col-games" in sorted_by.attrs["class"]
    # The heading of the sorted column links to the other order.
    assert "order=asc" in sorted_by.find("a").attrs["href"]
    asc = parse(client.get("/standings/?sort=name&order=asc"))
    names = [row.find("th").text for row in asc.find("tbody").find_all("tr")]
    assert names == sorted(names)


def test_standings_answers_htmx_with_the_table_only(client, club):
    response = client.get("/standings/?period=month", headers=HTMX)
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert body.lstrip().startswith('<section id="standings"')
    assert "HX-Request" in response.headers["Vary"]


def test_a_sort_made_in_place_stays_when_the_period_changes(client, club):
    # Sorting swaps the table alone; the filter's sort fields come with it, so the filter (a
    # change of period) posts the order the table shows.
    page = parse(client.get("/standings/"))
    assert page.by_id("sort-fields").find("input", name="sort").attrs["value"] == "wins"
    sorted_by_name = parse(client.get("/standings/?sort=name&order=asc", headers=HTMX))
    fields = sorted_by_name.by_id("sort-fields")
    assert fields.attrs["hx-swap-oob"] == "true"
    assert fields.find("input", name="sort").attrs["value"] == "name"
    assert fields.find("input", name="order").attrs["value"] == "asc"


def test_bad_standings_arguments_fall_back_instead_of_failing(client, club):
    for query in ("period=decade", "first=yesterday&period=custom", "sort=drop", "league=abc"):
        assert client.get(f"/standings/?{query}").status_code == 200


def test_profile_shows_the_record_and_the_charts(client, club):
    page = parse(client.get("/players/1"))
    stats = {
        node.find("dt").text: node.find("dd").text
        for node in page.find_all("div")
        if node.find("dt")
    }
    assert stats["Games"] == "4"
    images = [img.attrs["src"] for img in page.find_all("img")]
    assert any(src.startswith("/players/1/rating.svg") for src in images)
    assert all(img.attrs.get("alt") for img in page.find_all("img"))
    assert client.get("/players/999").status_code == 404


def test_charts_are_svg_images_without_scripts(client, club):
    for url in ("/games/1/chart.svg", "/players/1/rating.svg", "/players/1/points.svg"):
        response = client.get(url)
        assert response.mimetype == "image/svg+xml"
        body = response.get_data(as_text=True)
        assert "<svg" in body and "<script" not in body
        assert "script-src" not in response.headers["Content-Security-Policy"]
        assert "default-src 'none'" in response.headers["Content-Security-Policy"]
    assert "Target 50" in client.get("/games/1/chart.svg").get_data(as_text=True)
    assert client.get("/games/999/chart.svg").status_code == 404


def test_the_chart_toggle_says_what_a_tap_does_either_way(app, club):
    with app.test_request_context("/games/1"):
        html = render_template("games/_chart.html", view=games.load_game(db.session, 1))
    toggle = parse(html).find("summary")
    # The stylesheet shows one phrase or the other as the chart opens and closes: whole phrases,
    # so that a language can put the verb where its grammar wants it.
    assert toggle.find(class_="when-closed").text == "Show score chart"
    assert toggle.find(class_="when-open").text == "Hide score chart"
    # The arrow is drawn for the eye; <details> tells screen readers whether it is open.
    assert toggle.find(class_="disclosure").attrs["aria-hidden"] == "true"


def test_the_game_chart_fragment_has_a_text_alternative(app, client, club):
    with app.test_request_context("/games/1"):
        view = games.load_game(db.session, 1)
        html = render_template("games/_chart.html", view=view)
    page = parse(html)
    assert page.find("img").attrs["src"] == f"/games/1/chart.svg?v={view.game.version}&lang=en"
    assert "Ann 50" in page.find("img").attrs["alt"]
    # The same numbers as a table are one link away, on the game's hands page.
    link = page.find("a").attrs["href"]
    assert link == "/games/1/hands#scores"
    hands_page = parse(client.get(link))
    cells = [
        [cell.text for cell in row.iter() if cell.tag in ("th", "td")]
        for row in hands_page.by_id("scores").find("tbody").find_all("tr")
    ]
    assert cells == [["1", "50", "0", "0"]]


def test_rename_refuses_a_taken_name_in_place(client, club):
    response = client.post("/players/1/rename", data={"name": "bob"}, headers=HTMX)
    assert response.status_code == 422
    assert "merge them instead" in error_for(parse(response), "name")
    response = client.post("/players/1/rename", data={"name": "Annie"})
    assert response.status_code == 303
    assert "Annie" in client.get("/players/1").get_data(as_text=True)


def test_archived_players_leave_the_setup_roster(client, club):
    assert client.post("/players/2/archive").status_code == 303
    chips = parse(client.get("/games/new")).find_all("button", class_="chip")
    assert "Bob" not in [chip.text for chip in chips]
    roster = client.get("/players/").get_data(as_text=True)
    assert "Archived" in roster and "Bob" in roster
    assert client.post("/players/2/restore").status_code == 303
    chips = parse(client.get("/games/new")).find_all("button", class_="chip")
    assert "Bob" in [chip.text for chip in chips]


def test_merge_page_merges_or_says_why_not(client, club):
    response = client.post("/players/1/merge", data={"other": "2"})
    assert response.status_code == 422
    assert "played in the same game" in error_for(parse(response), "other")
    client.post(
        "/leagues/1/teams",
        data={"first": "Zed", "second": "Yan", "new_player": ["Zed", "Yan"]},
    )
    response = client.post("/players/7/merge", data={"other": "9"})
    assert response.status_code == 422  # Gus and Zed are in two teams of the club
    with client.application.app_context():
        make_game(db.session, ["Ulla", "Bob"])
    assert client.post("/players/1/merge", data={"other": "11"}).status_code == 303
    assert client.get("/players/11").status_code == 404


def test_a_league_is_set_up_and_played_through_its_pages(client):
    response = client.post("/leagues/new", data={"name": "", "target": "100", "format": "teams"})
    assert response.status_code == 422
    response = client.post(
        "/leagues/new", data={"name": "Pairs", "target": "100", "format": "teams"}
    )
    assert response.status_code == 303
    league = response.headers["Location"]
    for first, second in (("Ann", "Bob"), ("Cat", "Dan"), ("Eve", "Fay")):
        assert (
            client.post(
                f"{league}/teams",
                data={"first": first, "second": second, "new_player": [first, second]},
            ).status_code
            == 303
        )
    response = client.post(
        f"{league}/teams", data={"first": "Ann", "second": "Gus", "new_player": "Gus"}
    )
    assert response.status_code == 422
    assert error_for(parse(response), "first") == "Ann already plays for Ann & Bob."
    response = client.post(f"{league}/seasons", data={"legs": "1"})
    assert response.status_code == 303
    season = parse(client.get(response.headers["Location"]))
    starts = [form.attrs["action"] for form in season.find("main").find_all("form")]
    assert len(starts) == 3  # three teams: one sits out each of three rounds
    response = client.post(starts[0])
    assert re.fullmatch(r"/games/\d+", response.headers["Location"])


def test_an_eight_player_league_draws_its_rotation_from_eight_names(client):
    response = client.post(
        "/leagues/new", data={"name": "Eights", "target": "200", "format": "rotation"}
    )
    league = response.headers["Location"]
    page = parse(client.get(league))
    assert page.find("form", id="team-form") is None
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
    response = client.post(
        f"{league}/seasons", data={f"players-{i}": name for i, name in enumerate(names[:7])}
    )
    assert response.status_code == 422
    assert "exactly 8 players" in parse(response).find(class_="form-error").text
    response = client.post(
        f"{league}/seasons", data={f"players-{i}": name for i, name in enumerate(names)}
    )
    assert response.status_code == 303
    season = parse(client.get(response.headers["Location"]))
    assert len(season.find_all("li", class_="fixture")) == 14
    assert len(season.find_all("h3", class_="round-title")) == 7
    # A rotation fixture ends after its 2 hands, whatever the league's target.
    assert "partners games of 2 hands" in season.text
    assert "partners games of 2 hands" in parse(client.get(league)).text


def ranked(page) -> list[tuple[str, str]]:
    return [
        (row.find("td").text, row.find("th").text)
        for row in page.find("tbody").find_all("tr")
        if "more" not in row.attrs.get("class", [])
    ]


def test_standings_page_a_page_at_a_time_with_ranks_that_carry_on(client, club, monkeypatch):
    monkeypatch.setattr(standings, "PAGE_SIZE", 2)
    whole = parse(client.get("/standings/?sort=name&order=asc"))
    more = whole.find("tr", class_="more").find("a")
    assert ranked(whole) == [("1", "Ann"), ("2", "Bob")]
    # Without JavaScript the link opens the next page; with htmx its rows alone come back.
    assert "sort=name" in more.attrs["href"] and "cursor=" in more.attrs["href"]
    plain = parse(client.get(more.attrs["href"]))
    assert ranked(plain) == [("3", "Cat"), ("4", "Dan")]
    rows = client.get(more.attrs["hx-get"], headers=HTMX).get_data(as_text=True)
    assert rows.lstrip().startswith("<tr>") and "<table" not in rows
    added = parse(f"<table><tbody>{rows}</tbody></table>")
    assert ranked(added) == [("3", "Cat"), ("4", "Dan")]
    found = ranked(whole) + ranked(added)
    link = added.find("tr", class_="more")
    while link is not None:
        page = parse(client.get(link.find("a").attrs["href"]))
        found += ranked(page)
        link = page.find("tr", class_="more")
    assert [rank for rank, _name in found] == [str(place) for place in range(1, len(found) + 1)]
    names = [name for _rank, name in found]
    assert names == sorted(names) and len(names) > 4


def test_standings_search_shows_where_a_name_stands(client, club):
    page = parse(client.get("/standings/?sort=name&order=asc&q=e"))
    assert ranked(page) == [("5", "Eve")]
    assert page.find("input", id="standings-search").attrs["value"] == "e"
    # The sort links keep the search.
    assert "q=e" in page.find("th", class_="col-games").find("a").attrs["href"]
    nobody = parse(client.get("/standings/?q=zzz"))
    assert "Nobody in this table has a name with “zzz”" in nobody.text


def test_standings_refuse_a_cursor_they_did_not_hand_out(client, club):
    response = client.get("/standings/?cursor=bogus")
    assert response.status_code == 400
    assert "start again from the first page" in response.get_data(as_text=True)


def test_the_league_filter_offers_the_newest_leagues_and_the_chosen_one(
    app, client, club, monkeypatch
):
    monkeypatch.setattr(standings, "LEAGUE_CHOICES", 3)

    def offered(url: str) -> list[str]:
        page = parse(client.get(url))
        return [option.text for option in page.find("select", name="league").find_all("option")]

    # One league: no other to offer, and its page leads to its standings.
    league_page = parse(client.get("/leagues/1"))
    assert "Standings" in [
        link.text for link in league_page.find_all("a", href="/standings/?league=1")
    ]
    assert offered("/standings/") == ["All games", "Club"]
    assert parse(client.get("/standings/")).find("a", class_="more-leagues") is None

    with app.app_context():
        for name in ("Zeta", "Alpha", "Mid", "Beta"):
            leagues.create_league(db.session, name, 50)
        db.session.remove()
    # The three newest, by name; the others are a link away, on the leagues' page.
    assert offered("/standings/") == ["All games", "Alpha", "Beta", "Mid"]
    more = parse(client.get("/standings/")).find("a", class_="more-leagues")
    assert more.attrs["href"] == "/leagues/"
    # An older league chosen (from its own page) is offered too, and shown chosen.
    page = parse(client.get("/standings/?league=1"))
    chosen = page.find("select", name="league").find("option", selected="")
    assert (chosen.text, chosen.attrs["value"]) == ("Club", "1")
    assert offered("/standings/?league=1") == ["All games", "Alpha", "Beta", "Club", "Mid"]
