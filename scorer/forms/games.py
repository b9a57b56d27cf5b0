"""Setting up a game: players in seat order, who deals first, mode and target.

The form is its own state: every tap (add a player, move a seat, pick the dealer, pick a target)
posts it and gets it back changed, so setup works the same with htmx and as plain form posts.
"""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import FieldList, HiddenField, RadioField, SelectChoice, StringField
from wtforms.validators import AnyOf, InputRequired, NumberRange

from ..limits import TARGET_MESSAGE
from ..scoring import DEFAULT_TARGET, MAX_PLAYERS, Mode, Problem
from ..services import players as roster
from .fields import WholeNumberField, add_error, attach

TARGET_PRESETS = (200, 300, 500)
MODE_LABELS = {
    Mode.STANDARD: "Standard",
    Mode.PARTNERS: "Partners",
    Mode.CHALLENGE: "Challenge",
}
MODE_HINTS = {
    Mode.STANDARD: "Who goes out scores everyone's cards. First to the target wins.",
    Mode.PARTNERS: "Partners sit opposite and score together. First team to the target wins.",
    Mode.CHALLENGE: "Your own cards count against you. Reach the target and you are out.",
}


class SetupForm(FlaskForm):
    mode = RadioField(
        "Mode",
        choices=[SelectChoice(mode.value, label) for mode, label in MODE_LABELS.items()],
        default=Mode.STANDARD.value,
        validate_choice=False,
        validators=[
            AnyOf([mode.value for mode in Mode], "Choose Standard, Partners or Challenge.")
        ],
    )
    players = FieldList(HiddenField(), label="Players")
    new_name = StringField("Add a player")
    teams = FieldList(StringField(), label="Team names")
    first_dealer = HiddenField(default="0")
    target = WholeNumberField(
        "Play to",
        default=DEFAULT_TARGET,
        message=TARGET_MESSAGE,
        validators=[InputRequired(TARGET_MESSAGE), NumberRange(min=1, message=TARGET_MESSAGE)],
    )

    @property
    def names(self) -> list[str]:
        return [entry.data for entry in self.players if entry.data]

    @property
    def team_names(self) -> list[str]:
        """Names typed for the partners teams, in team order; blank where none was typed."""
        return [entry.data or "" for entry in self.teams]

    @property
    def dealer(self) -> int:
        try:
            dealer = int(self.first_dealer.data or 0)
        except ValueError:
            return 0
        return dealer if 0 <= dealer < len(self.names) else 0

    def apply(self, action: str) -> bool:
        """Carry out one setup tap; False when it was refused and the form shows why."""
        verb, _, argument = action.partition(":")
        names = self.names
        dealer = self.dealer
        if verb == "add":
            if not self._can_add(self.new_name.data or "", names):
                return False
            names.append(roster.clean_name(self.new_name.data or ""))
            self.new_name.data = ""
        elif verb == "pick":
            keys = [roster.name_key(name) for name in names]
            if roster.name_key(argument) in keys:
                index = keys.index(roster.name_key(argument))
                names.pop(index)
                dealer = _after_removal(dealer, index)
            elif self._can_add(argument, names):
                names.append(roster.clean_name(argument))
            else:
                return False
        elif verb in ("up", "remove", "dealer") and argument.isdigit():
            index = int(argument)
            if not 0 <= index < len(names):
                return True
            if verb == "up" and index > 0:
                names[index - 1], names[index] = names[index], names[index - 1]
                dealer = {index: index - 1, index - 1: index}.get(dealer, dealer)
            elif verb == "remove":
                names.pop(index)
                dealer = _after_removal(dealer, index)
            elif verb == "dealer":
                dealer = index
        elif verb == "target" and argument.isdigit():
            self.target.data = int(argument)
            self.target.raw_data = [argument]
            self.target.errors = []
        self._set(names, dealer)
        return True

    def attach(self, problems: list[Problem]) -> None:
        attach(
            self,
            problems,
            {
                "players": self.new_name,
                "target": self.target,
                "mode": self.mode,
                "first_dealer": self.new_name,
            },
        )

    def _can_add(self, name: str, names: list[str]) -> bool:
        problem = roster.name_problem(name)
        if problem is None and len(names) >= MAX_PLAYERS:
            problem = f"A game has at most {MAX_PLAYERS} players."
        if problem is None and roster.duplicate_problems([*names, name]):
            problem = f"{roster.clean_name(name)} is already playing."
        if problem:
            add_error(self.new_name, problem)
            return False
        return True

    def _set(self, names: list[str], dealer: int) -> None:
        while len(self.players.entries):
            self.players.pop_entry()
        for name in names:
            self.players.append_entry(name)
        self.first_dealer.data = str(dealer if 0 <= dealer < len(names) else 0)


def _after_removal(dealer: int, removed: int) -> int:
    return dealer - 1 if removed < dealer else (0 if removed == dealer else dealer)
