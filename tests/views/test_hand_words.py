"""One way of saying a hand: the pad's summary, the sync answer and the page's script agree.

The script is not run here: `script_says` fills the pad data's templates the way the script does
(each `{name}` replaced, one pass), from the pad's data alone, as its contract with the server.
"""

from __future__ import annotations

import re

import pytest
from factories import entry, hand_form, record
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorer.extensions import db
from scorer.forms.hands import HandForm
from scorer.services import games
from scorer.views.sync import hand_version

CARDS = ("0", "1", "5", "9", "20", "50", "blank")


def script_fill(template: str, values: dict) -> str:
    return re.sub(r"\{(\w+)\}", lambda match: str(values[match.group(1)]), template)


def script_says(pad: dict, out: int | None, points: dict[int, int]) -> tuple[str, str]:
    """(summary, brief) as the page's script makes them from the pad's data."""
    words = pad["words"]
    if out is None:
        return words["nobody"], ""
    counted = sorted(pad["counted"][str(out)])
    total = sum(points[seat] for seat in counted)
    if pad["mode"] == "challenge":
        effects = [
            script_fill(words["effect"], {"names": pad["names"][seat], "points": points[seat]})
            for seat in counted
        ]
        # English's plural rule, as the browser's Intl.PluralRules("en") picks a form.
        forms = pad["plurals"]["challenge"]
        challenge = forms["one"] if total == 1 else forms["other"]
        return script_fill(challenge, {"total": total}), words["list"].join(effects)
    team = words["and"].join(
        name for seat, name in enumerate(pad["names"]) if pad["sides"][seat] == pad["sides"][out]
    )
    many = sum(side == pad["sides"][out] for side in pad["sides"]) > 1
    summary = script_fill(words["many" if many else "one"], {"names": team, "total": total})
    return summary, script_fill(words["effect"], {"names": team, "points": total})


GAMES = {
    "standard": (["Ann", "Bob", "Cat"], "standard", []),
    "partners": (
        ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"],
        "partners",
        [(0, {1: 10, 2: 5, 4: 3, 5: 2})],
    ),
    # Bob reaches the target in the first hand: he is out of the game, and never counted again.
    "challenge": (["Ann", "Bob", "Cat", "Dan"], "challenge", [(0, {1: 120, 2: 3, 3: 4})]),
    "individual": (["Ann", "Bob", "Cat", "Dan"], "individual", []),
}


@pytest.mark.parametrize("kind", GAMES)
def test_the_pads_templates_the_forms_summary_and_the_sync_answer_say_a_hand_alike(
    app: Flask, kind: str
) -> None:
    names, mode, played = GAMES[kind]
    with app.app_context():
        game_id = games.create_game(db.session, mode, names, 100, 0).id
        for went_out, counts in played:
            record(db.session, game_id, went_out, counts)
        view = games.load_game(db.session, game_id)
        number = view.state.next_hand_number
        seats = [seat for seat in range(len(names)) if view.state.in_play(seat)]
        deck = view.state.rules.deck
        count = st.one_of(
            st.integers(min_value=0, max_value=300),
            st.lists(st.sampled_from(CARDS), min_size=1, max_size=4),
        )

        @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
        @given(
            out=st.one_of(st.none(), st.sampled_from(seats)),
            values=st.lists(count, min_size=len(names), max_size=len(names)),
        )
        def check(out: int | None, values: list) -> None:
            counted = () if out is None else view.state.counted_seats(out)
            counts = {seat: values[seat] for seat in counted}
            with app.test_request_context(method="POST", data=hand_form(out, counts, number)):
                form = HandForm.for_game(view)
                pad = form.pad_data()
                points = {
                    seat: value if isinstance(value, int) else deck.tally(value)
                    for seat, value in counts.items()
                }
                summary, brief = script_says(pad, out, points)
                assert summary == form.summary()
                if out is not None:
                    version = hand_version(view, number, out, entry(out, counts).counts)
                    assert brief == version["brief"] == form.outcome().brief

        check()


def test_a_partners_effect_names_the_whole_team(app: Flask, new_game) -> None:
    game_id = new_game(4, mode="partners")
    with app.app_context():
        view = games.load_game(db.session, game_id)
        version = hand_version(view, 1, 2, entry(2, {1: 60, 3: 41}).counts)
    assert version == {"brief": "Ann & Cat +101", "detail": "Cat went out · Bob 60 · Dan 41"}
