"""German words for tests that look for a page in German: the catalog's own, also compiled into a
folder of the test's own, listed ahead of the app's catalogs (which a test may leave out)."""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from scorer.languages import TRANSLATIONS, babel

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


def german_catalog(folder: Path) -> str:
    """BABEL_TRANSLATION_DIRECTORIES with `GERMAN` compiled into `folder` first."""
    catalog = Catalog(locale="de")
    for english, german in GERMAN.items():
        catalog.add(english, german)
    target = folder / "de" / "LC_MESSAGES"
    target.mkdir(parents=True)
    with open(target / "messages.mo", "wb") as file:
        write_mo(file, catalog)
    return f"{folder};{TRANSLATIONS}"


def forget_loaded_translations() -> None:
    """Flask-Babel keeps the translations it loaded, per language, for every app of the process:
    an app with the test catalog loads its own, and leaves none behind for the others."""
    # Made on first use in an app (a cached property): none made yet, nothing loaded yet.
    domain = vars(babel).get("domain_instance")
    if domain is not None:
        domain.cache.clear()
