"""A few German words for tests that must see a page in German before translators fill the
catalogs: compiled into a folder of the test's own, listed ahead of the app's catalogs."""

from __future__ import annotations

from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from scorer.languages import TRANSLATIONS, babel

GERMAN = {
    "Menu": "Menü",
    "Change": "Ändern",
    "Language": "Sprache",
    "The scorer can't be reached": "Der Scorer ist nicht erreichbar",
    "Try again": "Erneut versuchen",
    "Last seen %(seen)s · updating…": "Zuletzt gesehen %(seen)s · wird aktualisiert…",
    "Offline · last seen {seen}": "Offline · zuletzt gesehen {seen}",
}


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
