"""One screen checked in both colour schemes, as it stands, without reloading it."""

from __future__ import annotations

from collections.abc import Iterator

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

AXE = Axe()


def each_scheme(page: Page) -> Iterator[str]:
    """Shows the page in light, then in dark, yielding each; leaves it light, as phones open."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        dark = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
        assert dark == (scheme == "dark"), f"the page did not switch to {scheme}"
        yield scheme
    page.emulate_media(color_scheme="light")


def assert_axe_finds_nothing(page: Page) -> None:
    """axe finds no violation on the page as it stands, in light and in dark."""
    for scheme in each_scheme(page):
        results = AXE.run(page)
        assert not results.violations_count, f"{scheme}:\n{results.generate_report()}"
