"""Which language a request is answered in, and the app's translator for every sentence.

English is the language the app is written in. A request speaks, in this order: the language its
signed-in account chose, the one the phone chose (a cookie), the best of the browser's
Accept-Language that the app has, else English.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path

from babel import Locale
from flask import Flask, Response, current_app, has_request_context, request
from flask_babel import Babel, get_locale, get_translations
from flask_login import current_user

from .scoring import words

# Each language the app has a catalog for, by its code, with its name in its own words: the
# language switch lists them so, since a reader looking for theirs may not read the current one.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "de": "Deutsch",
    "es": "Español",
    "fr": "Français",
    "pt_BR": "Português (Brasil)",
    "ko": "한국어",
}
DEFAULT_LANGUAGE = "en"
# The cookie a phone keeps its choice in, for a year from the last time it chose.
COOKIE = "language"
COOKIE_MAX_AGE = 365 * 24 * 60 * 60

# The catalogs: one folder per language, each made by `make translations` from its .po file.
TRANSLATIONS = Path(__file__).resolve().parent / "translations"

babel = Babel()


def init_app(app: Flask) -> None:
    app.config.setdefault("LANGUAGES", dict(LANGUAGES))
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    babel.init_app(app, locale_selector=chosen_language)
    # The catalogs' own lookups, unfilled: words.gettext and words.ngettext fill the slots, and
    # Flask-Babel's ngettext would fill `%(num)s` alone and fail on any other slot.
    words.use_translator(
        lambda message: get_translations().ugettext(message),
        lambda singular, plural, count: get_translations().ungettext(singular, plural, count),
    )
    app.add_template_global(html_lang)
    app.add_template_global(available, "languages")
    app.add_template_global(current_language)
    app.after_request(_say_language)


def available() -> dict[str, str]:
    """The languages this app offers, code to name."""
    return current_app.config["LANGUAGES"]


def known(code: str | None) -> str | None:
    """`code` if the app has that language, else None."""
    return code if code and code in available() else None


def chosen_language() -> str:
    """The language this request is answered in (Flask-Babel's locale selector)."""
    if not has_request_context():
        # Work done outside a request (a command, a service called by a test) has nobody to ask:
        # the rules' sentences are then said in English.
        return DEFAULT_LANGUAGE
    account_choice = getattr(current_user, "language", None) if current_user else None
    return (
        known(account_choice)
        or known(request.cookies.get(COOKIE))
        or best_accepted(code for code, _quality in request.accept_languages)
        or DEFAULT_LANGUAGE
    )


def best_accepted(accepted: Iterable[str]) -> str | None:
    """The first of the browser's languages, best first, that the app has, or a variety of it.

    Werkzeug's best_match would answer "de-AT, en;q=0.5" with English, and "pt" with nothing; a
    German or Portuguese reader expects the German or the Brazilian Portuguese the app has.
    """
    offered = {code.lower().replace("_", "-"): code for code in available()}
    for tag in accepted:
        tag = tag.lower().replace("_", "-")
        primary = tag.split("-")[0]
        match = offered.get(tag) or next(
            (code for key, code in offered.items() if key.split("-")[0] == primary), None
        )
        if match:
            return match
    return None


def plural_forms(say: Callable[[int], str]) -> dict[str, str]:
    """A sentence about a number in each plural category of the reader's language, keyed by
    Unicode's names for them (one, few, many, other...), as the browser's Intl.PluralRules picks
    one for a number: the page's script then says "0 point" in French and "1 point" in English,
    by the same rules as the catalogs. `say(n)` is the sentence for n.
    """
    samples = _plural_samples(current_language())
    return {category: say(number) for category, number in samples.items()}


@cache
def _plural_samples(language: str) -> dict[str, int]:
    """A number of each plural category of `language`, found once: every game page and every
    save sends the pad its plural sentences, and the search takes a millisecond."""
    rule = Locale.parse(language).plural_form
    samples: dict[str, int] = {}
    # French and Spanish "many" is for exact millions.
    for number in (*range(0, 200), 1_000_000):
        samples.setdefault(rule(number), number)
    return samples


def current_language() -> str:
    """The request's language by its code in LANGUAGES (pt_BR)."""
    return str(get_locale() or DEFAULT_LANGUAGE)


def html_lang() -> str:
    """The request's language as HTML's lang attribute writes it: pt-BR, not pt_BR."""
    return str(get_locale() or DEFAULT_LANGUAGE).replace("_", "-")


def _say_language(response: Response) -> Response:
    """Name a page's language, and tell caches which requests may share it.

    The same address is written in the language of the account, the cookie or the browser, so a
    cache (the browser's, a proxy's) must not hand one reader's page to another.
    """
    if response.mimetype == "text/html" and request.endpoint != "static":
        response.headers["Content-Language"] = html_lang()
        response.vary.add("Cookie")
        response.vary.add("Accept-Language")
    return response
