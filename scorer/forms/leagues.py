"""League actions: start a league, register a team, start a season."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import RadioField, SelectChoice, StringField  # type: ignore[attr-defined]  # types-WTForms lags: SelectChoice is new in WTForms 3.3
from wtforms.validators import InputRequired, NumberRange

from ..field_rules import LEAGUE_NAME, PLAYER_NAME, TARGET_MESSAGE, TARGET_TOO_HIGH, TEAM_NAME
from ..scoring import MAX_TARGET, Problem
from ..services.leagues import FORMATS, LEGS
from .fields import IndexedList, WholeNumberField, attach


class LeagueForm(FlaskForm):
    name = StringField(
        "Name",
        validators=[InputRequired("Type a name for the league.")],
        description=LEAGUE_NAME.hint,
    )
    format = RadioField(
        "Format",
        choices=[SelectChoice(value, label) for value, label in FORMATS.items()],
        default="teams",
        validate_choice=False,
    )
    target = WholeNumberField(
        "Games to",
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
        "First player",
        validators=[InputRequired("Type a name.")],
        description=PLAYER_NAME.hint,
    )
    second = StringField(
        "Second player",
        validators=[InputRequired("Type a name.")],
        description=PLAYER_NAME.hint,
    )
    name = StringField("Team name (optional)", description=TEAM_NAME.hint)

    def attach(self, problems: tuple[Problem, ...]) -> None:
        attach(self, problems, {"first": self.first, "second": self.second, "name": self.name})


class TeamRenameForm(FlaskForm):
    name = StringField("Team name", description=TEAM_NAME.hint)

    def attach(self, problems: tuple[Problem, ...]) -> None:
        attach(self, problems, {"name": self.name})


class SeasonForm(FlaskForm):
    legs = RadioField(
        "Every team meets every other",
        coerce=int,
        choices=[SelectChoice(value, label) for value, label in LEGS.items()],
        default=1,
        validate_choice=False,
    )

    def attach(self, problems: tuple[Problem, ...]) -> None:
        attach(self, problems, {"legs": self.legs})


class RotationForm(FlaskForm):
    players = IndexedList(
        StringField(description=PLAYER_NAME.hint),
        min_entries=8,
        max_entries=8,
        label="Eight players",
    )

    @property
    def names(self) -> list[str]:
        return [entry.data or "" for entry in self.players]

    def attach(self, problems: tuple[Problem, ...]) -> None:
        for problem in problems:
            self.form_errors.append(problem.message)
