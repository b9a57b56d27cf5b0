"""Every word the page's script shows, in one place, sent to the page once as data.

The script (static/js/src) holds no sentence of its own: base.html renders `client_data()` into
the page's `<html data-client>`, which the script reads, so a translation or a change of wording
touches the server only. The pad's own sentences travel with its rules in `data-pad`
(HandForm.pad_data).
A `{name}` slot is filled in by the script.
"""

from __future__ import annotations

from flask import request, url_for

CLIENT_WORDS: dict[str, str] = {
    # Hands waiting on the phone for the server.
    "waitingLabel": "Hands waiting to send",
    "waitingHand": "Hand {number} · {brief} · {state}",
    "aHand": "hand",
    "waiting": "waiting to send",
    "conflict": "another phone recorded it",
    "notSent": "not sent",
    "version": "{label}: {brief} ({detail})",
    "theirs": "Theirs",
    "ours": "Ours",
    "keepTheirs": "Keep theirs",
    "useOurs": "Use ours",
    "drop": "Drop this hand",
    "sending": "Sending…",
    "kept": "Kept on this phone; sent when the scorer answers.",
    "signIn": "Sign in to send",
    "waitingPoints": "+{points} waiting",
    "refused": "The scorer refused this hand.",
    "tryAgain": "The scorer can't be reached. Try again in a moment.",
    "notSaved": (
        "The scorer can't be reached, so nothing was saved. Check the Wi-Fi and try again."
    ),
    "recordHand": "Record hand {number}",
    # Another phone moved the game on under a pad being counted.
    "savedElsewhere": (
        "Another phone has just saved hand {number}. Saving this one will not count it twice."
    ),
    "undoneElsewhere": "Another phone has just undone a hand. Save to see where the game stands.",
    "ended": "The game has just ended on another phone.",
    # The mark on a page shown from the phone's copy, when the fresh page cannot be fetched;
    # {seen} is the time the copy was seen.
    "copyOffline": "Offline · last seen {seen}",
    "copyUnreachable": "Can't reach the scorer · last seen {seen}",
    # The hand the pad counts, which runs ahead of the scoreboard while hands wait to send.
    "saveHand": "Save hand {number}",
    "dealsHand": "{dealer} deals hand {number}.",
    "dealerUnknown": "Hand {number}: dealer known once sent.",
    # The badge after the dealer's side, as games/_scoreboard.html draws it: a team's names the
    # player, so the team's names stay together.
    "dealerMark": "deals",
    "dealerMarkTeam": "{dealer} deals",
    # Sharing a game's link.
    "copied": "Link copied.",
    "copyFailed": "Copying did not work: press and hold the link to copy it.",
}

# A hand number the sync URL is built with, then replaced by the script's slot.
_NUMBER = 999_999_999


def client_data(game_id: int | None = None) -> dict:
    """The script's words and URLs; with the game a page shows, where its waiting hands go."""
    urls = {"signIn": url_for("auth.login", next=request.path)}
    if game_id is not None:
        sync = url_for("sync.sync", game_id=game_id, number=_NUMBER)
        urls["sync"] = sync.replace(str(_NUMBER), "{number}")
    return {"words": CLIENT_WORDS, "urls": urls, "game": game_id}
