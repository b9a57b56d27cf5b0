"""Numbers in addresses: no larger than the columns they are looked up in can hold.

An id past the largest an integer column holds is no row's, yet PostgreSQL refuses to compare a
column with it ("integer out of range") and the request would end in a 500. Every `<int:...>` of
every blueprint is bounded here, so such an address matches no route and answers 404 like any
other address of nothing (in JSON under /api/).

The bound is in the converter's pattern, not only in its check of the value: Werkzeug checks a
rule's methods before its values, so with a value check alone an address that two rules share by
method (a GET page and its POST) would answer 405 to one of the methods instead of 404.
"""

from __future__ import annotations

from flask import Flask
from werkzeug.routing import IntegerConverter, Map

from .field_rules import ID_MAX


def at_most(limit: int) -> str:
    """A pattern matching the whole numbers 0 to `limit` written without leading zeros."""
    digits = str(limit)
    shorter = [rf"[1-9]\d{{0,{len(digits) - 2}}}"] if len(digits) > 1 else []
    same_length = []
    for place, digit in enumerate(digits):
        lowest = 1 if place == 0 else 0
        if int(digit) > lowest:
            rest = len(digits) - place - 1
            tail = rf"\d{{{rest}}}" if rest else ""
            same_length.append(f"{digits[:place]}[{lowest}-{int(digit) - 1}]{tail}")
    return "(?:" + "|".join(["0", *shorter, *same_length, digits]) + ")"


class BoundedInteger(IntegerConverter):
    """Werkzeug's `int`, matching no number above ID_MAX whatever bound a rule gives."""

    regex = at_most(ID_MAX)

    def __init__(
        self,
        map: Map,
        fixed_digits: int = 0,
        min: int | None = None,
        max: int | None = None,
        signed: bool = False,
    ) -> None:
        if signed:
            raise ValueError("ids are never negative")
        super().__init__(map, fixed_digits, min, ID_MAX if max is None else max, signed)


def init_app(app: Flask) -> None:
    """Bound `int` in every rule; call before any blueprint adds its rules."""
    app.url_map.converters["int"] = BoundedInteger
