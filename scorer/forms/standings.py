"""The standings page's choices: period, dates, league, sort order and a name, from the address."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import DateField, Form, RadioField, SearchField, SelectChoice, SelectField  # type: ignore[attr-defined]  # types-WTForms lags: SelectChoice is new in WTForms 3.3
from wtforms.validators import Optional

from ..field_rules import is_id
from ..services.pages import SEARCH_MAX_LENGTH
from ..services.standings import PERIODS, SORTS
from .fields import said

# The page opens on games won, the order a table at home reads without explanation; the rating
# (a skill estimate) stays a column to sort by, and breaks ties.
FIRST_SORT = "wins"


class StandingsForm(Form):
    """A GET form: it changes nothing, so it carries no CSRF token and is never refused."""

    period = RadioField(
        _l("Period"),
        choices=[SelectChoice(value, said(label)) for value, label in PERIODS.items()],
        default="all",
        validate_choice=False,
    )
    first = DateField(_l("From"), validators=[Optional()])
    last = DateField(_l("To"), validators=[Optional()])
    league = SelectField(_l("League"), coerce=str, default="", validate_choice=False)
    sort = SelectField(
        _l("Sort by"),
        choices=[SelectChoice(key, said(label)) for key, (label, _column) in SORTS.items()],
        default=FIRST_SORT,
        validate_choice=False,
    )
    # Keeps the names that contain it; each keeps its rank in the whole table.
    q = SearchField(_l("Player"))
    order = SelectField(
        _l("Order"),
        choices=[SelectChoice("desc", _l("High to low")), SelectChoice("asc", _l("Low to high"))],
        default="desc",
        validate_choice=False,
    )

    @property
    def period_kind(self) -> str:
        return self.period.data if self.period.data in PERIODS else "all"

    @property
    def sort_key(self) -> str:
        return self.sort.data if self.sort.data in SORTS else FIRST_SORT

    @property
    def descending(self) -> bool:
        return self.order.data != "asc"

    @property
    def search(self) -> str:
        return (self.q.data or "")[:SEARCH_MAX_LENGTH]

    @property
    def league_id(self) -> int | None:
        value = self.league.data or ""
        # isascii: "²" is a digit to isdigit, not to int(); ten digits: a longer id is none.
        plain = value.isascii() and value.isdigit() and len(value) <= 10
        return int(value) if plain and is_id(int(value)) else None

    def link_args(self, **changes) -> dict:
        """The address arguments of this page, with `changes`: for sort links and filters."""
        args = {
            "period": self.period_kind,
            "first": self.first.data.isoformat() if self.first.data else None,
            "last": self.last.data.isoformat() if self.last.data else None,
            "league": self.league_id,
            "sort": self.sort_key,
            "order": "desc" if self.descending else "asc",
            "q": self.search,
        }
        args.update(changes)
        return {key: value for key, value in args.items() if value not in (None, "")}
