"""Phone screens a page must fit, and the check that it does not scroll sideways on them."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

NARROW = {"width": 360, "height": 640}
PHONES = [pytest.param({"width": 390, "height": 844}, id="390"), pytest.param(NARROW, id="360")]


def assert_no_sideways_scroll(page: Page) -> None:
    width, inner = page.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
    assert width <= inner, f"{width}px wide in {inner}px"
