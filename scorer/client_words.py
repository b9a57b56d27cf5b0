"""Every word the page's script shows, in one place, sent to the page once as data.

The script (static/js/src) holds no sentence of its own: base.html renders `client_data()` into
the page's `<html data-client>`, which the script reads, so a translation or a change of wording
touches the server only. The pad's own sentences travel with its rules in `data-pad`
(HandForm.pad_data).
A `{name}` slot is filled in by the script: a translation keeps each slot as it is written.
"""

from __future__ import annotations

from flask import request, url_for
from flask_babel import gettext as _


def client_words() -> dict[str, str]:
    """The script's words in the request's language: translated as each page is made, never once
    for every reader when the module is imported."""
    return {
        # Hands waiting on the phone for the server.
        "waitingLabel": _("Hands waiting to send"),
        "waitingHand": _("Hand {number} · {brief} · {state}"),
        "aHand": _("hand"),
        "waiting": _("waiting to send"),
        "conflict": _("another phone recorded it"),
        "notSent": _("not sent"),
        "version": _("{label}: {brief} ({detail})"),
        "theirs": _("Theirs"),
        "ours": _("Ours"),
        "keepTheirs": _("Keep theirs"),
        "useOurs": _("Use ours"),
        "drop": _("Drop this hand"),
        "sending": _("Sending…"),
        "kept": _("Kept on this phone; sent when the scorer answers."),
        "signIn": _("Sign in to send"),
        "waitingPoints": _("+{points} waiting"),
        "refused": _("The scorer refused this hand."),
        "tryAgain": _("The scorer can't be reached. Try again in a moment."),
        "notSaved": _(
            "The scorer can't be reached, so nothing was saved. Check the Wi-Fi and try again."
        ),
        "recordHand": _("Record hand {number}"),
        # Another phone moved the game on under a pad being counted.
        "savedElsewhere": _(
            "Another phone has just saved hand {number}. Saving this one will not count it twice."
        ),
        "undoneElsewhere": _(
            "Another phone has just undone a hand. Save to see where the game stands."
        ),
        "ended": _("The game has just ended on another phone."),
        # The mark on a page shown from the phone's copy, when the fresh page cannot be fetched;
        # {seen} is the time the copy was seen.
        "copyOffline": _("Offline · last seen {seen}"),
        "copyUnreachable": _("Can't reach the scorer · last seen {seen}"),
        # The hand the pad counts, which runs ahead of the scoreboard while hands wait to send.
        "saveHand": _("Save hand {number}"),
        "dealsHand": _("{dealer} deals hand {number}."),
        "dealerUnknown": _("Hand {number}: dealer known once sent."),
        # The badge after the dealer's side, as games/_scoreboard.html draws it: a team's names the
        # player, so the team's names stay together.
        "dealerMark": _("deals"),
        "dealerMarkTeam": _("{dealer} deals"),
        # Sharing a game's link.
        "copied": _("Link copied."),
        "copyFailed": _("Copying did not work: press and hold the link to copy it."),
    }


# A hand number the sync URL is built with, then replaced by the script's slot.
_NUMBER = 999_999_999


def client_data(game_id: int | None = None) -> dict:
    """The script's words and URLs; with the game a page shows, where its waiting hands go."""
    urls = {"signIn": url_for("auth.login", next=request.path)}
    if game_id is not None:
        sync = url_for("sync.sync", game_id=game_id, number=_NUMBER)
        urls["sync"] = sync.replace(str(_NUMBER), "{number}")
    return {"words": client_words(), "urls": urls, "game": game_id}
