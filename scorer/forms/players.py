"""Roster actions: rename a player, merge another entry into them."""

from __future__ import annotations

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import SelectField, StringField
from wtforms.validators import InputRequired, ValidationError

from ..field_rules import ID_MAX, PLAYER_NAME
from ..models import Player
from ..scoring import Problem
from .fields import attach, lazily


class RenameForm(FlaskForm):
    name = StringField(
        _l("New name"),
        validators=[InputRequired(_l("Type a name."))],
        description=lazily(lambda: PLAYER_NAME.hint),
    )

    def attach(self, problems: tuple[Problem, ...]) -> None:
        attach(self, problems, {"name": self.name})


def entry_id(value: object) -> int:
    """A posted choice as a player id; anything else is the placeholder, 0, which no player has."""
    if isinstance(value, int):
        return value
    text = str(value)
    if not text.isascii() or not text.isdigit() or len(text) > len(str(ID_MAX)):
        return 0
    return int(text)


class MergeForm(FlaskForm):
    other = SelectField(
        _l("The same person, entered as"),
        coerce=entry_id,
        validators=[InputRequired(_l("Choose the other entry."))],
        validate_choice=False,
    )
    # The ids that may be merged in: every choice but the placeholder. Set by for_player.
    candidates: frozenset[int] = frozenset()

    @classmethod
    def for_player(cls, player: Player, roster: list[Player], **kwargs) -> MergeForm:
        form = cls(**kwargs)
        others = [(other.id, other.name) for other in roster if other.id != player.id]
        form.other.choices = [(0, _("Choose a player")), *others]
        form.candidates = frozenset(other_id for other_id, _name in others)
        return form

    def validate_other(self, field: SelectField) -> None:
        if field.data not in self.candidates:
            raise ValidationError(_("Choose the other entry."))

    def attach(self, problems: tuple[Problem, ...]) -> None:
        attach(self, problems, {"other": self.other})
