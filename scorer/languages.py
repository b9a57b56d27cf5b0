"""Which language a request is answered in, and the app's translator for every sentence.

English is the language the app is written in. A request speaks, in this order: the language its
signed-in account chose, the one the phone chose (a cookie), the best of the browser's
Accept-Language that the app has, else English.
"""

from __future__ import annotations

from collections.abc import Iterable

from flask import Flask, current_app, has_request_context, request
from flask_babel import Babel, get_locale
from flask_babel import gettext as babel_gettext
from flask_babel import ngettext as babel_ngettext
from flask_login import current_user

from . import PACKAGE
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

babel = Babel()


def init_app(app: Flask) -> None:
    app.config.setdefault("LANGUAGES", dict(LANGUAGES))
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(PACKAGE / "translations"))
    babel.init_app(app, locale_selector=chosen_language)
    words.use_translator(
        lambda message: babel_gettext(message),
        lambda singular, plural, count: babel_ngettext(singular, plural, count),
    )
    app.add_template_global(html_lang)
    app.add_template_global(available, "languages")


def available() -> dict[str, str]:
    """The languages this app offers, code to name."""
    return current_app.config["LANGUAGES"]


def known(code: str | None) -> str | None:
    """`code` if the app has that language, else None."""
    return code if code and code in available() else None


def chosen_language() -> str:
    """The language this request is answered in (Flask-Babel's locale selector)."""
    if not has_request_context():
        # A command (`scorer ...`) speaks English; services it calls translate their words.
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


def html_lang() -> str:
    """The request's language as HTML's lang attribute writes it: pt-BR, not pt_BR."""
    return str(get_locale() or DEFAULT_LANGUAGE).replace("_", "-")
