"""Hypothesis throws odd input at the setup and hand forms: never a 5xx; a refusal saves nothing."""

from __future__ import annotations

import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.extensions import db

TABLES = ("players", "games", "seats", "hands", "hand_counts", "teams")
FUZZ = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Text that tends to break things: markup, control characters, huge numbers, other scripts.
nasty_text = st.one_of(
    st.text(max_size=60),
    st.sampled_from(
        [
            "",
            " ",
            "<script>alert(1)</script>",
            "\x00",
            "-1",
            "1.5",
            "1e9",
            "9" * 30,
            "２０",
            "NaN",
            "Zoë 🎴",
            "a" * 500,
        ]
    ),
)
numberish = st.one_of(st.integers(-(10**12), 10**12).map(str), nasty_text)
card_tokens = st.sampled_from(
    ["0", "5", "9", "skip", "reverse", "draw2", "wild", "wild4", "20", "50", "blank", "x", "<b>"]
)
actions = st.one_of(
    st.sampled_from(["save", "back", "clear", "", "select:1", "select:99", "card:7", "card:zz"]),
    nasty_text,
)


def counts(app) -> dict[str, int]:
    with app.app_context():
        return {
            table: db.session.scalar(sa.select(sa.func.count()).select_from(sa.table(table)))
            for table in TABLES
        }


@st.composite
def hand_forms(draw) -> dict[str, str]:
    form = {"action": draw(actions), "number": draw(st.one_of(st.just("1"), numberish))}
    if draw(st.booleans()):
        form["went_out"] = draw(st.one_of(st.sampled_from(["0", "1", "2", "3"]), numberish))
    for seat in range(draw(st.integers(0, 5))):
        if draw(st.booleans()):
            form[f"counts-{seat}-cards"] = " ".join(draw(st.lists(card_tokens, max_size=30)))
        if draw(st.booleans()):
            form[f"counts-{seat}-points"] = draw(numberish)
    if draw(st.booleans()):
        form["last_card"] = draw(st.one_of(st.sampled_from(["", "draw2", "wild4"]), nasty_text))
    return form


@st.composite
def setup_forms(draw) -> dict[str, str]:
    form = {
        "action": draw(
            st.one_of(
                st.sampled_from(["start", "add", "up:1", "remove:0", "dealer:2", "target:300"]),
                st.builds(lambda text: f"pick:{text}", nasty_text),
                nasty_text,
            )
        ),
        "mode": draw(st.one_of(st.sampled_from(["standard", "partners", "challenge"]), nasty_text)),
        "target": draw(numberish),
        "first_dealer": draw(numberish),
        "new_name": draw(nasty_text),
    }
    for seat, name in enumerate(draw(st.lists(nasty_text, max_size=12))):
        form[f"players-{seat}"] = name
    for team, name in enumerate(draw(st.lists(nasty_text, max_size=3))):
        form[f"teams-{team}"] = name
    return form


def test_the_hand_form_never_fails_and_a_refusal_saves_nothing(app, client, new_game):
    game_id = new_game(["Ann", "Bob", "Cat", "Dan"])

    @FUZZ
    @given(form=hand_forms(), htmx=st.booleans())
    def post(form, htmx):
        before = counts(app)
        headers = {"HX-Request": "true"} if htmx else {}
        response = client.post(f"/games/{game_id}/hands", data=form, headers=headers)
        assert response.status_code < 500, form
        if response.status_code >= 400 or form["action"] != "save":
            assert counts(app) == before, form
        assert "<script>alert(1)</script>" not in response.get_data(as_text=True)

    post()


def test_the_setup_form_never_fails_and_a_refusal_saves_nothing(app, client):
    @FUZZ
    @given(form=setup_forms(), htmx=st.booleans())
    def post(form, htmx):
        before = counts(app)
        headers = {"HX-Request": "true"} if htmx else {}
        response = client.post("/games/new", data=form, headers=headers)
        assert response.status_code < 500, form
        if response.status_code >= 400 or form["action"] != "start":
            assert counts(app) == before, form
        assert "<script>alert(1)</script>" not in response.get_data(as_text=True)

    post()
