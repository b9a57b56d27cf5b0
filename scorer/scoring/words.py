"""Filling in the sentences the server and the page's script share."""

from __future__ import annotations

import re

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def fill(template: str, **values: object) -> str:
    """`template` with each `{name}` replaced by its value, the way the page's script fills it.

    Not str.format: a template with a brace of its own, or a value holding "{x}", must come out as
    the script's single pass of replacements gives it.
    """
    return _PLACEHOLDER.sub(lambda match: str(values[match.group(1)]), template)
