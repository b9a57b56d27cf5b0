"""A season of a four-team league played through its fixtures on a phone; its table read there."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

TEAMS = [("Ann", "Bob"), ("Cat", "Dan"), ("Eve", "Fay"), ("Gus", "Hal")]
# The draw for four teams, in page order, with who wins each fixture and by how much:
# round 1 Ann & Bob v Gus & Hal, Cat & Dan v Eve & Fay; round 2 Eve & Fay v Ann & Bob,
# Gus & Hal v Cat & Dan; round 3 Ann & Bob v Cat & Dan, Eve & Fay v Gus & Hal.
RESULTS = [
    ("Ann & Bob", "Gus & Hal", "home", 60),
    ("Cat & Dan", "Eve & Fay", "home", 80),
    ("Eve & Fay", "Ann & Bob", "home", 70),
    ("Gus & Hal", "Cat & Dan", "away", 55),
    ("Ann & Bob", "Cat & Dan", "home", 90),
    ("Eve & Fay", "Gus & Hal", "home", 50),
]


def table(page: Page) -> list[list[str]]:
    return [
        [" ".join(cell.inner_text().split()) for cell in row.locator("th, td").all()]
        for row in page.locator(".league-table tbody tr").all()
    ]


def test_a_season_of_four_teams_played_through_fixtures(phone: Page, live_server: str):
    page = phone
    page.goto(f"{live_server}/leagues/new")
    page.locator("#name").fill("Thursday club")
    page.locator("#target").fill("50")
    page.get_by_role("button", name="Start the league").tap()
    page.wait_for_url(re.compile(r"/leagues/\d+$"))

    for first, second in TEAMS:
        page.locator("#first").fill(first)
        page.locator("#second").fill(second)
        page.get_by_role("button", name="Register").tap()
        # Each name new to the roster is asked about once (see test_league_teams.py).
        for name in (first, second):
            page.get_by_role("button", name=f"Add new player {name}").tap()
        expect(page.locator(".team-list")).to_contain_text(f"{first} & {second}")
    expect(page.locator(".team-list li")).to_have_count(4)

    page.get_by_role("button", name="Draw the fixtures").tap()
    page.wait_for_url(re.compile(r"/seasons/1$"))
    season_url = page.url
    expect(page.locator(".fixture")).to_have_count(6)

    for number, (home, away, winner, points) in enumerate(RESULTS):
        fixture = page.locator(".fixture").nth(number)
        expect(fixture.locator(".fixture-teams")).to_have_text(re.compile(f"{home} v {away}"))
        fixture.get_by_role("button", name=re.compile("^Start")).tap()
        page.wait_for_url(re.compile(r"/games/\d+$"))
        # Home sits in seats 1 and 3, away in 2 and 4; a player of the winners goes out and one
        # opponent holds all the points.
        going_out, holding, empty = (0, 1, 3) if winner == "home" else (1, 0, 2)
        names = [
            home.split(" & ")[0],
            away.split(" & ")[0],
            home.split(" & ")[1],
            away.split(" & ")[1],
        ]
        pad = page.locator("#hand-form")
        pad.locator(".went-out .chip", has_text=names[going_out]).tap()
        pad.locator(f'input[name="counts-{holding}-points"]').fill(str(points))
        pad.locator(f'input[name="counts-{empty}-points"]').fill("0")
        pad.get_by_role("button", name="Save hand").tap()
        winners = home if winner == "home" else away
        expect(page.locator("#result-title")).to_contain_text(f"{winners} win")
        page.goto(season_url)
        expect(page.locator(".fixture").nth(number).locator(".fixture-score")).to_be_visible()

    expect(page.locator(".season .muted").first).to_contain_text("6 of 6 fixtures played")
    # Ann & Bob, Cat & Dan and Eve & Fay each won twice and beat one another once each, so
    # points difference decides: +80, +45, +40.
    assert table(page) == [
        ["1", "Ann & Bob", "3", "2", "1", "150", "70", "+80", "67%"],
        ["2", "Cat & Dan", "3", "2", "1", "135", "90", "+45", "67%"],
        ["3", "Eve & Fay", "3", "2", "1", "120", "80", "+40", "67%"],
        ["4", "Gus & Hal", "3", "0", "3", "0", "165", "-165", "0%"],
    ]
    # The whole table fits the phone: no sideways scrolling, every column on screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    box = page.locator(".league-table").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= page.viewport_size["width"]
    for header in ("P", "W", "L", "PF", "PA", "+/−", "Win %"):
        expect(page.locator(".league-table thead th", has_text=header).first).to_be_visible()

    # The league's games count in the standings filtered to it.
    page.goto(f"{live_server}/standings/")
    # The filter folds behind its period on a phone: opened as a player would.
    page.locator(".filter-box summary").click()
    page.locator('select[name="league"]').select_option(label="Thursday club")
    expect(page.locator("#standings h2")).to_contain_text("Thursday club")
    expect(page.locator(".standings-table tbody tr")).to_have_count(8)
