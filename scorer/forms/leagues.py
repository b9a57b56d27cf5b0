"""League actions: start a league, register a team, start a season."""

from __future__ import annotations

from flask_babel import format_decimal, gettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import RadioField, SelectChoice, StringField  # type: ignore[attr-defined]  # types-WTForms lags: SelectChoice is new in WTForms 3.3
from wtforms.validators import InputRequired, NumberRange

from ..field_rules import LEAGUE_NAME, PLAYER_NAME, TEAM_NAME
from ..scoring import MAX_TARGET, Problem, target_words
from ..services.leagues import FORMATS, LEGS
from .fields import IndexedList, WholeNumberField, attach, lazily, said

# The rules' own words for a target refused, said when shown.
TARGET_MESSAGE = lazily(target_words)
# The rules' sentence, its number written the reader's way (the rules write it in English).
TARGET_TOO_HIGH = lazily(
    lambda: gettext("The target can be at most %(max)s points.", max=format_decimal(MAX_TARGET))
)
PLAYER_HINT = lazily(lambda: PLAYER_NAME.hint)
TEAM_HINT = lazily(lambda: TEAM_NAME.hint)


class LeagueForm(FlaskForm):
    name = StringField(
        _l("Name"),
        validators=[InputRequired(_l("Type a name for the league."))],
        description=lazily(lambda: LEAGUE_NAME.hint),
    )
    format = RadioField(
        _l("Format"),
        choices=[SelectChoice(value, said(label)) for value, label in FORMATS.items()],
        default="teams",
        validate_choice=False,
    )
    target = WholeNumberField(
        _l("Games to"),
        default=500,
        message=TARGET_MESSAGE,
        validators=[
            InputRequired(TARGET_MESSAGE),
            NumberRange(min=1, message=TARGET_MESSAGE),
            NumberRange(max=MAX_TARGET, message=TARGET_TOO_HIGH),
        ],
    )

    def attach(self, problems: tuple[Problem, ...]) -> None:
        attach(self, problems, {"name": self.name, "target": self.target, "format": self.format})


class TeamForm(FlaskForm):
    first = StringField(
        _l("First player"),
        validators=[InputRequired(_l("Type a name."))],
        description=PLAYER_HINT,
    )
    second = StringField(
        _l("Second player"),
        validators=[InputRequired(_l("Type a name."))],
        description=PLAYER_HINT,
    )
    name = StringField(_l("Team name (optional)"), description=TEAM_HINT)

    def attach(self, problems: tuple[Problem, ...]) -> None:
        attach(self, problems, {"first": self.first, "second": self.second, "name": self.name})


class TeamRenameForm(FlaskForm):
    name = StringField(_l("Team name"), description=TEAM_HINT)

    def attach(self, problems: tuple[Problem, ...]) -> None:
        attach(self, problems, {"name": self.name})


class SeasonForm(FlaskForm):
    legs = RadioField(
        _l("Every team meets every other"),
        coerce=int,
        choices=[SelectChoice(value, said(label)) for value, label in LEGS.items()],
        default=1,
        validate_choice=False,
    )

    def attach(self, problems: tuple[Problem, ...]) -> None:
        attach(self, problems, {"legs": self.legs})


class RotationForm(FlaskForm):
    players = IndexedList(
        StringField(description=PLAYER_HINT),
        min_entries=8,
        max_entries=8,
        label=_l("Eight players"),
    )

    @property
    def names(self) -> list[str]:
        return [entry.data or "" for entry in self.players]

    def attach(self, problems: tuple[Problem, ...]) -> None:
        for problem in problems:
            self.form_errors.append(problem.message)
