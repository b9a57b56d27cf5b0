"""Choosing the language the app speaks."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, SelectField
from wtforms.validators import InputRequired

from ..languages import available


class LanguageForm(FlaskForm):
    # Each language in its own words: a reader looking for theirs may not read the current one.
    language = SelectField(
        _l("Language"),
        validators=[InputRequired(_l("Choose a language."))],
        # WTForms 3.3 takes it; its type stubs do not know it yet.
        invalid_choice_message=_l("The scorer does not speak that language."),  # type: ignore[call-arg]
    )
    next = HiddenField()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.language.choices = list(available().items())
