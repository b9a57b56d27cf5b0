"""Keeping score without the server: hands wait on the phone, go out once, and never vanish.

Each phone here is a context of its own, so the requests that fail while it is offline (polls,
sends) are expected; script errors, and any other console error, still fail the test.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
import sqlalchemy as sa
from browser.schemes import AXE
from browser.targets import offenders
from browser.thumb import ThumbTaps, reference_hand
from document import parse
from factories import make_game, record
from flask import Flask, request, request_started
from playwright.sync_api import Locator, Page, expect
from werkzeug.exceptions import ServiceUnavailable

from scorer import client_words
from scorer.extensions import db
from scorer.models import Game, User
from scorer.services import games
from scorer.services.accounts import add_user, set_password

pytestmark = pytest.mark.browser

# The script's words in English, the language the tests read the pages in.
CLIENT_WORDS = client_words.client_words()

PHONE = {"width": 390, "height": 844}
# The longest the server holds a page back for a test that looks at the copy before the fresh page;
# a test lets the page go as soon as it has seen what it looks for.
HOLD_LIMIT_S = 10
# The longest wait between two sends of a waiting hand (static/js/src/queue.js).
LAST_RETRY_MS = 60_000
READY = "navigator.serviceWorker.ready.then((registration) => !!registration.active)"
COPIES = """caches.keys()
  .then((keys) => Promise.all(keys.filter((key) => key.startsWith('uno-pages-'))
    .map((key) => caches.open(key).then((cache) => cache.keys()))))
  .then((lists) => lists.flat().map((request) => new URL(request.url).pathname))"""
QUEUE = "(game) => JSON.parse(localStorage.getItem('uno:queue:' + game) || '[]')"
# What a phone without a server logs about the requests it could not make (htmx logs a poll that
# failed as an error).
UNREACHABLE = re.compile(
    r"net::ERR_(INTERNET_DISCONNECTED|CONNECTION_REFUSED|FAILED)"
    r"|the server responded with a status of 4\d\d"
    r"|^htmx:(sendError|afterRequest), \[object HTMLDivElement\]$"
)


@pytest.fixture
def offline_phone(new_phone: Callable[..., Page]) -> Callable[[], Page]:
    """A phone that may log what it could not reach, and nothing else."""
    return lambda: new_phone(console_allowed=UNREACHABLE)


@pytest.fixture
def game_id(live_app: Flask) -> int:
    with live_app.app_context():
        return make_game(db.session, ["Ann", "Bob", "Cat"]).id


def stored(live_app: Flask, game: int) -> list[tuple[int, dict[int, int]]]:
    """Who went out and the points counted, hand by hand, as the database has them."""
    with live_app.app_context():
        try:
            view = games.load_game(db.session, game)
            return [(hand.went_out, dict(hand.counted)) for hand in view.state.hands]
        finally:
            db.session.remove()


def eventually(page: Page, check: Callable[[], bool], seconds: float = 10) -> None:
    """Waits until `check` holds, or `seconds` have gone: the worker keeps its copies in its own
    time, late on a busy machine. The caller asserts what it waited for."""
    deadline = time.monotonic() + seconds
    while not check() and time.monotonic() < deadline:
        page.wait_for_timeout(50)


def open_with_copy(page: Page, url: str) -> None:
    """Open a game page twice: the second visit, under the service worker, leaves a copy."""
    page.goto(url)
    assert page.evaluate(READY)
    page.goto(url)
    path = url.split("127.0.0.1", 1)[1].split("/", 1)[1]
    eventually(page, lambda: f"/{path}" in page.evaluate(COPIES))
    assert f"/{path}" in page.evaluate(COPIES), f"no copy of /{path}"


def no_axe_violations(page: Page) -> None:
    results = AXE.run(page)
    assert not results.violations_count, results.generate_report()


def save(page: Page) -> None:
    page.locator("#hand-form").get_by_role("button", name="Save hand").tap()


def waiting(page: Page) -> Locator:
    return page.locator("#waiting .waiting-hand")


def test_hands_saved_offline_wait_survive_a_reload_and_are_stored_once(
    offline_phone, live_server: str, live_app: Flask, game_id: int, enter_hand
):
    page = offline_phone()
    url = f"{live_server}/games/{game_id}"
    open_with_copy(page, url)
    page.context.set_offline(True)

    # What the server would refuse is said at once, not queued: a hand left uncounted.
    enter_hand(page, Locator.tap, "Ann", {"Bob": ["5"]})
    save(page)
    expect(page.locator("#hand-form [data-summary]")).to_have_text(
        "Count every hand before saving: Cat."
    )
    assert page.evaluate(QUEUE, str(game_id)) == []
    page.locator('#hand-form .tally[data-name="Cat"] .tally-pick').tap()
    page.locator('#hand-form .keys [data-card="20"]').tap()
    save(page)
    expect(waiting(page)).to_have_count(1)
    expect(waiting(page).first).to_contain_text(re.compile(r"^Hand 1 · Ann \+25 · waiting to send"))
    # An empty pad for the next hand, the tally kept for the one waiting dropped.
    pad = page.locator("#hand-form")
    expect(pad.locator(".pad-title")).to_have_text("Record hand 2")
    expect(pad.locator("input[name=number]")).to_have_value("2")
    expect(pad.locator("input[name=went_out]:checked")).to_have_count(0)
    expect(pad.locator("[data-summary]")).to_have_text("Tap who went out.")
    expect(pad.locator('.tally[data-name="Cat"] [data-cards]')).to_have_value("")
    assert page.evaluate(f"localStorage.getItem('uno:tally:{game_id}:1')") is None
    enter_hand(page, Locator.tap, "Bob", {"Cat": ["7"], "Ann": ["9"]})
    save(page)
    expect(waiting(page)).to_have_count(2)
    expect(waiting(page).nth(1)).to_contain_text(
        re.compile(r"^Hand 2 · Bob \+16 · waiting to send")
    )
    expect(page.locator("#hand-form .pad-title")).to_have_text("Record hand 3")
    # The scoreboard keeps the confirmed totals and marks what the waiting hands would add.
    expect(page.locator('[data-side="0"] [data-waiting]')).to_have_text("+25 waiting")
    expect(page.locator('[data-side="1"] [data-waiting]')).to_have_text("+16 waiting")
    expect(page.locator('[data-side="0"] .score')).to_have_text(re.compile(r"score\s*0$"))
    expect(page.locator('[data-side="1"] .score')).to_have_text(re.compile(r"score\s*0$"))
    assert stored(live_app, game_id) == []

    # Reopened offline: the copy, marked as such, with the hands still waiting.
    page.reload()
    expect(page.locator("#copy-mark")).to_have_text(re.compile(r"^Offline · last seen \d\d:\d\d$"))
    expect(waiting(page)).to_have_count(2)
    expect(page.locator('[data-side="0"] [data-waiting]')).to_have_text("+25 waiting")
    no_axe_violations(page)
    assert offenders(page) == []
    expect(page.locator("#hand-form .pad-title")).to_have_text("Record hand 3")
    assert [hand["number"] for hand in page.evaluate(QUEUE, str(game_id))] == [1, 2]

    page.context.set_offline(False)
    expect(page.locator("#waiting")).to_have_count(0)
    expect(page.locator("#copy-mark")).to_be_hidden()
    assert stored(live_app, game_id) == [(0, {1: 5, 2: 20}), (1, {2: 7, 0: 9})]
    expect(page.locator("#scoreboard .deal-line")).to_contain_text("deals hand 3")
    assert page.evaluate(QUEUE, str(game_id)) == []
    # The copy followed the game without downloading it again: offline, it shows both hands.
    page.wait_for_timeout(500)
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("#copy-mark")).to_contain_text("Offline · last seen")
    expect(page.locator("#hand-form .pad-title")).to_have_text("Record hand 3")
    expect(page.locator("#scoreboard .deal-line")).to_contain_text("deals hand 3")
    expect(page.locator("#waiting")).to_have_count(0)
    # Sent once: back online, nothing is sent again.
    page.context.set_offline(False)
    expect(page.locator("#copy-mark")).to_be_hidden()
    assert stored(live_app, game_id) == [(0, {1: 5, 2: 20}), (1, {2: 7, 0: 9})]


def conflict(offline_phone, live_server: str, game: int, enter_hand) -> Page:
    """Ours (Ann went out) waits offline while another phone records hand 1 (Bob went out)."""
    ours, theirs = offline_phone(), offline_phone()
    url = f"{live_server}/games/{game}"
    open_with_copy(ours, url)
    ours.context.set_offline(True)
    enter_hand(ours, Locator.tap, "Ann", {"Bob": ["5"], "Cat": ["20"]})
    save(ours)
    expect(waiting(ours)).to_have_count(1)

    theirs.goto(url)
    enter_hand(theirs, Locator.tap, "Bob", {"Cat": ["3"], "Ann": ["50"]})
    save(theirs)
    expect(theirs.locator("#hand-form .pad-title")).to_have_text("Record hand 2")

    ours.context.set_offline(False)
    hand = waiting(ours).first
    expect(hand).to_contain_text("another phone recorded it")
    expect(hand.locator(".version").first).to_have_text(
        "Theirs: Bob +53 (Bob went out · Ann 50 · Cat 3)"
    )
    expect(hand.locator(".version").nth(1)).to_have_text(
        "Ours: Ann +25 (Ann went out · Bob 5 · Cat 20)"
    )
    return ours


def test_a_hand_another_phone_recorded_meanwhile_is_shown_and_kept_until_theirs_is_chosen(
    offline_phone, live_server: str, live_app: Flask, game_id: int, enter_hand
):
    page = conflict(offline_phone, live_server, game_id, enter_hand)
    # Nothing is dropped while the table decides: theirs is stored, ours still waits.
    assert stored(live_app, game_id) == [(1, {0: 50, 2: 3})]
    assert [hand["number"] for hand in page.evaluate(QUEUE, str(game_id))] == [1]
    page.reload()
    expect(waiting(page).first).to_contain_text("another phone recorded it")
    no_axe_violations(page)
    assert offenders(page) == []

    waiting(page).first.get_by_role("button", name="Keep theirs").tap()
    expect(page.locator("#waiting")).to_have_count(0)
    assert page.evaluate(QUEUE, str(game_id)) == []
    assert stored(live_app, game_id) == [(1, {0: 50, 2: 3})]


def test_using_ours_makes_it_an_edit_of_their_hand(
    offline_phone, live_server: str, live_app: Flask, game_id: int, enter_hand
):
    page = conflict(offline_phone, live_server, game_id, enter_hand)
    waiting(page).first.get_by_role("button", name="Use ours").tap()
    expect(page.locator("#waiting")).to_have_count(0)
    assert stored(live_app, game_id) == [(0, {1: 5, 2: 20})]
    expect(page.locator("#scoreboard .standings li").first).to_contain_text("25")
    assert page.evaluate(QUEUE, str(game_id)) == []


@contextmanager
def before_answering(
    live_app: Flask, act: Callable[[], None], methods: tuple[str, ...] = ("GET",)
) -> Iterator[set[str]]:
    """While a path is in the set, the server does `act` before it answers a request of it by
    one of `methods`."""
    paths: set[str] = set()

    def before(_sender, **_extra) -> None:
        if request.method in methods and request.path in paths:
            act()

    request_started.connect(before, live_app)
    try:
        yield paths
    finally:
        request_started.disconnect(before, live_app)


class HeldPages:
    """Pages the server holds back until the test lets them go: the copy stays on screen for as
    long as the test looks at it, however slow the machine, and not a moment longer."""

    def __init__(self, paths: set[str], let_go: threading.Event) -> None:
        self.paths = paths
        self.let_go = let_go

    def hold(self, path: str) -> None:
        self.paths.add(path)
        self.let_go.clear()

    def release(self) -> None:
        self.let_go.set()

    def release_after(self, seconds: float) -> None:
        """Lets the pages go from another thread, for a test that waits on the page meanwhile."""
        threading.Timer(seconds, self.let_go.set).start()


@pytest.fixture
def held_pages(live_app: Flask) -> Iterator[HeldPages]:
    let_go = threading.Event()
    with before_answering(live_app, lambda: let_go.wait(HOLD_LIMIT_S)) as paths:
        yield HeldPages(paths, let_go)
        let_go.set()


def _unavailable() -> None:
    raise ServiceUnavailable()


@pytest.fixture
def refused_paths(live_app: Flask) -> Iterator[set[str]]:
    """Paths the server answers with 503 while they are in the set, as a scorer that is down
    behind its proxy would: a page, or a hand sent to it."""
    with before_answering(live_app, _unavailable, methods=("GET", "POST")) as down:
        yield down


def test_a_tally_survives_a_reload_while_offline(offline_phone, live_server: str, game_id: int):
    page = offline_phone()
    open_with_copy(page, f"{live_server}/games/{game_id}")
    page.context.set_offline(True)
    pad = page.locator("#hand-form")
    pad.locator(".went-out .chip", has_text="Ann").tap()
    pad.locator('.keys [data-card="7"]').tap()
    pad.locator('.keys [data-card="20"]').tap()
    expect(pad.locator("[data-summary]")).to_have_text("Ann scores 27")

    page.reload()
    expect(page.locator("#copy-mark")).to_contain_text("Offline · last seen")
    expect(pad.locator("input[name=went_out][value='0']")).to_be_checked()
    expect(pad.locator('.tally[data-name="Bob"] [data-tape]')).to_have_text("7 · 20")
    expect(pad.locator("[data-summary]")).to_have_text("Ann scores 27")


def test_a_copy_says_when_the_scorer_cannot_be_reached_and_freshens_once_it_answers(
    new_phone: Callable[..., Page], live_server: str, game_id: int, refused_paths
):
    page = new_phone(console_allowed=re.compile(f"{UNREACHABLE.pattern}|a status of 503"))
    url = f"{live_server}/games/{game_id}"
    open_with_copy(page, url)
    refused_paths.add(f"/games/{game_id}")
    page.goto(url)
    mark = page.locator("#copy-mark")
    expect(mark).to_have_text(re.compile(r"^Can't reach the scorer · last seen \d\d:\d\d$"))
    assert page.locator("html").get_attribute("data-copy-of") is not None
    # The copy still counts a hand meanwhile.
    pad = page.locator("#hand-form")
    pad.locator(".went-out .chip", has_text="Cat").tap()
    expect(pad.locator("[data-summary]")).to_have_text("Cat scores 0")

    refused_paths.clear()
    # Back online is when a phone tries again at once (else its next retry, 2-8 s away).
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(mark).to_be_hidden()
    assert page.locator("html").get_attribute("data-copy-of") is None
    expect(pad.locator("[data-summary]")).to_have_text("Cat scores 0")


def test_a_reopened_game_shows_its_marked_copy_then_the_fresh_state(
    offline_phone, live_server: str, live_app: Flask, game_id: int, held_pages, enter_hand
):
    page = offline_phone()
    url = f"{live_server}/games/{game_id}"
    open_with_copy(page, url)
    expect(page.locator("#scoreboard .score").first).to_have_text(re.compile(r"score\s*0"))
    # Another phone records a hand; this one was closed meanwhile.
    other = offline_phone()
    other.goto(url)
    enter_hand(other, Locator.tap, "Cat", {"Ann": ["9"], "Bob": ["8"]})
    save(other)
    expect(other.locator("#hand-form .pad-title")).to_have_text("Record hand 2")
    page.goto(f"{live_server}/rules")
    held_pages.hold(f"/games/{game_id}")

    page.goto(url)
    # The copy at once, never presented as current; the pad works on it.
    expect(page.locator("#copy-mark")).to_have_text(
        re.compile(r"^Last seen \d\d:\d\d · updating…$")
    )
    assert page.locator("html").get_attribute("data-copy-of")
    expect(page.locator("#hand-form .pad-title")).to_have_text("Record hand 1")
    pad_top = page.locator("#hand-form").bounding_box()["y"]
    page.locator("#hand-form .went-out .chip", has_text="Ann").tap()
    expect(page.locator("#hand-form [data-summary]")).to_have_text("Ann scores 0")
    held_pages.release()
    # Then the fresh state in its place, and the mark goes, moving nothing under the thumb. The
    # tally begun on the copy stays, with a word that another phone saved that hand.
    expect(page.locator("#copy-mark")).to_be_hidden()
    expect(page.locator("#scoreboard .standings li").first).to_contain_text("Cat")
    expect(page.locator("#scoreboard .standings li").first).to_contain_text("17")
    assert page.locator("#hand-form").bounding_box()["y"] == pad_top
    pad = page.locator("#hand-form")
    expect(pad.locator(".pad-title")).to_have_text("Record hand 1")
    expect(pad.locator("[data-summary]")).to_have_text("Ann scores 0")
    expect(pad.locator(".stale")).to_have_text(CLIENT_WORDS["savedElsewhere"].format(number=1))
    assert page.locator("html").get_attribute("data-copy-of") is None
    # The fresh page is the live one: its token works, and the kept hand counts nothing twice.
    enter_hand(page, Locator.tap, "Ann", {"Bob": ["5"], "Cat": ["7"]})
    save(page)
    page.locator("#race").get_by_role("link", name="Keep theirs").tap()
    expect(pad.locator(".pad-title")).to_have_text("Record hand 2")
    enter_hand(page, Locator.tap, "Ann", {"Bob": ["5"], "Cat": ["7"]})
    save(page)
    expect(page.locator("#hand-form .pad-title")).to_have_text("Record hand 3")
    assert len(stored(live_app, game_id)) == 2


GAME_PARTS = ["scoreboard", "play", "history", "chart", "poll"]


def test_a_reopened_game_that_did_not_move_on_keeps_every_part_it_shows(
    offline_phone, live_server: str, live_app: Flask, game_id: int, held_pages, enter_hand
):
    """The fresh page changes nothing there: nothing is replaced, so nothing is laid out again."""
    page = offline_phone()
    url = f"{live_server}/games/{game_id}"
    open_with_copy(page, url)
    page.goto(f"{live_server}/rules")
    held_pages.hold(f"/games/{game_id}")
    page.goto(url)
    expect(page.locator("#copy-mark")).to_contain_text("updating…")
    page.evaluate(
        "(ids) => ids.forEach((id) => { document.getElementById(id).seen = true; })", GAME_PARTS
    )
    held_pages.release()
    expect(page.locator("#copy-mark")).to_be_hidden()
    replaced = "(ids) => ids.filter((id) => !document.getElementById(id).seen)"
    assert page.evaluate(replaced, GAME_PARTS) == []
    # The pad kept saves with the fresh page's token.
    enter_hand(page, Locator.tap, "Bob", {"Cat": ["5"], "Ann": ["7"]})
    save(page)
    expect(page.locator("#hand-form .pad-title")).to_have_text("Record hand 2")
    assert stored(live_app, game_id) == [(1, {2: 5, 0: 7})]


PASSWORD = "correct horse battery"
COPY_OF = "(path) => caches.match(path).then((copy) => copy ? copy.text() : null)"


@pytest.fixture
def owner(live_app: Flask) -> Iterator[str]:
    """Owner mode for one test; the module's other tests keep score without signing in."""
    with live_app.app_context():
        add_user(db.session, "Owner", PASSWORD)
        db.session.remove()
    yield "Owner"
    with live_app.app_context():
        db.session.execute(sa.delete(User))
        db.session.commit()
        db.session.remove()


def sign_in(page: Page, name: str) -> None:
    page.get_by_label("Name").fill(name)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").tap()


def test_copies_never_outlive_a_sign_in_or_out_and_a_refused_send_waits_for_one(
    offline_phone, live_server: str, live_app: Flask, game_id: int, owner: str, enter_hand
):
    page = offline_phone()
    path = f"/games/{game_id}"
    open_with_copy(page, live_server + path)
    expect(page.locator(".read-only")).to_be_visible()

    page.goto(f"{live_server}/login?next={path}")
    with page.expect_navigation(url=live_server + path) as signed_in:
        sign_in(page, owner)
    # Not the visitor's copy: the signed-in page, from the server, kept as the new copy.
    assert "data-copy-of" not in signed_in.value.text()
    expect(page.locator("#hand-form")).to_be_visible()
    eventually(page, lambda: "hand-form" in (page.evaluate(COPY_OF, path) or ""))
    assert "hand-form" in page.evaluate(COPY_OF, path)

    # A hand waits offline; meanwhile the session ends (as if it expired).
    page.context.set_offline(True)
    enter_hand(page, Locator.tap, "Ann", {"Bob": ["5"], "Cat": ["20"]})
    save(page)
    expect(waiting(page)).to_have_count(1)
    page.context.clear_cookies()
    page.context.set_offline(False)
    link = page.locator("#waiting").get_by_role("link", name="Sign in to send")
    expect(link).to_be_visible()
    assert offenders(page) == []
    assert stored(live_app, game_id) == []
    expect(waiting(page)).to_have_count(1)

    link.tap()
    sign_in(page, owner)
    page.wait_for_url(live_server + path)
    expect(page.locator("#waiting")).to_have_count(0)
    assert stored(live_app, game_id) == [(0, {1: 5, 2: 20})]

    page.locator(".menu summary").tap()
    page.get_by_role("button", name=f"Sign out {owner}").tap()
    page.wait_for_url(f"{live_server}/")
    assert page.evaluate(COPY_OF, path) is None


def test_hands_waiting_to_send_leave_the_pad_where_it_was(
    offline_phone, live_server: str, live_app: Flask
):
    """Two hands wait, and the third is counted with the same taps, none of them scrolled to."""
    with live_app.app_context():
        game = make_game(db.session, ["Ann", "Bob", "Cat", "Dan"]).id
    page = offline_phone()
    open_with_copy(page, f"{live_server}/games/{game}")
    page.context.set_offline(True)
    taps = ThumbTaps(page)
    for number in (1, 2):
        reference_hand(page, taps)
        expect(waiting(page)).to_have_count(number)
        expect(page.locator("#hand-form .pad-title")).to_have_text(f"Record hand {number + 1}")
    pad = page.locator("#hand-form")
    taps(pad.locator(".went-out .chip", has_text="Bob"))
    taps(pad.locator('.keys [data-card="9"]'))
    for name in ("Dan", "Ann"):
        taps(pad.locator(f'.tally[data-name="{name}"] .tally-pick'))
        taps(pad.locator('.keys [data-card="0"]'))
    taps(pad.locator(".last-card .chip", has_text="Draw Two"))
    taps(page.get_by_role("button", name="Save hand"))
    expect(waiting(page)).to_have_count(3)
    expect(waiting(page).nth(2)).to_contain_text(re.compile(r"^Hand 3 · Bob \+9 · waiting to send"))


def dealer_shown(page: Page) -> tuple[str, list[str]]:
    """The dealer line, and the names on the rows whose DEALS badge is visible."""
    line = page.locator("#scoreboard .deal-line").inner_text()
    badged = page.locator("#scoreboard .side-names:has(.dealer-mark:visible) .player")
    return line, [
        name or "" for name in badged.evaluate_all("(all) => all.map((p) => p.dataset.name)")
    ]


def test_the_dealer_line_badge_and_hand_number_follow_the_hands_waiting_to_send(
    offline_phone, live_server: str, live_app: Flask, enter_hand
):
    """Hands 3 and 4 wait: the page shows hand 5 and its dealer, Ann, the server's rotation."""
    with live_app.app_context():
        game = make_game(db.session, ["Ann", "Bob", "Cat", "Dan"]).id
        record(db.session, game, 0, {1: 5, 2: 5, 3: 5})
        record(db.session, game, 1, {0: 5, 2: 5, 3: 5})
    page = offline_phone()
    open_with_copy(page, f"{live_server}/games/{game}")
    assert dealer_shown(page) == ("Cat deals hand 3.", ["Cat"])
    page.context.set_offline(True)
    enter_hand(page, Locator.tap, "Cat", {"Dan": ["7"], "Ann": ["1"], "Bob": ["2"]})
    save(page)
    enter_hand(page, Locator.tap, "Dan", {"Ann": ["3"], "Bob": ["4"], "Cat": ["5"]})
    save(page)
    expect(waiting(page)).to_have_count(2)

    for reopened in (False, True):
        if reopened:
            page.reload()
            expect(page.locator("#copy-mark")).to_contain_text("Offline · last seen")
        expect(page.locator("#scoreboard .deal-line")).to_have_text("Ann deals hand 5.")
        assert dealer_shown(page) == ("Ann deals hand 5.", ["Ann"])
        # The hand number is on the pad, in view, where the thumb saves it.
        save_button = page.locator("#hand-form button.save")
        expect(save_button).to_have_text("Save hand 5")
        expect(save_button).to_be_in_viewport()
    page.context.set_offline(False)
    expect(page.locator("#waiting")).to_have_count(0)
    expect(page.locator("#scoreboard .deal-line")).to_have_text("Ann deals hand 5.")
    expect(page.locator("#hand-form button.save")).to_have_text("Save hand 5")


def test_a_challenge_dealer_a_waiting_hand_may_change_is_not_named(
    offline_phone, live_server: str, live_app: Flask, enter_hand
):
    with live_app.app_context():
        game = make_game(db.session, ["Ann", "Bob", "Cat"], mode="challenge").id
    page = offline_phone()
    open_with_copy(page, f"{live_server}/games/{game}")
    page.context.set_offline(True)
    enter_hand(page, Locator.tap, "Ann", {"Bob": ["7"], "Cat": ["1"]})
    save(page)
    expect(waiting(page)).to_have_count(1)
    expect(page.locator("#scoreboard .deal-line")).to_have_text(
        CLIENT_WORDS["dealerUnknown"].format(number=2)
    )
    assert dealer_shown(page)[1] == []
    expect(page.locator("#hand-form button.save")).to_have_text("Save hand 2")


def test_a_save_that_cannot_reach_the_server_waits_and_is_retried(
    offline_phone, live_server: str, live_app: Flask, game_id: int, enter_hand
):
    """Online as far as the phone knows, but the save breaks off: the hand waits, and goes out
    on a retry of its own once the server answers; plain HTTP, no service worker needed."""
    page = offline_phone()
    # The phone's clock, so the test can skip the wait for the next retry rather than sit it out.
    page.clock.install()
    page.context.route("**/hands", lambda route: route.abort("connectionrefused"))
    page.context.route("**/sync", lambda route: route.abort("connectionrefused"))
    page.goto(f"{live_server}/games/{game_id}")
    enter_hand(page, Locator.tap, "Cat", {"Ann": ["8"], "Bob": ["50"]})
    save(page)
    expect(waiting(page).first).to_contain_text(re.compile(r"^Hand 1 · Cat \+58 · waiting to send"))
    expect(page.locator("#unreachable")).to_have_count(0)
    expect(page.locator("#hand-form .pad-title")).to_have_text("Record hand 2")
    # Counted while the first one waits: queued behind it, in order.
    enter_hand(page, Locator.tap, "Ann", {"Bob": ["1"], "Cat": ["2"]})
    save(page)
    expect(waiting(page)).to_have_count(2)
    assert stored(live_app, game_id) == []

    page.context.unroute("**/sync")
    # The longest a retry waits; nothing but the retry itself sends the hands.
    page.clock.fast_forward(LAST_RETRY_MS)
    expect(page.locator("#waiting")).to_have_count(0)
    assert stored(live_app, game_id) == [(2, {0: 8, 1: 50}), (0, {1: 1, 2: 2})]
    expect(page.locator("#hand-form .pad-title")).to_have_text("Record hand 3")


def test_the_copy_is_marked_from_its_first_frame_by_the_worker_alone(
    offline_phone, live_server: str, game_id: int
):
    page = offline_phone()
    url = f"{live_server}/games/{game_id}"
    open_with_copy(page, url)
    page.context.set_offline(True)
    response = page.goto(url)
    assert response is not None and response.from_service_worker
    # The page as the worker gave it, before any script ran: it says what it is already, since
    # the first frame may come before the page's script has run.
    copy = parse(response.text())
    mark = copy.by_id("copy-mark")
    seen = copy.find("html").attrs["data-copy-of"]
    assert re.fullmatch(r"\d\d:\d\d", seen)
    assert mark.text == f"Last seen {seen} · updating…"
    # Shown, in the brand's place; the script then says the server cannot be reached.
    expect(page.locator("#copy-mark")).to_be_visible()
    expect(page.locator(".topbar .brand")).to_be_hidden()
    expect(page.locator("#copy-mark")).to_have_text(re.compile(r"^Offline · last seen \d\d:\d\d$"))


def test_a_tally_started_on_the_copy_survives_the_fresh_page(
    offline_phone, live_server: str, live_app: Flask, game_id: int, held_pages
):
    page = offline_phone()
    url = f"{live_server}/games/{game_id}"
    open_with_copy(page, url)
    open_with_copy(page, f"{live_server}/")
    held_pages.hold(f"/games/{game_id}")
    page.goto(url)
    expect(page.locator("#copy-mark")).to_contain_text("updating…")
    pad = page.locator("#hand-form")
    pad.locator(".went-out .chip", has_text="Bob").tap()
    pad.locator('.keys [data-card="7"]').tap()
    expect(pad.locator("[data-summary]")).to_have_text("Bob scores 7")
    held_pages.release()
    expect(page.locator("#copy-mark")).to_be_hidden()
    assert page.locator("html").get_attribute("data-copy-of") is None
    # Still hand 1 on the server, so the tally is kept, goes on, and saves with the fresh token.
    expect(pad.locator("[data-summary]")).to_have_text("Bob scores 7")
    pad.locator('.tally[data-name="Ann"] .tally-pick').tap()
    pad.locator('.keys [data-card="5"]').tap()
    expect(pad.locator("[data-summary]")).to_have_text("Bob scores 12")
    save(page)
    expect(pad.locator(".pad-title")).to_have_text("Record hand 2")
    assert stored(live_app, game_id) == [(1, {0: 5, 2: 7})]


def test_home_is_copied_too_and_the_page_after_a_change_is_the_servers(
    offline_phone, live_server: str, live_app: Flask, game_id: int, held_pages, enter_hand
):
    page, theirs = offline_phone(), offline_phone()
    url = f"{live_server}/games/{game_id}"
    open_with_copy(page, url)
    open_with_copy(page, f"{live_server}/")
    theirs.goto(url)
    enter_hand(theirs, Locator.tap, "Bob", {"Cat": ["3"], "Ann": ["50"]})
    save(theirs)
    expect(theirs.locator("#hand-form .pad-title")).to_have_text("Record hand 2")

    # Home: its copy at once, marked, then the server's list with the other phone's hand.
    held_pages.hold("/")
    page.goto(f"{live_server}/")
    expect(page.locator("#copy-mark")).to_contain_text("updating…")
    expect(page.locator(".game-list").first).to_contain_text("no hands yet")
    held_pages.release()
    expect(page.locator("#copy-mark")).to_be_hidden()
    expect(page.locator(".game-list").first).to_contain_text("hand 2")

    # After a change sent from this phone, the next page is the server's, slow as it is: a copy
    # from before the change would show the table what it has just corrected.
    page.goto(url)
    enter_hand(page, Locator.tap, "Cat", {"Ann": ["1"], "Bob": ["2"]})
    save(page)
    expect(page.locator("#hand-form .pad-title")).to_have_text("Record hand 3")
    held_pages.hold("/")
    held_pages.release_after(0.5)
    page.goto(f"{live_server}/")
    assert page.locator("html").get_attribute("data-copy-of") is None
    expect(page.locator("#copy-mark")).to_be_hidden()
    expect(page.locator(".game-list").first).to_contain_text("hand 3")


def test_the_copy_of_a_game_that_is_gone_is_dropped_for_the_servers_answer(
    offline_phone, live_server: str, live_app: Flask, game_id: int
):
    page = offline_phone()
    url = f"{live_server}/games/{game_id}"
    open_with_copy(page, url)
    with live_app.app_context():
        db.session.delete(db.session.get(Game, game_id))
        db.session.commit()
        db.session.remove()
    page.goto(url)
    expect(page.locator("h1")).to_have_text(re.compile("not found|no such game", re.I))
    assert page.evaluate(COPY_OF, f"/games/{game_id}") is None
    expect(page.locator("#copy-mark")).to_be_hidden()


# Every text the script writes, as the visible text nodes under these elements.
SCRIPT_TEXTS = """(selectors) => selectors
  .flatMap((selector) => [...document.querySelectorAll(selector)])
  .flatMap((root) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    const texts = [];
    while (walker.nextNode()) {
      const text = walker.currentNode.textContent.trim();
      if (text) texts.push(text);
    }
    return texts;
  })"""
OPEN, CLOSE = "\u27ea", "\u27eb"


def unmarked(page: Page, *selectors: str) -> list[str]:
    """The texts under `selectors` that carry no marker, and fails if there is no text at all."""
    texts = page.evaluate(SCRIPT_TEXTS, list(selectors))
    assert texts, selectors
    return [text for text in texts if OPEN not in text]


def test_every_word_the_script_shows_comes_from_the_server(
    offline_phone, live_server: str, game_id: int, enter_hand, monkeypatch, refused_paths
):
    marked = {key: f"{OPEN}{words}{CLOSE}" for key, words in CLIENT_WORDS.items()}
    monkeypatch.setattr(client_words, "client_words", lambda: marked)
    page = offline_phone()
    url = f"{live_server}/games/{game_id}"
    open_with_copy(page, url)
    enter_hand(page, Locator.tap, "Ann", {"Bob": ["5"], "Cat": ["20"]})
    save(page)
    undo = page.locator("[data-undo]")
    expect(undo).to_be_visible()

    # An undo that cannot reach the server says nothing was saved.
    page.context.set_offline(True)
    undo.tap()
    expect(page.locator("#unreachable")).to_be_visible()
    assert unmarked(page, "#unreachable") == []

    # A hand waiting to send, and what it adds to the scoreboard. A send already under way as the
    # phone went offline can still reach the server: the server refuses it until the end.
    sync = f"/games/{game_id}/hands/2/sync"
    refused_paths.add(sync)
    enter_hand(page, Locator.tap, "Bob", {"Cat": ["7"], "Ann": ["9"]})
    save(page)
    expect(waiting(page)).to_have_count(1)
    assert unmarked(page, "#waiting", "[data-waiting]:not([hidden])") == []
    # The hand the pad now counts, and who deals it (the name is the table's, not a word).
    assert unmarked(page, "#hand-form button.save") == []
    expect(page.locator("#scoreboard .deal-line")).to_have_text(
        re.compile(f"^{re.escape(OPEN)}Cat deals hand 3.{re.escape(CLOSE)}$")
    )
    assert page.locator("#waiting").get_attribute("aria-label").startswith(OPEN)
    # Its first try has failed: a request still in flight as the page reloads can reach the
    # server although the phone is offline.
    expect(page.locator("#waiting-status")).to_have_text(marked["kept"])

    # The copy's mark, reopened offline.
    page.reload()
    expect(page.locator("#copy-mark")).to_contain_text(f"{OPEN}Offline · last seen")
    assert unmarked(page, "#copy-mark") == []

    # Another phone's version of the hand, for the table to choose.
    theirs = offline_phone()
    theirs.goto(url)
    enter_hand(theirs, Locator.tap, "Cat", {"Ann": ["3"], "Bob": ["50"]})
    save(theirs)
    expect(theirs.locator("#hand-form .pad-title")).to_have_text("Record hand 3")
    refused_paths.discard(sync)
    page.context.set_offline(False)
    expect(waiting(page).first).to_contain_text("another phone recorded it")
    expect(waiting(page).first.locator("button")).to_have_count(2)
    assert unmarked(page, "#waiting") == []


def test_copies_made_while_signed_in_go_once_the_session_ends_elsewhere(
    offline_phone, live_server: str, live_app: Flask, game_id: int, owner: str
):
    page = offline_phone()
    path = f"/games/{game_id}"
    page.goto(f"{live_server}/login?next=/")
    sign_in(page, owner)
    page.wait_for_url(f"{live_server}/")
    open_with_copy(page, live_server + path)
    page.goto(f"{live_server}/")
    eventually(page, lambda: "/" in page.evaluate(COPIES))
    assert f"Sign out {owner}" in page.evaluate(COPY_OF, "/")

    # A new password on another device ends this phone's session.
    with live_app.app_context():
        user = db.session.scalar(sa.select(User).where(User.name == owner))
        set_password(db.session, user, "a brand new passphrase")
        db.session.remove()
    page.goto(live_server + path)
    expect(page.locator("#copy-mark")).to_be_hidden()
    expect(page.locator(".read-only")).to_be_visible()
    # The server's page, made for nobody, leaves no copy made for the session that ended.
    eventually(page, lambda: page.evaluate(COPIES) == [path])
    assert page.evaluate(COPIES) == [path]
    assert "Sign out" not in page.evaluate(COPY_OF, path)
    page.context.set_offline(True)
    page.goto(f"{live_server}/")
    expect(page.locator("body")).not_to_contain_text("Sign out")
