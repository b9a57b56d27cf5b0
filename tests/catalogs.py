"""German words for tests that look for a page in German: the German catalog's own."""

from __future__ import annotations

from babel.messages.pofile import read_po

from scorer.languages import TRANSLATIONS

# The German catalog's own words for the sentences the tests look for.
SENTENCES = (
    "Menu",
    "Language",
    "The scorer can't be reached",
    "Try again",
    "Last seen %(seen)s · updating…",
    "Offline · last seen {seen}",
)


def _german() -> dict[str, str]:
    with (TRANSLATIONS / "de" / "LC_MESSAGES" / "messages.po").open("rb") as file:
        catalog = read_po(file, locale="de")
    return {english: str(catalog[english].string) for english in SENTENCES}


GERMAN = _german()
