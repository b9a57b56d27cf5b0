"""A pseudo-language for tests: every sentence the app marks, bracketed and accented.

"Save hand %(number)s" becomes "⟦Šàṽé ĥàñð %(number)s⟧": a word shown without the brackets was
never marked, and a bracket cut in two shows a sentence glued from pieces. The slots (`%(name)s`,
and the `{name}` slots the page's script fills), the HTML tags and the entities inside a sentence
stay as they are, so the page works as it does in English.

The catalog is built from a template extracted afresh from the code (`fresh_template`), not from
the committed messages.pot, which is only as new as the last `make catalogs`.

Babel has no locale data for a made-up code (en-XA), and the pseudo-language needs Babel's data for
its dates and plural rule; so it borrows the code of a language Babel knows and the app does not
offer. Greek, not a variety of English: Babel writes its dates with Greek month names, which the
test strips, while a date written in English by strftime, outside Babel, is left to be found.
"""

from __future__ import annotations

import functools
import re
import tempfile
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.frontend import CommandLineInterface
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Flask

from scorer import PACKAGE

ROOT = PACKAGE.parent
TRANSLATIONS = PACKAGE / "translations"
MAPPING = TRANSLATIONS / "babel.cfg"
# The keywords `make catalogs` extracts besides pybabel's own (_, gettext, ngettext, N_...).
KEYWORDS = ("_l",)

CODE = "el"
NAME = "⟦Pšéûðó⟧"
OPEN, CLOSE = "⟦", "⟧"

# What a translation must keep as it is: printf slots, the script's slots, tags and entities.
KEPT = re.compile(
    r"%\([^)]+\)[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]"
    r"|%[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa%]"
    r"|\{[A-Za-z_][\w.]*\}"
    r"|<[^<>]*>"
    r"|&(?:#\d+|#x[0-9A-Fa-f]+|\w+);"
)
ACCENTED = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "àƀçðéƒĝĥîĵķłɱñóþǫŕšţûṽŵẋýžÀƁÇÐÉƑĜĤÎĴĶŁṀÑÓÞǪŔŠŢÛṼŴẊÝŽ",
)


def pseudo(message: str) -> str:
    """The message bracketed, its words accented, its slots, tags and entities untouched."""
    pieces = []
    last = 0
    for kept in KEPT.finditer(message):
        pieces.append(message[last : kept.start()].translate(ACCENTED))
        pieces.append(kept.group())
        last = kept.end()
    pieces.append(message[last:].translate(ACCENTED))
    return f"{OPEN}{''.join(pieces)}{CLOSE}"


@functools.cache
def fresh_template() -> Catalog:
    """Every message the code marks today, extracted as `make catalogs` does (once a process)."""
    with tempfile.TemporaryDirectory(prefix="scorer-pot-") as folder:
        output = Path(folder) / "messages.pot"
        arguments = ["pybabel", "--quiet", "extract", "--mapping-file", str(MAPPING)]
        for keyword in KEYWORDS:
            arguments += ["--keywords", keyword]
        arguments += ["--no-wrap", "--project", "scorer", "--output-file", str(output), str(ROOT)]
        CommandLineInterface().run(arguments)
        with output.open("rb") as file:
            return read_po(file)


def pseudo_catalog(template: Catalog, code: str = CODE) -> Catalog:
    """The template with every message in the pseudo-language, plural forms and all."""
    catalog = Catalog(locale=Locale.parse(code))
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, (list, tuple)):
            singular, plural = message.id[0], message.id[1]
            forms = [pseudo(singular)] + [pseudo(plural)] * (catalog.num_plurals - 1)
            string: str | tuple[str, ...] = tuple(forms)
        else:
            string = pseudo(message.id)
        catalog.add(message.id, string, context=message.context, flags=message.flags - {"fuzzy"})
    return catalog


def write_translations(folder: Path, code: str = CODE) -> Path:
    """A translations folder holding the pseudo-language's compiled catalog; gives the folder."""
    target = folder / code / "LC_MESSAGES"
    target.mkdir(parents=True, exist_ok=True)
    with (target / "messages.mo").open("wb") as file:
        write_mo(file, pseudo_catalog(fresh_template(), code))
    return folder


def languages(code: str = CODE) -> dict[str, str]:
    """The app's languages and the pseudo-language."""
    from scorer.languages import LANGUAGES

    assert code not in LANGUAGES, f"{code} is a language the app offers: pick another code"
    return {**LANGUAGES, code: NAME}


def app_config(folder: Path, code: str = CODE) -> dict:
    """The settings that give a new app the pseudo-language, its catalog written to `folder`."""
    return {
        "LANGUAGES": languages(code),
        "BABEL_TRANSLATION_DIRECTORIES": f"{TRANSLATIONS};{write_translations(folder, code)}",
    }


def add_to(app: Flask, folder: Path, monkeypatch: pytest.MonkeyPatch, code: str = CODE) -> None:
    """Gives an app already made the pseudo-language, for one test (`monkeypatch` undoes it).

    Flask-Babel reads its folders once, as the app starts; the app's own setting is put back by
    the shared app after each test, its extension's list by `monkeypatch`.
    """
    monkeypatch.setitem(app.config, "LANGUAGES", languages(code))
    babel = app.extensions["babel"]
    folders = [*babel.translation_directories, str(write_translations(folder, code))]
    monkeypatch.setattr(babel, "translation_directories", folders)


# Words Babel writes for the pseudo-language's dates: what a date formatted by the app's Babel
# filters shows, and the test strips.
def date_words(code: str = CODE) -> set[str]:
    locale = Locale.parse(code)
    words: set[str] = set()
    for names in (locale.months, locale.days):
        for context in names.values():
            for width in context.values():
                words.update(str(name).strip(".") for name in width.values())
    words.update(str(period) for period in locale.periods.values())
    return {word for part in words for word in part.split()}
