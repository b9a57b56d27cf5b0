"""Each language's catalog is complete and sound, against the sentences the code marks today.

The template is extracted afresh from the code (tests/pseudo_language.py), not read from the
committed messages.pot, which is only as new as the last `make catalogs`. For every language but
English: every message is there, translated in each plural form, none fuzzy; a translation keeps
its message's slots (`%(name)s`, and the `{name}` the page's script fills); the catalog counts
plurals as Babel does for its language; Babel's own checks pass; and the compiled catalog the app
reads says what the .po says.
"""

from __future__ import annotations

import io
import re
from gettext import GNUTranslations
from pathlib import Path

import pseudo_language
import pytest
from babel import Locale
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from pseudo_language import TRANSLATIONS, fresh_template

from scorer.languages import DEFAULT_LANGUAGE, LANGUAGES

TRANSLATED = [code for code in LANGUAGES if code != DEFAULT_LANGUAGE]
# Fewer sentences than this in the template means the pages are not marked yet: the home page
# alone shows some thirty, and the app has some forty pages and the pad's states.
AT_LEAST = 300
SLOT = re.compile(r"%\((\w+)\)[-#0 +]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa]|\{([A-Za-z_]\w*)\}")
# A plural form may say its count in words ("one hand") rather than with the count's slot.
COUNT_SLOT = "num"


def po_path(code: str) -> Path:
    return TRANSLATIONS / code / "LC_MESSAGES" / "messages.po"


def catalog_of(code: str) -> Catalog:
    with po_path(code).open("rb") as file:
        return read_po(file, locale=code)


def slots(text: str) -> set[str]:
    return {printf or script for printf, script in SLOT.findall(text)}


def key(message: Message) -> tuple:
    ids = message.id if isinstance(message.id, (list, tuple)) else (message.id,)
    return message.context, tuple(ids)


def forms(message: Message) -> list[str]:
    string = message.string
    return list(string) if isinstance(string, (list, tuple)) else [string]


def messages(catalog: Catalog) -> list[Message]:
    return [message for message in catalog if message.id]


def test_the_code_marks_its_sentences_for_translation():
    marked = messages(fresh_template())
    assert len(marked) >= AT_LEAST, f"only {len(marked)} sentences are marked"


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_catalog_has_every_message_the_code_marks(code: str):
    have = {key(message) for message in messages(catalog_of(code))}
    missing = [key(message) for message in messages(fresh_template()) if key(message) not in have]
    assert not missing, f"{len(missing)} missing from {code} (make catalogs): {missing[:20]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_message_is_translated_in_every_form_and_none_is_fuzzy(code: str):
    catalog = catalog_of(code)
    untranslated = [
        message.id
        for message in messages(catalog)
        if len(forms(message)) != (catalog.num_plurals if message.pluralizable else 1)
        or not all(form.strip() for form in forms(message))
    ]
    fuzzy = [message.id for message in messages(catalog) if message.fuzzy]
    assert not untranslated, f"{len(untranslated)} untranslated in {code}: {untranslated[:20]}"
    assert not fuzzy, f"{len(fuzzy)} fuzzy in {code}: {fuzzy[:20]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_translation_keeps_its_messages_slots(code: str):
    wrong = []
    for message in messages(catalog_of(code)):
        ids = message.id if message.pluralizable else (message.id,)
        expected = set().union(*(slots(text) for text in ids))
        for form in forms(message):
            if not form:
                continue  # untranslated: the test above says so
            found = slots(form)
            if message.pluralizable:
                found |= {COUNT_SLOT} & expected
            if found != expected:
                wrong.append(f"{message.id!r} -> {form!r}: {sorted(found)} not {sorted(expected)}")
    assert not wrong, "\n".join(wrong)


# A percent sign that is neither a slot nor doubled: a template's message is always %-formatted,
# so "% de victorias" would fail as a bad format ("% d") when the page is drawn.
BARE_PERCENT = re.compile(r"%(?!\(\w+\)|%)")


@pytest.mark.parametrize("code", TRANSLATED)
def test_a_percent_sign_is_a_slot_or_doubled_as_in_its_message(code: str):
    wrong = []
    for message in messages(catalog_of(code)):
        ids = message.id if message.pluralizable else (message.id,)
        for form in forms(message):
            bare = len(BARE_PERCENT.findall(form)) != len(BARE_PERCENT.findall(ids[0]))
            if bare or form.count("%%") != ids[0].count("%%"):
                wrong.append(f"{ids[0]!r} -> {form!r}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_catalog_counts_plurals_as_babel_does_for_its_language(code: str):
    catalog = catalog_of(code)
    headers = dict(catalog.mime_headers)
    assert headers.get("Language") == code
    expected = Catalog(locale=Locale.parse(code)).plural_forms
    assert headers.get("Plural-Forms") == expected


@pytest.mark.parametrize("code", TRANSLATED)
def test_babel_finds_no_error_in_the_catalog(code: str):
    errors = [
        f"{message.id!r}: {'; '.join(str(error) for error in found)}"
        for message, found in catalog_of(code).check()
    ]
    assert not errors, "\n".join(errors)


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_compiled_catalog_says_what_the_po_says(code: str):
    """The app reads the .mo, which `make translations` compiles (it is not committed)."""
    po = po_path(code)
    mo = po.with_suffix(".mo")
    assert mo.is_file(), f"{mo} is missing: make translations"
    assert mo.stat().st_mtime >= po.stat().st_mtime, f"{mo} is older than its .po"
    compiled = io.BytesIO()
    write_mo(compiled, catalog_of(code))
    compiled.seek(0)
    with mo.open("rb") as file:
        assert GNUTranslations(file)._catalog == GNUTranslations(compiled)._catalog  # type: ignore[attr-defined]


def test_the_pseudo_language_keeps_slots_tags_and_entities_and_every_plural_form():
    """The pseudo-language the browser tour reads the app in (tests/pseudo_language.py)."""
    said = pseudo_language.pseudo(
        'Read <a href="%(url)s">the rules</a>, {dealer} deals hand %(number)s &amp; 100%%'
    )
    assert said == (
        '⟦Ŕéàð <a href="%(url)s">ţĥé ŕûłéš</a>, {dealer} ðéàłš ĥàñð %(number)s &amp; 100%%⟧'
    )
    template = Catalog()
    template.add("Who went out?")
    template.add(("%(num)s hand left", "%(num)s hands left"))
    compiled = io.BytesIO()
    write_mo(compiled, pseudo_language.pseudo_catalog(template))
    compiled.seek(0)
    translations = GNUTranslations(compiled)
    assert translations.gettext("Who went out?") == "⟦Ŵĥó ŵéñţ óûţ?⟧"
    assert translations.ngettext("%(num)s hand left", "%(num)s hands left", 1) == (
        "⟦%(num)s ĥàñð łéƒţ⟧"
    )
    assert translations.ngettext("%(num)s hand left", "%(num)s hands left", 3) == (
        "⟦%(num)s ĥàñðš łéƒţ⟧"
    )
