"""The tally pad with JavaScript: the same sums as the server, a tally that survives a reload, the
deck's limits checked on every tap, and the note after a save that undoes it in place."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from browser.targets import offenders
from factories import make_game
from flask import Flask
from playwright.sync_api import Locator, Page, expect
from werkzeug.datastructures import MultiDict

from scorer.extensions import db
from scorer.forms.hands import HandForm
from scorer.services import games

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Bob", "Cat", "Dan"]
PHONES = pytest.mark.parametrize(
    "viewport",
    [{"width": 390, "height": 844}, {"width": 360, "height": 640}],
    ids=["390x844", "360x640"],
)
# What the pad would post now: the fields of its form that are not disabled.
POSTED = "form => Array.from(new FormData(form).entries())"
SHOWN = """form => Array.from(form.querySelectorAll('.tally')).map(row => [
  row.querySelector('[data-tape]').textContent, row.querySelector('[data-note]').textContent,
  row.querySelector('[data-points]').textContent])"""


@pytest.fixture
def new_game(live_app: Flask, live_server: str) -> Callable[..., tuple[int, str]]:
    def make(names=NAMES, mode: str = "standard", target: int = 500) -> tuple[int, str]:
        with live_app.app_context():
            game_id = make_game(db.session, names, mode, target).id
        return game_id, f"{live_server}/games/{game_id}"

    return make


def tap_hand(pad: Locator, went_out: str, hands: dict[str, list[str] | str]) -> None:
    """Taps who went out, then each hand: a list of keys, or a typed total."""
    pad.locator(".went-out .chip", has_text=went_out).tap()
    for name, keys in hands.items():
        row = pad.locator(f'.tally[data-name="{name}"]')
        if isinstance(keys, str):
            row.locator("[data-typed]").fill(keys)
            continue
        row.locator(".tally-pick").tap()
        for key in keys:
            pad.locator(f'.keys [data-card="{key}"], .keys [data-pad="{key}"]').tap()


def server_view(live_app: Flask, game_id: int, posted: list[list[str]]) -> tuple[str, list]:
    """The summary and rows the server draws for the same posted fields, without JavaScript."""
    data = MultiDict([tuple(field) for field in posted])
    with live_app.test_request_context(method="POST", data=data):
        form = HandForm.for_game(games.load_game(db.session, game_id))
        rows = [[row.tape, row.note, row.shown] for row in form.rows()]
        return form.summary(), rows


HANDS = [
    ("standard", NAMES, "Ann", {"Bob": ["3", "20"], "Cat": ["50", "20"], "Dan": "8"}),
    ("standard", NAMES, "Cat", {"Dan": ["9", "back", "0"], "Ann": ["50", "clear", "7"]}),
    ("standard", ["Ann", "Bob"], "Bob", {}),
    ("partners", NAMES, "Ann", {"Bob": ["5", "50"], "Dan": "12"}),
    ("partners", ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"], "Eve", {"Ann": ["1"], "Cat": ["2"]}),
    ("challenge", ["Ann", "Bob", "Cat"], "Bob", {"Cat": ["20", "4"], "Ann": "30"}),
]


def test_the_script_sums_up_as_the_server_does(phone: Page, live_app: Flask, new_game, subtests):
    # One phone for every hand (the pad starts afresh on each game's page); subtests report each.
    for mode, names, went_out, hands in HANDS:
        with subtests.test(mode=mode, players=len(names), went_out=went_out):
            game_id, url = new_game(names, mode)
            phone.goto(url)
            pad = phone.locator("#hand-form")
            tap_hand(pad, went_out, hands)
            summary = pad.locator("[data-summary]").text_content()
            shown = pad.evaluate(SHOWN)
            assert (summary, shown) == server_view(live_app, game_id, pad.evaluate(POSTED))


def test_switching_who_went_out_keeps_the_tally_off_their_row(
    phone: Page, live_app: Flask, new_game
):
    game_id, url = new_game()
    phone.goto(url)
    pad = phone.locator("#hand-form")
    tap_hand(pad, "Ann", {"Bob": ["3", "20"]})
    pad.locator(".went-out .chip", has_text="Bob").tap()
    bob = pad.locator('.tally[data-name="Bob"]')
    expect(bob.locator("[data-note]")).to_have_text("went out")
    expect(bob.locator("[data-tape]")).to_have_text("")
    expect(bob.locator("[data-points]")).to_have_text("")
    expect(pad.locator("[data-summary]")).to_have_text("Bob scores 0")
    # The same as the server draws it without JavaScript.
    shown = (pad.locator("[data-summary]").text_content(), pad.evaluate(SHOWN))
    assert shown == server_view(live_app, game_id, pad.evaluate(POSTED))
    # Bob's cards were kept (not posted): going back to Ann brings them back.
    pad.locator(".went-out .chip", has_text="Ann").tap()
    expect(bob.locator("[data-tape]")).to_have_text("3 · 20")
    expect(pad.locator("[data-summary]")).to_have_text("Ann scores 23")


def test_a_tally_survives_a_reload_and_is_dropped_once_saved(phone: Page, new_game):
    game_id, url = new_game()
    page = phone
    page.goto(url)
    pad = page.locator("#hand-form")
    tap_hand(pad, "Ann", {"Bob": ["3", "20"], "Cat": ["50"]})
    pad.locator(".last-card .chip", has_text="Draw Two").tap()
    key = f"uno:tally:{game_id}:1"
    assert page.evaluate(f"localStorage.getItem('{key}')") is not None

    page.reload()
    expect(pad.locator("input[name=went_out][value='0']")).to_be_checked()
    expect(pad.locator('.tally[data-name="Bob"] [data-tape]')).to_have_text("3 · 20")
    cat = pad.locator('.tally[data-name="Cat"]')
    expect(cat).to_have_class(re.compile(r"\bis-active\b"))
    expect(cat.locator("[data-points]")).to_have_text("50")
    expect(pad.locator("input[name=last_card][value=draw2]")).to_be_checked()
    expect(pad.locator("[data-summary]")).to_have_text("Ann scores 73")

    # Counting goes on where it stopped, and the saved hand is no longer kept.
    pad.locator('.keys [data-card="20"]').tap()
    pad.locator('.tally[data-name="Dan"] .tally-pick').tap()
    pad.locator('.keys [data-card="8"]').tap()
    page.get_by_role("button", name="Save hand").tap()
    expect(page.locator(".history .hand-head")).to_contain_text("Ann went out, +101")
    assert page.evaluate(f"localStorage.getItem('{key}')") is None
    assert page.evaluate(f"localStorage.getItem('uno:tally:{game_id}:2')") is None

    # A tally kept for a hand the game has gone past (another phone saved it) is dropped, unused.
    page.evaluate(f"localStorage.setItem('{key}', JSON.stringify({{went_out: '1'}}))")
    page.reload()
    expect(pad.locator(".pad-title")).to_have_text("Record hand 2")
    expect(pad.locator("input[name=went_out]:checked")).to_have_count(0)
    assert page.evaluate(f"localStorage.getItem('{key}')") is None


def test_the_deck_limits_are_checked_on_every_tap(phone: Page, new_game):
    _, url = new_game()
    phone.goto(url)
    pad = phone.locator("#hand-form")
    bob = pad.locator('.tally[data-name="Bob"]')
    cat = pad.locator('.tally[data-name="Cat"]')
    tap_hand(pad, "Ann", {"Bob": ["0", "0", "0"], "Cat": ["0", "0"]})
    message = "5 0s counted, but the deck has only 4."
    expect(bob.locator(".error")).to_have_text(message)
    expect(cat.locator(".error")).to_have_text(message)
    # Saved anyway, the server refuses it with the same words on both rows (Dan is not counted).
    phone.get_by_role("button", name="Save hand").tap()
    dan_message = "Count this hand or type its total."
    expect(pad.locator('.tally[data-name="Dan"] .error')).to_have_text(dan_message)
    expect(bob.locator(".error")).to_have_text(message)
    # One 0 less on Cat's row: the deck fits again, and Bob's message goes with Cat's.
    cat.locator(".tally-pick").tap()
    pad.locator('.keys [data-pad="back"]').tap()
    expect(bob.locator(".error")).to_have_count(0)
    expect(cat.locator(".error")).to_have_count(0)
    expect(pad.locator('.tally[data-name="Dan"] .error')).to_have_text(dan_message)


def test_a_refused_rows_message_goes_once_that_row_changes(phone: Page, new_game):
    _, url = new_game()
    page = phone
    page.goto(url)
    pad = page.locator("#hand-form")
    tap_hand(pad, "Ann", {"Bob": ["3"], "Cat": ["4"]})
    page.get_by_role("button", name="Save hand").tap()
    dan = pad.locator('.tally[data-name="Dan"]')
    expect(dan.locator(".error")).to_have_text("Count this hand or type its total.")
    dan.locator(".tally-pick").tap()
    pad.locator('.keys [data-card="5"]').tap()
    expect(dan.locator(".error")).to_have_count(0)
    expect(dan.locator("[data-typed]")).not_to_have_attribute("aria-invalid", "true")


def test_the_saved_note_undoes_the_hand_in_place_and_then_fades(phone: Page, new_game):
    _, url = new_game()
    page = phone
    page.clock.install()
    page.goto(url)
    page.evaluate("window.__marker = 1")
    pad = page.locator("#hand-form")
    tap_hand(pad, "Ann", {"Bob": ["3", "20"], "Cat": ["50", "20"], "Dan": ["8"]})
    page.get_by_role("button", name="Save hand").tap()
    note = page.locator("[data-toast]")
    expect(note).to_have_text(re.compile(r"^\s*Hand 1 saved\s+Undo hand 1\s*$"))
    expect(note).to_have_attribute("role", "status")
    note.get_by_role("button", name="Undo hand 1").tap()
    expect(page.locator(".history .hand")).to_have_count(0)
    expect(page.locator(".deal-line")).to_have_text("Ann deals hand 1.")
    expect(page.locator("[data-toast]")).to_have_count(0)
    assert page.evaluate("window.__marker") == 1, "the undo reloaded the page"
    assert page.evaluate("scrollY") == 0

    # Saved again, the note stays a few seconds, then leaves the summary in view. (The undone
    # hand came back on the pad: Cat's and Dan's cards are cleared first.)
    tap_hand(pad, "Bob", {"Cat": ["clear", "7"], "Dan": ["clear", "1"], "Ann": ["2"]})
    page.get_by_role("button", name="Save hand").tap()
    expect(note).to_be_visible()
    assert offenders(page) == []
    page.clock.run_for(3_000)
    expect(note).to_be_visible()
    page.clock.run_for(4_000)
    expect(note).to_be_hidden()
    expect(pad.locator("[data-summary]")).to_have_text("Tap who went out.")

    # Saved, and the next hand counted at once: its running total shows in the note's place.
    tap_hand(pad, "Cat", {"Dan": ["9"], "Ann": ["4"], "Bob": ["5"]})
    page.get_by_role("button", name="Save hand").tap()
    expect(note).to_be_visible()
    pad.locator(".went-out .chip", has_text="Dan").tap()
    # At once, well before the note would fade by itself.
    expect(note).to_be_hidden(timeout=1_000)
    expect(pad.locator("[data-summary]")).to_be_visible()
    expect(pad.locator("[data-summary]")).to_have_text("Dan scores 0")


def test_the_pad_tells_the_offline_queue_what_the_hand_gives(phone: Page, new_game):
    _, url = new_game()
    phone.goto(url)
    pad = phone.locator("#hand-form")
    expect(pad).to_have_attribute("data-brief", "")
    tap_hand(pad, "Ann", {"Bob": ["3", "20"], "Cat": ["50", "20"], "Dan": ["8"]})
    expect(pad).to_have_attribute("data-brief", "Ann +101")
    assert pad.evaluate("form => JSON.parse(form.dataset.effect)") == {"0": 101}

    # Emptied for the next hand when the hand waits on the phone: test_offline.py.


BRIEFS = [
    ("partners", NAMES, "Ann", {"Bob": ["9"], "Dan": ["20"]}, "Ann & Cat +29", {"0": 29}),
    (
        "challenge",
        ["Ann", "Bob", "Cat"],
        "Ann",
        {"Bob": ["9", "3"], "Cat": ["20", "5", "5"]},
        "Bob +12 · Cat +30",
        {"1": 12, "2": 30},
    ),
]


def test_the_brief_and_effect_follow_the_mode(phone: Page, new_game, subtests):
    # One phone for every mode, as for the sums: each game's page starts its pad afresh.
    for mode, names, went_out, hands, brief, effect in BRIEFS:
        with subtests.test(mode=mode):
            _, url = new_game(names, mode)
            phone.goto(url)
            pad = phone.locator("#hand-form")
            tap_hand(pad, went_out, hands)
            expect(pad).to_have_attribute("data-brief", brief)
            assert pad.evaluate("form => JSON.parse(form.dataset.effect)") == effect


@PHONES
def test_a_player_not_yet_counted_never_shows_a_bare_zero(new_phone, viewport, live_app, new_game):
    page = new_phone(viewport)
    game_id, url = new_game()
    page.goto(url)
    pad = page.locator("#hand-form")
    tap_hand(pad, "Ann", {})
    for name in ("Bob", "Cat", "Dan"):
        row = pad.locator(f'.tally[data-name="{name}"]')
        expect(row.locator("[data-points]")).to_have_text("—")
        expect(row.locator(".tally-pick")).to_have_accessible_name(re.compile("not counted yet"))
    # A card tapped, or a total typed, counts the row; a typed 0 is a counted zero.
    tap_hand(pad, "Ann", {"Bob": ["3"], "Cat": "0"})
    expect(pad.locator('.tally[data-name="Bob"] [data-points]')).to_have_text("3")
    expect(pad.locator('.tally[data-name="Cat"] [data-points]')).to_have_text("0")
    expect(pad.locator('.tally[data-name="Cat"] .tally-pick')).to_have_accessible_name(
        "Cat, 0 points, being counted"
    )
    expect(pad.locator('.tally[data-name="Bob"] .tally-pick')).to_have_accessible_name(
        "Bob, 3 points, choose to count"
    )
    expect(pad.locator('.tally[data-name="Dan"] [data-points]')).to_have_text("—")
    # As the server draws it without JavaScript.
    shown = (pad.locator("[data-summary]").text_content(), pad.evaluate(SHOWN))
    assert shown == server_view(live_app, game_id, pad.evaluate(POSTED))


@PHONES
def test_a_typed_total_is_checked_as_it_is_typed(new_phone, viewport, new_game):
    page = new_phone(viewport)
    _, url = new_game()
    page.goto(url)
    pad = page.locator("#hand-form")
    tap_hand(pad, "Ann", {"Bob": ["3", "20"], "Dan": ["8"]})
    cat = pad.locator('.tally[data-name="Cat"]')
    total = cat.locator("[data-typed]")
    summary = pad.locator("[data-summary]")
    for typed, message in [
        ("1a2b", "Type a whole number of points, like 37."),
        ("-5", "A total cannot be negative."),
    ]:
        total.fill("")
        total.press_sequentially(typed)
        expect(total).to_have_attribute("aria-invalid", "true")
        error = cat.locator(".error")
        expect(error).to_have_text(message)
        expect(error).to_be_visible()
        assert total.get_attribute("aria-describedby") == error.get_attribute("id")
        expect(summary).to_have_text("Fix the total for Cat.")
        expect(cat.locator("[data-points]")).to_have_text("—")
    total.fill("70")
    expect(total).not_to_have_attribute("aria-invalid", "true")
    expect(cat.locator(".error")).to_have_count(0)
    expect(summary).to_have_text("Ann scores 101")


@PHONES
def test_undo_puts_the_hand_back_on_the_pad_to_fix_and_save(new_phone, viewport, new_game):
    page = new_phone(viewport)
    _, url = new_game()
    page.goto(url)
    pad = page.locator("#hand-form")
    # Saved with a mistake: 5 typed for Dan's 8.
    tap_hand(pad, "Ann", {"Bob": ["3", "20"], "Cat": ["50", "20"], "Dan": "5"})
    pad.locator(".last-card .chip", has_text="Draw Two").tap()
    page.get_by_role("button", name="Save hand").tap()
    page.locator("[data-toast]").get_by_role("button", name="Undo hand 1").tap()
    expect(page.locator(".history .hand")).to_have_count(0)
    expect(pad.locator(".went-out input[value='0']")).to_be_checked()
    expect(pad.locator(".last-card input[value='draw2']")).to_be_checked()
    assert pad.evaluate(SHOWN)[1:] == [
        ["3 · 20", "", "23"],
        ["50 · 20", "", "70"],
        ["typed", "", "5"],
    ]
    expect(pad.locator("[data-summary]")).to_have_text("Ann scores 98")
    # Fixed with one change, saved again.
    pad.locator('.tally[data-name="Dan"] [data-typed]').fill("8")
    expect(pad.locator("[data-summary]")).to_have_text("Ann scores 101")
    page.get_by_role("button", name="Save hand").tap()
    expect(page.locator(".history .hand")).to_have_count(1)
    expect(page.locator(".history .hand")).to_contain_text("101")


# Whether the focused element shows a focus ring (a radio's ring is drawn on its chip).
FOCUS_RING = """() => {
  const focused = document.activeElement;
  const ringed = focused.closest('.radio-chip') || focused;
  const style = getComputedStyle(ringed);
  return style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
}"""
# The focused element's box against the top of the docked keys.
FOCUS_BOX = """() => {
  const focused = document.activeElement;
  const box = (focused.closest('.radio-chip') || focused).getBoundingClientRect();
  const dock = document.querySelector('.dock').getBoundingClientRect().top;
  return {top: box.top, bottom: box.bottom, dock};
}"""


@PHONES
def test_the_reference_hand_is_counted_with_the_keyboard_alone(new_phone, viewport, new_game):
    page = new_phone(viewport)
    _, url = new_game()
    page.goto(url)
    pad = page.locator("#hand-form")
    for _ in range(60):
        if page.evaluate("document.activeElement.matches('input[name=went_out]')"):
            break
        page.keyboard.press("Tab")
    hint = pad.locator(".pad-keyboard")
    # Ann went out; Bob 3 and 20, Cat 50 and 20, Dan 8: the row with the focus takes the cards.
    keys = ["Space", "Tab", "3", "a", "Tab", "Tab", "w", "a", "Tab", "Tab", "8"]
    hint_shown = []
    for key in keys:
        page.keyboard.press(key)
        assert page.evaluate(FOCUS_RING), f"no focus ring after {key}"
        box = page.evaluate(FOCUS_BOX)
        assert box["top"] >= 0 and box["bottom"] <= box["dock"] + 1, (key, box)
        if page.evaluate("document.activeElement.matches('.tally-pick')"):
            hint_shown.append(hint.is_visible())
    assert pad.evaluate(SHOWN)[1:] == [["3 · 20", "", "23"], ["50 · 20", "", "70"], ["8", "", "8"]]
    expect(pad.locator("[data-summary]")).to_have_text("Ann scores 101")
    # The keys are said on screen whenever a row has the focus.
    assert hint_shown and all(hint_shown)
    expect(hint).to_contain_text("A adds 20, W adds 50")
    # Backspace on a row takes its last card off; Enter chooses a row without adding anything.
    page.keyboard.press("Backspace")
    expect(pad.locator('.tally[data-name="Dan"] [data-points]')).to_have_text("—")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")
    expect(pad.locator('.tally[data-name="Cat"]')).to_have_class(re.compile(r"\bis-active\b"))
    expect(pad.locator("[data-summary]")).to_have_text("Ann scores 93")


def test_the_row_being_counted_is_in_view_above_the_dock_with_ten_players(new_phone, new_game):
    page = new_phone({"width": 360, "height": 640})
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jay"]
    _, url = new_game(names)
    page.goto(url)
    pad = page.locator("#hand-form")

    def in_view(name: str) -> bool:
        """Whether all the row says (name, cards, points) is on screen, above the docked keys."""
        return page.evaluate(
            """name => {
              const row = document.querySelector(`.tally[data-name="${name}"]`);
              const dock = document.querySelector('.dock').getBoundingClientRect();
              const spans = Array.from(row.querySelectorAll('.tally-pick > span:not(:empty)'));
              return spans.length > 0 && spans.every(span => {
                const box = span.getBoundingClientRect();
                return box.top >= 0 && box.bottom <= dock.top;
              });
            }""",
            name,
        )

    for went_out, counted in [("Eve", "Fay"), ("Ann", "Bob"), ("Dan", "Eve")]:
        pad.locator(".went-out .chip", has_text=went_out).tap()
        expect(pad.locator(f'.tally[data-name="{counted}"]')).to_have_class(
            re.compile(r"\bis-active\b")
        )
        assert in_view(counted), f"{counted} is not in view after {went_out} went out"
    # A row chosen with the keyboard comes into view too.
    pad.locator('.tally[data-name="Jay"] .tally-pick').focus()
    page.keyboard.press("Enter")
    assert in_view("Jay")


def test_the_pad_answers_while_the_rest_of_the_page_is_on_its_way(phone: Page, new_game):
    # The parser is held right after the pad by a script that never comes, as a slow
    # phone is still parsing and laying out the history and the chart: a tap on the pad is answered
    # all the same, with the page still loading.
    _, url = new_game()
    held = "/static/held-after-the-pad.js"

    def hold_after_the_pad(route) -> None:
        page = route.fetch()
        body = page.text().replace(
            '<section id="history"', f'<script src="{held}"></script><section id="history"', 1
        )
        assert held in body, "the game page no longer has its history after the pad"
        route.fulfill(response=page, body=body)

    phone.route(url, hold_after_the_pad)
    # Never answered: the parser stays where it is until the page is closed.
    phone.route(f"**{held}", lambda route: None)
    phone.goto(url, wait_until="commit")
    pad = phone.locator("#hand-form")
    pad.locator(".went-out .chip", has_text="Bob").tap()
    expect(pad.locator("[data-summary]")).to_contain_text("Bob", timeout=2000)
    assert phone.evaluate("document.readyState") == "loading"
    assert phone.locator("#history").count() == 0
