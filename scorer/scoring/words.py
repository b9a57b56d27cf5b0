"""The words the rules say, in the reader's language, and filling in the sentences the server and
the page's script share.

The rules stay free of Flask: a sentence is marked here as it is written, with `gettext`,
`ngettext` or `N_`, and the app plugs in its translator (`use_translator`) when it starts. Until
then, as in the rules' own tests, every sentence is the English it is written in. `%(name)s` slots
are filled the way Flask-Babel fills them, so one sentence reads the same in either place.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_PLACEHOLDER = re.compile(r"\{(\w+)\}")

Translate = Callable[[str], str]
TranslatePlural = Callable[[str, str, int], str]


def _english(message: str) -> str:
    return message


def _english_plural(singular: str, plural: str, count: int) -> str:
    return singular if count == 1 else plural


_translate: Translate = _english
_translate_plural: TranslatePlural = _english_plural


def use_translator(translate: Translate, translate_plural: TranslatePlural) -> None:
    """Say every later sentence through these: the app's catalogs for the request's language."""
    global _translate, _translate_plural
    _translate, _translate_plural = translate, translate_plural


def gettext(message: str, **values: object) -> str:
    """`message` in the reader's language, its `%(name)s` slots filled from `values`."""
    translated = _translate(message)
    return translated % values if values else translated


def ngettext(singular: str, plural: str, count: int, **values: object) -> str:
    """The form of a sentence about `count` things that the reader's language uses for it.

    `%(num)s` is filled with `count`, as Flask-Babel's ngettext fills it.
    """
    return _translate_plural(singular, plural, count) % {"num": count, **values}


def N_(message: str) -> str:  # noqa: N802 - the name gettext's tools look for
    """Mark a sentence kept in a constant, to be said with `gettext` where it is shown."""
    return message


def fill(template: str, **values: object) -> str:
    """`template` with each `{name}` replaced by its value, the way the page's script fills it.

    Not str.format: a template with a brace of its own, or a value holding "{x}", must come out as
    the script's single pass of replacements gives it.
    """
    return _PLACEHOLDER.sub(lambda match: str(values[match.group(1)]), template)
