"""A short rules summary for each mode, to settle an argument at the table."""

from flask import Blueprint, abort, render_template, request

from ..scoring import DEFAULT_DECK, MAX_HANDS, Deck, Mode, deck_problems

bp = Blueprint("rules", __name__, url_prefix="/rules")
DECK_ARGS = ("copies", "blanks", "blank_value")


@bp.get("/", defaults={"mode": Mode.STANDARD.value})
@bp.get("/<mode>")
def show(mode: str) -> str:
    if mode not in tuple(Mode):
        abort(404)
    return render_template(
        "rules/show.html",
        mode=Mode(mode),
        modes=tuple(Mode),
        deck=_deck_in_play(),
        default_deck=DEFAULT_DECK,
        max_hands=MAX_HANDS,
    )


def _deck_in_play() -> Deck | None:
    # A game page links here with its deck (?copies=&blanks=&blank_value=). Only a deck a game
    # could have is shown: anything else in the address is ignored.
    try:
        deck = Deck(*(int(request.args[name]) for name in DECK_ARGS))
    except (KeyError, ValueError):
        return None
    return None if deck_problems(deck) else deck
