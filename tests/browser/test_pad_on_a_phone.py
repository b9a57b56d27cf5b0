"""The tally pad read and fitted on a phone: legible notes, rows that say what they are, a note
after an edit, and nothing of the pad hidden under its docked keys, at 200% zoom and with ten
players too."""

from __future__ import annotations

import re

import pytest
from browser.fit import NARROW, PHONES, assert_no_sideways_scroll
from browser.schemes import each_scheme
from factories import make_game, record
from flask import Flask
from playwright.sync_api import Locator, Page, expect

from scorer.extensions import db

pytestmark = pytest.mark.browser

# WCAG 1.4.3: text under 18.66 px bold or 24 px needs 4.5:1 against what is behind it.
MIN_CONTRAST = 4.5

# The contrast of an element's text (or of its placeholder) as the screen shows it: its colour
# faded by its own opacity and every ancestor's, over the first opaque background behind it.
CONTRAST = """(element, pseudo) => {
  const parse = (text) => {
    const [r, g, b, a = 1] = text.match(/[\\d.]+/g).map(Number);
    return { r, g, b, a };
  };
  const over = (top, under) => ({
    r: top.r * top.a + under.r * (1 - top.a), g: top.g * top.a + under.g * (1 - top.a),
    b: top.b * top.a + under.b * (1 - top.a), a: 1,
  });
  const luminance = ({ r, g, b }) => {
    const channel = (c) => {
      c /= 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const own = getComputedStyle(element, pseudo);
  let text = parse(own.color);
  if (pseudo) text.a *= Number(own.opacity);
  let opacity = 1;
  const layers = [];
  for (let node = element; node; node = node.parentElement) {
    const style = getComputedStyle(node);
    opacity *= Number(style.opacity);
    const fill = parse(style.backgroundColor);
    if (fill.a > 0) layers.push(fill);
    if (fill.a === 1) break;
  }
  let behind = { r: 255, g: 255, b: 255, a: 1 };
  for (const layer of layers.reverse()) behind = over(layer, behind);
  text = over({ ...text, a: text.a * opacity }, behind);
  const [light, dark] = [luminance(text), luminance(behind)].sort((x, y) => y - x);
  return { ratio: (light + 0.05) / (dark + 0.05), size: parseFloat(own.fontSize) };
}"""


def contrast(locator: Locator, pseudo: str | None = None) -> float:
    return locator.evaluate(CONTRAST, pseudo)["ratio"]


def spoken_name(locator: Locator) -> str:
    """The name Chromium itself gives the element, as a screen reader gets it.

    Playwright computes names on its own, and puts a space around every element that is not
    inline, even one with display: none, where the browser does not.
    """
    page = locator.page
    cdp = page.context.new_cdp_session(page)
    try:
        locator.evaluate("(element) => element.setAttribute('data-name-probe', '')")
        found = cdp.send(
            "Runtime.evaluate", {"expression": "document.querySelector('[data-name-probe]')"}
        )
        tree = cdp.send(
            "Accessibility.getPartialAXTree",
            {"objectId": found["result"]["objectId"], "fetchRelatives": False},
        )
        locator.evaluate("(element) => element.removeAttribute('data-name-probe')")
        return " ".join(tree["nodes"][0]["name"]["value"].split())
    finally:
        cdp.detach()


@pytest.fixture
def game_id(live_app: Flask) -> int:
    with live_app.app_context():
        return make_game(db.session, ["Ann", "Bob", "Cat", "Dan"]).id


def tally(page: Page, name: str) -> Locator:
    return page.locator(f'#hand-form .tally[data-name="{name}"]')


@pytest.mark.parametrize("viewport", PHONES)
def test_the_went_out_note_and_the_total_placeholder_are_legible_in_both_schemes(
    new_phone, live_server: str, game_id: int, viewport: dict
):
    page = new_phone(viewport=viewport)
    page.goto(f"{live_server}/games/{game_id}")
    page.locator("#hand-form .went-out .chip", has_text="Ann").tap()
    note = tally(page, "Ann").locator("[data-note]")
    expect(note).to_have_text("went out")
    total = tally(page, "Bob").locator("[data-typed]")
    for scheme in each_scheme(page):
        assert contrast(note) >= MIN_CONTRAST, f"the went out note in {scheme}"
        assert contrast(total, "::placeholder") >= MIN_CONTRAST, f"the placeholder in {scheme}"


def test_each_row_button_says_name_points_and_whether_it_is_being_counted(
    phone: Page, live_server: str, game_id: int
):
    phone.goto(f"{live_server}/games/{game_id}")
    pad = phone.locator("#hand-form")
    pad.locator(".went-out .chip", has_text="Ann").tap()
    for key in ("3", "20"):
        pad.locator(f'.keys [data-card="{key}"]').tap()

    def pick(name: str) -> Locator:
        return tally(phone, name).locator(".tally-pick")

    assert spoken_name(pick("Ann")) == "Ann, went out"
    assert spoken_name(pick("Bob")) == "Bob, 23 points, being counted"
    assert spoken_name(pick("Cat")) == "Cat, not counted yet, choose to count"

    pick("Cat").tap()
    expect(tally(phone, "Cat")).to_have_class(re.compile(r"\bis-active\b"))
    assert spoken_name(pick("Cat")) == "Cat, not counted yet, being counted"
    assert spoken_name(pick("Bob")) == "Bob, 23 points, choose to count"


def test_an_edit_is_confirmed_and_its_page_has_the_game_pages_top_bar(
    phone: Page, live_server: str, live_app: Flask
):
    with live_app.app_context():
        game = make_game(db.session, ["Ann", "Bob", "Cat"])
        record(db.session, game, 0, {1: 10, 2: 20})
        record(db.session, game, 1, {0: 5, 2: 6})
        game_url = f"{live_server}/games/{game.id}"
    phone.goto(game_url)
    game_bar = phone.locator(".topnav > a").all_inner_texts()
    assert game_bar == ["Rules"]

    phone.goto(f"{game_url}/hands/1/edit")
    expect(phone.locator(".topnav > a")).to_have_text(game_bar)
    phone.locator('.tally[data-name="Cat"] [data-typed]').fill("25")
    phone.get_by_role("button", name="Save hand 1").tap()
    phone.wait_for_url(re.compile(r"/games/\d+\?updated=1$"))
    expect(phone.locator("[data-toast]")).to_have_text("Hand 1 updated")
    expect(phone.locator("[data-toast] button")).to_have_count(0)  # an edit has no Undo here
    expect(phone.locator(".standings .side").first.locator(".score")).to_have_text("score 35")


# Where an element is, and whether its middle, its top and its bottom are on top (not under the
# docked keys) and inside the screen.
IN_SIGHT = """(element) => {
  const box = element.getBoundingClientRect();
  const x = box.left + box.width / 2;
  const seen = (y) => {
    const hit = document.elementFromPoint(x, y);
    return !!hit && (hit === element || element.contains(hit));
  };
  return {
    top: box.top, bottom: box.bottom, height: innerHeight,
    onTop: seen(box.top + 2) && seen(box.top + box.height / 2) && seen(box.bottom - 2),
  };
}"""


def assert_in_sight(locator: Locator) -> None:
    where = locator.evaluate(IN_SIGHT)
    # A scroll lands on device pixels: at 2x, up to half a CSS pixel past the edge.
    assert where["top"] >= -0.5 and where["bottom"] <= where["height"] + 0.5, (
        f"off the screen: {where}"
    )
    assert where["onTop"], f"under the docked keys: {where}"


@pytest.mark.parametrize("mode", ["standard", "individual"])
@pytest.mark.parametrize("viewport", PHONES)
def test_the_last_card_and_its_reminder_are_never_under_the_docked_keys(
    new_phone, live_server: str, live_app: Flask, viewport: dict, mode: str
):
    with live_app.app_context():
        game = make_game(db.session, ["Ann", "Bob", "Cat", "Dan"], mode=mode)
        record(db.session, game, 0, {1: 10, 2: 20, 3: 5})
        url = f"{live_server}/games/{game.id}"
    page = new_phone(viewport=viewport)
    page.goto(url)
    pad = page.locator("#hand-form")
    for card, draws in (("Draw Two", "2"), ("Wild Draw Four", "4")):
        # As a keyboard reaches it: focus brings the choice into view, Space picks it.
        chip = pad.locator(".last-card .chip", has_text=card)
        chip.locator("input").focus()
        page.keyboard.press("Space")
        expect(chip.locator("input")).to_be_checked()
        assert_in_sight(pad.locator(".last-card legend"))
        assert_in_sight(chip)
        reminder = pad.locator(".reminder", has_text=f"draws {draws} cards")
        expect(reminder).to_be_visible()
        assert_in_sight(reminder)


# Browser zoom at 200% halves the CSS viewport: a 390x844 phone lays out in 195x422, a 360x640
# one in 180x320.
ZOOMED = [
    pytest.param({"width": 195, "height": 422}, id="390-at-200%"),
    pytest.param({"width": 180, "height": 320}, id="360-at-200%"),
]
# Boxes of the elements a selector finds, and whether each one's content overflows it.
BOXES = """(elements) => elements.map((element) => {
  const box = element.getBoundingClientRect();
  return {
    name: element.textContent.trim(), left: box.left, right: box.right, top: box.top,
    bottom: box.bottom, width: box.width, height: box.height,
    overflows: element.scrollWidth > element.clientWidth + 0.5,
  };
})"""


@pytest.mark.parametrize("viewport", ZOOMED)
def test_at_200_percent_zoom_the_keys_cover_nothing_and_nothing_scrolls_sideways(
    new_phone, live_server: str, game_id: int, viewport: dict
):
    page = new_phone(viewport=viewport, device_scale_factor=2)
    page.goto(f"{live_server}/games/{game_id}")
    assert page.evaluate("innerWidth") == viewport["width"], "the page is wider than the screen"
    assert_no_sideways_scroll(page)
    pad = page.locator("#hand-form")

    # Each chip and row, scrolled to the bottom of the screen where a docked keypad would be,
    # is what a tap there reaches.
    for target in (*pad.locator(".went-out .chip").all(), *pad.locator(".tally-pick").all()):
        target.evaluate("(element) => element.scrollIntoView({block: 'end'})")
        assert_in_sight(target)

    keys = pad.locator(".keys .key").evaluate_all(BOXES)
    assert not [key["name"] for key in keys if key["overflows"]]
    for number, key in enumerate(keys):
        for other in keys[number + 1 :]:
            apart = (
                key["right"] <= other["left"] + 0.5
                or other["right"] <= key["left"] + 0.5
                or key["bottom"] <= other["top"] + 0.5
                or other["bottom"] <= key["top"] + 0.5
            )
            assert apart, f"{key['name']} overlaps {other['name']}"

    # The summary reads as words: a few lines at most, not a letter a line.
    (summary,) = pad.locator("[data-summary]").evaluate_all(BOXES)
    line = float(
        pad.locator("[data-summary]").evaluate("(e) => parseFloat(getComputedStyle(e).lineHeight)")
    )
    assert summary["height"] <= 3 * line + 1, summary


TEN = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"]


def test_with_ten_players_the_row_being_counted_is_in_view_above_the_keys(
    new_phone, live_server: str, live_app: Flask
):
    with live_app.app_context():
        url = f"{live_server}/games/{make_game(db.session, TEN).id}"
    page = new_phone(viewport=NARROW)
    page.goto(url)
    pad = page.locator("#hand-form")
    eve = pad.locator(".went-out .chip", has_text="Eve")
    eve.locator("input").focus()
    page.keyboard.press("Space")
    fay = tally(page, "Fay")
    expect(fay).to_have_class(re.compile(r"\bis-active\b"))
    assert_in_sight(fay.locator(".tally-pick"))
    assert_in_sight(fay.locator("[data-typed]"))
