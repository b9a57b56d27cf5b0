"""Phone screens a page must fit, and the check that it does not scroll sideways on them."""

from __future__ import annotations

import pytest
from browser.schemes import assert_axe_finds_nothing
from playwright.sync_api import Page

NARROW = {"width": 360, "height": 640}
PHONES = [pytest.param({"width": 390, "height": 844}, id="390"), pytest.param(NARROW, id="360")]


def assert_no_sideways_scroll(page: Page) -> None:
    width, inner = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
    assert width <= inner, f"{width}px wide in {inner}px"


def assert_fits_and_axe_finds_nothing(page: Page) -> None:
    """No sideways scroll, and axe finds nothing in light or dark."""
    assert_axe_finds_nothing(page)
    assert_no_sideways_scroll(page)
