"""Field types and helpers shared by the forms."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from flask_babel import LazyString, gettext
from flask_babel import lazy_gettext as _l
from wtforms import Field, FieldList, Form, IntegerField
from wtforms.form import BaseForm
from wtforms.validators import StopValidation

from ..scoring import Problem


def lazily(say: Callable[[], str]) -> LazyString:
    """What `say` says, asked each time it is shown: a sentence a form's class body names (a hint,
    a validator's message) is then said in the language of the request that shows it."""
    return LazyString(say)


def said(english: str) -> LazyString:
    """`english`, a sentence another module keeps (marked there for the catalogs), said in the
    language of the request that shows it."""
    return LazyString(lambda: gettext(str(english)))


WHOLE_NUMBER = _l("Type a whole number, like 37.")


class WholeNumberField(IntegerField):
    """An integer field whose parse error says, in plain words, what to type."""

    def __init__(self, *args, message: str | LazyString = WHOLE_NUMBER, **kwargs):
        super().__init__(*args, **kwargs)
        self.parse_message = message

    def process_formdata(self, valuelist: list[str]) -> None:
        if not valuelist or not valuelist[0].strip():
            self.data = None
            return
        text = valuelist[0].strip()
        try:
            self.data = int(text)
        except ValueError:
            self.data = None
            raise ValueError(self.parse_message) from None

    def pre_validate(self, form: BaseForm) -> None:
        # Text that is not a number has already said what to type; range checks on nothing would
        # only add a second, wrong message ("cannot be negative" for "abc").
        if self.process_errors:
            raise StopValidation()


class IndexedList(FieldList):
    """A FieldList that takes only indices as short as a form makes (two digits: ten seats).

    WTForms reads any digits after the prefix as an index: "players-²" and "players-" with
    thousands of digits made int() fail with a 500. Such a field is ignored, like any field the
    form does not have; an eleventh seat is still read, so it is refused as one too many."""

    def _extract_indices(self, prefix: str, formdata: Any) -> Iterator[int]:
        offset = len(prefix) + 1
        # WTForms' own separator, which types-WTForms does not declare.
        separator = getattr(self, "_field_separator", "-")
        for key in formdata:
            if key.startswith(prefix):
                index = key[offset:].split(separator, 1)[0]
                if index.isascii() and index.isdigit() and len(index) <= 2:
                    yield int(index)


def add_error(field: Field, message: str) -> None:
    """Show `message` next to `field`, after any errors it already has."""
    field.errors = [*field.errors, message]


def attach(form: Form, problems: Iterable[Problem], fields: dict[str, Field]) -> None:
    """Put each problem next to the field it names, or on the form when no field fits."""
    for problem in problems:
        field = fields.get(problem.field)
        if field is None:
            form.form_errors.append(problem.message)
        else:
            add_error(field, problem.message)
